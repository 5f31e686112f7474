"""Kozyol's printed sheet: a row per deal, the teams' card points, defeat points and tally, then the goat.

A filled sheet prints each row as lines of fixed-width fields (``sheet_lines``): on the left the
deal's number and its dealer (the column as wide as the longest name, the type smaller), then the trump suit, each
team's card points ("✗" beside a team that took no trick), the defeat points of the team that
lost the deal (bold, after eggs with the sum they come from), each team's tally, and the notes, which end
the line: the only words of a line, where their width moves no column. Rows go in blocks of a few, one table row
each. Every number is the engine's own. A blank sheet is a table of empty cells to write in.

The game's Russian words (козёл, яйца) are on a Russian sheet, as its own words, and on no other: a sheet in
another language says the game in that language's words alone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, NotRequired, TypedDict

from flask_babel import gettext as _
from markupsafe import Markup, escape

from ...games import kozyol
from ...games.kozyol import KozyolHand, KozyolSummary
from .lines import Block, fit, in_blocks, isolated, line, marked, number, width
from .room import Room, in_line

SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
TICK_BOXES_UP_TO = 30  # a target up to this many defeat points gets a box per point to tick on paper
# The numbers of the sheet's legend: who wins a deal and what the loser takes.
LEGEND = {
    "wins": kozyol.EGGS + 1, "light": kozyol.DEFEAT["light"], "light_from": kozyol.LIGHT_DEFEAT_FROM,
    "light_to": kozyol.EGGS - 1, "heavy": kozyol.DEFEAT["heavy"], "heavy_to": kozyol.LIGHT_DEFEAT_FROM - 1,
    "no_trick": kozyol.DEFEAT["no_trick"], "eggs": kozyol.EGGS,
}
# Columns of a line's fields: the deal's number and dealer; then the trump suit, each team's card
# points (and ✗ for no trick), defeat points (and "=2×2" after eggs) and tally; the notes take the rest.
# static/sheet.css sizes the header's columns to match (LEAD, then each field + 1 ch).
NUMBER, DEALER = 3, 14
LEAD = NUMBER + 1 + DEALER
# The dealer column's widths: the narrowest that holds every name whole is printed, the whole grid in smaller type
# the wider it is (static/sheet.css: .kozyol-lines.dealer-N).
DEALER_WIDTHS = (DEALER, 20, 26, 33, 40)
SUIT, POINTS, DEFEAT, TALLY = 7, 14, 6, 5
BLOCK = 5  # rows per table row
NO_TRICK = "✗"  # beside the card points of a team that took no trick (the legend says so)


def points(hand: KozyolHand, team: int) -> str:
    tricks = hand["entry"].get("tricks")
    return f"{hand['entry']['points'][team]:>3}" + (f" {NO_TRICK}" if tricks and tricks[team] == 0 else "")


def defeat(hand: KozyolHand, team: int) -> Markup:
    """The defeat points of the team that lost the deal, bold, and after eggs the sum they come from ("4=2×2")."""
    if hand["loser"] != team:
        return Markup(" " * DEFEAT)
    times = hand["multiplier"]
    doubled = f"={hand['defeat_points'][team] // times}×{times}" if times > 1 else ""
    return marked(str(hand["defeat_points"][team]), 2, "lost") + fit(doubled, DEFEAT - 2)


def notes(hand: KozyolHand) -> Markup:
    said = []
    if hand["eggs"]:
        said.append(_("eggs"))
    if hand["entry"].get("last_trick"):
        name = in_line(isolated(hand["entry"]["last_trick"]))
        said.append(Markup(escape(_("last trick: %(name)s"))) % {"name": name})
    return Markup(" · ").join(said)


def deal_line(hand: KozyolHand) -> Markup:
    suit = SUIT_SYMBOLS.get(hand["entry"].get("trump_suit") or "", "")
    fields = [fit(suit, SUIT, "^"), *[fit(points(hand, team), POINTS) for team in range(kozyol.TEAMS)],
              *[defeat(hand, team) for team in range(kozyol.TEAMS)],
              *[number(hand["totals"][team], TALLY) for team in range(kozyol.TEAMS)], notes(hand)]
    drawn = line(fields)
    return Markup('<span class="eggs">{}</span>').format(drawn) if hand["eggs"] else drawn


def dealer_width(players: list[str]) -> int:
    """The narrowest dealer column that holds every player's name whole (the widest for a name wider still).

    >>> dealer_width(["Ann", "Bob"]), dealer_width(["Fyodor Dostoyevsky-Karamazov", "Ann"]), dealer_width(["王" * 30])
    (14, 33, 40)
    """
    longest = max((width(name) for name in players), default=0)
    return next((size for size in DEALER_WIDTHS if size >= longest), DEALER_WIDTHS[-1])


class KozyolSheet(TypedDict):
    """What Kozyol's sheet template is given besides every sheet's own; a filled sheet's lines too."""

    teams: list[list[str]]
    target: int
    tick_boxes: bool
    legend: dict[str, int]
    no_trick_mark: str
    blocks: NotRequired[Callable[[int], list[Block]]]  # (empty rows) -> the blocks of lines
    lead_head: NotRequired[Markup]
    dealer_width: NotRequired[int]
    room: NotRequired[Room]  # the lines' height and the lift of their text, for the names' scripts


def blocks(hands: list[KozyolHand], empty: int) -> list[Block]:
    """The deals, then empty rows (taller, to write in) to go on on paper, in blocks of BLOCK."""
    played = [(Markup("{} {}").format(number(hand["number"], NUMBER), in_line(hand["dealer"])), deal_line(hand))
              for hand in hands]
    to_write = [(number(row, NUMBER), Markup()) for row in range(len(hands) + 1, len(hands) + empty + 1)]
    return in_blocks(played, BLOCK) + [{**block, "write": True} for block in in_blocks(to_write, BLOCK)]


def sheet_extras(players: list[str], options: Mapping[str, Any], hands: list[KozyolHand],
                 summary: KozyolSummary | None) -> KozyolSheet:
    """The teams as they sit, the target and the legend's numbers, also on a blank sheet; a filled one's lines.

    ``blocks(empty_rows)`` gives the lines: the sheet decides how many empty rows follow the deals.
    """
    teams = summary["teams"] if summary else [players[team::kozyol.TEAMS] for team in range(kozyol.TEAMS)]
    target = options.get("target", kozyol.DEFAULT_TARGET)
    extras: KozyolSheet = {"teams": teams, "target": target, "tick_boxes": target <= TICK_BOXES_UP_TO, "legend": LEGEND,
                           "no_trick_mark": NO_TRICK}
    if summary is not None:
        extras["blocks"] = functools.partial(blocks, hands)
        extras["lead_head"] = line([f"{fit('#', NUMBER, '>')} {_('Dealer')}"])
        extras["dealer_width"] = dealer_width(players)
        extras["room"] = Room.of(players)
    return extras
