"""Random legal finished matches of every game, for the club's tests and the club benchmark.

Built on the engine tests' own random hands (test_barbu_engine, test_kozyol_engine, test_hearts_engine).
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.games import GAMES
from test_barbu_engine import random_match as barbu_match
from test_hearts_engine import random_hand
from test_kozyol_engine import play_deal

FOUR = ["Ann", "Bob", "Cid", "Dee"]
SIX = [*FOUR, "Eve", "Fay"]
ELEVEN = [*SIX, "Gus", "Hal", "Ivy", "Jon", "Kim"]


def replay_of(game: str, players: list[str], options: dict[str, Any] | None, entries: list[dict[str, Any]]):
    """Replay entries from a new match of game, as the app does with a match's stored hands."""
    replay = GAMES[game].new_replay(list(players), GAMES[game].parse_options(list(players), options or {}, None))
    for entry in entries:
        replay.play(entry)
    return replay


def kozyol_match(rng: random.Random):
    options = {"target": rng.choice([4, 6, 12]), "eggs_double_next": rng.random() < 0.5}
    replay = replay_of("kozyol", FOUR, options, [])
    entries = []
    while not replay.finished:
        entry, _, _ = play_deal(rng)
        replay.play(entry)
        entries.append(entry)
    return replay, entries


def hearts_entry(rng: random.Random, players: list[str]) -> dict[str, Any]:
    hearts, marias = random_hand(rng, len(players))
    entry = {"hearts": dict(zip(players, hearts)), "black_marias": dict(zip(players, marias))}
    if max(hearts) == sum(hearts) == 26 and max(marias) == sum(marias) == 2 and hearts.index(26) == marias.index(2):
        entry["moon"] = rng.choice(["add", "subtract"])
    return entry


def hearts_match(rng: random.Random):
    players = ELEVEN[:rng.randint(6, 11)]
    replay = replay_of("hearts", players, {"target": rng.choice([50, 100, 150])}, [])
    entries = []
    while not replay.finished:
        entry = hearts_entry(rng, players)
        replay.play(entry)
        entries.append(entry)
    return replay, entries


def random_match(rng: random.Random, game: str):
    """A finished random match of game: its replay and the entries that made it."""
    if game == "barbu":
        return barbu_match(rng, True)
    return kozyol_match(rng) if game == "kozyol" else hearts_match(rng)
