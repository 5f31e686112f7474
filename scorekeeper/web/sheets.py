"""Score sheets: a match's filled sheet and each game's blank sheet, as a print view and as PDF.

One template per game serves both (``pdf`` tells them apart) and the numbers on a filled sheet
are the engine's own: the hands and summary that ``matches.replay`` gives the match page.
Nothing here adds up a score; it only orders players and groups rows as paper does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from flask import Blueprint, Response, abort, render_template, request, url_for
from flask_babel import force_locale
from werkzeug.datastructures import MultiDict

from .. import matches
from ..games import GAMES, Game, InvalidHand, barbu, hearts, kozyol
from ..games.base import N_, parse_players, refuse
from ..i18n import translate
from ..models import Match
from ..pdf import render_pdf

bp = Blueprint("sheets", __name__)

GAME = f"<any({', '.join(GAMES)}):game>"
SEAT_LETTERS = "ABCD"
BLANK_ROWS = {"kozyol": 20, "hearts": 20}
OPEN_ROWS = 12  # a match still being played fills its grid up to this many rows, to go on on paper
HEARTS_SEATS = 8  # blank Hearts sheet without names or ?seats=
FIGURE, SIGN, GAP = "\u2007", "\u2008", "\u2002"  # a digit's width, about a hyphen's width, a gap


@bp.app_template_filter("columns")
def columns(numbers: list[int], *digits: int) -> str:
    """Numbers in fixed-width fields on one line, so they stand in columns inside one cell.

    Several numbers in one text run cost a fraction of one table cell each to lay out.

    >>> columns([-6, 12], 2, 3).replace(FIGURE, "_").replace(SIGN, "+").replace(GAP, " | ")
    '_-6 | _+12'
    """
    fields = []
    for number, width in zip(numbers, digits):
        text = str(abs(number))
        fields.append(FIGURE * (width - len(text)) + ("-" if number < 0 else SIGN) + text)
    return GAP.join(fields)


def standings(totals: Mapping[str, int], lowest: bool = False) -> list[tuple[int, str, int]]:
    """Rank, name and total from first to last; equal totals share a rank, in seat order.

    >>> standings({"A": 5, "B": 9, "C": 5})
    [(1, 'B', 9), (2, 'A', 5), (2, 'C', 5)]
    """
    ranked: list[tuple[int, str, int]] = []
    for place, (name, total) in enumerate(sorted(totals.items(), key=lambda item: item[1], reverse=not lowest), 1):
        ranked.append((ranked[-1][0] if ranked and ranked[-1][2] == total else place, name, total))
    return ranked


def barbu_blocks(players: list[str], first: str | None, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The 28 rows in blocks of seven per declarer, with the doubles each player made of him.

    Rows not played yet are None; a blank sheet (first is None) has no declarers yet.
    """
    blocks = []
    for block in range(barbu.SEATS):
        numbers = range(block * barbu.HANDS_PER_DECLARER + 1, (block + 1) * barbu.HANDS_PER_DECLARER + 1)
        declarer = None if first is None else players[barbu.schedule(numbers[0], players.index(first))["declarer"]]
        rows = [(n, hands[n - 1] if n <= len(hands) else None) for n in numbers]
        doubled = {name: sum(1 for _, hand in rows if hand for d in hand["entry"]["doubles"]
                             if d["by"] == name and d["target"] == declarer)
                   for name in players if name != declarer}
        blocks.append({"declarer": declarer, "rows": rows, "doubled": doubled})
    return blocks


def empty_rows(game: str, hands: list[dict[str, Any]], summary: Mapping[str, Any] | None) -> int:
    """Empty rows after the hands: a whole blank grid, a few to go on on paper, none when over."""
    if summary is None:
        return BLANK_ROWS[game]
    return 0 if summary["finished"] else max(OPEN_ROWS - len(hands), 2)


def extras(game: str, players: list[str], options: Mapping[str, Any], hands: list[dict[str, Any]],
           summary: Mapping[str, Any] | None) -> dict[str, Any]:
    """What one game's sheet shows beyond the hands: blocks, teams, deal sizes, standings."""
    if game == "barbu":
        return {"blocks": barbu_blocks(players, options.get("first_declarer"), hands),
                "letters": SEAT_LETTERS, "owed": barbu.DOUBLES_OWED,
                "contracts": barbu.CONTRACTS, "standings": standings(summary["totals"]) if summary else []}
    rows = {"empty_rows": empty_rows(game, hands, summary)}
    if game == "kozyol":
        teams = summary["teams"] if summary else [players[0::2], players[1::2]]
        return {**rows, "teams": teams, "target": options.get("target", kozyol.DEFAULT_TARGET)}
    return {**rows, "deal": hearts.deal(len(players)), "target": options.get("target", hearts.TARGET),
            "standings": standings(summary["totals"], lowest=True) if summary else []}


def filled(match: Match) -> tuple[str, dict[str, Any]]:
    """Template and context of a match's sheet, from one replay of the match."""
    sheet = matches.replay(match)
    summary = sheet.summary()
    context = {
        "game": GAMES[match.game], "match": match, "players": match.players, "options": match.options,
        "named": True, "hands": sheet.hands, "summary": summary, "blank": False,
        "back_url": url_for("pages.match", public_id=match.public_id),
        "pdf_url": url_for("sheets.match_pdf", public_id=match.public_id),
        **extras(match.game, match.players, match.options, sheet.hands, summary),
    }
    return f"sheets/{match.game}.html", context


def requested_players(game: Game, args: MultiDict[str, str]) -> list[str]:
    """Names from ?players=Ann,Bob,... (or repeated ?players=), checked as for a new match; [] if none."""
    raw = args.getlist("players")
    if len(raw) == 1:
        raw = raw[0].split(",")
    if not any(name.strip() for name in raw):
        return []
    return parse_players(raw, game.min_players, game.max_players)


def requested_seats(game: Game, args: MultiDict[str, str]) -> int:
    """The number of columns a blank sheet without names has (?seats= for Hearts)."""
    raw = args.get("seats", "").strip()
    if not raw:
        return HEARTS_SEATS if game.min_players <= HEARTS_SEATS <= game.max_players else game.min_players
    if not (raw.isascii() and raw.isdigit()) or not game.min_players <= int(raw) <= game.max_players:
        raise refuse("seats", N_("This game needs {low} to {high} players."), low=game.min_players,
                     high=game.max_players)
    return int(raw)


def blank(game: str, args: MultiDict[str, str]) -> tuple[str, dict[str, Any]]:
    """Template and context of a blank sheet, with the names printed in when given."""
    names = requested_players(GAMES[game], args)
    players = names or [""] * requested_seats(GAMES[game], args)
    query = {"players": ",".join(names)} if names else {"seats": len(players)} if game == "hearts" else {}
    context = {
        "game": GAMES[game], "match": None, "players": players, "named": bool(names), "options": {},
        "hands": [], "summary": None, "blank": True,
        "back_url": url_for("pages.home"), "pdf_url": url_for("sheets.blank_pdf", game=game, **query),
        **extras(game, players, {}, [], None),
    }
    return f"sheets/{game}.html", context


def pdf_response(data: bytes, name: str) -> Response:
    """PDF bytes shown in the browser, with a safe file name for saving."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "", name)[:80] or "sheet"
    return Response(data, mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{safe}.pdf"'})


def in_language(match: Match) -> AbstractContextManager[Any]:
    """Print in the language the match fixed for its sheet, else in the reader's."""
    return force_locale(match.language) if match.language else nullcontext()


def found(public_id: str) -> Match:
    match = matches.find(public_id)
    if match is None:
        abort(404)
    return match


@bp.errorhandler(InvalidHand)
def refused(err: InvalidHand):
    """A blank sheet asked for with names or seats that cannot be: 400 with the reason."""
    return render_template("error.html", status=400, message=translate(err.reason)), 400


@bp.get("/m/<public_id>/sheet")
def match_view(public_id: str):
    match = found(public_id)
    with in_language(match):
        template, context = filled(match)
        return render_template(template, pdf=False, **context)


@bp.get("/api/v1/matches/<public_id>/sheet.pdf")
def match_pdf(public_id: str):
    match = found(public_id)
    with in_language(match):
        template, context = filled(match)
        data = render_pdf(template, **context)
    return pdf_response(data, f"{match.game}-{match.public_id}")


@bp.get(f"/sheets/{GAME}")
def blank_view(game: str):
    template, context = blank(game, request.args)
    return render_template(template, pdf=False, **context)


@bp.get(f"/sheets/{GAME}.pdf")
def blank_pdf(game: str):
    template, context = blank(game, request.args)
    return pdf_response(render_pdf(template, **context), f"{game}-sheet")
