"""What the club keeps of one finished match: a digest, plain JSON-able data, never replayed again.

A digest is a pure function of the match's final entries: a correction anywhere gives the digest the
match would have had if it had been right from the start. Seats are indices into ``seat_ids``.
"""

from __future__ import annotations

import datetime
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...games import GAMES
from ...games.base import Replay, ranking

KOZYOL_TEAMS = 2


@dataclass(frozen=True, slots=True)
class Played:
    """One finished match of a club: its public id, the day it was played and its digest."""

    match: str
    day: datetime.date
    digest: dict[str, Any]


_ORDER = operator.attrgetter("day", "match")


def in_order(played: Iterable[Played]) -> list[Played]:
    """Sort played matches by day, then by match id: the one order every figure is computed in.

    >>> day = datetime.date(2026, 12, 5)
    >>> [p.match for p in in_order([Played("b", day, {}), Played("a", day, {}), Played("c", day.replace(day=1), {})])]
    ['c', 'a', 'b']
    """
    return sorted(played, key=_ORDER)


def frozen(value: Any) -> Any:
    """The value with every list made a tuple, for digests kept in memory between requests.

    A digest read from JSON is some forty small lists; a big club keeps hundreds of thousands, and
    every full collection of the garbage collector walks them all. Tuples of numbers (and the dicts
    holding only those) are untracked by the collector after its first look, so they cost nothing
    there; the figures read both alike.

    >>> frozen({"seats": [3, 1], "teams": [[0, 2], [1, 3]], "goat": None})
    {'seats': (3, 1), 'teams': ((0, 2), (1, 3)), 'goat': None}
    """
    if isinstance(value, list):
        return tuple(frozen(item) for item in value)
    if isinstance(value, dict):
        return {key: frozen(item) for key, item in value.items()}
    return value


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


def digest(game: str, seat_ids: list[int], replay: Replay) -> dict[str, Any] | None:
    """Digest a finished match for the club (None while it is not finished)."""
    if not replay.finished:
        return None
    if len(seat_ids) != len(replay.players):
        raise ValueError("one club player id per seat")
    seat = {name: index for index, name in enumerate(replay.players)}
    out: dict[str, Any] = {"game": game, "seats": list(seat_ids), "hands": len(replay.hands)}
    out.update(_EXTRAS[game](replay, seat))
    return out


def _per_seat(replay: Replay) -> dict[str, Any]:
    totals = [int(total) for total in replay.side_totals()]
    placed = places(totals, replay.lowest_wins)
    return {"totals": totals, "places": placed, "winners": [s for s, place in enumerate(placed) if place == 1]}


def _barbu(replay: Any, seat: dict[str, int]) -> dict[str, Any]:
    contracts, doubles = [], []
    for hand in replay.hands:
        contracts.append([hand["contract"], seat[hand["declarer"]], [hand["scores"][p] for p in replay.players]])
        for transfer in hand["settlement"]:
            doubles.append([seat[transfer["by"]], seat[transfer["target"]], transfer["weight"] > 1, transfer["moved"]])
    return {**_per_seat(replay), "contracts": contracts, "doubles": doubles}


def _kozyol(replay: Any, seat: dict[str, int]) -> dict[str, Any]:
    summary = replay.summary()
    teams = [[seat[name] for name in team] for team in summary["teams"]]
    goat = summary["goat"]
    totals, placed = [0] * len(seat), [0] * len(seat)
    for team, members in enumerate(teams):
        for member in members:
            totals[member] = summary["totals"][team]
            placed[member] = 2 if team == goat else 1
    return {
        "totals": totals, "places": placed, "winners": sorted(teams[1 - goat]),
        "teams": teams, "deals": [hand["loser"] for hand in replay.hands],
        "goat": goat, "goat_with_eggs": bool(summary["goat_with_eggs"]),
    }


def _hearts(replay: Any, seat: dict[str, int]) -> dict[str, Any]:
    hearts, marias, moons = [0] * len(seat), [0] * len(seat), [0] * len(seat)
    for hand in replay.hands:
        for name, index in seat.items():
            hearts[index] += hand["entry"]["hearts"][name]
            marias[index] += hand["entry"]["black_marias"][name]
        if hand["moon_shooter"] is not None:
            moons[seat[hand["moon_shooter"]]] += 1
    return {**_per_seat(replay), "hearts": hearts, "black_marias": marias, "moons": moons}


_EXTRAS = {"barbu": _barbu, "kozyol": _kozyol, "hearts": _hearts}
assert set(_EXTRAS) == set(GAMES), "every game of the engine has its digest, and only those"
