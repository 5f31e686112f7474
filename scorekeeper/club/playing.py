"""The round being played: latecomers and sit-outs seated at a new table, and a player who leaves a table.

A new table: the seating engine draws the players present who are not at a table of the latest round
still playing (those sitting it out, those who came after it was drawn, those of a table that ended),
the tables playing given as they are (seating.draw's ``playing``), so nobody playing moves. Confirming
adds the new tables to the round, each with its club match as a round's tables get theirs; who is still
free sits the round out.

A player who leaves mid-match: a match's seats are fixed (Kozyol's two teams of two, Barbu's four
declarers each declaring in turn, a Hearts deal dealt round the table), and a seat's score is its
player's, so the match cannot go on with one seat empty or with someone else's score in it. The table
chooses (``THEN``): the match ends here, unfinished, and counts for nobody (its players are free for a
new table or the next round); or someone free takes the seat and the table starts a new match; or, at
Hearts with six or more left, the others start a new match without them. Either way the one who left
is marked not here, and the ended match takes a change only from the club's admin.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, TypedDict, cast

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .. import links
from ..db import db
from ..games import GAMES
from ..games.base import N_
from ..json_values import JsonObject
from ..kept import Kept
from ..match import matches
from ..models import Club, Evening, EveningRound, EveningTable, Match
from ..refusals import Reason, refuse
from . import agreements, evenings, rounds, service
from .engine import seating
from .results import club_of

ENDED, SEAT, OTHERS = "ended", "seat", "others"
THEN = (ENDED, SEAT, OTHERS)  # what a table does when a player leaves mid-match


class Ended(TypedDict):
    """How a table's match ended before its end (EveningTable.ended): who left, when, and what the table did."""

    version: int  # 1
    left: int  # the club player who left
    hands: int  # the hands played when they left
    at: str  # when, ISO 8601 in UTC
    then: str  # one of THEN
    by: int | None  # SEAT: who took the seat
    table: int | None  # SEAT, OTHERS: the number of the table that plays on


class TableEnded(agreements.Locked):
    """A write to the match of a table that ended when a player left, without the club's admin key (HTTP 403)."""

    def __init__(self) -> None:
        self.reason = Reason(N_("This table's match ended when a player left: it counts for nobody, and only "
                                "the club's admin can change it."), {})
        Exception.__init__(self, str(self.reason))


def latest_round(evening: Evening) -> tuple[EveningRound, list[tuple[EveningTable, Match | None]]]:
    """The evening's latest round and its tables; a Refusal before the first or once the evening is closed."""
    if evening.closed_at is not None:
        raise refuse("evening", N_("This evening is closed: no more rounds can be drawn."))
    found = rounds.latest(evening)
    if found is None:
        raise refuse("round", N_("Draw the first round first."))
    return found


def free(club: Club, evening: Evening) -> list[int]:
    """The players present and at no table of the latest round still playing (none before the first round)."""
    found = rounds.latest(evening)
    if found is None:
        return []
    busy = {seat for table, _match in found[1] if table.ended is None for seat in table.seat_ids}
    return [player for player in rounds.present(club, evening) if player not in busy]


def add_tables(club: Club, evening: Evening, extra: seating.Round, number: int) -> list[Match]:
    """Add new tables to the latest round (its number, else a Conflict), each a club match, from the free players;
    who of them is still free sits the round out. All or nothing, as confirming a round."""
    made, tables = latest_round(evening)
    if made.number != number:
        raise matches.Conflict(rounds.ALREADY)
    free_now = free(club, evening)
    checked = rounds.checked(club, evening, list(extra.tables))
    if any(seat not in free_now for table in checked.tables for seat in table.seats):
        raise refuse("tables", N_("Only players who are free can be seated at a new table."))
    seated = {seat for table in checked.tables for seat in table.seats}
    try:
        started = rounds.start_tables(club, made, checked.tables, 1 + max(table.number for table, _match in tables))
        made.sat_out = [player for player in free_now if player not in seated]
        service.bump(club)
    except IntegrityError:  # another phone added a table at the same moment
        db.session.rollback()
        raise matches.Conflict(rounds.ALREADY) from None
    except BaseException:
        db.session.rollback()
        raise
    return started


def table_of(evening: Evening, number: int, table_number: int) -> tuple[EveningRound, EveningTable, Match | None]:
    """A table of the latest round, still playing, by its numbers; a Refusal when it is not, NotFound for none."""
    made, tables = latest_round(evening)
    found = next(((table, match) for table, match in tables if table.number == table_number), None)
    if made.number != number or found is None:
        raise matches.NotFound()
    if found[0].ended is not None:
        raise refuse("table", N_("This table has already ended."))
    return made, found[0], found[1]


def leave(club: Club, evening: Evening, number: int, table_number: int, player: Any, then: Any, by: Any = None
          ) -> EveningTable | None:
    """A player leaves a table mid-match, and the table does what then says (THEN); the new table, if any."""
    made, table, match = table_of(evening, number, table_number)
    if match is not None and match.id in service.finished_among(club, [match]):
        raise refuse("table", N_("This table's match is finished: nobody needs to take a seat."))
    leaving = player if isinstance(player, int) and not isinstance(player, bool) and player in table.seat_ids \
        else None
    if leaving is None:
        raise refuse("player", N_("Choose who leaves, one of the table's players."))
    seats = next_seats(club, evening, table, leaving, then, by)
    ended = Ended(version=1, left=leaving, hands=len(match.hands) if match is not None else 0,
                  at=datetime.now(timezone.utc).isoformat(timespec="seconds"), then=then,
                  by=by if then == SEAT else None, table=None)
    try:
        new = None
        if seats is not None:
            number_next = 1 + max(one.number for one, _match in rounds.rounds_of(evening)[-1][1])
            rounds.start_tables(club, made, [seating.Table(table.game, tuple(seats))], number_next)
            ended["table"] = number_next
            new = db.session.scalar(select(EveningTable).where(EveningTable.round_id == made.id,
                                                               EveningTable.number == number_next))
            made.sat_out = [out for out in made.sat_out if out != by]
        table.ended = cast(JsonObject, ended)  # a TypedDict of JSON values
        evenings.mark_present(club, evening, leaving, False)  # not here any more: commits it all, the club bumped
    except (IntegrityError, matches.Conflict):  # another phone changed the round at the same moment
        db.session.rollback()
        raise matches.Conflict(rounds.ALREADY) from None
    except BaseException:
        db.session.rollback()
        raise
    return new


def next_seats(club: Club, evening: Evening, table: EveningTable, leaving: int, then: Any, by: Any
               ) -> list[int] | None:
    """The seats of the table that plays on (the one who left replaced, or left out), None when the match ends."""
    if then not in THEN:
        raise refuse("then", N_("Choose what the table does."))
    if then == ENDED:
        return None
    if then == SEAT:
        if not isinstance(by, int) or isinstance(by, bool) or by not in free(club, evening) or by == leaving:
            raise refuse("by", N_("Choose who takes the seat, one of the players who are free."))
        return [by if seat == leaving else seat for seat in table.seat_ids]
    if len(table.seat_ids) - 1 < GAMES[table.game].min_players:
        raise refuse("then", N_("{game} needs {count} players: the others cannot play on without them."),
                     game=Reason(GAMES[table.game].title, {}), count=GAMES[table.game].min_players)
    return [seat for seat in table.seat_ids if seat != leaving]


def choices(table: EveningTable) -> list[str]:
    """What a table can do when one of its players leaves: end here and take a free seat always, the others play
    on where the game still has enough players without them (Hearts from seven)."""
    fewer = len(table.seat_ids) - 1 >= GAMES[table.game].min_players
    return [ENDED, SEAT, *([OTHERS] if fewer else [])]


_ending: Kept[tuple[str, int], bool] = Kept(256)  # (club public id, club version) -> has a table of it ended


def has_ended_table(club: Club) -> bool:
    """Whether a table of the club ever ended when a player left, kept per club version (leaving bumps it)."""
    return _ending.fetch((club.public_id, club.version), lambda: db.session.scalar(
        select(EveningTable.id).join(EveningRound, EveningRound.id == EveningTable.round_id)
        .join(Evening, Evening.id == EveningRound.evening_id)
        .where(Evening.club_id == club.id, EveningTable.ended.is_not(None)).limit(1)) is not None)


def check(match: Match, action: str, authority: matches.Authority) -> None:  # noqa: ARG001
    """Refuse a write to the match of a table that ended, without the club's admin key (TableEnded)."""
    club = club_of(match) if table_ended(match) else None
    if club is not None and not links.key_matches(club.admin_key_hash, authority.key):
        raise TableEnded()


def table_ended(match: Match) -> bool:
    """Whether the match is that of a table that ended when a player left.

    A club none of whose tables ever ended answers without a read: most matches."""
    club = club_of(match) if match.club_id is not None else None
    if club is None or not has_ended_table(club):
        return False
    return db.session.scalar(select(EveningTable.id).where(EveningTable.match_id == match.id,
                                                           EveningTable.ended.is_not(None)).limit(1)) is not None
