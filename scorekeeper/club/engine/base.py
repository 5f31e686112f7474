"""The club engine's shared vocabulary: the digest's common part, a played match, and what each game provides.

Each game's module (barbu.py, kozyol.py, hearts.py) fills in one GameFigures: its digest extras, its
season table and its player statistics; registry.FIGURES collects them, one line per game.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from ...games.base import Replay, ranking

VERSION = 1
"""The shape of the digests written now; a digest stored without a version has the shape of version 1."""


class Digest(TypedDict):
    """What every game's digest holds: seats are club player ids, the other lists are per seat.

    Stored as JSON (lists); kept in memory with tuples for lists (digest.frozen), read alike.
    """

    version: NotRequired[int]
    game: str
    seats: Sequence[int]
    hands: int
    totals: Sequence[int]
    places: Sequence[int]
    winners: Sequence[int]


class PerSeat(TypedDict):
    """The part of a digest that every game computes the same way from its totals."""

    totals: list[int]
    places: list[int]
    winners: list[int]


@dataclass(frozen=True, slots=True)
class Played:
    """One finished match of a club: its public id, the day it was played and its digest."""

    match: str
    day: datetime.date
    digest: Digest


Seating = dict[str, int]  # player name -> seat
Figures = dict[str, float | int]  # one player's line of a season table, by column
Add = Callable[[int, tuple[int, ...]], None]  # add(player, what one match adds to their sums)
Sides = tuple[list[list[int]], list[int]]  # the sides a match rates (lists of seats) and their ranks, 1 the best


@dataclass(frozen=True)
class Ranking:
    """How a game's table is made: what each match adds per player, the figures, the order (smaller first)."""

    columns: int
    add_match: Callable[[Digest, Add], None]
    figures: Callable[[list[int], int], Figures]
    key: Callable[[Figures], tuple[float, ...]]


@dataclass(frozen=True)
class GameFigures:
    """What the club engine knows of one game: what its digest adds, its season table, a player's statistics,
    and the sides its ratings rank (by_place: every seat by its finishing place)."""

    extras: Callable[[Replay[Any], Seating], PerSeat]  # takes a replay of its own game
    ranking: Ranking
    stats: Callable[[list[Played], int], object]
    rated: Callable[[Digest], Sides]


def places(totals: Sequence[int], lowest_wins: bool) -> list[int]:
    """Finishing place per seat, 1 the best; equal totals share the better place.

    >>> places([5, 9, 5, -2], False), places([40, 152, 40, 12], True)
    ([2, 1, 2, 4], [2, 4, 2, 1])
    """
    by_seat = {str(seat): total for seat, total in enumerate(totals)}
    out = [0] * len(totals)
    for place, seat, _ in ranking(by_seat, lowest_wins):
        out[int(seat)] = place
    return out


def per_seat(replay: Replay[Any]) -> PerSeat:
    """Totals, places and winners per seat, from the replay's side totals (one side per seat)."""
    totals = [int(total) for total in replay.side_totals()]
    placed = places(totals, replay.lowest_wins)
    return {"totals": totals, "places": placed, "winners": [s for s, place in enumerate(placed) if place == 1]}


def by_place(made: Digest) -> Sides:
    """Every seat a side of its own, ranked by its finishing place.

    >>> by_place({"game": "barbu", "places": [2, 1, 2, 4]})
    ([[0], [1], [2], [3]], [2, 1, 2, 4])
    """
    return [[seat] for seat in range(len(made["places"]))], list(made["places"])


def of_game(game: str, played: Iterable[Played]) -> list[Digest]:
    """The digests of one game's matches."""
    return [p.digest for p in played if p.digest.get("game") == game]


def average(total: float, count: int) -> float | None:
    """Total over count, or None when there is nothing to average.

    >>> average(-30, 4), average(0, 0)
    (-7.5, None)
    """
    return total / count if count else None


def seats_of(made: Digest, player: int) -> list[int]:
    """The seats a player held in one match (one, unless two merged entries sat at the same table)."""
    seats = made["seats"]
    return [seat for seat, who in enumerate(seats) if who == player] if player in seats else []
