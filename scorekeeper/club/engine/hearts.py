"""Hearts at the club: hearts, Black Marias and moons in the digest, a table by wins, per player statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict, cast

from ...games.base import Replay
from ...games.hearts import HeartsHand
from .base import (
    Add,
    Digest,
    Figures,
    GameFigures,
    PerSeat,
    Played,
    Ranking,
    Seating,
    average,
    by_place,
    of_game,
    per_seat,
    seats_of,
)


class HeartsDigest(Digest):
    """Per seat: hearts and Black Marias taken over the match, and moons shot."""

    hearts: Sequence[int]
    black_marias: Sequence[int]
    moons: Sequence[int]


class HeartsExtras(PerSeat):
    hearts: list[int]
    black_marias: list[int]
    moons: list[int]


class HeartsStats(TypedDict):
    matches: int
    hands: int
    total: int
    hearts: int
    black_marias: int
    moons: int
    wins: int
    average_per_hand: float | None
    average_place: float | None


def extras(replay: Replay[HeartsHand], seat: Seating) -> HeartsExtras:
    """Per seat the hearts and Black Marias taken, and the moons shot."""
    hearts, marias, moons = [0] * len(seat), [0] * len(seat), [0] * len(seat)
    for hand in replay.hands:
        for name, index in seat.items():
            hearts[index] += hand["entry"]["hearts"][name]
            marias[index] += hand["entry"]["black_marias"][name]
        if hand["moon_shooter"] is not None:
            moons[seat[hand["moon_shooter"]]] += 1
    return {**per_seat(replay), "hearts": hearts, "black_marias": marias, "moons": moons}


def add_match(made: Digest, add: Add) -> None:
    """Each player whether they won, their place and their total."""
    for player, place, total in zip(made["seats"], made["places"], made["totals"]):
        add(player, (place == 1, place, total))


def figures(sums: list[int], matches: int) -> Figures:
    wins, places, total = sums
    return {"wins": wins, "average_place": places / matches, "average": total / matches}


RANKING = Ranking(3, add_match, figures, lambda f: (-f["wins"], f["average_place"]))


def stats(played: list[Played], player: int) -> HeartsStats:
    """Average per hand, hearts, Black Marias and moons taken, wins and average finishing place."""
    out = {"matches": 0, "hands": 0, "total": 0, "hearts": 0, "black_marias": 0, "moons": 0, "wins": 0, "places": 0}
    for made in cast(list[HeartsDigest], of_game("hearts", played)):
        for seat in seats_of(made, player):
            for name, value in (("matches", 1), ("hands", made["hands"]), ("total", made["totals"][seat]),
                                ("hearts", made["hearts"][seat]), ("black_marias", made["black_marias"][seat]),
                                ("moons", made["moons"][seat]), ("wins", int(seat in made["winners"])),
                                ("places", made["places"][seat])):
                out[name] += value
    return {"matches": out["matches"], "hands": out["hands"], "total": out["total"], "hearts": out["hearts"],
            "black_marias": out["black_marias"], "moons": out["moons"], "wins": out["wins"],
            "average_per_hand": average(out["total"], out["hands"]),
            "average_place": average(out["places"], out["matches"])}


FIGURES = GameFigures(extras, RANKING, stats, by_place)
