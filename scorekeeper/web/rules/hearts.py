"""Cancellation Hearts' rules page: its limits, its options in words, and its tables from the engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from ...games import hearts
from ...games.base import N_
from .page import AT_MOST, AT_MOST_HANDS, BETWEEN, OptionWords, RulesPage, limit, seat, seating

LIMITS = [
    *seating(hearts.GAME),
    limit(N_("Game ends when a player reaches"), BETWEEN, low=hearts.TARGET_MIN, high=hearts.TARGET_MAX),
    limit(N_("Shooting the moon counts"), N_("{first} or {second}"),
          first=hearts.MOON_POINTS[0], second=hearts.MOON_POINTS[1]),
    limit(N_("Hearts taken by one player"),
          N_("{low} to {high}, all players together {high}, or one less for each card of a cancelled last trick"),
          low=0, high=hearts.HEARTS),
    limit(N_("Black Marias taken by one player"), AT_MOST, low=0, high=hearts.BLACK_MARIAS),
    limit(N_("Hands in a game"), AT_MOST_HANDS, count=hearts.GAME.max_hands),
]
OPTION_WORDS = {
    "target": OptionWords(N_("Game ends when a player reaches"), str),
    "moon_points": OptionWords(N_("Shooting the moon counts"), str),
    "first_dealer": OptionWords(N_("Who deals first"), seat(N_("the player in the first seat"))),
}


class TableDeal(TypedDict):
    players: int
    cards_each: int
    left_over: int


class HeartsTables(TypedDict):
    low: int
    high: int
    decks: int
    cards: int
    deals: list[TableDeal]
    passed: int
    hearts: int
    black_marias: int
    heart: int
    black_maria: int
    moon: list[int]
    here: int | None  # players at this match's table; None on a page for no match


def tables(players: list[str], options: Mapping[str, Any], named: bool) -> HeartsTables:
    seats = range(hearts.MIN_PLAYERS, hearts.MAX_PLAYERS + 1)
    return HeartsTables(
        low=hearts.MIN_PLAYERS, high=hearts.MAX_PLAYERS, decks=hearts.DECKS, cards=hearts.CARDS,
        deals=[TableDeal(players=n, **hearts.deal(n)) for n in seats], passed=hearts.CARDS_PASSED,
        hearts=hearts.HEARTS, black_marias=hearts.BLACK_MARIAS, heart=hearts.HEART,
        black_maria=hearts.BLACK_MARIA, moon=list(hearts.MOON_POINTS),
        here=len(players) if named else None,
    )


PAGE = RulesPage(limits=LIMITS, option_words=OPTION_WORDS, tables=tables)
