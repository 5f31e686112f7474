"""A club's roster: add, rename and merge players. Names are unique among live players, compared by same_name.

Renaming keeps every result (results name player ids, never names); merging two entries for one
person keeps the row of the one merged away, pointing at the one kept, so that their results count
as the kept player's (club_results.resolver).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from ..db import db
from ..games.base import N_, parse_players, same_name
from ..match import matches
from ..models import Club, ClubPlayer, Match
from ..refusals import Refusal, refuse
from .results import resolver

ID_LIMIT = 2**31  # row ids are 32-bit integers: a larger number names no row (and PostgreSQL refuses to look)


def name_of(raw: Any, field: str = "name") -> str:
    """A player's name checked as a match checks it (1-40 characters, nothing invisible), trimmed."""
    if not isinstance(raw, str):
        raise refuse(field, N_("Every player needs a name."))
    try:
        return parse_players([raw], 1, 1)[0]
    except Refusal as err:
        raise Refusal([(field, reason) for _, reason in err.errors]) from err


def roster(club: Club) -> list[ClubPlayer]:
    """The club's live players (not merged away), by name."""
    players = db.session.scalars(select(ClubPlayer).where(ClubPlayer.club_id == club.id,
                                                         ClubPlayer.merged_into.is_(None)))
    return sorted(players, key=lambda player: (same_name(player.name), player.id))


def row_id(raw: Any) -> int | None:
    """A row id given as a number or as its digits ("12"), None for anything that cannot name a row.

    >>> row_id("12"), row_id(12), row_id("-3"), row_id("٣"), row_id("9" * 5000), row_id(True), row_id(2**31)
    (12, 12, None, None, None, None, None)
    """
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) < 10:
        raw = int(raw)
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and 0 < raw < ID_LIMIT else None


def player_of(club: Club, player_id: Any) -> ClubPlayer:
    """The club's live player with this id, or matches.NotFound."""
    player = None
    if isinstance(player_id, int) and row_id(player_id) is not None:
        player = db.session.get(ClubPlayer, player_id)
    if player is None or player.club_id != club.id or player.merged_into is not None:
        raise matches.NotFound()
    return player


def _taken(club: Club, name: str, but: int | None = None) -> bool:
    found = db.session.scalar(select(ClubPlayer.id).where(ClubPlayer.club_id == club.id,
                                                          ClubPlayer.folded == same_name(name)))
    return found is not None and found != but


def _save(club: Club) -> None:
    """Commit a roster change with the club's version raised; a name taken at the same moment is refused."""
    db.session.execute(update(Club).where(Club.id == club.id).values(version=Club.version + 1))
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise refuse("name", N_("The club already has a player of that name.")) from None
    db.session.refresh(club)


def add_player(club: Club, name: Any) -> ClubPlayer:
    """Add a player to the roster; a name already there (whatever its case or accents) is refused."""
    checked = name_of(name)
    if _taken(club, checked):
        raise refuse("name", N_("The club already has a player of that name."))
    player = ClubPlayer(club_id=club.id, name=checked, folded=same_name(checked))
    db.session.add(player)
    _save(club)
    return player


def rename_player(club: Club, player_id: Any, name: Any) -> ClubPlayer:
    """Give a player a new name; every result stays theirs. Another player's name is refused."""
    player = player_of(club, player_id)
    checked = name_of(name)
    if _taken(club, checked, but=player.id):
        raise refuse("name", N_("The club already has a player of that name."))
    player.name, player.folded = checked, same_name(checked)
    _save(club)
    return player


def merge_players(club: Club, keep_id: Any, gone_id: Any) -> ClubPlayer:
    """Merge two roster entries of one person: gone's results become keep's, gone leaves the roster.

    Two players who sat at the same match are two people, and are not merged.
    """
    keep = player_of(club, keep_id)
    gone = player_of(club, gone_id)
    if keep.id == gone.id:
        raise refuse("into", N_("Choose another player to merge with."))
    now = resolver(club)
    for seats in db.session.scalars(select(Match.seat_ids).where(Match.club_id == club.id)):
        seated = {now.get(seat, seat) for seat in seats or ()}
        if keep.id not in seated or gone.id not in seated:
            continue
        raise refuse("into", N_("{a} and {b} played in the same match, so they are two people."),
                     a=keep.name, b=gone.name)
    db.session.execute(update(ClubPlayer).where(ClubPlayer.merged_into == gone.id).values(merged_into=keep.id))
    gone.merged_into, gone.folded = keep.id, None
    _save(club)
    return keep
