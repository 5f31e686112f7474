"""A match as a JSON document the players keep, and back again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from ..games.base import N_
from ..json_values import JsonObject
from ..models import Match, utcnow
from ..refusals import refuse
from . import matches

FORMAT = "scorekeeper-match"
FORMAT_VERSION = 1


class Export(TypedDict):
    """A match as its players keep it (the Export schema); format and format_version say what it is."""

    format: str
    format_version: int
    exported_at: str  # ISO 8601, to the second
    game: str
    players: list[str]
    options: JsonObject
    language: str | None
    hands: list[JsonObject]  # the entries as entered, in order


def export(match: Match) -> Export:
    """Everything needed to rebuild the match: game, players, options, sheet language, entries as entered."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": utcnow().isoformat(timespec="seconds"),
        "game": match.game,
        "players": match.players,
        "options": match.options,
        "language": match.language,
        "hands": [hand.entry for hand in match.hands],
    }


def restore(document: Any, source: str = "import") -> tuple[Match, str]:
    """Create a new match from an exported document, checking every hand; return it and its edit key."""
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise refuse("format", N_("This is not a match exported from Scorekeeper."))
    if document.get("format_version") != FORMAT_VERSION:
        raise refuse("format_version", N_("This export comes from a newer version of Scorekeeper."))
    entries = document.get("hands", [])
    if not isinstance(entries, list):
        raise refuse("hands", N_("The hands of the export are damaged."))
    options = document.get("options", {})
    if not isinstance(options, Mapping):
        raise refuse("options", N_("Options must be an object."))
    match, key = matches.create(document.get("game"), document.get("players"), options, entries, source,
                                document.get("language"))
    return match, key
