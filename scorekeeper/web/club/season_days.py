"""A season's own admin page: its name and days changed, each checked, the form shown again with the reason
beside its field and what was typed kept; and whether a season is still running (its close then asks first)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ...club import service as clubs
from ...match import matches
from ...models import Club, Season
from ...refusals import Refusal
from . import phone as club_phone
from .forms import SeasonForm

bp = Blueprint("club_season_days", __name__, url_prefix="/c/<public_id>")


def season_or_404(club: Club, season_id: int) -> Season:
    """One of the club's seasons, or a 404."""
    try:
        season = clubs.season_of(club, season_id)
    except matches.NotFound:
        season = None
    if season is None:
        abort(404)
    return season


@bp.route("/admin/seasons/<int:season_id>", methods=["GET", "POST"])
def edit(public_id: str, season_id: int):
    """Change a season's name and days; a closed season keeps its days."""
    club = club_phone.administered(public_id)
    season = season_or_404(club, season_id)
    form = SeasonForm(request.form if request.method == "POST" else None, prefix="days-")
    if request.method == "GET":
        form.name.data, form.starts.data, form.ends.data = season.name, season.starts, season.ends
    elif form.validate():
        try:
            clubs.change_season(club, season, form.name.data, form.starts.data, form.ends.data)
        except Refusal as err:
            form.refuse(err)
        else:
            flash(_("%(name)s now runs from %(starts)s to %(ends)s.", name=season.name,
                    starts=season.starts.isoformat(), ends=season.ends.isoformat()))
            return redirect(url_for("club_admin.seasons_page", public_id=public_id, _anchor=f"season-{season.id}"))
    page = render_template("club/season_days.html", club=club, season=season, form=form)
    return page, 422 if request.method == "POST" else 200


@bp.app_template_global()
def season_running(club: Club, season: Season) -> bool:
    """Whether the season's last day is still to come where the club plays: closing it now closes it early."""
    return clubs.today(club) < season.ends
