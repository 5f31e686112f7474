"""An evening's results: each round's tables and the result of their matches, the evening's winners per game and
each player's place in the season after it; the admin closes an evening, and a closed evening's matches stay put.

An evening is its rounds' matches and the club's other matches of its day. A match's result is its digest
(the club's result row): final totals per seat and the seats that won; a match not finished is still at the
table. Places are those of the season holding the evening's day, counting its matches up to that day.
Once closed, a match of the evening takes a write only with the club's admin key (``check``, which
create_app puts before every write to a match), and its places are those kept when it closed (places.py),
so the results do not move unless the admin changes one of its matches (the page then says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, NamedTuple

from flask import g, has_app_context
from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from .. import links
from ..db import db
from ..games import GAMES
from ..games.base import N_, Reason
from ..kept import Kept
from ..match import matches
from ..models import Club, ClubResult, Evening, EveningRound, EveningTable, Hand, HandChange, Match, Season, utcnow
from ..refusals import refuse
from . import agreements, evenings, figures, rounds, service
from .amendments import Amendment, amendments_among
from .places import Placed, kept as kept_places, kept_of, placed, places_of
from .results import club_of, readable, resolver

_closing: Kept[tuple[str, int], bool] = Kept(256)  # (club public id, club version) -> has it closed an evening


class Closed(agreements.Locked):
    """A write to a match of a closed evening without the club's admin key (HTTP 403, as a locked match)."""

    def __init__(self, evening: str):  # Locked's sentence names who agreed; this one names the evening
        self.reason = Reason(N_("The evening of this match ({evening}) is closed: only the club's admin can change "
                                "it."), {"evening": evening})
        Exception.__init__(self, str(self.reason))


class Line(NamedTuple):
    """One table of the evening: who sat (names in seat order), its final totals and winners, or how far it got."""

    table: int | None  # its number in the round; None for a match of the day started outside the rounds
    game: str
    match: Match | None
    names: list[str]
    hands: int
    finished: bool
    totals: list[int] | None  # per seat, None while still at the table
    winners: list[str]
    agreed: bool | None  # None: the club asks for no agreement, or the match is not finished
    amended: tuple[Amendment, ...] = ()  # what its organiser changed after its players agreed, oldest first


class RoundLines(NamedTuple):
    number: int | None  # None: the day's other matches
    tables: list[Line]
    sat_out: list[str]


class ChangedAfter(NamedTuple):
    """A match of a closed evening that the club's admin changed after it closed: its round (None: a match of the
    day), its line, and the last change."""

    round: int | None
    line: Line
    at: datetime


@dataclass(frozen=True)
class Results:
    """What an evening's page, its PDF and the API show."""

    evening: Evening
    rounds: list[RoundLines]
    winners: dict[str, list[str]]  # per game finished that evening (GAMES order): who won the most of its matches
    season: Season | None  # the season holding the day; None: all time
    places: dict[str, list[Placed]]  # per game finished that evening, its players by place after it
    agreement: bool  # whether the club asks its players to agree to a match
    min_matches: int = 1  # the finished matches a player needed to be placed
    changed_after: tuple[ChangedAfter, ...] = ()  # closed: the matches the admin changed since

    @property
    def closed(self) -> bool:
        return self.evening.closed_at is not None

    @property
    def lines(self) -> list[Line]:
        return [line for made in self.rounds for line in made.tables]

    @property
    def provisional(self) -> bool:
        """Whether a place shown is provisional (now or before the evening): the page then says what that means."""
        return any(row.provisional or row.before_provisional for rows in self.places.values() for row in rows)


# -- which evening --------------------------------------------------------------------------------------


def evening_at(club: Club, ref: Any) -> Evening:
    """The club's evening by its id, or by its day (year-month-day): a day of club matches without an evening
    row is an evening too (an Evening not stored, id None). matches.NotFound for anything else."""
    if isinstance(ref, str) and service.DAY.fullmatch(ref):
        try:
            day = service.as_day(ref, "evening")
        except ValueError:
            raise matches.NotFound() from None
        found = db.session.scalar(select(Evening).where(Evening.club_id == club.id, Evening.day == day))
        if found is not None:
            return found
        if db.session.scalar(select(ClubResult.match_id).where(ClubResult.club_id == club.id,
                                                               ClubResult.day == day).limit(1)) is None:
            raise matches.NotFound()
        return Evening(club_id=club.id, day=day, name="", place="", note="")
    return evenings.evening_of(club, ref)


def title_of(evening: Evening) -> str:
    """What an evening is called: its name, else its day."""
    return evening.name or evening.day.isoformat()


# -- the results ----------------------------------------------------------------------------------------


def day_matches(club: Club, evening: Evening) -> list[Match]:
    """The club's matches started on the evening's day, in the order they were started."""
    return list(db.session.scalars(select(Match).join(ClubResult, ClubResult.match_id == Match.id).where(
        ClubResult.club_id == club.id, ClubResult.day == evening.day).order_by(Match.id)))


def results(club: Club, evening: Evening) -> Results:
    """The evening's rounds and tables with each match's result, its winners per game, the players' places."""
    played = rounds.rounds_of(evening) if evening.id is not None else []
    in_rounds = {match.id for _made, tables in played for _table, match in tables if match is not None}
    others = [match for match in day_matches(club, evening) if match.id not in in_rounds]
    every = [match for _made, tables in played for _table, match in tables if match is not None] + others
    digests, hands = finished_digests(club, every), _hands(every)
    names, now = figures.names(club), resolver(club)
    open_ones = agreements.not_agreed_among(club, every) if club.agree_to_lock else set()
    amended = amendments_among([match.id for match in every if match.id in digests]) if club.agree_to_lock else {}

    def line(number: int | None, game: str, match: Match | None, seats: list[int]) -> Line:
        made = digests.get(match.id) if match is not None else None
        fallback = list(match.players) if match is not None else []
        seated = [names.get(seat, fallback[at] if at < len(fallback) else "?") for at, seat in enumerate(seats)]
        agreed = None if made is None or not club.agree_to_lock else match.id not in open_ones
        return Line(number, game, match, seated, hands.get(match.id, 0) if match is not None else 0,
                    made is not None, list(made["totals"]) if made else None,
                    [seated[seat] for seat in made["winners"] if seat < len(seated)] if made else [], agreed,
                    tuple(amended.get(match.id, ())) if agreed and match is not None else ())

    made_rounds = [RoundLines(made.number, [line(table.number, table.game, match, list(table.seat_ids))
                                            for table, match in tables],
                              [names.get(now.get(player, player), "?") for player in made.sat_out or []])
                   for made, tables in played]
    if others:
        made_rounds.append(RoundLines(None, [line(None, match.game, match, list(match.seat_ids or []))
                                             for match in others], []))
    finished = {match.id: digests[match.id] for match in every if match.id in digests}
    season, least, places = evening_places(club, evening, finished, names, now)
    return Results(evening, made_rounds, winners_of(finished, every, names, now), season, places,
                   bool(club.agree_to_lock), least, changed_after(evening, made_rounds))


def evening_places(club: Club, evening: Evening, finished: dict[int, Any], names: dict[int, str],
                   now: dict[int, int]) -> tuple[Season | None, int, dict[str, list[Placed]]]:
    """The season, the matches needed to be placed and the places: as kept when a closed evening closed (or when
    the admin last changed one of its matches), else as the season's matches stand now."""
    kept = kept_of(evening)
    if kept is not None:
        season = db.session.get(Season, kept["season"]) if kept["season"] is not None else None
        return season, kept["min_matches"], placed(kept, names)
    season = rounds.season_holding(club, evening.day)
    these = figures.finished(club, season)
    return season, club.min_matches, places_of(these.played, these.tallies, evening.day, finished, names, now,
                                               club.min_matches)


def changed_after(evening: Evening, made: list[RoundLines]) -> tuple[ChangedAfter, ...]:
    """The evening's matches changed since it closed (only the club's admin can), each with its last change."""
    lines = {line.match.id: (one.number, line) for one in made for line in one.tables if line.match is not None}
    if evening.closed_at is None or not lines:
        return ()
    last = dict(db.session.execute(select(HandChange.match_id, func.max(HandChange.at)).where(
        HandChange.match_id.in_(lines), HandChange.at > evening.closed_at).group_by(HandChange.match_id)).all())
    return tuple(ChangedAfter(number, line, _utc(last[match])) for match, (number, line) in lines.items()
                 if match in last)


def _utc(at: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return at.replace(tzinfo=timezone.utc) if at.tzinfo is None else at


def finished_digests(club: Club, played: list[Match]) -> dict[int, Any]:
    """Match row id -> its digest, for those of these matches that are finished."""
    ids = [match.id for match in played]
    rows = db.session.execute(select(ClubResult.match_id, ClubResult.digest).where(
        ClubResult.club_id == club.id, ClubResult.match_id.in_(ids), ClubResult.digest.is_not(None))) if ids else []
    made = {match: readable(match, kept) for match, kept in rows}
    return {match: digest for match, digest in made.items() if digest is not None}


def _hands(played: list[Match]) -> dict[int, int]:
    ids = [match.id for match in played]
    return dict(db.session.execute(select(Hand.match_id, func.count()).where(Hand.match_id.in_(ids))  # type: ignore[arg-type]
                                   .group_by(Hand.match_id)).all()) if ids else {}


def winners_of(finished: dict[int, Any], played: list[Match], names: dict[int, str], now: dict[int, int]
               ) -> dict[str, list[str]]:
    """Per game finished that evening, the players who won the most of its matches (all of them on a tie)."""
    out: dict[str, list[str]] = {}
    for slug in GAMES:
        counts: dict[int, int] = {}
        for match in played:
            made = finished.get(match.id)
            if made is None or match.game != slug:
                continue
            for seat in made["winners"]:
                player = now.get(made["seats"][seat], made["seats"][seat])
                counts[player] = counts.get(player, 0) + 1
        if counts:
            most = max(counts.values())
            out[slug] = [names.get(player, "?") for player, count in counts.items() if count == most]
        elif any(match.id in finished and match.game == slug for match in played):
            out[slug] = []
    return out


# -- closing ----------------------------------------------------------------------------------------------


def close_evening(club: Club, evening: Evening) -> Evening:
    """Close a played evening: its matches then take a change only from the club's admin. Stored if it was a day."""
    if evening.club_id != club.id:
        raise matches.NotFound()
    if evening.closed_at is not None:
        raise refuse("evening", N_("This evening is already closed."))
    if not evenings.played(club, evening):
        raise refuse("evening", N_("An evening can be closed once it has been played."))
    made = results(club, evening)  # its places as they stand now: kept from here on
    evening.final = kept_places(made.season.id if made.season is not None else None, made.min_matches, made.places)
    evening.closed_at = utcnow()
    _touch(playing_in(made))
    if evening.id is None:  # a day of matches: its evening is stored now, unless another phone just did
        db.session.add(evening)
        try:
            db.session.flush()
        except IntegrityError:
            db.session.rollback()
            raise matches.Conflict(N_("Someone else changed this club at the same moment; look again and retry.")) \
                from None
    service.bump(club)
    return evening


def reopen_evening(club: Club, evening: Evening) -> Evening:
    """Open a closed evening again: its matches take changes from their tables once more."""
    if evening.club_id != club.id:
        raise matches.NotFound()
    if evening.closed_at is None:
        raise refuse("evening", N_("This evening is not closed."))
    evening.closed_at, evening.final = None, None
    _touch(still_playing(club, evening))
    service.bump(club)
    return evening


def still_playing(club: Club, evening: Evening) -> list[tuple[int | None, Line]]:
    """The evening's matches still at the table, each with its round's number (None: a match of the day)."""
    return playing_in(results(club, evening))


def playing_in(made: Results) -> list[tuple[int | None, Line]]:
    """still_playing() of an evening's results already read."""
    return [(one.number, line) for one in made.rounds for line in one.tables
            if not line.finished and line.match is not None]


def _touch(playing: list[tuple[int | None, Line]]) -> None:
    """Raise the version of each match still at the table: its phones, following it, redraw and say why."""
    for _number, line in playing:
        if line.match is not None:
            line.match.updated_at = utcnow()
    try:
        db.session.flush()
    except StaleDataError:  # a table saved a hand at this very moment
        db.session.rollback()
        raise matches.Conflict(N_("Someone else changed this club at the same moment; look again and retry.")) \
            from None


def closed_at(evening: Evening) -> datetime | None:
    """When the evening was closed, in UTC (SQLite gives it back without its zone); None while open."""
    return _utc(evening.closed_at) if evening.closed_at is not None else None


def closed_evening_of(match: Match) -> Evening | None:
    """The closed evening a club match belongs to: a table of its rounds, or a match of its day; None for none."""
    if match.club_id is None:
        return None
    day = select(ClubResult.day).where(ClubResult.match_id == match.id).scalar_subquery()
    tabled = select(EveningRound.evening_id).join(EveningTable, EveningTable.round_id == EveningRound.id) \
        .where(EveningTable.match_id == match.id)
    return db.session.scalar(select(Evening).where(
        Evening.club_id == match.club_id, Evening.closed_at.is_not(None),
        or_(Evening.day == day, Evening.id.in_(tabled))).order_by(Evening.id).limit(1))


def has_closed_evening(club: Club) -> bool:
    """Whether the club has closed an evening, kept per club version (closing and reopening bump the club)."""
    return _closing.fetch((club.public_id, club.version), lambda: db.session.scalar(select(Evening.id).where(
        Evening.club_id == club.id, Evening.closed_at.is_not(None)).limit(1)) is not None)


def check(match: Match, action: str, authority: matches.Authority) -> None:  # noqa: ARG001
    """Refuse a write to a match of a closed evening without the club's admin key (Closed).

    A club that never closed an evening answers without a read: most writes, during an evening."""
    if match.club_id is None:
        return
    club = club_of(match)
    if club is None or not has_closed_evening(club):
        return
    evening = closed_evening_of(match)
    if has_app_context():  # what the write's listeners ask again (closed_evenings.retake)
        g.setdefault("closed_evenings", {})[match.id] = evening
    if evening is None:
        return
    if links.key_matches(club.admin_key_hash, authority.key):
        return
    raise Closed(title_of(evening))
