"""The search for a round's tables among many players: greedy starts, swaps between tables, a look one round ahead.

What seating two players together costs (``Costs``) puts tonight first: a pair who already met tonight
outweighs everything else a round can hold, then how often they met tonight (a third meeting weighs
more than a second), then the season's meetings; a game in teams weighs its partnerships the same way,
after the meetings. A round's tables are found by a greedy start and swaps between tables, from several
drawn starts, each counted to the draw's work (``Work``); among equally good rounds, the one that leaves
the next round the fewest meetings. The first start is the plain greedy round, so the search never
does worse than it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from ...games import kozyol

Pair = tuple[int, int]
# Games played in teams, and how many: seat s is in team s % teams (Kozyol: seats 0 and 2 against 1 and 3).
TEAMS: dict[str, int] = {kozyol.GAME.slug: kozyol.TEAMS}
STARTS = 24  # drawn starts of the search per round at most; the best table plan of all is kept
LOOKAHEAD = 6  # drawn starts of the next round, to choose between equally good plans


class Work:
    """The looks a draw may still take, counted by the search as it goes; None: no bound.

    Once an ask is refused, every later one is too: the search stops where it is and keeps what it has.

    >>> work = Work(10)
    >>> work.spend(4), work.affords(6), work.spend(7), work.spend(1), work.affords(0), work.spent
    (True, True, False, False, False, 4)
    >>> Work(None).spend(10**9)
    True
    """

    def __init__(self, units: int | None) -> None:
        self.left = units
        self.spent = 0

    def spend(self, units: int) -> bool:
        """Take these units when they are left; refuse (and take none, nor any later) when they are not."""
        if self.left is not None:
            if units > self.left:
                self.left = 0
                return False
            self.left -= units
        self.spent += units
        return True

    def affords(self, units: int) -> bool:
        """Whether this much is still left; once all is spent (or an ask was refused), nothing is."""
        return self.left is None or 0 < self.left >= units


def pair(a: int, b: int) -> Pair:
    """The key of two players in the counts: the lower id first.

    >>> pair(7, 3)
    (3, 7)
    """
    return (a, b) if a < b else (b, a)


class Costs:
    """What seating two of the players together costs, by their index: meetings, and partnerships in teams.

    In order, each outweighing all that follow over a whole round (``weighed``): whether the two already
    met tonight, how often (squared: a third meeting weighs more than a second), how often this season.
    """

    def __init__(self, players: Sequence[int], season: tuple[Mapping[Pair, int], Mapping[Pair, int]],
                 tonight: tuple[Mapping[Pair, int], Mapping[Pair, int]], teams: bool, pairs: int):
        """season and tonight: (met, partnered) counts; pairs: how many pairs a round seats together, at most."""
        self.pairs = max(pairs, 1)
        self.season = self.counts(players, season[0])
        self.tonight = self.counts(players, tonight[0])
        self.met = self.weighed(self.season, self.tonight, self.pairs)
        self.partnered = self.weighed(self.counts(players, season[1]), self.counts(players, tonight[1]),
                                      self.pairs) if teams else []

    @staticmethod
    def counts(players: Sequence[int], by_pair: Mapping[Pair, int]) -> list[list[int]]:
        """The counts by index: from the pairs counted when they are fewer than the pairs present, else pair by pair."""
        if 2 * len(by_pair) >= len(players) ** 2:
            return [[by_pair.get(pair(a, b), 0) if a != b else 0 for b in players] for a in players]
        index = {player: at for at, player in enumerate(players)}
        made = [[0] * len(players) for _ in players]
        for (a, b), count in by_pair.items():
            i, j = index.get(a), index.get(b)
            if i is not None and j is not None and i != j:
                made[i][j] = made[j][i] = count
        return made

    @staticmethod
    def weighed(season: list[list[int]], tonight: list[list[int]], pairs: int) -> list[list[int]]:
        """Each pair's cost: again tonight x AGAIN + tonight squared x SQUARE + the season's count, where a
        weight is above what everything after it can add up to over a round of that many pairs.

        >>> Costs.weighed([[0, 3], [3, 0]], [[0, 1], [1, 0]], 2)
        [[0, 31], [31, 0]]
        """
        top = max((max(row) for row in season), default=0)
        square = 1 + pairs * top
        again = 1 + pairs * (max((max(row) for row in tonight), default=0) ** 2 * square + top)
        return [[(again + count * count * square if count else 0) + base for base, count in zip(bases, counts, strict=True)]
                for bases, counts in zip(season, tonight, strict=True)]

    def after(self, groups: Sequence[Sequence[int]]) -> Costs:
        """The meetings' costs once these tables have played (the partnerships' are kept)."""
        later = copy.copy(self)
        later.season, later.tonight = [row[:] for row in self.season], [row[:] for row in self.tonight]
        for group in groups:
            for a, b in combinations(group, 2):
                for counts in (later.season, later.tonight):
                    counts[a][b] += 1
                    counts[b][a] += 1
        later.met = self.weighed(later.season, later.tonight, self.pairs)
        return later

    def teams(self, game: str, group: Sequence[int]) -> tuple[int, list[list[list[int]]]]:
        """The least partnership cost of a table of the game, and the ways to part it into teams at that cost."""
        count = TEAMS.get(game, 0)
        if not count:
            return 0, [[list(group)]]
        costed = [(sum(self.partnered[a][b] for team in split for a, b in combinations(team, 2)), split)
                  for split in splits(list(group), count)]
        least = min(cost for cost, _ in costed)
        return least, [split for cost, split in costed if cost == least]


def splits(group: list[int], teams: int) -> Iterable[list[list[int]]]:
    """Every way to part the group into teams of equal size, each once.

    >>> list(splits([0, 1, 2, 3], 2))
    [[[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0, 3], [1, 2]]]
    """
    if teams == 1:
        yield [group]
        return
    first, rest = group[0], group[1:]
    for others in combinations(rest, len(group) // teams - 1):
        left = [player for player in rest if player not in others]
        for more in splits(left, teams - 1):
            yield [[first, *others], *more]


def greedy(order: Sequence[int], sizes: Sequence[int], costs: Costs, work: Work | None = None) -> list[list[int]]:
    """Each player in turn to the table with room where they add the fewest meetings (the first such table).

    Always made whole (a plan needs every seat); its looks are counted to the work, if one is given.
    """
    groups: list[list[int]] = [[] for _ in sizes]
    for player in order:
        row = costs.met[player]
        open_ = [t for t, group in enumerate(groups) if len(group) < sizes[t]]
        groups[min(open_, key=lambda t: sum([row[other] for other in groups[t]]))].append(player)
    if work is not None:
        work.spend(len(order) * (len(order) + len(sizes)) // 2)
    return groups


def settle(groups: list[list[int]], games: Sequence[str], costs: Costs, work: Work | None = None) -> tuple[int, int]:
    """Swap players between tables while a swap lowers the meetings, or keeps them and lowers the partnerships.

    Works in place; returns the groups' cost (meetings, partnerships). Each player's looks at the players
    after it are taken from the work first: once none are left the swaps stop, the tables as they are then.
    """
    met, count = costs.met, len(costs.met)
    if work is not None and not work.spend(count * count):
        return cost_of(groups, games, costs)
    at = [0] * count
    for t, group in enumerate(groups):
        for player in group:
            at[player] = t
    sums = [[sum([row[j] for j in group]) for group in groups] for row in met]
    paired = [costs.teams(game, group)[0] for game, group in zip(games, groups, strict=True)]
    moved = True
    while moved:
        moved = False
        for x in range(count):
            if work is not None and not work.spend(count - x - 1):
                return cost_of(groups, games, costs)
            a, sx, row = at[x], sums[x], met[x]
            for y in range(x + 1, count):
                b = at[y]
                if a == b:
                    continue
                sy = sums[y]
                delta = sy[a] - sx[a] + sx[b] - sy[b] - 2 * row[y]
                if delta > 0 or not (delta or paired[a] or paired[b]):  # no partnership cost falls below none
                    continue
                table_a = [y if player == x else player for player in groups[a]]
                table_b = [x if player == y else player for player in groups[b]]
                after = costs.teams(games[a], table_a)[0], costs.teams(games[b], table_b)[0]
                if delta == 0 and sum(after) >= paired[a] + paired[b]:
                    continue
                groups[a], groups[b], paired[a], paired[b] = table_a, table_b, *after
                at[x], at[y] = b, a
                for i in range(count):
                    change = met[i][y] - met[i][x]
                    sums[i][a] += change
                    sums[i][b] -= change
                if work is not None:
                    work.spend(count)  # the sums brought up to date; a refusal here stops at the next player
                a = b
                moved = True
    return cost_of(groups, games, costs)


def cost_of(groups: Sequence[Sequence[int]], games: Sequence[str], costs: Costs) -> tuple[int, int]:
    """What the tables cost: (meetings, partnerships)."""
    meetings = sum(costs.met[a][b] for group in groups for a, b in combinations(group, 2))
    return meetings, sum(costs.teams(game, group)[0] for game, group in zip(games, groups, strict=True))


def ahead(best: list[list[list[int]]], games: Sequence[str], sizes: Sequence[int], costs: Costs,
          rng: random.Random, work: Work, dearest: int) -> list[list[list[int]]]:
    """Equally good plans, the one that leaves the next round the fewest meetings first (ties in their order).

    Each is looked past in turn while the work left covers what the dearest look so far took (at first, a
    second start's worth); the plans not looked past are left out. None looked past: the first plan.
    """
    looked: list[tuple[int, list[list[int]]]] = []
    need, dearest_look = 2 * dearest, 0
    for groups in best:
        if not work.affords(need):
            break
        before = work.spent
        looked.append((next_round(groups, games, sizes, costs, rng, work), groups))
        dearest_look = max(dearest_look, work.spent - before)
        need = dearest_look
    looked.sort(key=lambda scored: scored[0])
    return [groups for _, groups in looked] or best[:1]


def next_round(groups: list[list[int]], games: Sequence[str], sizes: Sequence[int], costs: Costs,
               rng: random.Random, work: Work | None = None) -> int:
    """The fewest meetings found for a next round of the same players after these tables."""
    later = costs.after(groups)
    count = len(later.met)
    if work is not None:
        work.spend(3 * count * count)  # the counts copied and weighed again
    order = list(range(count))
    least = None
    for _ in range(LOOKAHEAD):
        if least is not None and work is not None and not work.affords(count * count):
            break
        rng.shuffle(order)
        trial = greedy(order, sizes, later, work)
        meetings = settle(trial, games, later, work)[0]
        least = meetings if least is None else min(least, meetings)
        if not least:
            break
    return least or 0
