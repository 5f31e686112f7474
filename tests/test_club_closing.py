"""Closing an evening while a table still plays: "Close the evening" first names the matches still being
played and asks; closed, the phones at that table read why at the top of the match, not "You are watching"."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clubs import TEAM_1_LOSES
from helpers.evening_tables import TwoTables
from helpers.i18n import seen, translated

CLOSED = "The evening of this match (Friday) is closed: only the club's admin can change it."
WATCHING = "You are watching. Ask the table for the edit link to enter deals."


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> TwoTables:
    return TwoTables(app, client)


def test_closing_with_a_table_still_playing_names_it_and_asks_first(night: TwoTables):
    asked = night.close()
    assert asked.status_code == 200
    page = seen(asked.text)
    assert "1 match of Friday is still being played." in page
    names = night.client.get(f"/api/v1/matches/{night.playing['id']}").get_json()["players"]
    assert f"Round 1, table 2: {', '.join(names)} · 0 hands played" in page
    assert f'href="/m/{night.playing["id"]}"' in asked.text
    assert "Keep the evening open" in page and "Close the evening anyway" in page
    assert night.closed_at() is None  # asked, not closed

    closed = night.close(playing="close")
    assert closed.status_code == 302 and night.closed_at() is not None
    assert "Evening closed" in seen(night.admin.get(closed.headers["Location"]).text)


def test_an_evening_whose_matches_are_all_finished_closes_in_one_tap(night: TwoTables):
    sent = night.client.post(f"/api/v1/matches/{night.playing['id']}/hands", json=TEAM_1_LOSES,
                             headers=bearer(night.playing["edit_key"]))
    assert sent.status_code == 201
    assert night.close().status_code == 302 and night.closed_at() is not None


def test_only_the_admin_is_asked(night: TwoTables, app: Flask):
    stranger = app.test_client()
    stranger.get(f"/c/{night.club}")
    assert night.close(stranger).status_code == 403
    assert night.closed_at() is None


def test_a_phone_at_a_closed_evenings_table_reads_why_at_the_top(night: TwoTables):
    table = night.at_table(night.playing)
    assert WATCHING not in seen(table.get(f"/m/{night.playing['id']}").text)
    assert night.close(playing="close").status_code == 302
    page = table.get(f"/m/{night.playing['id']}").text
    text = seen(page)
    assert WATCHING not in text  # it holds the edit link: it is not watching
    assert text.count(CLOSED) == 2  # at the top, and where the next deal's button was
    assert page.index('id="evening-closed"') < page.index('id="standings"') < page.index('id="next"')
    assert f"/m/{night.playing['id']}/hands/new" not in page
    watcher = night.app.test_client()  # a phone without the edit link watches, and reads why too
    seen_by_watcher = seen(watcher.get(f"/m/{night.playing['id']}").text)
    assert CLOSED in seen_by_watcher and WATCHING in seen_by_watcher


def test_closing_and_reopening_raise_the_version_of_the_tables_still_playing(night: TwoTables):
    def version(table: dict) -> int:
        return night.client.get(f"/api/v1/matches/{table['id']}").get_json()["version"]

    playing, done = version(night.playing), version(night.done)
    assert night.close(playing="close").status_code == 302
    assert version(night.playing) > playing and version(night.done) == done  # its phones redraw and read why
    reopened = night.admin.post(f"/c/{night.club}/admin/evenings/{night.evening}/reopen",
                                data={"csrf_token": csrf(night)})
    assert reopened.status_code == 302 and version(night.playing) > playing + 1


def csrf(night: TwoTables) -> str:
    from helpers.forms import csrf_token

    return csrf_token(night.admin, "/clubs/new")


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_question_and_the_reason_in_french_and_russian(night: TwoTables, lang: str):
    night.admin.get(f"/language/{lang}")
    page = seen(night.close().text)
    assert translated(lang, "Close the evening anyway") in page
    assert translated(lang, "Keep the evening open") in page
    assert "still being played" not in page and "Close the evening anyway" not in page
    table = night.at_table(night.playing)
    table.get(f"/language/{lang}")
    assert night.close(playing="close").status_code == 302
    text = seen(table.get(f"/m/{night.playing['id']}").text)
    sentence = translated(lang, "The evening of this match ({evening}) is closed: only the club's admin can change "
                                "it.").replace("{evening}", "Friday")
    assert text.count(sentence) == 2
