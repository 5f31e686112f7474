"""A fourth game is refused at import by every table keyed by game that does not list it.

Each module below holds such a table and checks it against games.GAMES when it is imported. The
test registers a fake fourth game before importing one module at a time (in a fresh interpreter
each) and shows which checks fail: the places a fourth game must fill in (docs/layout.md).
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.games import GAMES

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
    "scorekeeper.web.rules.rulebook": "web/games/registry.py",  # the web's tables read the registry first
    "scorekeeper.web.rules.tables": "web/games/registry.py",
    "scorekeeper.web.club.pages": "club/engine/registry.py",  # the club's store reads the club engine first
    "scorekeeper.web.api.openapi": "web/games/registry.py",
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


def test_the_registries_each_check_themselves():
    """Past the first check that refuses it, the club engine's and the web's registries do too."""
    for module, table in (("scorekeeper.club.engine.registry", "FIGURES"), ("scorekeeper.web.games.registry",
                                                                             "GAME_PAGES")):
        source = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert f"assert set({table}) == set(GAMES)" in source


# The web's tables keyed by game, each built from the games' page records rather than listing the games.
BUILT = {"scorekeeper.web.rules.rulebook": ("LIMITS", "OPTION_WORDS"), "scorekeeper.web.rules.tables": ("PAGES",),
         "scorekeeper.web.club.pages": ("COLUMNS",), "scorekeeper.web.api.openapi": ("NEW_MATCHES", "ENTRIES")}


@pytest.mark.parametrize(("module", "tables"), BUILT.items())
def test_the_web_tables_keyed_by_game_are_built_from_the_registry(module, tables):
    imported = importlib.import_module(module)
    for table in tables:
        assert list(getattr(imported, table)) == list(GAMES), (module, table)
    source = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
    named = [slug for slug in GAMES if re.search(rf"""^\s*["']{slug}["']:""", source, re.MULTILINE)]
    assert not named, f"{module} lists games one by one: {named}"


def test_the_club_pages_refuse_a_game_they_have_no_columns_for():
    source = (ROOT / "scorekeeper/web/games/pages.py").read_text(encoding="utf-8")
    assert "standings: tuple[Column, ...]" in source  # a game's page record cannot leave its columns out
    assert "any(barbu" not in (ROOT / "scorekeeper/web/club/admin.py").read_text(encoding="utf-8")
    # The player page's per-game figures name each game: no "{% else %}" that quietly means Hearts.
    assert '{% elif slug == "hearts" %}' in (ROOT / "templates/club/player.html").read_text(encoding="utf-8")


# Imports every module of the package with the fake game, and says which files refuse it.
EVERY = FAKE.split("try:", 1)[0] + """
from pathlib import Path
refused = set()
for path in sorted(Path("scorekeeper").rglob("*.py")):
    try:
        __import__(".".join(path.with_suffix("").parts).removesuffix(".__init__"))
    except AssertionError as err:
        if str(err).startswith("every game"):
            refused.add(traceback.extract_tb(err.__traceback__)[-1].filename.split("scorekeeper/", 1)[-1])
print("\\n".join(sorted(refused)))
"""


def documented_places() -> list[str]:
    """The numbered list of docs/layout.md's "Where a game is named": every Python file a new game fills in."""
    section = (ROOT / "docs/layout.md").read_text(encoding="utf-8").split("## Where a game is named", 1)[1]
    return re.findall(r"^\d+\. `([\w/<>.]+\.py)`", section.split("\n## ", 1)[0], re.MULTILINE)


def test_a_fourth_game_is_refused_by_exactly_the_tables_the_docs_list():
    """Every module of the package imported with a fake fourth game: the files that refuse it are the docs' tables."""
    places = documented_places()
    assert 0 < len(places) <= 10, places
    tables = {place for place in places if "<game>" not in place} - {"games/__init__.py"}  # the fake is listed there
    done = subprocess.run([sys.executable, "-c", EVERY], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == tables


def test_every_check_of_a_table_keyed_by_game_is_a_documented_place():
    """A check a first refusal hides from the test above is found in the source: it too is in the docs' list."""
    places = set(documented_places())
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assert) and isinstance(node.msg, ast.Constant) and \
                    str(node.msg.value).startswith("every game"):
                assert path.relative_to(ROOT / "scorekeeper").as_posix() in places, path


def test_each_game_has_every_file_of_its_own_the_docs_list():
    for place in (place for place in documented_places() if "<game>" in place):
        for slug in GAMES:
            assert (ROOT / "scorekeeper" / place.replace("<game>", slug)).is_file(), (place, slug)
