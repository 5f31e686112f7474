"""A club page after a result is drawn once for all the workers of the machine, in parts between which a
worker answers its other phones."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from helpers.apps import apps
from helpers.clubs import QUICK, TEAM_0_LOSES, TEAM_1_LOSES
from helpers.compiled import share_compiled_templates
from helpers.matches import FIRST_HAND, PLAYERS
from scorekeeper import serving
from scorekeeper.club import service as clubs
from scorekeeper.match import matches
from scorekeeper.web.club import pages
from scorekeeper.web.page_cache import PageCache


@pytest.fixture
def workers(database_url: str, tmp_path: Path, monkeypatch) -> Iterator[tuple[Flask, Flask]]:
    """Two apps on one database and one instance folder: two workers of one machine."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    with apps(database_url, MIGRATE_ON_START=False) as make:
        yield share_compiled_templates(make()), share_compiled_templates(make())


def played_club(app: Flask) -> str:
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        for deal in (TEAM_0_LOSES, TEAM_1_LOSES):
            match, _key = clubs.start_match(club, "kozyol", PLAYERS, QUICK)
            matches.record(match.public_id, deal)
        return club.public_id


def a_result(app: Flask, public_id: str) -> None:
    with app.app_context():
        match, _key = clubs.start_match(clubs.find(public_id), "kozyol", PLAYERS, QUICK)
        matches.record(match.public_id, TEAM_0_LOSES)


def same(page: str) -> str:
    """The page without the phone's own form token (the evening card puts in each phone's)."""
    return re.sub(r'"[^"]*##[0-9a-f]+"', '"token"', page)


def forget_in_memory() -> None:
    """What another worker process does not have: this process's kept pages (the folder stays)."""
    for cache in (pages.STANDINGS, pages.EVENINGS):
        cache.clear()
    PageCache.clear(pages.PAGES)


def drawings(monkeypatch) -> list[str]:
    """The club pages drawn from now on, by the club's public id."""
    drawn: list[str] = []
    real = pages.club_page
    monkeypatch.setattr(pages, "club_page", lambda found, season: (drawn.append(found.public_id),
                                                                   real(found, season))[1])
    return drawn


def test_after_a_result_the_second_worker_reads_the_page_the_first_drew(workers, monkeypatch):
    first, second = workers
    drawn = drawings(monkeypatch)
    public_id = played_club(first)
    a_result(first, public_id)
    page = first.test_client().get(f"/c/{public_id}")
    assert page.status_code == 200 and drawn == [public_id]
    forget_in_memory()
    again = second.test_client().get(f"/c/{public_id}")
    assert again.status_code == 200 and drawn == [public_id]  # read, not drawn again
    assert same(again.text) == same(page.text)
    a_result(second, public_id)  # the next result: the next version, drawn once more by whoever comes first
    forget_in_memory()
    after = second.test_client().get(f"/c/{public_id}").text
    assert drawn == [public_id, public_id] and same(after) != same(page.text)
    forget_in_memory()
    assert same(first.test_client().get(f"/c/{public_id}").text) == same(after) and len(drawn) == 2


def test_a_page_a_dead_worker_was_drawing_is_drawn_by_the_next(workers, monkeypatch):
    first, _second = workers
    public_id = played_club(first)
    first.test_client().get(f"/c/{public_id}")
    folder = Path(first.instance_path) / "pages"
    claims = []
    for page in folder.iterdir():
        claim = page.with_suffix(".claim")
        claim.touch()
        os.utime(claim, (time.time() - 60, time.time() - 60))  # its worker died a minute ago
        claims.append(claim)
    a_result(first, public_id)
    forget_in_memory()
    assert first.test_client().get(f"/c/{public_id}").status_code == 200
    assert claims and not any(claim.exists() for claim in claims)


def test_a_worker_draws_the_page_itself_when_another_takes_too_long(workers, monkeypatch):
    first, _second = workers
    monkeypatch.setattr(type(pages.PAGES), "WAIT", 0.05)
    public_id = played_club(first)
    first.test_client().get(f"/c/{public_id}")
    folder = Path(first.instance_path) / "pages"
    for page in list(folder.iterdir()):
        page.with_suffix(".claim").touch()  # another worker is drawing it right now
    a_result(first, public_id)
    forget_in_memory()
    began = time.monotonic()
    answer = first.test_client().get(f"/c/{public_id}")
    assert answer.status_code == 200 and "Sunday table" in answer.text and time.monotonic() - began < 5


def test_the_page_after_a_result_is_drawn_in_parts_with_the_other_phones_in_between(workers, monkeypatch):
    first, _second = workers
    public_id = played_club(first)
    first.test_client().get(f"/c/{public_id}")
    breaths: list[int] = []
    monkeypatch.setattr(serving, "breathe", lambda: breaths.append(1))
    a_result(first, public_id)
    assert first.test_client().get(f"/c/{public_id}").status_code == 200
    assert len(breaths) >= 2  # at least before the table and before the evening drawn again


def test_a_hand_in_play_leaves_the_club_page_as_drawn_and_the_match_ending_draws_it(workers, monkeypatch):
    """The page is kept by what it shows: a hand at a table in play changes the club's stamp, not its page."""
    first, second = workers
    drawn = drawings(monkeypatch)
    public_id = played_club(first)
    with first.app_context():
        barbu, _key = clubs.start_match(clubs.find(public_id), "barbu", PLAYERS, {"first_declarer": PLAYERS[0]})
        barbu_id = barbu.public_id
    before = first.test_client().get(f"/c/{public_id}").text
    assert len(drawn) == 1
    with first.app_context():
        matches.record(barbu_id, FIRST_HAND)
    forget_in_memory()
    during = second.test_client().get(f"/c/{public_id}").text
    assert len(drawn) == 1 and same(during) == same(before)  # another worker, a new stamp: the page as drawn
    a_result(second, public_id)  # a match ends: its evening and its table change
    after = first.test_client().get(f"/c/{public_id}").text
    assert len(drawn) == 2 and same(after) != same(before)


def test_pages_not_drawn_again_for_a_day_are_removed(workers, monkeypatch):
    first, _second = workers
    monkeypatch.setattr(type(pages.PAGES), "SWEEP_EVERY", 1)
    public_id = played_club(first)
    first.test_client().get(f"/c/{public_id}")
    folder = Path(first.instance_path) / "pages"
    old = folder / "a-page-of-last-week"
    old.write_bytes(b"'v'\\n<html></html>")
    os.utime(old, (time.time() - 8 * 86400, time.time() - 8 * 86400))
    a_result(first, public_id)
    forget_in_memory()
    first.test_client().get(f"/c/{public_id}")  # a page written: the folder is swept
    assert not old.exists() and any(folder.iterdir())


def test_addresses_with_arguments_are_kept_in_memory_and_write_no_file(workers, monkeypatch):
    """Only the addresses phones keep open are shared through files: made-up query strings cannot fill the
    instance folder, where the database lives too, and are still answered as their page."""
    first, _second = workers
    public_id = played_club(first)
    client = first.test_client()
    assert client.get(f"/c/{public_id}").status_code == 200
    folder = Path(first.instance_path) / "pages"
    before = sorted(path.name for path in folder.iterdir())
    with first.app_context():
        match_id = clubs.start_match(clubs.find(public_id), "kozyol", PLAYERS, QUICK)[0].public_id
    watcher = first.test_client()
    for n in range(30):
        assert client.get(f"/c/{public_id}?x={n}{'y' * 2000}").status_code == 200
        assert watcher.get(f"/m/{match_id}?n={n}").status_code == 200
    assert watcher.get(f"/m/{match_id}").status_code == 200  # the address phones keep: shared
    after = sorted(path.name for path in folder.iterdir())
    assert len(after) == len(before) + 1, (before, after)


def test_a_folder_that_cannot_be_made_leaves_the_page_answered(workers, monkeypatch):
    first, _second = workers
    public_id = played_club(first)

    def refused(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "mkdir", refused)
    answer = first.test_client().get(f"/c/{public_id}")
    assert answer.status_code == 200 and "Sunday table" in answer.text
