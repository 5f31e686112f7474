"""The tables of a club evening, drawn from who is there: fair sit-outs, few repeat meetings, seats drawn.

Who sits out: those who sat out least this season, ties drawn. The tables: the pairs who met least sit
together (this evening's meetings first, then the season's), found by a greedy start and swaps between
tables, from several drawn starts; at a game played in teams, the partners who partnered least tonight,
then this season. Then the seat order round each table is drawn (partners keep their team's seats), so
seat 0, the first declarer or dealer, is drawn too. The same seed gives the same round.

The search is bounded by the work it does, not by the clock: a draw takes at most ``WORK`` looks at a
pair of players (a swap weighed, a seat chosen, a count copied), the same on every machine and under any
load, so a seed still draws one round. An evening of a few dozen players never reaches the bound: every
start is made and every tie looked past, as the search always did. A large evening makes fewer starts
(each costs the square of the players present) and looks ahead less: 400 players are seated in about
half a second on two cores (bench/seating_draw.py) where the unbounded search took several.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ...games import GAMES, kozyol
from ...games.base import N_, refuse

__all__ = ["WORK", "History", "Round", "Table", "Work", "draw", "evening", "greedy_draw", "history_of", "pair",
           "partners", "plan", "repeat_meetings", "round_seed", "swap"]

Pair = tuple[int, int]
# Games played in teams, and how many: seat s is in team s % teams (Kozyol: seats 0 and 2 against 1 and 3).
TEAMS: dict[str, int] = {kozyol.GAME.slug: kozyol.TEAMS}
STARTS = 24  # drawn starts of the search per round at most; the best table plan of all is kept
LOOKAHEAD = 6  # drawn starts of the next round, to choose between equally good plans
# The looks at a pair of players a draw may take (Work), starts first, then looks ahead with what they
# leave. 100 players take under half of it; 400 make 6 to 12 starts of the 24 (bench/seating_draw.py).
WORK = 4_000_000


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


def partners(game: str, seats: Sequence[int]) -> list[Pair]:
    """The pairs of partners at a table in seat order: none unless the game is played in teams.

    >>> partners("kozyol", (5, 6, 7, 8)), partners("barbu", (5, 6, 7, 8))
    ([(5, 7), (6, 8)], [])
    """
    teams = TEAMS.get(game, 0)
    return [pair(a, b) for team in range(teams) for a, b in combinations(seats[team::teams], 2)]


@dataclass(frozen=True)
class Table:
    """One table of a round: its game and the club player ids in seat order; seats[0] declares or deals first."""

    game: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Round:
    """One round's tables, and who sits it out (sorted ids)."""

    tables: tuple[Table, ...]
    sat_out: tuple[int, ...]


@dataclass(frozen=True)
class History:
    """What the season already holds: counts by pair (low id, high id) and by player."""

    met: Mapping[Pair, int] = field(default_factory=dict)  # times two players shared a table
    partnered: Mapping[Pair, int] = field(default_factory=dict)  # times they were partners (Kozyol)
    sat_out: Mapping[int, int] = field(default_factory=dict)  # times a player sat out

    def after(self, drawn: Round) -> History:
        """This history plus one round: its meetings, its partners and its sit-outs."""
        met, partnered, sat_out = dict(self.met), dict(self.partnered), dict(self.sat_out)
        for table in drawn.tables:
            add_table(met, partnered, table.game, table.seats)
        for player in drawn.sat_out:
            sat_out[player] = sat_out.get(player, 0) + 1
        return History(met, partnered, sat_out)


def add_table(met: dict[Pair, int], partnered: dict[Pair, int], game: str, seats: Sequence[int]) -> None:
    """Count one table's meetings and partners into the counts."""
    for a, b in combinations(seats, 2):
        key = pair(a, b)
        met[key] = met.get(key, 0) + 1
    for key in partners(game, seats):
        partnered[key] = partnered.get(key, 0) + 1


def history_of(played: Iterable[tuple[str, Sequence[int]]], sat_out: Mapping[int, int] = {}) -> History:  # noqa: B006
    """A History from matches played: (game slug, seat player ids in seat order) each; partners from the seats.

    >>> made = history_of([("kozyol", (1, 2, 3, 4)), ("barbu", (1, 3, 5, 6))], {2: 1})
    >>> made.met[(1, 3)], made.met[(1, 2)], made.partnered, made.sat_out
    (2, 1, {(1, 3): 1, (2, 4): 1}, {2: 1})
    """
    met: dict[Pair, int] = {}
    partnered: dict[Pair, int] = {}
    for game, seats in played:
        add_table(met, partnered, game, seats)
    return History(met, partnered, dict(sat_out))


def round_seed(seed: int, number: int) -> int:
    """The seed an evening drawn with seed gives its round of that number (0 the first), below 2**63."""
    return random.Random(f"{seed}/{number}").getrandbits(63)


def repeat_meetings(drawn: Round, history: History) -> int:
    """How often the pairs at the round's tables met before, summed: what a proposal keeps low.

    >>> repeat_meetings(Round((Table("barbu", (1, 2, 3, 4)),), (5,)), history_of([("barbu", (1, 2, 3, 5))]))
    3
    """
    return sum(history.met.get(pair(a, b), 0) for table in drawn.tables for a, b in combinations(table.seats, 2))


# -- the tables for a count of players ----------------------------------------------------------------


def games_of(game: str | Sequence[str]) -> list[str]:
    """The slugs asked for, each a game of the engine."""
    slugs = [game] if isinstance(game, str) else list(game)
    if not slugs or any(slug not in GAMES for slug in slugs):
        raise refuse("game", N_("Choose one of the games: {games}."), games=", ".join(GAMES))
    return slugs


def plan(game: str | Sequence[str], count: int) -> tuple[list[tuple[str, int]], int]:
    """The tables (game, size) for count players and how many sit out; a Refusal when no table can be made.

    One slug: as many tables as fit (as few as can seat everyone where the size may vary, sizes as even as
    possible). A list: one table per slug, in order; fixed sizes first, the rest shared within bounds.

    >>> plan("barbu", 10), plan("hearts", 13), plan("hearts", 25)
    (([('barbu', 4), ('barbu', 4)], 2), ([('hearts', 7), ('hearts', 6)], 0), ([('hearts', 9), ('hearts', 8), ('hearts', 8)], 0))
    >>> plan(["kozyol", "hearts"], 12)
    ([('kozyol', 4), ('hearts', 8)], 0)
    """
    slugs = games_of(game)
    if isinstance(game, str):
        low, high = GAMES[game].min_players, GAMES[game].max_players
        tables = count // low if low == high else -(-count // high)
        while tables > 1 and tables * low > count:
            tables -= 1
        slugs = [game] * max(tables, 1)
    sizes = [GAMES[slug].min_players for slug in slugs]
    if count < sum(sizes):
        raise refuse("players", N_("These tables need at least {count} players; {present} are here."),
                     count=sum(sizes), present=count)
    left = count - sum(sizes)
    while left:
        room = [t for t, slug in enumerate(slugs) if sizes[t] < GAMES[slug].max_players]
        if not room:
            break
        sizes[min(room, key=lambda t: sizes[t])] += 1
        left -= 1
    return list(zip(slugs, sizes, strict=True)), left


# -- one round ----------------------------------------------------------------------------------------


class Costs:
    """What seating two of the players together costs, by their index: meetings, and partnerships in teams.

    Tonight's counts come first, squared (a third meeting weighs more than two seconds); one more tonight
    outweighs any difference in the season's.
    """

    def __init__(self, players: Sequence[int], history: History, tonight: History, teams: bool):
        self.season = self.counts(players, history.met)
        self.tonight = self.counts(players, tonight.met)
        self.met = self.weighed(self.season, self.tonight)
        self.partnered = self.weighed(self.counts(players, history.partnered),
                                      self.counts(players, tonight.partnered)) if teams else []

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
    def weighed(season: list[list[int]], tonight: list[list[int]]) -> list[list[int]]:
        weight = 1 + max((max(row) for row in season), default=0)
        return [[count ** 2 * weight + base for base, count in zip(bases, counts, strict=True)]
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
        later.met = self.weighed(later.season, later.tonight)
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


def start(present: Sequence[int], game: str | Sequence[str], history: History, rng: random.Random,
          tonight: Sequence[Round]) -> tuple[list[int], list[str], list[int], list[int], Costs]:
    """What both methods share: the players, the tables' games and sizes, who sits out, the costs."""
    players = sorted(present)
    if len(set(players)) != len(players):
        raise refuse("players", N_("List each player once."))
    tables, out = plan(game, len(players))
    drawn = sorted(players, key=lambda player: (history.sat_out.get(player, 0), rng.random()))
    sat_out, seated = sorted(drawn[:out]), sorted(drawn[out:])
    evening_so_far = History()
    for earlier in tonight:
        evening_so_far = evening_so_far.after(earlier)
    games = [slug for slug, _ in tables]
    costs = Costs(seated, history, evening_so_far, any(slug in TEAMS for slug in games))
    return seated, games, [size for _, size in tables], sat_out, costs


def seat_round(seated_ids: Sequence[int], games: Sequence[str], groups: list[list[int]], sat_out: Sequence[int],
           costs: Costs, rng: random.Random) -> Round:
    """The round: each table's seat order drawn, partners in their team's seats; seat 0 drawn with it."""
    tables = []
    for game, group in zip(games, groups, strict=True):
        teams = rng.choice(costs.teams(game, group)[1])
        rng.shuffle(teams)
        for team in teams:
            rng.shuffle(team)
        order = [team[member] for member in range(len(teams[0])) for team in teams]
        tables.append(Table(game, tuple(seated_ids[i] for i in order)))
    return Round(tuple(tables), tuple(sat_out))


def draw(present: Sequence[int], game: str | Sequence[str], history: History, seed: int,
         tonight: Sequence[Round] = (), work: int | None = WORK) -> Round:
    """One round's proposal; tonight: the evening's rounds before it (also counted in history), if any.

    work: the looks at a pair of players the search may take (None: as many as it wants). The same
    arguments draw the same round, whatever the machine and however busy it is.
    """
    rng = random.Random(seed)
    players, games, sizes, sat_out, costs = start(present, game, history, rng, tonight)
    starting = Work(work)
    order = list(range(len(players)))
    found: dict[frozenset[frozenset[int]], tuple[tuple[int, int], list[list[int]]]] = {}
    dearest = 0  # the most one start took so far: another is made only while as much is left
    for _ in range(STARTS):
        if found and not starting.affords(dearest):
            break
        before = starting.spent
        rng.shuffle(order)
        groups = greedy(order, sizes, costs, starting)
        found.setdefault(frozenset(map(frozenset, groups)), (settle(groups, games, costs, starting), groups))
        dearest = max(dearest, starting.spent - before)
    least = min(cost for cost, _ in found.values())
    best = [groups for cost, groups in found.values() if cost == least]
    if len(best) > 1:  # equally good: the one that leaves the next round the fewest meetings
        looking = Work(None if work is None else work - starting.spent)
        best = ahead(best, games, sizes, costs, rng, looking, dearest)
    return seat_round(players, games, best[0], sat_out, costs, rng)


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


def greedy_draw(present: Sequence[int], game: str | Sequence[str], history: History, seed: int,
                tonight: Sequence[Round] = ()) -> Round:
    """The plain greedy proposal, the baseline of draw: the same sit-outs and first order, no search."""
    rng = random.Random(seed)
    players, games, sizes, sat_out, costs = start(present, game, history, rng, tonight)
    order = list(range(len(players)))
    rng.shuffle(order)
    return seat_round(players, games, greedy(order, sizes, costs), sat_out, costs, rng)


def evening(present: Sequence[int], game: str | Sequence[str], history: History, rounds: int,
            seed: int) -> list[Round]:
    """Several rounds drawn one after the other, each from the history plus the rounds before it.

    Round n is draw(..., round_seed(seed, n), tonight=the rounds before it): a round drawn again from
    fewer players after round n changes only what follows.
    """
    drawn: list[Round] = []
    for number in range(rounds):
        drawn.append(draw(present, game, history, round_seed(seed, number), tonight=drawn))
        history = history.after(drawn[-1])
    return drawn


def swap(drawn: Round, a: int, b: int) -> Round:
    """The round with two people swapped (either may be sitting out); a Refusal if one is not in the round.

    >>> swap(Round((Table("barbu", (1, 2, 3, 4)),), (5,)), 5, 2)
    Round(tables=(Table(game='barbu', seats=(1, 5, 3, 4)),), sat_out=(2,))
    """
    everyone = {player for table in drawn.tables for player in table.seats} | set(drawn.sat_out)
    if a not in everyone or b not in everyone:
        raise refuse("players", N_("Choose two players of this round."))
    other = {a: b, b: a}
    tables = tuple(Table(table.game, tuple(other.get(player, player) for player in table.seats))
                   for table in drawn.tables)
    return Round(tables, tuple(sorted(other.get(player, player) for player in drawn.sat_out)))
