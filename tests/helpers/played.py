"""The club's played matches that the engine tests rank: one scripted set per game, all on one day.

Player ids: Ann 1, Bob 2, Cid 3, Dee 4, Eve 5, Fay 6.
"""

from __future__ import annotations

import datetime

from helpers.club_matches import FOUR, SIX, replay_of, scripted_barbu_replay
from scorekeeper.club.engine.digest import Played, digest

DAY = datetime.date(2026, 12, 5)


def hearts_entry(hearts: list[int], marias: list[int], moon: str | None = None) -> dict:
    entry = {"hearts": dict(zip(SIX, hearts)), "black_marias": dict(zip(SIX, marias))}
    return entry | ({"moon": moon} if moon else {})


def barbu_played() -> list[Played]:
    """The hand-scored match three times, round the table: totals 17, 0, -11, -6 by seat."""
    replay = scripted_barbu_replay()
    return [Played(f"b{n}", DAY, digest("barbu", seats, replay))
            for n, seats in enumerate([[1, 2, 3, 4], [2, 3, 4, 5], [5, 1, 2, 3]])]


def kozyol_played() -> list[Played]:
    """Ann and Cid beat Bob and Dee (goat with eggs); then Ann and Dee are the goat (4 + 2 of 6) against Bob and Eve."""
    first = replay_of("kozyol", FOUR, {"target": 4}, [{"points": p} for p in ([75, 45], [60, 60], [45, 75], [85, 35])])
    second = replay_of("kozyol", FOUR, {"target": 6}, [{"points": [20, 100]}, {"points": [40, 80]}])
    return [Played("k1", DAY, digest("kozyol", [1, 2, 3, 4], first)),
            Played("k2", DAY, digest("kozyol", [1, 2, 4, 5], second))]


def hearts_played() -> list[Played]:
    """The moon game above, then a one-hand game that the last two seats (Bob, Ann) end at 26 each."""
    first = replay_of("hearts", SIX, {"target": 26}, [hearts_entry([5, 10, 11, 0, 0, 0], [1, 0, 1, 0, 0, 0]),
                                                      hearts_entry([0, 0, 0, 26, 0, 0], [0, 0, 0, 2, 0, 0], "add")])
    second = replay_of("hearts", SIX, {"target": 26}, [hearts_entry([0, 0, 0, 0, 13, 13], [0, 0, 0, 0, 1, 1])])
    return [Played("h1", DAY, digest("hearts", [1, 2, 3, 4, 5, 6], first)),
            Played("h2", DAY, digest("hearts", [6, 5, 4, 3, 2, 1], second))]
