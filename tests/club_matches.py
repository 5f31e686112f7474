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


# -- a Barbu match scored by hand from docs/rules.md: the three worked examples, the rest plain ------------
# First declarer Ann. In every plain hand the declarer takes every penalty (or every trick in Trumps), and
# Dominoes goes round from the declarer. Totals: Ann 17, Bob 0, Cid -11, Dee -6.

PLAIN = {
    "no_tricks": lambda d: {"tricks": {p: 13 * (p == d) for p in FOUR}},
    "no_queens": lambda d: {"queens": {p: 4 * (p == d) for p in FOUR}},
    "no_hearts": lambda d: {"hearts": {p: 13 * (p == d) for p in FOUR}, "ace_of_hearts": d},
    "no_last_two": lambda d: {"second_last": d, "last": d},
    "barbu": lambda d: {"king_of_hearts": d},
    "trumps": lambda d: {"tricks": {p: 13 * (p == d) for p in FOUR}},
    "dominoes": lambda d: {"order": FOUR[FOUR.index(d):] + FOUR[:FOUR.index(d)]},
}


def dbl(by: str, target: str, redoubled: bool = False) -> dict[str, Any]:
    return {"by": by, "target": target, "redoubled": redoubled}


WORKED = {  # (declarer, contract): the worked examples 1, 2 and 3 of docs/rules.md
    ("Ann", "no_queens"): {"queens": {"Ann": 1, "Bob": 0, "Cid": 1, "Dee": 2},
                           "doubles": [dbl("Bob", "Ann"), dbl("Bob", "Cid"), dbl("Bob", "Dee"),
                                       dbl("Cid", "Ann", True)]},
    ("Ann", "trumps"): {"tricks": {"Ann": 6, "Bob": 3, "Cid": 1, "Dee": 3},
                        "doubles": [dbl("Bob", "Ann"), dbl("Cid", "Ann", True), dbl("Dee", "Ann")]},
    ("Cid", "no_hearts"): {"hearts": {"Ann": 4, "Bob": 5, "Cid": 2, "Dee": 2}, "ace_of_hearts": "Ann",
                           "doubles": [dbl("Ann", "Bob", True), dbl("Ann", "Cid"), dbl("Ann", "Dee", True),
                                       dbl("Bob", "Cid", True), dbl("Bob", "Dee"), dbl("Dee", "Cid")]},
}
FIRST_BLOCK = ["no_queens", "trumps", "no_tricks", "no_hearts", "no_last_two", "barbu", "dominoes"]
BLOCK = ["no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu", "trumps", "dominoes"]


def scripted_barbu() -> list[dict[str, Any]]:
    """The 28 entries of the hand-scored Barbu match."""
    entries = []
    for declarer in FOUR:
        for contract in FIRST_BLOCK if declarer == "Ann" else BLOCK:
            cards = WORKED.get((declarer, contract)) or PLAIN[contract](declarer)
            entries.append({"contract": contract, **cards})
    return entries


def scripted_barbu_replay():
    return replay_of("barbu", FOUR, {"first_declarer": "Ann", "enforce_declarer_doubles": False}, scripted_barbu())
