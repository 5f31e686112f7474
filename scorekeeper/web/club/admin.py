"""The admin's forms: the roster (add, rename, merge and its undoing, remove), house rules, seasons, evenings,
settings, a new admin link.

Each form posts to its own address and its admin page (sections.py) comes back (post/redirect/get); a refused
form is shown again on its page with the reason beside its field and what was typed kept, with status 422.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask import abort, flash, redirect, request, url_for
from flask_babel import gettext as _, ngettext

from ...club import evenings as club_evenings, seasons as club_seasons, service as clubs
from ...club.agreements import set_rules as set_agreement_rules
from ...games import GAMES
from ...match import matches
from ...models import Club, Season
from ...refusals import Refusal
from .. import links
from ..forms import TableForm
from . import phone as club_phone
from .forms import AgreementForm, rules_form, with_roster
from .sections import FORM_PAGE, FORMS, MENUS, SECTIONS, bp, page, posted

T = TypeVar("T")


def handled(public_id: str, name: str, form: TableForm, change: Callable[[Club], T], done: str | Callable[[T], str],
            **back: str | None) -> Any:
    """Check the form, make the change, and come back to the page (with `back` in its address); or show the page
    with the reason. `done` is the sentence the page then shows, or makes it from what the change returned."""
    club = club_phone.administered(public_id)
    where = FORM_PAGE[name]
    if name in MENUS:
        with_roster([getattr(form, menu) for menu in MENUS[name]], clubs.roster(club))
    if form.validate():
        try:
            made = change(club)
        except Refusal as err:
            form.refuse(err)
        except matches.NotFound:
            form.form_errors.append(_("That player is no longer on the roster."))
        else:
            flash(done if isinstance(done, str) else done(made))
            return redirect(url_for(SECTIONS[where].endpoint, public_id=public_id, **{"_anchor": name, **back}))
    return page(club, where, {name: form})


@bp.post("/admin/players")
def add_player(public_id: str):
    form = posted("add", request.form)
    return handled(public_id, "add", form, lambda club: clubs.add_player(club, form.name.data),
                   _("%(name)s joined the roster.", name=(form.name.data or "").strip()),
                   adding="1", _anchor=None)  # no fragment: it would keep the phone from focusing the field again


@bp.post("/admin/rename")
def rename_player(public_id: str):
    form = posted("rename", request.form)
    return handled(public_id, "rename", form,
                   lambda club: clubs.rename_player(club, int(form.player.data), form.name.data),
                   _("Renamed. Every match keeps the player's record."))


@bp.post("/admin/merge")
def merge_players(public_id: str):
    form = posted("merge", request.form)
    return handled(public_id, "merge", form,
                   lambda club: clubs.merge_players(club, int(form.keep.data), int(form.gone.data)),
                   _("Merged: one player now holds both records."))


@bp.post("/admin/unmerge")
def unmerge_player(public_id: str):
    """Undo a merge from the list of merged entries."""
    form = posted("unmerge", request.form)
    return handled(public_id, "unmerge", form, lambda club: clubs.unmerge(club, form.player.data),
                   lambda player: _("%(name)s is back on the roster with their own matches.", name=player.name))


@bp.post("/admin/remove")
def remove_player(public_id: str):
    form = posted("remove", request.form)
    return handled(public_id, "remove", form, lambda club: clubs.remove_player(club, form.player.data),
                   lambda name: _("%(name)s left the roster.", name=name))


@bp.post("/admin/ranking")
def ranking(public_id: str):
    form = posted("ranking", request.form)
    return handled(public_id, "ranking", form,
                   lambda club: clubs.set_rules(club, form.min_matches.data, club.house_rules or {}),
                   _("Saved: the standings rank players from that many matches."))


@bp.post(f"/admin/rules/<any({', '.join(GAMES)}):game>")
def house_rules(public_id: str, game: str):
    form = rules_form(game, request.form, None)
    return handled(public_id, game, form, lambda club: save_rules(club, game, form.options()),
                   _("House rules saved: new matches of %(game)s start with them.", game=_(GAMES[game].title)))


def save_rules(club: Club, game: str, options: Mapping[str, object]) -> None:
    """Keep one game's house rules; a refusal names the form's own field (house_rules.kozyol.target: target)."""
    try:
        clubs.set_rules(club, club.min_matches, {**(club.house_rules or {}), game: options})
    except Refusal as err:
        raise Refusal([(name.removeprefix(f"house_rules.{game}."), reason) for name, reason in err.errors]) from err


@bp.post("/admin/seasons")
def add_season(public_id: str):
    form = posted("season", request.form)
    return handled(public_id, "season", form,
                   lambda club: clubs.add_season(club, form.name.data, form.starts.data, form.ends.data),
                   _("Season added."))


@bp.post("/admin/time-zone")
def time_zone(public_id: str):
    form = posted("zone", request.form)
    return handled(public_id, "zone", form, lambda club: clubs.set_time_zone(club, form.time_zone.data),
                   _("Time zone saved: every match is on the evening of its day there."))


@bp.post("/admin/evenings")
def name_evening(public_id: str):
    form = posted("evening", request.form)
    return handled(public_id, "evening", form, lambda club: clubs.name_evening(club, form.day.data, form.name.data),
                   _("Evening named."))


@bp.post("/admin/planned")
def plan_evening(public_id: str):
    form = posted("plan", request.form)
    return handled(public_id, "plan", form, lambda club: club_evenings.schedule(
        club, form.day.data, form.starts_at.data or None, form.place.data, form.note.data, form.name.data,
        form.weeks.data), lambda made: ngettext("%(num)d evening planned.", "%(num)d evenings planned.", len(made)),
        _anchor="planned")


@bp.get("/admin-link")
def confirm_new_link(public_id: str):
    """Say what a new admin link does before making one."""
    return links.confirm_page(links.CLUB, public_id, club_phone.administered(public_id).name)


@bp.post("/admin-link")
def rotate_key(public_id: str):
    """Replace the admin key once confirmed: links shared before stop working; this phone keeps it."""
    club_phone.administered(public_id)
    return links.rotate(links.CLUB, public_id, lambda: clubs.rotate_key(public_id))


FORMS["agreement"] = AgreementForm


@bp.post("/admin/agreements")
def agreement_rules(public_id: str):
    """How many agreements lock a club match, and whether the next seat confirms every hand."""
    form = posted("agreement", request.form)
    return handled(public_id, "agreement", form, lambda club: set_agreement_rules(
        club, form.agree_to_lock.data, bool(form.confirm_hands.data)), _("Saved: how the club agrees to its results."))



FORMS["close"] = TableForm  # a season's close or reopen button: its token only


def season_change(public_id: str, season_id: int, change: Callable[[Club, Season], None],
                  done: Callable[[str], str]) -> Any:
    """Close or reopen one of the club's seasons; the page comes back at the seasons with the sentence, or the reason."""
    try:
        season = clubs.season_of(club_phone.administered(public_id), season_id)
    except matches.NotFound:
        season = None
    if season is None:
        abort(404)
    form = posted("close", request.form)
    form.season_id = season.id  # the season the reason is shown beside
    return handled(public_id, "close", form, lambda club: change(club, season), done(season.name), _anchor="season")


@bp.post("/admin/seasons/<int:season_id>/close")
def close_season(public_id: str, season_id: int):
    early = request.form.get("close-early") == "yes"  # the answer to "close it before its last day?"
    return season_change(public_id, season_id, lambda club, season: club_seasons.close(club, season, early),
                         lambda name: _("%(name)s is closed: its tables and champions stay as they stand now.",
                                        name=name))


@bp.post("/admin/seasons/<int:season_id>/reopen")
def reopen_season(public_id: str, season_id: int):
    return season_change(public_id, season_id, club_seasons.reopen, lambda name: _(
        "%(name)s is open again: its tables follow its matches.", name=name))
