"""Who a club's request counts as: a stranger (per club and address, then the club's total), or a key holder.

A club's link is public, so anyone may start its matches, print its sheets and answer its evenings. What such
a request costs counts first per club and address, then in the club's total (its matches and PDFs; an
attendance answer in its address's total, over every club): one address reaches its own limit long before
the club's, and a request it sends past that is refused before it counts anywhere.

The club's admin and its proven members are not strangers: they count in buckets of their own and in neither
of those two counts, so strangers filling the club's total, or the address a member shares with them (the
club's Wi-Fi), never refuse them. The admin (the current admin key, kept by the phone or sent as the API's
bearer) has one bucket per club, as large as the club's total: a round's tables started at once. Each proven
member (members.py: the member link kept by the phone, or the API's Club-Member-Key) has one per club, as
large as one address's: one person at one table. A key that leaks spends its own bucket and nothing else,
and the admin replaces it.

The phone's session is read only when the request comes with a cookie, and the club is loaded only when the
request comes with something that could be a key: a stranger's request costs no more than before.
"""

from __future__ import annotations

from flask import current_app, g, request
from flask_limiter.util import get_remote_address

from ...club import service as clubs
from .. import links
from ..club import members

ADMIN = "admin"


def club_of_request() -> str:
    """The club's public id in the request's path ("" for none)."""
    args = request.view_args or {}
    return str(args.get("public_id") or args.get("club_id") or "")


def holder() -> str | None:
    """Who the request is at its club: "admin", "member:<player id>", or None for a stranger (or no such club).

    Worked out once a request: every limit of the endpoint asks."""
    if "rate_limit_holder" not in g:
        g.rate_limit_holder = held_key()
    return g.rate_limit_holder


def held_key() -> str | None:
    sent = bearer_key()
    member_sent = bool(request.headers.get(members.HEADER, "").strip())
    cookie = bool(request.cookies.get(current_app.session_interface.get_cookie_name(current_app)))
    if not (sent or member_sent or cookie):
        return None
    club = clubs.find(club_of_request())
    if club is None:
        return None
    if (sent and clubs.key_matches(club, sent)) or (
            cookie and links.holds_current(links.CLUB, club.public_id, club.admin_key_hash)):
        return ADMIN
    member = members.proven(club) if member_sent or cookie else None
    return f"member:{member.id}" if member is not None else None


def bearer_key() -> str:
    """The key of an ``Authorization: Bearer`` header ("" for none)."""
    scheme, _sep, key = request.headers.get("Authorization", "").partition(" ")
    return key.strip() if scheme.lower() == "bearer" else ""


def stranger() -> bool:
    return holder() is None


def holds_key() -> bool:
    return holder() is not None


def club_and_address() -> str:
    """A stranger's count at the club: per club and address."""
    return f"club:{club_of_request()}:{get_remote_address()}"


def own_bucket() -> str:
    """A key holder's own count: the club's admin, or one member of the club."""
    return f"club:{club_of_request()}:{holder()}"


def own_limits(total: str, per_address: str) -> str:
    """The limits of a key holder's bucket: the club's total for the admin, one address's for a member."""
    return current_app.config[total if holder() == ADMIN else per_address]
