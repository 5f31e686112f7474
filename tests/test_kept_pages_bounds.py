"""Kept pages have a key a phone cannot multiply and a folder with a bound.

A watched match page and a club page are shared by the workers through instance/pages, which shares its
disk with the database. The Host header is part of what a page shows (its watch link, its QR code), so it
is part of the key: spelled one way, and shared only when the server is known by it. Whatever the keys,
the folder holds at most PAGES_CACHE_BYTES, the pages read least recently going first.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from helpers.apps import apps
from helpers.compiled import share_compiled_templates
from helpers.matches import PLAYERS
from scorekeeper.web.club import pages as club_pages
from scorekeeper.web.match import pages as match_pages
from scorekeeper.web.page_cache import PageCache, trim_to_budget


@pytest.fixture
def make(database_url: str, tmp_path: Path, monkeypatch) -> Iterator:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    with apps(database_url, MIGRATE_ON_START=False) as made:
        yield lambda **settings: share_compiled_templates(made(**settings))
    for cache in (match_pages.WATCHED, club_pages.PAGES):
        PageCache.clear(cache)


def kept(app: Flask) -> list[Path]:
    return sorted((Path(app.instance_path) / "pages").glob("*.page"))


def new_match(app: Flask, host: str = "localhost") -> str:
    made = app.test_client().post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS},
                                  headers={"Host": host})
    assert made.status_code == 201, made.text
    return made.get_json()["id"]


def new_club(app: Flask) -> str:
    made = app.test_client().post("/api/v1/clubs", json={"name": "Sunday table"})
    assert made.status_code == 201, made.text
    return made.get_json()["id"]


def watched(app: Flask, path: str, host: str) -> str:
    answer = app.test_client().get(path, headers={"Host": host})
    assert answer.status_code == 200, (host, answer.status_code)
    return answer.text


@pytest.mark.parametrize("page", ["match", "club"])
def test_made_up_ports_and_names_write_nothing_to_the_folder(make, page):
    app = make()
    path = f"/m/{new_match(app)}" if page == "match" else f"/c/{new_club(app)}"
    watched(app, path, "localhost")
    assert len(kept(app)) == 1
    for port in range(1, 51):
        shown = watched(app, path, f"localhost:{port}")
        if page == "match":
            assert f"http://localhost:{port}/m/" in shown  # its own watch link, all the same
    for name in ("laptop", "othername", "laptop.local", "10.1.2.3"):
        watched(app, path, name)
    assert len(kept(app)) == 1


def test_one_address_spelled_another_way_is_one_page(make):
    app = make()
    path = f"/m/{new_match(app)}"
    for host in ("localhost", "LOCALHOST", "localhost:80", "Localhost."):
        watched(app, path, host)
    assert len(kept(app)) == 1


def test_with_trusted_hosts_only_a_listed_name_is_shared(make):
    app = make(TRUSTED_HOSTS="scores.example.org, .club.example.org")
    path = f"/m/{new_match(app, 'scores.example.org')}"
    watched(app, path, "scores.example.org")
    assert len(kept(app)) == 1
    for n in range(10):
        assert f"http://t{n}.club.example.org/m/" in watched(app, path, f"t{n}.club.example.org")
        watched(app, path, f"scores.example.org:{n + 1}")
    assert len(kept(app)) == 1


def test_the_folder_keeps_within_its_budget_the_pages_read_last(make):
    app = make(PAGES_CACHE_BYTES=60_000)
    paths = [f"/m/{new_match(app)}" for _ in range(12)]
    for path in paths:
        watched(app, path, "localhost")
        total = sum(page.stat().st_size for page in kept(app))
        assert total <= 60_000
    assert 0 < len(kept(app)) < 12
    assert len({page.read_bytes() for page in kept(app)}) == len(kept(app))


def test_no_budget_shares_nothing(make):
    app = make(PAGES_CACHE_BYTES=0)
    watched(app, f"/m/{new_match(app)}", "localhost")
    assert kept(app) == []


def test_trimming_drops_the_least_recently_used_first(tmp_path: Path):
    now = time.time()
    for age, name in enumerate(["newest", "middle", "oldest"]):
        path = tmp_path / f"{name}.page"
        path.write_bytes(b"x" * 100)
        os.utime(path, (now - age * 60, now - age * 60))
    (tmp_path / "other.pdf").write_bytes(b"y" * 500)  # another kind of file: not counted, not touched
    assert trim_to_budget(tmp_path, 250, ".page", keep=tmp_path / "oldest.page") == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["newest.page", "oldest.page", "other.pdf"]
    assert trim_to_budget(tmp_path, 0, ".page") == 2
    assert trim_to_budget(tmp_path / "missing", 10, ".page") == 0
