"""Names through the app: kept in NFC, found by any spelling that looks alike (the API, the forms, the roster),
counted in letters, shown whole (Barbu's double marks, the chart's legend); and the migration that respells rosters.
"""

from __future__ import annotations

import re

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, text

from helpers.api import create_match, error_of, post_hand
from helpers.clubs import admin_post, club_of, reasons
from helpers.forms import csrf_token, post_form
from helpers.names import DECOMPOSED, LED_BY_A_MARK, SAME_NAME, SREYPOV, TOO_LONG, khmer_name
from scorekeeper.app import create_app
from scorekeeper.db import db
from scorekeeper.games.base import same_name
from scorekeeper.models import ClubPlayer, Match
from scorekeeper.names import letters
from scorekeeper.web.sheets import charts

ZOE = "Zo\u00e9"
KHMER_TA, KHMER_DA = "\u17a7\u178f\u17d2\u178f\u1798", "\u17a7\u178f\u17d2\u178a\u1798"  # ឧត្តម, ឧត្ដម
FULL_WIDTH = "\uff21\uff4e\uff4e"  # Ａｎｎ: the older key folds its case only, the look-alike key its width too
BEFORE = "d4a9c3e7f215"  # the revision before names had one spelling


# -- the JSON API ---------------------------------------------------------------------------------------------


def test_a_match_keeps_names_in_nfc_and_takes_a_hand_naming_a_player_in_another_spelling(client: FlaskClient):
    match = create_match(client, "barbu", [DECOMPOSED, "Bob", "Cid", "Dee"], {"first_declarer": "zoe\u0301"})
    assert match["players"][0] == ZOE
    answer = post_hand(client, match, {"contract": "barbu", "king_of_hearts": "ZOE\u0301"})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["hands"][0]["entry"]["king_of_hearts"] == ZOE
    answer = post_hand(client, match, {"contract": "no_queens", "queens": {DECOMPOSED: 1, "Bob": 1, "Cid": 1, "Dee": 1}})
    assert answer.status_code == 201, answer.get_json()
    assert list(answer.get_json()["hands"][1]["entry"]["queens"]) == [ZOE, "Bob", "Cid", "Dee"]


@pytest.mark.parametrize("players, reason", [
    ([KHMER_TA, KHMER_DA, "Cid", "Dee"], SAME_NAME),
    ([SREYPOV, "\u179f\u17b8\u17d2\u179a\u1796\u17c5", "Cid", "Dee"], SAME_NAME),
    (["\u0e84\u0eb3", "\u0e84\u0ecd\u0eb2", "Cid", "Dee"], SAME_NAME),
    ([khmer_name(41), "Bob", "Cid", "Dee"], TOO_LONG),
    (["\u0301Ann", "Bob", "Cid", "Dee"], LED_BY_A_MARK),
], ids=["khmer-da-ta", "khmer-reordered", "lao-am", "41-khmer-letters", "led-by-a-mark"])
def test_the_api_refuses_look_alikes_long_names_and_a_name_led_by_a_mark(client: FlaskClient, players, reason):
    answer = client.post("/api/v1/matches", json={"game": "kozyol", "players": players})
    assert error_of(answer, 422)["fields"] == {"players": reason}


def test_the_api_counts_letters_and_drops_zero_width_spaces(client: FlaskClient):
    forty = khmer_name(40)
    assert len(forty) > 40
    match = create_match(client, "kozyol", [forty, "\u179f\u17d2\u179a\u17b8\u200b\u1796\u17c5", "Cid", "Dee"])
    assert match["players"][:2] == [forty, SREYPOV]


# -- the forms and the club's roster ------------------------------------------------------------------------------


def test_the_new_match_form_keeps_the_name_in_nfc(client: FlaskClient):
    answer = post_form(client, "/new/barbu", {"players-0": DECOMPOSED, "players-1": "Bob", "players-2": "Cid",
                                              "players-3": "Dee", "first_declarer": "0"})
    assert answer.status_code == 302, reasons(answer.text)
    state = client.get(f"/api/v1/matches/{answer.headers['Location'].rsplit('/', 1)[1]}").get_json()
    assert state["players"][0] == ZOE


def test_a_look_alike_spelling_joins_no_roster_twice(client: FlaskClient):
    club = club_of(client, [ZOE, KHMER_TA])
    for same in (DECOMPOSED, "ZOE\u0301", KHMER_DA):
        answer = admin_post(client, club, "players", "add", {"name": same})
        assert reasons(answer.text).get("name") == "The club already has a player of that name.", same
    api = client.get(f"/api/v1/clubs/{club}").get_json()
    assert sorted(player["name"] for player in api["players"]) == sorted([ZOE, KHMER_TA])


def test_a_club_match_seats_the_roster_player_a_look_alike_names(app: Flask, client: FlaskClient):
    club = club_of(client, [ZOE, KHMER_TA, "Cid", "Dee"])
    data = {"csrf_token": csrf_token(client, "/clubs/new"), "target": "1", "first_dealer": "0",
            **{f"new_players-{seat}": name for seat, name in enumerate([DECOMPOSED, KHMER_DA, "cid", "DEE"])}}
    started = client.post(f"/c/{club}/new/kozyol", data=data)
    assert started.status_code == 302, reasons(started.text)
    state = client.get(f"/api/v1/matches/{started.headers['Location'].rsplit('/', 1)[1]}").get_json()
    assert state["players"] == [ZOE, KHMER_TA, "Cid", "Dee"]  # the roster's own spellings
    assert len(client.get(f"/api/v1/clubs/{club}").get_json()["players"]) == 4  # nobody new


def test_a_roster_name_stored_decomposed_is_found_by_its_pick_and_its_nfc_spelling(app: Flask, client: FlaskClient):
    club = club_of(client, ["Bob", "Cid", "Dee"])
    with app.app_context():  # a name kept before names had one spelling
        db.session.execute(text("INSERT INTO club_players (club_id, name, folded, created_at, guest) SELECT id, "
                                ":name, :folded, created_at, :no FROM clubs WHERE public_id = :club"),
                           {"name": DECOMPOSED, "folded": same_name(DECOMPOSED), "club": club, "no": False})
        db.session.commit()
    data = {"csrf_token": csrf_token(client, "/clubs/new"), "target": "1", "first_dealer": "0",
            "players-0": DECOMPOSED, "players-1": "Bob", "players-2": "Cid", "new_players-3": "dee"}
    started = client.post(f"/c/{club}/new/kozyol", data=data)
    assert started.status_code == 302, reasons(started.text)
    public_id = started.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/v1/matches/{public_id}").get_json()["players"][0] == ZOE
    assert len(client.get(f"/api/v1/clubs/{club}").get_json()["players"]) == 4  # nobody new
    with app.app_context():
        seated = db.session.scalar(select(Match.seat_ids).where(Match.public_id == public_id))
        assert db.session.get(ClubPlayer, seated[0]).name == DECOMPOSED  # the entry kept before


# -- shown whole ----------------------------------------------------------------------------------------------


def test_barbu_double_marks_show_whole_letters(client: FlaskClient):
    match = create_match(client, "barbu", [SREYPOV, "Bob", "Cid", "Dee"], {"first_declarer": SREYPOV})
    doubled = {"contract": "barbu", "king_of_hearts": "Bob", "doubles": [{"by": "Bob", "target": SREYPOV}]}
    assert post_hand(client, match, doubled).status_code == 201
    page = client.get(f"/m/{match['id']}").text
    marks = re.findall(r'<span class="dbl[^"]*"[^>]*>([^<]*)</span>', page)
    assert marks == [SREYPOV]  # its two letters, ស្រី and ពៅ, never ស្ alone


def test_the_chart_legend_cuts_a_name_between_letters_and_has_room_below_its_baseline():
    long = khmer_name(40)
    svg = charts.running_totals_svg([long, "Bob"], [[0, 5], [0, -5]], "Totals")
    shown = re.findall(r"</title>([^<]*)</text>", svg)[0]
    assert shown.endswith("\u2026") and len(letters(shown)) == charts.LEGEND_CHARS
    assert long.startswith(shown[:-1]) and letters(shown[:-1]) == letters(long)[:charts.LEGEND_CHARS - 1]
    height = float(re.search(r'viewBox="0 0 \d+ ([\d.]+)"', svg).group(1))
    baseline = max(float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)" font-size="12"', svg))
    assert height - baseline >= charts.LEGEND_DESCENT


# -- the migration --------------------------------------------------------------------------------------------


def test_the_migration_respells_rosters_in_nfc_and_refolds_them_unless_two_look_alike(empty_database_url: str):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": empty_database_url,
                      "MIGRATE_ON_START": False, "RATELIMIT_ENABLED": False})
    older = lambda name: name.casefold()  # noqa: E731 - the key before, for these names (NFC already, no spaces)
    rows = [(1, DECOMPOSED, "zoe\u0301", None), (2, FULL_WIDTH, older(FULL_WIDTH), None), (3, KHMER_TA, older(KHMER_TA), None),
            (4, KHMER_DA, older(KHMER_DA), None), (5, "Zo\u00e9", None, 1)]
    with app.app_context():
        flask_migrate.upgrade(revision=BEFORE)
        with db.engine.begin() as connection:
            connection.execute(text("INSERT INTO clubs (id, public_id, name, admin_key_hash, house_rules, min_matches, "
                                    "version, created_at) VALUES (1, 'club-one', 'One', :hash, '{}', 3, 1, :at)"),
                               {"hash": "0" * 64, "at": "2026-12-01 20:00:00+00:00"})
            for row_id, name, folded, merged in rows:
                connection.execute(text("INSERT INTO club_players (id, club_id, name, folded, merged_into, created_at) "
                                        "VALUES (:id, 1, :name, :folded, :merged, :at)"),
                                   {"id": row_id, "name": name, "folded": folded, "merged": merged,
                                    "at": "2026-12-01 20:00:00+00:00"})
        flask_migrate.upgrade()
        found = stored(app)
        assert found[1] == (ZOE, same_name(ZOE))  # respelt, and its key the look-alike key
        assert found[2] == (FULL_WIDTH, "ann")
        assert found[3] == (KHMER_TA, older(KHMER_TA)) and found[4] == (KHMER_DA, older(KHMER_DA))  # kept apart
        assert found[5] == (ZOE, None)  # a merged entry: respelt, still merged
        db.session.remove()
        flask_migrate.downgrade(revision=BEFORE)
        assert stored(app)[2] == (FULL_WIDTH, older(FULL_WIDTH))  # the older code's key again
        db.session.remove()
        db.engine.dispose()


def stored(app: Flask) -> dict[int, tuple[str, str | None]]:
    with db.engine.connect() as connection:
        return {row.id: (row.name, row.folded)
                for row in connection.execute(text("SELECT id, name, folded FROM club_players"))}


def test_a_roster_takes_a_name_of_forty_letters_and_more_code_points(client: FlaskClient):
    club = club_of(client, [])
    forty = khmer_name(40)
    answer = admin_post(client, club, "players", "add", {"name": forty})
    assert answer.status_code == 302, reasons(answer.text)
    assert [player["name"] for player in client.get(f"/api/v1/clubs/{club}").get_json()["players"]] == [forty]
