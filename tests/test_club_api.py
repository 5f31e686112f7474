"""The club API: every endpoint, its key rules and refusals, CSV read back, answers as documented."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer, error_of
from helpers.club_matches import FOUR
from helpers.clubs import QUICK, TEAM_0_LOSES, TEAM_1_LOSES
from helpers.openapi import check_answer
from scorekeeper.app import create_app
from scorekeeper.db import db

API = "/api/v1"
CLUB = f"{API}/clubs/{{club_id}}"


def make_club(client: FlaskClient, **body: Any) -> dict[str, Any]:
    answer = client.post(f"{API}/clubs", json={"name": "Sunday table", **body})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def start(client: FlaskClient, club: dict[str, Any], players: list[str] = FOUR, *deals: dict[str, Any]
          ) -> dict[str, Any]:
    """A quick Kozyol match of the club, with deals played through the API."""
    answer = client.post(f"{API}/clubs/{club['id']}/matches", json={"game": "kozyol", "players": players,
                                                                    "options": QUICK})
    assert answer.status_code == 201, answer.get_json()
    match = answer.get_json()
    for deal in deals:
        assert client.post(f"{API}/matches/{match['id']}/hands", json=deal,
                           headers=bearer(match["edit_key"])).status_code == 201
    return match


def rows(answer) -> list[dict[str, str]]:
    """A CSV answer read back with the csv module, after checking it is a UTF-8 download."""
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert answer.headers["Content-Disposition"].startswith('attachment; filename="')
    assert answer.headers["Content-Disposition"].endswith('.csv"')
    data = answer.get_data()
    assert not data.startswith(b"\xef\xbb\xbf")  # no byte order mark
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))


def test_a_club_is_made_read_and_run_with_its_admin_key(client: FlaskClient, document):
    made = client.post(f"{API}/clubs", json={"name": "  Sunday table ", "house_rules": {"hearts": {"target": 50}}})
    check_answer(document, f"{API}/clubs", "POST", made)
    club = made.get_json()
    assert club["name"] == "Sunday table" and club["house_rules"]["hearts"]["target"] == 50
    assert club["admin_url"].endswith(f"/c/{club['id']}/join/{club['admin_key']}")
    key, url = bearer(club["admin_key"]), f"{API}/clubs/{club['id']}"
    added = client.post(f"{url}/players", json={"name": "Ann"}, headers=key)
    check_answer(document, f"{CLUB}/players", "POST", added)
    ann = added.get_json()["id"]
    renamed = client.patch(f"{url}/players/{ann}", json={"name": "Annie"}, headers=key)
    check_answer(document, f"{CLUB}/players/{{player_id}}", "PATCH", renamed)
    assert renamed.get_json() == {"id": ann, "name": "Annie"}
    rules = client.put(f"{url}/rules", json={"min_matches": 1, "house_rules": {"kozyol": QUICK}}, headers=key)
    check_answer(document, f"{CLUB}/rules", "PUT", rules)
    assert rules.get_json()["min_matches"] == 1 and "hearts" not in rules.get_json()["house_rules"]
    season = client.post(f"{url}/seasons", json={"name": "Winter", "starts": "2026-11-01", "ends": "2027-02-28"},
                         headers=key)
    check_answer(document, f"{CLUB}/seasons", "POST", season)
    evening = client.put(f"{url}/evenings/2026-12-05", json={"name": "Friday 5 Dec"}, headers=key)
    check_answer(document, f"{CLUB}/evenings/{{day}}", "PUT", evening)
    assert evening.get_json() == {"day": "2026-12-05", "name": "Friday 5 Dec"}
    read = client.get(url)
    check_answer(document, CLUB, "GET", read)
    assert read.get_json()["players"] == [{"id": ann, "name": "Annie"}]
    assert read.get_json()["seasons"][0]["name"] == "Winter"
    rotated = client.post(f"{url}/key", headers=key)
    check_answer(document, f"{CLUB}/key", "POST", rotated)
    assert client.post(f"{url}/players", json={"name": "Bob"}, headers=key).status_code == 403
    assert client.post(f"{url}/players", json={"name": "Bob"},
                       headers=bearer(rotated.get_json()["admin_key"])).status_code == 201


WRITES = [("post", "players", {"name": "Eve"}), ("patch", "players/1", {"name": "Eve"}),
          ("post", "players/1/merge", {"into": 2}), ("put", "rules", {"min_matches": 2}),
          ("post", "seasons", {"name": "S", "starts": "2026-01-01", "ends": "2026-12-31"}),
          ("put", "evenings/2026-12-05", {"name": "E"}), ("post", "key", None)]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_club_writes_need_the_admin_key(client: FlaskClient, method: str, path: str, body: Any):
    club = make_club(client)
    url = f"{API}/clubs/{club['id']}/{path}"
    send = getattr(client, method)
    assert error_of(send(url, json=body), 401)["message"]
    assert error_of(send(url, json=body, headers=bearer("not-the-key")), 403)["message"]
    assert error_of(send(url, json=body, headers=bearer(start(client, club)["edit_key"])), 403)  # a match's key
    assert error_of(send(f"{API}/clubs/no-such-club/{path}", json=body, headers=bearer(club["admin_key"])), 404)


def test_refusals_name_the_field(client: FlaskClient):
    assert "name" in error_of(client.post(f"{API}/clubs", json={"name": " "}), 422)["fields"]
    assert "name" in error_of(client.post(f"{API}/clubs", json={"name": "x" * 61}), 422)["fields"]
    seat = client.post(f"{API}/clubs", json={"name": "T", "house_rules": {"barbu": {"first_declarer": "Ann"}}})
    assert "house_rules.barbu" in error_of(seat, 422)["fields"]
    bad = client.post(f"{API}/clubs", json={"name": "T", "house_rules": {"hearts": {"target": 5000}}})
    assert "house_rules.hearts.target" in error_of(bad, 422)["fields"]
    error_of(client.post(f"{API}/clubs", data=b"[1]", content_type="application/json"), 400)
    club = make_club(client)
    url, key = f"{API}/clubs/{club['id']}", bearer(club["admin_key"])
    ann = client.post(f"{url}/players", json={"name": "Ann"}, headers=key).get_json()["id"]
    assert "name" in error_of(client.post(f"{url}/players", json={"name": "ANN"}, headers=key), 422)["fields"]
    assert "name" in error_of(client.post(f"{url}/players", json={"name": 3}, headers=key), 422)["fields"]
    assert "into" in error_of(client.post(f"{url}/players/{ann}/merge", json={"into": "x"}, headers=key),
                              422)["fields"]
    assert "into" in error_of(client.post(f"{url}/players/{ann}/merge", json={"into": ann}, headers=key),
                              422)["fields"]
    error_of(client.post(f"{url}/players/{ann}/merge", json={"into": 2**40}, headers=key), 404)
    error_of(client.patch(f"{url}/players/{2**40}", json={"name": "Zed"}, headers=key), 404)
    assert "min_matches" in error_of(client.put(f"{url}/rules", json={"min_matches": 0}, headers=key), 422)["fields"]
    assert "ends" in error_of(client.post(f"{url}/seasons", json={"name": "S", "starts": "2026-02-01",
                                                                  "ends": "2026-01-01"}, headers=key), 422)["fields"]
    assert "day" in error_of(client.put(f"{url}/evenings/tomorrow", json={"name": "E"}, headers=key), 422)["fields"]
    assert "players" in error_of(client.post(f"{url}/matches", json={"game": "kozyol", "players": ["Ann"]}),
                                 422)["fields"]
    assert "game" in error_of(client.post(f"{url}/matches", json={"game": "chess", "players": FOUR}), 422)["fields"]
    assert "game" in error_of(client.get(f"{url}/standings?game=chess"), 422)["fields"]
    for missing in (f"{API}/clubs/nope", f"{url}/standings?season=77", f"{url}/standings?season=-1",
                    f"{url}/players/999", f"{url}/head-to-head?a={ann}&b=999", f"{url}/head-to-head?a=x&b=1",
                    f"{url}/matches.csv?season=9", f"{API}/matches/nope/hands.csv"):
        error_of(client.get(missing), 404)


def test_a_club_match_takes_the_roster_and_the_standings_follow_a_correction(client: FlaskClient, document):
    club = make_club(client, house_rules={"kozyol": QUICK})
    url = f"{API}/clubs/{club['id']}"
    started = client.post(f"{url}/matches", json={"game": "kozyol", "players": FOUR})
    check_answer(document, f"{CLUB}/matches", "POST", started)
    match = started.get_json()
    assert match["club"] == club["id"] and match["options"]["target"] == QUICK["target"]
    ids = {player["name"]: player["id"] for player in client.get(url).get_json()["players"]}
    assert match["seat_ids"] == [ids[name] for name in FOUR]
    hand = f"{API}/matches/{match['id']}/hands"
    assert client.post(hand, json=TEAM_0_LOSES, headers=bearer(match["edit_key"])).status_code == 201
    table = client.get(f"{url}/standings?game=kozyol")
    check_answer(document, f"{CLUB}/standings", "GET", table)
    goats = {row["name"]: row["figures"]["goats"] for row in table.get_json()["games"]["kozyol"]["standings"]}
    assert goats == {"Ann": 1, "Cid": 1, "Bob": 0, "Dee": 0}
    assert client.put(f"{hand}/1", json=TEAM_1_LOSES, headers=bearer(match["edit_key"])).status_code == 200
    table = client.get(f"{url}/standings").get_json()
    goats = {row["name"]: row["figures"]["goats"] for row in table["games"]["kozyol"]["standings"]}
    assert goats == {"Ann": 0, "Cid": 0, "Bob": 1, "Dee": 1}
    every = client.get(f"{url}/standings?season=all")  # "all" is all time, as the document says
    check_answer(document, f"{CLUB}/standings", "GET", every)
    assert every.get_json() == table
    season = next(p for p in document["paths"][f"{CLUB}/standings"]["get"]["parameters"] if p.get("name") == "season")
    assert re.fullmatch(season["schema"]["pattern"].strip("^$"), "all")
    assert {row["name"] for row in table["games"]["kozyol"]["ratings"]} == set(FOUR)
    stats = client.get(f"{url}/players/{ids['Bob']}")
    check_answer(document, f"{CLUB}/players/{{player_id}}", "GET", stats)
    assert stats.get_json()["games"]["kozyol"]["goats"] == 1
    meeting = client.get(f"{url}/head-to-head?a={ids['Ann']}&b={ids['Bob']}")
    check_answer(document, f"{CLUB}/head-to-head", "GET", meeting)
    assert meeting.get_json()["games"]["kozyol"]["a_ahead"] == 1
    start(client, club, ["Ann", "Eve", "Cid", "Dee"], TEAM_1_LOSES)  # Eve joins the roster
    eve = next(p["id"] for p in client.get(url).get_json()["players"] if p["name"] == "Eve")
    merged = client.post(f"{url}/players/{eve}/merge", json={"into": ids["Bob"]}, headers=bearer(club["admin_key"]))
    check_answer(document, f"{CLUB}/players/{{player_id}}/merge", "POST", merged)
    assert client.get(f"{url}/players/{ids['Bob']}").get_json()["games"]["kozyol"]["goats"] == 2
    error_of(client.get(f"{url}/players/{eve}"), 404)


def test_evenings_list_the_matches_of_each_day_the_latest_first_a_page_at_a_time(app: Flask, client: FlaskClient,
                                                                                  document):
    from datetime import date

    from sqlalchemy import select, update

    from scorekeeper.models import ClubResult, Match

    club = make_club(client)
    url = f"{API}/clubs/{club['id']}"
    earlier = start(client, club, FOUR, TEAM_0_LOSES)  # finished
    first = start(client, club, ["Ann", "Eve", "Cid", "Dee"], TEAM_1_LOSES)
    second = start(client, club, FOUR)  # still played
    with app.app_context():  # the first match was played on 27 November
        row = db.session.scalar(select(Match.id).where(Match.public_id == earlier["id"]))
        db.session.execute(update(ClubResult).where(ClubResult.match_id == row).values(day=date(2026, 11, 27)))
        db.session.commit()
    assert client.put(f"{url}/evenings/2026-11-27", json={"name": "Friday at Ann's"},
                      headers=bearer(club["admin_key"])).status_code == 200
    answer = client.get(f"{url}/evenings")
    check_answer(document, f"{CLUB}/evenings", "GET", answer)
    listed = answer.get_json()
    assert listed["season"] is None and listed["next"] is None
    assert [evening["day"] for evening in listed["evenings"]][1] == "2026-11-27"
    latest, old = listed["evenings"]
    assert latest["name"] is None and old["name"] == "Friday at Ann's"
    assert [(m["id"], m["finished"]) for m in latest["matches"]] == [(first["id"], True), (second["id"], False)]
    assert latest["matches"][0]["players"] == ["Ann", "Eve", "Cid", "Dee"] and latest["matches"][0]["game"] == "kozyol"
    assert old["matches"][0]["url"] == f"/m/{earlier['id']}" and len(old["matches"][0]["seat_ids"]) == 4
    # A page at a time: `next` asks for the evenings before the last one given.
    page = client.get(f"{url}/evenings?limit=1").get_json()
    assert [evening["day"] for evening in page["evenings"]] == [latest["day"]]
    older = client.get(page["next"]).get_json()
    assert older["evenings"] == [old] and older["next"] is None
    for query, field in (("limit=0", "limit"), ("limit=101", "limit"), ("limit=ten", "limit"),
                         ("limit=" + "9" * 5000, "limit"), ("before=27/11/2026", "before")):
        assert set(error_of(client.get(f"{url}/evenings?{query}"), 422)["fields"]) == {field}, query
    error_of(client.get(f"{API}/clubs/nope/evenings"), 404)
    error_of(client.get(f"{url}/evenings?season=77"), 404)


def test_the_time_zone_is_set_with_the_rules_and_refused_by_name(client: FlaskClient, document):
    club = make_club(client)
    url = f"{API}/clubs/{club['id']}"
    assert client.get(url).get_json()["time_zone"] == "UTC"
    answer = client.put(f"{url}/rules", json={"time_zone": "Europe/Moscow"}, headers=bearer(club["admin_key"]))
    check_answer(document, f"{CLUB}/rules", "PUT", answer)
    assert answer.get_json()["time_zone"] == "Europe/Moscow" and answer.get_json()["min_matches"] == 3
    unchanged = client.put(f"{url}/rules", json={"min_matches": 2}, headers=bearer(club["admin_key"])).get_json()
    assert (unchanged["time_zone"], unchanged["min_matches"]) == ("Europe/Moscow", 2)
    for wrong in ("Moscow", 3, ["Europe/Moscow"]):
        refused = client.put(f"{url}/rules", json={"time_zone": wrong, "min_matches": 5},
                             headers=bearer(club["admin_key"]))
        assert set(error_of(refused, 422)["fields"]) == {"time_zone"}, wrong
    assert client.get(url).get_json()["min_matches"] == 2  # a refused zone saves nothing
    back = client.put(f"{url}/rules", json={"time_zone": None}, headers=bearer(club["admin_key"])).get_json()
    assert back["time_zone"] == "UTC"


def test_spreadsheets_read_back_as_the_tables_they_are(client: FlaskClient):
    club = make_club(client)
    url, key = f"{API}/clubs/{club['id']}", bearer(club["admin_key"])
    match = start(client, club, ["Ann", "=cmd()", "Zoé", "Dee"], TEAM_0_LOSES)
    start(client, club, FOUR)  # not finished: left out of the season's tables
    season = client.post(f"{url}/seasons", json={"name": "Long ago", "starts": "2001-01-01", "ends": "2001-12-31"},
                         headers=key).get_json()
    played = rows(client.get(f"{url}/matches.csv"))
    assert [(row["player"], row["total"], row["place"], row["winner"]) for row in played] == [
        ("Ann", "4", "2", "no"), ("'=cmd()", "0", "1", "yes"), ("Zoé", "4", "2", "no"), ("Dee", "0", "1", "yes")]
    assert {row["match"] for row in played} == {f"http://localhost{match['url']}"}
    hands = rows(client.get(f"{url}/hands.csv"))
    assert [(row["hand"], row["player"], row["score"], row["total"]) for row in hands][:2] == [
        ("1", "Ann", "4", "4"), ("1", "Zoé", "4", "4")]
    assert rows(client.get(f"{API}/matches/{match['id']}/hands.csv")) == hands
    table = rows(client.get(f"{url}/standings.csv?game=kozyol"))
    assert {row["player"]: row["goats"] for row in table} == {"Ann": "1", "'=cmd()": "0", "Zoé": "1", "Dee": "0"}
    assert all(row["rating"] for row in table)
    assert rows(client.get(f"{url}/matches.csv?season={season['id']}")) == []
    assert rows(client.get(f"{url}/standings.csv?season={season['id']}")) == []
    assert "long-ago" in client.get(f"{url}/hands.csv?season={season['id']}").headers["Content-Disposition"]


def test_making_clubs_is_rate_limited_like_making_matches(database_url: str, tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))  # its own count file, not the checkout's
    app: Flask = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url,
                             "MIGRATE_ON_START": True, "RATELIMIT_ENABLED": True, "RATELIMIT_NEW_CLUBS": "2 per minute",
                             "RATELIMIT_KEY_PREFIX": f"club-test-{id(database_url)}"})
    client = app.test_client()
    try:
        assert client.post(f"{API}/clubs", json={"name": " "}).status_code == 422  # a refusal costs nothing
        for _ in range(2):
            make_club(client)
        refused = client.post(f"{API}/clubs", json={"name": "Third"})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    finally:
        with app.app_context():  # this app's connections close now, not whenever they are collected
            db.session.remove()
            db.engine.dispose()
