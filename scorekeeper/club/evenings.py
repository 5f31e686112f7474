"""A club's evenings planned ahead: the day, start, place and note; who says they come; who is there at the door.

A planned evening is an Evening row (the same row that names a day); its start is a time of day in the
club's time zone. Who is there: everyone who said "I'm in" (proven) and everyone the door marked here, minus
those the door marked not here. A member's answer counts for the draw when it is proven: given from the member's own
phone (its member link) or by the admin. An answer from a client that proved nothing (the API's answer
key) is kept with the hash of its key, is never counted, and gives way to a proven one; a proven answer
is changed only by the member or the admin. Every change bumps the club, so its kept pages go stale.
An unproven answer sent again after its answer was lost is answered again, not refused (said_again): under
an Idempotency-Key its answer key is made from that key (answer_key_for), so the repeat gets it back too.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from datetime import date, time, timedelta
from typing import Any, NamedTuple

from sqlalchemy import delete as delete_rows, select
from sqlalchemy.exc import IntegrityError

from .. import links
from ..db import db
from ..games.base import N_, typeable
from ..match import matches
from ..models import Attendance, Club, ClubPlayer, ClubResult, Evening, EveningRound
from ..refusals import Reason, refuse
from .results import resolver
from .roster import player_of, roster, row_id
from .service import as_day, bump, title, today

PLACE_MAX, NOTE_MAX = 80, 200  # characters, as the columns hold them
WEEKS = (1, 26)  # a plan repeated weekly: at least one evening, at most half a year of them
PLANNED_MOST = 100  # upcoming evenings per answer, at most
TIME = re.compile("([01][0-9]|2[0-3]):([0-5][0-9])")
KEEP: Any = object()  # update: leave this part of the plan as it is


class NotYours(Exception):
    """An answer another phone gave, which only that phone or the admin may change (HTTP 403)."""

    def __init__(self, text: str, **params: Any):
        self.reason = Reason(text, params)
        super().__init__(str(self.reason))


ANOTHER_PHONE = N_("Another phone answered for {name}: only that phone or the club's organiser can change it.")
PROVEN_ANSWER = N_("{name} answered from their own member link: only {name} or the club's organiser can change it.")


class Answers(NamedTuple):
    """Who said they come to an evening, who said not this time, who the door marked here and not here, and
    who is there (live players, in roster order)."""

    coming: list[ClubPlayer]
    not_coming: list[ClubPlayer]
    present: list[ClubPlayer]
    absent: list[ClubPlayer]
    here: list[ClubPlayer]


# -- what a plan is made of --------------------------------------------------------------------


def start_of(raw: Any, field: str = "starts_at") -> time | None:
    """A start time as "HH:MM" (24 hours), None for none.

    >>> start_of("19:30"), start_of(""), start_of(None)
    (datetime.time(19, 30), None, None)
    """
    if raw is None or raw == "":
        return None
    if isinstance(raw, time):
        return raw.replace(second=0, microsecond=0, tzinfo=None)
    if isinstance(raw, str) and (found := TIME.fullmatch(raw.strip())):
        return time(int(found[1]), int(found[2]))
    raise refuse(field, N_("Give a time as hours and minutes, such as 19:30."))


def words(raw: Any, field: str, limit: int, lines: bool = False) -> str:
    """A place or a note: trimmed, at most limit characters, nothing invisible ("" for none)."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise refuse(field, N_("Write it as text."))
    text = raw.replace("\r\n", "\n").strip()
    if len(text) > limit:
        raise refuse(field, N_("Write at most {limit} characters."), limit=limit)
    if not all(typeable(char) or (lines and char == "\n") for char in text):
        raise refuse(field, N_("Text cannot contain control characters."))
    return text


def evening_name(raw: Any) -> str:
    """An evening's name, "" for none."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return ""
    return title(raw, "name")


def weeks_of(raw: Any) -> int:
    """How many weekly evenings a plan makes."""
    low, high = WEEKS
    count = row_id(raw) if not isinstance(raw, bool) else None
    if count is None or not low <= count <= high:
        raise refuse("weeks", N_("Enter a number from {low} to {high}."), low=low, high=high)
    return count


# -- planning --------------------------------------------------------------------------------------


def schedule(club: Club, day: Any, starts_at: Any, place: Any, note: Any, name: Any = "", weeks: Any = 1
             ) -> list[Evening]:
    """Plan an evening, or one a week for `weeks` weeks; a day that already has an evening gets this plan
    (its name kept unless a name is given). Returns the evenings, soonest first."""
    first, start = as_day(day, "day"), start_of(starts_at)
    where, what, called = words(place, "place", PLACE_MAX), words(note, "note", NOTE_MAX, lines=True), evening_name(name)
    days = [first + timedelta(weeks=week) for week in range(weeks_of(weeks))]
    known = {evening.day: evening for evening in db.session.scalars(
        select(Evening).where(Evening.club_id == club.id, Evening.day.in_(days)))}
    made = []
    for when in days:
        evening = known.get(when)
        if evening is None:
            evening = Evening(club_id=club.id, day=when, name=called)
            db.session.add(evening)
        evening.starts_at, evening.place, evening.note = start, where, what
        if called:
            evening.name = called
        made.append(evening)
    _save(club)
    return made


def update(club: Club, evening_id: Any, day: Any = KEEP, starts_at: Any = KEEP, place: Any = KEEP, note: Any = KEEP,
           name: Any = KEEP) -> Evening:
    """Change a planned evening: each part given is checked and set, the others kept. An evening played
    (its rounds, or matches on its day) keeps its day."""
    evening = evening_of(club, evening_id)
    when = evening.day if day is KEEP else as_day(day, "day")
    start = evening.starts_at if starts_at is KEEP else start_of(starts_at)
    where = evening.place if place is KEEP else words(place, "place", PLACE_MAX)
    what = evening.note if note is KEEP else words(note, "note", NOTE_MAX, lines=True)
    called = evening.name if name is KEEP else evening_name(name)
    if when != evening.day:
        if played(club, evening):
            raise refuse("day", N_("This evening has been played: it stays on its day."))
        if db.session.scalar(select(Evening.id).where(Evening.club_id == club.id, Evening.day == when)) is not None:
            raise refuse("day", N_("The club already has an evening on that day."))
    evening.day, evening.starts_at, evening.place, evening.note, evening.name = when, start, where, what, called
    _save(club)
    return evening


def delete(club: Club, evening_id: Any) -> None:
    """Take a planned evening and its answers away; an evening played (rounds, or matches on its day) is refused."""
    evening = evening_of(club, evening_id)
    if played(club, evening):
        raise refuse("evening", N_("This evening has been played, so it stays with its matches; you can still "
                                   "change its time, place and note."))
    db.session.execute(delete_rows(Attendance).where(Attendance.evening_id == evening.id))
    db.session.delete(evening)
    _save(club)


def played(club: Club, evening: Evening) -> bool:
    """Whether an evening has rounds, or club matches started on its day."""
    rounds = db.session.scalar(select(EveningRound.id).where(EveningRound.evening_id == evening.id).limit(1))
    return rounds is not None or db.session.scalar(select(ClubResult.match_id).where(
        ClubResult.club_id == club.id, ClubResult.day == evening.day).limit(1)) is not None


def _save(club: Club) -> None:
    """Commit with the club bumped; a day planned by another admin at the same moment is a conflict."""
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise matches.Conflict(N_("Someone else changed this club at the same moment; look again and retry.")) from None
    bump(club)


# -- reading plans ------------------------------------------------------------------------------------


def evening_of(club: Club, evening_id: Any) -> Evening:
    """The club's evening with this id (a number or its digits), or matches.NotFound."""
    known = row_id(evening_id)
    evening = db.session.get(Evening, known) if known is not None else None
    if evening is None or evening.club_id != club.id:
        raise matches.NotFound()
    return evening


def planned(club: Club, limit: int | None = None, since: date | None = None) -> list[Evening]:
    """The club's evenings from today on (in its time zone), or from a day given, soonest first."""
    first = today(club) if since is None else since
    return list(db.session.scalars(select(Evening).where(Evening.club_id == club.id, Evening.day >= first)
                                   .order_by(Evening.day).limit(limit)))


def next_evening(club: Club) -> Evening | None:
    """The first evening on or after today in the club's time zone that is not closed yet."""
    return next((evening for evening in planned(club, limit=2) if evening.closed_at is None), None)


# -- answers and the door --------------------------------------------------------------------------


def answer(club: Club, evening: Evening, player_id: Any, coming: Any, phone_key: str | None,
           proven: bool = False) -> Attendance:
    """A member's "I'm in" (coming) or "not this time".

    proven: from the member's own phone or the admin; it counts, and it replaces whatever was said before.
    Otherwise from a client known only by its key (phone_key): kept, never counted; the first such client
    to answer for a player holds that answer against others (NotYours), and none changes a proven one.
    """
    if not isinstance(coming, bool):
        raise refuse("coming", N_("Say whether you are coming: true or false."))
    player = player_of(club, row_id(player_id))
    if evening.day < today(club):
        raise refuse("coming", N_("This evening is over: answers are for the evenings to come."))
    row = _row(evening, player)
    if proven:
        row.proven, row.key_hash = True, None
    else:
        if row.proven:
            db.session.rollback()
            raise NotYours(PROVEN_ANSWER, name=player.name)
        if phone_key is None or (row.key_hash is not None and not links.key_matches(row.key_hash, phone_key)):
            db.session.rollback()
            raise NotYours(ANOTHER_PHONE, name=player.name)
        row.key_hash = links.hash_key(phone_key)
    row.answer = "in" if coming else "out"
    _save(club)
    return row


def answer_key_for(secret: str | bytes, club: Club, evening: Evening, player_id: Any, sent_key: str) -> str:
    """The answer key of an unproven answer sent under an Idempotency-Key: made from that key and the app's secret,
    so that the answer sent again under it gets the same key back (only its hash is kept, as of any answer key)."""
    raw = secret.encode() if isinstance(secret, str) else bytes(secret)
    scope = f"evening-answer\0{club.public_id}\0{evening.id}\0{row_id(player_id)}\0{sent_key}"
    made = hmac.new(raw, scope.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()[:24]
    return base64.urlsafe_b64encode(made).decode().rstrip("=")


def said_again(club: Club, evening: Evening, player_id: Any, coming: Any, phone_key: str | None) -> Attendance | None:
    """The unproven answer kept for the player when this one repeats it (a phone that lost the answer), else None.

    A repeat is the same answer, from the phone holding its key (phone_key: made by answer_key_for), or from a
    client that sent no key at all: it changes nothing, so it refuses nothing either. Under the key that gave the
    answer, another answer is refused: the Idempotency-Key was sent with another request, or the answer changed since.
    """
    if not isinstance(coming, bool):
        return None  # answer() says what is wrong
    row = db.session.scalar(select(Attendance).where(Attendance.evening_id == evening.id,
                                                     Attendance.player_id == player_of(club, row_id(player_id)).id))
    if row is None or row.proven or row.key_hash is None:
        return None
    same = row.answer == ("in" if coming else "out")
    if phone_key is None:
        return row if same else None
    if not links.key_matches(row.key_hash, phone_key):
        return None
    if not same:
        raise refuse("Idempotency-Key", N_("This idempotency key was already used for a different request."))
    return row


def mark_present(club: Club, evening: Evening, player_id: Any, present: Any) -> Attendance:
    """The admin marks a player here at the door, or not here; their answer stays what they said."""
    if not isinstance(present, bool):
        raise refuse("present", N_("Say whether the player is here: true or false."))
    row = _row(evening, player_of(club, row_id(player_id)))
    row.present, row.absent = present, not present
    _save(club)
    return row


def _row(evening: Evening, player: ClubPlayer) -> Attendance:
    """The player's attendance row of the evening, a new one ("in", not present) when there is none."""
    row = db.session.scalar(select(Attendance).where(Attendance.evening_id == evening.id,
                                                     Attendance.player_id == player.id))
    if row is None:
        row = Attendance(evening_id=evening.id, player_id=player.id, answer="in", present=False, absent=False,
                         proven=False)
        db.session.add(row)
    return row


def attendance(evening: Evening) -> list[Attendance]:
    """Every answer of an evening, in the order they were first given."""
    return list(db.session.scalars(select(Attendance).where(Attendance.evening_id == evening.id)
                                   .order_by(Attendance.id)))


def is_here(row: Attendance) -> bool:
    """Whether an answer puts its player there: said "in" (proven) or marked here, and not marked not here."""
    return not row.absent and (row.present or (row.answer == "in" and row.proven))


def present_ids(evening: Evening) -> list[int]:
    """The live club player ids who are there (is_here), in the order they first answered: an answer that
    proved nothing does not count."""
    chosen = [row for row in attendance(evening) if is_here(row)]
    club = db.session.get(Club, evening.club_id)
    now = resolver(club) if club is not None else {}
    return list(dict.fromkeys(now.get(row.player_id, row.player_id) for row in chosen))


def answers(club: Club, evening: Evening) -> Answers:
    """Who is coming, who is not, who the door marked, and who is there, in roster order (a merged entry as the
    one kept)."""
    live, now = {player.id: player for player in roster(club)}, resolver(club)
    place = {pid: index for index, pid in enumerate(live)}
    rows = attendance(evening)

    def players(kept: list[Attendance]) -> list[ClubPlayer]:
        ids = {now.get(row.player_id, row.player_id) for row in kept}
        return [live[pid] for pid in sorted(ids & live.keys(), key=place.__getitem__)]

    coming = players([row for row in rows if row.answer == "in" and row.proven])
    said_in = {player.id for player in coming}
    not_coming = [player for player in players([row for row in rows if row.answer != "in" and row.proven])
                  if player.id not in said_in]
    return Answers(coming, not_coming, players([row for row in rows if row.present]),
                   players([row for row in rows if row.absent]), players([row for row in rows if is_here(row)]))
