"""Random legal finished matches of every game, for the club's tests and the club benchmark.

Built on the engine tests' own random hands (helpers.barbu, helpers.kozyol, helpers.hearts).
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any

from helpers.barbu import random_cards, random_match as barbu_match
from helpers.hearts import random_hand
from helpers.kozyol import play_deal
from helpers.matches import PLAYERS
from scorekeeper.club.engine.digest import Played, digest
from scorekeeper.games import GAMES
from scorekeeper.games.base import InvalidHand

FOUR = PLAYERS
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


@dataclass
class Kept:
    """A club match as the club stores it: seats (club player ids), players, options and entries."""

    match: str
    day: datetime.date
    game: str
    seats: list[int]
    players: list[str]
    options: dict[str, Any]
    entries: list[dict[str, Any]]

    def played(self, entries: list[dict[str, Any]] | None = None) -> Played | None:
        """The match as the club's results hold it after these entries (its own by default); None unfinished."""
        replay = replay_of(self.game, self.players, self.options, self.entries if entries is None else entries)
        made = digest(self.game, self.seats, replay)
        return None if made is None else Played(self.match, self.day, made)


def random_club(rng: random.Random, count: int, pool: int = 12) -> list[Kept]:
    """count random finished matches of the three games, seats drawn from players 1..pool, over a year."""
    kept = []
    for number in range(count):
        game = rng.choice(["barbu", "kozyol", "hearts"])
        replay, entries = random_match(rng, game)
        seats = rng.sample(range(1, pool + 1), len(replay.players))
        day = datetime.date(2026, 1, 1) + datetime.timedelta(days=rng.randrange(365))
        kept.append(Kept(f"m{number:04d}{rng.randrange(10**6):06d}", day, game, seats, list(replay.players),
                         dict(replay.options), entries))
    return kept


def other_entry(rng: random.Random, kept: Kept, number: int) -> dict[str, Any]:
    """Another entry for hand number (0-based) that the table might have written instead."""
    entry = kept.entries[number]
    if kept.game == "barbu":
        doubles = [{**d, "redoubled": d["redoubled"] != (rng.random() < 0.3)} for d in entry.get("doubles", [])]
        return {**entry, **random_cards(entry["contract"], rng), "doubles": doubles}
    if kept.game == "kozyol":
        return play_deal(rng)[0]
    return hearts_entry(rng, kept.players)


def corrections(rng: random.Random, kept: Kept, steps: int) -> list[list[dict[str, Any]]]:
    """A history of legal corrections and undos of a match, ending with its final entries.

    A step may leave the match unfinished (an undone last hand, a correction that keeps Kozyol or Hearts
    going); corrections the app would refuse (a later hand no longer legal) are not made.
    """
    history = []
    while len(history) < steps:
        entries = list(kept.entries)
        if rng.random() < 0.25:
            history.append(entries[:rng.randrange(len(entries))])
            continue
        for _ in range(rng.randint(1, 3)):
            number = rng.randrange(len(entries))
            entries[number] = other_entry(rng, kept, number)
        try:
            replay_of(kept.game, kept.players, kept.options, entries)
        except InvalidHand:
            continue
        history.append(entries)
    return [*history, kept.entries]


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
