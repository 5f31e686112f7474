"""Cancellation Hearts' printed sheet: a row per hand, a column pair per player, pages as long as the game.

A filled sheet prints each row as lines of fixed-width fields (``sheet_lines``): on the left the
hand's number and its dealer, then the passing direction and, per player, the hand's score, the
running total (underlined at or past the target) and ☾ for a moon. The dealer's name ends its
line, in a column of its own, cut at the column's edge as on paper. Rows go in blocks of a few,
one table row each, so that a long game breaks between blocks and repeats the header on each
page. Every number is the engine's own. A blank sheet is a table of empty cells to write in.
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
from .lines import Block, fit, in_blocks, line, marked, number

# Columns of a line's fields: the hand's number and its dealer; then the passing direction and,
# per player, the hand's score, the running total (digits and a sign) and the moon.
# static/sheet.css sizes the header's columns to match (LEAD, PASS + 0.5, PLAYER + 1 ch).
NUMBER, DEALER = 3, 12
LEAD = NUMBER + 1 + DEALER
PASS = 7
SCORE, TOTAL, MOON = 3, 5, 2
PLAYER = 1 + SCORE + 1 + TOTAL + MOON
BLOCK = 5  # rows per table row: a long game goes on to the next page between two blocks


def direction(way: str) -> str:
    return _("left") if way == "left" else _("right")


def player_field(hand: HeartsHand, player: str, target: int) -> Markup:
    """One player's score of the hand and running total (underlined at or past the target), ☾ for a moon."""
    total, moon = hand["totals"][player], " ☾" if hand["moon_shooter"] == player else ""
    shown = marked(str(total), TOTAL, "over") if total >= target else fit(str(total), TOTAL, ">")
    return Markup(" {} {}{}").format(number(hand["scores"][player], SCORE), shown, fit(moon, MOON))


class HeartsSheet(TypedDict):
    """What the Hearts sheet template is given besides every sheet's own; a filled sheet's lines too."""

    deal: hearts.Deal
    target: int
    ranking: list[tuple[int, str, int]]  # (place, name, total), lowest total first
    blocks: NotRequired[Callable[[int], list[Block]]]  # (empty rows) -> the blocks of lines
    lead_head: NotRequired[Markup]
    pass_head: NotRequired[str]
    total_lead: NotRequired[Markup]
    total_line: NotRequired[Markup]


def blocks(players: list[str], hands: list[HeartsHand], target: int, empty: int) -> list[Block]:
    """The hands' rows, then empty ones (taller, to write in) with their direction, in blocks of BLOCK.

    A row is (number and dealer, the rest).
    """
    played = [(f"{number(hand['number'], NUMBER)} {hand['dealer']}",
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
                              "ranking": ranking(summary["totals"], lowest=True) if summary else []}
    if summary is not None:
        extras["blocks"] = functools.partial(blocks, players, hands, target)
        extras["lead_head"] = line([f"{fit('#', NUMBER, '>')} {_('Dealer')}"])
        extras["pass_head"] = _("Pass")
        extras["total_lead"] = line([" " + _("Total")])
        extras["total_line"] = line([" " * PASS, *[fit(str(summary["totals"][p]), PLAYER, "^") for p in players]])
    return extras
