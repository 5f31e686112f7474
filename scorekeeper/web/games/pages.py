"""What the pages need of one game, as one typed record (the web's mirror of ``games.base.Game``).

A game's record (``GamePages``) names its engine, its new-match form, how to build its hand
form, what its printed sheet shows beyond the hands, the numbers and names its templates print,
and, for a game where something is chosen before the form (Barbu's contract), that choice. Its
templates are found by the one pattern ``games/<slug>/<page>.html`` (see ``template``). The records
are collected in ``registered_games.GAME_PAGES``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, Protocol, TypedDict

from ...games import Game, InvalidHand
from ...games.base import Entry, HandState, Replay, Summary
from ..forms import NewMatchForm
from ..rules.page import RulesPage


class HandForm(Protocol):
    """A hand-entry form: checked like any form, then turned into the engine's entry."""

    form_errors: list[str]

    def validate(self) -> bool: ...

    def entry(self) -> Entry:
        """The entry as the API takes it; InvalidHand when the form cannot make one."""

    def refuse(self, err: InvalidHand) -> None: ...


@dataclass(frozen=True)
class Choice:
    """Something the player picks before the hand form (Barbu: the contract)."""

    # What may be picked, given the replay before the hand, the hand's stored entry and the entries after it.
    options: Callable[[Replay, Entry | None, list[Entry]], list[str]]
    of: Callable[[Entry], str]  # what a stored entry picked
    every: tuple[str, ...] = ()  # every pick there is, open or not


# A game's templates, one per page, each in its folder: templates/games/<slug>/<page>.html.
TEMPLATES = ("new", "hand", "match", "working", "sheet", "rules")


def template(slug: str, page: str) -> str:
    """One of a game's templates, by page (one of ``TEMPLATES``).

    >>> template("barbu", "hand")
    'games/barbu/hand.html'
    """
    return f"games/{slug}/{page}.html"


# What a printed sheet shows beyond the hands: each game's own TypedDict (web/sheets/<game>.py).
SheetExtras = Callable[[list[str], Mapping[str, Any], list[HandState], Summary | None], Mapping[str, object]]


# A column of a club's standings table: the engine's figure, and its heading (N_, translated when shown).
Column = tuple[str, str]


class NewMatchBody(TypedDict):
    game: str
    players: list[str]
    options: Mapping[str, object]
    language: NotRequired[str]


@dataclass(frozen=True)
class Examples:
    """What the OpenAPI document shows of one game: a match to create and a hand's entry."""

    new_match: NewMatchBody
    entry: Entry


@dataclass(frozen=True)
class GamePages:
    """The web side of one game."""

    game: Game
    match_form: type[NewMatchForm]
    hand_form: Callable[[Replay, str | None, Any, Entry | None], HandForm]  # (before, choice, formdata, stored)
    sheet_extras: SheetExtras  # (players, options, hands, summary or None for a blank sheet)
    rules: Mapping[str, Any]  # the engine's numbers and names the templates print
    rules_page: RulesPage  # the limits, options in words and tables of its rules page
    standings: tuple[Column, ...]  # what a club's standings table shows of it, beside player and matches
    examples: Examples  # what the API's document shows of it
    choice: Choice | None = None
    blank_rows: int = 0  # rows of a blank sheet when the game does not fix them (Barbu prints its 28 hands)
    blank_seats: int | None = None  # columns of a blank sheet without names; None: the fewest players

    @property
    def slug(self) -> str:
        return self.game.slug

    def template(self, page: str) -> str:
        """One of the game's templates, by page (one of ``TEMPLATES``)."""
        return template(self.game.slug, page)

    def new_match_form(self, formdata: Any = None) -> NewMatchForm:
        """The new-match form, with a name field for every possible seat."""
        return self.match_form(formdata, seats=self.game.max_players)
