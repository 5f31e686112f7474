"""An evening as its organiser runs it: its own page with every step of the night one tap away (the door, the
draw, the rounds, the table cards, the results, the close), the door itself, and the plan to change or delete.

Who is there: everyone who said "I'm in" and everyone marked here at the door, minus those marked not here
(club/evenings.py); the door shows each player's answer and mark, and one tap changes the mark.
"""

from __future__ import annotations

from typing import NamedTuple

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ...club import evenings, rounds, service as clubs
from ...i18n import translate
from ...match import matches
from ...models import Club, Evening
from ...refusals import Refusal
from ..forms import TableForm
from . import phone as club_phone
from .evenings import found
from .forms import PlanEditForm, PresentForm

bp = Blueprint("club_night", __name__, url_prefix="/c/<public_id>/admin/evenings/<int:evening_id>")


class Door(NamedTuple):
    """What the door list shows: who is there, who answered what, and whom the door marked here or not here."""

    evening: Evening
    here: set[int]
    coming: set[int]
    not_coming: set[int]
    marked: set[int]
    absent: set[int]


class Steps(NamedTuple):
    """The night's steps as the evening's page links them."""

    next_round: int  # the number the next round to draw takes
    drawn: bool  # a round was confirmed: its rounds and table cards are there
    closed: bool


def door_of(evening: Evening, said: evenings.Answers) -> Door:
    """The evening's door from its answers: who is there, what they said, and the door's marks."""

    def ids(players: list) -> set[int]:
        return {player.id for player in players}

    return Door(evening, ids(said.here), ids(said.coming), ids(said.not_coming), ids(said.present), ids(said.absent))


def steps_of(evening: Evening) -> Steps:
    """Where the night stands: the next round's number, whether one was drawn, whether it is closed."""
    number = rounds.next_number(evening)
    return Steps(number, number > 1, evening.closed_at is not None)


def page(club: Club, evening: Evening, form: PlanEditForm | None = None, status: int = 200) -> tuple[str, int]:
    """The evening's own admin page: the night's steps, who is there at the door, its plan to change or delete."""
    if form is None:
        form = PlanEditForm(prefix="plan-", data={
            "day": evening.day, "starts_at": evening.starts_at.strftime("%H:%M") if evening.starts_at else "",
            "place": evening.place, "note": evening.note, "name": evening.name})
    said = evenings.answers(club, evening)
    return render_template("club/evening.html", club=club, evening=evening, form=form, answers=said,
                           roster=clubs.roster(club), door=door_of(evening, said), steps=steps_of(evening),
                           token_form=PresentForm(),
                           played=evenings.played(club, evening), refused=status != 200), status


@bp.get("")
def edit(public_id: str, evening_id: int):
    club = club_phone.administered(public_id)
    return page(club, found(club, evening_id))


@bp.post("")
def change(public_id: str, evening_id: int):
    club = club_phone.administered(public_id)
    evening = found(club, evening_id)
    form = PlanEditForm(request.form, prefix="plan-")
    if form.validate():
        try:
            evenings.update(club, evening.id, day=form.day.data, starts_at=form.starts_at.data or None,
                            place=form.place.data or "", note=form.note.data or "", name=form.name.data or "")
        except Refusal as err:
            form.refuse(err)
        except matches.Conflict as err:
            form.form_errors.append(translate(err.reason))
        else:
            flash(_("Evening saved."))
            return redirect(url_for("club_night.edit", public_id=public_id, evening_id=evening.id))
    return page(club, evening, form, 422)


@bp.post("/delete")
def remove(public_id: str, evening_id: int):
    club = club_phone.administered(public_id)
    evening = found(club, evening_id)
    if TableForm(request.form).validate():
        try:
            evenings.delete(club, evening.id)
        except Refusal as err:
            flash(translate(err.reason))
            return redirect(url_for("club_night.edit", public_id=public_id, evening_id=evening.id))
        flash(_("Evening deleted."))
    return redirect(url_for("club_admin.evenings_page", public_id=public_id, _anchor="planned"))


@bp.post("/present")
def present(public_id: str, evening_id: int):
    """One tap at the door: the player is here, or not here; the door list comes back."""
    club = club_phone.administered(public_id)
    evening = found(club, evening_id)
    form = PresentForm(request.form)
    if form.validate():
        try:
            evenings.mark_present(club, evening, form.player.data, form.present.data == "1")
        except matches.NotFound:
            flash(_("That player is no longer on the roster."))
    return redirect(url_for("club_night.edit", public_id=public_id, evening_id=evening.id, _anchor="door"))
