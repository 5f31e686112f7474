"""Cancellation Hearts' printed sheet: a row per hand, a column pair per player, pages as long as the game.

A filled sheet prints each row as lines of fixed-width fields (``sheet_lines``): on the left the
hand's number and its dealer, then the passing direction (an arrow: a line holds no word, whose width
the monospace grid could not count in every script) and, per player, the hand's score, the
running total (underlined at or past the target) and ☾ for a moon. The dealer's name ends its
line, in a column of its own as wide as the longest name (the grid in smaller type the wider it
is); a name above its column wraps between words, in smaller type for a long word. Rows go in
blocks of a few, one table row each, so that a long game breaks between blocks and repeats the
header on each page. Every number is the engine's own. A blank sheet is a table of empty cells to write in.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, NotRequired, TypedDict

from flask_babel import gettext as _
from markupsafe import Markup

from ...games import hearts
from ...games.base import ranking
from ...games.hearts import HeartsHand, HeartsSummary
from .lines import MONO, PADDING, Block, fit, head_type, in_blocks, line, marked, narrowest, number
from .room import Room, in_line

# Columns of a line's fields: the hand's number and its dealer; then the passing direction and,
# per player, the hand's score, the running total (digits and a sign) and the moon.
# static/sheet.css sizes the header's columns to match (LEAD, PASS + 0.5, PLAYER + 1 ch).
NUMBER, DEALER = 3, 12
LEAD = NUMBER + 1 + DEALER
PASS = 7
SCORE, TOTAL, MOON = 3, 5, 2
PLAYER = 1 + SCORE + 1 + TOTAL + MOON
BLOCK = 5  # rows per table row: a long game goes on to the next page between two blocks
# The dealer column's widths: the narrowest that holds every name whole is printed (static/sheet.css
# .hearts-lines.dealer-N), a wider one with a character to spare before the next column. The grid's type for each
# number of players (points, .hearts-lines.seats-N), smaller for a wider dealer column until the grid is as wide as
# the paper holds (PAPER points, a little to spare).
DEALER_WIDTHS = (DEALER, 20, 26, 33, 40)
TYPE = {6: 10.0, 7: 10.0, 8: 10.0, 9: 9.0, 10: 8.5, 11: 7.8}
PAPER = 783
ARROWS = {"left": "←", "right": "→"}  # the pass, as the match page shows it too


def direction(way: str) -> str:
    return ARROWS[way]


def player_field(hand: HeartsHand, player: str, target: int) -> Markup:
    """One player's score of the hand and running total (underlined at or past the target), ☾ for a moon."""
    total, moon = hand["totals"][player], " ☾" if hand["moon_shooter"] == player else ""
    shown = marked(str(total), TOTAL, "over") if total >= target else fit(str(total), TOTAL, ">")
    return Markup(" {} {}{}").format(number(hand["scores"][player], SCORE), shown, fit(moon, MOON))


def grid_type(seats: int, dealer: int) -> float:
    """The grid's type (points) for this many players and a dealer column this wide: as large as the paper allows.

    >>> grid_type(6, 12), grid_type(6, 33), grid_type(8, 33), grid_type(11, 40)
    (10.0, 10.0, 8.72, 6.67)
    """
    if dealer == DEALER:
        return TYPE[seats]
    columns = lead_width(dealer) + PASS + 0.5 + seats * (PLAYER + 1) - 0.5  # static/sheet.css .c-lead, .c-pass, .c-player
    return min(TYPE[seats], int(PAPER / (MONO * columns) * 100) / 100)


def lead_width(dealer: int) -> int:
    """The width of the number-and-dealer column for a dealer column this wide (a wider one with a character to spare).

    >>> lead_width(12), lead_width(20)
    (16, 25)
    """
    return LEAD if dealer == DEALER else LEAD + dealer - DEALER + 1


def head_types(players: list[str], dealer: int) -> list[str]:
    """Each player's class above his column: smaller type for a word wider than the column (lines.head_type)."""
    room = (PLAYER + 1) * MONO * grid_type(len(players), dealer) - PADDING
    return [head_type(player, room) for player in players]


class HeartsSheet(TypedDict):
    """What the Hearts sheet template is given besides every sheet's own; a filled sheet's lines too."""

    deal: hearts.Deal
    target: int
    ranking: list[tuple[int, str, int]]  # (place, name, total), lowest total first
    arrows: dict[str, str]  # the pass's arrows, for the legend
    blocks: NotRequired[Callable[[int], list[Block]]]  # (empty rows) -> the blocks of lines
    lead_head: NotRequired[Markup]
    pass_head: NotRequired[str]
    total_lead: NotRequired[Markup]
    total_line: NotRequired[Markup]
    dealer_width: NotRequired[int]
    head_types: NotRequired[list[str]]
    room: NotRequired[Room]  # the lines' height and the lift of their text, for the names' scripts


def blocks(players: list[str], hands: list[HeartsHand], target: int, empty: int) -> list[Block]:
    """The hands' rows, then empty ones (taller, to write in) with their direction, in blocks of BLOCK.

    A row is (number and dealer, the rest).
    """
    played = [(Markup("{} {}").format(number(hand["number"], NUMBER), in_line(hand["dealer"])),
               line([fit(direction(hand["pass"]), PASS, "^"), *[player_field(hand, p, target) for p in players]]))
              for hand in hands]
    to_write = [(number(row, NUMBER), line([fit(direction(hearts.PASSES[(row - 1) % len(hearts.PASSES)]), PASS, "^")]))
                for row in range(len(hands) + 1, len(hands) + empty + 1)]
    return in_blocks(played, BLOCK) + [{**block, "write": True} for block in in_blocks(to_write, BLOCK)]


def sheet_extras(players: list[str], options: Mapping[str, Any], hands: list[HeartsHand],
                 summary: HeartsSummary | None) -> HeartsSheet:
    """The deal for this many players, the target, the ranking so far (lowest first) and a filled sheet's lines.

    ``blocks(empty_rows)`` gives the lines: the sheet decides how many empty rows follow the hands.
    """
    target = options.get("target", hearts.TARGET)
    extras: HeartsSheet = {"deal": hearts.deal(len(players)), "target": target,
                              "ranking": ranking(summary["totals"], lowest=True) if summary else [], "arrows": ARROWS}
    if summary is not None:
        extras["blocks"] = functools.partial(blocks, players, hands, target)
        extras["lead_head"] = line([f"{fit('#', NUMBER, '>')} {_('Dealer')}"])
        extras["pass_head"] = _("Pass")
        extras["total_lead"] = line([" " + _("Total")])
        extras["total_line"] = line([" " * PASS, *[fit(str(summary["totals"][p]), PLAYER, "^") for p in players]])
        extras["dealer_width"] = narrowest(players, DEALER_WIDTHS)
        extras["head_types"] = head_types(players, extras["dealer_width"])
        extras["room"] = Room.of(players)
    return extras
