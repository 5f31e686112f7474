"""The numbers and small tables of each game's rules page, by game, computed by the engine for a match's options.

Each game's tables are its own (``web/rules/<game>.py``). A page for no match gets the options a
match gets when it chooses nothing (``rulebook.defaults``) and the names of docs/rules.md for its
example.
"""

from __future__ import annotations

from ..games.registry import GAME_PAGES
from .page import Tables

PAGES: dict[str, Tables] = {slug: pages.rules_page.tables for slug, pages in GAME_PAGES.items()}
