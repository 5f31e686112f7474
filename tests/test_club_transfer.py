"""A club moved whole to another server: exported by its admin, imported as that club, with its roster, seasons,
evenings, matches with their hands and history, agreements and house rules; its keys only when asked. A damaged
export imports nothing. On both databases (on PostgreSQL the second server shares the test database)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clubs import QUICK, TEAM_1_LOSES
from scorekeeper.app import create_app
from scorekeeper.db import db

API = "/api/v1"
SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def rich_club(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """A club with a season, house rules, a merge, a guest, an evening with a round, finished and agreed matches."""
    from scorekeeper.club import agreements, evenings, rounds, service

    club = client.post(f"{API}/clubs", json={"name": "Les Dimanches", "house_rules": {"kozyol": {"target": 2}}}).get_json()
    admin = bearer(club["admin_key"])
    for name in SIX:
        client.post(f"{API}/clubs/{club['id']}/players", json={"name": name}, headers=admin)
    ids = {p["name"]: p["id"] for p in client.get(f"{API}/clubs/{club['id']}").get_json()["players"]}
    extra = client.post(f"{API}/clubs/{club['id']}/players", json={"name": "Fay Two"}, headers=admin).get_json()
    client.post(f"{API}/clubs/{club['id']}/players/{extra['id']}/merge", json={"into": ids["Fay"]}, headers=admin)
    today = date.today()
    client.post(f"{API}/clubs/{club['id']}/seasons", headers=admin,
                json={"name": "Winter", "starts": (today - timedelta(days=30)).isoformat(),
                      "ends": (today + timedelta(days=60)).isoformat()})
    client.put(f"{API}/clubs/{club['id']}/rules", headers=admin, json={"agree_to_lock": 2, "confirm_hands": False,
                                                                        "min_matches": 1,
                                                                        "house_rules": {"kozyol": QUICK}})
    guest = client.post(f"{API}/clubs/{club['id']}/matches",
                        json={"game": "kozyol", "players": ["Ann", "Bob", "Gus", "Hal"]}).get_json()
    client.post(f"{API}/matches/{guest['id']}/hands", json=TEAM_1_LOSES, headers=bearer(guest["edit_key"]))
    client.put(f"{API}/matches/{guest['id']}/hands/1", json={"points": [30, 90]}, headers=bearer(guest["edit_key"]))
    with app.app_context():
        found = service.find(club["id"])
        evening = evenings.schedule(found, service.today(found), "19:30", "Café", "Bring cards")[0]
        for name in ("Ann", "Bob", "Cid", "Dee"):
            evenings.mark_present(found, evening, ids[name], True)
        seed, drawn = rounds.propose(found, evening, "kozyol", 3)
        rounds.confirm(found, evening, drawn, seed)
        (_made, tables), = rounds.rounds_of(evening)
        table_match = tables[0][1]
        key = rounds.seat_key(table_match)
        public, seats = table_match.public_id, list(table_match.seat_ids)
    client.post(f"{API}/matches/{public}/hands", json=TEAM_1_LOSES, headers=bearer(key))
    with app.app_context():
        agreements.agree(public, seats[0])
    return {**club, "ids": ids, "guest_match": guest["id"], "guest_key": guest["edit_key"], "table_match": public,
            "table_key": key}


def picture(client: FlaskClient, club_id: str, admin_key: str) -> dict[str, Any]:
    """What a club shows, with the club's own ids left out: roster, seasons, standings, evenings, each match."""
    club = client.get(f"{API}/clubs/{club_id}").get_json()
    exported = client.get(f"{API}/clubs/{club_id}/export", headers=bearer(admin_key)).get_json()
    names = {p["id"]: p["name"] for p in exported["players"]}
    return {
        "club": {key: club[key] for key in ("name", "house_rules", "min_matches", "agree_to_lock", "time_zone")},
        "players": sorted(p["name"] for p in club["players"]),
        "seasons": [(s["name"], s["starts"], s["ends"]) for s in club["seasons"]],
        "standings": client.get(f"{API}/clubs/{club_id}/standings").get_json()["games"],
        "evenings": [(e["day"], e["name"], e["place"], e["note"], [(a["answer"], a["present"], names[a["player"]])
                      for a in e["attendance"]], [[(t["game"], [names[s] for s in t["seat_ids"]]) for t in r["tables"]]
                                                   for r in e["rounds"]]) for e in exported["evenings"]],
        "matches": sorted((m["game"], m["players"], [h["entry"] for h in m["hands"]],
                           [(c["number"], c["action"], c["before"], c["after"], c["reason"]) for c in m["history"]],
                           [(a["seat"], names.get(a["player"])) for a in m["agreements"]], m["started_by"])
                          for m in exported["matches"]),
    }


def without_ids(standings: Any) -> Any:
    """Standings with the player ids taken out (each server numbers its rows)."""
    if isinstance(standings, dict):
        return {key: without_ids(value) for key, value in standings.items() if key not in ("player", "player_id", "id",
                                                                                          "players", "a", "b", "pair")}
    if isinstance(standings, list):
        return [without_ids(value) for value in standings]
    return standings


@pytest.fixture
def second(database: str, template: Any, tmp_path: Path, app: Flask) -> Flask:
    """Another server: its own SQLite database, or (PostgreSQL) the same database under another app."""
    (tmp_path / "second").mkdir(exist_ok=True)
    url = template.copy(tmp_path / "second") if database == "sqlite" else app.config["SQLALCHEMY_DATABASE_URI"]
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": url,
                       "MIGRATE_ON_START": False, "RATELIMIT_ENABLED": False})


def test_a_club_exported_and_imported_elsewhere_is_the_same_club(app: Flask, client: FlaskClient, second: Flask,
                                                                  database: str):
    made = rich_club(app, client)
    before = picture(client, made["id"], made["admin_key"])
    exported = client.get(f"{API}/clubs/{made['id']}/export", headers=bearer(made["admin_key"]))
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    document = exported.get_json()
    assert "admin_key_hash" not in json.dumps(document) and "edit_key_hash" not in json.dumps(document)
    other = second.test_client()
    imported = other.post(f"{API}/club-imports", json=document)
    assert imported.status_code == 201, imported.get_json()
    moved = imported.get_json()
    if database == "sqlite":
        assert moved["id"] == made["id"]  # the same club link, on the new server
    after = picture(other, moved["id"], moved["admin_key"])
    if database != "sqlite":  # the same database: new match ids, and a day's matches are rated in their ids' order
        for shown in (before, after):
            for game in shown["standings"].values():
                game["ratings"] = sorted((one["name"], one["matches"]) for one in game["ratings"])
    assert without_ids(after) == without_ids(before)
    assert other.get(f"{API}/clubs/{moved['id']}").get_json()["players"]  # and the figures read
    with second.app_context():
        db.session.remove()
        db.engine.dispose()


def test_with_its_keys_every_link_shared_before_still_works(app: Flask, client: FlaskClient, second: Flask,
                                                            database: str):
    if database != "sqlite":
        pytest.skip("the same links on the same database: the club and its matches are there already")
    made = rich_club(app, client)
    ann = made["ids"]["Ann"]
    member = client.post(f"{API}/clubs/{made['id']}/players/{ann}/member-key", headers=bearer(made["admin_key"]))
    document = client.get(f"{API}/clubs/{made['id']}/export?keys=1", headers=bearer(made["admin_key"])).get_json()
    other = second.test_client()
    moved = other.post(f"{API}/club-imports", json=document)
    assert moved.status_code == 201 and "admin_key" not in moved.get_json()
    assert other.post(f"{API}/clubs/{made['id']}/players", json={"name": "Zed"},
                      headers=bearer(made["admin_key"])).status_code == 201  # the old admin key
    assert other.get(f"/c/{made['id']}/member/{member.get_json()['member_key']}").status_code == 302
    assert other.get(f"/m/{made['guest_match']}").status_code == 200  # the watch link
    assert other.put(f"{API}/matches/{made['guest_match']}/hands/1", json={"points": [75, 45]},
                     headers=bearer(made["guest_key"])).status_code == 200  # and the edit link
    with second.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_damaged_export_imports_nothing(app: Flask, client: FlaskClient):
    made = rich_club(app, client)
    document = client.get(f"{API}/clubs/{made['id']}/export", headers=bearer(made["admin_key"])).get_json()
    clubs_before = client.get(f"{API}/clubs/{made['id']}").get_json()
    for damage in ({**document, "format": "something"}, {**document, "matches": [{"game": "chess"}]},
                   {**document, "matches": [{**document["matches"][0], "hands": [{"entry": {"points": [200, 0]}}]}]},
                   {**document, "players": "everyone"}, {**document, "club": {"name": ""}}):
        refused = client.post(f"{API}/club-imports", json=damage)
        assert refused.status_code == 422, (refused.status_code, refused.get_json())
    for not_one in ([], "club", None):
        assert client.post(f"{API}/club-imports", json=not_one).status_code in (400, 415)
    assert client.get(f"{API}/clubs/{made['id']}").get_json() == clubs_before
    from scorekeeper.models import Club

    with app.app_context():
        assert db.session.query(Club).count() == 1
