"""Barbu's rules page: its limits, its options in words, and its tables worked out by the engine.

Scores are the engine's own (``barbu.raw_scores``, ``barbu.settle``), never added up here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from ...games import barbu
from ...games.barbu import BarbuEntry, Double
from ...games.base import N_, Reason
from .page import ADDING_UP, EXACTLY, OptionWords, RulesPage, either, limit, scores, seat, seating, signed

LIMITS = [
    *seating(barbu.GAME),
    limit(N_("Hands in a match"), EXACTLY, count=barbu.HANDS),
    limit(N_("Tricks taken by one player"), ADDING_UP, low=0, high=barbu.CARDS_PER_HAND,
          total=barbu.COUNT_TOTALS["tricks"]),
    limit(N_("Queens taken by one player"), ADDING_UP, low=0, high=barbu.QUEENS, total=barbu.COUNT_TOTALS["queens"]),
    limit(N_("Hearts taken by one player"), ADDING_UP, low=0, high=barbu.CARDS_PER_HAND,
          total=barbu.COUNT_TOTALS["hearts"]),
    limit(N_("Dominoes scores"), N_("{count} whole numbers, never going up from first place, together {total}"),
          count=barbu.SEATS, total=barbu.DOMINO_TOTAL),
]
OPTION_WORDS = {
    "first_declarer": OptionWords(N_("Who declares first"), seat(N_("drawn at random, or chosen when the match starts"))),
    "domino_scores": OptionWords(N_("Dominoes scores"), scores),
    "enforce_declarer_doubles": OptionWords(N_("A hand missing a compulsory double"), either(
        N_("is refused"), N_("is recorded, with a warning beside it"))),
}
CONTRACT_SCORES = {
    "no_tricks": (N_("{each} for each trick taken"), {"each": barbu.PER_TRICK["no_tricks"]}),
    "no_queens": (N_("{each} for each queen taken"), {"each": barbu.PER_QUEEN}),
    "no_hearts": (N_("{each} for each heart taken; the ace of hearts costs {ace} instead"),
                  {"each": barbu.PER_HEART, "ace": barbu.ACE_OF_HEARTS}),
    "no_last_two": (N_("{second_last} for winning the second-last trick, {last} for the last one"),
                    {"second_last": barbu.SECOND_LAST_TRICK, "last": barbu.LAST_TRICK}),
    "barbu": (N_("{each} for taking the king of hearts"), {"each": barbu.KING_OF_HEARTS}),
    "trumps": (N_("{each} for each trick taken"), {"each": barbu.PER_TRICK["trumps"]}),
}
DOMINO_SCORES = N_("by the order of going out, first to last: {scores}")
# A hand of the worked example: Trumps, tricks by seat, and (doubler, doubled, redoubled) by seat.
EXAMPLE_TRICKS = (6, 3, 1, 3)
EXAMPLE_DOUBLES = ((1, 0, False), (2, 0, True), (3, 0, False))


class ContractRow(TypedDict):
    slug: str
    title: Reason
    score: Reason  # what one player scores
    total: int  # what the whole hand adds up to


class WorkedHand(TypedDict):
    tricks: dict[str, int]
    raw: dict[str, int]
    scores: dict[str, int]
    doubles: list[Double]
    declarer: str
    raw_total: int
    total: int


class Block(TypedDict):
    first: int  # hand numbers
    last: int
    declarer: str
    dealer: str
    cutter: str


class BarbuTables(TypedDict):
    seats: int
    cards: int
    hands: int
    block: int
    contracts: list[ContractRow]
    owed: int
    redoubled: int
    tricks: int
    queens: int
    negative: int
    positive: int
    example: WorkedHand
    schedule: list[Block]


def everything_to_one(players: list[str]) -> BarbuEntry:
    """An entry of any contract in which the first player takes every card that counts."""
    one = players[0]
    taken = {field: {p: total if p == one else 0 for p in players} for field, total in barbu.COUNT_TOTALS.items()}
    return BarbuEntry(contract="", doubles=[], tricks=taken["tricks"], queens=taken["queens"], hearts=taken["hearts"],
                      ace_of_hearts=one, second_last=one, last=one, king_of_hearts=one, order=list(players))


def contracts(players: list[str], domino: list[int]) -> list[ContractRow]:
    """Each contract's title, what one player scores and what the whole hand adds up to (the engine's sum)."""
    entry = everything_to_one(players)
    rows = []
    for contract in barbu.CONTRACTS:
        if contract == "dominoes":
            score = Reason(DOMINO_SCORES, {"scores": ", ".join(signed(value) for value in domino)})
        else:
            text, numbers = CONTRACT_SCORES[contract]
            score = Reason(text, {name: signed(value) for name, value in numbers.items()})
        total = sum(barbu.raw_scores(contract, entry, players, domino).values())
        rows.append(ContractRow(slug=contract, title=Reason(barbu.CONTRACT_TITLES[contract]), score=score,
                                total=total))
    return rows


def doubled_hand(players: list[str], domino: list[int]) -> WorkedHand:
    """The worked example: a Trumps hand with doubles and a redouble, scored by the engine."""
    tricks = dict(zip(players, EXAMPLE_TRICKS))
    doubles = [barbu.Double(by=players[by], target=players[target], redoubled=re)
               for by, target, re in EXAMPLE_DOUBLES]
    raw = barbu.raw_scores("trumps", barbu.BarbuEntry(contract="trumps", tricks=tricks, doubles=doubles),
                           players, domino)
    settled = barbu.settle(raw, doubles)
    return WorkedHand(tricks=tricks, raw=raw, scores=settled, doubles=doubles, declarer=players[0],
                      raw_total=sum(raw.values()), total=sum(settled.values()))


def schedule(players: list[str], first: str) -> list[Block]:
    """Who declares, deals and cuts in each block of a match."""
    rows = []
    for block in range(barbu.SEATS):
        number = block * barbu.HANDS_PER_DECLARER + 1
        seats = barbu.schedule(number, players.index(first))
        rows.append(Block(first=number, last=number + barbu.HANDS_PER_DECLARER - 1, declarer=players[seats["declarer"]],
                          dealer=players[seats["dealer"]], cutter=players[seats["cutter"]]))
    return rows


def tables(players: list[str], options: Mapping[str, Any], named: bool) -> BarbuTables:
    rows = contracts(players, options["domino_scores"])
    return BarbuTables(
        seats=barbu.SEATS, cards=barbu.CARDS_PER_HAND * barbu.SEATS, hands=barbu.HANDS,
        block=barbu.HANDS_PER_DECLARER, contracts=rows, owed=barbu.DOUBLES_OWED,
        redoubled=barbu.REDOUBLED, tricks=barbu.CARDS_PER_HAND, queens=barbu.QUEENS,
        negative=sum(row["total"] for row in rows if row["slug"] not in barbu.POSITIVE),
        positive=sum(row["total"] for row in rows if row["slug"] in barbu.POSITIVE),
        example=doubled_hand(players, options["domino_scores"]),
        schedule=schedule(players, options["first_declarer"]) if named else [],
    )


PAGE = RulesPage(limits=LIMITS, option_words=OPTION_WORDS, tables=tables)
