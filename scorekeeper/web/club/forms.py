"""The club's forms: a new club, the admin's roster, rules, seasons and evenings, seats picked from the roster."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from types import SimpleNamespace
from typing import Any

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, DateField, FieldList, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Optional

from ...club.agreements import MOST_ASKED
from ...club.evenings import WEEKS
from ...club.service import TIME_ZONES, as_day
from ...games import GAMES
from ...i18n import translate
from ...models import ClubPlayer
from ...refusals import Refusal
from ..forms import NewMatchForm, NumberRange, TableForm
from ..games.registry import GAME_PAGES

# Fields of a game's new-match form that belong to one match, not to the club's house rules.
PER_MATCH = frozenset({"csrf_token", "players", "new_players", "language", "first_dealer", "first_declarer"})
MOST_MATCHES = 1000  # the highest "matches to be ranked" a club may ask for


class NewClubForm(TableForm):
    shown_fields = frozenset({"name"})
    name = StringField(_l("Name of the club"))


class PlayerForm(TableForm):
    """A name joining the roster."""

    shown_fields = frozenset({"name"})
    name = StringField(_l("New player"))


class RenameForm(TableForm):
    shown_fields = frozenset({"player", "name"})
    player = SelectField(_l("Player"), validators=[InputRequired()])
    name = StringField(_l("New name"))


class MergeForm(TableForm):
    """Two entries of the roster for one person, read as a sentence: the first (gone) becomes the second (keep)."""

    shown_fields = frozenset({"keep", "gone"})
    gone = SelectField(_l("Entry"), validators=[InputRequired()])
    keep = SelectField(_l("becomes"), validators=[InputRequired()])


class UnmergeForm(TableForm):
    """An entry merged away, back on the roster (one button per merge on the admin page)."""

    shown_fields = frozenset({"player"})
    player = StringField(validators=[InputRequired()])


class RemoveForm(TableForm):
    """An entry that never sat at a match, off the roster."""

    shown_fields = frozenset({"player"})
    player = SelectField(_l("Entry to remove"), validators=[InputRequired()])


class RankingForm(TableForm):
    shown_fields = frozenset({"min_matches"})
    min_matches = IntegerField(_l("Matches needed to be ranked"),
                               validators=[InputRequired(), NumberRange(1, MOST_MATCHES)])


class DayField(DateField):
    """A day as a date input sends it, YYYY-MM-DD exactly, read as the API reads one (strptime takes 2026-1-5)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        try:
            self.data = as_day(" ".join(valuelist), self.name)
        except Refusal as err:
            self.data = None
            raise ValueError(translate(err.reason)) from err


class SeasonForm(TableForm):
    shown_fields = frozenset({"name", "starts", "ends"})
    name = StringField(_l("Name of the season"))
    starts = DayField(_l("From"), validators=[InputRequired()])
    ends = DayField(_l("To"), validators=[InputRequired()])


class TimeZoneForm(TableForm):
    shown_fields = frozenset({"time_zone"})
    time_zone = SelectField(_l("Time zone"), validators=[InputRequired()],
                            choices=["UTC", *sorted(TIME_ZONES)])  # the IANA names, as phones give them


class EveningForm(TableForm):
    shown_fields = frozenset({"day", "name"})
    day = DayField(_l("Day"), validators=[InputRequired()])
    name = StringField(_l("Name of the evening"), validators=[Optional()])


def with_roster(choices_of: Iterable[SelectField], roster: Iterable[ClubPlayer], blank: str | None = None,
                by_name: bool = False) -> None:
    """Offer the roster in each menu (ids as values, or names), after an empty choice when blank is given."""
    offered = ([SelectChoice("", blank)] if blank is not None else []) + [
        SelectChoice(player.name if by_name else str(player.id), player.name) for player in roster]
    for menu in choices_of:
        menu.choices = offered


def rules_data(options: Mapping[str, Any] | None) -> dict[str, object]:
    """A game's stored options as its form's data (lists as the comma-joined choice the form offers).

    >>> rules_data({"domino_scores": [-50, 25], "target": 12, "eggs_double_next": True})
    {'domino_scores': '-50,25', 'target': 12, 'eggs_double_next': True}
    """
    return {name: ",".join(map(str, value)) if isinstance(value, list) else value
            for name, value in (options or {}).items() if name not in PER_MATCH}


def rule_fields(form: NewMatchForm) -> list[Any]:
    """The fields of a game's new-match form that make its house rules, in the form's order."""
    return [field for field in form if field.name.split("-", 1)[-1] not in PER_MATCH]


def rules_form(game: str, formdata: Any, options: Mapping[str, Any] | None) -> NewMatchForm:
    """The game's own options (its new-match form without names), named apart: barbu-target, hearts-target."""
    return GAME_PAGES[game].match_form(formdata, prefix=f"{game}-", data=rules_data(options))


class ClubSeats:
    """Seats picked from the roster: a menu per seat, or a new name typed beside it (which wins)."""

    def seat_names(self) -> list[str]:
        picks = [pick or "" for pick in self.players.data]  # type: ignore[attr-defined]
        typed = [(name or "").strip() for name in self.new_players.data]  # type: ignore[attr-defined]
        return [new or self.roster_names.get(pick, "") for pick, new in zip(picks, typed)]  # type: ignore[attr-defined]

    def names(self) -> list[str]:
        return [name for name in self.seat_names() if name]

    def validate_players(self, field: Any) -> None:
        """The casual form's check (seats filled in order), on the names picked or typed."""
        NewMatchForm.validate_players(self, SimpleNamespace(data=self.seat_names()))  # type: ignore[arg-type]


@functools.cache
def club_form_class(game: str) -> type[NewMatchForm]:
    """The game's new-match form with a roster menu and a new-name field per seat."""
    base, seats = GAME_PAGES[game].match_form, GAMES[game].max_players
    fields = {
        "players": FieldList(SelectField(_l("Player"), validate_choice=False), min_entries=seats, max_entries=seats),
        "new_players": FieldList(StringField(_l("or a new name")), min_entries=seats, max_entries=seats),
        "shown_fields": base.shown_fields | {"players"},
    }
    return type(f"Club{base.__name__}", (ClubSeats, base), fields)


def club_match_form(game: str, roster: list[ClubPlayer], formdata: Any, house_rules: Mapping[str, Any] | None,
                    blank: str) -> NewMatchForm:
    """A club's new-match form: seats from the roster, options from the house rules.

    Every seat's two fields are read, sent or not, so that seat n is always the n-th entry of both lists.
    """
    if formdata is not None:
        formdata = MultiDict(formdata)
        for seat in range(GAMES[game].max_players):
            formdata.setdefault(f"players-{seat}", "")
            formdata.setdefault(f"new_players-{seat}", "")
    form = club_form_class(game)(formdata, data=rules_data(house_rules))
    form.roster_names = {player.name: player.name for player in roster}  # type: ignore[attr-defined]
    with_roster(form.players, roster, blank, by_name=True)
    return form


class PlanForm(TableForm):
    """An evening planned ahead: its day, start, place and note, and how many weeks it repeats."""

    shown_fields = frozenset({"day", "starts_at", "place", "note", "name", "weeks"})
    day = DayField(_l("Day"), validators=[InputRequired()])
    starts_at = StringField(_l("Starts at"), validators=[Optional()])
    place = StringField(_l("Venue"), validators=[Optional()])
    note = TextAreaField(_l("Note"), validators=[Optional()], render_kw={"rows": 3, "cols": 30})
    name = StringField(_l("Name of the evening"), validators=[Optional()])
    weeks = IntegerField(_l("Repeat weekly for this many weeks"), default=1,
                         validators=[InputRequired(), NumberRange(*WEEKS)])


class PlanEditForm(PlanForm):
    """A planned evening changed: every part of the plan but the weekly repeat."""

    weeks = None  # type: ignore[assignment]


class MeForm(TableForm):
    """Who this phone is at the club: one player of the roster."""

    shown_fields = frozenset({"player"})
    player = SelectField(_l("Who are you?"), validators=[InputRequired()])


class AnswerForm(TableForm):
    """A member's answer for an evening: in or out."""

    shown_fields = frozenset({"coming"})
    coming = SelectField(choices=[SelectChoice("in", "in"), SelectChoice("out", "out")], validators=[InputRequired()])


class PresentForm(TableForm):
    """One tap at the door: a player marked here (1), or not here (0)."""

    shown_fields = frozenset({"player", "present"})
    player = StringField(validators=[InputRequired()])
    present = SelectField(choices=[SelectChoice("1", "1"), SelectChoice("0", "0")], validators=[InputRequired()])


class AgreementForm(TableForm):
    """How many players' "Agreed" lock a club match (0: none asked), and whether the next seat confirms every hand."""

    shown_fields = frozenset({"agree_to_lock", "confirm_hands"})
    agree_to_lock = IntegerField(_l("Agreements to lock a match"),
                                 validators=[InputRequired(), NumberRange(0, MOST_ASKED)])
    confirm_hands = BooleanField(_l("Confirm every hand (tournament nights)"))
