"""What this phone remembers: the matches it created or joined, and their edit keys."""

from __future__ import annotations

import secrets

from flask import abort, session

from ...match import matches
from ...models import Match
from ..errors import REPLACED, match_or_404, refused_editing
from ..headers import mark_private

REMEMBERED = 30


def remember(match: Match, key: str | None = None) -> None:
    """Put a match at the top of this phone's list; keep its edit key when given."""
    remember_id(match.public_id, key)


def remember_id(public_id: str, key: str | None = None) -> None:
    """remember() by the match's public id alone (a watcher's page view loads no match)."""
    recent = [pid for pid in session.get("matches", []) if pid != public_id]
    session["matches"] = [public_id, *recent][:REMEMBERED]
    keys = {pid: k for pid, k in session.get("keys", {}).items() if pid in session["matches"]}
    if key is not None:
        keys[public_id] = key
    session["keys"] = keys
    session.permanent = True


def holds_key(public_id: str) -> bool:
    """Whether this phone keeps a key for the match (right or not: can_edit() checks it)."""
    return public_id in session.get("keys", {})


def can_edit(match: Match) -> bool:
    return matches.key_matches(match, session.get("keys", {}).get(match.public_id))


def edit_key(match: Match) -> str | None:
    """The edit key this phone holds, for an answer that shows it (which is then never cached)."""
    if not can_edit(match):
        return None
    mark_private()
    return session["keys"][match.public_id]


def remembered() -> list[Match]:
    found = (matches.find(pid) for pid in session.get("matches", []))
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
