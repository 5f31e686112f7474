"""Shared vocabulary of the rules engines: errors, the game record, entry checks.

Pure standard library: the engines never import the web stack or the database.
Messages are English templates with named ``{placeholders}``; the web layer
translates the template and fills in the values, so the engine stays pure.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

NAME_MAX = 40
SUITS = ("spades", "hearts", "diamonds", "clubs")


def N_(text: str) -> str:
    """Mark a message template for translation without translating it here."""
    return text


@dataclass(frozen=True)
class Reason:
    """One reason a player understands: a template and the values that fill it."""

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text.format(**self.params)


class InvalidHand(ValueError):
    """An entry (or options) that breaks a rule, with (field, reason) pairs.

    >>> err = InvalidHand([("tricks", Reason("{n} left", {"n": 2}))])
    >>> err.fields, str(err)
    ({'tricks': '2 left'}, '2 left')
    """

    def __init__(self, errors: Iterable[tuple[str, Reason | str]], hand: int | None = None):
        self.errors: list[tuple[str, Reason]] = [
            (name, reason if isinstance(reason, Reason) else Reason(reason)) for name, reason in errors
        ]
        self.hand = hand
        super().__init__(str(self.errors[0][1]) if self.errors else "invalid entry")

    @property
    def fields(self) -> dict[str, str]:
        """Field -> reason in English, the first reason per field."""
        out: dict[str, str] = {}
        for name, reason in self.errors:
            out.setdefault(name, str(reason))
        return out

    @property
    def reason(self) -> Reason:
        return self.errors[0][1]


def refuse(field_name: str, text: str, **params: Any) -> InvalidHand:
    """Build an InvalidHand with a single reason (to be raised by the caller)."""
    return InvalidHand([(field_name, Reason(text, params))])


class Sheet(Protocol):
    """A match being replayed hand by hand: what every engine provides."""

    hands: list[dict[str, Any]]

    def record(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        """Validate an entry against the match so far, score it and append it."""

    def summary(self) -> dict[str, Any]:
        """Totals, finished, winners, next (and game extras) as in the API."""


@dataclass(frozen=True)
class Game:
    """What the app needs to know about one game."""

    slug: str
    title: str
    min_players: int
    max_players: int
    parse_options: Callable[[list[str], Mapping[str, Any], random.Random], dict[str, Any]]
    new_sheet: Callable[[list[str], Mapping[str, Any]], Sheet]


# -- entry checks shared by the engines ------------------------------------------------


def parse_players(raw: Any, min_players: int, max_players: int) -> list[str]:
    """Trim and check player names: unique, 1-40 characters, the right count."""
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise refuse("players", N_("Give the players as a list of names."))
    names = [name.strip() for name in raw]
    if not min_players <= len(names) <= max_players:
        if min_players == max_players:
            raise refuse("players", N_("This game needs exactly {count} players."), count=min_players)
        raise refuse("players", N_("This game needs {low} to {high} players."), low=min_players, high=max_players)
    for name in names:
        if not name:
            raise refuse("players", N_("Every player needs a name."))
        if len(name) > NAME_MAX:
            raise refuse("players", N_("A name can have at most {limit} characters."), limit=NAME_MAX)
        if not name.isprintable():
            raise refuse("players", N_("Names cannot contain control characters."))
    if len(set(names)) != len(names):
        raise refuse("players", N_("Two players have the same name; names must differ."))
    return names


def as_int(value: Any, field_name: str, low: int, high: int) -> int:
    """Return value as an int in [low, high] or refuse (JSON true is not a number).

    >>> as_int(3, "tricks", 0, 13)
    3
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise refuse(field_name, N_("Enter a whole number."))
    if not low <= value <= high:
        raise refuse(field_name, N_("Enter a number from {low} to {high}."), low=low, high=high)
    return value


def as_bool(value: Any, field_name: str) -> bool:
    """Return value if it is a JSON boolean, else refuse."""
    if not isinstance(value, bool):
        raise refuse(field_name, N_("Answer yes or no (true or false)."))
    return value


def as_player(value: Any, field_name: str, players: list[str]) -> str:
    """Return value if it names a player of the match, else refuse."""
    if not isinstance(value, str) or value.strip() not in players:
        raise refuse(field_name, N_("Choose one of the players."))
    return value.strip()


def as_mapping(value: Any, field_name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise refuse(field_name, N_("Give one number per player."))
    return value


def per_player(entry: Mapping[str, Any], field_name: str, players: list[str], high: int) -> dict[str, int]:
    """Read {name: count} for every player, each count in 0..high."""
    raw = as_mapping(entry.get(field_name), field_name)
    unknown = [name for name in raw if not isinstance(name, str) or name.strip() not in players]
    if unknown:
        raise refuse(field_name, N_("{name} is not a player in this match."), name=str(unknown[0])[:NAME_MAX])
    trimmed = {name.strip(): value for name, value in raw.items()}
    if len(trimmed) != len(raw):
        raise refuse(field_name, N_("Give one number per player, each player once."))
    missing = [name for name in players if name not in trimmed]
    if missing:
        raise refuse(field_name, N_("Enter a number for {name}."), name=missing[0])
    return {name: as_int(trimmed[name], field_name, 0, high) for name in players}


def optional_choice(entry: Mapping[str, Any], field_name: str, choices: Iterable[str]) -> str | None:
    """Read an optional note that must be one of choices."""
    value = entry.get(field_name)
    if value is None or value == "":
        return None
    choices = tuple(choices)
    if value not in choices:
        raise refuse(field_name, N_("Choose one of: {choices}."), choices=", ".join(choices))
    return value


def optional_seat_name(raw: Mapping[str, Any], key: str, players: list[str], rng: random.Random | None) -> str:
    """Read an option naming a seat; draw one at random (rng) or take seat 0 when absent."""
    value = raw.get(key)
    if value is None or value == "":
        return rng.choice(players) if rng is not None else players[0]
    return as_player(value, key, players)


def check_option_keys(raw: Any, known: Iterable[str]) -> Mapping[str, Any]:
    """Refuse options that are not an object or name an unknown option."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise refuse("options", N_("Options must be an object."))
    known = set(known)
    for key in raw:
        if key not in known:
            raise refuse("options", N_("Unknown option: {name}."), name=str(key)[:NAME_MAX])
    return raw


def winners_of(totals: Mapping[str, int], lowest: bool = False) -> list[str]:
    """Players with the best total (ties share the win), in seat order.

    >>> winners_of({"A": 3, "B": 5, "C": 5})
    ['B', 'C']
    """
    best = (min if lowest else max)(totals.values())
    return [name for name, total in totals.items() if total == best]
