"""The club engine reads each game's figures from one registry: a module per game, a line per game, checked complete."""

from __future__ import annotations

import importlib

import pytest

from scorekeeper.club.engine import base
from scorekeeper.club.engine.digest import current, digest, stored
from scorekeeper.club.engine.registry import FIGURES
from scorekeeper.club.engine.standings import RANKING
from scorekeeper.games import GAMES


def test_the_registry_lists_every_game_in_the_games_order():
    assert list(FIGURES) == list(GAMES)
    assert list(RANKING) == list(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_has_its_own_module_holding_its_figures(game):
    module = importlib.import_module(f"scorekeeper.club.engine.{game}")
    assert FIGURES[game] is module.FIGURES
    assert isinstance(module.FIGURES, base.GameFigures)
    assert RANKING[game] is module.FIGURES.ranking


def test_a_stored_digest_carries_the_version_of_its_shape():
    players = ["Ann", "Bob", "Cid", "Dee"]
    replay = GAMES["kozyol"].new_replay(players, GAMES["kozyol"].parse_options(players, {"target": 2}, None))
    replay.play({"points": [100, 20]})  # one deal ends a series to 2
    made = digest("kozyol", [7, 8, 9, 10], replay)
    kept = stored(made)
    assert made is not None and "version" not in made and kept == {**made, "version": base.VERSION}
    assert current(kept) and current(made)  # one kept before versions has version 1's shape
    assert not current({**made, "version": base.VERSION + 1})
    assert stored(None) is None
