"""One Wi-Fi, one address: a club's tables are counted per club and per match, not all against their address.

A club's phones share the club's public address. Counted by address, a hundred tables could neither
start their matches (30 a minute) nor download their sheets at the end (30 PDFs a minute). A club's
requests now count per club, a match's sheet per match; a casual phone without a key, a blank sheet and
every wrong key still count per address, and a sheet already rendered and kept costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer, create_match
from helpers.apps import apps
from helpers.clubs import QUICK, TEAM_0_LOSES, TEAM_1_LOSES
from helpers.matches import PLAYERS

LOW = {"RATELIMIT_NEW_MATCHES": "2 per minute", "RATELIMIT_CLUB_MATCHES": "6 per minute",
       "RATELIMIT_PDFS": "2 per minute", "RATELIMIT_NEW_CLUBS": "5 per minute"}
CLUB = "192.0.2.50"  # the club's Wi-Fi: every phone of the evening behind it


@pytest.fixture
def limited(database_url: str, tmp_path: Path, monkeypatch) -> Iterator[Callable[..., Flask]]:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    with apps(database_url, SECRET_KEY="limits", MIGRATE_ON_START=True, RATELIMIT_ENABLED=True, **LOW) as make:
        yield make


def phone(app: Flask, address: str = CLUB) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def club(client: FlaskClient) -> dict:
    answer = client.post("/api/v1/clubs", json={"name": "Les Dimanches"})
    assert answer.status_code == 201
    return answer.get_json()


def start(client: FlaskClient, club_id: str, table: int):
    return client.post(f"/api/v1/clubs/{club_id}/matches", json={
        "game": "kozyol", "players": [f"P{table}a", f"P{table}b", f"P{table}c", f"P{table}d"], "options": QUICK})


def test_a_clubs_tables_start_their_matches_and_download_their_sheets_from_one_address(limited):
    app = limited(PDF_CACHE_BYTES="0")
    tables = [phone(app) for _ in range(5)]  # five tables, five phones, one address
    club_id = club(tables[0])["id"]
    started = [start(table, club_id, number) for number, table in enumerate(tables)]
    assert [answer.status_code for answer in started] == [201] * 5  # over the address's 2 new matches a minute
    for table, answer in zip(tables, started):
        made = answer.get_json()
        assert table.post(f"/api/v1/matches/{made['id']}/hands", json=TEAM_0_LOSES,
                          headers=bearer(made["edit_key"])).status_code == 201
    sheets = [table.get(f"/api/v1/matches/{answer.get_json()['id']}/sheet.pdf") for table, answer in
              zip(tables, started)]
    assert [sheet.status_code for sheet in sheets] == [200] * 5  # over the address's 2 PDFs a minute
    # A casual phone behind the same address keeps the address's limits, for matches and blank sheets.
    walker = phone(app)
    assert [walker.post("/api/v1/matches", json={"game": "barbu", "players": PLAYERS}).status_code
            for _ in range(3)] == [201, 201, 429]
    assert [walker.get("/sheets/barbu.pdf").status_code for _ in range(3)] == [200, 200, 429]


def test_a_clubs_matches_count_per_club_and_a_matchs_sheet_per_match(limited):
    app = limited(PDF_CACHE_BYTES="0")
    one = phone(app)
    first, second = club(one)["id"], club(one)["id"]
    assert [start(one, first, n).status_code for n in range(7)] == [201] * 6 + [429]
    assert start(one, second, 0).status_code == 201  # another club, the same address: its own count
    made = start(one, second, 1).get_json()
    played = one.post(f"/api/v1/matches/{made['id']}/hands", json=TEAM_1_LOSES, headers=bearer(made["edit_key"]))
    assert played.status_code == 201
    url = f"/api/v1/matches/{made['id']}/sheet.pdf"
    assert [one.get(url).status_code for _ in range(3)] == [200, 200, 429]  # rendered each time: 2 a minute
    other = start(one, second, 2).get_json()
    assert one.get(f"/api/v1/matches/{other['id']}/sheet.pdf").status_code == 200  # another match's own count


def test_a_casual_match_sheet_counts_per_match_for_the_phone_holding_its_key(limited):
    app = limited(PDF_CACHE_BYTES="0")
    keeper = phone(app)
    made = create_match(keeper)
    url = f"/api/v1/matches/{made['id']}/sheet.pdf"
    watcher = phone(app)
    assert [watcher.get(url).status_code for _ in range(3)] == [200, 200, 429]  # no key: the address counts
    keeper.get(made["edit_url"])  # the edit link opened: its key kept on this phone
    assert keeper.get(url).status_code == 200  # its key: counted per match, not with the watcher's address


def test_a_sheet_already_rendered_and_kept_costs_nothing(limited):
    app = limited()  # sheets are kept (the default)
    walker = phone(app)
    assert [walker.get("/sheets/kozyol.pdf").status_code for _ in range(5)] == [200] * 5
    assert [walker.get(f"/sheets/barbu.pdf?players={name},B,C,D").status_code for name in ("A", "X", "Y")] \
        == [200, 429, 429]
