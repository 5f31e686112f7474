"""Glue between stored clubs and their matches: make, find, the roster, house rules, seasons, club matches.

A club is reached like a match: an unguessable public id (the club link, for members) and an
admin key (hashed at rest, rotatable) for roster, rules and seasons. Figures (standings,
statistics, ratings) are read through club_figures, re-exported here.
"""

from __future__ import annotations

import importlib.resources
import re
import time
from datetime import date, datetime, timezone
from typing import Any, NamedTuple

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from .. import links
from ..db import db
from ..games import GAMES
from ..games.base import N_, same_name, typeable
from ..match import matches, receipts
from ..models import Agreement, Attendance, Club, ClubPlayer, ClubResult, Evening, Match, Season
from ..names import parse_players
from ..refusals import Refusal, refuse
from . import results as club_results
from .figures import ClubView, GameView, head_to_head, player_view, view
from .results import in_season, played
from .roster import (
    add_player,
    matches_played,
    merge_players,
    merged,
    remove_player,
    rename_player,
    roster,
    row_id,
    unmerge,
)

__all__ = ["ClubView", "GameView", "add_player", "add_season", "change_season", "create", "evenings", "find",
           "head_to_head", "key_matches", "matches_played", "merge_players", "merged", "must_find", "name_evening", "played",
           "player_view", "remove_player", "rename_player", "rotate_key", "roster", "season_of", "seasons", "set_rules",
           "start_match", "today", "unmerge", "view", "winners_among"]

CLUB_NAME_MAX = 60
MIN_MATCHES = (1, 1000)  # the fewest matches to be ranked a club may ask for, and the most
SEAT_OPTIONS = frozenset({"first_declarer", "first_dealer"})  # name a seat: chosen per match, never a house rule
ATTEMPTS = 5
Option = bool | int | str | list[int]  # one game option's value, as the games' option TypedDicts hold them


def title(raw: Any, field: str, limit: int = CLUB_NAME_MAX) -> str:
    """A club, season or evening name: trimmed, 1 to limit characters, nothing invisible."""
    if not isinstance(raw, str) or not raw.strip():
        raise refuse(field, N_("Give it a name."))
    name = raw.strip()
    if len(name) > limit:
        raise refuse(field, N_("A name can have at most {limit} characters."), limit=limit)
    if not all(typeable(char) for char in name):
        raise refuse(field, N_("Names cannot contain control characters."))
    return name


def house_rules_of(raw: Any) -> dict[str, dict[str, Option]]:
    """Check house rules ({game: options}) with each game's own check, defaults filled in; seats are never house rules."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise refuse("house_rules", N_("Give the house rules as an object, one entry per game."))
    rules: dict[str, dict[str, Option]] = {}
    for slug, options in raw.items():
        game = GAMES.get(slug) if isinstance(slug, str) else None
        if game is None:
            raise refuse("house_rules", N_("Choose one of the games: {games}."), games=", ".join(GAMES))
        if not isinstance(options, dict):
            raise refuse(f"house_rules.{slug}", N_("Options must be an object."))
        if SEAT_OPTIONS & set(options):
            raise refuse(f"house_rules.{slug}", N_("House rules cannot name a seat; choose it when a match starts."))
        seats = [str(seat) for seat in range(1, game.min_players + 1)]
        try:
            parsed = game.parse_options(seats, options, None)
        except Refusal as err:
            raise Refusal([(f"house_rules.{slug}.{name}", reason) for name, reason in err.errors]) from err
        rules[slug] = {name: value for name, value in parsed.items() if name not in SEAT_OPTIONS}
    return rules


def create(name: Any, house_rules: Any = None) -> tuple[Club, str]:
    """Validate and store a new club; return it with its admin key (kept only as a hash)."""
    club_name, rules = title(name, "name"), house_rules_of(house_rules)
    key = links.new_key()
    club = Club(public_id=links.new_public_id(), name=club_name, admin_key_hash=links.hash_key(key),
                house_rules=rules, min_matches=3, version=1)
    db.session.add(club)
    db.session.commit()
    return club, key


def find(public_id: Any) -> Club | None:
    """The club with this public id, or None (ids are URL-safe tokens; anything else is unknown)."""
    if not links.is_public_id(public_id):
        return None
    return db.session.scalar(select(Club).where(Club.public_id == public_id))


class Peek(NamedTuple):
    """What a kept club page needs of its club, read in one round trip without loading the club."""

    stamp: club_results.Stamp
    admin_key_hash: str
    time_zone: str | None  # the day a page is dated by is the club's

    @property
    def public_id(self) -> str:  # with admin_key_hash, what club_phone.is_admin reads of a club
        return self.stamp.club


_CLUBS = Club.__table__.c
_PEEK = select(_CLUBS.version, _CLUBS.admin_key_hash, _CLUBS.time_zone, *club_results.last_write(_CLUBS.id)).where(
    _CLUBS.public_id == bindparam("public_id"))  # built once: only the id changes


def peek(public_id: str) -> Peek | None:
    """The club's stamp and admin key hash (None for no such club): one statement, the same stamp as stamp()."""
    if not links.is_public_id(public_id):  # ids are URL-safe tokens; anything else is unknown
        return None
    row = db.session.execute(_PEEK, {"public_id": public_id}).first()
    if row is None:
        return None
    version, admin_key_hash, zone, changed, count = row
    return Peek(club_results.Stamp(public_id, int(version), int(changed), int(count)), admin_key_hash, zone)


def must_find(public_id: Any) -> Club:
    """The club with this public id, or matches.NotFound."""
    club = find(public_id)
    if club is None:
        raise matches.NotFound()
    return club


def key_matches(club: Club, key: str | None) -> bool:
    """Compare an admin key with the club's stored hash in constant time."""
    return links.key_matches(club.admin_key_hash, key)


def rotate_key(public_id: str) -> str:
    """Give the club a new admin key; every older admin link stops working."""
    club = must_find(public_id)
    key = links.new_key()
    club.admin_key_hash = links.hash_key(key)
    db.session.commit()
    return key


_CLUB_OF_MATCH = select(Club.version).join(Match, Match.club_id == Club.id).where(
    Match.public_id == bindparam("public_id"))


def version_of_club_of(public_id: str) -> int | None:
    """The version of the club a match belongs to, None for a casual match: one indexed read.

    A club match's page and state show what its club decides (how many agreements lock it, whether its
    evening is closed, the club's name and house rules), all of which raise the club's version (bump): a
    page or an answer kept for the match is kept by this too, or a watcher reads the club as it was.
    """
    return db.session.scalar(_CLUB_OF_MATCH, {"public_id": public_id})


def bump(club: Club) -> None:
    """Raise the club's version (in the database, so two admins never lose a bump): cached figures go stale."""
    db.session.execute(update(Club).where(Club.id == club.id).values(version=Club.version + 1))
    db.session.commit()
    db.session.refresh(club)


KEEP: Any = object()  # set_rules, change_season: leave this part as it is


def set_rules(club: Club, min_matches: Any, house_rules: Any, time_zone: Any = KEEP) -> None:
    """Set the fewest matches to be ranked, the house rules (each game's options, checked by the game)
    and, when given, the time zone; all checked before anything changes, saved in one commit."""
    low, high = MIN_MATCHES
    if isinstance(min_matches, bool) or not isinstance(min_matches, int) or not low <= min_matches <= high:
        raise refuse("min_matches", N_("Enter a number from {low} to {high}."), low=low, high=high)
    rules = house_rules_of(house_rules)
    zone = club.time_zone if time_zone is KEEP else zone_name(time_zone)
    club.house_rules, club.min_matches = rules, min_matches
    _move_to(club, zone)
    bump(club)


def _zone_names() -> frozenset[str]:
    """The IANA zones a club may pick: regions and cities ("Europe/Paris"), from the tzdata package, so the
    same on every host; not the host's own aliases ("localtime", "Factory") nor the old short names ("EST")."""
    listed = importlib.resources.files("tzdata").joinpath("zones").read_text(encoding="utf-8").split()
    return frozenset(name for name in listed if "/" in name)


TIME_ZONES = _zone_names()


def zone_name(raw: Any, field: str = "time_zone") -> str | None:
    """An IANA time zone name ("Europe/Paris"); None for UTC (empty, null or "UTC")."""
    if raw is None or raw in ("", "UTC"):
        return None
    if isinstance(raw, str) and raw in TIME_ZONES:
        return raw
    raise refuse(field, N_("Choose a time zone by its name, such as Europe/Paris or America/Montreal."))


def set_time_zone(club: Club, raw: Any) -> None:
    """Set where the club plays: every match of the club moves to the evening of its start's day there."""
    zone = zone_name(raw)
    if zone != club.time_zone:
        _move_to(club, zone)
        bump(club)


def _move_to(club: Club, zone: str | None) -> None:
    """Give every match of the club its day in this zone, and a named evening to the day its matches
    moved to (when they all moved to one day that had no name). Not committed: the caller bumps the club."""
    if zone == club.time_zone:
        return
    club.time_zone = zone
    rows = db.session.execute(select(ClubResult.match_id, ClubResult.day, Match.created_at)
                              .join(Match, Match.id == ClubResult.match_id)
                              .where(ClubResult.club_id == club.id)).all()
    days = {match: club_results.day_of(at, zone) for match, _day, at in rows}
    moved: dict[date, set[date]] = {}
    for match, day, _at in rows:
        moved.setdefault(day, set()).add(days[match])
    if days:  # by primary key, in one statement per batch of rows
        db.session.execute(update(ClubResult), [{"match_id": match, "day": day} for match, day in days.items()])
        club_results.pin_to_evenings(club.id)  # a round's matches stay on the evening they were drawn for
    named = list(db.session.scalars(select(Evening).where(Evening.club_id == club.id)))
    taken = {evening.day for evening in named}  # a day named before stays its own name's, so no two collide
    for evening in named:
        to = moved.get(evening.day, set())
        if len(to) == 1 and (day := next(iter(to))) not in taken:
            taken.add(day)
            evening.day = day


DAY = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")  # what date.fromisoformat takes besides: 2026-W01-1, 20260101


def as_day(raw: Any, field: str) -> date:
    """A day given as a date or as YYYY-MM-DD text, exactly: never a week day, an ordinal day or other digits."""
    if isinstance(raw, date):
        return raw
    if isinstance(raw, str) and DAY.fullmatch(raw):
        try:
            return date.fromisoformat(raw)
        except ValueError:  # 2026-02-30
            pass
    raise refuse(field, N_("Give a day as year-month-day, such as 2026-12-05."))


def add_season(club: Club, name: Any, starts: Any, ends: Any) -> Season:
    """Add a season: a named range of days, both included."""
    season = Season(club_id=club.id, name=title(name, "name"), starts=as_day(starts, "starts"), ends=as_day(ends, "ends"))
    if season.ends < season.starts:
        raise refuse("ends", N_("A season ends on or after the day it starts."))
    db.session.add(season)
    bump(club)
    return season


def change_season(club: Club, season: Season, name: Any = KEEP, starts: Any = KEEP, ends: Any = KEEP) -> Season:
    """Rename a season or change its days (each part given; the others kept), all checked before anything changes.

    A closed season keeps its days: its tables were kept for them (reopen it first)."""
    called = season.name if name is KEEP else title(name, "name")
    first = season.starts if starts is KEEP else as_day(starts, "starts")
    last = season.ends if ends is KEEP else as_day(ends, "ends")
    if season.closed_at is not None and (first, last) != (season.starts, season.ends):
        raise refuse("starts" if first != season.starts else "ends",
                     N_("This season is closed: reopen it to change its days."))
    if last < first:
        raise refuse("ends", N_("A season ends on or after the day it starts."))
    season.name, season.starts, season.ends = called, first, last
    bump(club)
    return season


def seasons(club: Club) -> list[Season]:
    """The club's seasons, the latest first."""
    return list(db.session.scalars(select(Season).where(Season.club_id == club.id)
                                   .order_by(Season.starts.desc(), Season.id.desc())))


def season_of(club: Club, season_id: Any) -> Season | None:
    """The club's season with this id (given as a number or its text), None for all time; NotFound otherwise."""
    if season_id in (None, "", "all"):
        return None
    known = row_id(season_id)
    season = db.session.get(Season, known) if known is not None else None
    if season is None or season.club_id != club.id:
        raise matches.NotFound()
    return season


def name_evening(club: Club, day: Any, name: Any) -> None:
    """Name the evening of a day ("Friday 5 Dec"); an empty name takes the name away."""
    when = as_day(day, "day")
    evening = db.session.scalar(select(Evening).where(Evening.club_id == club.id, Evening.day == when))
    if name in (None, "") or (isinstance(name, str) and not name.strip()):
        if evening is not None and not planned_ahead(evening):
            db.session.delete(evening)
        elif evening is not None:  # a planned evening keeps its plan and its answers, unnamed
            evening.name = ""
    elif evening is None:
        db.session.add(Evening(club_id=club.id, day=when, name=title(name, "name")))
    else:
        evening.name = title(name, "name")
    bump(club)


def planned_ahead(evening: Evening) -> bool:
    """Whether an evening row holds a plan (unnamed, or a start, a place, a note, answers) beside its name."""
    return bool(not evening.name or evening.starts_at is not None or evening.place or evening.note or db.session.scalar(
        select(Attendance.id).where(Attendance.evening_id == evening.id).limit(1)))


EVENINGS_LISTED, EVENINGS_MOST = 20, 100  # evenings per API answer: unless asked, and at most


def evenings(club: Club, season: Season | None = None, limit: int | None = None, before: date | None = None
             ) -> list[tuple[date, str | None, list[Match]]]:
    """The club's evenings, the latest first (at most limit, only those before a day when given): the day,
    its name if given, its matches in order.

    An evening is the matches started on one day in the club's time zone, finished or not.
    """
    days = evening_days(club, season, limit, before)
    if not days:
        return []
    rows = db.session.execute(select(Match, ClubResult.day).join(ClubResult, ClubResult.match_id == Match.id)
                              .where(ClubResult.club_id == club.id, ClubResult.day >= days[-1],
                                     ClubResult.day <= days[0]).order_by(Match.id))
    named = evening_names_of(club, days)
    played_on: dict[date, list[Match]] = {day: [] for day in days}
    for match, day in rows:
        played_on[day].append(match)
    return [(day, named.get(day), played_on[day]) for day in days]


Mark = tuple[int, int, int]  # a match's row id, its version and its result row's write number (0, 0: in play)


def evening_marks(club: Club, season: Season | None = None, limit: int | None = None
                  ) -> list[tuple[date, str | None, tuple[Mark, ...]]]:
    """The club's latest evenings as evenings() gives them, each match by its marks alone: what an evening
    shown before needs to tell whether anything of it changed, without loading its matches.

    A match still being played is marked (id, 0, 0): an evening shows it "in progress" whatever its hands,
    so a hand recorded at one of a hundred tables does not draw the evening again; its last hand does."""
    days = evening_days(club, season, limit)
    if not days:
        return []
    rows = db.session.execute(select(ClubResult.match_id, Match.version, ClubResult.changed, ClubResult.day,
                                     ClubResult.digest.is_not(None))
                              .join(Match, Match.id == ClubResult.match_id)
                              .where(ClubResult.club_id == club.id, ClubResult.day >= days[-1],
                                     ClubResult.day <= days[0]).order_by(ClubResult.match_id))
    named = evening_names_of(club, days)
    marked: dict[date, list[Mark]] = {day: [] for day in days}
    for match, version, changed, day, finished in rows:
        marked[day].append((match, version, changed) if finished else (match, 0, 0))
    return [(day, named.get(day), tuple(marked[day])) for day in days]


def matches_by_id(ids: list[int]) -> list[Match]:
    """These matches, in the order of their row ids."""
    return list(db.session.scalars(select(Match).where(Match.id.in_(ids)).order_by(Match.id))) if ids else []


def evening_days(club: Club, season: Season | None, limit: int | None, before: date | None = None) -> list[date]:
    """The days the club played (in the season, before a day when given), the latest first, at most limit."""
    days = in_season(select(ClubResult.day).where(ClubResult.club_id == club.id), season).distinct()
    if before is not None:
        days = days.where(ClubResult.day < before)
    return list(db.session.scalars(days.order_by(ClubResult.day.desc()).limit(limit)))


def evening_names_of(club: Club, days: list[date]) -> dict[date, str | None]:
    """The names the club gave these days' evenings (a planned evening may be unnamed: None)."""
    return {day: name or None for day, name in db.session.execute(
        select(Evening.day, Evening.name).where(Evening.club_id == club.id, Evening.day.in_(days)))}


def finished_among(club: Club, played: list[Match]) -> set[int]:
    """The row ids of those of the club's matches that are finished (their result holds a digest)."""
    ids = [match.id for match in played]
    return set(db.session.scalars(select(ClubResult.match_id).where(
        ClubResult.club_id == club.id, ClubResult.match_id.in_(ids), ClubResult.digest.is_not(None)))) if ids else set()


def winners_among(club: Club, played: list[Match]) -> dict[int, list[int]]:
    """The seats that won each of these club matches that is finished (match row id -> seat numbers).

    From the result rows' digests, made again from the hands when stored in another shape.
    """
    ids = [match.id for match in played]
    rows = db.session.execute(select(ClubResult.match_id, ClubResult.digest).where(
        ClubResult.club_id == club.id, ClubResult.match_id.in_(ids), ClubResult.digest.is_not(None))) if ids else []
    made = {match: club_results.readable(match, kept) for match, kept in rows}
    return {match: list(digest["winners"]) for match, digest in made.items() if digest is not None}


def today(club: Club) -> date:
    """The day it is now where the club plays: the date its printed pages carry."""
    return club_results.day_of(datetime.now(timezone.utc), club.time_zone)


STARTERS = ("admin", "member")  # who started a club match, as Match.started_by keeps it (None: anyone else)
STRANGERS_MATCH = N_("Deleted by the club's admin: started by someone who is not a member.")


def start_match(club: Club, game: Any, names: Any, options: Any = None, language: Any = None,
                started_by: str | None = None, commit: bool = True, start: Any = None) -> tuple[Match, str]:
    """Start a club match: seats from the roster by name, options over the house rules.

    started_by: "admin" or "member" when the club's admin or a proven member starts it; None for anyone else
    with the club link. A new name joins the roster, as a guest when a stranger typed it: a guest stays until
    the admin keeps them, and goes with the stranger's match when the admin deletes it.
    commit=False leaves the match flushed in the caller's transaction, which then owns every failure.
    Returns (Match, edit key), as matches.create does.
    """
    if started_by not in (None, *STARTERS):
        raise ValueError(started_by)
    slug = game if isinstance(game, str) and game in GAMES else None
    if slug is None:
        raise refuse("game", N_("Choose one of the games: {games}."), games=", ".join(GAMES))
    typed = parse_players(names, GAMES[slug].min_players, GAMES[slug].max_players)
    if options is not None and not isinstance(options, dict):
        raise refuse("options", N_("Options must be an object."))
    chosen = {**club.house_rules.get(slug, {}), **(options or {})}
    for attempt in range(ATTEMPTS):
        try:
            seats = [_seat(club, name, guest=started_by is None) for name in typed]
            return matches.create(slug, [seat.name for seat in seats], chosen, language=language,
                                  club_id=club.id, seat_ids=[seat.id for seat in seats], started_by=started_by,
                                  commit=commit, start=start)
        except IntegrityError:  # another phone added one of these names at the same moment: take theirs
            if not commit:
                raise  # the caller's transaction is gone with it: it cannot be tried again here
            db.session.rollback()
            if receipts.started(start) is not None:
                raise  # not a name: the same start, made at the same moment by a copy of this request
            if attempt == ATTEMPTS - 1:
                raise matches.Conflict(N_("Someone else changed this club at the same moment; look again and retry.")) from None
            time.sleep(0.01 * (attempt + 1))
        except Refusal:
            db.session.rollback()
            raise
        except OperationalError as err:  # a full disk, a lost connection, while seating: nothing saved
            db.session.rollback()
            raise matches.Unavailable() from err
    raise AssertionError("unreachable")


def _seat(club: Club, name: str, guest: bool = False) -> ClubPlayer:
    """The live roster player of this name, or a new one added to the roster (flushed, not committed)."""
    player = db.session.scalar(select(ClubPlayer).where(ClubPlayer.club_id == club.id,
                                                        ClubPlayer.folded == same_name(name)))
    if player is None:
        player = ClubPlayer(club_id=club.id, name=name, folded=same_name(name), guest=guest)
        db.session.add(player)
        # A roster change like any other (roster._save): the pages kept per club version list the new name.
        db.session.execute(update(Club).where(Club.id == club.id).values(version=Club.version + 1))
        db.session.flush()
    return player


def strangers_matches(club: Club, limit: int = 50) -> list[Match]:
    """The club's matches started by someone who was neither its admin nor a proven member, the latest first."""
    return list(db.session.scalars(select(Match).where(Match.club_id == club.id, Match.started_by.is_(None))
                                   .order_by(Match.id.desc()).limit(limit)))


def delete_strangers_match(club: Club, public_id: Any) -> list[str]:
    """The admin deletes a club match a stranger started, and the guests it brought; returns their names.

    Its hands go, each kept in the match's edit history as deleted and why; the match leaves the club (its
    result, agreements and seats), and each guest it brought who sat at no other club match leaves the
    roster. A match the admin or a member started is refused: it is changed hand by hand, in the open.
    """
    match = db.session.scalar(select(Match).where(Match.public_id == public_id, Match.club_id == club.id)) \
        if links.is_public_id(public_id) else None
    if match is None:
        raise matches.NotFound()
    if match.started_by is not None:
        raise refuse("match", N_("The club's admin or a member started this match: change it hand by hand instead."))
    brought = list(match.seat_ids or [])
    matches.withdraw(match, "club admin", STRANGERS_MATCH)
    db.session.execute(delete(Agreement).where(Agreement.match_id == match.id))
    db.session.execute(delete(ClubResult).where(ClubResult.match_id == match.id))
    match.club_id, match.seat_ids = None, None
    db.session.flush()
    seated = matches_played(club)
    gone = [player for player in db.session.scalars(select(ClubPlayer).where(
        ClubPlayer.id.in_(brought), ClubPlayer.guest.is_(True), ClubPlayer.merged_into.is_(None)))
        if not seated[player.id]]
    for player in gone:
        db.session.delete(player)
    db.session.execute(update(Club).where(Club.id == club.id).values(version=Club.version + 1))
    db.session.commit()
    db.session.refresh(club)
    return [player.name for player in gone]
