"""What this phone remembers of clubs: the clubs it opened, and the admin keys it holds."""

from __future__ import annotations

from typing import Any

from flask import abort, session, url_for
from flask_babel import gettext as _

from ...club import service as clubs
from ...games.base import N_
from ..errors import error_page
from ..headers import mark_private

REMEMBERED = 12
NO_CLUB = N_("There is no such club. Check the link you were given.")
NOT_ADMIN = N_("Only phones that opened the club's admin link can change the club. Ask its organiser for it.")
STALE_ADMIN = N_("This admin link no longer works: a newer one replaced it. Ask the club's organiser for the "
                 "current one; meanwhile you can follow the club.")


def remember(club: Any, key: str | None = None) -> None:
    """Put a club at the top of this phone's list; keep its admin key when given."""
    remember_id(club.public_id, key)


def remember_id(public_id: str, key: str | None = None) -> None:
    """remember() by the club's public id, for a page served without loading the club."""
    if key is None and session.get("clubs", [None])[0] == public_id:
        return  # already on top: the session is not written again, nor its cookie signed and sent
    recent = [pid for pid in session.get("clubs", []) if pid != public_id]
    session["clubs"] = [public_id, *recent][:REMEMBERED]
    keys = {pid: k for pid, k in session.get("club_keys", {}).items() if pid in session["clubs"]}
    if key is not None:
        keys[public_id] = key
    session["club_keys"] = keys
    session.permanent = True


def admin_key(club: Any) -> str | None:
    """The club's admin key if this phone holds the current one."""
    key = session.get("club_keys", {}).get(club.public_id)
    if not clubs.key_matches(club, key):
        return None
    mark_private()  # an admin's answer, never kept in a cache
    return key


def is_admin(club: Any) -> bool:
    return admin_key(club) is not None


def known() -> list[Any]:
    """The clubs this phone opened, the latest first (those since gone are skipped)."""
    found = (clubs.find(pid) for pid in session.get("clubs", []))
    return [club for club in found if club is not None]


def club_or_404(public_id: str) -> Any:
    """The club, or a 404 page that says so."""
    club = clubs.find(public_id)
    if club is None:
        abort(error_page(404, _(NO_CLUB)))
    return club


def refuse(club: Any, message: str) -> Any:
    """Answer 403 with why, and the club's page one tap away."""
    abort(error_page(403, _(message), correct_url=url_for("clubs.club", public_id=club.public_id),
                     correct_text=_("Open the club")))


def administered(public_id: str) -> Any:
    """The club if this phone holds its admin key; a 404 or 403 page otherwise."""
    club = club_or_404(public_id)
    if not is_admin(club):
        refuse(club, STALE_ADMIN if club.public_id in session.get("club_keys", {}) else NOT_ADMIN)
    return club
