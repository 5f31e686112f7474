"""A club as one JSON document, and back again on another server: the club moves whole.

The export holds the club's settings and house rules, its roster (merges and guests included), seasons
(closed ones with their final tables), evenings (plans, answers, the door, rounds and tables), and
every club match with its hands, their OKs, its agreements and its edit history. Keys are left out
unless asked for (``keys=True``): then the hashes of the admin key, the member links and the matches'
edit keys travel too, and every link shared before works on the new server (with the same secret key,
phones' cookies too). Without them the import makes a new admin key, the members need new links, and
the matches' edit links are new (the admin's phone still changes any hand).

An import makes a new club (under the same public id when it is free here, and each match under its own),
checks every match against
its game's rules as a backup's restore does, and writes everything in one transaction: a refused or
damaged export leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import DataError, IntegrityError

from .. import links
from ..db import db
from ..games.base import N_, same_name
from ..match import matches
from ..models import (
    Agreement,
    Attendance,
    Club,
    ClubPlayer,
    Evening,
    EveningRound,
    EveningTable,
    HandChange,
    Match,
    Season,
    utcnow,
)
from ..refusals import Refusal, refuse
from . import agreements
from .places import brought
from .results import pin_to_evenings
from .rounds import season_holding

FORMAT, VERSION = "scorekeeper-club", 1


def stamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def export(club: Club, keys: bool = False) -> dict[str, Any]:
    """The whole club as a document (keys: with the hashes of its admin key, member links and edit keys)."""
    players = list(db.session.scalars(select(ClubPlayer).where(ClubPlayer.club_id == club.id).order_by(ClubPlayer.id)))
    played = list(db.session.scalars(select(Match).where(Match.club_id == club.id).order_by(Match.id)))
    evenings = list(db.session.scalars(select(Evening).where(Evening.club_id == club.id).order_by(Evening.day)))
    public = {match.id: match.public_id for match in played}
    document: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "exported_at": utcnow().isoformat(timespec="seconds"),
        "club": {"id": club.public_id, "name": club.name, "house_rules": club.house_rules,
                 "min_matches": club.min_matches, "time_zone": club.time_zone, "agree_to_lock": club.agree_to_lock,
                 "confirm_hands": club.confirm_hands, **({"admin_key_hash": club.admin_key_hash} if keys else {})},
        "players": [{"id": player.id, "name": player.name, "merged_into": player.merged_into, "guest": player.guest,
                     **({"member_key_hash": player.member_key_hash} if keys else {})} for player in players],
        "seasons": [{"name": season.name, "starts": season.starts.isoformat(), "ends": season.ends.isoformat(),
                     "closed_at": stamp(season.closed_at), "final": season.final}
                    for season in db.session.scalars(select(Season).where(Season.club_id == club.id)
                                                     .order_by(Season.starts, Season.id))],
        "evenings": [evening_of(evening, public) for evening in evenings],
        "matches": [match_of(match, keys) for match in played],
    }
    return document


def evening_of(evening: Evening, public: dict[int, str]) -> dict[str, Any]:
    rows = db.session.scalars(select(Attendance).where(Attendance.evening_id == evening.id).order_by(Attendance.id))
    made = db.session.scalars(select(EveningRound).where(EveningRound.evening_id == evening.id)
                              .order_by(EveningRound.number))
    rounds: list[dict[str, Any]] = []
    for each in made:
        tables = db.session.scalars(select(EveningTable).where(EveningTable.round_id == each.id)
                                    .order_by(EveningTable.number))
        rounds.append({"number": each.number, "sat_out": list(each.sat_out), "seed": each.seed, "at": stamp(each.at),
                       "tables": [{"number": table.number, "game": table.game, "seat_ids": list(table.seat_ids),
                                   "match": public.get(table.match_id) if table.match_id else None,
                                   "ended": table.ended}
                                  for table in tables]})
    return {"day": evening.day.isoformat(), "name": evening.name,
            "starts_at": evening.starts_at.isoformat() if evening.starts_at else None, "place": evening.place,
            "note": evening.note, "closed_at": stamp(evening.closed_at), "final": evening.final,
            "attendance": [{"player": row.player_id, "answer": row.answer, "present": row.present,
                            "absent": row.absent, "proven": row.proven} for row in rows],
            "rounds": rounds}


def match_of(match: Match, keys: bool) -> dict[str, Any]:
    history = db.session.scalars(select(HandChange).where(HandChange.match_id == match.id).order_by(HandChange.id))
    agreed = db.session.scalars(select(Agreement).where(Agreement.match_id == match.id).order_by(Agreement.id))
    return {"id": match.public_id, "game": match.game, "players": list(match.players), "options": match.options,
            "language": match.language, "created_at": stamp(match.created_at), "seat_ids": list(match.seat_ids or []),
            "started_by": match.started_by, **({"edit_key_hash": match.edit_key_hash} if keys else {}),
            "hands": [{"entry": hand.entry, "confirmed_seat": hand.confirmed_seat,
                       "confirmed_at": stamp(hand.confirmed_at)} for hand in match.hands],
            "history": [{"number": change.number, "action": change.action, "before": change.before,
                         "after": change.after, "source": change.source, "at": stamp(change.at),
                         "reason": change.reason} for change in history],
            "agreements": [{"seat": row.seat, "player": row.player_id, "at": stamp(row.at)} for row in agreed]}


# -- the import -----------------------------------------------------------------------------------------


def damaged(where: str) -> Refusal:
    return refuse("club", N_("This club export is damaged ({where}): nothing was imported."), where=where)


def when(raw: Any) -> datetime | None:
    return None if raw is None else datetime.fromisoformat(raw)


def import_club(document: Any) -> tuple[Club, str | None]:
    """Make the club of an export here; returns it and its new admin key (None: the export's key holds)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise refuse("format", N_("This is not a club exported from Scorekeeper."))
    if document.get("version") != VERSION:
        raise refuse("version", N_("This export comes from a newer version of Scorekeeper."))
    try:
        return _import(document)
    except Refusal:
        db.session.rollback()
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, IntegrityError,
            DataError) as err:
        db.session.rollback()
        raise damaged(type(err).__name__ + (f": {err}" if str(err) else "")[:120]) from err


def _import(document: dict[str, Any]) -> tuple[Club, str | None]:
    from . import service

    settings = document["club"]
    wanted = settings.get("id")
    public_id = str(wanted) if links.is_public_id(wanted) and service.find(str(wanted)) is None \
        else links.new_public_id()
    key = None if isinstance(settings.get("admin_key_hash"), str) else links.new_key()
    club = Club(public_id=public_id, name=service.title(settings["name"], "name"),
                admin_key_hash=settings["admin_key_hash"] if key is None else links.hash_key(key),
                house_rules=service.house_rules_of(settings.get("house_rules") or {}),
                min_matches=int(settings.get("min_matches", 3)), time_zone=service.zone_name(settings.get("time_zone")),
                agree_to_lock=int(settings.get("agree_to_lock", 0)), confirm_hands=bool(settings.get("confirm_hands")))
    db.session.add(club)
    db.session.flush()
    players: dict[int, ClubPlayer] = {}
    for row in document["players"]:
        name = str(row["name"])
        players[int(row["id"])] = ClubPlayer(club_id=club.id, name=name, folded=same_name(name), guest=bool(row["guest"]),
                                             member_key_hash=row.get("member_key_hash"))
    db.session.add_all(players.values())
    db.session.flush()
    for row in document["players"]:
        if row.get("merged_into") is not None:
            gone = players[int(row["id"])]
            gone.merged_into, gone.folded = players[int(row["merged_into"])].id, None
    db.session.flush()
    now: Callable[[Any], int] = lambda old: players[int(old)].id  # noqa: E731
    for row in document["seasons"]:
        db.session.add(Season(club_id=club.id, name=str(row["name"]), starts=date.fromisoformat(row["starts"]),
                              ends=date.fromisoformat(row["ends"]), closed_at=when(row.get("closed_at")),
                              final=row.get("final")))
    made = {row["id"]: import_match(club, row, now) for row in document["matches"]}
    for row in document["evenings"]:
        import_evening(club, row, now, made)
    pin_to_evenings(club.id)  # a round's matches on the evening they were drawn for, as they were
    db.session.commit()
    return club, key


def import_match(club: Club, row: dict[str, Any], now: Callable[[Any], int]) -> Match:
    wanted = row.get("id")
    kept = str(wanted) if links.is_public_id(wanted) and matches.find(str(wanted)) is None else None
    match, _key = matches.create(row["game"], row["players"], row["options"], [hand["entry"] for hand in row["hands"]],
                                 "club import", row.get("language"), club_id=club.id,
                                 seat_ids=[now(seat) for seat in row["seat_ids"]],
                                 started_by=row.get("started_by"), commit=False, created_at=when(row["created_at"]),
                                 public_id=kept)
    if isinstance(row.get("edit_key_hash"), str):
        match.edit_key_hash = row["edit_key_hash"]
    for hand, kept in zip(match.hands, row["hands"], strict=True):
        hand.confirmed_seat, hand.confirmed_at = kept.get("confirmed_seat"), when(kept.get("confirmed_at"))
    db.session.execute(delete(HandChange).where(HandChange.match_id == match.id))
    for change in row["history"]:
        db.session.add(HandChange(match_id=match.id, number=int(change["number"]), action=str(change["action"]),
                                  before=change["before"], after=change["after"], source=str(change["source"])[:40],
                                  at=when(change["at"]), reason=str(change.get("reason", ""))[:200]))
    for agreed in row["agreements"]:
        player = now(agreed["player"]) if agreed.get("player") is not None else None
        db.session.add(Agreement(match_id=match.id, seat=int(agreed["seat"]), player_id=player, at=when(agreed["at"]),
                                 phone=agreements.member_phone(club.id, player) if player is not None
                                 else links.hash_key(f"imported:{match.public_id}:{agreed['seat']}")))
    db.session.flush()
    return match


def ended_of(raw: Any, now: Callable[[Any], int]) -> dict[str, Any] | None:
    """How a table ended (club/playing.py Ended) as exported, its players those of the club imported."""
    if not isinstance(raw, dict):
        return None
    return {**raw, **{key: now(raw[key]) for key in ("left", "by") if raw.get(key) is not None}}


def import_evening(club: Club, row: dict[str, Any], now: Callable[[Any], int], made: dict[str, Match]) -> None:
    evening = Evening(club_id=club.id, day=date.fromisoformat(row["day"]), name=str(row["name"]),
                      starts_at=time.fromisoformat(row["starts_at"]) if row.get("starts_at") else None,
                      place=str(row.get("place", "")), note=str(row.get("note", "")), closed_at=when(row.get("closed_at")))
    if evening.closed_at is not None and row.get("final") is not None:  # the places it kept when it closed
        holding = season_holding(club, evening.day)
        evening.final = brought(row["final"], holding.id if holding is not None else None, now)
    db.session.add(evening)
    db.session.flush()
    for answer in row["attendance"]:
        db.session.add(Attendance(evening_id=evening.id, player_id=now(answer["player"]), answer=str(answer["answer"]),
                                  present=bool(answer["present"]), absent=bool(answer.get("absent")),
                                  proven=bool(answer.get("proven"))))
    for each in row["rounds"]:
        stored = EveningRound(evening_id=evening.id, number=int(each["number"]), seed=int(each["seed"]),
                              sat_out=[now(player) for player in each["sat_out"]], at=when(each.get("at")) or utcnow())
        db.session.add(stored)
        db.session.flush()
        for table in each["tables"]:
            match = made.get(table["match"]) if table.get("match") else None
            db.session.add(EveningTable(round_id=stored.id, number=int(table["number"]), game=str(table["game"]),
                                        seat_ids=[now(seat) for seat in table["seat_ids"]],
                                        match_id=match.id if match is not None else None,
                                        ended=ended_of(table.get("ended"), now)))
    db.session.flush()

