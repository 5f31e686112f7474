"""What a game's rules page is made of: its limits, its options in words and its tables, one RulesPage per game.

Each game's record lives beside its own tables (``web/rules/<game>.py``) and reaches the pages
through the game's page record (``web/games/<game>.py``). Sentences are engine-style ``Reason``
templates with ``{placeholders}``, translated when shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...games.base import N_, NAME_MAX, Game, Reason
from ...i18n import translate

BETWEEN = N_("{low} to {high}")
EXACTLY = N_("exactly {count}")
ADDING_UP = N_("{low} to {high}, all players together {total}")
AT_MOST = N_("{low} to {high}, all players together at most {high}")
AT_MOST_HANDS = N_("at most {count}: no real table plays that long (a moon or eggs can make a game endless)")


def signed(value: int) -> str:
    """A score as a score sheet writes it: its sign always shown, a true minus sign.

    >>> signed(5), signed(-20), signed(0)
    ('+5', '−20', '0')
    """
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


# -- the limits the app enforces -------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """One thing the app checks, and what it allows: a row of a rules page's limits table."""

    what: Reason
    allowed: Reason

    def said(self) -> tuple[str, str]:
        return translate(self.what), translate(self.allowed)


def limit(what: str, allowed: str, **numbers: int) -> Limit:
    """A limit whose two sentences share the engine's numbers."""
    return Limit(Reason(what, numbers), Reason(allowed, numbers))


def seating(game: Game) -> list[Limit]:
    """What every game checks of the players: how many, and their names."""
    if game.min_players == game.max_players:
        players = limit(N_("Players"), EXACTLY, count=game.min_players)
    else:
        players = limit(N_("Players"), BETWEEN, low=game.min_players, high=game.max_players)
    return [players, limit(N_("Letters or signs in a player's name"), BETWEEN, low=1, high=NAME_MAX)]


# -- a match's options in words ----------------------------------------------------------------------


@dataclass(frozen=True)
class OptionWords:
    """How the rules page names one option and words its value (None: a page for no match, no seat known)."""

    label: str
    value: Callable[[Any], Reason | str]


def seat(unchosen: str) -> Callable[[str | None], Reason | str]:
    """A player's name as it is, or what happens when no match names one yet."""
    return lambda name: Reason(unchosen) if name is None else name


def either(yes: str, no: str) -> Callable[[bool], Reason]:
    return lambda value: Reason(yes if value else no)


def scores(values: list[int]) -> str:
    return " / ".join(signed(value) for value in values)


# -- one game's page -----------------------------------------------------------------------------------

# (players, the match's options, whether a match names the players) -> the numbers the template prints
Tables = Callable[[list[str], Mapping[str, Any], bool], Mapping[str, object]]


@dataclass(frozen=True)
class RulesPage:
    """The rules page of one game: the limits table, each option in words, and the game's own tables."""

    limits: list[Limit]
    option_words: dict[str, OptionWords]  # keyed by option, in the order the page lists them
    tables: Tables
