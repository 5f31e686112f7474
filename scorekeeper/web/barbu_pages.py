"""Barbu hand entry: one form per contract, built for thumbs, and its conversion to an entry."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l, ngettext
from wtforms import BooleanField, RadioField, SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Optional

from ..games import barbu
from ..games.base import SUITS
from .forms import RANK_LETTERS, SUIT_NAMES, NewMatchForm, TableForm, seat_choices

COUNTED = {"no_tricks": "tricks", "trumps": "tricks", "no_queens": "queens", "no_hearts": "hearts"}
COUNT_LIMITS = {"tricks": barbu.CARDS_PER_HAND, "hearts": barbu.CARDS_PER_HAND, "queens": 4}
CHOSEN = {"no_hearts": ("ace_of_hearts",), "no_last_two": ("second_last", "last"), "barbu": ("king_of_hearts",)}
PLACES = ("place_0", "place_1", "place_2", "place_3")
DOUBLE_CHOICES = [SelectChoice("", "–"), SelectChoice("double", _l("Double")), SelectChoice("redouble", _l("Redouble"))]
# What the counter says: all counted, n left, n too many (13 and 4 are the rules' totals).
COUNTER_TEXTS = {
    "tricks": (lambda: _("13 tricks: all counted"),
               lambda n: ngettext("13 tricks: %(num)d left", "13 tricks: %(num)d left", n),
               lambda n: ngettext("13 tricks: %(num)d too many", "13 tricks: %(num)d too many", n)),
    "queens": (lambda: _("4 queens: all counted"),
               lambda n: ngettext("4 queens: %(num)d left", "4 queens: %(num)d left", n),
               lambda n: ngettext("4 queens: %(num)d too many", "4 queens: %(num)d too many", n)),
    "hearts": (lambda: _("13 hearts: all counted"),
               lambda n: ngettext("13 hearts: %(num)d left", "13 hearts: %(num)d left", n),
               lambda n: ngettext("13 hearts: %(num)d too many", "13 hearts: %(num)d too many", n)),
}


def counter_texts(field: str, seats: int) -> dict[int, str]:
    """The counter's sentence for every sum the taps can make, plurals done here, not in the script.

    >>> len(counter_texts("queens", 4))  # 0 to 16 queens tapped
    17
    """
    limit = COUNT_LIMITS[field]
    done, left, over = COUNTER_TEXTS[field]
    return {total: done() if total == limit else left(limit - total) if total < limit else over(total - limit)
            for total in range(limit * seats + 1)}


def double_cells(contract: str, players: list[str], declarer: str) -> list[tuple[int, int]]:
    """The (doubler, target) seats a player may legally double in this contract."""
    return [
        (by, target)
        for by, by_name in enumerate(players)
        for target, target_name in enumerate(players)
        if by != target and by_name != declarer and (contract not in barbu.POSITIVE or target_name == declarer)
    ]


def hand_form(contract: str, players: list[str], declarer: str, formdata: Any, entry: dict[str, Any] | None,
              must: list[str]) -> TableForm:
    """Build the form for one contract, filled from an entry (editing) or the compulsory doubles."""

    field = COUNTED.get(contract)

    class HandForm(TableForm):
        shown_fields = frozenset({*COUNT_LIMITS, *PLACES, "ace_of_hearts", "second_last", "last", "king_of_hearts",
                                  "order", "doubles"})

        def counter(self) -> dict[int, str]:
            """What the counter says for each sum tapped (see counter_texts)."""
            return counter_texts(field, len(players)) if field else {}

    if field:  # one tap per player: the template shows 0..limit as big buttons
        choices = [SelectChoice(n, str(n)) for n in range(COUNT_LIMITS[field] + 1)]
        for seat in range(len(players)):
            setattr(HandForm, f"{field}_{seat}", RadioField(
                players[seat], choices=choices, coerce=int, default=0, validators=[InputRequired()]))
    for name in CHOSEN.get(contract, ()):
        setattr(HandForm, name, RadioField(name, choices=seat_choices(players), validators=[InputRequired()]))
    if contract == "dominoes":
        for place in PLACES:
            setattr(HandForm, place, RadioField(place, choices=seat_choices(players), validators=[InputRequired()]))
        setattr(HandForm, "start_rank", RadioField(_l("Starting rank"), choices=[SelectChoice("", "–")] + [
            SelectChoice(rank, RANK_LETTERS.get(rank, rank)) for rank in barbu.RANKS], default="", validators=[Optional()]))
    if contract == "trumps":
        setattr(HandForm, "trump_suit", RadioField(_l("Trump suit"), choices=[SelectChoice("", "–")] + [
            SelectChoice(suit, SUIT_NAMES[suit]) for suit in SUITS], default="", validators=[Optional()]))
    for by, target in double_cells(contract, players, declarer):
        setattr(HandForm, f"double_{by}_{target}", RadioField(choices=DOUBLE_CHOICES, default="", validators=[Optional()]))
    data = entry_to_data(entry, players) if entry else must_data(must, players, declarer)
    return HandForm(formdata, data=data)


def must_data(must: list[str], players: list[str], declarer: str) -> dict[str, Any]:
    """Pre-tick the compulsory doubles of the declarer."""
    target = players.index(declarer)
    return {f"double_{players.index(name)}_{target}": "double" for name in must}


def entry_to_data(entry: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """Form data for a stored entry (to edit a hand)."""
    seat = players.index
    data: dict[str, Any] = {}
    for field in ("tricks", "queens", "hearts"):
        for name, count in entry.get(field, {}).items():
            data[f"{field}_{seat(name)}"] = count
    for field in ("ace_of_hearts", "second_last", "last", "king_of_hearts"):
        if field in entry:
            data[field] = str(seat(entry[field]))
    for place, name in zip(PLACES, entry.get("order", [])):
        data[place] = str(seat(name))
    for note in ("trump_suit", "start_rank"):
        if note in entry:
            data[note] = entry[note]
    for double in entry.get("doubles", []):
        data[f"double_{seat(double['by'])}_{seat(double['target'])}"] = "redouble" if double["redoubled"] else "double"
    return data


def form_to_entry(form: TableForm, contract: str, players: list[str]) -> dict[str, Any]:
    """The API-shaped entry for a validated form."""
    entry: dict[str, Any] = {"contract": contract}
    field = COUNTED.get(contract)
    if field:
        entry[field] = {name: form[f"{field}_{seat}"].data for seat, name in enumerate(players)}
    for name in CHOSEN.get(contract, ()):
        entry[name] = players[int(form[name].data)]
    if contract == "dominoes":
        entry["order"] = [players[int(form[place].data)] for place in PLACES]
    for note in ("trump_suit", "start_rank"):
        if note in form and form[note].data:
            entry[note] = form[note].data
    entry["doubles"] = [
        {"by": players[int(by)], "target": players[int(target)], "redoubled": field.data == "redouble"}
        for field in form
        if field.name.startswith("double_") and field.data
        for by, target in [field.name.split("_")[1:]]
    ]
    return entry


# -- the interface every game's web module offers to the views (see web/games.py) ------

class MatchForm(NewMatchForm):
    shown_fields = frozenset({"players", "first_declarer", "domino_scores"})
    first_declarer = SelectField(
        _l("Who declares first"),
        choices=[SelectChoice("", _l("Draw at random"))] + [SelectChoice(str(s), _l("Seat %(n)s", n=s + 1)) for s in range(4)],
        default="",
    )
    domino_scores = RadioField(
        _l("Dominoes scores"),
        choices=[SelectChoice("45,20,5,-5", "45 / 20 / 5 / −5"), SelectChoice("40,25,10,-10", "40 / 25 / 10 / −10")],
        default="45,20,5,-5",
    )
    enforce_declarer_doubles = BooleanField(_l("Refuse a hand missing a compulsory double"), default=True)

    def options(self) -> dict[str, Any]:
        names = self.names()
        seat = self.first_declarer.data
        options: dict[str, Any] = {
            "domino_scores": [int(v) for v in (self.domino_scores.data or "45,20,5,-5").split(",")],
            "enforce_declarer_doubles": bool(self.enforce_declarer_doubles.data),
        }
        if seat and seat.isdigit() and int(seat) < len(names):
            options["first_declarer"] = names[int(seat)]
        return options



TEMPLATE = "hands/barbu.html"


def variants(before: Any, entry: dict[str, Any] | None) -> list[str]:
    """Contracts the declarer may still name (plus the hand's own contract when editing)."""
    left = before.next()["contracts_left"]
    return [c for c in barbu.CONTRACTS if c in left or (entry and entry["contract"] == c)]


def variant_of(entry: dict[str, Any]) -> str:
    return entry["contract"]


def build(players: list[str], before: Any, variant: str, formdata: Any, entry: dict[str, Any] | None) -> TableForm:
    upcoming = before.next()
    if entry and entry["contract"] != variant:
        entry = {k: v for k, v in entry.items() if k == "doubles" and variant not in barbu.POSITIVE}
    return hand_form(variant, players, upcoming["declarer"], formdata, entry or None, upcoming["must_double"])


def to_entry(form: TableForm, variant: str, players: list[str]) -> dict[str, Any]:
    return form_to_entry(form, variant, players)
