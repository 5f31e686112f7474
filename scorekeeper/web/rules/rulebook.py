"""What the rules pages print of each game: the limits it enforces and its options in words, by game.

Every number on a rules page comes from the engine (``scorekeeper/games/``), so a rule changed
there changes the pages too. Each game's rules page is one ``RulesPage`` record
(``web/rules/<game>.py``, reached through its page record in the registry): a limit the engine
starts to enforce, say a maximum number of hands, is one more ``limit(...)`` line in its list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...games.base import Game, Reason
from ...i18n import translate
from ..games.registry import GAME_PAGES
from .page import BETWEEN as BETWEEN, Limit, OptionWords, limit as limit, signed as signed

SEAT_OPTIONS = ("first_declarer", "first_dealer")  # options naming a player: None on a page for no match
EXAMPLE_PLAYERS = ("Ann", "Bob", "Cid", "Dee")  # the names of docs/rules.md, when no match gives its own

LIMITS: dict[str, list[Limit]] = {slug: list(pages.rules_page.limits) for slug, pages in GAME_PAGES.items()}
OPTION_WORDS: dict[str, dict[str, OptionWords]] = {slug: pages.rules_page.option_words
                                                   for slug, pages in GAME_PAGES.items()}


def say(text: Reason | str) -> str:
    """A sentence in the reader's language; a plain string (a player's name, a number) as it is."""
    return translate(text) if isinstance(text, Reason) else text


def defaults(game: Game) -> dict[str, object]:
    """The options of a match that chose nothing, as the engine fills them in; no seat is named yet."""
    placeholders = [f"seat {n}" for n in range(1, game.min_players + 1)]
    filled = dict(game.parse_options(placeholders, {}, None))
    return {**filled, **{name: None for name in SEAT_OPTIONS if name in filled}}


def in_words(slug: str, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each option of a match with its value in words, in the reader's language."""
    return [(translate(words.label), say(words.value(options[name]))) for name, words in OPTION_WORDS[slug].items()]
