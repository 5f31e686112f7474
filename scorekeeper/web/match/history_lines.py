"""The edit history as a player reads it: what changed, in words, and which phone did it.

A stored entry is the API's JSON; here each field becomes a short line ("Bob: queens 1 → 0",
"contract: No Tricks → Trumps"), and sources become "this phone", "phone 2", "API" or "read from paper".
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l

from ...games.barbu import CONTRACT_TITLES
from ...i18n import translate
from ...models import HandChange
from ..forms import RANK_LETTERS, SUIT_NAMES

FIELDS = {
    "contract": _l("contract"), "tricks": _l("tricks"), "queens": _l("queens"), "hearts": _l("hearts"),
    "black_marias": _l("Black Marias"), "points": _l("card points"), "cards": _l("cards"), "doubles": _l("doubles"),
    "order": _l("finishing order"), "ace_of_hearts": _l("ace of hearts"), "second_last": _l("second-last trick"),
    "last": _l("last trick"), "king_of_hearts": _l("king of hearts"), "trump_suit": _l("trump suit"),
    "start_rank": _l("starting rank"), "moon": _l("moon"), "last_trick": _l("last trick"),
}
MOON_CHOICES = {"subtract": _l("taken off the shooter"), "add": _l("added to the others")}
NOTHING = "–"


def shown(key: str, value: Any) -> str:
    """One stored value as a player reads it; a value not in the shape the rules give is shown as stored."""
    if value is None:
        return NOTHING
    try:
        return worded(key, value)
    except (TypeError, KeyError, AttributeError):  # written around the app: never break the history for it
        return str(value)


def worded(key: str, value: Any) -> str:
    """shown() for a value in the shape the rules give."""
    if key == "contract":
        return translate(CONTRACT_TITLES.get(value, value))
    if key == "trump_suit":
        return str(SUIT_NAMES.get(value, value))
    if key == "start_rank":
        return str(RANK_LETTERS.get(value, value))
    if key == "moon":
        return str(MOON_CHOICES.get(value, value))
    if key == "doubles":
        return ", ".join(f"{d['by']} → {d['target']}{' ×2' if d.get('redoubled') else ''}" for d in value) or NOTHING
    if key == "cards":
        return " : ".join(NOTHING if side is None else " ".join(f"{rank}×{n}" for rank, n in side.items() if n)
                          for side in value)
    if isinstance(value, list):
        return " : ".join(shown(key, item) for item in value)
    return str(value)


def lines(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[str]:
    """What a change did, a line per field: a correction's differences, or all of a hand recorded or undone."""
    old, new = as_fields(before), as_fields(after)
    out = []
    for key in [*new, *(key for key in old if key not in new)]:
        was, now = old.get(key), new.get(key)
        if before and after and was == now:
            continue
        field = FIELDS.get(key, key)
        if isinstance(was or now, Mapping):  # a number per player
            for name in (now or was):
                a, b = as_fields(was).get(name), as_fields(now).get(name)
                if before and after and a == b:
                    continue
                out.append(_("%(name)s: %(field)s %(before)s → %(after)s", name=name, field=field, before=a, after=b)
                           if before and after else _("%(name)s: %(field)s %(value)s", name=name, field=field,
                                                      value=b if after else a))
        elif before and after:
            out.append(_("%(field)s: %(before)s → %(after)s", field=field, before=shown(key, was),
                         after=shown(key, now)))
        else:
            out.append(_("%(field)s: %(value)s", field=field, value=shown(key, now if after else was)))
    return out


def as_fields(value: Any) -> Mapping[Any, Any]:
    """A stored entry (or one player's counts) as fields; anything else, which only a hand written around
    the app can hold, as one field named after what it is."""
    if value is None:
        return {}
    return value if isinstance(value, Mapping) else {"entry": value}


def why(change: HandChange) -> str | None:
    """The reason the club's admin gave for changing an agreed match, as the history line says it; None without."""
    return _("Reason: %(reason)s", reason=change.reason) if change.reason else None


def sources(changes: list[HandChange], mine: str) -> dict[str, str]:
    """How the history names each source: this phone, the other phones numbered as they first appear, the API."""
    names: dict[str, str] = {}
    others = 1
    for change in sorted(changes, key=lambda change: change.id):
        if change.source in names:
            continue
        if change.source == mine:
            names[change.source] = _("this phone")
        elif change.source == "api":
            names[change.source] = _("API")
        elif change.source == "paper":  # a hand read from a photo of the paper sheet (web/paper)
            names[change.source] = _("read from paper")
        elif change.source.startswith("phone "):
            others += 1
            names[change.source] = _("phone %(n)s", n=others)
        else:
            names[change.source] = change.source or _("unknown")
    return names


def utc(at: datetime) -> str:
    """A stored time in ISO form with its zone (SQLite hands it back without one; it is UTC)."""
    return (at if at.tzinfo else at.replace(tzinfo=timezone.utc)).isoformat(timespec="seconds")
