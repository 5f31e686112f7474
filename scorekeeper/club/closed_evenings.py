"""A closed evening's places taken again when the club's admin changes one of its matches.

Closing keeps the evening's places (places.py). Only the admin can change a match of a closed evening
(evening_results.check); when that happens, the places are taken again as the change leaves them, and
the evening's page says which match changed and when. A correction at another evening's table moves nothing.

``retake`` is a listener of every write to a match (create_app registers it after the club's result row is
written, in the same transaction). It reads the season from the database, not from the figures kept in
this process: those are kept per committed state, and this write is not committed yet.
"""

from __future__ import annotations

from flask import g, has_app_context

from ..db import db
from ..games.base import Replay
from ..models import Club, Evening, Match, Season
from . import evening_results, figures, rounds
from .engine.digest import in_order
from .places import kept, kept_of, places_of
from .results import club_of, played, resolver


def retake(match: Match, replay: Replay, first: bool = False) -> None:  # noqa: ARG001
    """After a write to a match of a closed evening (the admin's: no one else may), take its places again."""
    if first or match.club_id is None:
        return
    club = club_of(match)
    if club is None or not evening_results.has_closed_evening(club):
        return
    evening = closed_evening(match)
    if evening is None:
        return
    before = kept_of(evening)
    season = rounds.season_holding(club, evening.day) if before is None else \
        db.session.get(Season, before["season"]) if before["season"] is not None else None
    every = evening_matches(club, evening)
    finished = evening_results.finished_digests(club, every)
    names, now = figures.names(club), resolver(club)
    taken = places_of(in_order(played(club, season)), {}, evening.day, finished, names, now, club.min_matches)
    evening.final = kept(season.id if season is not None else None, club.min_matches, taken)


def closed_evening(match: Match) -> Evening | None:
    """The closed evening of the match, as the write's check found it (read again when it did not)."""
    found = g.get("closed_evenings", {}) if has_app_context() else {}
    return found[match.id] if match.id in found else evening_results.closed_evening_of(match)


def evening_matches(club: Club, evening: Evening) -> list[Match]:
    """The evening's matches: its rounds' tables and the club's other matches of its day."""
    tabled = [made for _round, tables in rounds.rounds_of(evening) for _table, made in tables if made is not None]
    ids = {made.id for made in tabled}
    return tabled + [made for made in evening_results.day_matches(club, evening) if made.id not in ids]
