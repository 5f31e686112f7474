"""A fourth game is refused at import by every table keyed by game that does not list it.

Each module below holds such a table and checks it against games.GAMES when it is imported. The
test registers a fake fourth game before importing one module at a time (in a fresh interpreter
each) and shows which checks fail: the places a fourth game must fill in (docs/layout.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FAKE = """
import dataclasses, sys, traceback
from scorekeeper import games
games.GAMES["fourth"] = dataclasses.replace(games.GAMES["barbu"], slug="fourth", title="Fourth")
try:
    __import__(sys.argv[1])
except AssertionError as err:
    where = traceback.extract_tb(err.__traceback__)[-1].filename
    print("refused", where.split("scorekeeper/", 1)[-1], err)
else:
    print("taken")
"""
# Module -> the file whose check refuses the fake game first when that module is imported.
TABLES = {
    "scorekeeper.web.games.registry": "web/games/registry.py",
    "scorekeeper.web.rules.rulebook": "web/rules/rulebook.py",
    "scorekeeper.web.rules.tables": "web/rules/rulebook.py",  # it reads the rulebook first
    "scorekeeper.web.api.schemas": "web/api/schemas.py",
    "scorekeeper.club.engine.registry": "club/engine/registry.py",
    "scorekeeper.club.engine.digest": "club/engine/registry.py",  # each reads the registry first
    "scorekeeper.club.engine.standings": "club/engine/registry.py",
    "scorekeeper.club.engine.stats": "club/engine/registry.py",
}


def imported_with_a_fourth_game(module: str) -> str:
    done = subprocess.run([sys.executable, "-c", FAKE, module], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(("module", "where"), TABLES.items())
def test_a_table_keyed_by_game_refuses_a_game_it_does_not_list(module, where):
    said = imported_with_a_fourth_game(module)
    assert said.startswith(f"refused {where} every game"), said


def test_the_club_engine_tables_each_check_themselves():
    """Past the first check that refuses it, the season tables, the statistics and the rules tables do too."""
    for module, table in (("scorekeeper.club.engine.registry", "FIGURES"), ("scorekeeper.web.rules.tables", "PAGES")):
        source = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert f"assert set({table}) == set(GAMES)" in source


def test_the_club_pages_refuse_a_game_they_have_no_columns_for():
    source = (ROOT / "scorekeeper/web/club/pages.py").read_text(encoding="utf-8")
    assert "assert set(COLUMNS) == set(GAMES)" in source
    assert "any(barbu" not in (ROOT / "scorekeeper/web/club/admin.py").read_text(encoding="utf-8")
    # The player page's per-game figures name each game: no "{% else %}" that quietly means Hearts.
    assert '{% elif slug == "hearts" %}' in (ROOT / "templates/club/player.html").read_text(encoding="utf-8")
