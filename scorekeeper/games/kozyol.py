"""Kozyol (the goat): two teams count card points; the loser of each deal takes defeat points.

Rules: docs/rules.md section 2. Team 0 is seats 0 and 2, team 1 seats 1 and 3; entries give
pairs [team 0, team 1], as in the JSON API. With ``eggs_double_next`` the deal after eggs
counts double; eggs twice in a row do not stack, the next deal still counts double only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from ..refusals import refuse
from .base import (
    N_,
    SUITS,
    Entry,
    Game,
    HandState,
    Summary,
    Upcoming,
    as_bool,
    as_int,
    as_player,
    at_limit,
    check_option_keys,
    optional_choice,
    optional_seat_name,
    quoted,
)

SEATS = 4
TEAMS = 2
TRICKS_PER_DEAL = 9  # 36 cards, four to a trick; leads of several cards make fewer tricks
FEWEST_TRICKS = 3  # every lead four cards covered by four: 16 cards, 16, then the last 4
CARD_VALUES = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}  # 9, 8, 7 and 6 count nothing
CARDS_PER_RANK = 4
TOTAL_POINTS = CARDS_PER_RANK * sum(CARD_VALUES.values())
EGGS = TOTAL_POINTS // 2
LIGHT_DEFEAT_FROM = 31  # a loser with 31 to 59 card points takes the light defeat
DEFEAT = {"light": 2, "heavy": 4, "no_trick": 6}
EGGS_MULTIPLIER = 2
DEFAULT_TARGET = 12
TARGET_RANGE = (1, 100)
# No series at the highest target lasts 99 deals without eggs (each team at most 49 light defeats
# before the 50th); 200 leaves room for 101 eggs, more than any real table sees.
MAX_DEALS = 200
FLAGS = ("eggs_double_next", "six_for_zero_points")
OPTIONS = ("target", *FLAGS, "first_dealer")


class KozyolEntry(TypedDict):
    """A validated deal: card points [team 0, team 1] always; cards, tricks and notes when given."""

    points: list[int]
    cards: NotRequired[list[dict[str, int]]]
    tricks: NotRequired[list[int | None]]
    trump_suit: NotRequired[str]
    last_trick: NotRequired[str]


class KozyolOptions(TypedDict):
    target: int
    eggs_double_next: bool
    six_for_zero_points: bool
    first_dealer: str


class Defeat(TypedDict):
    """Why the losing team took what it took: its card points and tricks, the kind of defeat, the doubling."""

    points: int
    tricks: int | None
    kind: str  # light, heavy or no_trick (see DEFEAT)
    base: int
    multiplier: int


class KozyolHand(HandState):
    leader: str
    entry: KozyolEntry
    loser: int | None
    eggs: bool
    defeat_points: list[int]
    totals: list[int]
    multiplier: int
    settlement: Defeat | None  # None: eggs


class KozyolUpcoming(Upcoming):
    leader: str


class KozyolSummary(Summary):
    totals: list[int]
    teams: list[list[str]]
    next: KozyolUpcoming | None
    goat: NotRequired[int]
    goat_with_eggs: NotRequired[bool]


def _reachable() -> frozenset[int]:
    """Card points one team can hold: every subset sum of the deck's card values.

    >>> sorted(set(range(TOTAL_POINTS + 1)) - REACHABLE)
    [1, 119]
    """
    sums = {0}
    for value in CARD_VALUES.values():
        for _ in range(CARDS_PER_RANK):
            sums |= {total + value for total in sums}
    return frozenset(sums)


REACHABLE = _reachable()


def parse_options(players: list[str], raw: Mapping[str, Any] | None, rng: random.Random | None) -> KozyolOptions:
    """Check options and fill in defaults for those left out; the first dealer is seat 0 unless named, never drawn."""
    raw = check_option_keys(raw, OPTIONS)
    if len(players) != SEATS:
        raise refuse("players", N_("This game needs exactly {count} players."), count=SEATS)
    target = as_int(raw["target"], "target", *TARGET_RANGE) if "target" in raw else DEFAULT_TARGET
    flags = {flag: as_bool(raw[flag], flag) if flag in raw else False for flag in FLAGS}
    return KozyolOptions(target=target, eggs_double_next=flags["eggs_double_next"],
                         six_for_zero_points=flags["six_for_zero_points"],
                         first_dealer=optional_seat_name(raw, "first_dealer", players, None))


def points_of(counts: Mapping[str, int]) -> int:
    """Card points of the cards counted per rank.

    >>> points_of({"A": 2, "10": 1, "K": 3})
    44
    """
    return sum(CARD_VALUES[rank] * counts.get(rank, 0) for rank in CARD_VALUES)


def defeat_kind(points: int, tricks: int | None, six_for_zero_points: bool = False) -> str:
    """The kind of defeat of the losing team for its card points and tricks: light, heavy or no_trick.

    >>> defeat_kind(45, None), defeat_kind(30, 2), defeat_kind(0, 0), defeat_kind(0, 2, True)
    ('light', 'heavy', 'no_trick', 'no_trick')
    """
    if points >= LIGHT_DEFEAT_FROM:
        return "light"
    if tricks == 0 or (points == 0 and six_for_zero_points):
        return "no_trick"
    return "heavy"


def defeat_points(points: int, tricks: int | None, six_for_zero_points: bool = False) -> int:
    """Defeat points of the losing team for its card points and tricks, before doubling.

    >>> defeat_points(45, None), defeat_points(30, 2), defeat_points(0, 0), defeat_points(0, 2, True)
    (2, 4, 6, 6)
    """
    return DEFEAT[defeat_kind(points, tricks, six_for_zero_points)]


def score_deal(points: list[int], tricks: list[int | None], multiplier: int = 1,
               six_for_zero_points: bool = False) -> tuple[int | None, list[int]]:
    """Losing team (None for eggs) and defeat points [team 0, team 1] of one deal.

    >>> score_deal([75, 45], [None, None]), score_deal([0, 120], [0, 9], 2), score_deal([60, 60], [4, 5], 2)
    ((1, [0, 2]), (0, [12, 0]), (None, [0, 0]))
    """
    defeat = [0] * TEAMS
    if points[0] == EGGS:
        return None, defeat
    loser = points.index(min(points))
    defeat[loser] = multiplier * defeat_points(points[loser], tricks[loser], six_for_zero_points)
    return loser, defeat


def _pair(value: Any, field: str, text: str, teams: list[list[str]]) -> list[Any]:
    if not isinstance(value, (list, tuple)) or len(value) != TEAMS:
        raise refuse(field, text, a1=teams[0][0], a2=teams[0][1], b1=teams[1][0], b2=teams[1][1])
    return list(value)


def _counts(raw: Any) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise refuse("cards", N_("Count each team's cards by rank: A, 10, K, Q and J."))
    for rank in raw:
        if rank not in CARD_VALUES:
            raise refuse("cards", N_("Only A, 10, K, Q and J count; leave out {rank}."), rank=quoted(str(rank)))
    return {rank: as_int(raw.get(rank, 0), "cards", 0, CARDS_PER_RANK) for rank in CARD_VALUES}


def parse_cards(raw: Any, teams: list[list[str]]) -> list[dict[str, int]]:
    """Read the cards each team won per rank; a missing side is what the other left."""
    text = N_("Give the cards of {a1} and {a2}, then of {b1} and {b2}; one of them may be empty.")
    sides = _pair(raw, "cards", text, teams)
    if all(side is None for side in sides):
        raise refuse("cards", N_("Count the cards of at least one team."))
    given = [None if side is None else _counts(side) for side in sides]
    known = next(count for count in given if count is not None)  # one team at least (above)
    left = {rank: CARDS_PER_RANK - n for rank, n in known.items()}  # what the other team won, when not given
    counts = [left if count is None else count for count in given]
    for rank in CARD_VALUES:
        got = counts[0][rank] + counts[1][rank]
        if got != CARDS_PER_RANK:
            raise refuse("cards", N_("The counts of {rank} add up to {got}; they must add up to {count}."),
                         rank=rank, got=got, count=CARDS_PER_RANK)
    return counts


def parse_points(raw: Any, teams: list[list[str]]) -> list[int]:
    """Read the card points of both teams: whole numbers that real cards can add up to, sum 120."""
    text = N_("Enter the card points of {a1} and {a2}, then of {b1} and {b2}.")
    points = [as_int(v, "points", 0, TOTAL_POINTS) for v in _pair(raw, "points", text, teams)]
    if sum(points) != TOTAL_POINTS:
        raise refuse("points", N_("The card points add up to {got}; they must add up to {total}."),
                     got=sum(points), total=TOTAL_POINTS)
    for team, value in enumerate(points):
        if value not in REACHABLE:
            raise refuse("points", N_("No set of cards adds up to {got}; check the count of {p1} and {p2}."),
                         got=value, p1=teams[team][0], p2=teams[team][1])
    return points


def parse_tricks(raw: Any, points: list[int], teams: list[list[str]]) -> list[int | None]:
    """Read the tricks of each team (null when unknown); a team without card points must say."""
    tricks: list[Any] = [None, None] if raw is None else _pair(
        raw, "tricks", N_("Enter the tricks of {a1} and {a2}, then of {b1} and {b2}; either may be empty."), teams)
    tricks = [None if t is None else as_int(t, "tricks", 0, TRICKS_PER_DEAL) for t in tricks]
    got = sum(t for t in tricks if t is not None)
    if got > TRICKS_PER_DEAL or (None not in tricks and got < FEWEST_TRICKS):
        raise refuse("tricks", N_("The tricks add up to {got}; a deal has {low} to {high} tricks."),
                     got=got, low=FEWEST_TRICKS, high=TRICKS_PER_DEAL)
    for team, (p1, p2) in enumerate(teams):
        if points[team] > 0 and (tricks[team] == 0 or tricks[team] is None and got == TRICKS_PER_DEAL):
            raise refuse("tricks", N_("{p1} and {p2} won card points, so they took at least one trick."), p1=p1, p2=p2)
        if points[team] == 0 and tricks[team] is None:
            raise refuse("tricks", N_("Did {p1} and {p2} take a trick? Enter their tricks, 0 if none."), p1=p1, p2=p2)
    return tricks


def parse_entry(entry: Entry, players: list[str], teams: list[list[str]]) -> KozyolEntry:
    """Validate one deal's entry; return it normalized, always with points."""
    cards = None
    points = None if entry.get("points") is None else parse_points(entry["points"], teams)
    if entry.get("cards") is not None:
        cards = parse_cards(entry["cards"], teams)
        counted = [points_of(side) for side in cards]
        if points is not None and counted != points:
            raise refuse("cards", N_("The cards count {c0} and {c1}, but the points say {p0} and {p1}."),
                         c0=counted[0], c1=counted[1], p0=points[0], p1=points[1])
        points = counted
    if points is None:
        raise refuse("points", N_("Enter the card points of both teams, or the cards they won."))
    out = KozyolEntry(cards=cards, points=points) if cards is not None else KozyolEntry(points=points)
    tricks = parse_tricks(entry.get("tricks"), points, teams)
    if any(t is not None for t in tricks):
        out["tricks"] = tricks
    if suit := optional_choice(entry, "trump_suit", SUITS):
        out["trump_suit"] = suit
    if entry.get("last_trick") not in (None, ""):
        last = as_player(entry["last_trick"], "last_trick", players)
        if tricks[players.index(last) % TEAMS] == 0:
            raise refuse("last_trick", N_("{name} took the last trick, but the tricks say that team took none."),
                         name=last)
        out["last_trick"] = last
    return out


class KozyolReplay:
    """A Kozyol series replayed deal by deal."""

    lowest_wins = True  # defeat points: the team that reaches the target is the goat
    max_hands = MAX_DEALS

    def __init__(self, players: list[str], options: Mapping[str, Any]):
        self.players = list(players)
        self.options = parse_options(self.players, options, None)
        self.first = self.players.index(self.options["first_dealer"])
        self.teams = [self.players[team::TEAMS] for team in range(TEAMS)]
        self.sides = self.teams
        self.hands: list[KozyolHand] = []
        self.totals = [0] * TEAMS

    @property
    def goat(self) -> int | None:
        """The team that reached the target, or None while the series goes on."""
        return next((t for t in range(TEAMS) if self.totals[t] >= self.options["target"]), None)

    @property
    def finished(self) -> bool:
        return self.goat is not None

    def _seats(self, number: int) -> dict[str, str]:
        dealer = (self.first + number - 1) % SEATS
        last = self.hands[-1]["entry"].get("last_trick") if self.hands else None
        return {"dealer": self.players[dealer], "leader": last or self.players[(dealer + 1) % SEATS]}

    def play(self, entry: Entry) -> KozyolHand:
        """Validate entry as the next deal, score it and append it; return the hand state."""
        if self.goat is not None:
            p1, p2 = self.teams[self.goat]
            raise refuse("number", N_("The series is over: {p1} and {p2} are the goat."), p1=p1, p2=p2)
        if limit := at_limit(len(self.hands), MAX_DEALS):
            raise limit
        if not isinstance(entry, Mapping):
            raise refuse("entry", N_("A deal must be an object."))
        number = len(self.hands) + 1
        normalized = parse_entry(entry, self.players, self.teams)
        # After eggs the deal counts double; eggs in a row keep it double, they do not stack.
        eggs_before = bool(self.hands) and self.hands[-1]["eggs"]
        multiplier = EGGS_MULTIPLIER if eggs_before and self.options["eggs_double_next"] else 1
        tricks: list[int | None] = normalized["tricks"] if "tricks" in normalized else [None] * TEAMS
        loser, defeat = score_deal(normalized["points"], tricks, multiplier, self.options["six_for_zero_points"])
        self.totals = [total + points for total, points in zip(self.totals, defeat)]
        seats = self._seats(number)
        settlement = None if loser is None else Defeat(
            points=normalized["points"][loser], tricks=tricks[loser],
            kind=defeat_kind(normalized["points"][loser], tricks[loser], self.options["six_for_zero_points"]),
            base=defeat[loser] // multiplier, multiplier=multiplier)
        hand = KozyolHand(number=number, dealer=seats["dealer"], leader=seats["leader"], entry=normalized, loser=loser,
                          eggs=loser is None, defeat_points=defeat, totals=list(self.totals), multiplier=multiplier,
                          settlement=settlement)
        self.hands.append(hand)
        return hand

    def next(self) -> KozyolUpcoming | None:
        """Number, dealer and leader of the next deal, or None once the series is over or at its limit."""
        if self.goat is not None or len(self.hands) >= MAX_DEALS:
            return None
        number = len(self.hands) + 1
        seats = self._seats(number)
        return KozyolUpcoming(number=number, dealer=seats["dealer"], leader=seats["leader"])

    def summary(self) -> KozyolSummary:
        """Totals, teams, finished, winners and next; the goat once the series is over."""
        goat = self.goat
        out = KozyolSummary(totals=list(self.totals), teams=[list(team) for team in self.teams],
                            finished=goat is not None, next=self.next(), max_hands=MAX_DEALS,
                            winners=[] if goat is None else list(self.teams[1 - goat]))
        if goat is not None:
            out.update({"goat": goat, "goat_with_eggs": any(hand["eggs"] for hand in self.hands)})
        return out

    def side_totals(self, hand: KozyolHand | None = None) -> list[int]:
        return list(self.totals if hand is None else hand["totals"])


GAME = Game(
    slug="kozyol", title=N_("Kozyol"), min_players=SEATS, max_players=SEATS, max_hands=MAX_DEALS,
    parse_options=parse_options, new_replay=KozyolReplay,
)
