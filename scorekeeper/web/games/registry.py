"""The games the pages offer: one GamePages record per game of the engine.

A fourth game adds its engine module (registered in ``games.GAMES``), a module like
``barbu_pages`` with its ``PAGES`` record, its four templates, and one entry here.
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

# What templates print of each game's rules, by slug: ``rules.barbu.hands``.
RULES: dict[str, Mapping[str, Any]] = {slug: pages.rules for slug, pages in GAME_PAGES.items()}
