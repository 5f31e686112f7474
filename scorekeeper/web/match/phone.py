"""What this phone remembers of matches: those it created or joined, and their edit keys (see web/links.py)."""

from __future__ import annotations

import secrets

from flask import abort, session

from ...match import matches
from ...models import Match
from .. import links
from ..errors import REPLACED, match_or_404, refused_editing


def remember(match: Match, key: str | None = None) -> None:
    """Put a match at the top of this phone's list; keep its edit key when given."""
    links.remember(links.MATCH, match.public_id, key)


def remember_id(public_id: str) -> None:
    """remember() by the match's public id alone (a watcher's page view loads no match)."""
    links.remember(links.MATCH, public_id)


def holds_key(public_id: str) -> bool:
    """Whether this phone keeps a key for the match (right or not: can_edit() checks it)."""
    return links.holds_key(links.MATCH, public_id)


def can_edit(match: Match) -> bool:
    return links.holds_current(links.MATCH, match.public_id, match.edit_key_hash)


def edit_key(match: Match) -> str | None:
    """The edit key this phone holds, for an answer that shows it (which is then never cached)."""
    return links.current_key(links.MATCH, match.public_id, match.edit_key_hash)


def shown(match: Match) -> links.Shown:
    """The match's links as its page shows them: the edit link only to a phone that holds the key."""
    return links.Shown(links.MATCH, match.public_id, edit_key(match))


def remembered() -> list[Match]:
    found = (matches.find(pid) for pid in links.opened(links.MATCH))
    return [match for match in found if match is not None]


def editable(public_id: str) -> Match:
    """The match if this phone holds its edit key; 404 or 403 otherwise."""
    match = match_or_404(public_id)
    if not can_edit(match):
        if holds_key(public_id):  # it opened an edit link once: the key was replaced since
            refused_editing(match, REPLACED)
        abort(403)
    return match


def source() -> str:
    """How the edit history names this phone: a short random tag kept in its session."""
    if "device" not in session:
        session["device"] = secrets.token_hex(3)
    return f"phone {session['device']}"
