"""What the club keeps of one finished match: a digest, plain JSON-able data, never replayed again.

A digest is a pure function of the match's final entries: a correction anywhere gives the digest the
match would have had if it had been right from the start. Seats are indices into ``seat_ids``.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

from ...games.base import Replay
from .base import VERSION, Digest, Played, places
from .registry import FIGURES

__all__ = ["VERSION", "Digest", "Played", "current", "digest", "frozen", "in_order", "places", "stored"]

ORDER = operator.attrgetter("day", "match")  # in_order()'s key


def in_order(played: Iterable[Played]) -> list[Played]:
    """Sort played matches by day, then by match id: the one order every figure is computed in.

    >>> import datetime
    >>> day = datetime.date(2026, 12, 5)
    >>> [p.match for p in in_order([Played("b", day, {}), Played("a", day, {}), Played("c", day.replace(day=1), {})])]
    ['c', 'a', 'b']
    """
    return sorted(played, key=ORDER)


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


def digest(game: str, seat_ids: list[int], replay: Replay[Any]) -> Digest | None:
    """Digest a finished match for the club (None while it is not finished)."""
    if not replay.finished:
        return None
    if len(seat_ids) != len(replay.players):
        raise ValueError("one club player id per seat")
    seat = {name: index for index, name in enumerate(replay.players)}
    # mypy --strict refuses to unpack a TypedDict that might hold "version" of another type; a game's extras
    # never hold it (stored() adds it), which an open TypedDict cannot say.
    made: Digest = {"game": game, "seats": list(seat_ids), "hands": len(replay.hands),
                    **FIGURES[game].extras(replay, seat)}  # type: ignore[typeddict-item]
    return made


def stored(made: Digest | None) -> Digest | None:
    """The digest as a result row keeps it: with the version of its shape.

    >>> stored({"game": "hearts", "seats": [1, 2, 3], "hands": 1, "totals": [0, 0, 26], "places": [1, 1, 3],
    ...         "winners": [0, 1], "hearts": [0, 0, 13], "black_marias": [0, 0, 1], "moons": [0, 0, 0]})["version"]
    1
    """
    return None if made is None else {**made, "version": VERSION}


def current(made: Digest) -> bool:
    """Whether a stored digest has the shape read now (one stored before versions has version 1's).

    >>> current({"game": "barbu"}), current({"version": 1}), current({"version": 0}), current({"version": 2})
    (True, True, False, False)
    """
    return made.get("version", 1) == VERSION
