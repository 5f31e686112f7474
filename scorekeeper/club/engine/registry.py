"""Every game's club figures by slug: what its digest adds, its season table and its statistics (base.GameFigures)."""

from __future__ import annotations

from ...games import GAMES
from . import barbu, hearts, kozyol
from .base import GameFigures

FIGURES: dict[str, GameFigures] = {"barbu": barbu.FIGURES, "kozyol": kozyol.FIGURES, "hearts": hearts.FIGURES}
assert set(FIGURES) == set(GAMES), "every game of the engine has its club figures, and only those"
