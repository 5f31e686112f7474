"""Random Kozyol deals: 9 tricks of 4 cards, written down the way a table might."""

from __future__ import annotations

import random
from typing import Any

from helpers.matches import PLAYERS

ALL = {"A": 4, "10": 4, "K": 4, "Q": 4, "J": 4}
DECK = [(rank, value) for rank, value in [("A", 11), ("10", 10), ("K", 4), ("Q", 3), ("J", 2),
                                          ("9", 0), ("8", 0), ("7", 0), ("6", 0)] for _ in range(4)]


def play_deal(rng: random.Random) -> tuple[dict[str, Any], list[int], list[int | None]]:
    """A deal played at random: 9 tricks of 4 cards; the entry as a table might write it down."""
    if rng.random() < 0.08:
        return {"points": [60, 60]}, [60, 60], [None, None]
    deck = DECK[:]
    rng.shuffle(deck)
    bias = rng.choice([0.0, 0.05, 0.3, 0.5, 0.7, 0.95, 1.0])
    won: list[list[tuple[str, int]]] = [[], []]
    tricks = [0, 0]
    last_team = 0
    for trick in range(9):
        last_team = 0 if rng.random() < bias else 1
        won[last_team] += deck[4 * trick:4 * trick + 4]
        tricks[last_team] += 1
    points = [sum(value for _, value in cards) for cards in won]
    counts = [{rank: sum(1 for r, _ in cards if r == rank) for rank in ALL} for cards in won]
    form = rng.choice(["points", "cards", "cards", "both"])
    entry: dict[str, Any] = {}
    if form in ("points", "both"):
        entry["points"] = points
    if form in ("cards", "both"):
        side = rng.randrange(3)
        entry["cards"] = [counts[0] if side != 1 else None, counts[1] if side != 0 else None]
    if 0 in points or rng.random() < 0.5:
        entry["tricks"] = [t if p == 0 or rng.random() < 0.7 else None for t, p in zip(tricks, points)]
    if rng.random() < 0.5:
        entry["last_trick"] = PLAYERS[last_team + 2 * rng.randrange(2)]
    if rng.random() < 0.3:
        entry["trump_suit"] = rng.choice(["spades", "hearts", "diamonds", "clubs"])
    return entry, points, tricks
