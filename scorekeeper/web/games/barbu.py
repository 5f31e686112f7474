"""Barbu in the browser: one hand form per contract, built for thumbs, and the new-match options (the sheet: barbu_sheet)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l, ngettext
from wtforms import BooleanField, RadioField, SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Optional

from ...games import barbu
from ...games.barbu import BarbuEntry, BarbuReplay, Double
from ...games.base import N_, SUITS, Entry
from ..forms import RANK_LETTERS, SUIT_NAMES, NewMatchForm, TableForm, seat_choices
from ..rules import barbu as barbu_rules
from ..sheets.barbu import sheet_extras
from .pages import Choice, Examples, GamePages

CHOSEN = {"no_hearts": ("ace_of_hearts",), "no_last_two": ("second_last", "last"), "barbu": ("king_of_hearts",)}
PLACES = tuple(f"place_{place}" for place in barbu.PLACES)
DOUBLE_CHOICES = [SelectChoice("", "–"), SelectChoice("double", _l("Double")), SelectChoice("redouble", _l("Redouble"))]
# What the counter says: all counted, n left, n too many (the totals are the rules' own).
COUNTER_TEXTS = {
    "tricks": (lambda total: _("%(total)d tricks: all counted", total=total),
               lambda total, n: ngettext("%(total)d tricks: %(num)d left", "%(total)d tricks: %(num)d left", n,
                                         total=total),
               lambda total, n: ngettext("%(total)d tricks: %(num)d too many", "%(total)d tricks: %(num)d too many",
                                         n, total=total)),
    "queens": (lambda total: _("%(total)d queens: all counted", total=total),
               lambda total, n: ngettext("%(total)d queens: %(num)d left", "%(total)d queens: %(num)d left", n,
                                         total=total),
               lambda total, n: ngettext("%(total)d queens: %(num)d too many", "%(total)d queens: %(num)d too many",
                                         n, total=total)),
    "hearts": (lambda total: _("%(total)d hearts: all counted", total=total),
               lambda total, n: ngettext("%(total)d hearts: %(num)d left", "%(total)d hearts: %(num)d left", n,
                                         total=total),
               lambda total, n: ngettext("%(total)d hearts: %(num)d too many", "%(total)d hearts: %(num)d too many",
                                         n, total=total)),
}


def counter_texts(field: str, seats: int) -> dict[int, str]:
    """The counter's sentence for every sum the taps can make, plurals done here, not in the script.

    >>> len(counter_texts("queens", 4))  # 0 to 16 queens tapped
    17
    """
    total = barbu.COUNT_TOTALS[field]
    done, left, over = COUNTER_TEXTS[field]
    return {tapped: done(total) if tapped == total else left(total, total - tapped) if tapped < total
            else over(total, tapped - total) for tapped in range(total * seats + 1)}


def double_cells(contract: str, players: list[str], declarer: str) -> list[tuple[int, int]]:
    """The (doubler, target) seats a player may legally double in this contract."""
    return [
        (by, target)
        for by, by_name in enumerate(players)
        for target, target_name in enumerate(players)
        if by != target and by_name != declarer and (contract not in barbu.POSITIVE or target_name == declarer)
    ]


class HandForm(TableForm):
    """One contract's hand: built per contract and players by hand_form()."""

    shown_fields = frozenset({*barbu.COUNT_TOTALS, *PLACES, "ace_of_hearts", "second_last", "last",
                              "king_of_hearts", "order", "doubles"})
    players: list[str] = []
    contract = ""
    declarer = ""
    places = PLACES

    @property
    def calling_order(self) -> list[int]:
        """Seats in the order the table calls doubles: from the declarer's left, clockwise, the declarer last."""
        first = self.players.index(self.declarer) + 1
        return [(first + step) % len(self.players) for step in range(len(self.players))]

    @property
    def counted(self) -> str | None:
        """What the table counts per player in this contract (tricks, queens, hearts), if anything."""
        return barbu.COUNTED.get(self.contract)

    @property
    def count_total(self) -> int:
        return barbu.COUNT_TOTALS[self.counted] if self.counted else 0

    def counter(self) -> dict[int, str]:
        """What the counter says for each sum tapped (see counter_texts)."""
        return counter_texts(self.counted, len(self.players)) if self.counted else {}

    def entry(self) -> Entry:
        """The API-shaped entry for a validated form."""
        players, contract = self.players, self.contract
        entry = BarbuEntry(contract=contract, doubles=[])
        if self.counted:
            entry[self.counted] = {name: self[f"{self.counted}_{seat}"].data for seat, name in enumerate(players)}
        for name in CHOSEN.get(contract, ()):
            entry[name] = players[int(self[name].data)]
        if contract == "dominoes":
            entry["order"] = [players[int(self[place].data)] for place in PLACES]
        for note in ("trump_suit", "start_rank"):
            if note in self and self[note].data:
                entry[note] = self[note].data
        entry["doubles"] = [
            Double(by=players[int(by)], target=players[int(target)], redoubled=field.data == "redouble")
            for field in self
            if field.name.startswith("double_") and field.data
            for by, target in [field.name.split("_")[1:]]
        ]
        return entry


def contract_form(contract: str, players: list[str], declarer: str, formdata: Any, entry: BarbuEntry | None,
                  must: list[str]) -> HandForm:
    """Build the form for one contract, filled from an entry (editing) or the compulsory doubles."""

    class ContractForm(HandForm):
        pass

    ContractForm.players, ContractForm.contract, ContractForm.declarer = players, contract, declarer
    counted = barbu.COUNTED.get(contract)
    if counted:  # one tap per player: the template shows 0..limit as big buttons, none chosen in advance
        choices = [SelectChoice(n, str(n)) for n in range(barbu.COUNT_TOTALS[counted] + 1)]
        for seat in range(len(players)):
            setattr(ContractForm, f"{counted}_{seat}", RadioField(
                players[seat], choices=choices, coerce=int,
                validators=[InputRequired(_l("Tap a count for this player."))]))
    for name in CHOSEN.get(contract, ()):
        setattr(ContractForm, name, RadioField(name, choices=seat_choices(players), validators=[InputRequired()]))
    if contract == "dominoes":
        for place in PLACES:
            setattr(ContractForm, place, RadioField(place, choices=seat_choices(players), validators=[InputRequired()]))
        ContractForm.start_rank = RadioField(_l("Starting rank"), choices=[SelectChoice("", "–")] + [
            SelectChoice(rank, RANK_LETTERS.get(rank, rank)) for rank in barbu.RANKS], default="",
            validators=[Optional()])
    if contract == "trumps":
        ContractForm.trump_suit = RadioField(_l("Trump suit"), choices=[SelectChoice("", "–")] + [
            SelectChoice(suit, SUIT_NAMES[suit]) for suit in SUITS], default="", validators=[Optional()])
    for by, target in double_cells(contract, players, declarer):
        setattr(ContractForm, f"double_{by}_{target}",
                RadioField(choices=DOUBLE_CHOICES, default="", validators=[Optional()]))
    data = entry_to_data(entry, players) if entry else must_data(must, players, declarer)
    return ContractForm(formdata, data=data)


def must_data(must: list[str], players: list[str], declarer: str) -> dict[str, str]:
    """Pre-tick the compulsory doubles of the declarer."""
    target = players.index(declarer)
    return {f"double_{players.index(name)}_{target}": "double" for name in must}


def entry_to_data(entry: BarbuEntry, players: list[str]) -> dict[str, str | int]:
    """Form data for a stored entry (to edit a hand)."""
    seat = players.index
    data: dict[str, str | int] = {}
    for field in barbu.COUNT_TOTALS:
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


def hand_form(before: BarbuReplay, contract: str | None, formdata: Any, stored: BarbuEntry | None) -> HandForm:
    """The hand form for the contract picked; editing with another contract keeps only the doubles."""
    upcoming = before.next()
    assert upcoming is not None and contract is not None, "a hand form is built for a picked contract of a hand to come"
    if stored and stored["contract"] != contract:
        kept = {"doubles": stored["doubles"]} if contract not in barbu.POSITIVE else {}
        stored = kept or None  # type: ignore[assignment]
    return contract_form(contract, before.players, upcoming["declarer"], formdata, stored, upcoming["must_double"])


def contracts_open(before: BarbuReplay, stored: BarbuEntry | None, later: list[BarbuEntry]) -> list[str]:
    """Contracts the declarer may still name: not named before in the block, nor by a later hand of it.

    Editing, the hand's own contract stays open; the later hands are those recorded after it.
    """
    upcoming = before.next()
    left = upcoming["contracts_left"] if upcoming else []
    number = len(before.hands) + 1
    in_block = barbu.HANDS_PER_DECLARER - (number - 1) % barbu.HANDS_PER_DECLARER - 1
    taken = {entry["contract"] for entry in later[:in_block]}
    return [c for c in barbu.CONTRACTS if (c in left and c not in taken) or (stored and stored["contract"] == c)]


def contract_of(entry: BarbuEntry) -> str:
    return entry["contract"]


class MatchForm(NewMatchForm):
    shown_fields = frozenset({"players", "first_declarer", "domino_scores"})
    first_declarer = SelectField(
        _l("Who declares first"),
        choices=[SelectChoice("", _l("Draw at random"))] + [
            SelectChoice(str(s), _l("Seat %(n)s", n=s + 1)) for s in range(barbu.SEATS)],
        default="",
    )
    domino_scores = RadioField(
        _l("Dominoes scores"),
        choices=[SelectChoice(",".join(map(str, scores)), " / ".join(str(v).replace("-", "−") for v in scores))
                 for scores in barbu.DOMINO_VARIANTS],
        default=",".join(map(str, barbu.DOMINO_SCORES)),
    )
    enforce_declarer_doubles = BooleanField(_l("Refuse a hand missing a compulsory double"), default=True)

    def options(self) -> dict[str, list[int] | bool | str]:
        names = self.names()
        seat = self.first_declarer.data
        chosen = self.domino_scores.data or self.domino_scores.default
        options: dict[str, list[int] | bool | str] = {
            "domino_scores": [int(v) for v in chosen.split(",")],
            "enforce_declarer_doubles": bool(self.enforce_declarer_doubles.data),
        }
        if seat and seat.isdigit() and int(seat) < len(names):
            options["first_declarer"] = names[int(seat)]
        return options


PAGES = GamePages(
    game=barbu.GAME,
    match_form=MatchForm,
    hand_form=hand_form,  # type: ignore[arg-type]
    sheet_extras=sheet_extras,  # type: ignore[arg-type]
    choice=Choice(options=contracts_open, of=contract_of, every=barbu.CONTRACTS),  # type: ignore[arg-type]
    rules={
        "hands": barbu.HANDS, "hands_per_declarer": barbu.HANDS_PER_DECLARER, "doubles_owed": barbu.DOUBLES_OWED,
        "cards_per_hand": barbu.CARDS_PER_HAND, "contracts": barbu.CONTRACTS, "titles": barbu.CONTRACT_TITLES,
        "counted": barbu.COUNTED,
    },
    rules_page=barbu_rules.PAGE,
    standings=(("average", N_("Average")), ("total", N_("Total")), ("wins", N_("Wins"))),
    examples=Examples(
        new_match={"game": "barbu", "players": ["Ann", "Bob", "Cid", "Dee"], "options": {"first_declarer": "Cid"}},
        entry={"contract": "no_tricks", "tricks": {"Ann": 3, "Bob": 4, "Cid": 5, "Dee": 1},
               "doubles": [{"by": "Bob", "target": "Cid", "redoubled": False}]},
    ),
)
