"""A playing-strength rating per game: OpenSkill's Plackett-Luce model over the club's finished matches.

Recomputed from history in one order (in_order), so a correction anywhere gives the ratings the club
would have had if the match had been right from the start. Barbu and Hearts rate every player by finishing
place (ties share a rank); Kozyol rates two partnerships, the goat last.

Recomputing a year of matches on every new result would be slow, so the ratings after every CHECKPOINT-th
match (and after the last) are remembered in this process, keyed by a hash of everything that went before:
a new result resumes from the last checkpoint that still holds, and the figures are the same as from scratch.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import cast

from openskill.models import PlackettLuce

from .base import Digest, Played, Sides
from .digest import in_order
from .kozyol import KozyolDigest
from .registry import FIGURES

MODEL = PlackettLuce()  # the default parameters: mu 25, sigma 25/3
CHECKPOINT = 128
STEP, TAIL = 16, 512  # Rated keeps the state at every 16th of the last 512 matches of a run
KEPT = 4096  # checkpoints remembered across clubs, the least recently used forgotten first

State = dict[int, tuple[float, float, int]]  # player -> mu, sigma, matches rated


@dataclass(frozen=True)
class Rating:
    """A player's rating: mu, sigma and the ordinal mu - 3 sigma the table is ranked by."""

    player: int
    mu: float
    sigma: float
    ordinal: float
    matches: int


_checkpoints: OrderedDict[int, State] = OrderedDict()
_lock = threading.Lock()


def forget_checkpoints() -> None:
    """Drop every remembered checkpoint (the ratings do not change, only the time to compute them)."""
    with _lock:
        _checkpoints.clear()


def ranks_of(made: Digest) -> Sides:
    """The sides (lists of seats) rated in one match and their ranks, 1 the best.

    >>> ranks_of({"game": "kozyol", "teams": [[0, 2], [1, 3]], "goat": 0})
    ([[0, 2], [1, 3]], [2, 1])
    >>> ranks_of({"game": "barbu", "places": [2, 1, 2, 4]})
    ([[0], [1], [2], [3]], [2, 1, 2, 4])
    """
    return FIGURES[made["game"]].rated(made)


def rate(state: State, made: Digest) -> None:
    """Update state with one finished match."""
    sides, ranks = ranks_of(made)
    seats = made["seats"]
    before = {p: state.get(p, (MODEL.mu, MODEL.sigma, 0)) for p in seats}
    teams = [[MODEL.rating(*before[seats[seat]][:2]) for seat in side] for side in sides]
    # openskill takes whole-number ranks ("a list of int or float values") but annotates them list[float],
    # which a list[int] is not to mypy (a list's item type is invariant).
    for side, rated in zip(sides, MODEL.rate(teams, ranks=cast(list[float], ranks))):
        for seat, rating in zip(side, rated):
            state[seats[seat]] = (rating.mu, rating.sigma, before[seats[seat]][2] + 1)


def facts(made: Digest) -> tuple[object, ...]:
    """What the ratings read of one digest: the seats and the finishing order.

    >>> facts({"game": "barbu", "seats": [7, 3, 9, 1], "places": [2, 1, 2, 4]})
    ((7, 3, 9, 1), (2, 1, 2, 4))
    """
    if made["game"] == "kozyol":
        teams = cast(KozyolDigest, made)
        return tuple(made["seats"]), teams["goat"], tuple(teams["teams"][0]), tuple(teams["teams"][1])
    return tuple(made["seats"]), tuple(made["places"])


def _chain(game: str, matches: list[Played]) -> list[int]:
    """Keys[i]: a hash of the game and of what the ratings read in the first i matches (in this process)."""
    key = hash(game)
    keys = [key]
    for p in matches:
        key = hash((key, p.match, p.day, facts(p.digest)))
        keys.append(key)
    return keys


def _resume(keys: list[int]) -> tuple[int, State]:
    with _lock:
        for count in range(len(keys) - 1, 0, -1):
            state = _checkpoints.get(keys[count])
            if state is not None:
                _checkpoints.move_to_end(keys[count])
                return count, dict(state)
    return 0, {}


def _remember(key: int, state: State) -> None:
    with _lock:
        _checkpoints[key] = dict(state)
        _checkpoints.move_to_end(key)
        while len(_checkpoints) > KEPT:
            _checkpoints.popitem(last=False)


def ratings(game: str, played: list[Played]) -> list[Rating]:
    """Every player's rating in game after its matches in order, the strongest (highest ordinal) first."""
    return table(rated_state(game, played))


def rated_state(game: str, played: list[Played]) -> State:
    """The ratings' state after the game's matches in order (resumed from a checkpoint that still holds)."""
    matches = in_order(p for p in played if p.digest.get("game") == game)
    keys = _chain(game, matches)
    done, state = _resume(keys)
    for count in range(done + 1, len(matches) + 1):
        rate(state, matches[count - 1].digest)
        if count % CHECKPOINT == 0 or count == len(matches):
            _remember(keys[count], state)
    return state


class Rated:
    """The ratings after a run of matches in order, with the states at every STEP-th match of its last
    TAIL: what a later run that changes only its end resumes from. Tonight's results land among
    tonight's matches, after the year before them, so a new one rates from the step before it.

    >>> import datetime
    >>> day = datetime.date(2026, 12, 5)
    >>> run = [Played(name, day, {"game": "barbu", "seats": seats, "places": [1, 2, 3, 4]})
    ...        for name, seats in (("a", [1, 2, 3, 4]), ("c", [4, 3, 2, 1]), ("b", [2, 1, 4, 3]))]
    >>> Rated.of("barbu", run[:2]).then("barbu", in_order(run)).table() == ratings("barbu", run)
    True
    """

    def __init__(self, matches: list[Played], states: dict[int, State]) -> None:
        self.matches, self.states = matches, states  # states: matches rated -> the state then

    @classmethod
    def of(cls, game: str, matches: list[Played]) -> Rated:
        """The ratings after matches (in_order(), all of the game), from the start."""
        return cls([], {}).then(game, matches)

    def then(self, game: str, matches: list[Played]) -> Rated:
        """The ratings after matches: from the last state kept before the first match that differs from
        this run (the same objects in the same places), else from the start (through the checkpoints)."""
        same = 0
        for a, b in zip(self.matches, matches):
            if a is not b:
                break
            same += 1
        done = max((count for count in self.states if count <= same), default=None)
        if done is None:
            done = max(0, (len(matches) - TAIL) // STEP * STEP)
            states = {done: rated_state(game, matches[:done])}
        else:
            states = {count: kept for count, kept in self.states.items() if count <= done}
        state = dict(states[done])
        for count in range(done + 1, len(matches) + 1):
            rate(state, matches[count - 1].digest)
            if count % STEP == 0:
                states[count] = dict(state)
        states[len(matches)] = state
        return Rated(matches, {count: kept for count, kept in states.items() if count >= len(matches) - TAIL})

    def table(self) -> list[Rating]:
        return table(self.states[len(self.matches)])


def table(state: State) -> list[Rating]:
    """The ratings of a state, the strongest (highest ordinal) first."""
    rated = [Rating(p, mu, sigma, mu - 3 * sigma, n) for p, (mu, sigma, n) in state.items()]
    return sorted(rated, key=lambda r: (-r.ordinal, r.player))
