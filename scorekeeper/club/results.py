"""What a club keeps of each of its matches: one row per match, written in the same transaction as every write.

The row holds the digest of the finished match (None while it is played) and the match's version,
so that standings, statistics and ratings read digests instead of replaying hands, and a cached
figure knows when any match of its club changed: every write takes the club's next write number.
"""

from __future__ import annotations

import functools
from datetime import date, datetime, timezone, tzinfo
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import g, has_app_context
from sqlalchemy import bindparam, func, select, text, update
from sqlalchemy.dialects import postgresql, sqlite

from ..db import db
from ..games.base import Replay
from ..match import matches
from ..models import Club, ClubPlayer, ClubResult, Evening, EveningRound, EveningTable, Match, Season
from .engine.digest import Digest, Played, current, digest, stored

UPSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}


def day_of(moment: datetime, zone: str | None = None) -> date:
    """The day of a stored time in a time zone, UTC without one (SQLite hands it back without its zone,
    meaning UTC; PostgreSQL with it).

    >>> day_of(datetime(2026, 12, 5, 23, 30)), day_of(datetime(2026, 12, 5, 23, 30, tzinfo=timezone.utc))
    (datetime.date(2026, 12, 5), datetime.date(2026, 12, 5))
    >>> day_of(datetime(2026, 12, 6, 1, 30), "America/Montreal"), day_of(datetime(2026, 12, 5, 22, 30), "Europe/Moscow")
    (datetime.date(2026, 12, 5), datetime.date(2026, 12, 6))
    """
    moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(zone_info(zone)).date()


def zone_info(zone: str | None) -> tzinfo:
    """The time zone of this name; UTC for none, or for a name this host cannot load (never an error).

    >>> zone_info(None), zone_info("Nowhere/At_All"), zone_info("Europe/Paris")
    (datetime.timezone.utc, datetime.timezone.utc, zoneinfo.ZoneInfo(key='Europe/Paris'))
    """
    try:
        return ZoneInfo(zone) if zone else timezone.utc
    except (ZoneInfoNotFoundError, ValueError):
        return timezone.utc


def zone_of(club_id: int | None, lock: bool = False) -> str | None:
    """The time zone of a club (None: UTC, or no club).

    lock: hold the club row shared until the commit (PostgreSQL), so that a zone change waits for a
    match being made, or the match for the change: a new match never keeps the day of a zone just left.
    """
    if club_id is None:
        return None
    query = select(Club.time_zone).where(Club.id == club_id)
    return db.session.scalar(query.with_for_update(read=True) if lock else query)


def keep(match: Match, played: Replay, first: bool = False) -> None:
    """Write the club match's row (digest when finished, else None) with its version: one indexed upsert.

    The row also takes the club's next write number (``changed``: one more than the club's highest,
    read through the (club_id, changed) index in the same statement), so the club's stamp is one
    index lookup. Call after the match's write is flushed (its version raised), before the commit.
    A casual match writes nothing. The first write (the match's creation, first=True) also sets the row's
    day, the start's day in the club's time zone; later writes leave it as it is.
    """
    if match.club_id is None:
        return
    day = day_of(match.created_at, zone_of(match.club_id, lock=True) if first else None)
    made = stored(digest(match.game, list(match.seat_ids or []), played))
    dialect = db.session.get_bind().dialect.name
    if dialect == "postgresql":
        # The club's writes take their numbers in the order they commit: a reader that has seen number n
        # has seen every row below it (club/figures.py reads only the rows numbered from there on).
        # Without this, a write that took n and committed after another's n + 1 would never be read.
        # SQLite writes one at a time anyway.
        db.session.execute(NUMBERING, {"key": NUMBERING_SPACE + match.club_id})
    db.session.execute(upsert(dialect), {
        "match": match.id, "club": match.club_id, "game": match.game, "day": day, "version": match.version,
        "digest": made})


# keep()'s turn per club on PostgreSQL: a lock held to the transaction's end, keyed apart from others' keys.
NUMBERING = text("SELECT pg_advisory_xact_lock(:key)")
NUMBERING_SPACE = 0x5C0_0000_0000  # club ids stay far below it


@functools.cache
def upsert(dialect: str) -> Any:
    """keep()'s statement for a dialect, made once: its values are bound per write."""
    table = ClubResult.__table__
    latest = select(func.coalesce(func.max(table.c.changed), 0) + 1) \
        .where(table.c.club_id == bindparam("club")).scalar_subquery()
    made = UPSERTS[dialect](table).values(
        match_id=bindparam("match"), club_id=bindparam("club"), game=bindparam("game"), day=bindparam("day"),
        version=bindparam("version"), changed=latest, digest=bindparam("digest", type_=table.c.digest.type))
    return made.on_conflict_do_update(index_elements=["match_id"], set_={
        "version": made.excluded.version, "digest": made.excluded.digest, "changed": made.excluded.changed})


class Stamp(NamedTuple):
    """Everything a club's figures depend on: its own version, and the last write to one of its matches."""

    club: str  # its public id: unique across databases, where row ids are not (tests, restored copies)
    version: int
    changed: int
    at_changed: int


def last_write(club_id: Any) -> tuple[Any, Any]:
    """The club's highest write number and how many of its rows hold it, as two scalar subqueries."""
    highest = select(func.max(ClubResult.changed)).where(ClubResult.club_id == club_id) \
        .correlate_except(ClubResult).scalar_subquery()  # its own club_results, never the count's
    return (func.coalesce(highest, 0),
            select(func.count()).where(ClubResult.club_id == club_id, ClubResult.changed == highest).scalar_subquery())


def stamp(club: Club) -> Stamp:
    """The club's stamp now: any write to the club or one of its matches changes it.

    Two index lookups whatever the club's size: its highest write number, and how many rows hold it.
    A club's writes take their numbers one after another (keep); were two ever to hold the same number,
    the second would still change the count of rows that hold it.
    """
    changed, count = db.session.execute(select(*last_write(club.id))).one()
    return Stamp(club.public_id, club.version, int(changed), int(count))


def resolver(club: Club) -> dict[int, int]:
    """Club player id -> the id of who that player is now (a merged player stands for the one kept)."""
    merged = dict(db.session.execute(select(ClubPlayer.id, ClubPlayer.merged_into).where(ClubPlayer.club_id == club.id)
                                     ).all())
    out = {}
    for player in merged:
        now, seen = player, {player}
        while merged.get(now) is not None and merged[now] not in seen:
            now = merged[now]
            seen.add(now)
        out[player] = now
    return out


def in_season(query: Any, season: Season | None) -> Any:
    """The query limited to the season's days (all time without one)."""
    if season is None:
        return query
    return query.where(ClubResult.day >= season.starts, ClubResult.day <= season.ends)


def played(club: Club, season: Season | None, game: str | None = None) -> list[Played]:
    """The club's finished matches of the season (and game), merged players counted as the one kept."""
    query = in_season(select(Match.public_id, ClubResult.day, ClubResult.digest)
                      .join(Match, Match.id == ClubResult.match_id)
                      .where(ClubResult.club_id == club.id, ClubResult.digest.is_not(None)), season)
    if game is not None:
        query = query.where(ClubResult.game == game)
    query = query.add_columns(ClubResult.match_id)
    now = resolver(club)
    out = []
    for public_id, day, kept, match_id in db.session.execute(query):
        made = readable(match_id, kept)
        if made is not None:
            out.append(Played(public_id, day, {**made, "seats": [now.get(seat, seat) for seat in made["seats"]]}))
    return out


def readable(match_id: int, made: Digest) -> Digest | None:
    """The stored digest when it has the shape read now, else the match's digest made again from its hands;
    None when there is neither (the match is gone, or its stored hands break a rule now): it counts for nothing."""
    if current(made):
        return made
    match = db.session.get(Match, match_id)
    if match is None:
        return None
    try:
        return digest(match.game, list(match.seat_ids or []), matches.stored_replay(match))
    except matches.Damaged:
        return None


class Rebuilt(NamedTuple):
    """What rebuild_digests did: digests that changed, rows read, and the matches whose hands break a rule now."""

    changed: int
    read: int
    damaged: list[str]  # public ids; their rows are left as they are


def rebuild_digests(batch: int = 500) -> Rebuilt:
    """Make every stored digest again from its match's hands, writing those that differ.

    A changed row is written as a write to its match would write it (keep): its club's figures see it.
    """
    done = Rebuilt(0, 0, [])
    last = 0
    while True:
        rows = db.session.execute(select(Match, ClubResult).join(ClubResult, ClubResult.match_id == Match.id)
                                  .where(Match.id > last).order_by(Match.id).limit(batch)).all()
        if not rows:
            return done
        changed = 0
        for match, result in rows:
            try:
                replay = matches.stored_replay(match)
            except matches.Damaged:
                done.damaged.append(match.public_id)
                continue
            if result.digest != stored(digest(match.game, list(match.seat_ids or []), replay)):
                keep(match, replay)
                changed += 1
        done = Rebuilt(done.changed + changed, done.read + len(rows), done.damaged)
        last = rows[-1][0].id
        db.session.commit()
        db.session.expunge_all()


def finished_results(club: Club, season: Season | None) -> list[tuple[Match, ClubResult]]:
    """The season's finished club matches with their result rows, in the order they were played."""
    query = in_season(select(Match, ClubResult).join(ClubResult, ClubResult.match_id == Match.id)
                      .where(ClubResult.club_id == club.id, ClubResult.digest.is_not(None)), season)
    return [(match, result) for match, result in db.session.execute(query.order_by(ClubResult.day, Match.id))]


def pin_to_evenings(club_id: int, match_ids: list[int] | None = None) -> None:
    """Give the club's matches drawn at a round of a planned evening (these, or all of them) that evening's day.

    A round belongs to the evening it was drawn for, whatever the clock says when its tables start:
    round 2 confirmed at 00:20 is still Thursday's, and cards printed the day before are the evening's.
    Not committed: the caller writes the rounds, or moves the club's days, in the same transaction.
    """
    drawn_for = select(Evening.day).join(EveningRound, EveningRound.evening_id == Evening.id) \
        .join(EveningTable, EveningTable.round_id == EveningRound.id) \
        .where(EveningTable.match_id == ClubResult.match_id).limit(1).scalar_subquery()
    tabled = select(EveningTable.match_id).where(EveningTable.match_id.is_not(None))
    pinned = update(ClubResult).where(ClubResult.club_id == club_id, ClubResult.match_id.in_(tabled))
    if match_ids is not None:
        pinned = pinned.where(ClubResult.match_id.in_(match_ids))
    db.session.execute(pinned.values(day=drawn_for).execution_options(synchronize_session=False))


def evening_names(club: Club) -> dict[date, str]:
    """The names the club gave its evenings, by day."""
    return dict(db.session.execute(select(Evening.day, Evening.name).where(Evening.club_id == club.id)).all())


def club_of(match: Match) -> Club | None:
    """The club a match was started from, or None for a casual match.

    The club is held for the rest of the request: the session keeps its objects only while something
    refers to them, so the checks of one write (agreements, closed evenings) would each read it again."""
    club_id = getattr(match, "club_id", None)
    if club_id is None:
        return None
    club = db.session.get(Club, club_id)
    if has_app_context():
        g.setdefault("clubs_held", {})[club_id] = club
    return club
