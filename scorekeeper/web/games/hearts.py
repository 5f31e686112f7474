"""Cancellation Hearts in the browser: the new-match options, one form for a whole table, and the sheet."""

from __future__ import annotations

from typing import Any, TypedDict

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, IntegerField, RadioField, SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Optional, ValidationError

from ...games import hearts
from ...games.base import N_, Entry, InvalidHand, refuse
from ...games.hearts import HeartsEntry, HeartsReplay
from ..forms import NewMatchForm, NumberRange, TableForm
from ..rules import hearts as hearts_rules
from ..sheets.hearts import sheet_extras
from .pages import Examples, GamePages

MARIA_CHOICES = [SelectChoice(str(n)) for n in range(hearts.BLACK_MARIAS + 1)]
NOBODY = ""
NOBODY_LABEL = _l("Nobody: every row typed in")


class Tally(TypedDict):
    """What the counter and the moon choice show for the values on the form (below 0: too many entered)."""

    hearts_left: int
    marias_left: int
    rest: int | None  # the seat that took the rest, if any
    rest_hearts: int | None
    rest_marias: int | None
    shooter: int | None  # the seat that took every heart and Black Maria, if any


def posted_number(value: Any) -> int | None:
    """A posted choice (a seat, a count) as a small whole number, or None for anything else.

    >>> posted_number("3"), posted_number(""), posted_number("x")
    (3, None, None)
    """
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 3 else None


def seats_listed(value: Any) -> set[int]:
    """Seats sent as "2,5" (the rows Save asked about), ignoring anything else.

    >>> sorted(seats_listed("5,2,x")), seats_listed(None)
    ([2, 5], set())
    """
    parts = value.split(",") if isinstance(value, str) else []
    return {seat for seat in map(posted_number, parts) if seat is not None}


class HandForm(TableForm):
    """Hearts and Black Marias of every player, who took the rest, and the moon choice."""

    shown_fields = frozenset({"hearts", "black_marias", "moon", "empty", "rest"})
    players: list[str] = []
    # Save's question about rows left empty; the page's script asks it too, in the same words.
    ask_empty = N_("{names}: no hearts? Tap Save again to record none, or type the count.")
    # Save's question when the row ticked as taking the rest says other counts (sent by a page without its script).
    ask_rest = N_("{name} took the rest: {hearts} ♥ and {marias} Q♠, not the {typed} ♥ and {tapped} Q♠ on the row. "
                  "Tap Save again to record the rest, or choose “{nobody}”.")

    @property
    def seats(self) -> int:
        return len(self.players)

    def rest_seat(self) -> int | None:
        """The seat ticked as "took the rest", if any."""
        chosen = posted_number(self.rest_to.data)
        return chosen if chosen is not None and chosen < self.seats else None

    def untouched(self) -> list[int]:
        """Seats whose hearts were left empty with nobody taking the rest: Save asks about them once."""
        if self.rest_seat() is not None:
            return []
        return [seat for seat in range(self.seats) if self[f"hearts_{seat}"].data is None]

    def counts(self) -> tuple[list[int], list[int], int | None]:
        """Hearts and Black Marias by seat, with the rest filled in, and the seat that took it.

        The rest goes to the player ticked as "took the rest", whatever that row says (as the
        page's script shows it); it is what nobody else took, never below 0, so a sum that is
        already too high is reported by the rules, not hidden here. A row left empty counts none.
        """
        counted = [self[f"hearts_{seat}"].data or 0 for seat in range(self.seats)]
        marias = [posted_number(self[f"black_marias_{seat}"].data) or 0 for seat in range(self.seats)]
        rest = self.rest_seat()
        if rest is not None:
            counted[rest] = max(0, hearts.HEARTS - sum(c for seat, c in enumerate(counted) if seat != rest))
            marias[rest] = max(0, hearts.BLACK_MARIAS - sum(m for seat, m in enumerate(marias) if seat != rest))
        return counted, marias, rest

    def rest_overrides(self) -> str | None:
        """The rest as Save asks about it when its row says other counts ("seat:typed:tapped:hearts:marias"), else None.

        A row left empty or at 0, with no Black Maria tapped, says nothing of its own.
        """
        counted, marias, rest = self.counts()
        if rest is None:
            return None
        typed, tapped = self[f"hearts_{rest}"].data or 0, posted_number(self[f"black_marias_{rest}"].data) or 0
        if typed in (0, counted[rest]) and tapped in (0, marias[rest]):
            return None
        return f"{rest}:{typed}:{tapped}:{counted[rest]}:{marias[rest]}"

    def ask_about_rest(self, asked: str) -> InvalidHand:
        """Save's question about the rest replacing what its row says."""
        rest, typed, tapped, hearts_taken, marias_taken = asked.split(":")
        return refuse("rest", self.ask_rest, name=self.players[int(rest)], hearts=hearts_taken, marias=marias_taken,
                      typed=typed, tapped=tapped, nobody=str(NOBODY_LABEL))

    def tally(self) -> Tally:
        """What the counter and the moon choice show for the values on the form.

        ``hearts_left`` and ``marias_left`` go below 0 when too many were entered.
        """
        counted, marias, rest = self.counts()
        shooter = next((seat for seat in range(self.seats)
                        if counted[seat] == hearts.HEARTS and marias[seat] == hearts.BLACK_MARIAS), None)
        return Tally(hearts_left=hearts.HEARTS - sum(counted), marias_left=hearts.BLACK_MARIAS - sum(marias),
                     rest=rest, rest_hearts=None if rest is None else counted[rest],
                     rest_marias=None if rest is None else marias[rest], shooter=shooter)

    def entry(self) -> Entry:
        """The API-shaped entry for a validated form, the rest filled in.

        The row ticked as "took the rest" gets the rest; when it says other counts (typed on a page
        without its script), Save asks once (the question comes back in ``rest_ok``). A row left empty
        that nothing covers (no "took the rest", no count typed) is most often a player forgotten: once
        the hand is otherwise legal, Save asks about it once (the rows asked come back in ``empty_ok``),
        and records none when sent again unchanged.
        """
        counted, marias, _rest = self.counts()
        entry = HeartsEntry(hearts=dict(zip(self.players, counted)), black_marias=dict(zip(self.players, marias)))
        if self.moon.data:
            entry["moon"] = self.moon.data
        hearts.parse_entry(entry, self.players)  # the rules' own refusals come before the questions
        overridden = self.rest_overrides()
        if overridden and overridden != self.rest_ok.data:
            raise self.ask_about_rest(overridden)
        asked = self.untouched()
        if asked and not set(asked) <= seats_listed(self.empty_ok.data):
            raise refuse("empty", self.ask_empty, names=", ".join(self.players[seat] for seat in asked))
        return entry


def hand_form(before: HeartsReplay, choice: None, formdata: Any, stored: HeartsEntry | None) -> HandForm:
    """Build the hand form for the match's players, filled from a stored entry when editing."""
    players, moon_points = before.players, before.options["moon_points"]

    class Form(HandForm):
        empty_ok = HiddenField(validators=[Optional()])
        rest_ok = HiddenField(validators=[Optional()])
        rest_to = RadioField(
            _l("Who took the rest"), choices=[SelectChoice(NOBODY, NOBODY_LABEL)] + [
                SelectChoice(str(seat), _l("Took the rest")) for seat in range(len(players))],
            default=NOBODY, validators=[Optional()])
        moon = RadioField(_l("Moon"), choices=[
            SelectChoice("subtract", _l("Subtract %(points)s from the shooter", points=moon_points)),
            SelectChoice("add", _l("Add %(points)s to everyone else", points=moon_points)),
        ], validators=[Optional()])

    Form.players = players
    for seat, name in enumerate(players):
        setattr(Form, f"hearts_{seat}", IntegerField(
            name, validators=[Optional(), NumberRange(0, hearts.HEARTS)]))
        setattr(Form, f"black_marias_{seat}", RadioField(
            name, choices=MARIA_CHOICES, default="0"))
    return Form(formdata, data=entry_to_data(stored, players) if stored else None)


def entry_to_data(entry: HeartsEntry, players: list[str]) -> dict[str, str | int | None]:
    """Form data for a stored entry (to edit a hand)."""
    data: dict[str, str | int | None] = {"moon": entry.get("moon")}
    for seat, name in enumerate(players):
        data[f"hearts_{seat}"] = entry["hearts"][name]
        data[f"black_marias_{seat}"] = str(entry["black_marias"][name])
    return data


class MatchForm(NewMatchForm):
    shown_fields = frozenset({"players", "target", "moon_points", "first_dealer"})

    target = IntegerField(
        _l("Game ends when a player reaches"), default=hearts.TARGET,
        validators=[InputRequired(), NumberRange(hearts.TARGET_MIN, hearts.TARGET_MAX)],
    )
    moon_points = RadioField(
        _l("Shooting the moon counts"),
        choices=[SelectChoice(str(points)) for points in hearts.MOON_POINTS],
        default=str(hearts.MOON_POINTS[0]),
    )
    first_dealer = SelectField(
        _l("Who deals first"),
        choices=[SelectChoice(str(s), _l("Seat %(n)s", n=s + 1)) for s in range(hearts.MAX_PLAYERS)],
        default="0",
    )

    def validate_first_dealer(self, field: SelectField) -> None:
        names = self.names()
        if names and self.dealer_seat() >= len(names):
            raise ValidationError(_l("Nobody sits in that seat."))

    def dealer_seat(self) -> int:
        return posted_number(self.first_dealer.data) or 0

    def options(self) -> dict[str, int | str]:
        names = self.names()
        options: dict[str, int | str] = {"target": self.target.data, "moon_points": int(self.moon_points.data)}
        if self.dealer_seat() < len(names):
            options["first_dealer"] = names[self.dealer_seat()]
        return options


BLANK_SEATS = 8  # a blank sheet without names or ?seats=
SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]  # the players of the API's example


PAGES = GamePages(
    game=hearts.GAME,
    match_form=MatchForm,
    hand_form=hand_form,  # type: ignore[arg-type]
    sheet_extras=sheet_extras,  # type: ignore[arg-type]
    blank_rows=20,
    blank_seats=BLANK_SEATS,
    rules={
        "hearts": hearts.HEARTS, "black_marias": hearts.BLACK_MARIAS, "heart": hearts.HEART,
        "black_maria": hearts.BLACK_MARIA, "cards_passed": hearts.CARDS_PASSED, "passes": hearts.PASSES, "target": hearts.TARGET,
        "target_min": hearts.TARGET_MIN, "target_max": hearts.TARGET_MAX, "moon_points": hearts.MOON_POINTS,
    },
    rules_page=hearts_rules.PAGE,
    standings=(("wins", N_("Wins")), ("average_place", N_("Average place"))),
    examples=Examples(
        new_match={"game": "hearts", "players": SIX, "options": {"target": 100, "moon_points": 52}},
        entry={"hearts": dict(zip(SIX, [5, 4, 3, 6, 8, 0])), "black_marias": dict(zip(SIX, [1, 0, 0, 0, 1, 0]))},
    ),
)
