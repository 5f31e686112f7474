"""Club evenings' seating: the counts after drawn rounds, and random clubs with a season behind them."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from scorekeeper.club.engine.seating import History, Round, history_of
from scorekeeper.games import GAMES


def season(rounds: Sequence[Round], history: History | None = None) -> History:
    """The history after the rounds, played one after the other."""
    made = history or History()
    for drawn in rounds:
        made = made.after(drawn)
    return made


def seated(drawn: Round) -> list[int]:
    """Everyone at a table of the round, table after table."""
    return [player for table in drawn.tables for player in table.seats]


def most_met(rounds: Sequence[Round]) -> int:
    """The most times one pair met over the rounds (0 when nobody sat together)."""
    return max(season(rounds).met.values(), default=0)


def repeats(rounds: Sequence[Round]) -> int:
    """Meetings beyond each pair's first over the rounds."""
    return sum(count - 1 for count in season(rounds).met.values())


@dataclass(frozen=True)
class Club:
    """A random club: its players, the season it has played, who came tonight and what they play."""

    players: list[int]
    history: History
    present: list[int]
    game: str | list[str]


def random_evening(rng: random.Random) -> Club:
    """A club of 4 to 60 players with up to 300 matches behind it, a few of them present for one or more games."""
    players = rng.sample(range(1, 1000), rng.randint(4, 60))
    played = []
    for _ in range(rng.choice((0, 10, 300))):
        slug = rng.choice(sorted(GAMES))
        size = rng.randint(GAMES[slug].min_players, GAMES[slug].max_players)
        if size <= len(players):
            played.append((slug, rng.sample(players, size)))
    sat_out = {player: rng.randint(0, 3) for player in players if rng.random() < 0.3}
    present = rng.sample(players, rng.randint(min(4, len(players)), min(40, len(players))))
    game: str | list[str] = rng.choice(sorted(GAMES))
    if rng.random() < 0.3:
        game = [rng.choice(sorted(GAMES)) for _ in range(rng.randint(1, 3))]
    return Club(players, history_of(played, sat_out), present, game)


def groupings(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat the players at tables of these sizes, each once (tables of one size are alike)."""
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            for more in groupings([p for p in rest if p not in others], left):
                yield [(first, *others), *more]


def fewest_by_hand(drawn: Round, tonight: Sequence[Round]) -> int:
    """The fewest pairs who sat together tonight that any seating of the round's players at tables of its sizes
    seats together again, counted over every such seating."""
    before = {frozenset(pair) for earlier in tonight for table in earlier.tables for pair in combinations(table.seats, 2)}
    seated = sorted(player for table in drawn.tables for player in table.seats)
    return min(sum(frozenset(pair) in before for group in grouping for pair in combinations(group, 2))
               for grouping in groupings(seated, [len(table.seats) for table in drawn.tables]))
