"""A refusal the player reads: (field, reason) pairs, for anything the app will not take.

Pure standard library, like the engines that build on it: an impossible hand is a refusal, which the
engines call by their own name (games.base.InvalidHand is this class); so is a club name, a time zone, a
day or a backup file the app will not take.
Reasons are English templates with named ``{placeholders}``; the web layer translates and fills them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Reason:
    """One reason a player understands: a template and the values that fill it."""

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text.format(**self.params)


class Refusal(ValueError):
    """Something the app will not take, with (field, reason) pairs.

    >>> err = Refusal([("tricks", Reason("{n} left", {"n": 2}))])
    >>> err.fields, str(err)
    ({'tricks': '2 left'}, '2 left')
    """

    def __init__(self, errors: Iterable[tuple[str, Reason | str]]):
        self.errors: list[tuple[str, Reason]] = [
            (name, reason if isinstance(reason, Reason) else Reason(reason)) for name, reason in errors
        ]
        super().__init__(str(self.errors[0][1]) if self.errors else "invalid entry")

    def by_field(self, say: Callable[[Reason], str] = str) -> dict[str, str]:
        """Field -> reason (the first per field), worded by say: English here, translated by the web.

        >>> Refusal([("a", Reason("one")), ("a", Reason("two")), ("b", "three")]).by_field()
        {'a': 'one', 'b': 'three'}
        """
        out: dict[str, str] = {}
        for name, reason in self.errors:
            if name not in out:
                out[name] = say(reason)
        return out

    @property
    def fields(self) -> dict[str, str]:
        """Field -> reason in English, the first reason per field."""
        return self.by_field()

    @property
    def reason(self) -> Reason:
        return self.errors[0][1]


def refuse(field_name: str, text: str, **params: Any) -> Refusal:
    """Build a Refusal with a single reason (to be raised by the caller).

    >>> refuse("name", "At most {limit} characters.", limit=40).fields
    {'name': 'At most 40 characters.'}
    """
    return Refusal([(field_name, Reason(text, params))])
