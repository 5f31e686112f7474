"""The games the pages offer: one GamePages record per game of the engine.

A fourth game adds its engine module (registered in ``games.GAMES``), a module like ``barbu``
here with its ``PAGES`` record (which brings its sheet, ``web/sheets/<game>.py``, and its rules
page, ``web/rules/<game>.py``), its templates, and one entry here. Every table keyed by game on
the web side is built from these records: the rules pages, the club's standings columns, the
API's examples.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...games import GAMES
from . import barbu as barbu_pages, hearts as hearts_pages, kozyol as kozyol_pages
from .pages import GamePages

GAME_PAGES: dict[str, GamePages] = {pages.slug: pages for pages in (barbu_pages.PAGES, kozyol_pages.PAGES,
                                                                     hearts_pages.PAGES)}
assert set(GAME_PAGES) == set(GAMES), "every game of the engine has its pages, and only those"


def options_of(pages: GamePages) -> set[str]:
    """Every option of a game, as its engine fills them in for a match that chose nothing."""
    seats = [f"seat {n}" for n in range(1, pages.game.min_players + 1)]
    return set(pages.game.parse_options(seats, {}, None))


assert all(set(pages.rules_page.option_words) == options_of(pages) for pages in GAME_PAGES.values()), (
    "every option of every game is put in words")
assert all(pages.examples.new_match["game"] == slug for slug, pages in GAME_PAGES.items()), (
    "every game's example match is of that game")

# What templates print of each game's rules, by slug: ``rules.barbu.hands``.
RULES: dict[str, Mapping[str, Any]] = {slug: pages.rules for slug, pages in GAME_PAGES.items()}
