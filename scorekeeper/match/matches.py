"""Glue between stored matches and the engines: load, replay, record, correct, undo."""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, NamedTuple

from flask import Flask, current_app
from sqlalchemy import bindparam, select
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from .. import links
from ..db import db, write_turn
from ..games import GAMES, InvalidHand, Reason
from ..games.base import N_, Entry, Replay, stored_players
from ..i18n import LANGUAGES
from ..kept import Kept
from ..models import Hand, HandChange, Match, utcnow
from ..names import parse_players
from ..refusals import Refusal, refuse
from . import receipts
from .receipts import Pending

WRITE_ATTEMPTS = 25


class Conflict(Exception):
    """A write that lost a race or does not fit the match as it now is (HTTP 409)."""

    def __init__(self, text: str, **params: Any):
        self.reason = Reason(text, params)
        super().__init__(str(self.reason))


CANNOT_SAVE = N_("The server cannot save right now (its disk is full or its database is not answering): "
                 "nothing was saved. Try again in a moment.")
RETRY_AFTER = 10  # seconds a client waits before sending a write the server could not save


class Unavailable(Exception):
    """A write the database could not take (a full disk, a lost connection): nothing saved (HTTP 503).

    Never a Conflict: a phone told "already recorded" throws its hand away, and this one must keep it."""

    def __init__(self, text: str = CANNOT_SAVE, retry_after: int = RETRY_AFTER):
        self.reason, self.retry_after = Reason(text, {}), retry_after
        super().__init__(str(self.reason))


class Damaged(Exception):
    """A stored match the rules refuse (written around the app, or kept from looser rules): nothing to add up.

    ``number`` is the first hand refused, or None when the match itself is (its game, players or options).
    """

    def __init__(self, match: Match, number: int | None, err: Refusal):
        self.public_id, self.number = match.public_id, number
        if number is None:
            self.reason = Reason(N_("This match, as stored, breaks a rule: {reason}"), {"reason": err.reason})
        else:
            self.reason = Reason(N_("Hand {number} of this match, as stored, breaks a rule: {reason}"),
                                 {"number": number, "reason": err.reason})
        super().__init__(str(self.reason))


class LaterHandRefused(InvalidHand):
    """A hand of a replay the rules refuse, with its number and the engine's own reason."""

    def __init__(self, number: int, err: InvalidHand):
        self.number, self.original = number, err
        reason = Reason(N_("Hand {number} would no longer be legal: {reason}"), {"number": number, "reason": err.reason})
        super().__init__([(name, reason) for name, _ in err.errors[:1]])


# Told of every write to a match, in the write's own transaction, after the match is flushed: a club
# keeps its result row this way (create_app registers it), so the match core never names the club.
Listener = Callable[[Match, Replay, bool], None]
LISTENERS = "match_writes"


def listen(app: Flask, listener: Listener) -> None:
    """Have listener(match, replay, first) called on every write to a match of this app (first: its creation)."""
    app.extensions.setdefault(LISTENERS, []).append(listener)


def announce(match: Match, played: Replay, first: bool = False) -> None:
    for listener in current_app.extensions.get(LISTENERS, ()):
        listener(match, played, first)


class Authority(NamedTuple):
    """What a write carries beyond the match's edit key: a key from above it (a club's admin key) and why."""

    key: str | None = None
    reason: str = ""


EDIT_KEY_ONLY = Authority()  # a write with the match's edit key alone, as every write was before clubs locked any

# Asked before every write to a match, with what the write is ("record", "correct", "undo") and its
# authority; may refuse it by raising. A club locks its agreed matches this way (create_app registers it).
Guard = Callable[[Match, str, Authority], None]
GUARDS = "match_guards"


def guard(app: Flask, check: Guard) -> None:
    """Have check(match, action, authority) called before every write to a match of this app."""
    app.extensions.setdefault(GUARDS, []).append(check)


def _guarded(match: Match, action: str, authority: Authority) -> None:
    for check in current_app.extensions.get(GUARDS, ()):
        check(match, action, authority)


def key_matches(match: Match | Peek, key: str | None) -> bool:
    """Whether key is the match's edit key."""
    return links.key_matches(match.edit_key_hash, key)


# Built once: pages, polls and writes look a match up many times a second; only the id changes.
_FIND = select(Match).where(Match.public_id == bindparam("public_id"))
_PEEK = select(Match.__table__.c.version, Match.__table__.c.edit_key_hash).where(
    Match.__table__.c.public_id == bindparam("public_id"))
_ENTRIES = select(Hand.entry).where(Hand.match_id == bindparam("match_id")).order_by(Hand.number)


class Peek(NamedTuple):
    """What a poll or a write's key check needs of a match, read without loading it."""

    version: int
    edit_key_hash: str


def find(public_id: str) -> Match | None:
    """The match with this public id, or None (ids are URL-safe tokens; anything else is unknown)."""
    if not links.is_public_id(public_id):
        return None
    return db.session.scalar(_FIND, {"public_id": public_id})


def peek(public_id: str) -> Peek | None:
    """The match's version and key hash, or None for an unknown match.

    The hottest read of the app (every phone polls every few seconds, every write checks its
    key), so it skips the ORM and SQLAlchemy's statement machinery: one indexed read through a
    pooled driver connection, with the SQL compiled once for the database in use. Profiled, this
    halves the cost of a poll answered 304.
    """
    return peek_in(db.engine, public_id)


def peek_in(engine: Any, public_id: str) -> Peek | None:
    """peek() through this engine, for a caller outside the app's context (the WSGI poll)."""
    if not links.is_public_id(public_id):
        return None
    sql, positional = _compiled_peek_sql(engine.dialect)
    driver_error = engine.dialect.loaded_dbapi.Error
    try:
        connection = engine.raw_connection()
        # One read needs no transaction: on PostgreSQL that spares the BEGIN and ROLLBACK round trips
        # (SQLite's driver opens none for a read anyway).
        autocommit = engine.dialect.name == "postgresql"
        try:
            if autocommit:
                connection.dbapi_connection.autocommit = True
            cursor = connection.cursor()
            cursor.execute(sql, (public_id,) if positional else {"public_id": public_id})
            row = cursor.fetchone()
            cursor.close()
            if autocommit:
                connection.dbapi_connection.autocommit = False
        except BaseException:
            connection.invalidate()  # failed midway (a restart, a timeout): closed, never pooled again
            raise
        connection.close()  # back to the pool
    except driver_error as err:
        # A raw connection raises the driver's own error: wrapped as SQLAlchemy's, a database stopped or
        # restarting is answered 503 with Retry-After (web/errors.py), as on every other path, not 500.
        raise DBAPIError.instance(sql, None, err, driver_error, dialect=engine.dialect) from err
    return None if row is None else Peek(*row)


def version_of(public_id: str) -> int | None:
    """The match's version alone (all a poll answered 304 needs), or None for an unknown match."""
    peeked = peek(public_id)
    return None if peeked is None else peeked.version


_PEEK_SQL: dict[tuple[str, str], tuple[str, bool]] = {}


def _compiled_peek_sql(dialect: Any) -> tuple[str, bool]:
    """The peek's SQL for this kind of database and driver, compiled on first use."""
    kind = (dialect.name, dialect.paramstyle)
    if kind not in _PEEK_SQL:
        compiled = _PEEK.compile(dialect=dialect)
        _PEEK_SQL[kind] = str(compiled), bool(compiled.positional)
    return _PEEK_SQL[kind]


def entries_of(match: Match) -> list[Entry]:
    """The stored entries of the match, oldest first (the entry column alone, no Hand objects)."""
    return list(db.session.scalars(_ENTRIES, {"match_id": match.id}))


def create(game_slug: Any, players: Any, options: Any, entries: list[Any] = (), source: str = "",
           language: Any = None, club_id: int | None = None, seat_ids: list[int] | None = None,
           started_by: str | None = None, commit: bool = True,
           start: receipts.Start | None = None, created_at: datetime | None = None,
           public_id: str | None = None) -> tuple[Match, str]:
    """Validate and store a new match (with hands, when restoring); return it with its edit key.

    commit=False leaves it flushed in the caller's transaction (a round's tables, all or none). start: made
    under an idempotency key, the match gets the start's own edit key and its receipt in the same commit.

    ``language`` fixes the language its sheet is printed in (None: the reader's). A club match
    (club_id, and the club player id of each seat) gets its club result row in the same commit.
    """
    game = GAMES.get(game_slug) if isinstance(game_slug, str) else None
    if game is None:
        raise refuse("game", N_("Choose one of the games: {games}."), games=", ".join(GAMES))
    if language is not None and language not in LANGUAGES:
        raise refuse("language", N_("Choose one of the languages: {languages}."), languages=", ".join(LANGUAGES))
    names = parse_players(players, game.min_players, game.max_players)
    parsed = game.parse_options(names, options, secrets.SystemRandom())
    if len(entries) > game.max_hands:
        raise refuse("hands", N_("A match of {game} has at most {limit} hands; this one has {count}."),
                     game=Reason(game.title), limit=game.max_hands, count=len(entries))
    played = game.new_replay(names, parsed)
    for number, entry in enumerate(entries, 1):
        try:
            played.play(entry)
        except InvalidHand as err:
            raise InvalidHand([(f"hands.{number}", Reason(
                N_("Hand {number} breaks a rule: {reason}"), {"number": number, "reason": err.reason}))]) from err
    key = start.edit_key if start is not None else links.new_key()
    match = Match(
        public_id=public_id or links.new_public_id(),
        game=game.slug,
        players=names,
        options=parsed,
        edit_key_hash=links.hash_key(key),
        language=language,
        hands=[Hand(number=hand["number"], entry=hand["entry"]) for hand in played.hands],
        club_id=club_id,
        seat_ids=seat_ids,
        started_by=started_by,
        **({"created_at": created_at} if created_at is not None else {}),
    )
    db.session.add(match)
    try:
        db.session.flush()
        for hand in played.hands:
            _log(match, hand["number"], "record", None, hand["entry"], source)
        receipts.keep_start(start, match)
        announce(match, played, first=True)
        if commit:
            db.session.commit()
        else:
            db.session.flush()
    except OperationalError as err:
        db.session.rollback()
        raise Unavailable() from err
    return match, key


def started_once(start: receipts.Start | None, make: Callable[[], tuple[Match, str]]) -> tuple[Match, str, bool]:
    """Start a match once per idempotency key: (match, edit key, whether this start was made before).

    A start sent again (its answer was lost) answers the match it made; two copies racing on two servers
    both answer the one match the unique receipt let through. A match whose edit key was replaced since
    is not handed out again under the old start."""
    found = receipts.started(start)
    if found is None:
        try:
            match, key = make()
        except (IntegrityError, Conflict):
            db.session.rollback()
            found = receipts.started(start)
            if found is None:
                raise
        else:
            return match, key, False
    assert start is not None  # a match was found for it
    if not key_matches(found, start.edit_key):
        raise Conflict(N_("That match was started, and its edit link was replaced since: ask its table for it."))
    return found, start.edit_key, True


def replay(match: Match, entries: list[Entry] | None = None) -> Replay:
    """Run the stored (or given) entries through the engine, oldest first.

    A hand the rules refuse raises InvalidHand (a correction that breaks a later hand); stored
    options the rules refuse raise Damaged.
    """
    try:
        game = GAMES.get(match.game)
        if game is None:
            raise refuse("game", N_("Choose one of the games: {games}."), games=", ".join(GAMES))
        played = game.new_replay(stored_players(match.players, game.min_players, game.max_players), match.options)
    except Refusal as err:
        raise Damaged(match, None, err) from err
    for number, entry in enumerate(entries if entries is not None else entries_of(match), 1):
        try:
            played.play(entry)
        except InvalidHand as err:
            raise LaterHandRefused(number, err) from err
    return played


def stored_replay(match: Match, entries: list[Entry] | None = None) -> Replay:
    """replay() of hands as stored: a hand the rules refuse there is damage (Damaged), not the player's entry."""
    try:
        return replay(match, entries)
    except LaterHandRefused as err:
        raise Damaged(match, err.number, err.original) from err


REPLAYS_CACHED = 512
_replays: Kept[tuple[str, int], Replay] = Kept(REPLAYS_CACHED)  # (match, version) -> its replay (cached_replay)


def cached_replay(match: Match) -> Replay:
    """The replayed match for reading (pages, polls), kept per match version; never play into it.

    Every write raises the version, so a kept replay is never served for a changed match.
    """
    return _replays.fetch((match.public_id, match.version), lambda: stored_replay(match))


def _commit(match: Match, once: Pending | None = None, played: Replay | None = None, number: int = 0) -> None:
    """Raise the match version and commit, or raise Conflict when another write got there first.

    With a key (once), the write's receipt is committed with it; so is what the listeners write.
    """
    match.updated_at = utcnow()
    try:
        with write_turn():  # on SQLite, waited for without holding the worker (db.write_turn)
            if played is not None:
                db.session.flush()  # the receipt and the listeners' rows name the version this write makes
                if once is not None:
                    receipts.keep(match, once, played, number)
                announce(match, played)
            db.session.commit()
    except (IntegrityError, StaleDataError) as err:
        db.session.rollback()
        raise Conflict(N_("Someone else changed this match at the same moment; look again and retry.")) from err
    except OperationalError as err:  # a full disk, a lost connection: nothing saved, and nothing taken
        db.session.rollback()
        raise Unavailable() from err


@contextmanager
def _at_most_once(public_id: str, once: Pending | None) -> Iterator[None]:
    """Make a keyed write at most once, answering a repeat as the first time (Replayed).

    Each write looks for its key's receipt first. A write refused after that (the hand number
    taken, the match changed, a lost race) may have lost to this very write, sent again to another
    server while the answer was on its way: the receipt is looked for again before the refusal is.
    """
    try:
        yield
    except (Conflict, Refusal, NotFound):
        if once is not None:
            db.session.rollback()
            match = find(public_id)
            if match is not None:
                receipts.check_again(match.id, once)
        raise


def _log(match: Match, number: int, action: str, before: Any, after: Any, source: str, reason: str = "") -> None:
    """Keep a line of the edit history: when, what before, what after, from where, and why when said."""
    db.session.add(HandChange(match_id=match.id, number=number, action=action, before=before, after=after,
                              source=source[:40], reason=reason.strip()[:200]))


def record(public_id: str, entry: Any, number: Any = None, source: str = "",
           once: Pending | None = None, authority: Authority = EDIT_KEY_ONLY) -> tuple[Match, Replay]:
    """Append a hand; with number, only if it is the next one. Retries lost races otherwise.

    With once, a write already made under its key is not made again: Replayed carries its answer.
    """
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise refuse("number", N_("The hand number must be a whole number."))
    with _at_most_once(public_id, once):
        for attempt in range(WRITE_ATTEMPTS):
            match = _must_find(public_id)
            receipts.check(match.id, once)
            _guarded(match, "record", authority)
            entries = entries_of(match)
            played = stored_replay(match, entries)
            expected = len(entries) + 1
            if number is not None and number != expected:
                if 0 < number < expected:
                    raise Conflict(N_("Hand {number} is already recorded."), number=number)
                raise Conflict(N_("The next hand is hand {expected}."), expected=expected)
            if played.finished:
                raise Conflict(N_("This match is finished; no more hands can be recorded."))
            if len(entries) >= played.max_hands:
                raise Conflict(N_("This match has reached the limit of {limit} hands; no more can be recorded."),
                               limit=played.max_hands)
            hand = played.play(entry)
            db.session.add(Hand(match_id=match.id, number=expected, entry=hand["entry"]))
            _log(match, expected, "record", None, hand["entry"], source, authority.reason)
            try:
                _commit(match, once, played, expected)
                return match, played
            except Conflict:
                if number is not None:
                    raise Conflict(N_("Hand {number} is already recorded."), number=number) from None
                if attempt == WRITE_ATTEMPTS - 1:
                    raise
                time.sleep(random.uniform(0, 0.01 * (attempt + 1)))  # let the other phone's write finish
    raise AssertionError("unreachable")


def correct(public_id: str, number: int, entry: Any, source: str = "",
            once: Pending | None = None, authority: Authority = EDIT_KEY_ONLY) -> tuple[Match, Replay]:
    """Replace hand number's entry and replay everything after it (a confirmation of the old entry goes)."""
    with _at_most_once(public_id, once):
        match = _must_find(public_id)
        receipts.check(match.id, once)
        _guarded(match, "correct", authority)
        hand = _must_find_hand(match, number)
        entries: list[Entry] = [h.entry for h in match.hands]
        before = stored_replay(match, entries[: number - 1])
        new_hand = before.play(entry)
        entries[number - 1] = new_hand["entry"]
        played = replay(match, entries)
        _log(match, number, "correct", hand.entry, new_hand["entry"], source, authority.reason)
        if hand.entry != new_hand["entry"]:
            hand.confirmed_seat = hand.confirmed_at = None
        hand.entry = dict(new_hand["entry"])
        _commit(match, once, played, number)
        return match, played


def undo(public_id: str, number: int, source: str = "", once: Pending | None = None,
         authority: Authority = EDIT_KEY_ONLY) -> tuple[Match, Replay]:
    """Remove the last hand (only the last one can be undone)."""
    with _at_most_once(public_id, once):
        match = _must_find(public_id)
        receipts.check(match.id, once)
        _guarded(match, "undo", authority)
        hand = _must_find_hand(match, number)
        if number != len(match.hands):
            raise Conflict(N_("Only the last hand can be undone; correct hand {number} instead."), number=number)
        _log(match, number, "undo", hand.entry, None, source, authority.reason)
        match.hands.remove(hand)
        played = stored_replay(match, [h.entry for h in match.hands])
        _commit(match, once, played, number)
        return match, played


def withdraw(match: Match, source: str, reason: str) -> None:
    """Take every hand off a match, the last first, each kept in its edit history as deleted and why.

    For the club's admin deleting a match a stranger started: the caller detaches the match from its
    club in the same write and commits. Its version rises with the write, so every page and poll sees it.
    """
    for hand in sorted(match.hands, key=lambda hand: hand.number, reverse=True):
        _log(match, hand.number, "delete", hand.entry, None, source, reason)
    match.hands.clear()
    match.updated_at = utcnow()


def rotate_key(public_id: str) -> str:
    """Give the match a new edit key; every older edit link stops working."""
    match = _must_find(public_id)
    key = links.new_key()
    match.edit_key_hash = links.hash_key(key)
    _commit(match)
    return key


def undone(match: Match) -> HandChange | None:
    """The undo that removed the match's last hand, if it is the latest change: that hand can be put back."""
    last = db.session.scalar(select(HandChange).where(HandChange.match_id == match.id)
                             .order_by(HandChange.id.desc()).limit(1))
    return last if last is not None and last.action == "undo" and last.number == len(match.hands) + 1 else None


def waiting_undos(match: Match) -> list[HandChange]:
    """The undos whose hand has not been recorded again since, newest first: each can still be put back.

    A hand recorded with the very entry an undo took away (put back, or typed again) settles that undo.
    """
    waiting: list[HandChange] = []
    for change in reversed(history(match)):
        if change.action == "undo":
            waiting.append(change)
        elif change.action == "record":
            settled = next((undo for undo in waiting if undo.before == change.after), None)
            if settled is not None:
                waiting.remove(settled)
    return waiting[::-1]


def put_back(public_id: str, number: int, change_id: int | None = None, source: str = "",
             authority: Authority = EDIT_KEY_ONLY) -> tuple[Match, Replay, int]:
    """Record again, as the next hand, the hand an undo took away; return the match and the hand's new number.

    The hands recorded since were played where they stand, so they keep their numbers (and with them
    their dealer, declarer and pass); the hand put back comes after them, checked by the rules there.
    change_id names the undo (the newest undo of hand number when None).
    """
    match = _must_find(public_id)
    _guarded(match, "put_back", authority)
    undo = next((change for change in waiting_undos(match)
                 if change.number == number and change_id in (None, change.id)), None)
    if undo is None or undo.before is None:
        raise Conflict(N_("Hand {number} is not waiting to be put back: it was put back or recorded again since."),
                       number=number)
    entries = entries_of(match)
    upcoming = stored_replay(match, entries).next()
    if upcoming is None:
        raise Conflict(N_("Hand {number} cannot be put back: no more hands can be recorded in this match."),
                       number=number)
    if number - 1 > len(entries):
        raise Conflict(N_("Hand {number} cannot be put back before hand {missing}: put that hand back first."),
                       number=number, missing=len(entries) + 1)
    own = stored_replay(match, entries[: number - 1]).next() or upcoming
    # A declarer chose the contract: under another declarer it would be another hand.
    if own.get("declarer") != upcoming.get("declarer"):
        raise Conflict(N_("Hand {number} was {name}'s to declare and the next hand is {next}'s: it cannot be put "
                          "back. Record it again if it was played."), number=number, name=own.get("declarer"),
                       next=upcoming.get("declarer"))
    try:
        match, played = record(public_id, undo.before, upcoming["number"], source, authority=authority)
    except InvalidHand as err:
        raise Conflict(N_("Hand {number} cannot be put back: {reason}"), number=number, reason=err.reason) from err
    return match, played, upcoming["number"]


def history(match: Match) -> list[HandChange]:
    """The match's edit history, newest first."""
    return list(db.session.scalars(
        select(HandChange).where(HandChange.match_id == match.id).order_by(HandChange.id.desc())
    ))


class NotFound(Exception):
    """An unknown match or hand (HTTP 404)."""


def _must_find(public_id: str) -> Match:
    db.session.expire_all()
    match = find(public_id)
    if match is None:
        raise NotFound()
    return match


def _must_find_hand(match: Match, number: Any) -> Hand:
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(match.hands):
        raise NotFound()
    return match.hands[number - 1]
