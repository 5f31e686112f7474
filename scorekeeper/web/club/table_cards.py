"""Table cards: one PDF per round of a club evening, all on A4: an A5 card per table, two to a sheet of paper with a
line to cut along, each pair followed by the two tables' blank score sheets.

A card gives the round and the table, the seats in order (the teams, for a game played in teams), who
deals or declares first, and a QR code of the table's edit link, with the link printed under it. The
sheet after it is the game's own blank sheet (its sheet template, bare), the names printed in. The cards
carry edit links, so only the club's admin gets them: on a phone that holds the admin key, or over the
API with it. A PDF is rendered once per club stamp, round and language, through the sheets' render
slots and cache.

The round's readable sheets come with them, for the admin too: every table's readable sheet (the one its
match prints, names filled in) in one PDF, in the order of the cards, kept under what each sheet shows.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from flask import Blueprint, Response, abort, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from ...club import rounds
from ...club.evenings import evening_of
from ...club.results import stamp
from ...club.roster import row_id
from ...club.service import SEAT_OPTIONS
from ...games import GAMES
from ...games.base import N_, Game
from ...match import matches
from ...models import Club, Evening, EveningRound, EveningTable, Match
from ...render_slots import Busy
from .. import links
from ..api.clubs import authorize
from ..errors import error_page
from ..games.registry import GAME_PAGES
from ..headers import mark_private
from ..sheets import paper, views as sheets
from . import phone as club_phone
from .pages import disposition
from .rounds import teams_of

bp = Blueprint("club_table_cards", __name__)
bp.register_error_handler(Busy, sheets.busy)

# Who plays first at a table, by the game option that names that seat.
FIRST = {"first_declarer": N_("%(name)s declares first"), "first_dealer": N_("%(name)s deals first")}
NO_EVENING = N_("There is no such club or evening.")
NO_MATCHES = N_("This round has no match left to print a readable sheet for.")
NO_ROUND = N_("This evening has no round of that number: its table cards are printed once a round is confirmed.")
CARDS_PER_SHEET = 2  # two A5 cards side by side on each landscape A4 sheet, a cut line between them


class Card(NamedTuple):
    """One table of a round as its card prints it, and the blank sheet that follows."""

    number: int
    game: Game
    names: list[str]  # in seat order, the roster's names now
    teams: list[list[str]] | None  # by name, for a game played in teams
    first: str  # "Ann deals first"
    link: str  # the table's edit link, absolute
    qr: Markup  # the link as a QR code, inline SVG
    sheet: Markup  # the game's blank sheet with the names, bare


@bp.errorhandler(matches.NotFound)
def not_found(err: matches.NotFound):  # noqa: ARG001
    return error_page(404, _(NO_EVENING))


def chosen(evening: Evening, raw: str | None) -> tuple[EveningRound, list[tuple[EveningTable, Match | None]]]:
    """The round asked for (?round=n), the latest without one; a 404 answer when there is none such."""
    played = rounds.rounds_of(evening)
    number = played[-1][0].number if played and not raw else row_id(raw)
    found = next((done for done in played if done[0].number == number), None)
    if found is None:
        abort(error_page(404, _(NO_ROUND)))
    return found


def seated_options(match: Match | None, names: list[str]) -> dict[str, Any]:
    """The match's options, a seat they name (who plays first) by the roster's name now."""
    if match is None:
        return {}
    options = dict(match.options or {})
    for option in SEAT_OPTIONS:
        if options.get(option) in match.players and len(names) == len(match.players):
            options[option] = names[match.players.index(options[option])]
    return options


def first_words(slug: str, options: dict[str, Any], names: list[str]) -> str:
    """Who plays first: "Ann deals first"; "" for a game where nobody is named."""
    option = rounds.first_seat_option(slug)
    if option not in FIRST or not names:
        return ""
    return _(FIRST[option], name=options.get(option, names[0]))


def blank_sheet(slug: str, names: list[str], options: dict[str, Any]) -> Markup:
    """The game's blank sheet with these names, bare, for a document of its own kind."""
    game_pages = GAME_PAGES[slug]
    return Markup(render_template(game_pages.template("sheet"), pdf=True, bare=True, match=None, named=True,
                                  **sheets.context(game_pages, names, options, [], None)))


def join_link(match: Match | None) -> str:
    """A table's edit link, absolute: its key made from the app's secret, as its seated phones get it."""
    if match is None:
        return ""
    return url_for("pages.join", public_id=match.public_id, key=rounds.seat_key(match), _external=True)


def card_of(state: rounds.TableState) -> Card:
    """A table's card and the sheet that follows it."""
    table, match = state.table, state.match
    link = join_link(match)
    qr = Markup(links.qr_svg(link, scalable=True).decode()) if link else Markup()
    options = seated_options(match, state.names)
    return Card(table.number, GAMES[table.game], state.names, teams_of(table.game, state.names),
                first_words(table.game, options, state.names), link, qr,
                blank_sheet(table.game, state.names, options))


def document(club: Club, evening: Evening, made: EveningRound,
             tables: list[tuple[EveningTable, Match | None]]) -> tuple[str, dict[str, object]]:
    """Template and context of the round's cards: a card per table, each followed by its sheet."""
    cards = [card_of(state) for state in rounds.table_states(club, tables)]
    return "sheets/table_cards.html", {"club": club, "evening": evening, "round": made, "cards": cards,
                                       "per_sheet": CARDS_PER_SHEET}


def printed(club: Club, evening: Evening, raw: str | None) -> Response:
    """The round's cards as PDF, rendered once per club stamp, round, links and language; named for saving, never
    stored by a browser or a proxy (they show edit keys)."""
    made, tables = chosen(evening, raw)
    mark_private()
    # The links are part of what is printed: this server's address and the keys made from its secret.
    printed_links = tuple(join_link(match) for _table, match in tables)
    answer = sheets.printed(f"cards-{club.public_id}-{made.number}", ("cards", *stamp(club), made.id, printed_links),
                            functools.partial(document, club, evening, made, tables))
    answer.headers["Content-Disposition"] = disposition(
        [club.name, evening.name or evening.day.isoformat(), _("Round %(n)s", n=made.number)])
    return answer


def readable(club: Club, evening: Evening, raw: str | None) -> Response:
    """The round's readable sheets as one PDF, each table's pages in the order of the cards, kept under what each
    sheet shows; in the reader's language, as the cards are."""
    made, tables = chosen(evening, raw)
    mark_private()  # the admin's, as the cards are
    played = [(match, matches.cached_replay(match)) for _table, match in tables if match is not None]
    if not played:
        abort(error_page(404, _(NO_MATCHES)))
    shown = tuple(paper.identity(match, replay) for match, replay in played)
    answer = sheets.printed(f"sheets-{club.public_id}-{made.number}", ("readable", made.id, shown),
                            lambda: ("sheets/paper.html",
                                     paper.document([page for match, replay in played
                                                     for page in paper.match_pages(match, replay)])))
    answer.headers["Content-Disposition"] = disposition(
        [club.name, evening.name or evening.day.isoformat(), _("Round %(n)s", n=made.number), _("Readable sheets")])
    return answer


@bp.get("/c/<public_id>/evenings/<int:evening_id>/cards.pdf")
def cards_pdf(public_id: str, evening_id: int):
    """The table cards of a round (?round=n, the latest without one), for the club's admin."""
    club = club_phone.administered(public_id)
    return printed(club, evening_of(club, evening_id), request.args.get("round"))


@bp.get("/api/v1/clubs/<club_id>/evenings/<int:evening_id>/cards.pdf")
def api_cards_pdf(club_id: str, evening_id: int):
    """The same PDF over the API, with the club's admin key."""
    club = authorize(club_id)
    return printed(club, evening_of(club, evening_id), request.args.get("round"))


@bp.get("/c/<public_id>/evenings/<int:evening_id>/cards/paper.pdf")
def paper_pdf(public_id: str, evening_id: int):
    """The readable sheets of a round's tables (?round=n, the latest without one), for the club's admin."""
    club = club_phone.administered(public_id)
    return readable(club, evening_of(club, evening_id), request.args.get("round"))
