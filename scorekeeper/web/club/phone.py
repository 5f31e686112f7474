"""What this phone remembers of clubs: the clubs it opened, and the admin keys it holds (see web/links.py)."""

from __future__ import annotations

from typing import NoReturn

from flask import abort, url_for
from flask_babel import gettext as _

from ...club import service as clubs
from ...games.base import N_
from ...models import Club
from .. import links
from ..errors import error_page

NO_CLUB = N_("There is no such club. Check the link you were given.")
NOT_ADMIN = N_("Only phones that opened the club's admin link can change the club. Ask its organiser for it.")
STALE_ADMIN = N_("This admin link no longer works: a newer one replaced it. Ask the club's organiser for the "
                 "current one; meanwhile you can follow the club.")


def remember(club: Club, key: str | None = None) -> None:
    """Put a club at the top of this phone's list; keep its admin key when given."""
    links.remember(links.CLUB, club.public_id, key)


def remember_id(public_id: str) -> None:
    """remember() by the club's public id, for a page served without loading the club."""
    links.remember(links.CLUB, public_id)


def admin_key(club: Club) -> str | None:
    """The club's admin key if this phone holds the current one."""
    return links.current_key(links.CLUB, club.public_id, club.admin_key_hash)  # then never kept in a cache


def is_admin(club: Club) -> bool:
    return admin_key(club) is not None


def shown(club: Club) -> links.Shown:
    """The club's links as its links page shows them: the admin link only to a phone that holds the key."""
    return links.Shown(links.CLUB, club.public_id, admin_key(club))


def known() -> list[Club]:
    """The clubs this phone opened, the latest first (those since gone are skipped)."""
    found = (clubs.find(pid) for pid in links.opened(links.CLUB))
    return [club for club in found if club is not None]


def club_or_404(public_id: str) -> Club:
    """The club, or a 404 page that says so."""
    club = clubs.find(public_id)
    if club is None:
        abort(error_page(404, _(NO_CLUB)))
    return club


def refuse(club: Club, message: str) -> NoReturn:
    """Answer 403 with why, and the club's page one tap away."""
    abort(error_page(403, _(message), correct_url=url_for("clubs.club", public_id=club.public_id),
                     correct_text=_("Open the club")))


def administered(public_id: str) -> Club:
    """The club if this phone holds its admin key; a 404 or 403 page otherwise."""
    club = club_or_404(public_id)
    if not is_admin(club):
        refuse(club, STALE_ADMIN if links.holds_key(links.CLUB, club.public_id) else NOT_ADMIN)
    return club
