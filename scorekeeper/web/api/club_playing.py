"""The round being played over the JSON API: new tables for latecomers and sit-outs, and a player who leaves.

As the admin's rounds page does it (club/playing.py): a proposal of new tables from the players free, the
tables playing left as they are; the new tables confirmed, by the proposal's seed and swaps or as given;
a player leaving a table, and what the table does. Every call needs the club's admin key.
"""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_babel import gettext as _

from ...club import evenings as planning, playing, rounds as club_rounds
from ...club.engine.seating import Round
from ...games.base import N_
from ...match import matches
from ...models import Evening
from ...refusals import Refusal, refuse
from ..errors import json_error
from .clubs import authorize, proposed_state, round_args, round_state
from .matches import body, conflict, invalid

bp = Blueprint("club_playing_api", __name__,
               url_prefix="/api/v1/clubs/<club_id>/planned-evenings/<int:evening_id>/rounds/<int:number>")
bp.register_error_handler(Refusal, invalid)
bp.register_error_handler(matches.Conflict, conflict)


@bp.errorhandler(matches.NotFound)
def not_found(err: matches.NotFound):  # noqa: ARG001
    return json_error(404, _("There is no such club, evening, round or table."))


def being_played(evening: Evening, number: int) -> None:
    """The round of that number must be the one being played: 404 for none, 409 once a later one is drawn."""
    made, _tables = playing.latest_round(evening)
    if number > made.number or number < 1:
        raise matches.NotFound()
    if number != made.number:
        raise matches.Conflict(club_rounds.ALREADY)


@bp.post("/tables/proposal")
def propose_tables(club_id: str, evening_id: int, number: int):
    """New tables for the round being played, from the players free; nothing is stored."""
    club = authorize(club_id)
    evening = planning.evening_of(club, evening_id)
    being_played(evening, number)
    game, seed, swaps = round_args(body())
    seed, drawn = club_rounds.propose(club, evening, game, seed, more=True)
    first = 1 + max(table.number for table, _match in club_rounds.rounds_of(evening)[-1][1])
    return jsonify(proposed_state(club, seed, number, club_rounds.swapped(drawn, swaps), first))


@bp.post("/tables")
def add_tables(club_id: str, evening_id: int, number: int):
    """Add new tables to the round being played: those given, or those of the seed and swaps; a club match each."""
    club = authorize(club_id)
    evening = planning.evening_of(club, evening_id)
    data = body()
    game, seed, swaps = round_args(data)
    if "tables" in data:
        extra = Round(club_rounds.checked(club, evening, data["tables"]).tables, ())
    else:
        if seed is None:
            raise refuse("seed", N_("Give the seed of the proposal, or its tables."))
        being_played(evening, number)
        extra = club_rounds.swapped(club_rounds.propose(club, evening, game, seed, more=True)[1], swaps)
    playing.add_tables(club, evening, extra, number)
    made, tables = club_rounds.rounds_of(evening)[-1]
    return jsonify(round_state(club, made, tables, keys=True)), 201


@bp.post("/tables/<int:table_number>/leave")
def leave(club_id: str, evening_id: int, number: int, table_number: int):
    """A player leaves a table of the round being played, and the table does what `then` says."""
    club = authorize(club_id)
    evening = planning.evening_of(club, evening_id)
    data = body()
    playing.leave(club, evening, number, table_number, data.get("player"), data.get("then"), data.get("by"))
    made, tables = club_rounds.rounds_of(evening)[-1]
    return jsonify(round_state(club, made, tables, keys=True))
