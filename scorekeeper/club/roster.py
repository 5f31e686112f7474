"""A club's roster: add, rename, merge and remove players. Names are unique among live players, compared by same_name.

Renaming keeps every result (results name player ids, never names); merging two entries for one
person keeps the row of the one merged away, pointing at the one kept, so that their results count
as the kept player's (club_results.resolver, which follows a chain of merges). So a merge can be
undone: the row merged away comes back with its own matches, and the entries once merged into it
come back with it. Only an entry without a match can be removed: a match's seats name their players.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from .. import links
from ..collation import name_key
from ..db import db
from ..games.base import N_, same_name
from ..i18n import current_language
from ..match import matches
from ..models import Club, ClubPlayer, Match
from ..names import parse_players
from ..refusals import Refusal, refuse
from .results import resolver

ID_LIMIT = 2**31  # row ids are 32-bit integers: a larger number names no row (and PostgreSQL refuses to look)


def name_of(raw: Any, field: str = "name") -> str:
    """A player's name checked and spelt as a match keeps it (names.parse_players)."""
    if not isinstance(raw, str):
        raise refuse(field, N_("Every player needs a name."))
    try:
        return parse_players([raw], 1, 1)[0]
    except Refusal as err:
        raise Refusal([(field, reason) for _, reason in err.errors]) from err


def roster(club: Club) -> list[ClubPlayer]:
    """The club's live players (not merged away), by name in the reader's language (collation.name_key)."""
    players = db.session.scalars(select(ClubPlayer).where(ClubPlayer.club_id == club.id,
                                                         ClubPlayer.merged_into.is_(None)))
    language = current_language()
    return sorted(players, key=lambda player: (name_key(player.name, language), player.id))


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
    """Add a player to the roster; a name already there (whatever its case or accents) is refused, but a guest's
    name (a stranger's match brought it) is kept: the guest becomes a member."""
    checked = name_of(name)
    guest = db.session.scalar(select(ClubPlayer).where(ClubPlayer.club_id == club.id, ClubPlayer.guest.is_(True),
                                                       ClubPlayer.folded == same_name(checked)))
    if guest is not None:
        guest.guest = False
        _save(club)
        return guest
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
    gone.merged_into, gone.folded = keep.id, None
    _save(club)
    return keep


def merged(club: Club) -> list[tuple[ClubPlayer, str]]:
    """The entries merged away (those that joined the roster last first), each with the name of who they count as now."""
    now, names = resolver(club), {player.id: player.name for player in roster(club)}
    gone = db.session.scalars(select(ClubPlayer).where(ClubPlayer.club_id == club.id,
                                                       ClubPlayer.merged_into.is_not(None))
                              .order_by(ClubPlayer.id.desc()))
    return [(player, names.get(now[player.id], "?")) for player in gone]


def unmerge(club: Club, player_id: Any) -> ClubPlayer:
    """Undo a merge: the entry merged away is back on the roster with its matches, under its own name.

    Refused while a live player has that name (one added since): renaming either one first tells them apart.
    """
    known = row_id(player_id)
    player = db.session.get(ClubPlayer, known) if known is not None else None
    if player is None or player.club_id != club.id or player.merged_into is None:
        raise matches.NotFound()
    if _taken(club, player.name):
        raise refuse("player", N_("{name} is on the roster again under that name: rename that player first."),
                     name=player.name)
    player.merged_into, player.folded = None, same_name(player.name)
    _save(club)
    return player


def matches_played(club: Club) -> Counter[int]:
    """Live player id -> the club matches they sat at, their merged entries' included (finished or not)."""
    now = resolver(club)
    counted: Counter[int] = Counter()
    for seats in db.session.scalars(select(Match.seat_ids).where(Match.club_id == club.id)):
        counted.update({now.get(seat, seat) for seat in seats or ()})
    return counted


def remove_player(club: Club, player_id: Any) -> str:
    """Take an entry that never sat at a match off the roster (a name typed by mistake); returns its name.

    An entry with matches stays: its matches name it. Entries merged into it, without matches as well, go with it.
    """
    player = player_of(club, row_id(player_id))
    if matches_played(club)[player.id]:
        raise refuse("player", N_("{name} has played at the club, and a player with matches stays on the roster: "
                                  "rename or merge them instead."), name=player.name)
    now = resolver(club)
    db.session.execute(delete(ClubPlayer).where(ClubPlayer.id.in_(
        [entry for entry, who in now.items() if who == player.id and entry != player.id])))
    db.session.delete(player)
    _save(club)
    return player.name


# -- members who prove who they are ----------------------------------------------------------------


def issue_member_key(club: Club, player_id: Any) -> tuple[ClubPlayer, str]:
    """A new member link's key for a player (the admin's): the phone that opens it is that player at the club.

    Only its hash is kept; a new one replaces the old, whose phones are that player no longer. Issuing a
    link keeps a guest as a member.
    """
    player = player_of(club, row_id(player_id))
    key = links.new_key()
    player.member_key_hash, player.guest = links.hash_key(key), False
    _save(club)
    return player, key


def member_by_key(club: Club, key: Any) -> ClubPlayer | None:
    """The club's live player whose current member key this is, or None (a key replaced since, or no key)."""
    if not isinstance(key, str) or not key or len(key) > 128:
        return None
    player = db.session.scalar(select(ClubPlayer).where(ClubPlayer.club_id == club.id,
                                                        ClubPlayer.member_key_hash == links.hash_key(key)))
    return player if player is not None and player.merged_into is None else None


def keep_guest(club: Club, player_id: Any) -> ClubPlayer:
    """The admin keeps a name a stranger's match brought: a member of the roster from now on."""
    player = player_of(club, row_id(player_id))
    player.guest = False
    _save(club)
    return player
