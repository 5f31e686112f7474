"""Changes made to a club match after its players agreed to it: which hand, what was done, when and why.

Once a player agreed, a change from the table clears every agreement (agreements.forget), so a change
that leaves agreements standing is one the club's admin made to the locked match, with a reason. The
match keeps its lock and its agreements; the sheet, the evening's results and the API then say it was
changed after agreement, by the club's organiser, why and when (README: "Agreed, then changed").
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import NamedTuple

from sqlalchemy import func, select

from ..db import db
from ..models import Agreement, HandChange, Match


class Amendment(NamedTuple):
    """One change the club's admin made to an agreed match."""

    number: int  # the hand changed
    action: str  # "record", "correct", "undo" (as the edit history says)
    at: datetime  # in UTC, with its zone
    reason: str


def utc(at: datetime) -> datetime:
    """A stored time with its zone (SQLite hands it back without one; it is UTC)."""
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


def amendments_among(match_ids: list[int]) -> dict[int, list[Amendment]]:
    """Match row id -> the changes made since its first standing agreement, oldest first (only matches with any)."""
    if not match_ids:
        return {}
    first = {match_id: utc(at) for match_id, at in db.session.execute(
        select(Agreement.match_id, func.min(Agreement.at)).where(Agreement.match_id.in_(match_ids))
        .group_by(Agreement.match_id)) if at is not None}
    if not first:
        return {}
    out: dict[int, list[Amendment]] = {}
    for change in db.session.scalars(select(HandChange).where(HandChange.match_id.in_(list(first)))
                                     .order_by(HandChange.id)):
        if utc(change.at) > first[change.match_id]:
            out.setdefault(change.match_id, []).append(
                Amendment(change.number, change.action, utc(change.at), change.reason or ""))
    return out


def amendments(match: Match) -> list[Amendment]:
    """The changes made to the match after its players agreed to it, oldest first ([] for none)."""
    if match.club_id is None:
        return []
    return amendments_among([match.id]).get(match.id, [])
