"""The admin's pages: a short one to run the club from (the next evening, a round to draw, every other page one
tap away), and one page per part of the club, each a screen or two long: players, members' own links, evenings,
seasons, settings and house rules.

Each form posts to its own address (admin.py) and its page comes back; a refused form is shown again on its
page with the reason beside its field and what was typed kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from flask import Blueprint, render_template, request
from flask_babel import gettext as _
from wtforms import Form

from ...club import evenings as club_evenings, service as clubs
from ...games import GAMES
from ...models import Club
from ..forms import TableForm
from . import phone as club_phone
from .forms import (
    EveningForm,
    MergeForm,
    PlanForm,
    PlayerForm,
    RankingForm,
    RemoveForm,
    RenameForm,
    SeasonForm,
    TimeZoneForm,
    UnmergeForm,
    rule_fields,
    rules_form,
    with_roster,
)

bp = Blueprint("club_admin", __name__, url_prefix="/c/<public_id>")
FORMS = {"add": PlayerForm, "rename": RenameForm, "merge": MergeForm, "unmerge": UnmergeForm, "remove": RemoveForm,
         "ranking": RankingForm, "season": SeasonForm, "evening": EveningForm, "zone": TimeZoneForm,
         "plan": PlanForm}
PLANNED_SHOWN = 30  # upcoming evenings listed on the evenings page
PLANNED_OPEN = 6  # of which the soonest are in view, the others folded away
MENUS = {"rename": ("player",), "merge": ("gone", "keep"), "remove": ("player",)}  # the forms picking from the roster


class Section(NamedTuple):
    """One admin page: its template, its endpoint, and what it shows beside the roster and the forms."""

    template: str
    endpoint: str
    shows: Callable[[Club], dict[str, Any]]


SECTIONS: dict[str, Section] = {
    "admin": Section("club/admin.html", "club_admin.admin", lambda club: {
        "next_evening": club_evenings.next_evening(club)}),
    "players": Section("club/admin/players.html", "club_admin.players_page", lambda club: {
        "merged": clubs.merged(club)}),
    "members": Section("club/admin/members.html", "club_admin.members_page", lambda club: {
        "strangers": clubs.strangers_matches(club)}),
    "evenings": Section("club/admin/evenings.html", "club_admin.evenings_page", lambda club: {
        "planned": club_evenings.planned(club, limit=PLANNED_SHOWN), "soonest": PLANNED_OPEN}),
    "seasons": Section("club/admin/seasons.html", "club_admin.seasons_page", lambda club: {
        "seasons": clubs.seasons(club)}),
    "settings": Section("club/admin/settings.html", "club_admin.settings_page", lambda club: {}),
    "rules": Section("club/admin/rules.html", "club_admin.rules_page", lambda club: {}),
}
# The page each form is on: the roster's forms on the players page, a game's house rules on the rules page.
FORM_PAGE = {"add": "players", "rename": "players", "merge": "players", "unmerge": "players", "remove": "players",
             "plan": "evenings", "evening": "evenings", "season": "seasons", "close": "seasons",
             "ranking": "settings", "zone": "settings", "agreement": "settings", **{game: "rules" for game in GAMES}}


def page(club: Club, name: str = "admin", refused: Mapping[str, Form] | None = None) -> tuple[str, int]:
    """An admin page, with the refused form (if any) as it was sent and every other form fresh."""
    roster = clubs.roster(club)
    forms = {form_name: posted(form_name, None) for form_name in FORMS}
    forms["ranking"].min_matches.data = club.min_matches
    forms["zone"].time_zone.data = club.time_zone or "UTC"
    rules = {game: rules_form(game, None, (club.house_rules or {}).get(game)) for game in GAMES}
    for form_name, form in (refused or {}).items():
        (rules if form_name in GAMES else forms)[form_name] = form
    for form_name, menus in MENUS.items():
        with_roster([getattr(forms[form_name], menu) for menu in menus], roster, _("Pick a player"))
    section = SECTIONS[name]
    shown = render_template(section.template, club=club, roster=roster, forms=forms, rules=rules,
                            rule_fields=rule_fields, games=GAMES, token_form=TableForm(),
                            adding=not roster or request.args.get("adding") == "1" or "add" in (refused or {}),
                            **section.shows(club))
    return shown, 422 if refused else 200


def posted(name: str, formdata: Any) -> Any:
    """One of the admin's forms, its fields named apart from the others' (add-name, season-name)."""
    return FORMS[name](formdata, prefix=f"{name}-")


@bp.get("/admin")
def admin(public_id: str):
    """The page to run the club from: the next evening, a round to draw, and the other admin pages."""
    return page(club_phone.administered(public_id))


@bp.get("/admin/players")
def players_page(public_id: str):
    return page(club_phone.administered(public_id), "players")


@bp.get("/admin/members")
def members_page(public_id: str):
    return page(club_phone.administered(public_id), "members")


@bp.get("/admin/evenings")
def evenings_page(public_id: str):
    return page(club_phone.administered(public_id), "evenings")


@bp.get("/admin/seasons")
def seasons_page(public_id: str):
    return page(club_phone.administered(public_id), "seasons")


@bp.get("/admin/settings")
def settings_page(public_id: str):
    return page(club_phone.administered(public_id), "settings")


@bp.get("/admin/rules")
def rules_page(public_id: str):
    return page(club_phone.administered(public_id), "rules")
