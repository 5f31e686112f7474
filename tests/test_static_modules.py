"""The pages' scripts are native ES modules under static/js/: small, found where they are named, kept offline.

No bundler stands between these files and the phone, so a module named wrongly or missing shows only on a
phone, as a page without its script; these tests read the files and the served pages instead. Each page
loads one module (templates/base.html): js/main.js, or the page's own, which imports js/main.js first.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers.api import create_match
from helpers.forms import csrf_token
from helpers.static import unbuilt

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"
MODULES = sorted((STATIC / "js").rglob("*.js"))
LONGEST = 300  # lines
SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# import x from "./a.js"; import { a, b } from "../b.js"; import "./c.js"; export { d } from "./d.js"
IMPORTS = re.compile(r"""^\s*(?:import\s*|(?:import|export)\b[^"';]*?\bfrom\s*)["']([^"']+)["']""", re.M)
# {% set page_module = "js/games/barbu.js" %} and base.html's page_module|default('js/main.js')
PAGE_MODULES = re.compile(r"""page_module(?:\s*=\s*|\|default\()["']([^"']+)["']""")
SCRIPTS = re.compile(r"<script\b([^>]*)>", re.I)


def name(path: Path) -> str:
    return path.relative_to(STATIC).as_posix()


def imported(path: Path) -> list[str]:
    """What a module imports, as written."""
    return IMPORTS.findall(path.read_text())


def loaded_by_templates() -> dict[str, list[str]]:
    """Each module a template loads (static/ paths), with the templates that load it."""
    found: dict[str, list[str]] = {}
    for template in sorted((ROOT / "templates").rglob("*.html")):
        for module in PAGE_MODULES.findall(template.read_text()):
            found.setdefault(module, []).append(template.relative_to(ROOT).as_posix())
    return found


def page_scripts(html: str) -> list[tuple[str, str]]:
    """(type, src) of each script a page loads."""
    scripts = []
    for attributes in SCRIPTS.findall(html):
        kind, src = re.search(r'type="([^"]*)"', attributes), re.search(r'src="([^"]*)"', attributes)
        scripts.append((kind[1] if kind else "", src[1] if src else ""))
    return scripts


def test_the_one_classic_script_is_gone_and_only_the_worker_stays_beside_the_modules():
    assert not (STATIC / "app.js").exists()
    assert [path.name for path in STATIC.glob("*.js")] == ["sw.js"]
    assert len(MODULES) > 10


@pytest.mark.parametrize("path", [*MODULES, STATIC / "sw.js"], ids=name)
def test_no_script_is_over_300_lines(path: Path):
    assert len(path.read_text().splitlines()) <= LONGEST


def test_every_module_a_template_loads_exists():
    loaded = loaded_by_templates()
    assert "js/main.js" in loaded and {f"js/games/{game}.js" for game in ("barbu", "hearts", "kozyol")} <= set(loaded)
    for module, templates in loaded.items():
        assert (STATIC / module).is_file(), f"{templates} load {module}, which is not there"
    # base.html's module tag is the only script tag of any template.
    tags = {template.relative_to(ROOT).as_posix(): SCRIPTS.findall(template.read_text())
            for template in (ROOT / "templates").rglob("*.html")}
    assert {template: found for template, found in tags.items() if found}.keys() == {"templates/base.html"}
    assert [tag.split()[0] for tag in tags["templates/base.html"]] == ['type="module"']


@pytest.mark.parametrize("path", MODULES, ids=name)
def test_every_import_is_a_relative_path_to_a_module(path: Path):
    for specifier in imported(path):
        assert specifier.startswith(("./", "../")), f"{name(path)}: {specifier} needs a bundler to be found"
        target = (path.parent / specifier).resolve()
        assert target in MODULES, f"{name(path)} imports {specifier}, which is not a module of static/js/"


def test_every_module_is_reached_from_a_page():
    reached, todo = set(), [STATIC / module for module in loaded_by_templates()]
    while todo:
        path = todo.pop()
        if path not in reached:
            reached.add(path)
            todo.extend((path.parent / specifier).resolve() for specifier in imported(path))
    assert not set(MODULES) - reached, "modules no page loads"


def test_the_imports_check_reads_every_form_of_import(tmp_path: Path):
    module = tmp_path / "m.js"
    module.write_text('import * as a from "./a.js";\nimport { b,\n  c } from "../b.js";\nimport "./c.js";\n'
                      "export { d } from './d.js';\nconst e = \"import x from './no.js'\";\n")
    assert imported(module) == ["./a.js", "../b.js", "./c.js", "./d.js"]


def test_the_worker_keeps_every_module_and_only_files_that_are_there(client):
    source = client.get("/sw.js").text
    kept = [unbuilt(path) for path in json.loads(re.search(r"var SHELL = (\[[^\]]*\])", source)[1])]
    assert {f"/static/{name(path)}" for path in MODULES} <= set(kept)
    for path in kept:
        if path.startswith("/static/"):
            assert (STATIC / path.removeprefix("/static/")).is_file(), path
    assert "/static/style.css" in kept and "/offline" in kept


def test_each_page_loads_one_module_and_a_games_pages_load_its_own(client):
    players = {"barbu": SIX[:4], "hearts": SIX, "kozyol": SIX[:4]}
    made = {game: create_match(client, game, names) for game, names in players.items()}
    for match in made.values():
        assert client.get(match["edit_url"]).status_code == 302  # this phone keeps the match's edit key
    pages = {
        "/": "js/main.js",
        "/new/kozyol": "js/new-match.js",
        "/new/barbu": "js/new-match.js",
        f"/m/{made['barbu']['id']}": "js/main.js",
        f"/m/{made['barbu']['id']}/hands/new?variant=no_tricks": "js/games/barbu.js",
        f"/m/{made['hearts']['id']}/hands/new": "js/games/hearts.js",
        f"/m/{made['kozyol']['id']}/hands/new": "js/games/kozyol.js",
    }
    club = client.post("/clubs/new", data={"csrf_token": csrf_token(client, "/clubs/new"), "name": "Les Dimanches"})
    club_id = club.headers["Location"].split("/")[2]
    pages |= {f"/c/{club_id}/admin": "js/club.js", f"/c/{club_id}/new/kozyol": "js/club.js"}
    for url, module in pages.items():
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert [(kind, unbuilt(src)) for kind, src in page_scripts(answer.text)] == [("module", f"/static/{module}")], url
    served = client.get("/static/js/main.js")
    assert served.status_code == 200 and served.mimetype in {"text/javascript", "application/javascript"}
    served.close()
