"""The time a club match is started at, set by a test: a round confirmed at 22:30, the next at 00:20."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import event

from scorekeeper.models import Match


@contextmanager
def matches_started_at(moment: datetime) -> Iterator[None]:
    """Every match stored inside the block is started at this moment (kept in UTC, as the app keeps its times)."""
    utc = moment.astimezone(timezone.utc)

    def started(_mapper: Any, _connection: Any, match: Match) -> None:
        match.created_at = utc

    event.listen(Match, "before_insert", started)
    try:
        yield
    finally:
        event.remove(Match, "before_insert", started)
