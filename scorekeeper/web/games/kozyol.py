"""Kozyol in the browser: deal entry made for counting one trick pile at the table, options and the sheet.

The player counts one team's pile, by its card points or card by card; the other team has
what is left of the 120. A team with 0 points is asked whether it took a trick at all.
"""

from __future__ import annotations

from typing import Any, TypedDict

from flask_babel import gettext as _, lazy_gettext as _l
from wtforms import BooleanField, IntegerField, RadioField, SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Optional, ValidationError

from ...games import kozyol
from ...games.base import N_, SUITS, Entry
from ...games.kozyol import KozyolEntry, KozyolReplay
from ..forms import SUIT_NAMES, NewMatchForm, NumberRange, TableForm, seat_choices
from ..rules import kozyol as kozyol_rules
from ..rules.kozyol import RANK_NAMES
from ..sheets.kozyol import sheet_extras
from .pages import Examples, GamePages

RANKS = tuple(kozyol.CARD_VALUES)  # A, 10, K, Q, J: the cards that count
RANK_WORDS = {"A": "ace", "10": "ten", "K": "king", "Q": "queen", "J": "jack"}  # placeholders of sentences
MODES = [SelectChoice("points", _l("Type the points")), SelectChoice("cards", _l("Count the cards"))]
ANSWERS = [SelectChoice("yes", _l("Yes, a trick or more")), SelectChoice("no", _l("No trick at all"))]
NONE = SelectChoice("", "–")
TEAMS = range(kozyol.TEAMS)


class PostedDeal(TypedDict, total=False):
    """A deal as the form hands it to the engine: the points, or one team's cards (the other None)."""

    points: list[int]
    cards: list[dict[str, int] | None]
    tricks: list[int | None]
    trump_suit: str
    last_trick: str


def card_count(rank: str) -> IntegerField:
    """A stepper for the cards of one rank in the pile: 0 to 4."""
    return IntegerField(RANK_NAMES[rank], default=0, validators=[Optional(), NumberRange(0, kozyol.CARDS_PER_RANK)])


def team_name(players: list[str], team: int) -> str:
    """The two partners of a team, as the table calls them."""
    return _("%(first)s & %(second)s", first=players[team], second=players[team + kozyol.TEAMS])


class DealForm(TableForm):
    """One deal: the pile counted, the trick question for a team without points, optional notes."""

    shown_fields = frozenset({"points", "cards", "tricks", "trump_suit", "last_trick"})
    card_values = kozyol.CARD_VALUES
    value_of = {RANK_WORDS[rank]: value for rank, value in kozyol.CARD_VALUES.items()}
    total = kozyol.TOTAL_POINTS
    per_rank = kozyol.CARDS_PER_RANK

    side = RadioField(_l("Whose trick pile are you counting?"), default="0", validators=[InputRequired()])
    mode = RadioField(_l("How do you count it?"), choices=MODES, default="points", validators=[InputRequired()])
    points = IntegerField(_l("Card points in the pile"), validators=[Optional(), NumberRange(0, kozyol.TOTAL_POINTS)])
    cards_A = card_count("A")
    cards_10 = card_count("10")
    cards_K = card_count("K")
    cards_Q = card_count("Q")
    cards_J = card_count("J")
    took_0 = RadioField(choices=ANSWERS, validators=[Optional()])
    took_1 = RadioField(choices=ANSWERS, validators=[Optional()])
    trump_suit = RadioField(_l("Trump suit"), choices=[NONE] + [SelectChoice(s, SUIT_NAMES[s]) for s in SUITS],
                            default="", validators=[Optional()])
    last_trick = RadioField(_l("Who took the last trick? They lead next."), default="", validators=[Optional()])

    def __init__(self, formdata: Any, players: list[str], known_tricks: list[int | None] | None = None,
                 **kwargs: Any):
        super().__init__(formdata, **kwargs)
        self.players = players
        self.teams = [team_name(players, team) for team in TEAMS]
        self.side.choices = [SelectChoice(str(team), self.teams[team]) for team in TEAMS]
        self.last_trick.choices = [NONE, *seat_choices(players)]
        self.known_tricks = known_tricks or [None] * kozyol.TEAMS

    def validate_points(self, field: IntegerField) -> None:
        """Refuse a pile no cards add up to (1 or 119) here; the engine would blame the other pile."""
        if self.mode.data == "points" and field.data is not None and field.data not in kozyol.REACHABLE:
            raise ValidationError(_("No set of cards adds up to %(points)s; count the pile again.", points=field.data))

    def validate(self, extra_validators: Any = None) -> bool:
        """Also ask the trick question of a team left with 0 points, beside its Yes/No, before the rules do."""
        valid = super().validate(extra_validators)
        split = self.split()
        for team in TEAMS:
            field = self[f"took_{team}"]
            if split and split[team] == 0 and field.data not in ("yes", "no") and not field.errors:
                self.reasons.setdefault("tricks", _("Did %(p1)s and %(p2)s take a trick? Answer yes or no.",
                                                    p1=self.players[team], p2=self.players[team + kozyol.TEAMS]))
                valid = False
        return valid

    def counts(self) -> dict[str, int] | None:
        """Cards of the counted pile per rank (an empty count is 0), None while a count is impossible."""
        counts = {rank: self[f"cards_{rank}"].data or 0 for rank in RANKS}
        if any(not isinstance(n, int) or not 0 <= n <= kozyol.CARDS_PER_RANK for n in counts.values()):
            return None
        return counts

    def split(self) -> list[int] | None:
        """Card points [team 0, team 1] as typed or counted; None until the pile has a number.

        The other team has the rest of the 120.
        """
        if self.mode.data == "cards":
            counts = self.counts()
            counted = None if counts is None else kozyol.points_of(counts)
        else:
            counted = self.points.data
        if not isinstance(counted, int) or not 0 <= counted <= kozyol.TOTAL_POINTS or self.side.data not in ("0", "1"):
            return None
        rest = kozyol.TOTAL_POINTS - counted
        return [counted, rest] if self.side.data == "0" else [rest, counted]


    def entry(self) -> Entry:
        """The API-shaped entry for a validated form; the engine refuses what does not add up."""
        entry = PostedDeal()
        side, split = int(self.side.data), self.split()
        if self.mode.data == "cards":
            entry["cards"] = [self.counts() if team == side else None for team in TEAMS]
        elif split is not None:
            entry["points"] = split
        tricks: list[int | None] = [None] * kozyol.TEAMS
        for team in TEAMS:
            answer = self[f"took_{team}"].data
            if split and split[team] == 0 and answer in ("yes", "no"):
                # "Yes" means at least one trick: keep a count entered before, else one.
                tricks[team] = 0 if answer == "no" else self.known_tricks[team] or 1
        if any(count is not None for count in tricks):
            entry["tricks"] = tricks
        if self.trump_suit.data:
            entry["trump_suit"] = self.trump_suit.data
        if self.last_trick.data:
            entry["last_trick"] = self.players[int(self.last_trick.data)]
        return entry


def entry_to_data(entry: KozyolEntry, players: list[str]) -> dict[str, str | int]:
    """Form data for a stored entry (to edit a deal): team 0's pile, counted the way it was entered."""
    data: dict[str, str | int] = {"side": "0", "mode": "cards" if entry.get("cards") else "points",
                            "points": entry["points"][0]}
    if entry.get("cards"):
        data.update({f"cards_{rank}": count for rank, count in entry["cards"][0].items()})
    tricks = entry.get("tricks") or [None] * kozyol.TEAMS
    for team in TEAMS:
        if entry["points"][team] == 0 and tricks[team] is not None:
            data[f"took_{team}"] = "yes" if tricks[team] else "no"
    data["trump_suit"] = entry.get("trump_suit", "")
    data["last_trick"] = str(players.index(entry["last_trick"])) if entry.get("last_trick") else ""
    return data


class MatchForm(NewMatchForm):
    shown_fields = frozenset({"players", "target", "first_dealer"})

    target = IntegerField(_l("Defeat points that end the series"), default=kozyol.DEFAULT_TARGET,
                          validators=[InputRequired(), NumberRange(*kozyol.TARGET_RANGE)])
    eggs_double_next = BooleanField(_l("After eggs, the next deal counts double"), default=False)
    six_for_zero_points = BooleanField(_l("%(points)s defeat points for 0 card points, even with a trick",
                                          points=kozyol.DEFEAT["no_trick"]), default=False)
    first_dealer = SelectField(
        _l("Who deals first"),
        choices=[SelectChoice(str(s), _l("Seat %(n)s", n=s + 1)) for s in range(kozyol.SEATS)],
        default="0",
    )

    def options(self) -> dict[str, int | bool | str]:
        names = self.names()
        seat = self.first_dealer.data
        options: dict[str, int | bool | str] = {
            "target": self.target.data,
            "eggs_double_next": bool(self.eggs_double_next.data),
            "six_for_zero_points": bool(self.six_for_zero_points.data),
        }
        if seat and seat.isdigit() and int(seat) < len(names):
            options["first_dealer"] = names[int(seat)]
        return options


def hand_form(before: KozyolReplay, choice: None, formdata: Any, stored: KozyolEntry | None) -> DealForm:
    """The deal form, filled from a stored deal or counted the way the last deal was."""
    data = entry_to_data(stored, before.players) if stored else {"mode": last_mode(before)}
    known = stored.get("tricks") if stored else None
    return DealForm(formdata, before.players, known, data=data)


def last_mode(before: KozyolReplay) -> str:
    """Count a new deal the way the last one was counted: a table counting card by card saves a tap."""
    return "cards" if before.hands and before.hands[-1]["entry"].get("cards") else "points"


PAGES = GamePages(
    game=kozyol.GAME,
    match_form=MatchForm,
    hand_form=hand_form,  # type: ignore[arg-type]
    sheet_extras=sheet_extras,  # type: ignore[arg-type]
    blank_rows=20,
    rules={
        "seats": kozyol.SEATS, "teams": kozyol.TEAMS, "total_points": kozyol.TOTAL_POINTS, "eggs": kozyol.EGGS,
        "card_values": kozyol.CARD_VALUES, "per_rank": kozyol.CARDS_PER_RANK, "default_target": kozyol.DEFAULT_TARGET,
        "target_range": kozyol.TARGET_RANGE, "light_defeat_from": kozyol.LIGHT_DEFEAT_FROM,
        "defeat": kozyol.DEFEAT, "eggs_multiplier": kozyol.EGGS_MULTIPLIER,
        # Seat numbers (from 1) of each team, as the new-match form shows them.
        "team_seats": [[seat + 1 for seat in range(team, kozyol.SEATS, kozyol.TEAMS)] for team in TEAMS],
    },
    rules_page=kozyol_rules.PAGE,
    standings=(("goats_per_match", N_("Goats per match")), ("goats", N_("Goats")),
               ("goats_with_eggs", N_("Goats with eggs")), ("deals_won", N_("Deals won"))),
    examples=Examples(
        new_match={"game": "kozyol", "players": ["Ann", "Bob", "Cid", "Dee"],
                   "options": {"target": 12, "eggs_double_next": True}, "language": "ru"},
        entry={"points": [75, 45], "tricks": [5, 3], "trump_suit": "hearts", "last_trick": "Bob"},
    ),
)
