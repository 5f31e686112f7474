"""The rounds of a club evening: the next round proposed from who is there, confirmed as one club match per table.

A proposal is drawn by the seating engine (club/engine/seating.py) from the players present and the
season's history (who met, who partnered, who sat out), so the same seed over the same history draws
the same round. The draw is CPU work (a bounded search, under a second for 400 players): in a gevent
worker it runs in a real thread (``render_slots.off_the_hub``, as a PDF render does), one draw at a
time per process, so the worker's other requests, the phones' polls among them, are answered meanwhile.
A drawn round is kept (``PROPOSALS_KEPT``) under everything it was drawn from, so the proposal's page
shown again, each swap and the confirmation of a proposal by its seed take it from there.
Confirming stores the round and its tables and starts each table's match with its
seats in the drawn order, the first seat declaring or dealing first (``start_tables``, which the round
being played also uses for a new table: club/playing.py). Every seated phone can enter
hands: a table's edit key is made from the app's secret and the match, so the page that seats a
player can hand it over without any key being stored.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import random
import secrets
import threading
from collections import Counter
from collections.abc import Sequence
from datetime import date
from typing import Any, NamedTuple

from flask import current_app
from sqlalchemy import bindparam, func, select, update
from sqlalchemy.exc import IntegrityError

from .. import links, serving
from ..db import db
from ..games import GAMES
from ..games.base import N_
from ..kept import Kept
from ..match import matches
from ..models import Club, ClubPlayer, ClubResult, Evening, EveningRound, EveningTable, Hand, Match, Season
from ..refusals import refuse
from ..render_slots import off_the_hub
from . import evenings, service
from .engine import seating
from .results import in_season, last_write, pin_to_evenings, resolver

SEED_BITS = 31  # seeds fit a signed 32-bit integer in every client


class Seat(NamedTuple):
    """Where a player sits in the evening's latest round."""

    round: int  # its number
    table: int  # 1-based
    seat: int  # 1-based, in the match's seat order
    match: Match | None
    first: str  # the name of who declares or deals first


class TableState(NamedTuple):
    """One table of a round as the pages show it: its seats, its match and how far it got."""

    table: EveningTable
    match: Match | None
    names: list[str]  # in seat order, the roster's names now
    hands: int
    finished: bool
    left: str | None = None  # the table ended when this player left (EveningTable.ended)
    by: str | None = None  # who took their seat at a new table, if anyone


@functools.cache
def first_seat_option(slug: str) -> str | None:
    """The option of a game that names who plays first (first_declarer, first_dealer), None if it has none."""
    game = GAMES[slug]
    parsed = game.parse_options([str(seat) for seat in range(1, game.min_players + 1)], {}, random.Random(0))
    return next((name for name in sorted(service.SEAT_OPTIONS) if name in parsed), None)


def season_holding(club: Club, day: date) -> Season | None:
    """The club's season that holds this day (the latest starting when seasons overlap), None for none."""
    return db.session.scalar(select(Season).where(Season.club_id == club.id, Season.starts <= day, Season.ends >= day)
                             .order_by(Season.starts.desc(), Season.id.desc()).limit(1))


PASTS_KEPT = 8  # seasons' pasts kept between the rounds of their evenings: a few clubs drawing at once
READ_BATCH = 1000  # matches of a season's past read between two breaths of the worker (serving.breathe)
Meetings = tuple[dict[seating.Pair, int], dict[seating.Pair, int]]
_pasts: Kept[tuple[object, ...], Meetings] = Kept(PASTS_KEPT)  # past_meetings, under what they were read from


def season_history(club: Club, day: date, evening: Evening | None = None) -> seating.History:
    """Who met, partnered and sat out in the club's matches of the season holding this day (all time without
    one), finished or not, merged players counted as the one kept; with the rounds of this evening however dated.

    The meetings of the days before are kept between the rounds of an evening (``past_meetings``): a round
    drawn after another reads the day's matches and this evening's tables, not the whole season again.
    """
    season = season_holding(club, day)
    now = {player: kept for player, kept in resolver(club).items() if player != kept}
    tonight = [(made, tables) for made, tables in rounds_of(evening)] if evening is not None else []
    tabled = {match.id: (match.game, match.seat_ids) for _made, tables in tonight for _table, match in tables
              if match is not None and match.seat_ids}
    seats_of = in_season(select(Match.id, Match.game, Match.seat_ids).join(ClubResult, ClubResult.match_id == Match.id)
                         .where(ClubResult.club_id == club.id), season)
    rows = db.session.execute(seats_of.where(ClubResult.day >= day)).all()
    seats = {match_id: (game, ids) for match_id, game, ids in rows if ids and match_id not in tabled} | tabled
    met, partnered = past_meetings(club, season, day, now, set(tabled))
    met, partnered = dict(met), dict(partnered)
    for game, ids in seats.values():
        seating.add_table(met, partnered, game, [now.get(seat, seat) for seat in ids])
    rounds = select(EveningRound.id, EveningRound.sat_out).join(Evening, Evening.id == EveningRound.evening_id) \
        .where(Evening.club_id == club.id)
    if season is not None:
        rounds = rounds.where(Evening.day >= season.starts, Evening.day <= season.ends)
    sat = dict(db.session.execute(rounds).all())
    for made, _tables in tonight:
        sat[made.id] = made.sat_out
    sat_out = Counter(now.get(player, player) for out in sat.values() for player in out or [])
    return seating.History(met, partnered, dict(sat_out))


def past_meetings(club: Club, season: Season | None, day: date, now: dict[int, int], tonight: set[int]
                  ) -> tuple[dict[seating.Pair, int], dict[seating.Pair, int]]:
    """Meetings and partners in the season's club matches of the days before (not tables of tonight), seated as
    now: kept while the same matches stand there (their number and ids), so only a change to them reads again.
    The counts are shared: copy them to change them. The rows are read here, the worker breathing between
    batches; counting them (a season of thousands of matches) runs off the gevent hub, as the draw does."""
    past = in_season(select(Match.id, Match.game, Match.seat_ids).join(ClubResult, ClubResult.match_id == Match.id)
                     .where(ClubResult.club_id == club.id, ClubResult.day < day), season)
    if tonight:
        past = past.where(Match.id.not_in(tonight))
    counted = past.with_only_columns(func.count(Match.id), func.coalesce(func.sum(Match.id), 0))
    key = (club.public_id, None if season is None else season.id, day, tuple(sorted(now.items())),
           tuple(db.session.execute(counted).one()))
    found = _pasts.get(key)
    if found is not None:
        return found
    rows = []
    for read, (_match, game, ids) in enumerate(db.session.execute(past), 1):
        if ids:
            rows.append((game, ids))
        if read % READ_BATCH == 0:
            serving.breathe()  # a first read of a big season: the worker's other phones in between
    met, partnered = off_the_hub(lambda: meetings_of(rows, now)) if rows else ({}, {})
    _pasts.put(key, (met, partnered))
    return met, partnered


def meetings_of(tables: Sequence[tuple[str, Sequence[int]]], now: dict[int, int]
                ) -> tuple[dict[seating.Pair, int], dict[seating.Pair, int]]:
    """The meetings and partners of these tables (game, seat ids), seated as now."""
    met: dict[seating.Pair, int] = {}
    partnered: dict[seating.Pair, int] = {}
    for game, ids in tables:
        seating.add_table(met, partnered, game, [now.get(seat, seat) for seat in ids])
    return met, partnered


def present(club: Club, evening: Evening) -> list[int]:
    """The live players marked present, in the order evenings gives them (merged ones as the one kept)."""
    now = resolver(club)
    return list(dict.fromkeys(now.get(player, player) for player in evenings.present_ids(evening)))


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


PROPOSALS_KEPT = 32  # drawn rounds kept per process: a few admins drawing, swapping and redrawing at once
_proposals: Kept[tuple[object, ...], seating.Round] = Kept(PROPOSALS_KEPT)  # drawn rounds, under proposal_key
# One draw at a time per process: another waits its turn (cooperatively in a gevent worker), so two admins
# redrawing at once never take two of the worker's turns at the interpreter from its other requests.
_drawing = threading.BoundedSemaphore(1)
_CLUBS = Club.__table__.c
_STAMP = select(_CLUBS.version, *last_write(_CLUBS.id)).where(_CLUBS.id == bindparam("club"))


def propose(club: Club, evening: Evening, game: str | Sequence[str], seed: int | None = None, more: bool = False
            ) -> tuple[int, seating.Round]:
    """The next round drawn for the players present: (seed, round); a fresh seed when none is given.

    more: new tables for the latest round instead, from the players present and not at one of its tables
    still playing (seating.draw's playing, kept as they are); the round holds only the new tables.
    Kept under its inputs (``proposal_key``): asked again with the same seed, it is not searched again.
    The search runs off the gevent hub, one at a time per process.
    """
    _own(club, evening)
    seed = new_seed() if seed is None else seed
    done = rounds_of(evening)
    tonight = [seating.Round(tuple(seating.Table(table.game, tuple(table.seat_ids)) for table, _match in tables),
                             tuple(made.sat_out)) for made, tables in done]
    playing = tuple(seating.Table(table.game, tuple(table.seat_ids)) for table, _match in done[-1][1]
                    if table.ended is None) if more and done else ()
    if more and not done:
        raise refuse("round", N_("Draw the first round first."))
    here, games = present(club, evening), _games(game)
    key = proposal_key(club, evening, games, seed, here, tonight) + (playing,)
    kept = _kept(key)
    if kept is not None:
        return seed, kept
    history = season_history(club, evening.day, evening)
    with _drawing:
        kept = _kept(key)  # drawn by a request that held the turn before this one (a second tap)
        if kept is None:
            drawn = off_the_hub(lambda: seating.draw(here, games, history, seed, tonight, playing=playing))
            kept = _proposals.put(key, seating.Round(drawn.tables[len(playing):], drawn.sat_out))
    return seed, kept


def proposal_key(club: Club, evening: Evening, games: str | list[str], seed: int, here: Sequence[int],
                 tonight: Sequence[seating.Round]) -> tuple[object, ...]:
    """Everything a proposal is drawn from: the club (its id, and its version and last write as the database
    holds them now: any change to its roster, seasons, evenings or matches), the evening and its day, who is
    present, tonight's rounds, the games and the seed."""
    version, changed, count = db.session.execute(_STAMP, {"club": club.id}).one()
    return (club.public_id, int(version), int(changed), int(count), evening.id, evening.day, tuple(here),
            tuple(tonight), games if isinstance(games, str) else tuple(games), seed)


def _kept(key: tuple[object, ...]) -> seating.Round | None:
    return _proposals.get(key)


def _games(game: Any) -> str | list[str]:
    """A game for every table, or one per table, each one of the games."""
    listed = game if isinstance(game, (list, tuple)) else [game]
    if not listed or not all(isinstance(slug, str) and slug in GAMES for slug in listed):
        raise refuse("game", N_("Choose one of the games: {games}."), games=", ".join(GAMES))
    return listed[0] if isinstance(game, str) else list(listed)


def _own(club: Club, evening: Evening) -> None:
    if evening.club_id != club.id:
        raise matches.NotFound()


def checked(club: Club, evening: Evening, tables: Any) -> seating.Round:
    """A round given as its tables ([{game, seats}] or Table records): every seat a player present, none twice,
    each game's number of players; who is present and not seated sits out."""
    here = present(club, evening)
    if not isinstance(tables, (list, tuple)) or not tables:
        raise refuse("tables", N_("Give the round's tables."))
    made, seated = [], set()
    for number, table in enumerate(tables, 1):
        slug, seats = (table.get("game"), table.get("seats")) if isinstance(table, dict) else (table.game, table.seats)
        slug = _games(slug)
        if not isinstance(seats, (list, tuple)) or not all(isinstance(seat, int) and not isinstance(seat, bool)
                                                           for seat in seats):
            raise refuse(f"tables.{number}", N_("Give each table's seats as player ids."))
        low, high = GAMES[slug].min_players, GAMES[slug].max_players
        if not low <= len(seats) <= high:
            raise refuse(f"tables.{number}", N_("A table of {game} seats {low} to {high} players."),
                         game=GAMES[slug].title, low=low, high=high)
        for seat in seats:
            if seat not in here:
                raise refuse(f"tables.{number}", N_("Only players present can be seated."))
            if seat in seated:
                raise refuse(f"tables.{number}", N_("A player is seated at two tables."))
            seated.add(seat)
        made.append(seating.Table(slug, tuple(seats)))
    return seating.Round(tuple(made), tuple(player for player in here if player not in seated))


def swapped(drawn: seating.Round, swaps: Sequence[tuple[int, int]]) -> seating.Round:
    """The round after these swaps, in order."""
    for a, b in swaps:
        drawn = seating.swap(drawn, a, b)
    return drawn


def next_number(evening: Evening) -> int:
    """The number the evening's next round takes."""
    return 1 + (db.session.scalar(select(func.max(EveningRound.number)).where(EveningRound.evening_id == evening.id))
                or 0)


ALREADY = N_("This round is already confirmed, perhaps from another phone; look at the evening again.")


def confirm(club: Club, evening: Evening, drawn: seating.Round, seed: int, number: int | None = None
            ) -> EveningRound:
    """Store the round and start one club match per table, seats in the drawn order and the first seat first.

    number: the round the proposal was drawn for; a round of that number already confirmed is a Conflict.
    All or nothing: the matches, the round, its tables and their keys are written in one transaction, so a
    failure or a server killed halfway leaves no match outside a round, and confirming again starts afresh.
    """
    _own(club, evening)
    if evening.closed_at is not None:
        raise refuse("evening", N_("This evening is closed: no more rounds can be drawn."))
    drawn = checked(club, evening, list(drawn.tables))
    number = next_number(evening) if number is None else number
    if number != next_number(evening):
        raise matches.Conflict(ALREADY)
    try:
        made = EveningRound(evening_id=evening.id, number=number, sat_out=list(drawn.sat_out), seed=seed)
        db.session.add(made)
        db.session.flush()
        started = start_tables(club, made, drawn.tables, 1)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise matches.Conflict(ALREADY) from None
    except BaseException:
        db.session.rollback()
        raise
    for match in started:
        db.session.refresh(match)
    return made


def start_tables(club: Club, made: EveningRound, tables: Sequence[seating.Table], first: int) -> list[Match]:
    """Start one club match per table, seats in order and the first seat first, and add the tables to the round
    (numbered from first), each match's edit key the table's; in the caller's transaction, which commits."""
    names = {player.id: player.name for player in service.roster(club)}
    started: list[Match] = []
    for at, table in enumerate(tables, first):
        seated = [names[seat] for seat in table.seats]
        option = first_seat_option(table.game)
        match, _key = service.start_match(club, table.game, seated, {option: seated[0]} if option else None,
                                          started_by="admin", commit=False)
        db.session.add(EveningTable(round_id=made.id, number=at, game=table.game, seat_ids=list(table.seats),
                                    match_id=match.id))
        db.session.execute(update(Match).where(Match.id == match.id)
                           .values(edit_key_hash=links.hash_key(seat_key(match)))
                           .execution_options(synchronize_session=False))
        started.append(match)
    pin_to_evenings(club.id, [match.id for match in started])  # the evening's matches, whatever the clock says
    db.session.flush()
    return started


def seat_key(match: Match) -> str:
    """The edit key of a table's match: made from the app's secret and the match, the same on every server."""
    secret = current_app.secret_key
    secret = secret.encode() if isinstance(secret, str) else bytes(secret or b"")
    made = hmac.new(secret, b"evening-table\0" + match.public_id.encode(), hashlib.sha256).digest()[:links.KEY_BYTES]
    return base64.urlsafe_b64encode(made).decode().rstrip("=")


def rounds_of(evening: Evening) -> list[tuple[EveningRound, list[tuple[EveningTable, Match | None]]]]:
    """The evening's confirmed rounds in order, each with its tables in order and their matches."""
    played = list(db.session.scalars(select(EveningRound).where(EveningRound.evening_id == evening.id)
                                     .order_by(EveningRound.number)))
    if not played:
        return []
    tables = list(db.session.scalars(select(EveningTable).where(EveningTable.round_id.in_([r.id for r in played]))
                                     .order_by(EveningTable.round_id, EveningTable.number)))
    ids = [table.match_id for table in tables if table.match_id is not None]
    found = {match.id: match for match in db.session.scalars(select(Match).where(Match.id.in_(ids)))} if ids else {}
    return [(made, [(table, found.get(table.match_id)) for table in tables if table.round_id == made.id])
            for made in played]


def latest(evening: Evening) -> tuple[EveningRound, list[tuple[EveningTable, Match | None]]] | None:
    """The evening's latest round and its tables, None before the first."""
    done = rounds_of(evening)
    return done[-1] if done else None


def first_of(match: Match | None, names: list[str]) -> str:
    """Who declares or deals first at a table: its match's option, else the first seat."""
    option = first_seat_option(match.game) if match is not None else None
    return str(match.options.get(option, names[0])) if match is not None and option else names[0]


def seat_of(evening: Evening, player_id: int) -> Seat | None:
    """Where a player sits in the evening's latest round; None before the first round or when sitting out."""
    found = latest(evening)
    if found is None:
        return None
    made, tables = found
    for table, match in tables:
        if player_id in table.seat_ids and table.ended is None:
            seated = list(match.players) if match is not None else []
            return Seat(made.number, table.number, table.seat_ids.index(player_id) + 1, match,
                        first_of(match, seated) if seated else "")
    return None


def table_states(club: Club, tables: list[tuple[EveningTable, Match | None]]) -> list[TableState]:
    """The tables of a round with their names now, hands played and whether their match is finished."""
    names = {player.id: player.name for player in db.session.scalars(
        select(ClubPlayer).where(ClubPlayer.club_id == club.id))}
    now = resolver(club)
    ids = [match.id for _table, match in tables if match is not None]
    hands = dict(db.session.execute(select(Hand.match_id, func.count()).where(Hand.match_id.in_(ids))
                                    .group_by(Hand.match_id)).all()) if ids else {}
    done = service.finished_among(club, [match for _table, match in tables if match is not None])
    return [TableState(table, match, [names.get(now.get(seat, seat), "?") for seat in table.seat_ids],
                       int(hands.get(match.id, 0)) if match else 0, bool(match and match.id in done),
                       *ended_names(table, names, now))
            for table, match in tables]


def ended_names(table: EveningTable, names: dict[int, str], now: dict[int, int]) -> tuple[str | None, str | None]:
    """Who left the table when it ended, and who took the seat, by name; (None, None) while it plays on."""
    ended = table.ended or {}
    left, by = ended.get("left"), ended.get("by")
    return (names.get(now.get(left, left), "?") if isinstance(left, int) else None,
            names.get(now.get(by, by), "?") if isinstance(by, int) else None)
