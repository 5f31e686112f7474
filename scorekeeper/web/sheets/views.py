"""Score sheets: a match's filled sheet and each game's blank sheet, as a print view and as PDF.

One template per game serves both (``pdf`` tells them apart) and the numbers on a filled sheet
are the engine's own: the hands and summary that ``matches.replay`` gives the match page.
Nothing here adds up a score; each game's pages module (``GamePages.sheet_extras``) orders
players and groups rows as paper does.

A PDF is rendered once per match version and language (``sheet_cache``), with an ETag, and a
render takes its turn (``render_slots``): when none comes in time the answer is 503 with
Retry-After, as JSON under /api/ and as a page elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, g, render_template, request, url_for
from flask.blueprints import BlueprintSetupState
from flask_babel import force_locale, get_locale, ngettext
from werkzeug.datastructures import MultiDict

from ... import pdf
from ...club.agreements import unconfirmed
from ...db import db
from ...games import GAMES
from ...games.base import N_, HandState, Summary
from ...i18n import translate
from ...match import matches
from ...models import Match
from ...names import parse_players
from ...refusals import Refusal, refuse
from ...render_slots import Busy, RenderSlots, off_the_hub
from ..club.agreements import agreed_line
from ..club.amendments import lines_of as amended_lines
from ..errors import error_page, match_or_404, reasons
from ..games.pages import GamePages
from ..games.registry import GAME_PAGES
from .cache import SheetCache
from .lines import places
from .room import name_cell

bp = Blueprint("sheets", __name__)

GAME = f"<any({', '.join(GAMES)}):game>"
OPEN_ROWS = 12  # a match still being played fills its grid up to this many rows, to go on on paper

bp.add_app_template_filter(places)
bp.add_app_template_filter(name_cell)


def empty_rows(game_pages: GamePages, hands: list[HandState], summary: Summary | None) -> int:
    """Empty rows after the hands: a whole blank grid, a few to go on on paper, none when over."""
    if summary is None:
        return game_pages.blank_rows
    return 0 if summary["finished"] else max(OPEN_ROWS - len(hands), 2)


def context(game_pages: GamePages, players: list[str], options: Any, hands: list[HandState],
            summary: Summary | None) -> dict[str, object]:
    """What every sheet template is given, and what its game adds."""
    return {"game": game_pages.game, "players": players, "options": options, "hands": hands, "summary": summary,
            "blank": summary is None, "empty_rows": empty_rows(game_pages, hands, summary),
            **game_pages.sheet_extras(players, options, hands, summary)}


def filled(match: Match) -> tuple[str, dict[str, object]]:
    """Template and context of a match's sheet, from one replay of the match."""
    played = matches.stored_replay(match)
    game_pages = GAME_PAGES[match.game]
    return game_pages.template("sheet"), {
        **context(game_pages, match.players, match.options, list(played.hands), played.summary()),
        "match": match, "named": True, "agreed_line": agreed_line(match), "amended_lines": amended_lines(match),
        "unconfirmed": unconfirmed(match),
        "back_url": url_for("pages.match", public_id=match.public_id),
        "pdf_url": url_for("sheets.match_pdf", public_id=match.public_id),
    }


def requested_players(game_pages: GamePages, args: MultiDict[str, str]) -> list[str]:
    """Names from ?players=Ann,Bob,... (or repeated ?players=), checked as for a new match; [] if none."""
    raw = args.getlist("players")
    if len(raw) == 1:
        raw = raw[0].split(",")
    if not any(name.strip() for name in raw):
        return []
    return parse_players(raw, game_pages.game.min_players, game_pages.game.max_players)


def requested_seats(game_pages: GamePages, args: MultiDict[str, str]) -> int:
    """The number of columns a blank sheet without names has (?seats= for Hearts)."""
    game, raw = game_pages.game, args.get("seats", "").strip()
    if not raw:
        return game_pages.blank_seats or game.min_players
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 3) or not game.min_players <= int(raw) <= game.max_players:
        raise refuse("seats", N_("This game needs {low} to {high} players."), low=game.min_players,
                     high=game.max_players)
    return int(raw)


def blank(game: str, args: MultiDict[str, str]) -> tuple[str, dict[str, object]]:
    """Template and context of a blank sheet, with the names printed in when given."""
    game_pages = GAME_PAGES[game]
    names = requested_players(game_pages, args)
    players = names or [""] * requested_seats(game_pages, args)
    several = game_pages.game.min_players != game_pages.game.max_players
    query = {"players": ",".join(names)} if names else {"seats": len(players)} if several else {}
    return game_pages.template("sheet"), {
        **context(game_pages, players, {}, [], None), "match": None, "named": bool(names),
        "back_url": url_for("pages.home"), "pdf_url": url_for("sheets.blank_pdf", game=game, **query),
    }


@bp.record_once
def keep_sheets(state: BlueprintSetupState) -> None:
    """The machine's render slots and kept sheets, in the app's instance folder."""
    app, folder = state.app, Path(state.app.instance_path)
    app.extensions["render_slots"] = RenderSlots(folder / "render-slots", app.config["PDF_RENDERS"],
                                                 app.config["PDF_RENDER_WAIT"])
    app.extensions["sheet_cache"] = SheetCache(folder / "sheets", app.config["PDF_CACHE_BYTES"])


def printed(name: str, identity: tuple[object, ...], sheet: Callable[[], tuple[str, dict[str, object]]]) -> Response:
    """A sheet's PDF: 304 when the phone has it, else the kept bytes, else rendered in a turn and kept.

    The database connection goes back to the pool before the wait for a turn: a download that
    waits holds nothing another request needs.
    """
    cache: SheetCache = current_app.extensions["sheet_cache"]
    tag = cache.tag(*identity, str(get_locale()))
    if request.if_none_match.contains(tag):
        return pdf_response(None, name, tag)
    data = cache.get(tag)
    if data is None:
        template, context = sheet()
        layout = pdf.layout(template, **context)
        db.session.close()
        with current_app.extensions["render_slots"].turn():
            data = cache.get(tag)  # another worker may have made it meanwhile
            if data is None:
                data = cache.put(tag, off_the_hub(layout.pdf))
                g.pdf_rendered = True  # what the rate limit on PDFs counts
    return pdf_response(data, name, tag)


def pdf_response(data: bytes | None, name: str, tag: str) -> Response:
    """PDF bytes shown in the browser, with a safe file name for saving; None: 304, the phone has them."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "", name)[:80] or "sheet"
    response = Response(data, status=200 if data is not None else 304, mimetype="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{safe}.pdf"', "Cache-Control": "no-cache"})
    response.set_etag(tag)
    return response


def in_language(match: Match) -> AbstractContextManager[Any]:
    """Print in the language the match fixed for its sheet, else in the reader's."""
    return force_locale(match.language) if match.language else nullcontext()


@bp.errorhandler(Busy)
def busy(err: Busy):
    """No render could start in time: 503 with Retry-After, the API's JSON error or a page."""
    message = ngettext("Many sheets are being printed right now. Please try again in %(num)d second.",
                       "Many sheets are being printed right now. Please try again in %(num)d seconds.",
                       err.retry_after)
    response = error_page(503, message)
    response.headers["Retry-After"] = str(err.retry_after)
    return response


@bp.errorhandler(Refusal)
def refused(err: Refusal):
    """A blank sheet asked for with names or seats that cannot be: 400 with the reason (and its field, as JSON)."""
    return error_page(400, translate(err.reason), reasons(err))


@bp.get("/m/<public_id>/sheet")
def match_view(public_id: str):
    match = match_or_404(public_id)
    with in_language(match):
        template, context = filled(match)
        return render_template(template, pdf=False, **context)


@bp.get("/api/v1/matches/<public_id>/sheet.pdf")
def match_pdf(public_id: str):
    match = match_or_404(public_id)
    with in_language(match):
        return printed(f"{match.game}-{match.public_id}", ("match", match.public_id, match.version),
                       lambda: filled(match))


@bp.get(f"/sheets/{GAME}")
def blank_view(game: str):
    template, context = blank(game, request.args)
    return render_template(template, pdf=False, **context)


@bp.get(f"/sheets/{GAME}.pdf")
def blank_pdf(game: str):
    template, context = blank(game, request.args)
    return printed(f"{game}-sheet", ("blank", game, *context["players"]), lambda: (template, context))
