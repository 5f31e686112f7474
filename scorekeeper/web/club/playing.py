"""The round being played, on the admin's phone: a new table for latecomers and sit-outs, and a player who leaves.

A new table is proposed as a round is (its address holds the games, the seed and the swaps), from the
players who are free; the tables playing stay as they are. When a player leaves mid-match, the table's
page asks who, and what the table does: the choices the game allows (club/playing.py).
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from wtforms import StringField

from ...club import playing, rounds
from ...club.engine import seating
from ...games import GAMES
from ...games.base import N_
from ...i18n import translate
from ...match import matches
from ...models import Club, Evening, EveningTable, Match
from ...refusals import Refusal
from ..forms import TableForm
from ..match import phone
from . import phone as club_phone
from .rounds import address, evening_of, games_of, missing, present_names, proposal_page, seed_of, swaps_of, tables_of

bp = Blueprint("club_playing", __name__, url_prefix="/c/<public_id>/admin/evenings/<int:evening_id>/rounds/<int:number>")

class LeaveForm(TableForm):
    """Who leaves a table mid-match, what the table does (playing.THEN), and who takes the seat."""

    shown_fields = frozenset({"player", "then", "by"})
    player = StringField()
    then = StringField()
    by = StringField()


@bp.get("/more")
def more(public_id: str, evening_id: int, number: int):
    """New tables for the round being played, from those who are free: a proposal, as the next round's is."""
    club = club_phone.administered(public_id)
    evening = evening_of(club, evening_id)
    found = rounds.latest(evening)
    if found is None or found[0].number != number:  # an old link: that round is no longer the one being played
        flash(translate(rounds.ALREADY))
        return redirect(url_for("club_rounds.evening_rounds", public_id=public_id, evening_id=evening_id))
    game, swaps = games_of(request.args.getlist("game")), swaps_of(request.args.getlist("swap"))
    seed = seed_of(request.args.get("seed"))
    picked = swaps_of([f"{request.args.get('a', '')}-{request.args.get('b', '')}"])
    if seed is None or picked:
        return redirect(address(public_id, evening_id, game, rounds.new_seed() if seed is None else seed,
                                swaps + picked, number))
    return proposal_page(club, evening, game, seed, swaps, seed_of(request.args.get("pick")), more=number)


@bp.post("/tables")
def add(public_id: str, evening_id: int, number: int):
    """Add the new tables as shown to the round being played: a club match each."""
    club = club_phone.administered(public_id)
    evening = evening_of(club, evening_id)
    form = TableForm(request.form)
    game, swaps = games_of(request.form.getlist("game")), swaps_of(request.form.getlist("swap"))
    seed = seed_of(request.form.get("seed")) or 0
    if form.validate():
        extra = seating.Round(tuple(seating.Table(table["game"], tuple(table["seats"]))
                                    for table in tables_of(request.form) if table["game"]), ())
        try:
            started = playing.add_tables(club, evening, extra, number)
        except Refusal as err:
            form.form_errors.append(translate(err.reason))
        except matches.Conflict as err:
            form.form_errors.append(translate(err.reason))
            return proposal_page(club, evening, game, seed, swaps, None, form, 409, more=number)
        else:
            remember(started)
            flash(_("Round %(n)s has a new table: it can start.", n=number) if len(started) == 1 else
                  _("Round %(n)s has new tables: they can start.", n=number))
            return redirect(url_for("club_rounds.evening_rounds", public_id=public_id, evening_id=evening_id))
    return proposal_page(club, evening, game, seed, swaps, None, form, 422, more=number)


def remember(started: list[Match]) -> None:
    """This phone (the admin's) holds the edit key of each match started."""
    for match in started:
        phone.remember(match, rounds.seat_key(match))


@bp.route("/tables/<int:table_number>/leave", methods=["GET", "POST"])
def leave(public_id: str, evening_id: int, number: int, table_number: int):
    """A player leaves this table mid-match: who, and what the table does."""
    club = club_phone.administered(public_id)
    evening = evening_of(club, evening_id)
    try:
        _made, table, match = playing.table_of(evening, number, table_number)
    except matches.NotFound:
        missing(club, N_("There is no such table."))
    except Refusal as err:
        flash(translate(err.reason))
        return redirect(url_for("club_rounds.evening_rounds", public_id=public_id, evening_id=evening_id))
    form = LeaveForm(request.form if request.method == "POST" else None)
    if request.method == "POST" and form.validate():
        try:
            new = playing.leave(club, evening, number, table_number, seed_of(form.player.data),
                                form.then.data, seed_of(form.by.data))
        except Refusal as err:
            form.refuse(err)
        except matches.Conflict as err:
            form.form_errors.append(translate(err.reason))
        else:
            left(evening, new)
            return redirect(url_for("club_rounds.evening_rounds", public_id=public_id, evening_id=evening_id))
    return leave_page(club, evening, number, table, match, form), 422 if request.method == "POST" else 200


def left(evening: Evening, new: EveningTable | None) -> None:
    """Say what was done; the admin's phone holds the new table's edit key."""
    if new is None:
        flash(_("The match ended here: it counts for nobody."))
        return
    found = next((match for table, match in rounds.rounds_of(evening)[-1][1] if table.id == new.id), None)
    if found is not None:
        remember([found])
    flash(_("Table %(n)s starts a new match: it can start.", n=new.number))


def leave_page(club: Club, evening: Evening, number: int, table: EveningTable, match: Match | None, form: LeaveForm
               ) -> str:
    names = present_names(club)
    return render_template("club/rounds_leave.html", club=club, evening=evening, number=number, table=table, match=match,
                           form=form, seated=[(seat, names.get(seat, "?")) for seat in table.seat_ids],
                           free=[(player, names.get(player, "?")) for player in playing.free(club, evening)],
                           choices=playing.choices(table), hands=len(match.hands) if match is not None else 0,
                           game=GAMES[table.game])
