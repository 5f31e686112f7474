"""Results the table agrees: each player's "Agreed" to a finished club match, the lock it makes, each hand's OK.

A club sets how many agreements lock its matches (``Club.agree_to_lock``; 0: never, as before). A locked
match takes a write only with the club's admin key and a reason (``check``, which create_app puts before
every write to a match); a write to a match agreed by fewer clears its agreements (``forget``: they agreed
to other figures). A club that confirms every hand (``Club.confirm_hands``) asks the next seat, the one
after the hand's declarer (its dealer in a game without one), for an OK to the hand's scores.

An agreement is one person: it comes from a member who proved who they are (their own member link,
web/club/members.py) and sat at the match, in their own seat; so does a hand's OK, from the member in
the next seat. A phone holding the edit key proves nothing of whose phone it is.
"""

from __future__ import annotations

import random
import time
from datetime import datetime
from typing import Any, NamedTuple

from flask import g, has_app_context
from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from .. import links
from ..db import db
from ..games import GAMES
from ..games.base import N_, Reason, Replay
from ..match import matches
from ..models import Agreement, Club, ClubResult, Match, utcnow
from ..refusals import refuse
from . import results, service

MOST_ASKED = max(game.max_players for game in GAMES.values())  # the most agreements a club may ask for
SUGGESTED = 2  # what the settings form offers a club that asks for none yet

REASON_LIMIT = 200  # characters of a reason the edit history keeps
ATTEMPTS = 5  # an agreement that loses a race to another phone's is tried again


class Locked(Exception):
    """A write to a match its players agreed, without the club's admin key (HTTP 403)."""

    def __init__(self, names: str):
        self.reason = Reason(N_("Agreed by {names}: locked. The club's admin can change it."), {"names": names})
        super().__init__(str(self.reason))


class NotTheirs(Exception):
    """An agreement or a hand's OK from someone who is not the member in that seat (HTTP 403)."""

    def __init__(self, text: str, **params: Any):
        self.reason = Reason(text, params)
        super().__init__(str(self.reason))


NOT_A_MEMBER = N_("Agree from your own phone: open the member link the club's organiser gave you, then tap "
                  "Agreed. An edit link does not say who you are.")
NOT_SEATED = N_("{name} did not play this match: only its players agree to it.")
NOT_NEXT = N_("Hand {number} is confirmed by the next seat, {name}, from {name}'s own phone (member link).")


class Agreed(NamedTuple):
    """One player's agreement as pages show it: the seat, the name in it, when."""

    seat: int
    name: str
    at: datetime


class AgreementState(NamedTuple):
    """What a club match's page and answer say of its agreement."""

    asked: int  # agreements that lock it (0: the club asks for none)
    agreed: list[Agreed]
    finished: bool

    @property
    def locked(self) -> bool:
        return 0 < self.asked <= len(self.agreed)


def _rows(match: Match) -> list[Agreement]:
    return list(db.session.scalars(select(Agreement).where(Agreement.match_id == match.id)
                                   .order_by(Agreement.at, Agreement.id)))


def agreements(match: Match) -> list[Agreed]:
    """Who agreed to the match, the first first."""
    return [Agreed(row.seat, match.players[row.seat], row.at) for row in _rows(match)
            if 0 <= row.seat < len(match.players)]


def asked(club: Club | None, match: Match) -> int:
    """Agreements that lock this match of the club: the club's number, at most everyone at it (0: none asked)."""
    return min(club.agree_to_lock, len(match.players)) if club is not None and club.agree_to_lock > 0 else 0


def state_of(match: Match, played: Replay | None = None) -> AgreementState:
    """The match's agreement as it now is (a casual match: nothing asked).

    After a write, the number its check found (asked_in_request) spares reading the club again: the
    commit expired it, and nothing in the request changed the club's rules since."""
    number = asked_in_request(match)
    if number is None:
        number = asked(results.club_of(match), match)
    if not number:
        return AgreementState(0, [], False)
    played = played if played is not None else matches.cached_replay(match)
    return AgreementState(number, agreements(match), bool(played.finished))


def asked_in_request(match: Match) -> int | None:
    """The agreements that lock this match as this request's write check found them; None before any."""
    return g.get("asked_of", {}).get(match.id) if has_app_context() else None


def is_locked(match: Match) -> bool:
    """Whether enough players agreed to the match to lock it."""
    return 0 < asked(results.club_of(match), match) <= len(_rows(match))


def set_rules(club: Club, agree_to_lock: Any, confirm_hands: Any) -> None:
    """Set how many agreements lock a club match (0: none) and whether the next seat confirms every hand."""
    check_rules(agree_to_lock, confirm_hands)
    club.agree_to_lock, club.confirm_hands = agree_to_lock, confirm_hands
    if has_app_context():
        g.pop("asked_of", None)  # what write checks found earlier in this request no longer holds
    service.bump(club)


def check_rules(agree_to_lock: Any, confirm_hands: Any) -> None:
    """Refuse a number of agreements or a per-hand choice a club cannot have."""
    if isinstance(agree_to_lock, bool) or not isinstance(agree_to_lock, int) or not 0 <= agree_to_lock <= MOST_ASKED:
        raise refuse("agree_to_lock", N_("Enter a number from {low} to {high}."), low=0, high=MOST_ASKED)
    if not isinstance(confirm_hands, bool):
        raise refuse("confirm_hands", N_("Say yes or no."))


def not_agreed_among(club: Club, played: list[Match]) -> set[int]:
    """The row ids of those of the club's finished matches that are not locked yet (none when none is asked)."""
    if not club.agree_to_lock or not played:
        return set()
    done = service.finished_among(club, played)  # one read for them all
    finished = [match for match in played if match.id in done]
    if not finished:
        return set()
    counts: dict[int, int] = {}
    for match_id in db.session.scalars(select(Agreement.match_id).where(
            Agreement.match_id.in_([match.id for match in finished]))):
        counts[match_id] = counts.get(match_id, 0) + 1
    return {match.id for match in finished if counts.get(match.id, 0) < asked(club, match)}


def not_agreed_count(club: Club) -> int:
    """How many of the club's finished matches are not locked yet (0 when the club asks for no agreement)."""
    if not club.agree_to_lock:
        return 0
    finished = db.session.execute(select(Match.id, Match.players).join(ClubResult, ClubResult.match_id == Match.id)
                                  .where(ClubResult.club_id == club.id, ClubResult.digest.is_not(None))).all()
    counts = dict(db.session.execute(
        select(Agreement.match_id, func.count()).join(ClubResult, ClubResult.match_id == Agreement.match_id)
        .where(ClubResult.club_id == club.id).group_by(Agreement.match_id)).all())
    return sum(1 for match_id, players in finished
               if counts.get(match_id, 0) < min(club.agree_to_lock, len(players or ())))


def names(agreed: list[Agreed]) -> str:
    return ", ".join(one.name for one in agreed)


def check(match: Match, action: str, authority: matches.Authority) -> None:  # noqa: ARG001
    """Refuse a write to a locked match without the club's admin key (Locked), or with it but without a reason."""
    club = results.club_of(match)
    number = asked(club, match)
    if has_app_context():
        g.setdefault("asked_of", {})[match.id] = number
    if club is None or not number:
        return
    agreed = agreements(match)
    if has_app_context():
        g.setdefault("agreed_of", {})[match.id] = len(agreed)
    if len(agreed) < asked(club, match):
        return
    if not links.key_matches(club.admin_key_hash, authority.key):
        raise Locked(names(agreed))
    reason = authority.reason.strip() if isinstance(authority.reason, str) else ""
    if not reason:
        raise refuse("reason", N_("Say why this agreed match is changed: the edit history keeps it."))
    if len(reason) > REASON_LIMIT:
        raise refuse("reason", N_("Keep the reason to at most {limit} characters."), limit=REASON_LIMIT)


def forget(match: Match, played: Replay, first: bool = False) -> None:  # noqa: ARG001
    """A listener of match writes: a change to a match agreed but not locked clears its agreements.

    After the write's check (asked_in_request) it costs one statement, a delete that most often finds nothing:
    nothing is loaded. A locked match's agreements were counted by that check and stay."""
    if match.club_id is None or first:
        return
    number = asked_in_request(match)
    if number is None:
        number = asked(results.club_of(match), match)
    counted = g.get("agreed_of", {}).get(match.id) if has_app_context() else None
    if number and (len(_rows(match)) if counted is None else counted) >= number:
        return  # locked: its admin changed it, with a reason
    db.session.execute(_CLEAR, {"match": match.id})


_CLEAR = delete(Agreement).where(Agreement.match_id == bindparam("match"))


def member_seat(match: Match, player_id: int | None) -> int | None:
    """The seat of the match this club member sat in (merged roster entries count as the one kept), or None."""
    club = results.club_of(match)
    if club is None or player_id is None or not match.seat_ids:
        return None
    now = results.resolver(club)
    seats = [now.get(seat, seat) for seat in match.seat_ids]
    return seats.index(player_id) if player_id in seats else None


def member_phone(club_id: int, player_id: int) -> str:
    """What an agreement keeps in its phone column: one value per member, so one member agrees once."""
    return links.hash_key(f"member:{club_id}:{player_id}")


def agree(public_id: str, player_id: int | None, name: str = "", seat: Any = None) -> tuple[Match, AgreementState]:
    """The proven club member player_id agrees to the finished match, in the seat they sat in; again changes nothing.

    None (no member proved who they are), a member who did not sit at the match, or a seat that is not
    theirs is NotTheirs; a seat agreed before members proved it, by someone else, is a Conflict.
    """
    for attempt in range(ATTEMPTS):
        match = _find(public_id)
        club = results.club_of(match)
        if not asked(club, match):
            raise refuse("seat", N_("This club does not ask its players to agree to a match."))
        if player_id is None or club is None:
            raise NotTheirs(NOT_A_MEMBER)
        mine = member_seat(match, player_id)
        if mine is None:
            raise NotTheirs(NOT_SEATED, name=name or "?")
        if seat is not None and seat != mine:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(match.players):
                raise refuse("seat", N_("Choose your seat: one of the players of this match."))
            raise NotTheirs(N_("You sat as {name}: agree in your own seat."), name=match.players[mine])
        played = matches.stored_replay(match)
        if not played.finished:
            raise matches.Conflict(N_("A match can be agreed once it is finished."))
        rows = _rows(match)
        if any(row.seat == mine for row in rows if row.player_id == player_id):
            return match, AgreementState(asked(club, match), agreements(match), True)
        if any(row.seat == mine for row in rows):
            raise matches.Conflict(N_("{name} has already agreed, from another phone."), name=match.players[mine])
        db.session.add(Agreement(match_id=match.id, seat=mine, phone=member_phone(club.id, player_id),
                                 player_id=player_id))
        try:
            _touch(match, played)
        except matches.Conflict:
            if attempt == ATTEMPTS - 1:
                raise
            time.sleep(random.uniform(0, 0.01 * (attempt + 1)))
            continue
        return match, AgreementState(asked(club, match), agreements(match), True)
    raise AssertionError("unreachable")


def agreed_seat(match: Match, player_id: int | None) -> int | None:
    """The seat this member agreed in, or None."""
    if player_id is None:
        return None
    return next((row.seat for row in _rows(match) if row.player_id == player_id), None)


def _find(public_id: str) -> Match:
    """The match as now stored (NotFound for none)."""
    db.session.expire_all()
    match = matches.find(public_id)
    if match is None:
        raise matches.NotFound()
    return match


def _touch(match: Match, played: Replay) -> None:
    """Raise the match's version (pages, polls and sheets show the change) and its club's stamp; commit."""
    match.updated_at = utcnow()
    try:
        db.session.flush()
        results.keep(match, played)
        db.session.commit()
    except (IntegrityError, StaleDataError) as err:
        db.session.rollback()
        raise matches.Conflict(N_("Someone else changed this match at the same moment; look again and retry.")) \
            from err
    except OperationalError as err:  # a full disk, a lost connection: not agreed, and not someone else's doing
        db.session.rollback()
        raise matches.Unavailable() from err


# -- each hand confirmed by the next seat (tournament nights) ------------------------------------


def confirms_hands(match: Match) -> bool:
    club = results.club_of(match)
    return club is not None and club.confirm_hands


def next_seat(match: Match, hand: Any) -> int:
    """The seat that confirms a hand: the one after its declarer, or after its dealer in a game without one.

    Players sit in the order of Match.players, clockwise: the next seat is the declarer's left-hand neighbour.
    """
    first = hand.get("declarer") or hand.get("dealer")
    seat = match.players.index(first) if first in match.players else len(match.players) - 1
    return (seat + 1) % len(match.players)


def unconfirmed(match: Match) -> list[int]:
    """The numbers of the hands no seat confirmed yet, when the club confirms every hand ([] otherwise)."""
    if not confirms_hands(match):
        return []
    return [hand.number for hand in match.hands if hand.confirmed_seat is None]


def confirm(public_id: str, number: Any, player_id: int | None) -> tuple[Match, int]:
    """The next seat's OK to hand number as the page showed it, from that seat's proven member (player_id);
    return the match and that seat. Anyone else is NotTheirs."""
    match = _find(public_id)
    if not confirms_hands(match):
        raise refuse("number", N_("This club does not confirm every hand."))
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(match.hands):
        raise matches.NotFound()
    played = matches.stored_replay(match)
    hand = match.hands[number - 1]
    seat = next_seat(match, played.hands[number - 1])
    if player_id is None or member_seat(match, player_id) != seat:
        raise NotTheirs(NOT_NEXT, number=number, name=match.players[seat])
    if hand.confirmed_seat is None:
        hand.confirmed_seat, hand.confirmed_at = seat, utcnow()
        _touch(match, played)
    return match, seat
