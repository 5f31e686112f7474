"""The rules of each game for the players at the table, and the same for one match with its options.

``/rules/<game>`` explains a game with the options a match gets when it chooses nothing;
``/m/<id>/rules`` explains it with that match's options, its players' names and a box saying
which options it uses. Anyone may read both: a watcher needs no edit key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, render_template
from flask_babel import gettext as _

from ...games import GAMES
from ...models import Match
from ..errors import error_page, match_or_404
from ..games.pages import template as game_template
from . import rulebook, tables as rule_tables

bp = Blueprint("rules", __name__)


@bp.get("/rules/<game>")
def game(game: str):
    if game not in GAMES:
        abort(error_page(404, _("There is no such game.")))
    defaults = rulebook.defaults(GAMES[game])
    return page(game, list(rulebook.EXAMPLE_PLAYERS), defaults, match=None)


@bp.get("/m/<public_id>/rules")
def match(public_id: str):
    found = match_or_404(public_id)
    # A match stored before an option existed plays it at its default.
    options = {**rulebook.defaults(GAMES[found.game]), **found.options}
    return page(found.game, list(found.players), options, match=found)


def page(slug: str, players: list[str], options: Mapping[str, Any], match: Match | None) -> str:
    """A game's rules page, for a match or for none."""
    return render_template(
        game_template(slug, "rules"), game=GAMES[slug], match=match, options=options, players=players,
        uses=rulebook.in_words(slug, options), limits=[limit.said() for limit in rulebook.LIMITS[slug]],
        book=rule_tables.PAGES[slug](players, options, match is not None), say=rulebook.say,
        signed=rulebook.signed,
    )
