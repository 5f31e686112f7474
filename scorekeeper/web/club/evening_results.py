"""An evening's results in the browser and on paper: the page for anyone with the club link, its one-page PDF,
and the admin's Close and Reopen on that page.

An evening is named in the address by its id or by its day (year-month-day): the club page's list of
evenings names each by its day, including a day of matches that has no evening planned.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ...club import evening_results, evenings, service as clubs
from ...club.results import stamp, zone_info
from ...games import GAMES
from ...i18n import translate
from ...match import matches
from ...models import Club, Evening
from ...refusals import Refusal
from ...render_slots import Busy
from ..errors import error_page
from ..forms import TableForm
from ..sheets import views as sheets
from . import pages, phone as club_phone
from .amendments import when

bp = Blueprint("club_evening_results", __name__, url_prefix="/c/<public_id>")
bp.register_error_handler(Busy, sheets.busy)


def found(club: Club, ref: str) -> Evening:
    """The club's evening by id or day, or a 404 page with the club one tap away."""
    try:
        return evening_results.evening_at(club, ref)
    except matches.NotFound:
        abort(error_page(404, _("There is no such evening at this club."),
                         correct_url=url_for("clubs.club", public_id=club.public_id), correct_text=_("Open the club")))


def address(evening: Evening) -> str:
    """How the pages name an evening: its day, the same before and after it is stored."""
    return evening.day.isoformat()


@bp.get("/evenings/<evening>/results")
def page(public_id: str, evening: str):
    """The evening's tables and results, its winners and the players' places; Close or Reopen for the admin."""
    club = club_phone.club_or_404(public_id)
    if club_phone.is_admin(club):  # its forms carry this phone's own token: never a kept page
        return results_page(club, evening)
    return pages.kept(public_id, lambda kept: results_page(kept, evening))


def results_page(club: Club, ref: str) -> str:
    evening = found(club, ref)
    return render_template("club/evening_results.html", club=club, evening=evening, games=GAMES,
                           results=evening_results.results(club, evening), admin=club_phone.is_admin(club),
                           answers=evenings.answers(club, evening) if evening.id is not None else None,
                           form=TableForm(), today=clubs.today(club), ref=address(evening))


@bp.get("/evenings/<evening>/results.pdf")
def results_pdf(public_id: str, evening: str):
    """The evening's results on one A4 page; rendered once per club state and language."""
    club = club_phone.club_or_404(public_id)
    chosen = found(club, evening)
    today = clubs.today(club)

    def sheet() -> tuple[str, dict]:
        made = evening_results.results(club, chosen)
        return "sheets/evening_results.html", {"club": club, "evening": chosen, "games": GAMES, "today": today,
                                               "results": made, "columns": columns(made),
                                               "density": density(made),
                                               "place_columns": PLACE_COLUMNS.get(density(made), TWO_COLUMNS)}

    answer = sheets.printed(f"evening-{club.public_id}", ("evening", *stamp(club), chosen.day.isoformat(), today),
                            sheet)
    named = [chosen.name, chosen.day.isoformat()] if chosen.name else [chosen.day.isoformat()]
    answer.headers["Content-Disposition"] = pages.disposition([club.name, *named])
    return answer


def columns(results: evening_results.Results) -> list[list[tuple]]:
    """The printed rounds in two columns of about as many rows each: (round number, None, None) heads a round,
    (number, line, None) is a table of it, (number, None, names) says who sat out. A round may run on."""
    rows: list[tuple] = []
    for made in results.rounds:
        rows.append((made.number, None, None))
        rows.extend((made.number, line, None) for line in made.tables)
        if made.sat_out:
            rows.append((made.number, None, made.sat_out))
    half = (len(rows) + 1) // 2
    return [column for column in (rows[:half], rows[half:]) if column]


LARGE, DENSE, DENSEST = 40, 80, 160  # printed lines (tables, round heads, places) from which the type gets smaller
TWO_COLUMNS = 2  # the places' columns side by side on the sheet; more as the type gets smaller
PLACE_COLUMNS = {"dense": 3, "densest": 4}


def density(results: evening_results.Results) -> str:
    """The sheet's type size by how much it prints: a small evening large, thirty tables and forty players still on
    one page."""
    count = len(results.lines) + len(results.rounds) + sum(len(rows) for rows in results.places.values())
    return "densest" if count > DENSEST else ("dense" if count > DENSE else ("roomy" if count > LARGE else "large"))


PLAYING = "playing"  # the close form's answer to its question: "close" while tables are still playing


@bp.post("/admin/evenings/<evening>/close")
def close(public_id: str, evening: str):
    """The admin closes the evening: its results stay as they are unless the admin changes a match. With
    matches still at the table, the page first names them and asks."""
    club = club_phone.administered(public_id)
    chosen = found(club, evening)
    if request.form.get(PLAYING) != "close" and chosen.closed_at is None and TableForm(request.form).validate():
        playing = evening_results.still_playing(club, chosen)
        if playing:
            return render_template("club/evening_close.html", club=club, evening=chosen, playing=playing,
                                   form=TableForm(), ref=address(chosen), answer=PLAYING)
    return closing(public_id, evening, evening_results.close_evening,
                   _("Evening closed: its matches now change only from the club's admin."))


@bp.post("/admin/evenings/<evening>/reopen")
def reopen(public_id: str, evening: str):
    """The admin opens the evening again: its tables can change their matches once more."""
    return closing(public_id, evening, evening_results.reopen_evening, _("Evening reopened."))


def closing(public_id: str, ref: str, change, done: str):
    club = club_phone.administered(public_id)
    evening = found(club, ref)
    if not TableForm(request.form).validate():
        flash(_("The page was open too long; please try again."))
    else:
        try:
            change(club, evening)
            flash(done)
        except (Refusal, matches.Conflict) as err:
            flash(translate(err.reason))
    return redirect(url_for("club_evening_results.page", public_id=public_id, evening=address(evening)))


@bp.app_template_global()
def changed_after_close(results: evening_results.Results, club: Club) -> list[str]:
    """Each match of a closed evening its admin changed since it closed, in words: which table, and when."""
    zone = zone_info(club.time_zone)
    return [_("Round %(round)s, table %(table)s, changed on %(when)s.", round=change.round, table=change.line.table,
              when=when(change.at, zone)) if change.round is not None else
            _("%(game)s, a match of the day, changed on %(when)s.", game=translate(GAMES[change.line.game].title),
              when=when(change.at, zone)) for change in results.changed_after]
