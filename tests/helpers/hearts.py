"""Random Cancellation Hearts hands, as a table might report them."""

from __future__ import annotations

import random


def split(rng: random.Random, total: int, count: int) -> list[int]:
    counts = [0] * count
    for _ in range(total):
        counts[rng.randrange(count)] += 1
    return counts


def random_hand(rng: random.Random, count: int) -> tuple[list[int], list[int]]:
    """One hand as the table might report it: sometimes a moon, sometimes points lost."""
    if rng.random() < 0.08:
        shooter = rng.randrange(count)
        return [26 * (i == shooter) for i in range(count)], [2 * (i == shooter) for i in range(count)]
    hearts = 26 if rng.random() < 0.8 else rng.randint(26 - count, 25)
    marias = 2 if rng.random() < 0.8 else rng.randint(0, 1)
    return split(rng, hearts, count), split(rng, marias, count)
