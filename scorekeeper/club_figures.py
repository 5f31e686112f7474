"""A club's figures: standings, ratings and partnerships per game, player statistics, head to head.

Computed by the pure engine (scorekeeper.club) from the digests of finished matches, and kept in
this process per club stamp (club_results.stamp: the club's version and its matches' versions), so
a page reads one small aggregate while nothing changed, and a correction anywhere is seen at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cachetools import LRUCache
from sqlalchemy import select

from .club import ratings as club_ratings, standings as club_standings, stats as club_stats
from .club.digest import Played, in_order
from .club_results import in_season, resolver, stamp
from .db import db
from .games import GAMES
from .models import Club, ClubPlayer, ClubResult, Match, Season

FIGURES_CACHED = 64
PLAYED_CACHED = 4  # a big club's digests weigh megabytes: keep only the few seasons being looked at
_cache: LRUCache = LRUCache(maxsize=FIGURES_CACHED)
_played: LRUCache = LRUCache(maxsize=PLAYED_CACHED)
_digests: LRUCache = LRUCache(maxsize=PLAYED_CACHED)  # (club, season) -> {match row id: (version, id, day, digest)}
BATCH = 500
_lock = threading.Lock()
T = TypeVar("T")


@dataclass(frozen=True)
class GameView:
    """One game's table for a season: standings, ratings beside them, Kozyol's partnerships."""

    matches: int
    standings: list[Any]
    ratings: list[Any]
    partnerships: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class ClubView:
    """A club's season at a glance: per game played (in GAMES order), and every player's current name by id."""

    games: dict[str, GameView]
    names: dict[int, str]
    matches: int


def cached(club: Club, season: Season | None, what: tuple[Any, ...], compute: Callable[[], T],
           kept: LRUCache = _cache) -> T:
    """compute(), kept per club stamp, season and what: a write to the club or any of its matches misses."""
    key = (stamp(club), None if season is None else season.id, what)
    with _lock:
        if key in kept:
            return kept[key]
    value = compute()
    with _lock:
        kept[key] = value
    return value


def finished(club: Club, season: Season | None) -> list[Played]:
    """club_results.played() of the whole season, kept per club stamp for the figures computed from it.

    After a write only the digests whose match version moved are read again (one indexed read of
    ids and versions, then those rows): a new result in a big club costs its own row, not all of them.
    """
    def compute() -> list[Played]:
        where = (club.public_id, None if season is None else season.id)  # ids are reused by other databases
        with _lock:
            kept = dict(_digests.get(where, {}))
        versions = dict(db.session.execute(in_season(
            select(ClubResult.match_id, ClubResult.version)
            .where(ClubResult.club_id == club.id, ClubResult.digest.is_not(None)), season)).all())
        fresh = {match: kept[match] for match, version in versions.items() if match in kept
                 and kept[match][0] == version}
        changed = [match for match in versions if match not in fresh]
        query = select(ClubResult.match_id, ClubResult.version, Match.public_id, ClubResult.day, ClubResult.digest) \
            .join(Match, Match.id == ClubResult.match_id).where(ClubResult.digest.is_not(None))
        if len(changed) > len(versions) // 2:  # the first read, or most changed: all of the season at once
            batches = [in_season(query.where(ClubResult.club_id == club.id), season)]
        else:
            batches = [query.where(ClubResult.match_id.in_(changed[at:at + BATCH]))
                       for at in range(0, len(changed), BATCH)]
        for batch in batches:
            for match, version, public_id, day, made in db.session.execute(batch):
                if match in versions:
                    fresh[match] = (version, public_id, day, made)
        with _lock:
            _digests[where] = fresh
        now = resolver(club)
        return in_order(Played(public_id, day, {**made, "seats": [now.get(seat, seat) for seat in made["seats"]]})
                        for _version, public_id, day, made in fresh.values())
    return cached(club, season, ("played",), compute, _played)


def names(club: Club) -> dict[int, str]:
    """Club player id -> name, for every player ever on the roster (a merged one under the name kept)."""
    now = resolver(club)
    rows = dict(db.session.execute(select(ClubPlayer.id, ClubPlayer.name).where(ClubPlayer.club_id == club.id))
                .all())
    return {player: rows.get(now[player], name) for player, name in rows.items()}


def by_game(all_played: list[Played]) -> dict[str, list[Played]]:
    """Played matches per game, in GAMES order, games never played left out."""
    out: dict[str, list[Played]] = {slug: [] for slug in GAMES}
    for one in all_played:
        out.setdefault(one.digest["game"], []).append(one)
    return {slug: games for slug, games in out.items() if games}


def view(club: Club, season: Season | None) -> ClubView:
    """Standings and partnerships per game for the season (None: all time), cached.

    Ratings beside them come from every finished match of the club: a rating is a player's strength
    now, from all their history, and does not start again with a season.
    """
    def compute() -> ClubView:
        games = {}
        every = by_game(finished(club, None)) if season is not None else None
        for slug, these in by_game(finished(club, season)).items():
            games[slug] = GameView(
                matches=len(these),
                standings=club_standings.standings(slug, these, club.min_matches),
                ratings=club_ratings.ratings(slug, these if every is None else every[slug]),
                partnerships=club_standings.partnerships(these) if slug == "kozyol" else [])
        return ClubView(games, names(club), sum(game.matches for game in games.values()))
    return cached(club, season, ("view",), compute)


def player_view(club: Club, player_id: int, season: Season | None) -> dict[str, dict[str, Any]]:
    """The player's statistics per game they played in the season (None: all time), cached."""
    def compute() -> dict[str, dict[str, Any]]:
        return {slug: club_stats.player_stats(slug, these, player_id)
                for slug, these in by_game(finished(club, season)).items()
                if any(player_id in one.digest["seats"] for one in these)}
    return cached(club, season, ("player", player_id), compute)


def head_to_head(club: Club, a: int, b: int, season: Season | None = None) -> dict[str, dict[str, int]]:
    """How two players fared when both sat at a match, per game, in the season (None: all time), cached."""
    return cached(club, season, ("h2h", a, b), lambda: club_stats.head_to_head(finished(club, season), a, b))
