"""An evening's results over the JSON API, and its closing by the club's admin.

Reading needs only the club id; closing and reopening need the admin key as a bearer token, as the
club's other writes do. An evening is named by its id or its day (year-month-day).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, url_for
from flask_babel import gettext as _

from ...club import evening_results, service as clubs
from ...club.evening_results import ChangedAfter, Line, Placed, Results
from ...match import matches
from ...refusals import Refusal
from ..club import amendments as amendment_pages
from ..errors import json_error
from .clubs import authorize, season_state
from .matches import conflict, invalid

bp = Blueprint("evening_results_api", __name__, url_prefix="/api/v1/clubs/<club_id>/evenings/<evening_id>")
bp.register_error_handler(Refusal, invalid)
bp.register_error_handler(matches.Conflict, conflict)


@bp.errorhandler(matches.NotFound)
def not_found(err: matches.NotFound):  # noqa: ARG001
    return json_error(404, _("There is no such club or evening."))


def line_state(line: Line) -> dict[str, object]:
    match = line.match
    return {"table": line.table, "game": line.game, "players": line.names, "hands": line.hands,
            "finished": line.finished, "totals": line.totals, "winners": line.winners, "agreed": line.agreed,
            "changed_after_agreement": amendment_pages.state(line.amended),
            "match": None if match is None else {"id": match.public_id,
                                                 "url": url_for("pages.match", public_id=match.public_id)}}


def placed_state(row: Placed) -> dict[str, object]:
    return {"player": row.player, "name": row.name, "matches": row.matches, "ranked": row.ranked,
            "place": row.place, "before": row.before, "provisional": row.provisional,
            "before_provisional": row.before_provisional}


def changed_state(change: ChangedAfter) -> dict[str, object]:
    """A match of a closed evening the club's admin changed since it closed."""
    match = change.line.match
    return {"round": change.round, "table": change.line.table, "game": change.line.game,
            "match": {"id": match.public_id, "url": url_for("pages.match", public_id=match.public_id)}
            if match is not None else None, "at": change.at.isoformat(timespec="seconds")}


def results_state(club_id: str, made: Results) -> dict[str, object]:
    """An evening's results as the API gives them (the EveningResults schema)."""
    evening, closed = made.evening, evening_results.closed_at(made.evening)
    day = evening.day.isoformat()
    return {
        "evening": {"id": evening.id, "day": day, "name": evening.name,
                    "closed_at": closed.isoformat() if closed is not None else None},
        "season": season_state(made.season),
        "url": url_for("club_evening_results.page", public_id=club_id, evening=day),
        "pdf_url": url_for("club_evening_results.results_pdf", public_id=club_id, evening=day),
        "rounds": [{"number": one.number, "sat_out": one.sat_out, "tables": [line_state(line) for line in one.tables]}
                   for one in made.rounds],
        "winners": made.winners,
        "places": {slug: [placed_state(row) for row in rows] for slug, rows in made.places.items()},
        "min_matches": made.min_matches,
        "changed_after_close": [changed_state(change) for change in made.changed_after],
    }


@bp.get("/results")
def read_results(club_id: str, evening_id: str):
    """Each round's tables and their results, the evening's winners per game, the players' places after it."""
    club = clubs.must_find(club_id)
    evening = evening_results.evening_at(club, evening_id)
    return jsonify(results_state(club.public_id, evening_results.results(club, evening)))


@bp.post("/close")
def close_evening(club_id: str, evening_id: str):
    """Close the evening: its matches then change only with the club's admin key."""
    club = authorize(club_id)
    evening = evening_results.close_evening(club, evening_results.evening_at(club, evening_id))
    return jsonify(results_state(club.public_id, evening_results.results(club, evening)))


@bp.delete("/close")
def reopen_evening(club_id: str, evening_id: str):
    """Open a closed evening again."""
    club = authorize(club_id)
    evening = evening_results.reopen_evening(club, evening_results.evening_at(club, evening_id))
    return jsonify(results_state(club.public_id, evening_results.results(club, evening)))
