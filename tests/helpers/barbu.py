"""The Barbu rules restated from docs/rules.md, and random legal matches checked against them on the way."""

from __future__ import annotations

import copy
import random
from itertools import combinations
from typing import Any

from helpers.matches import PLAYERS
from scorekeeper.games import barbu

A, B, C, D = PLAYERS

CONTRACTS = ["no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu", "trumps", "dominoes"]
RULES_SUM = {
    "no_tricks": -26,
    "no_queens": -24,
    "no_hearts": -30,
    "no_last_two": -30,
    "barbu": -20,
    "trumps": 65,
    "dominoes": 65,
}
DOMINOES_DEFAULT = [45, 20, 5, -5]
DOMINOES_VARIANT = [40, 25, 10, -10]
HANDS_PER_BLOCK = 7
HANDS = 28


def per(values: list[int]) -> dict[str, int]:
    """{name: value} in seat order."""
    return dict(zip(PLAYERS, values))


def dbl(by: str, target: str, redoubled: bool = False) -> dict[str, Any]:
    return {"by": by, "target": target, "redoubled": redoubled}


def left(seat: int) -> int:
    return (seat + 1) % 4


def right(seat: int) -> int:
    return (seat - 1) % 4


def expected_declarers(first: int) -> list[int]:
    """Seat of the declarer of hands 1..28: seven hands each, then the seat on the left."""
    seats: list[int] = []
    seat = first
    for _ in range(4):
        seats += [seat] * HANDS_PER_BLOCK
        seat = left(seat)
    return seats


def reference_raw(contract: str, entry: dict[str, Any], domino: list[int]) -> dict[str, int]:
    """Raw scores straight from the contract table of docs/rules.md 1.2."""
    if contract == "no_tricks":
        return {p: -2 * entry["tricks"][p] for p in PLAYERS}
    if contract == "trumps":
        return {p: 5 * entry["tricks"][p] for p in PLAYERS}
    if contract == "no_queens":
        return {p: -6 * entry["queens"][p] for p in PLAYERS}
    if contract == "no_hearts":
        ace = entry["ace_of_hearts"]
        return {p: -2 * (entry["hearts"][p] - (p == ace)) - 6 * (p == ace) for p in PLAYERS}
    if contract == "no_last_two":
        return {p: -10 * (p == entry["second_last"]) - 20 * (p == entry["last"]) for p in PLAYERS}
    if contract == "barbu":
        return {p: -20 * (p == entry["king_of_hearts"]) for p in PLAYERS}
    return {p: domino[entry["order"].index(p)] for p in PLAYERS}


def reference_settle(raw: dict[str, int], doubles: list[dict[str, Any]]) -> dict[str, int]:
    """f_i = s_i + sum_j m_ij (s_i - s_j), with m from the pairs (0, 1, or 2 when redoubled)."""
    m = {frozenset(pair): 0 for pair in combinations(PLAYERS, 2)}
    for d in doubles:
        m[frozenset((d["by"], d["target"]))] = 2 if d.get("redoubled") else 1
    return {
        i: raw[i] + sum(m[frozenset((i, j))] * (raw[i] - raw[j]) for j in PLAYERS if j != i) for i in PLAYERS
    }


def new_replay(first: str = A, **options: Any) -> barbu.BarbuReplay:
    parsed = barbu.parse_options(PLAYERS, {"first_declarer": first, **options}, random.Random(0))
    return barbu.GAME.new_replay(PLAYERS, parsed)



# -- random matches -------------------------------------------------------------------


def split(total: int, rng: random.Random) -> dict[str, int]:
    counts = dict.fromkeys(PLAYERS, 0)
    for _ in range(total):
        counts[rng.choice(PLAYERS)] += 1
    return counts


def random_cards(contract: str, rng: random.Random) -> dict[str, Any]:
    if contract in ("no_tricks", "trumps"):
        return {"tricks": split(13, rng)}
    if contract == "no_queens":
        return {"queens": split(4, rng)}
    if contract == "no_hearts":
        hearts = split(13, rng)
        return {"hearts": hearts, "ace_of_hearts": rng.choice([p for p in PLAYERS if hearts[p]])}
    if contract == "no_last_two":
        return {"second_last": rng.choice(PLAYERS), "last": rng.choice(PLAYERS)}
    if contract == "barbu":
        return {"king_of_hearts": rng.choice(PLAYERS)}
    return {"order": rng.sample(PLAYERS, 4)}


def random_doubles(contract: str, declarer: str, doubling: set[str], rng: random.Random) -> list[dict[str, Any]]:
    """Legal doubles: `doubling` double the declarer; in negative contracts also some others."""
    doubles = [dbl(p, declarer, rng.random() < 0.3) for p in sorted(doubling)]
    if contract not in ("trumps", "dominoes"):
        for x, y in combinations([p for p in PLAYERS if p != declarer], 2):
            pick = rng.random()
            if pick < 0.25:
                doubles.append(dbl(x, y, rng.random() < 0.3))
            elif pick < 0.5:
                doubles.append(dbl(y, x, rng.random() < 0.3))
    rng.shuffle(doubles)
    return doubles


def random_match(rng: random.Random, honour_obligation: bool) -> tuple[barbu.BarbuReplay, list[dict[str, Any]]]:
    """Play 28 random legal hands, checking every hand against the rules on the way."""
    first = rng.choice(PLAYERS)
    domino = rng.choice([DOMINOES_DEFAULT, DOMINOES_VARIANT])
    replay = new_replay(first, domino_scores=domino, enforce_declarer_doubles=honour_obligation)
    declarers = [PLAYERS[s] for s in expected_declarers(PLAYERS.index(first))]
    totals = dict.fromkeys(PLAYERS, 0)
    entries = []
    for block in range(4):
        declarer = declarers[block * HANDS_PER_BLOCK]
        others = [p for p in PLAYERS if p != declarer]
        if honour_obligation:
            # Each non-declarer doubles the declarer in at least two hands of the block.
            plan = {p: set(rng.sample(range(HANDS_PER_BLOCK), rng.choice([2, 2, 3, 5]))) for p in others}
        else:
            plan = {p: {i for i in range(HANDS_PER_BLOCK) if rng.random() < 0.2} for p in others}
        done = dict.fromkeys(others, 0)
        block_raw = 0
        for position, contract in enumerate(rng.sample(CONTRACTS, HANDS_PER_BLOCK)):
            chances = HANDS_PER_BLOCK - position
            owed = {p: max(0, 2 - done[p]) for p in others}
            must = sorted(p for p in others if 0 < owed[p] >= chances)
            nxt = replay.next()
            assert (nxt["declarer"], nxt["doubles_owed"], sorted(nxt["must_double"])) == (declarer, owed, must)

            doubling = {p for p in others if position in plan[p]}
            cards = random_cards(contract, rng)
            entry = {"contract": contract, **cards, "doubles": random_doubles(contract, declarer, doubling, rng)}
            hand = replay.play(copy.deepcopy(entry))
            entries.append(entry)

            raw = reference_raw(contract, cards, domino)
            assert hand["declarer"] == declarer
            assert hand["raw"] == raw
            assert hand["scores"] == reference_settle(raw, entry["doubles"])
            assert sum(hand["scores"].values()) == sum(raw.values()) == RULES_SUM[contract]
            for p in PLAYERS:
                totals[p] += hand["scores"][p]
            assert hand["totals"] == totals
            assert bool(hand["warnings"]) == any(p not in doubling for p in must)
            for p in doubling:
                done[p] += 1
            block_raw += sum(raw.values())
        assert block_raw == 0
        assert sum(sum(h["raw"].values()) for h in replay.hands[-HANDS_PER_BLOCK:]) == 0
    return replay, entries
