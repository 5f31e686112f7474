"""Barbu's printed sheet: 28 rows in four blocks of seven, one per declarer.

A filled sheet prints each row as one line of fixed-width fields (``sheet_lines``): the hand's
number and contract, then per player the raw score, the score after doubles, the running total
and the letters of the players he doubled, "(A)" when that is the declarer, "²" when redoubled.
The lines hold no word of any language, whose width the monospace grid could not count: a contract
is its numeral (the legend names it), a block's first line marks the declarer "(A)" and the doubles
owed ☐, the totals line starts with Σ. Every number is the engine's own; nothing here adds up a
score. A blank sheet is a table of empty cells to write in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from flask_babel import gettext as _

from ...games import barbu
from ...games.barbu import BarbuHand, BarbuSummary
from ...games.base import ranking
from ...i18n import translate
from .lines import EM_SPACE, GRID_TYPE, MONO, NBSP, PADDING, fit, head_type, isolated, line, number

SEAT_LETTERS = "ABCD"
# Each contract as the lines print it, the numeral of its place in the rules; the legend gives its title.
CONTRACT_NUMERALS = dict(zip(barbu.CONTRACTS, ("I", "II", "III", "IV", "V", "VI", "VII"), strict=True))
SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
# Columns of a line's fields: the hand's number, its contract (its numeral, and a trump suit or
# starting rank), then per player the raw score, the score after doubles, the running total (digits
# and a sign) and the doubles made.
# static/sheet.css sizes the header's columns to match: LEAD + 1 and PLAYER + 1 (the rule) ch.
NUMBER, CONTRACT = 3, 21
RAW, SCORE, TOTAL, MARKS = 3, 4, 5, 12
LEAD = NUMBER + 1 + CONTRACT + 1
PLAYER = 1 + RAW + 1 + SCORE + 1 + TOTAL + 2 + MARKS + 1
HEAD_ROOM = (PLAYER + 0.5) * MONO * GRID_TYPE - PADDING  # points inside the narrowest player's header (the last)


class DeclarerBlock(TypedDict):
    """A declarer's seven rows (a hand, or None when not played yet) and the doubles each other player made of him."""

    declarer: str | None  # None on a blank sheet
    rows: list[tuple[int, BarbuHand | None]]
    doubled: dict[str, int]
    head: NotRequired[str]  # a filled sheet's lines
    lines: NotRequired[list[str]]


class BarbuSheet(TypedDict):
    """What the Barbu sheet template is given besides every sheet's own."""

    blocks: list[DeclarerBlock]
    letters: str
    ranking: list[tuple[int, str, int]]  # (place, name, total)
    seats_line: str
    lead_head: str
    total_line: str
    contracts: list[tuple[str, str]]  # (numeral, title in the sheet's language), for the legend
    head_types: list[str]  # each player's class above his column: smaller type for a long word (lines.head_type)


def blocks(players: list[str], first: str | None, hands: list[BarbuHand]) -> list[DeclarerBlock]:
    """The 28 rows in blocks of seven per declarer, with the doubles each player made of him.

    Rows not played yet are None; a blank sheet (first is None) has no declarers yet.
    """
    out: list[DeclarerBlock] = []
    for block in range(barbu.SEATS):
        numbers = range(block * barbu.HANDS_PER_DECLARER + 1, (block + 1) * barbu.HANDS_PER_DECLARER + 1)
        declarer = None if first is None else players[barbu.schedule(numbers[0], players.index(first))["declarer"]]
        rows = [(n, hands[n - 1] if n <= len(hands) else None) for n in numbers]
        doubled = {name: sum(1 for _, hand in rows if hand for d in hand["entry"]["doubles"]
                             if d["by"] == name and d["target"] == declarer)
                   for name in players if name != declarer}
        out.append({"declarer": declarer, "rows": rows, "doubled": doubled})
    return out


def marks(hand: BarbuHand, player: str, players: list[str]) -> str:
    """The letters of the players this one doubled: "(A)" the declarer, "²" when redoubled.

    >>> hand = {"declarer": "Ann", "entry": {"doubles": [{"by": "Bob", "target": "Ann", "redoubled": True},
    ...                                                  {"by": "Bob", "target": "Dee", "redoubled": False}]}}
    >>> marks(hand, "Bob", ["Ann", "Bob", "Cid", "Dee"])
    '(A)² D'
    """
    out = []
    for double in hand["entry"]["doubles"]:
        if double["by"] == player:
            letter = SEAT_LETTERS[players.index(double["target"])]
            out.append((f"({letter})" if double["target"] == hand["declarer"] else letter)
                       + ("²" if double["redoubled"] else ""))
    return " ".join(out)


def contract(hand: BarbuHand) -> str:
    """The contract's numeral with the trump suit or the starting rank noted.

    >>> contract({"contract": "trumps", "entry": {"trump_suit": "hearts"}}), contract({"contract": "no_tricks", "entry": {}})
    ('VI ♥', 'I')
    """
    notes = [SUIT_SYMBOLS[hand["entry"]["trump_suit"]]] if hand["entry"].get("trump_suit") else []
    notes += [hand["entry"]["start_rank"]] if hand["entry"].get("start_rank") else []
    return " ".join([CONTRACT_NUMERALS[hand["contract"]], *notes])


def hand_line(number_: int, hand: BarbuHand | None, players: list[str]) -> str:
    """One row: number and contract, then each player's raw score, score, running total and doubles."""
    lead = f"{number(number_, NUMBER)} {fit(contract(hand) if hand else '', CONTRACT)} "
    if hand is None:
        return line([lead, *[" " * PLAYER for _ in players]])
    return line([lead, *[f" {number(hand['raw'][p], RAW)} {number(hand['scores'][p], SCORE)} "
                         f"{number(hand['totals'][p], TOTAL)}  {fit(marks(hand, p, players), MARKS)} " for p in players]])


def head_line(block: DeclarerBlock, players: list[str]) -> str:
    """The players' part of a block's first line: the declarer's letter in brackets, as a double of him is marked,
    and the doubles each other player owes him, ☐ each, ☑ once made.

    It starts where the lead field ends (the block's hands and its declarer are printed before it,
    in a cell of their own, since a name of any script and length must fit there).
    """
    fields = []
    for seat, p in enumerate(players):
        if p == block["declarer"]:
            fields.append(fit(f"({SEAT_LETTERS[seat]})", PLAYER, "^"))
            continue
        made = block["doubled"].get(p, 0)
        boxes = "".join("☑" if made > i else "☐" for i in range(barbu.DOUBLES_OWED))
        extra = f" +{made - barbu.DOUBLES_OWED}" if made > barbu.DOUBLES_OWED else ""
        fields.append(fit(f"{boxes}{extra}", PLAYER, "^"))
    return line(fields)


def lead_head() -> str:
    """The header above the number and contract fields."""
    return line([fit(f"{fit('#', NUMBER, '>')} {_('Contract')}", LEAD)])


def total_line(summary: BarbuSummary, players: list[str]) -> str:
    return line([fit(" Σ", LEAD), *[fit(str(summary["totals"][p]), PLAYER, "^") for p in players]])


def sheet_extras(players: list[str], options: Mapping[str, Any], hands: list[BarbuHand],
                 summary: BarbuSummary | None) -> BarbuSheet:
    """The blocks of the printed sheet (with their lines on a filled one), seat letters and the ranking."""
    grid = blocks(players, options.get("first_declarer"), hands)
    if summary is not None:
        for block in grid:
            block["head"] = head_line(block, players)
            block["lines"] = [hand_line(n, hand, players) for n, hand in block["rows"]]
    return {"blocks": grid, "letters": SEAT_LETTERS, "ranking": ranking(summary["totals"]) if summary else [],
            "seats_line": EM_SPACE.join(f"{letter}{NBSP}{isolated(p)}" for letter, p in zip(SEAT_LETTERS, players)),
            "lead_head": lead_head(), "total_line": total_line(summary, players) if summary else "",
            "contracts": [(CONTRACT_NUMERALS[c], translate(barbu.CONTRACT_TITLES[c])) for c in barbu.CONTRACTS],
            "head_types": [head_type(p, HEAD_ROOM) for p in players]}
