"""The fewest pairs who already met that a round's tables must seat together again, found exactly, with bounds.

A round of up to ``EXACT`` seated players is small enough to search whole. The search takes the lowest
player not yet seated and builds, with them, every group a table that can still seat them could take,
player by player, a group's pairs who met counted as it grows; a group, plus what the players left must
bring at least, at or above the best round found so far cuts that branch. What the players left must
bring at least: tonight's earlier rounds each split them into tables, and the tables left can at best
spread each such table's players evenly (so some sit together again); and a player who met nearly all
of those left meets some of them again. What a set of players left at a set of tables costs is kept, so
each is searched once. The same players, tables and rounds always give the same answer, and the search
is counted by the work it does, so a round it cannot finish within its bound raises ``Unfinished``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

EXACT = 16  # seated players at most for the exact search


class Unfinished(Exception):
    """The search needed more work than it was given."""


class Spending(Protocol):
    """The work a search may still take (search.Work)."""

    def spend(self, units: int) -> bool: ...


def spread(players: int, tables: int) -> int:
    """The fewest pairs of these players who share a table when they are spread over that many tables.

    >>> spread(4, 2), spread(5, 2), spread(3, 4), spread(7, 0)
    (2, 4, 0, 0)
    """
    if not tables:
        return 0
    each, more = divmod(players, tables)
    return more * (each + 1) * each // 2 + (tables - more) * each * (each - 1) // 2


class Search:
    """One exact search over the players (by index): who met whom (bits), the tables' sizes by kind, the splits
    of tonight's earlier rounds (each table's players as bits), and the work it may take."""

    def __init__(self, met: Sequence[int], sizes: Sequence[int], rounds: Sequence[Sequence[int]], work: Spending):
        self.met, self.sizes, self.work = list(met), list(sizes), work
        self.rounds = [list(tables) for tables in rounds if len(tables) > 1]
        self.spreads = [[spread(players, tables) for tables in range(len(met) + 1)] for players in range(len(met) + 1)]
        # Pairs who sat together in more than one of the rounds: summed over the rounds, counted that much more.
        together: dict[int, int] = {}
        for split in self.rounds:
            for table in split:
                members = [player for player in range(len(met)) if table >> player & 1]
                for at, a in enumerate(members):
                    for b in members[at + 1:]:
                        together[1 << a | 1 << b] = together.get(1 << a | 1 << b, 0) + 1
        self.again = [(bits, count - 1) for bits, count in together.items() if count > 1]
        self.known: dict[tuple[int, tuple[int, ...]], tuple[int, bool, int, int]] = {}

    def spend(self, units: int) -> None:
        if not self.work.spend(units):
            raise Unfinished()

    def floor(self, mask: int, left: tuple[int, ...], cap: int) -> int:
        """What the players of mask must bring at least at the tables left: pairs who met sitting together (the
        first bound that reaches cap is enough)."""
        tables = sum(left)
        each = [sum([self.spreads[(mask & table).bit_count()][tables] for table in split]) for split in self.rounds]
        least = max(each, default=0)
        self.spend(len(self.rounds) * 4)
        if least >= cap:
            return least
        if len(each) > 1:
            least = max(least, sum(each) - sum([more for bits, more in self.again if bits & mask == bits]))
            self.spend(len(self.again))
            if least >= cap:
                return least
        players = mask.bit_count()
        sizes = [size for size, count in zip(self.sizes, left, strict=True) if count]
        small, large = sizes[0], sizes[-1] if len(sizes) == 2 else sizes[0]
        seats = small * left[self.sizes.index(small)]  # at the smaller tables: the players who gain most sit there
        forced, gains, rest = 0, [], mask
        while rest:
            player = (rest & -rest).bit_length() - 1
            rest ^= 1 << player
            met = (self.met[player] & mask).bit_count() - players  # a table of size s seats s - 1 + this of them
            at_large = max(0, large + met)
            forced += at_large
            gains.append(at_large - max(0, small + met))
        if large != small:
            gains.sort(reverse=True)
            forced -= sum(gains[:seats])
        self.spend(players)
        return max(least, (forced + 1) // 2)

    def best(self, mask: int, left: tuple[int, ...], cap: int) -> int:
        """The least these players bring at these tables when below cap (exactly); else at least cap (a bound)."""
        key = (mask, left)
        known = self.known.get(key)
        if known is not None and (known[1] or known[0] >= cap):
            return known[0]
        if sum(left) == 1:
            cost = self.within(mask)
            self.known[key] = (cost, True, left.index(1), mask)
            return cost
        floor = self.floor(mask, left, cap)
        if floor >= cap:
            self.known[key] = (floor, False, -1, 0)
            return floor
        low = (mask & -mask).bit_length() - 1
        others = [player for player in range(low + 1, len(self.met)) if mask >> player & 1]
        pick = self.two if sum(left) == 2 else self.tables
        found, bound, choice = pick(mask, left, low, others, cap)
        self.known[key] = (found, True, *choice) if found < cap else (bound, False, -1, 0)
        return found if found < cap else bound

    def tables(self, mask: int, left: tuple[int, ...], low: int, others: list[int], cap: int
               ) -> tuple[int, int, tuple[int, int]]:
        """The best round of mask with low at each table that can seat them: (found, bound, (kind, group))."""
        found, bound, choice = cap, cap, (-1, 0)
        for kind, count in enumerate(left):
            if not count:
                continue
            after = (*left[:kind], count - 1, *left[kind + 1:])
            for group, cost in self.groups(low, others, self.sizes[kind] - 1, min(cap, found)):
                limit = min(cap, found)
                if cost >= limit:
                    bound = min(bound, cost)
                    break
                total = cost + self.best(mask ^ group, after, limit - cost)
                if total < limit:
                    found, choice = total, (kind, group)
                else:
                    bound = min(bound, total)
        return found, min(bound, found), choice

    def two(self, mask: int, left: tuple[int, ...], low: int, others: list[int], cap: int
            ) -> tuple[int, int, tuple[int, int]]:
        """The best two tables of mask, low at either. A group with the rest costs within(mask) + 2 within(group)
        less its players' meetings among mask, so each player added to a group adds twice the group's players it
        met, less all it met in mask: a group begun is cut when the players left who would add least to it could
        not bring it below the best."""
        degree = [(self.met[player] & mask).bit_count() for player in others]
        total = (sum(degree) + (self.met[low] & mask).bit_count()) // 2
        found, choice, looked = cap, (-1, 0), 0
        for kind, count in enumerate(left):
            if not count:
                continue
            stack = [(1 << low, total - (self.met[low] & mask).bit_count(), 0, self.sizes[kind] - 1)]
            while stack:
                group, cost, at, wanted = stack.pop()
                looked += 1
                if not wanted:
                    if cost < found:
                        found, choice = cost, (kind, group)
                    continue
                adds = sorted(2 * (self.met[others[index]] & group).bit_count() - degree[index]
                              for index in range(at, len(others)))
                if cost + sum(adds[:wanted]) >= found:
                    continue
                for index in range(len(others) - wanted, at - 1, -1):
                    player = others[index]
                    stack.append((group | 1 << player, cost + 2 * (self.met[player] & group).bit_count() - degree[index],
                                  index + 1, wanted - 1))
        self.spend(looked * 4 + len(others) ** 2)
        return found, found, choice

    def groups(self, low: int, others: list[int], more: int, limit: int) -> list[tuple[int, int]]:
        """Every group of low and more of the others that seats fewer than limit pairs who met: (bits, pairs)."""
        made: list[tuple[int, int]] = []
        stack = [(1 << low, 0, 0, more)]
        while stack:
            group, cost, at, wanted = stack.pop()
            if not wanted:
                made.append((group, cost))
                continue
            for index in range(len(others) - wanted, at - 1, -1):
                player = others[index]
                added = cost + (self.met[player] & group).bit_count()
                if added < limit:
                    stack.append((group | 1 << player, added, index + 1, wanted - 1))
        self.spend(len(made) + 1)
        made.sort(key=lambda made_one: made_one[1])
        return made

    def within(self, mask: int) -> int:
        """The pairs of these players who met."""
        return sum((self.met[player] & mask).bit_count() for player in range(len(self.met)) if mask >> player & 1) // 2

    def round(self, mask: int, left: tuple[int, ...]) -> list[tuple[int, int]]:
        """The tables (kind, players as bits) of the least round found, read back from what was kept."""
        made: list[tuple[int, int]] = []
        while mask:
            if sum(left) == 1:
                return [*made, (left.index(1), mask)]
            _cost, _exact, kind, group = self.known[(mask, left)]
            made.append((kind, group))
            mask ^= group
            left = (*left[:kind], left[kind] - 1, *left[kind + 1:])
        return made


def fewest(met: Sequence[Sequence[int]], sizes: Sequence[int], rounds: Sequence[Sequence[Sequence[int]]],
           work: Spending, cap: int) -> tuple[int, list[list[int]]] | None:
    """The fewest pairs who met (met[a][b] true) that tables of these sizes seat together, below cap, and such a
    round (each table's players by index, tables in order); None when no round seats fewer than cap.

    rounds: tonight's earlier rounds, each table's players by index (a bound, not a rule: pairs who sat
    together in them should have met). Raises Unfinished when the work runs out first.

    >>> fewest([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], [2, 2], [[[0, 1], [2, 3]]], Unbounded(), 9)
    (0, [[0, 2], [1, 3]])
    """
    kinds = sorted(set(sizes))
    bits = [sum(1 << other for other, together in enumerate(row) if together and other != player)
            for player, row in enumerate(met)]
    splits = [[sum(1 << player for player in table) for table in earlier] for earlier in rounds]
    search = Search(bits, kinds, splits, work)
    full, left = (1 << len(met)) - 1, tuple(list(sizes).count(size) for size in kinds)
    if search.best(full, left, cap) >= cap:
        return None
    free = {size: [at for at, one in enumerate(sizes) if one == size] for size in kinds}
    seated: list[list[int]] = [[] for _ in sizes]
    for kind, group in search.round(full, left):
        seated[free[kinds[kind]].pop(0)] = [player for player in range(len(met)) if group >> player & 1]
    return sum(search.within(sum(1 << player for player in table)) for table in seated), seated


class Unbounded:
    """Work without a bound, for a search that must finish."""

    def spend(self, units: int) -> bool:  # noqa: ARG002
        return True
