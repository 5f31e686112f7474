"""The tables of a club evening, drawn from who is there: fair sit-outs, few pairs meeting again, seats drawn.

Who sits out: those who sat out least this season, ties drawn. The tables: as few pairs as can be who
already met tonight sit together again, then as few meetings tonight and this season as can be
(search.Costs); at a game played in teams, the partners who partnered least tonight, then this season.
Up to ``exact.EXACT`` seated players, the fewest pairs meeting again is found exactly (exact.py), so a
round never seats more of them than another seating of the same players at the same tables would; above
that, a greedy start and swaps between tables from several drawn starts (search.py), never worse than
the plain greedy round. Then the seat order round each table is drawn (partners keep their team's
seats), so seat 0, the first declarer or dealer, is drawn too. The same seed gives the same round.

Tables already playing (a latecomer's evening, a round under way) are given as ``playing``: they are
kept as they are, and only the players present and not at them are drawn, onto new tables or out.

The search is bounded by the work it does, not by the clock: a draw takes at most ``WORK`` looks at a
pair of players (a swap weighed, a seat chosen, a count copied), the same on every machine and under any
load, so a seed still draws one round. An evening of a few dozen players never reaches the bound: every
start is made and every tie looked past. A large evening makes fewer starts (each costs the square of
the players present) and looks ahead less: 400 players are seated in about half a second on two cores
(bench/seating_draw.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ...games import GAMES
from ...games.base import N_, refuse
from . import exact
from .search import STARTS, TEAMS, Costs, Pair, Work, ahead, greedy, pair, settle

__all__ = ["EXACT_WORK", "WORK", "History", "Round", "Table", "Work", "by_index", "draw", "evening", "fewer_again",
           "fewest_again", "greedy_draw", "history_of", "met_again", "pair", "partners", "plan", "repeat_meetings",
           "round_seed", "swap"]

# The looks at a pair of players a draw may take (Work), starts first, then the exact search (up to
# exact.EXACT seated), then looks ahead with what they leave. 100 players take under half of it; 400 make
# 6 to 12 starts of the 24 (bench/seating_draw.py).
WORK = 4_000_000
EXACT_WORK = 1_000_000  # of which the exact search may take at most this much


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


def met_again(drawn: Round, tonight: Sequence[Round]) -> list[Pair]:
    """The pairs at the round's tables who already sat together at a table of tonight's rounds before it.

    >>> met_again(Round((Table("barbu", (1, 2, 3, 4)),), ()), [Round((Table("barbu", (1, 2, 5, 3)),), (4,))])
    [(1, 2), (1, 3), (2, 3)]
    """
    before = {pair(a, b) for earlier in tonight for table in earlier.tables for a, b in combinations(table.seats, 2)}
    return sorted(pair(a, b) for table in drawn.tables for a, b in combinations(table.seats, 2) if pair(a, b) in before)


def fewest_again(drawn: Round, tonight: Sequence[Round], work: int = EXACT_WORK) -> int | None:
    """The fewest pairs meeting again (met_again) that any seating of the round's players at tables of its sizes
    allows; None above exact.EXACT seated players, or when the search needs more than this work.

    >>> fewest_again(Round((Table("barbu", (1, 2, 3, 4)), Table("barbu", (5, 6, 7, 8))), ()),
    ...              [Round((Table("barbu", (1, 3, 5, 7)), Table("barbu", (2, 4, 6, 8))), ())])
    4
    """
    seated = [player for table in drawn.tables for player in table.seats]
    if len(seated) > exact.EXACT:
        return None
    before = {pair(a, b) for earlier in tonight for table in earlier.tables for a, b in combinations(table.seats, 2)}
    matrix = [[int(pair(a, b) in before) if a != b else 0 for b in seated] for a in seated]
    groups, at = [], 0
    for table in drawn.tables:
        groups.append(list(range(at, at + len(table.seats))))
        at += len(table.seats)
    try:
        return fewer_again(matrix, groups, by_index(seated, tonight), Work(work))[0]
    except exact.Unfinished:
        return None


def by_index(seated: Sequence[int], tonight: Sequence[Round]) -> list[list[list[int]]]:
    """Tonight's rounds as the exact search reads them: each table's seated players by their index in seated."""
    index = {player: at for at, player in enumerate(seated)}
    return [[[index[player] for player in table.seats if player in index] for table in earlier.tables]
            for earlier in tonight]


def fewer_again(matrix: list[list[int]], groups: list[list[int]], rounds: list[list[list[int]]], work: Work
                ) -> tuple[int, list[list[int]]]:
    """The fewest pairs who met (matrix: 1 for a pair who met, by index) any seating at tables of these groups'
    sizes seats together, and such a seating (these groups when none seats fewer); exact.Unfinished past the work."""
    count = sum(matrix[a][b] for group in groups for a, b in combinations(group, 2))
    if not count:
        return 0, groups
    found = exact.fewest(matrix, [len(group) for group in groups], rounds, work, count)
    return (count, groups) if found is None else found


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
        raise refuse("players", N_("These tables need at least {count} players; players here: {present}."),
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


@dataclass(frozen=True)
class Start:
    """What the search and the greedy baseline share: who is seated (ids, by index), the new tables, who sits
    out, the costs, and the tables already playing."""

    seated: list[int]
    games: list[str]
    sizes: list[int]
    sat_out: list[int]
    costs: Costs
    playing: tuple[Table, ...]


def start(present: Sequence[int], game: str | Sequence[str], history: History, rng: random.Random,
          tonight: Sequence[Round], playing: Sequence[Table] = ()) -> Start:
    """The players not at a table already playing, the tables they make, who of them sits out, the costs."""
    players = sorted(present)
    if len(set(players)) != len(players):
        raise refuse("players", N_("List each player once."))
    busy = [player for table in playing for player in table.seats]
    if len(set(busy)) != len(busy):
        raise refuse("players", N_("A player is seated at two tables."))
    free = [player for player in players if player not in set(busy)]
    if playing:
        games_of(game)
        needed = sum(GAMES[slug].min_players for slug in ([game] if isinstance(game, str) else game))
        if len(free) < needed:
            raise refuse("players", N_("A new table needs at least {count} players; free now: {free}."),
                         count=needed, free=len(free))
    tables, out = plan(game, len(free))
    drawn = sorted(free, key=lambda player: (history.sat_out.get(player, 0), rng.random()))
    sat_out, seated = sorted(drawn[:out]), sorted(drawn[out:])
    evening_so_far = History()
    for earlier in tonight:
        evening_so_far = evening_so_far.after(earlier)
    games, sizes = [slug for slug, _ in tables], [size for _, size in tables]
    costs = Costs(seated, (history.met, history.partnered), (evening_so_far.met, evening_so_far.partnered),
                  any(slug in TEAMS for slug in games), sum(size * (size - 1) // 2 for size in sizes))
    return Start(seated, games, sizes, sat_out, costs, tuple(playing))


def seat_round(begun: Start, groups: list[list[int]], rng: random.Random) -> Round:
    """The round: the tables already playing, then each new table's seat order drawn, partners in their team's
    seats; seat 0 drawn with it."""
    tables = list(begun.playing)
    for game, group in zip(begun.games, groups, strict=True):
        teams = rng.choice(begun.costs.teams(game, group)[1])
        rng.shuffle(teams)
        for team in teams:
            rng.shuffle(team)
        order = [team[member] for member in range(len(teams[0])) for team in teams]
        tables.append(Table(game, tuple(begun.seated[i] for i in order)))
    return Round(tuple(tables), tuple(begun.sat_out))


def draw(present: Sequence[int], game: str | Sequence[str], history: History, seed: int,
         tonight: Sequence[Round] = (), work: int | None = WORK, playing: Sequence[Table] = ()) -> Round:
    """One round's proposal; tonight: the evening's rounds before it (also counted in history), if any.

    playing: tables of this round already playing, kept as they are; the players present and not at them
    are drawn onto new tables (of game) or sit out. work: the looks at a pair of players the search may
    take (None: as many as it wants). The same arguments draw the same round, whatever the machine and
    however busy it is.
    """
    rng = random.Random(seed)
    begun = start(present, game, history, rng, tonight, playing)
    costs, games, sizes = begun.costs, begun.games, begun.sizes
    starting = Work(work)
    order = list(range(len(begun.seated)))
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
    least, first = min((cost, groups) for cost, groups in found.values())
    fewer = fewer_round(begun, first, tonight, starting, work)
    if fewer is not None:
        found[frozenset(map(frozenset, fewer[1]))] = fewer
        least = fewer[0]
    best = [groups for cost, groups in found.values() if cost == least]
    if len(best) > 1:  # equally good: the one that leaves the next round the fewest meetings
        looking = Work(None if work is None else work - starting.spent)
        best = ahead(best, games, sizes, costs, rng, looking, dearest)
    return seat_round(begun, best[0], rng)


def fewer_round(begun: Start, groups: list[list[int]], tonight: Sequence[Round], work: Work, bound: int | None
                ) -> tuple[tuple[int, int], list[list[int]]] | None:
    """Up to exact.EXACT seated, a round with fewer pairs meeting again than these tables, if there is one (the
    fewest), its other costs then brought down by swaps; None when there is none or the work ran out."""
    if len(begun.seated) > exact.EXACT:
        return None
    matrix = [[int(count > 0) for count in row] for row in begun.costs.tonight]
    searching = Work(EXACT_WORK if bound is None else min(EXACT_WORK, max(0, bound - work.spent)))
    try:
        _count, found = fewer_again(matrix, groups, by_index(begun.seated, tonight), searching)
    except exact.Unfinished:
        return None
    finally:
        work.spend(searching.spent)
    if found is groups:
        return None
    return settle(found, begun.games, begun.costs, work), found


def greedy_draw(present: Sequence[int], game: str | Sequence[str], history: History, seed: int,
                tonight: Sequence[Round] = (), playing: Sequence[Table] = ()) -> Round:
    """The plain greedy proposal, the baseline of draw: the same sit-outs and first order, no search."""
    rng = random.Random(seed)
    begun = start(present, game, history, rng, tonight, playing)
    order = list(range(len(begun.seated)))
    rng.shuffle(order)
    return seat_round(begun, greedy(order, begun.sizes, begun.costs), rng)


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
