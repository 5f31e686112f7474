"""A club's figures: standings, ratings and partnerships per game, player statistics, head to head.

Computed by the pure engine (scorekeeper.club) from the digests of finished matches, and kept in
this process per club stamp (club_results.stamp: the club's version and its matches' versions), so
a page reads one small aggregate while nothing changed, and a correction anywhere is seen at once.
"""

from __future__ import annotations

import bisect
import functools
import gc
import itertools
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple, TypeVar, cast

from sqlalchemy import func, select

from .. import serving
from ..db import db
from ..games import GAMES
from ..kept import Kept
from ..models import Club, ClubPlayer, ClubResult, Match, Season
from .engine import ratings as club_ratings, standings as club_standings, stats as club_stats
from .engine.digest import ORDER, Digest, Played, frozen
from .engine.stats import Facing, Stats
from .results import in_season, readable, resolver, stamp

FIGURES_CACHED = 64
PLAYED_CACHED = 4  # a big club's digests weigh megabytes: keep only the few seasons being looked at
_cache: Kept[Hashable, Any] = Kept(FIGURES_CACHED)  # (club stamp, season, what) -> a figure (cached)
_played: Kept[Hashable, Any] = Kept(PLAYED_CACHED)  # (club stamp, season, "played") -> Finished
_digests: Kept[Hashable, Any] = Kept(PLAYED_CACHED)  # (club, zone, season) -> _Sums, the running sums
_rated: Kept[Hashable, Any] = Kept(FIGURES_CACHED)  # (club, game, mark of its all-time rows) -> ratings
_merges: Kept[tuple[str, int], dict[int, int]] = Kept(FIGURES_CACHED)  # (club, version) -> merged entries
_runs: Kept[tuple[str, str], Any] = Kept(FIGURES_CACHED)  # (club, game) -> the ratings of its last run of matches
_marks = itertools.count(1)  # every change to a game's rows in any kept sums takes the next number
BATCH = 500
SETTLE_AFTER = 2000  # rows read at once after which what the process keeps is taken out of the collector's walks
_updating = threading.Lock()
T = TypeVar("T")


@dataclass(frozen=True)
class GameView:
    """One game's table for a season: standings, ratings beside them, Kozyol's partnerships."""

    matches: int
    standings: list[club_standings.Standing]
    ratings: list[club_ratings.Rating]
    partnerships: list[club_standings.Partnership] = field(default_factory=list)
    # What the table shows changes only with these marks (the season's and all time's of this game), so a page
    # may keep the table drawn while they hold; None for a table that is not kept (a closed season's own).
    mark: tuple[int, int] | None = field(default=None, compare=False)
    # The same for every process of the server: the rows the table is made of (the season's, all time's),
    # so that workers agree on whether a page they keep shows the table as it is now.
    signature: tuple[int, int] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ClubView:
    """A club's season at a glance: per game played (in GAMES order), and every player's current name by id."""

    games: dict[str, GameView]
    names: dict[int, str]
    matches: int


def cached(club: Club, season: Season | None, what: tuple[object, ...], compute: Callable[[], T],
           kept: Kept[Hashable, Any] = _cache) -> T:
    """compute(), kept per club stamp, season and what: a write to the club or any of its matches misses."""
    return cast(T, kept.fetch((stamp(club), None if season is None else season.id, what), compute))


class Finished:
    """A season's finished matches at one club stamp, and the figures kept as running sums beside them.

    What is made from every row (the matches in order, per game) is made on first use: the club page after
    a result reads the standings of the running sums and the one game's matches its ratings need, not all.
    """

    def __init__(self, rows: tuple[Row, ...], games: dict[str, tuple[Played, ...]],
                 standings: dict[str, list[club_standings.Standing]], partnerships: list[club_standings.Partnership],
                 tallies: dict[str, club_standings.Tally], marks: dict[str, int], counts: dict[str, int],
                 signatures: dict[str, int]) -> None:
        self.rows = rows  # in in_order()'s order
        self.signatures = signatures  # per game played, its rows hashed together (the same in every process)
        self.games_played = games  # per game played, its matches in_order()
        self.counts = counts  # per game played, how many matches
        self.standings = standings  # ranked with the club's minimum at that stamp, per game played
        self.partnerships = partnerships
        self.tallies = tallies  # per game played, the running sums of `standings`: copy to change
        self.marks = marks  # per game played, a number that changes whenever one of its rows does

    @functools.cached_property
    def played(self) -> list[Played]:
        """Every finished match of the season, in_order()."""
        return [row.seated for row in self.rows]

    @property
    def games(self) -> list[str]:
        """The games played in the season, in GAMES order."""
        return list(self.marks)

    def of_game(self, game: str) -> list[Played]:
        """The season's matches of one game, in_order() (empty for a game not played)."""
        return list(self.games_played.get(game, ()))

    @property
    def by_game(self) -> dict[str, list[Played]]:
        """Per game played, its matches in_order(), in GAMES order."""
        return {slug: self.of_game(slug) for slug in self.games}


class Written(NamedTuple):
    """What tells a result row changed: its match's version, and the club's write number of its last write."""

    version: int
    changed: int


class Row(NamedTuple):
    """One match of a kept season: the day and public id first (in_order()'s key), its digest as stored
    (frozen), and the match seated by who its players are now."""

    day: date
    public_id: str
    written: Written
    stored: Digest
    seated: Played


def _order_key(row: Row) -> tuple[date, str]:
    """in_order()'s key of a kept row: its day, then its public id (unique, so rows never tie)."""
    return row.day, row.public_id


class _Sums:
    """What is kept of a season between writes: its rows (match row id -> Row), seated by `now` (merged
    entry -> who they are now), and the tallies of their digests."""

    def __init__(self, now: dict[int, int]) -> None:
        self.now = now
        self.rows: dict[int, Row] = {}
        self.tallies = {slug: club_standings.Tally(slug) for slug in GAMES}
        self.pairs = club_standings.PairTally()
        self.marks = {slug: next(_marks) for slug in GAMES}  # what figures of one game can be kept by
        self.counts = dict.fromkeys(GAMES, 0)  # matches per game
        self.signatures = dict.fromkeys(GAMES, 0)  # per game, its rows (id and how written) hashed together
        self.paired: tuple[int, list[club_standings.Partnership]] | None = None  # Kozyol's mark and its pairs
        self.seen = 0  # the highest write number read: the next read takes only the rows written from it on
        self.order: list[Row] = []  # the rows in in_order()'s order ((day, public id) first in a Row)
        self.games: dict[str, list[Played]] = {slug: [] for slug in GAMES}  # per game, its matches in_order()
        self.ranked: dict[str, tuple[int, int, list[club_standings.Standing], club_standings.Tally]] = {}

    def put(self, match: int, day: date, public_id: str, written: Written, made: Digest) -> None:
        made = frozen(made)  # kept for many requests: out of the garbage collector's way
        seats = tuple(self.now.get(seat, seat) for seat in made["seats"])
        one = Played(public_id, day, {**made, "seats": seats})
        row = Row(day, public_id, written, made, one)
        self.rows[match] = row
        bisect.insort(self.order, row, key=_order_key)
        bisect.insort(self.games[made["game"]], one, key=ORDER)
        self.signatures[made["game"]] ^= hash((match, written))  # ints only: the same in every process
        self.count(one, 1)

    def drop(self, match: int) -> None:
        row = self.rows.pop(match)
        del self.order[bisect.bisect_left(self.order, _order_key(row), key=_order_key)]
        game = self.games[row.seated.digest["game"]]
        del game[bisect.bisect_left(game, ORDER(row.seated), key=ORDER)]
        self.signatures[row.seated.digest["game"]] ^= hash((match, row.written))
        self.count(row.seated, -1)

    def count(self, one: Played, times: int) -> None:
        game = one.digest["game"]
        self.tallies[game].add(one.digest, times)
        self.pairs.add(one.digest, times)
        self.marks[game] = next(_marks)
        self.counts[game] += times

    def partnerships(self) -> list[club_standings.Partnership]:
        """Kozyol's partnerships, sorted again only after a Kozyol row changed."""
        mark = self.marks["kozyol"] if "kozyol" in self.marks else 0
        if self.paired is None or self.paired[0] != mark:
            self.paired = (mark, self.pairs.partnerships())
        return self.paired[1]

    def ranked_by(self, game: str, min_matches: int) -> tuple[list[club_standings.Standing], club_standings.Tally]:
        """The game's standings and a copy of its tally, made again only after one of its rows changed."""
        kept = self.ranked.get(game)
        if kept is None or kept[:2] != (self.marks[game], min_matches):
            tally = self.tallies[game]
            kept = (self.marks[game], min_matches, tally.standings(min_matches), tally.copy())
            self.ranked[game] = kept
        return kept[2], kept[3]

    def ordered(self) -> tuple[Row, ...]:
        """The rows in in_order()'s order."""
        return tuple(self.order)

    def seated_by(self, now: dict[int, int]) -> _Sums:
        """These sums if the players are seated as now, else new sums of the same rows seated again."""
        if now == self.now:
            return self
        again = _Sums(now)
        for match, row in self.rows.items():
            again.put(match, row.day, row.public_id, row.written, row.stored)
        again.seen = self.seen
        return again


def merged(club: Club) -> dict[int, int]:
    """Merged entry -> who they are now, kept per club version (a merge, or its undoing, raises it): a big
    roster is not read again after every result."""
    return _merges.fetch((club.public_id, club.version),
                         lambda: {player: now for player, now in resolver(club).items() if player != now})


class SeasonReading:
    """One read of a season's finished matches: the kept sums brought up to the club's stamp, and what they give.

    After a write only the rows written since the last read are looked at (one range read of the
    (club_id, changed) index: every write gives its row the club's next write number), then the digests
    of those that moved, and the running sums take the old digest away and add the new one
    (engine.standings.Tally): a new result in a big club costs its own row, not all of them. The first
    read of a season in a process reads all of it. After a merge every match is seated again and the
    sums start over.

    Rows are never deleted from a season once finished (a match is deleted only when a round that just
    started it is undone, before any hand). A club's writes take their numbers in the order they commit
    (results.keep: SQLite writes one at a time, PostgreSQL takes a lock per club), so a row numbered below
    the last one read was read; rows that share a number are read again from that number on.
    """

    def __init__(self, club: Club, season: Season | None) -> None:
        self.club, self.season = club, season
        # Public ids, as row ids are reused by other databases; the zone, as a new one moves the days; the
        # season's days, as the rows read after a write are only those written since.
        self.where = (club.public_id, club.time_zone,
                      None if season is None else (season.id, season.starts, season.ends))

    def __call__(self) -> Finished:
        """Bring the kept sums up to date and read the season from them."""
        with _updating:  # the sums change in place: one update at a time, and none half done if one fails
            before = _digests.pop(self.where)
            # Who each merged entry is now: a player added since changes no seating, a merge does.
            now = merged(self.club)
            sums = _Sums(now) if before is None else before.seated_by(now)
            read = self.catch_up(sums, self.written(sums.seen))
            result = self.finished(sums)
            _digests.put(self.where, sums)
        if read >= SETTLE_AFTER:
            settle()
        return result

    def written(self, since: int) -> dict[int, Written | None]:
        """Match row id -> how it was last written (None: not finished), for the season's rows written since
        that write number (every finished one when since is 0)."""
        results = ClubResult.__table__.c  # plain columns: ten thousand rows skip the ORM's row handling
        query = select(results.match_id, results.version, results.changed, results.digest.is_not(None)) \
            .where(results.club_id == self.club.id)
        query = query.where(results.changed >= since) if since else query.where(results.digest.is_not(None))
        rows = db.session.execute(in_season(query, self.season))
        return {match: Written(version, changed) if done else None for match, version, changed, done in rows}

    def catch_up(self, sums: _Sums, written: dict[int, Written | None]) -> int:
        """Drop the rows written since they were read, and read those rows and the new ones; how many were read."""
        for match, now in written.items():
            if match in sums.rows and sums.rows[match].written != now:
                sums.drop(match)
        changed = [match for match, now in written.items() if now is not None and match not in sums.rows]
        sums.seen = max([sums.seen, *(now.changed for now in written.values() if now is not None)])
        if not changed:
            return 0
        query = select(ClubResult.match_id, ClubResult.version, ClubResult.changed, Match.public_id, ClubResult.day,
                       ClubResult.digest).join(Match, Match.id == ClubResult.match_id) \
            .where(ClubResult.digest.is_not(None))
        if len(changed) > max(BATCH, len(sums.rows)):  # the first read, or most changed: all of the season at once
            batches = [in_season(query.where(ClubResult.club_id == self.club.id), self.season)]
        else:
            batches = [query.where(ClubResult.match_id.in_(changed[at:at + BATCH]))
                       for at in range(0, len(changed), BATCH)]
        for batch in batches:
            for count, (match, version, number, public_id, day, kept) in enumerate(db.session.execute(batch), 1):
                made = readable(match, kept) if match in written and match not in sums.rows else None
                if made is not None:
                    sums.put(match, day, public_id, Written(version, number), made)
                if count % BATCH == 0:
                    serving.breathe()  # a first read of a big season: the worker's other phones in between
        return len(changed)

    def finished(self, sums: _Sums) -> Finished:
        """The season's matches and standings as the sums hold them now."""
        played = [slug for slug, tally in sums.tallies.items() if tally.matches]
        ranked = {slug: sums.ranked_by(slug, self.club.min_matches) for slug in played}
        return Finished(sums.ordered(), {slug: tuple(sums.games[slug]) for slug in played},
                        {slug: ranked[slug][0] for slug in played}, sums.partnerships(),
                        {slug: ranked[slug][1] for slug in played}, {slug: sums.marks[slug] for slug in played},
                        {slug: sums.counts[slug] for slug in played}, {slug: sums.signatures[slug] for slug in played})


def settle() -> None:
    """Collect the garbage now, then leave everything the process holds out of the collector's later walks.

    A big club's season is millions of small objects (its digests), kept for many requests. Python's
    cyclic collector walks every tracked object on each of its full passes, which come every so many
    allocations: with a season of 10,000 matches kept, a page view that happened to set one off took
    100 to 150 ms more. Frozen objects are still freed by reference counting when a cache lets them go
    (the digests hold no cycles). What is frozen with them and later becomes garbage in a cycle (a request
    being served at that moment) is collected at the next settle, which first gives every frozen object
    back to the collector: nothing stays frozen past one big read.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def finished(club: Club, season: Season | None) -> Finished:
    """The season's finished matches and their standings, kept per club stamp for the figures computed from them."""
    return cached(club, season, ("played",), SeasonReading(club, season), _played)


def warm(most: int, seconds: float = 10.0) -> int:
    """Read the all-time figures of the clubs with the latest results (at most `most`, and no new one after
    `seconds`, well within the server's worker timeout): a worker that starts during a club's evening then
    answers its first club page from kept sums. How many clubs were read."""
    latest = select(ClubResult.club_id, func.max(ClubResult.day).label("day")).group_by(ClubResult.club_id) \
        .order_by(func.max(ClubResult.day).desc()).limit(most)
    began, read = time.monotonic(), 0
    for club_id, _day in db.session.execute(latest).all():
        club = db.session.get(Club, club_id)
        if club is not None and time.monotonic() - began < seconds:
            view(club, None)
            read += 1
    db.session.remove()
    return read


def names(club: Club) -> dict[int, str]:
    """Club player id -> name, for every player ever on the roster (a merged one under the name kept)."""
    now = resolver(club)
    rows = dict(db.session.execute(select(ClubPlayer.id, ClubPlayer.name).where(ClubPlayer.club_id == club.id))
                .all())
    return {player: rows.get(now[player], name) for player, name in rows.items()}


def view(club: Club, season: Season | None) -> ClubView:
    """Standings and partnerships per game for the season (None: all time), cached.

    Ratings beside them come from every finished match of the club: a rating is a player's strength
    now, from all their history, and does not start again with a season.
    """
    def compute() -> ClubView:
        games = {}
        these = finished(club, season)
        every = finished(club, None) if season is not None else these
        for slug in these.games:
            games[slug] = GameView(
                matches=these.counts[slug], standings=these.standings[slug],
                ratings=rated(club, slug, every, functools.partial(these.of_game, slug)),
                partnerships=these.partnerships if slug == "kozyol" else [],
                mark=(these.marks[slug], every.marks.get(slug, 0)),
                signature=(these.signatures[slug], every.signatures.get(slug, 0)))
        return ClubView(games, names(club), sum(game.matches for game in games.values()))
    return cached(club, season, ("view",), compute)


def rated(club: Club, game: str, every: Finished, matches: Callable[[], list[Played]]) -> list[club_ratings.Rating]:
    """The game's ratings from all the club's matches, kept while none of that game's rows changed.

    A result in one game leaves the other games' ratings as they were: only its own are computed again,
    from the state kept just before the first match that changed (club_ratings.Rated): tonight's result
    rates tonight's matches again, not the year before them.
    Without the game in every (a write between the two reads), from the season's matches, not kept."""
    if game not in every.marks:
        return club_ratings.ratings(game, matches())

    def rate() -> Any:
        before = _runs.get((club.public_id, game))
        run = before.then(game, every.of_game(game)) if before is not None else \
            club_ratings.Rated.of(game, every.of_game(game))
        _runs.put((club.public_id, game), run)
        return run.table()

    return _rated.fetch((club.public_id, game, every.marks[game]), rate)


def player_view(club: Club, player_id: int, season: Season | None) -> dict[str, Stats]:
    """The player's statistics per game they played in the season (None: all time), cached."""
    def compute() -> dict[str, Stats]:
        return {slug: club_stats.player_stats(slug, these, player_id)
                for slug, these in finished(club, season).by_game.items()
                if any(player_id in one.digest["seats"] for one in these)}
    return cached(club, season, ("player", player_id), compute)


def head_to_head(club: Club, a: int, b: int, season: Season | None = None) -> dict[str, Facing]:
    """How two players fared when both sat at a match, per game, in the season (None: all time), cached."""
    return cached(club, season, ("h2h", a, b), lambda: club_stats.head_to_head(finished(club, season).played, a, b))
