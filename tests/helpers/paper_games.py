"""Random legal games, played through the engines, for the synthetic sheets: each hand as the API takes it.

Barbu: every declarer's seven contracts in a random order, the doubles the rules allow (among them those owed to
the declarer, compulsory when the hands left equal the doubles owed), redoubles. Kozyol: card points that add up to
120 and are never 1 or 119, eggs, a team without a trick. Cancellation Hearts: 6 to 11 players, hearts sometimes
lost in a cancelled last trick, moons with either choice. Every entry is played on the game's replay as it is made,
so an illegal one fails here, not in the reader's figures.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from scorekeeper.games import GAMES, barbu, hearts, kozyol

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Ёжик", "Мила", "Zoé"]
HANDS = {"barbu": barbu.HANDS, "kozyol": 40, "hearts": 30}  # hands drawn at most: more than the sheets tried need


@dataclass
class Played:
    """A random game: its players in seat order, its options as the API takes them, and its entries in order."""

    game: str
    players: list[str]
    options: dict[str, Any]
    entries: list[dict[str, Any]]


def random_game(game: str, rng: np.random.Generator, hands: int | None = None) -> Played:
    """A legal game of up to hands hands (the game's end comes first when it comes)."""
    count = {"barbu": 4, "kozyol": 4, "hearts": int(rng.integers(6, 12))}[game]
    players = [str(name) for name in rng.choice(NAMES, count, replace=False)]
    options: dict[str, Any] = {
        "barbu": lambda: {"first_declarer": players[int(rng.integers(4))]},
        "kozyol": lambda: {"target": int(rng.choice([12, 24, 40, 60]))},
        "hearts": lambda: {"target": int(rng.choice([150, 250, 400])), "moon_points": int(rng.choice([26, 52]))},
    }[game]()
    replay = GAMES[game].new_replay(players, GAMES[game].parse_options(players, options, None))
    entries: list[dict[str, Any]] = []
    draw = {"barbu": barbu_hand, "kozyol": kozyol_deal, "hearts": hearts_hand}[game]
    while not replay.finished and len(entries) < (hands or HANDS[game]):
        entry = draw(replay, rng)
        replay.play(copy.deepcopy(entry))
        entries.append(entry)
    return Played(game, players, options, entries)


def split(total: int, count: int, rng: np.random.Generator, weights: np.ndarray | None = None) -> list[int]:
    """total shared among count at random (uneven: some get much, some none)."""
    shares = rng.dirichlet(np.full(count, 0.8)) if weights is None else weights
    return [int(n) for n in rng.multinomial(total, shares)]


def barbu_hand(replay: Any, rng: np.random.Generator) -> dict[str, Any]:
    """The declarer's next contract at random among those left, cards at random, legal doubles."""
    upcoming = replay.next()
    players = replay.players
    declarer = upcoming["declarer"]
    contract = str(rng.choice(upcoming["contracts_left"]))
    entry: dict[str, Any] = {"contract": contract}
    if contract in barbu.COUNTED:
        total = barbu.COUNT_TOTALS[barbu.COUNTED[contract]]
        counts = dict(zip(players, split(total, 4, rng), strict=True))
        entry[barbu.COUNTED[contract]] = counts
        if contract == "no_hearts":
            entry["ace_of_hearts"] = str(rng.choice([p for p in players if counts[p]]))
    elif contract == "no_last_two":
        entry["second_last"], entry["last"] = (str(p) for p in rng.choice(players, 2))
    elif contract == "barbu":
        entry["king_of_hearts"] = str(rng.choice(players))
    else:
        entry["order"] = [str(p) for p in rng.permutation(players)]
    others = [p for p in players if p != declarer]
    left = upcoming["hands_left_in_block"]
    doubling = [p for p in others if p in upcoming["must_double"]
                or rng.random() < upcoming["doubles_owed"][p] / left + 0.1]
    doubles = [{"by": p, "target": declarer, "redoubled": bool(rng.random() < 0.25)} for p in doubling]
    if contract not in barbu.POSITIVE:
        for x, y in combinations(others, 2):
            pick = rng.random()
            if pick < 0.4:
                by, target = (x, y) if pick < 0.2 else (y, x)
                doubles.append({"by": by, "target": target, "redoubled": bool(rng.random() < 0.25)})
    entry["doubles"] = [doubles[i] for i in rng.permutation(len(doubles))]
    return entry


REACHABLE = sorted(kozyol.REACHABLE)


def kozyol_deal(replay: Any, rng: np.random.Generator) -> dict[str, Any]:
    """Card points that can be held (never 1 or 119); eggs now and then; a team without a trick now and then."""
    pick = rng.random()
    if pick < 0.08:
        return {"points": [60, 60]}
    if pick < 0.16:
        team = int(rng.integers(2))
        points = [0, 0]
        points[team] = kozyol.TOTAL_POINTS
        tricks: list[int | None] = [None, None]
        tricks[1 - team] = 0 if rng.random() < 0.6 else int(rng.integers(1, 4))
        return {"points": points, "tricks": tricks}
    first = int(rng.choice([p for p in REACHABLE if 0 < p < kozyol.TOTAL_POINTS]))
    return {"points": [first, kozyol.TOTAL_POINTS - first]}


def hearts_hand(replay: Any, rng: np.random.Generator) -> dict[str, Any]:
    """Hearts and Black Marias shared at random; a moon sometimes; sometimes cards lost in a cancelled last trick."""
    players = replay.players
    count = len(players)
    if rng.random() < 0.06:
        shooter = players[int(rng.integers(count))]
        return {"hearts": {p: hearts.HEARTS * (p == shooter) for p in players},
                "black_marias": {p: hearts.BLACK_MARIAS * (p == shooter) for p in players},
                "moon": str(rng.choice(hearts.MOON_CHOICES))}
    lost_hearts, lost_marias = 0, 0
    if rng.random() < 0.25:  # the last trick cancelled: up to one card per player lost, Black Marias among them
        lost_marias = int(rng.integers(0, 2)) if rng.random() < 0.3 else 0
        lost_hearts = int(rng.integers(1, count - lost_marias + 1))
    taken = split(hearts.HEARTS - lost_hearts, count, rng)
    marias = split(hearts.BLACK_MARIAS - lost_marias, count, rng, np.full(count, 1 / count))
    entry: dict[str, Any] = {"hearts": dict(zip(players, taken, strict=True)),
                             "black_marias": dict(zip(players, marias, strict=True))}
    if hearts.HEARTS in taken and hearts.BLACK_MARIAS in marias and taken.index(hearts.HEARTS) == marias.index(hearts.BLACK_MARIAS):
        entry["moon"] = str(rng.choice(hearts.MOON_CHOICES))
    return entry
