"""A match's readable sheet: the score sheet a table plays on with a pen and a phone reads back, as PDF.

Each page of the sheet is a ``scorekeeper.paper.layout.Page`` drawn to the millimetre: its bubbles, the boxes
the table writes its own figures in, the four corner markers and the QR code that names the match and the page.
The words around them (the heads of the columns, the legend, how to mark) are the only part the template lays
out itself, in the match's language, always clear of the bubbles and markers. The names are printed in; the
rows stay empty, hands already played included: the sheet is for playing on.

The PDF is made as the match's other sheet is (``views.printed``): rendered in a turn off the hub and kept, per
language, under what it shows (its pages, names and options) rather than the match's version, which every hand
raises while the sheet stays the same.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import cv2
from flask import Blueprint
from flask_babel import gettext as _
from markupsafe import Markup

from ...games import GAMES, barbu
from ...games.base import Game, Replay
from ...i18n import translate
from ...match import matches
from ...models import Match
from ...paper import codes, layout
from ...paper.layout import LOST, Key, Page
from ...render_slots import Busy
from ..errors import match_or_404
from . import views as sheets
from .barbu import CONTRACT_NUMERALS, SEAT_LETTERS

bp = Blueprint("paper_sheet", __name__)
bp.register_error_handler(Busy, sheets.busy)

WHOLE = 4  # a match that fits on this many pages prints them all (Barbu: one per declarer)
# Words where a bubble's label is a word of the layout, as the sheet prints them (the legend says what they are).
LABELS = {"ace": lambda: _("A♥"), "king": lambda: _("K♥")}


class Head(NamedTuple):
    left: float
    width: float
    text: str
    kind: str  # the column's key's first part: a class of the template


class Sheet(NamedTuple):
    """One page as the template draws it."""

    number: int  # from 1
    page: Page
    first: int  # the number of the hand of its first row
    title: str  # Barbu: the block's hands and declarer
    heads: list[Head]
    qr: Markup
    right: float  # where the rows' lines end
    game: Game  # its match's: a round's sheets print several matches in one document
    players: list[str]
    legend: list[str]
    of: int  # the pages of its match's sheet


def page_count(hands: int, rows: int, max_hands: int, finished: bool) -> int:
    """Pages of a match's sheet: all when the match fits on WHOLE, else the hands played and room to go on.

    >>> page_count(3, 7, 28, False), page_count(0, 9, 999, False), page_count(9, 9, 999, False)
    (4, 1, 2)
    >>> page_count(9, 9, 999, True), page_count(10, 9, 999, False)
    (1, 2)
    """
    whole = -(-max_hands // rows)
    if whole <= WHOLE:
        return whole
    pages = max(1, -(-hands // rows))
    return pages + (0 < hands == pages * rows and not finished)


@functools.cache
def marker_svg(marker_id: int) -> Markup:
    """An ArUco marker of the sheet's dictionary as SVG: 6 x 6 cells, its black border included."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.MARKER_DICTIONARY))
    bits = dictionary.generateImageMarker(marker_id, 6)
    cells = "".join(f"M{x} {y}h1v1h-1z" for y in range(6) for x in range(6) if bits[y][x] == 0)
    return Markup(f'<svg viewBox="0 0 6 6" shape-rendering="crispEdges"><path d="{cells}" fill="#000"/></svg>')


def qr_svg(payload: str) -> Markup:
    """The page's QR code as SVG (error correction M at least), its quiet zone included."""
    matrix = codes.printed_matrix(payload)
    side = len(matrix) + 2 * layout.QR_BORDER
    cells = "".join(f"M{x + layout.QR_BORDER} {y + layout.QR_BORDER}h1v1h-1z" for y, line in enumerate(matrix)
                    for x, dark in enumerate(line) if dark)
    return Markup(f'<svg viewBox="0 0 {side} {side}" shape-rendering="crispEdges">'
                  f'<rect width="{side}" height="{side}" fill="#fff"/><path d="{cells}" fill="#000"/></svg>')


def label(text: str) -> str:
    """What a bubble prints inside, in the sheet's language."""
    return LABELS[text]() if text in LABELS else text


def head_text(key: Key, players: list[str], sides: list[list[str]]) -> str:
    """A column's head: the names of its seat or team, or what is written or marked in it."""
    what = key[0]
    if what == "seat" and key[1] == LOST:
        return _("Lost in a cancelled last trick")
    if what == "seat":
        seat = int(key[1])
        return f"{SEAT_LETTERS[seat]} · {players[seat]}" if len(players) == len(SEAT_LETTERS) else players[seat]
    if what == "team":
        return " & ".join(sides[int(key[1])])
    if what == "pair":
        return SEAT_LETTERS[int(key[1])] + SEAT_LETTERS[int(key[2])]
    words = {"number": "#", "contract": _("Contract"), "score": _("Score"), "defeat": _("Defeat points"),
             "moon": "☾"}
    return words[str(what)]


def block_title(match: Match, options: Any, first: int, last: int) -> str:
    """Barbu: the hands of a page and who declares them; other games: nothing."""
    if match.game != "barbu":
        return ""
    seat = barbu.schedule(first, match.players.index(options["first_declarer"]))["declarer"]
    return _("Hands %(first)s–%(last)s · %(name)s declares", first=first, last=last, name=match.players[seat])


def legend(match: Match, options: Any) -> list[str]:
    """What the marks mean, per game, in the sheet's language."""
    if match.game == "barbu":
        contracts = " · ".join(f"{CONTRACT_NUMERALS[slug]} {translate(barbu.CONTRACT_TITLES[slug])}"
                               for slug in barbu.CONTRACTS)
        return [_("Contracts: %(contracts)s.", contracts=contracts),
                _("Per player: the count (tricks, queens, hearts, or the place in Dominoes) as 10 plus 0 to 9; "
                  "%(ace)s and %(king)s: who took the ace and the king of hearts; 12 and 13: who took the last two "
                  "tricks. Write each player's score in the Score column: a hand's scores add up to the contract's "
                  "total.", ace=label("ace"), king=label("king")),
                _("Doubles: under AB mark A when A doubled B, B when B doubled A, and R when the double was "
                  "redoubled.")]
    if match.game == "kozyol":
        return [_("Card points of each team: 100, then the tens on the second line and the units on the third; "
                  "0 on the first line: the team took no trick. Write the defeat points in the box.")]
    if match.game != "hearts":
        raise ValueError(match.game)  # as layout.page_for: a game without a readable sheet has no legend either
    points = options["moon_points"]
    return [_("Hearts taken: 10 or 20 on the first line, then 0 to 9 below; 1 or 2 beside them: the Black Marias. "
              "Lost: what a cancelled last trick took out of play. ☾: the moon was shot, −%(points)s for the shooter "
              "or +%(points)s to everyone else. Write each player's running total in the box.", points=points)]


def match_pages(match: Match, played: Replay[Any]) -> list[Sheet]:
    """The pages of a match's readable sheet, each with its match's names and legend."""
    options = played.options
    rows = layout.rows_per_page(match.game)
    page = layout.page_for(match.game, len(match.players), int(options.get("moon_points", 0) or 0))
    count = pages_of(match.game, played)
    heads = [Head(left, width, head_text(key, match.players, played.sides), head_kind(key))
             for left, width, key in page.columns]
    right = max(left + width for left, width, _key in page.columns)
    words = legend(match, options)
    return [Sheet(number, page, (number - 1) * rows + 1,
                  block_title(match, options, (number - 1) * rows + 1, number * rows), heads,
                  qr_svg(layout.qr_payload(match.public_id, number)), right, GAMES[match.game], match.players, words,
                  count)
            for number in range(1, count + 1)]


def document(pages: list[Sheet], match: Match | None = None) -> dict[str, object]:
    """The template's context for these pages, of one match or of several (named after the first)."""
    first = pages[0]
    return {"match": match, "game": first.game, "players": first.players, "pages": pages, "legend": first.legend,
            "markers": {m.id: marker_svg(m.id) for m in layout.MARKERS}, "label": label, "layout": layout}


def sheets_of(match: Match, played: Replay[Any]) -> dict[str, object]:
    """The pages of a match's readable sheet and the words around them."""
    return document(match_pages(match, played), match)


def identity(match: Match, played: Replay[Any]) -> tuple[object, ...]:
    """What a match's readable sheet shows, the key it is kept under: its pages, names and options."""
    return (match.public_id, pages_of(match.game, played), *match.players, repr(sorted(played.options.items())))


def head_kind(key: Key) -> str:
    """A column head's class: what the column holds (the lost cards' head is set smaller)."""
    return "lost" if key == ("seat", LOST) else str(key[0])


def pages_of(game: str, played: Replay[Any]) -> int:
    """How many pages the sheet of a match so far has."""
    return page_count(len(played.hands), layout.rows_per_page(game), played.max_hands, played.finished)


@bp.get("/m/<public_id>/paper.pdf")
def match_pdf(public_id: str):
    """The readable sheet, for anyone with the watch link: it holds no key.

    The rows stay empty, so a sheet changes only with its pages, names and options: it is kept under those
    rather than the match's version, and a table printing it again after a few hands gets the kept one.
    """
    match = match_or_404(public_id)
    played = matches.cached_replay(match)
    with sheets.in_language(match):
        return sheets.printed(f"{match.game}-{match.public_id}-paper", ("paper", *identity(match, played)),
                              lambda: ("sheets/paper.html", sheets_of(match, played)))
