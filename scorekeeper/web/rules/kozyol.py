"""Kozyol's rules page: its limits, its options in words, and its tables from the engine's numbers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from flask_babel import lazy_gettext as _l

from ...games import kozyol
from ...games.base import N_, Reason
from ..forms import RANK_LETTERS
from .page import AT_MOST_HANDS, BETWEEN, OptionWords, RulesPage, either, limit, seat, seating

LIMITS = [
    *seating(kozyol.GAME),
    limit(N_("Defeat points that end the series"), BETWEEN, low=kozyol.TARGET_RANGE[0], high=kozyol.TARGET_RANGE[1]),
    limit(N_("Card points of one team"), N_("{low} to {high}, both teams together {high}; never {one} or {almost}"),
          low=0, high=kozyol.TOTAL_POINTS, one=min(set(range(kozyol.TOTAL_POINTS)) - kozyol.REACHABLE),
          almost=max(set(range(kozyol.TOTAL_POINTS)) - kozyol.REACHABLE)),
    limit(N_("Cards of one rank counted in a pile"), BETWEEN, low=0, high=kozyol.CARDS_PER_RANK),
    limit(N_("Tricks of one team"), N_("{low} to {high}, both teams together {fewest} to {high}"),
          low=0, high=kozyol.TRICKS_PER_DEAL, fewest=kozyol.FEWEST_TRICKS),
    limit(N_("Deals in a series"), AT_MOST_HANDS, count=kozyol.GAME.max_hands),
]
OPTION_WORDS = {
    "target": OptionWords(N_("Defeat points that end the series"), str),
    "eggs_double_next": OptionWords(N_("After eggs"), either(
        N_("the next deal counts double"), N_("the next deal counts as usual"))),
    "six_for_zero_points": OptionWords(N_("Defeat points for 0 card points with a trick"),
                                       lambda value: str(kozyol.DEFEAT["no_trick" if value else "heavy"])),
    "first_dealer": OptionWords(N_("Who deals first"), seat(N_("the player in the first seat"))),
}
# The ranks that count, as the table names them: the deal form's steppers and this page's card values.
RANK_NAMES = {"A": _l("Aces"), "10": _l("Tens"), "K": _l("Kings"), "Q": _l("Queens"), "J": _l("Jacks")}
RANK_ORDER = ("6", "7", "8", "9", "J", "Q", "K", "10", "A")  # low to high in a suit
NOTHING_WORTH = N_("Nines, eights, sevens and sixes")


class KozyolTables(TypedDict):
    seats: int
    teams: int
    total: int
    eggs: int
    wins: int
    suit: int
    per_rank: int
    tricks: int
    multiplier: int
    card_values: list[tuple[str, int]]  # (rank in words, card points)
    nothing_worth: Reason
    order: str
    defeats: list[tuple[Reason, int]]
    team_seats: list[list[int]]
    teams_named: list[list[str]]


def defeats(six_for_zero_points: bool) -> list[tuple[Reason, int]]:
    """What the losing team has, and the defeat points it takes (before any doubling after eggs)."""
    light, heavy = kozyol.LIGHT_DEFEAT_FROM, kozyol.LIGHT_DEFEAT_FROM - 1
    rows = [(Reason(N_("{low} to {high} card points"), {"low": light, "high": kozyol.EGGS - 1}), kozyol.DEFEAT["light"])]
    if six_for_zero_points:
        rows += [(Reason(N_("{high} card points or fewer, but not 0"), {"high": heavy}), kozyol.DEFEAT["heavy"]),
                 (Reason(N_("0 card points, or no trick at all")), kozyol.DEFEAT["no_trick"])]
    else:
        rows += [(Reason(N_("{high} card points or fewer, and at least one trick"), {"high": heavy}),
                  kozyol.DEFEAT["heavy"]),
                 (Reason(N_("no trick at all")), kozyol.DEFEAT["no_trick"])]
    return rows


def tables(players: list[str], options: Mapping[str, Any], named: bool) -> KozyolTables:
    letters = {rank: str(RANK_LETTERS.get(rank, rank)) for rank in RANK_ORDER}
    return KozyolTables(
        seats=kozyol.SEATS, teams=kozyol.TEAMS, total=kozyol.TOTAL_POINTS, eggs=kozyol.EGGS,
        wins=kozyol.EGGS + 1, suit=sum(kozyol.CARD_VALUES.values()), per_rank=kozyol.CARDS_PER_RANK,
        tricks=kozyol.TRICKS_PER_DEAL, multiplier=kozyol.EGGS_MULTIPLIER,
        card_values=[(str(RANK_NAMES[rank]), value) for rank, value in kozyol.CARD_VALUES.items()],
        nothing_worth=Reason(NOTHING_WORTH), order=" ".join(letters[rank] for rank in RANK_ORDER),
        defeats=defeats(options["six_for_zero_points"]),
        team_seats=[[seat + 1 for seat in range(team, kozyol.SEATS, kozyol.TEAMS)] for team in range(kozyol.TEAMS)],
        teams_named=[players[team::kozyol.TEAMS] for team in range(kozyol.TEAMS)] if named else [],
    )


PAGE = RulesPage(limits=LIMITS, option_words=OPTION_WORDS, tables=tables)
