"""Each game's web module: its new-match form, hand form and templates.

A module offers ``MatchForm`` (a NewMatchForm with the game's options), ``TEMPLATE`` (its
hand-entry page), ``variants(before, entry)`` (the choices made before the form, such as the
Barbu contract, or an empty list), ``variant_of(entry)``, ``build(players, before, variant,
formdata, entry)`` and ``to_entry(form, variant, players)``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ..games import GAMES
from . import barbu_form, hearts_form, kozyol_form
from .forms import NewMatchForm

ENTRY_FORMS: dict[str, ModuleType] = {"barbu": barbu_form, "hearts": hearts_form, "kozyol": kozyol_form}


def new_match_form(game: str, formdata: Any = None) -> NewMatchForm:
    """The new-match form of a game, with a name field for every possible seat."""
    return ENTRY_FORMS[game].MatchForm(formdata, seats=GAMES[game].max_players)
