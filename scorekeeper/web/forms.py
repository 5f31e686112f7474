"""Forms shared by every game: the CSRF-protected base form and the new-match forms."""

from __future__ import annotations

import sys
from typing import Any

from flask import current_app, session
from flask_babel import get_locale, gettext as _, lazy_gettext as _l
from wtforms import FieldList, Form, SelectField, StringField, validators
from wtforms.csrf.session import SessionCSRF
from wtforms.fields.choices import SelectChoice
from wtforms.validators import ValidationError

from ..games import GAMES
from ..i18n import LANGUAGE_NAMES, translate
from ..refusals import Refusal

# The suits and the court cards as the table names them (notes on a hand; the entry keeps the slug).
SUIT_NAMES = {"spades": _l("♠ Spades"), "hearts": _l("♥ Hearts"), "diamonds": _l("♦ Diamonds"),
              "clubs": _l("♣ Clubs")}
RANK_LETTERS = {"J": _l("J"), "Q": _l("Q"), "K": _l("K"), "A": _l("A")}


class TableForm(Form):
    """Base form: session CSRF valid for a whole evening, WTForms messages in the player's language."""

    class Meta:
        csrf = True
        csrf_class = SessionCSRF

    def __init__(self, formdata: Any = None, **kwargs: Any):
        meta = {
            "csrf_secret": current_app.secret_key.encode() if isinstance(current_app.secret_key, str) else current_app.secret_key,
            "csrf_context": session,
            "csrf_time_limit": current_app.config["CSRF_TIME_LIMIT"],
            "locales": [str(get_locale()), "en"],
        }
        super().__init__(formdata, meta=meta, **kwargs)
        self.reasons: dict[str, str] = {}

    # Engine fields whose reason the template shows beside the field; others go in the banner.
    shown_fields: frozenset[str] = frozenset()

    def refuse(self, err: Refusal) -> None:
        """Copy an engine refusal onto the form: reasons beside their fields."""
        for name, reason in err.by_field(translate).items():
            self.reasons.setdefault(name, reason)
        if not set(self.reasons) <= self.shown_fields:
            self.form_errors.append(translate(err.reason))


class NumberRange(validators.NumberRange):
    """WTForms' range check, for a whole number of any length.

    Its own check asks whether the number is NaN through a float, which a number of 309 digits
    or more overflows; such a number is outside every range, so it gets the range's sentence.
    """

    def __call__(self, form: Any, field: Any) -> None:
        if isinstance(field.data, int) and abs(field.data) > sys.float_info.max:
            raise ValidationError(self.message or field.gettext("Number must be between %(min)s and %(max)s.")
                                  % {"min": self.min, "max": self.max})
        super().__call__(form, field)


def seat_choices(players: list[str]) -> list[SelectChoice]:
    return [SelectChoice(str(seat), name) for seat, name in enumerate(players)]


class NewMatchForm(TableForm):
    """Names in seating order; each game adds its options."""


    players = FieldList(StringField(_l("Name")), min_entries=min(game.min_players for game in GAMES.values()),
                        max_entries=max(game.max_players for game in GAMES.values()))
    # The printed sheet's language: the reader's by default, or fixed for the whole table.
    language = SelectField(
        _l("Language of the printed sheet"),
        choices=[SelectChoice("", _l("The language of whoever prints it"))]
        + [SelectChoice(code, name, render_kw={"lang": code}) for code, name in LANGUAGE_NAMES.items()],
        default="", coerce=lambda code: code or None,  # the reader's language is None, as in the API
    )

    def __init__(self, formdata: Any = None, seats: int = 0, **kwargs: Any):
        super().__init__(formdata, **kwargs)
        while len(self.players.entries) < seats:
            self.players.append_entry()

    def names(self) -> list[str]:
        return [name.strip() for name in self.players.data if name and name.strip()]

    def validate_players(self, field: FieldList) -> None:
        """Refuse an empty seat before a named one: the order of the names is the order at the table."""
        filled = [bool(name and name.strip()) for name in field.data]
        for seat, named in enumerate(filled):
            if not named and any(filled[seat + 1:]):
                later = filled.index(True, seat + 1)
                raise ValidationError(_("Seat %(empty)s has no name, but seat %(named)s has one: fill the seats "
                                        "in order round the table.", empty=seat + 1, named=later + 1))

    def options(self) -> dict[str, object]:
        return {}
