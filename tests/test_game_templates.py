"""A game's templates live in one folder, templates/games/<game>/, one per page and named by the page.

A new game adds its folder and no Python for its templates: a page missing from the folder fails
here, and so does a template of one game kept anywhere else (a page family's folder of games).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.games import GAMES
from scorekeeper.web.games.pages import TEMPLATES, template
from scorekeeper.web.games.registry import GAME_PAGES

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "templates"


@pytest.mark.parametrize("slug", sorted(GAME_PAGES))
def test_a_game_has_every_page_in_its_own_folder(slug):
    missing = [page for page in TEMPLATES if not (FOLDER / template(slug, page)).is_file()]
    assert not missing, f"templates/games/{slug}/ has no {missing}"


def test_the_games_folder_holds_only_the_games_pages():
    expected = {template(slug, page) for slug in GAME_PAGES for page in TEMPLATES}
    found = {path.relative_to(FOLDER).as_posix() for path in (FOLDER / "games").rglob("*.html")}
    assert found == expected


def test_no_template_outside_the_games_folder_is_named_after_a_game():
    named = [path.relative_to(FOLDER).as_posix() for path in FOLDER.rglob("*.html")
             if path.stem in GAMES and path.parent.name not in GAMES]
    assert not named
