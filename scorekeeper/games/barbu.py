"""Barbu: four players, seven contracts per declarer, doubles settled pair by pair.

Rules: docs/rules.md section 1. Entries are keyed by player name, as in the JSON API.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, TypedDict

from ..refusals import Reason, refuse
from .base import (
    N_,
    SUITS,
    Entry,
    Game,
    HandState,
    InvalidHand,
    Summary,
    Upcoming,
    as_bool,
    as_int,
    as_player,
    check_option_keys,
    in_seat_order,
    optional_choice,
    optional_seat_name,
    per_player,
    winners_of,
)

SEATS = 4
HANDS_PER_DECLARER = 7
HANDS = SEATS * HANDS_PER_DECLARER
MAX_HANDS = HANDS  # a match is exactly its 28 hands
DOUBLES_OWED = 2
CARDS_PER_HAND = 13

CONTRACTS = ("no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu", "trumps", "dominoes")
CONTRACT_TITLES = {
    "no_tricks": N_("No Tricks"),
    "no_queens": N_("No Queens"),
    "no_hearts": N_("No Hearts"),
    "no_last_two": N_("No Last Two"),
    "barbu": N_("Barbu"),
    "trumps": N_("Trumps"),
    "dominoes": N_("Dominoes"),
}
POSITIVE = frozenset({"trumps", "dominoes"})
# Per-card or per-trick raw scores.
PER_TRICK = {"no_tricks": -2, "trumps": 5}
PER_QUEEN = -6
PER_HEART = -2
ACE_OF_HEARTS = -6
SECOND_LAST_TRICK = -10
LAST_TRICK = -20
KING_OF_HEARTS = -20
DOMINO_SCORES = (45, 20, 5, -5)
DOMINO_TOTAL = sum(DOMINO_SCORES)
# A place in Dominoes is worth at most what the two positive contracts are worth together, either way.
DOMINO_SCORE_RANGE = (-2 * DOMINO_TOTAL, 2 * DOMINO_TOTAL)
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
QUEENS = 4
DOUBLED, REDOUBLED = 1, 2  # what a double and a redouble multiply the pair's difference by
# What the table counts per player in a contract, and how many there are in all.
COUNTED = {"no_tricks": "tricks", "trumps": "tricks", "no_queens": "queens", "no_hearts": "hearts"}
COUNT_TOTALS = {"tricks": CARDS_PER_HAND, "queens": QUEENS, "hearts": CARDS_PER_HAND}
# The finishing places of Dominoes, first to last.
PLACES = tuple(range(SEATS))
# The usual Dominoes scores and the other variant tables play; any descending four summing to 65 is allowed.
DOMINO_VARIANTS = (DOMINO_SCORES, (40, 25, 10, -10))
OPTIONS = ("first_declarer", "domino_scores", "enforce_declarer_doubles")


class Double(TypedDict):
    by: str
    target: str
    redoubled: bool


class BarbuCards(TypedDict, total=False):
    """What the table counted or noted in one contract (only that contract's fields)."""

    tricks: dict[str, int]
    queens: dict[str, int]
    hearts: dict[str, int]
    ace_of_hearts: str
    second_last: str
    last: str
    king_of_hearts: str
    order: list[str]
    trump_suit: str
    start_rank: str


class BarbuEntry(BarbuCards):
    """A validated hand: the contract, what the table counted for it, and the doubles."""

    contract: str
    doubles: list[Double]


class BarbuOptions(TypedDict):
    first_declarer: str
    domino_scores: list[int]
    enforce_declarer_doubles: bool


class Transfer(TypedDict):
    """One double settled: weight x (raw of by - raw of target) moves to by and from target."""

    by: str
    target: str
    weight: int
    moved: int


class BarbuHand(HandState):
    declarer: str
    cutter: str
    contract: str
    entry: BarbuEntry
    raw: dict[str, int]
    scores: dict[str, int]
    totals: dict[str, int]
    warnings: list[str]
    settlement: list[Transfer]


class BarbuUpcoming(Upcoming):
    declarer: str
    cutter: str
    contracts_left: list[str]
    doubles_owed: dict[str, int]
    must_double: list[str]
    hands_left_in_block: int


class BarbuSummary(Summary):
    totals: dict[str, int]
    next: BarbuUpcoming | None


def parse_options(players: list[str], raw: Mapping[str, Any] | None, rng: random.Random | None) -> BarbuOptions:
    """Check options and fill in defaults for those left out; draw the first declarer when not given."""
    raw = check_option_keys(raw, OPTIONS)
    domino = raw.get("domino_scores", list(DOMINO_SCORES))
    if (
        not isinstance(domino, list)
        or len(domino) != SEATS
        or any(isinstance(v, bool) or not isinstance(v, int) for v in domino)
    ):
        raise refuse("domino_scores", N_("Give four whole numbers, first place to last."))
    domino = [as_int(value, "domino_scores", *DOMINO_SCORE_RANGE) for value in domino]
    if sum(domino) != DOMINO_TOTAL or domino != sorted(domino, reverse=True):
        raise refuse(
            "domino_scores", N_("The four scores must go down from first place and add up to {total}."),
            total=DOMINO_TOTAL,
        )
    return {
        "first_declarer": optional_seat_name(raw, "first_declarer", players, rng),
        "domino_scores": list(domino),
        "enforce_declarer_doubles": as_bool(raw.get("enforce_declarer_doubles", True), "enforce_declarer_doubles"),
    }


def schedule(number: int, first: int) -> dict[str, int]:
    """Seats of declarer, dealer and cutter for hand number (1-based).

    >>> schedule(8, 0)
    {'declarer': 1, 'dealer': 0, 'cutter': 3}
    """
    declarer = (first + (number - 1) // HANDS_PER_DECLARER) % SEATS
    return {"declarer": declarer, "dealer": (declarer - 1) % SEATS, "cutter": (declarer + 2) % SEATS}


def raw_scores(contract: str, entry: BarbuEntry, players: list[str], domino: list[int]) -> dict[str, int]:
    """Raw score of each player for a validated entry (before doubles)."""
    if contract in PER_TRICK:
        return {p: PER_TRICK[contract] * entry["tricks"][p] for p in players}
    if contract == "no_queens":
        return {p: PER_QUEEN * entry["queens"][p] for p in players}
    if contract == "no_hearts":
        ace = entry["ace_of_hearts"]
        return {p: PER_HEART * entry["hearts"][p] + (ACE_OF_HEARTS - PER_HEART) * (p == ace) for p in players}
    if contract == "no_last_two":
        return {
            p: SECOND_LAST_TRICK * (p == entry["second_last"]) + LAST_TRICK * (p == entry["last"]) for p in players
        }
    if contract == "barbu":
        return {p: KING_OF_HEARTS * (p == entry["king_of_hearts"]) for p in players}
    order = entry["order"]
    return {p: domino[order.index(p)] for p in players}


def transfers(raw: Mapping[str, int], doubles: list[Double]) -> list[Transfer]:
    """What each double moves between its pair: m x (s_by - s_target), to the doubler, from the target.

    >>> transfers({"A": 30, "B": 15}, [{"by": "B", "target": "A", "redoubled": True}])
    [{'by': 'B', 'target': 'A', 'weight': 2, 'moved': -30}]
    """
    out = []
    for double in doubles:
        weight = REDOUBLED if double["redoubled"] else DOUBLED
        by, target = double["by"], double["target"]
        out.append(Transfer(by=by, target=target, weight=weight, moved=weight * (raw[by] - raw[target])))
    return out


def settle(raw: Mapping[str, int], doubles: list[Double]) -> dict[str, int]:
    """Hand scores after doubles: f_i = s_i + sum_j m_ij (s_i - s_j).

    >>> settle({"A": 30, "B": 15}, [{"by": "B", "target": "A", "redoubled": True}])
    {'A': 60, 'B': -15}
    """
    scores = dict(raw)
    for transfer in transfers(raw, doubles):
        scores[transfer["by"]] += transfer["moved"]
        scores[transfer["target"]] -= transfer["moved"]
    return scores


def _check_sum(counts: dict[str, int], field: str, total: int, what: str) -> None:
    got = sum(counts.values())
    if got != total:
        raise refuse(
            field, N_("The {what} add up to {got}; they must add up to {total}."), what=Reason(what), got=got, total=total
        )


def parse_cards(contract: str, entry: Entry, players: list[str]) -> BarbuCards:
    """Validate the contract-specific part of an entry; return it normalized."""
    if contract in PER_TRICK:
        tricks = per_player(entry, "tricks", players, CARDS_PER_HAND)
        _check_sum(tricks, "tricks", CARDS_PER_HAND, N_("tricks"))
        out = BarbuCards(tricks=tricks)
        if contract == "trumps":
            suit = optional_choice(entry, "trump_suit", SUITS)
            if suit:
                out["trump_suit"] = suit
        return out
    if contract == "no_queens":
        queens = per_player(entry, "queens", players, QUEENS)
        _check_sum(queens, "queens", QUEENS, N_("queens"))
        return BarbuCards(queens=queens)
    if contract == "no_hearts":
        hearts = per_player(entry, "hearts", players, CARDS_PER_HAND)
        _check_sum(hearts, "hearts", CARDS_PER_HAND, N_("hearts"))
        ace = as_player(entry.get("ace_of_hearts"), "ace_of_hearts", players)
        if hearts[ace] < 1:
            raise refuse("ace_of_hearts", N_("{name} took the ace of hearts, so {name} took at least one heart."), name=ace)
        return BarbuCards(hearts=hearts, ace_of_hearts=ace)
    if contract == "no_last_two":
        return BarbuCards(second_last=as_player(entry.get("second_last"), "second_last", players),
                          last=as_player(entry.get("last"), "last", players))
    if contract == "barbu":
        return BarbuCards(king_of_hearts=as_player(entry.get("king_of_hearts"), "king_of_hearts", players))
    order = entry.get("order")
    if not isinstance(order, list) or not all(isinstance(name, str) for name in order):
        raise refuse("order", N_("Put all four players in finishing order, each once."))
    order = [name.strip() for name in order]
    if sorted(order) != sorted(players):
        raise refuse("order", N_("Put all four players in finishing order, each once."))
    out = BarbuCards(order=order)
    rank = optional_choice(entry, "start_rank", RANKS)
    if rank:
        out["start_rank"] = rank
    return out


def parse_doubles(raw: Any, contract: str, declarer: str, players: list[str]) -> list[Double]:
    """Validate the doubles of one hand against the doubling rules."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise refuse("doubles", N_("Give the doubles as a list."))
    doubles: list[Double] = []
    pairs: set[frozenset[str]] = set()
    for item in raw:
        if not isinstance(item, Mapping):
            raise refuse("doubles", N_("Each double names who doubled and whom."))
        by = as_player(item.get("by"), "doubles", players)
        target = as_player(item.get("target"), "doubles", players)
        redoubled = as_bool(item.get("redoubled", False), "doubles")
        if by == target:
            raise refuse("doubles", N_("{name} cannot double themselves."), name=by)
        if by == declarer:
            raise refuse("doubles", N_("The declarer never starts a double; {name} may only redouble."), name=by)
        if contract in POSITIVE and target != declarer:
            raise refuse("doubles", N_("In this contract only the declarer may be doubled."))
        pair = frozenset((by, target))
        if pair in pairs:
            raise refuse(
                "doubles", N_("{a} and {b} cannot double each other twice; doubling back is the redouble."),
                a=by, b=target,
            )
        pairs.add(pair)
        doubles.append(Double(by=by, target=target, redoubled=redoubled))
    return doubles


class BarbuReplay:
    """A Barbu match replayed hand by hand."""

    lowest_wins = False
    max_hands = MAX_HANDS

    def __init__(self, players: list[str], options: Mapping[str, Any]):
        self.players = list(players)
        # Checked again: stored options pass the same rules as new ones before anything is added up.
        self.options = parse_options(self.players, options, None)
        self.first = self.players.index(self.options["first_declarer"])
        self.sides = [[p] for p in self.players]
        self.hands: list[BarbuHand] = []
        # Hand number -> the reasons behind its warnings, for the web layer to translate.
        self.warned: dict[int, list[Reason]] = {}
        self.totals = {p: 0 for p in self.players}
        # Per block: contracts named so far and doubles of the declarer per player.
        self.used: set[str] = set()
        self.doubled: dict[str, int] = {p: 0 for p in self.players}

    @property
    def finished(self) -> bool:
        return len(self.hands) >= HANDS

    def _seats(self, number: int) -> dict[str, str]:
        return {role: self.players[seat] for role, seat in schedule(number, self.first).items()}

    def obligations(self) -> tuple[dict[str, int], list[str]]:
        """Doubles each non-declarer still owes the declarer, and who must double now."""
        number = len(self.hands) + 1
        declarer = self._seats(number)["declarer"]
        chances = HANDS_PER_DECLARER - (number - 1) % HANDS_PER_DECLARER
        owed = {p: max(0, DOUBLES_OWED - self.doubled[p]) for p in self.players if p != declarer}
        must = [p for p, n in owed.items() if n > 0 and n >= chances]
        return owed, must

    def play(self, entry: Entry) -> BarbuHand:
        """Validate entry as the next hand, score it and append it; return the hand state."""
        if self.finished:
            raise refuse("number", N_("All {count} hands have been played."), count=HANDS)
        if not isinstance(entry, Mapping):
            raise refuse("entry", N_("A hand must be an object."))
        number = len(self.hands) + 1
        seats = self._seats(number)
        declarer = seats["declarer"]
        contract = entry.get("contract")
        if contract not in CONTRACTS:
            raise refuse("contract", N_("Choose one of the seven contracts."))
        if contract in self.used:
            raise refuse(
                "contract", N_("{name} has already played {contract} in this block."),
                name=declarer, contract=Reason(CONTRACT_TITLES[contract]),
            )
        cards = parse_cards(contract, entry, self.players)
        doubles = parse_doubles(entry.get("doubles"), contract, declarer, self.players)
        normalized = BarbuEntry(contract=contract, **cards, doubles=doubles)
        warnings = self._check_obligation(doubles, declarer)
        if warnings:
            self.warned[number] = warnings
        raw = raw_scores(contract, normalized, self.players, self.options["domino_scores"])
        scores = settle(raw, doubles)
        self._advance(contract, doubles, declarer, scores)
        hand = BarbuHand(
            number=number,
            declarer=declarer,
            dealer=seats["dealer"],
            cutter=seats["cutter"],
            contract=contract,
            entry=normalized,
            raw=raw,
            scores=scores,
            totals=dict(self.totals),
            warnings=[str(reason) for reason in warnings],
            settlement=transfers(raw, doubles),
        )
        self.hands.append(hand)
        return hand

    def _check_obligation(self, doubles: list[Double], declarer: str) -> list[Reason]:
        _, must = self.obligations()
        doubling = {d["by"] for d in doubles if d["target"] == declarer}
        missing = [p for p in must if p not in doubling]
        if not missing:
            return []
        reasons = [
            (
                "doubles",
                Reason(
                    N_("{name} must double the declarer {declarer}: the doubles still owed equal the hands left."),
                    {"name": p, "declarer": declarer},
                ),
            )
            for p in missing
        ]
        if self.options["enforce_declarer_doubles"]:
            raise InvalidHand(reasons)
        return [reason for _, reason in reasons]

    def _advance(self, contract: str, doubles: list[Double], declarer: str, scores: dict[str, int]) -> None:
        for p in self.players:
            self.totals[p] += scores[p]
        self.used.add(contract)
        for d in doubles:
            if d["target"] == declarer:
                self.doubled[d["by"]] += 1
        if len(self.hands) % HANDS_PER_DECLARER == HANDS_PER_DECLARER - 1:
            self.used = set()
            self.doubled = {p: 0 for p in self.players}

    def next(self) -> BarbuUpcoming | None:
        """What the table does next, or None once all 28 hands are played."""
        if self.finished:
            return None
        number = len(self.hands) + 1
        owed, must = self.obligations()
        seats = self._seats(number)
        return BarbuUpcoming(
            number=number,
            declarer=seats["declarer"],
            dealer=seats["dealer"],
            cutter=seats["cutter"],
            contracts_left=[c for c in CONTRACTS if c not in self.used],
            doubles_owed=owed,
            must_double=must,
            hands_left_in_block=HANDS_PER_DECLARER - (number - 1) % HANDS_PER_DECLARER,
        )

    def summary(self) -> BarbuSummary:
        return BarbuSummary(
            totals=dict(self.totals),
            finished=self.finished,
            winners=winners_of(self.totals) if self.finished else [],
            next=self.next(),
            max_hands=MAX_HANDS,
        )

    def side_totals(self, hand: BarbuHand | None = None) -> list[int]:
        return in_seat_order(self.totals if hand is None else hand["totals"], self.players)


GAME = Game(
    slug="barbu",
    title=N_("Barbu"),
    min_players=SEATS,
    max_players=SEATS,
    max_hands=MAX_HANDS,
    parse_options=parse_options,
    new_replay=BarbuReplay,
)
