"""Cancellation Hearts: six to eleven players, two decks, lowest total wins.

Rules: docs/rules.md section 3. Entries are keyed by player name, as in the JSON API.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from ..refusals import refuse
from .base import (
    N_,
    Entry,
    Game,
    Summary,
    at_limit,
    check_option_keys,
    in_seat_order,
    optional_choice,
    optional_seat_name,
    per_player,
    winners_of,
)

MIN_PLAYERS = 6
MAX_PLAYERS = 11
DECKS = 2
CARDS = 52 * DECKS
# Cards of each kind in play, and what each one taken costs.
HEARTS = 13 * DECKS
BLACK_MARIAS = DECKS
HEART = 1
BLACK_MARIA = 13
# Passing direction by hand: left in hands 1, 3, 5, ...; right in hands 2, 4, 6, ...
PASSES = ("left", "right")
CARDS_PASSED = 3
MOON_CHOICES = ("subtract", "add")
MOON_POINTS = (26, 52)
TARGET = 150
TARGET_MIN = 26  # any target a table agrees on, down to one moon's worth; 100 is the sensible least
TARGET_MAX = 1000
# A game in which every hand's 52 points are taken ends within 212 hands even at the extremes
# (11 players, target 1000, points spread perfectly evenly); 400 leaves room for cancelled last
# tricks and moons taken off the shooter, and is over 30 hours of play.
MAX_HANDS = 400
OPTIONS = ("target", "moon_points", "first_dealer")


class HeartsEntry(TypedDict):
    """A validated hand: hearts and Black Marias per player, the moon choice when someone shot it."""

    hearts: dict[str, int]
    black_marias: dict[str, int]
    moon: NotRequired[str]


class HeartsOptions(TypedDict):
    target: int
    moon_points: int
    first_dealer: str


class Deal(TypedDict):
    cards_each: int
    left_over: int


# "pass" is a Python keyword, so these take the functional form (same keys as HandState/Upcoming and more).
Schedule = TypedDict("Schedule", {"dealer": int, "leader": int, "pass": str})  # seats, and the passing way
Seats = TypedDict("Seats", {"dealer": str, "leader": str, "pass": str})
class Moon(TypedDict):
    """The moon as the shooter chose it: subtract from the shooter, or add to everyone else."""

    shooter: str
    choice: str
    points: int


class Taken(TypedDict):
    """What a hand's points are made of: so much per heart and per Black Maria, and the moon if shot."""

    per_heart: int
    per_black_maria: int
    moon: Moon | None


HeartsHand = TypedDict("HeartsHand", {
    "number": int, "dealer": str, "leader": str, "pass": str, "entry": HeartsEntry,
    "points": dict[str, int], "scores": dict[str, int], "totals": dict[str, int], "moon_shooter": str | None,
    "settlement": Taken,
})
HeartsUpcoming = TypedDict("HeartsUpcoming", {
    "number": int, "dealer": str, "leader": str, "pass": str, "cards_each": int, "left_over": int,
})


class HeartsSummary(Summary):
    totals: dict[str, int]
    next: HeartsUpcoming | None
    closest: list[str]
    target: int


def parse_options(players: list[str], raw: Mapping[str, Any] | None, rng: random.Random | None) -> HeartsOptions:
    """Check options and fill in defaults for those left out; the first dealer is seat 0 unless named."""
    raw = check_option_keys(raw, OPTIONS)
    target = raw.get("target", TARGET)
    if isinstance(target, bool) or not isinstance(target, int) or not TARGET_MIN <= target <= TARGET_MAX:
        raise refuse(
            "target", N_("The target is a whole number of points from {low} to {high}."),
            low=TARGET_MIN, high=TARGET_MAX,
        )
    moon = raw.get("moon_points", MOON_POINTS[0])
    if isinstance(moon, bool) or not isinstance(moon, int) or moon not in MOON_POINTS:
        raise refuse(
            "moon_points", N_("Shooting the moon counts either {first} or {second} points."),
            first=MOON_POINTS[0], second=MOON_POINTS[1],
        )
    return HeartsOptions(target=target, moon_points=moon,
                         first_dealer=optional_seat_name(raw, "first_dealer", players, None))


def deal(seats: int) -> Deal:
    """Cards dealt to each player and cards left over for the first trick.

    >>> deal(7)
    {'cards_each': 14, 'left_over': 6}
    """
    cards_each, left_over = divmod(CARDS, seats)
    return Deal(cards_each=cards_each, left_over=left_over)


def schedule(number: int, first: int, seats: int) -> Schedule:
    """Seats of dealer and leader and the passing direction for hand number (1-based).

    >>> schedule(4, 5, 6)
    {'dealer': 2, 'leader': 3, 'pass': 'right'}
    """
    dealer = (first + number - 1) % seats
    return {"dealer": dealer, "leader": (dealer + 1) % seats, "pass": PASSES[(number - 1) % len(PASSES)]}


def points_of(hearts: Mapping[str, int], marias: Mapping[str, int]) -> dict[str, int]:
    """Points taken by each player: hearts plus Black Marias.

    >>> points_of({"A": 5, "B": 0}, {"A": 1, "B": 0})
    {'A': 18, 'B': 0}
    """
    return {p: HEART * hearts[p] + BLACK_MARIA * marias[p] for p in hearts}


def shooter_of(hearts: Mapping[str, int], marias: Mapping[str, int]) -> str | None:
    """The player who took every heart and both Black Marias, if anyone did."""
    for p in hearts:
        if hearts[p] == HEARTS and marias[p] == BLACK_MARIAS:
            return p
    return None


def score(points: Mapping[str, int], shooter: str | None, moon: str | None, moon_points: int) -> dict[str, int]:
    """Hand scores: the points, or the moon applied for the shooter's choice.

    >>> score({"A": 52, "B": 0, "C": 0}, "A", "add", 26)
    {'A': 0, 'B': 26, 'C': 26}
    >>> score({"A": 52, "B": 0}, "A", "subtract", 26)
    {'A': -26, 'B': 0}
    """
    if shooter is None:
        return dict(points)
    if moon == "subtract":
        return {p: -moon_points if p == shooter else points[p] for p in points}
    return {p: 0 if p == shooter else points[p] + moon_points for p in points}


def _check_at_most(counts: Mapping[str, int], field: str, limit: int, text: str) -> None:
    got = sum(counts.values())
    if got > limit:
        raise refuse(field, text, got=got, limit=limit)


def parse_entry(entry: Any, players: list[str]) -> tuple[HeartsEntry, str | None]:
    """Validate one hand's entry; return it normalized and the moon shooter (or None)."""
    if not isinstance(entry, Mapping):
        raise refuse("entry", N_("A hand must be an object."))
    hearts = per_player(entry, "hearts", players, HEARTS)
    _check_at_most(hearts, "hearts", HEARTS, N_("The hearts add up to {got}; at most {limit} can be taken."))
    # Only a cancelled last trick loses cards, and it holds one card per player.
    if sum(hearts.values()) < HEARTS - len(players):
        raise refuse("hearts", N_("The hearts add up to {got}, but at least {low} are taken: a cancelled last "
                                  "trick loses at most {count} cards."),
                     got=sum(hearts.values()), low=HEARTS - len(players), count=len(players))
    marias = per_player(entry, "black_marias", players, BLACK_MARIAS)
    _check_at_most(
        marias, "black_marias", BLACK_MARIAS, N_("The Black Marias add up to {got}; at most {limit} can be taken.")
    )
    moon = optional_choice(entry, "moon", MOON_CHOICES)
    normalized = HeartsEntry(hearts=hearts, black_marias=marias)
    shooter = shooter_of(hearts, marias)
    if shooter is None and moon is not None:
        raise refuse("moon", N_("Nobody took all {hearts} hearts and both Black Marias, so there is no moon to "
                                "choose; leave it empty."), hearts=HEARTS)
    if shooter is not None:
        if moon is None:
            raise refuse(
                "moon", N_("{name} shot the moon: choose subtract (from {name}) or add (to everyone else)."),
                name=shooter,
            )
        normalized["moon"] = moon
    return normalized, shooter


class HeartsReplay:
    """A Cancellation Hearts match replayed hand by hand."""

    lowest_wins = True
    max_hands = MAX_HANDS

    def __init__(self, players: list[str], options: Mapping[str, Any]):
        self.players = list(players)
        # Checked again: stored options pass the same rules as new ones before anything is added up.
        self.options = parse_options(self.players, options, None)
        self.first = self.players.index(self.options["first_dealer"])
        self.sides = [[p] for p in self.players]
        self.hands: list[HeartsHand] = []
        self.totals = {p: 0 for p in self.players}

    @property
    def finished(self) -> bool:
        """Whether a player has reached or passed the target."""
        return any(total >= self.options["target"] for total in self.totals.values())

    def _seats(self, number: int) -> Seats:
        seats = schedule(number, self.first, len(self.players))
        return {"dealer": self.players[seats["dealer"]], "leader": self.players[seats["leader"]], "pass": seats["pass"]}

    def play(self, entry: Entry) -> HeartsHand:
        """Validate entry as the next hand, score it and append it; return the hand state."""
        if self.finished:
            raise refuse(
                "number", N_("The game is over: a player has reached the target of {target}."),
                target=self.options["target"],
            )
        if limit := at_limit(len(self.hands), MAX_HANDS):
            raise limit
        normalized, shooter = parse_entry(entry, self.players)
        points = points_of(normalized["hearts"], normalized["black_marias"])
        scores = score(points, shooter, normalized.get("moon"), self.options["moon_points"])
        for p in self.players:
            self.totals[p] += scores[p]
        number = len(self.hands) + 1
        seats = self._seats(number)
        hand: HeartsHand = {
            "number": number, "dealer": seats["dealer"], "leader": seats["leader"], "pass": seats["pass"],
            "entry": normalized, "points": points, "scores": scores, "totals": dict(self.totals),
            "moon_shooter": shooter,
            "settlement": Taken(per_heart=HEART, per_black_maria=BLACK_MARIA, moon=None if shooter is None else Moon(
                shooter=shooter, choice=normalized["moon"], points=self.options["moon_points"])),
        }
        self.hands.append(hand)
        return hand

    def next(self) -> HeartsUpcoming | None:
        """What the table does next, or None once a player has reached the target or the match its limit."""
        if self.finished or len(self.hands) >= MAX_HANDS:
            return None
        number = len(self.hands) + 1
        seats, cards = self._seats(number), deal(len(self.players))
        return {"number": number, "dealer": seats["dealer"], "leader": seats["leader"], "pass": seats["pass"],
                "cards_each": cards["cards_each"], "left_over": cards["left_over"]}

    def summary(self) -> HeartsSummary:
        """Totals, finished, winners, next, and who is closest to the target."""
        return HeartsSummary(
            totals=dict(self.totals),
            finished=self.finished,
            winners=winners_of(self.totals, lowest=True) if self.finished else [],
            next=self.next(),
            closest=winners_of(self.totals),
            target=self.options["target"],
            max_hands=MAX_HANDS,
        )

    def side_totals(self, hand: HeartsHand | None = None) -> list[int]:
        return in_seat_order(self.totals if hand is None else hand["totals"], self.players)


GAME = Game(
    slug="hearts",
    title=N_("Cancellation Hearts"),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    max_hands=MAX_HANDS,
    parse_options=parse_options,
    new_replay=HeartsReplay,
)
