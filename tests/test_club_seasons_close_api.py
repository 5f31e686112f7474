"""Closing and reopening a season over the API, its standings from the snapshot, and the hall of fame, as documented."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from flask.testing import FlaskClient

from helpers.api import bearer, error_of
from helpers.club_matches import FOUR
from helpers.clubs import QUICK, TEAM_0_LOSES, TEAM_1_LOSES
from helpers.openapi import check_answer

API = "/api/v1"
CLUB = f"{API}/clubs/{{club_id}}"
CLOSE = f"{CLUB}/seasons/{{season_id}}/close"


def today() -> Any:
    return datetime.now(timezone.utc).date()


def made(client: FlaskClient) -> tuple[dict[str, Any], str, dict[str, str]]:
    club = client.post(f"{API}/clubs", json={"name": "Sunday table"}).get_json()
    key, url = bearer(club["admin_key"]), f"{API}/clubs/{club['id']}"
    assert client.put(f"{url}/rules", json={"min_matches": 1}, headers=key).status_code == 200
    return club, url, key


def played(client: FlaskClient, url: str, deal: dict[str, Any]) -> dict[str, Any]:
    match = client.post(f"{url}/matches", json={"game": "kozyol", "players": FOUR, "options": QUICK}).get_json()
    assert client.post(f"{API}/matches/{match['id']}/hands", json=deal,
                       headers=bearer(match["edit_key"])).status_code == 201
    return match


def season(client: FlaskClient, url: str, key: dict[str, str], name: str, ends: Any) -> dict[str, Any]:
    answer = client.post(f"{url}/seasons", headers=key, json={
        "name": name, "starts": (ends - timedelta(days=20)).isoformat(), "ends": ends.isoformat()})
    assert answer.status_code == 201
    return answer.get_json()


def champions(client: FlaskClient, url: str, season_id: int | None = None) -> list[str]:
    table = client.get(f"{url}/standings" + (f"?season={season_id}" if season_id else "")).get_json()
    return [row["name"] for row in table["games"]["kozyol"]["standings"] if row["place"] == 1]


def test_a_closed_season_answers_from_its_snapshot_until_reopened(client: FlaskClient, document):
    club, url, key = made(client)
    match = played(client, url, TEAM_1_LOSES)
    autumn = season(client, url, key, "Autumn", today())
    assert autumn["closed_at"] is None
    closed = client.post(f"{url}/seasons/{autumn['id']}/close", headers=key)
    check_answer(document, CLOSE, "POST", closed)
    body = closed.get_json()
    assert body["champions"] == {"kozyol": ["Ann", "Cid"]}
    assert datetime.fromisoformat(body["closed_at"]).tzinfo is not None
    assert client.get(url).get_json()["seasons"][0]["closed_at"] == body["closed_at"]
    assert client.put(f"{API}/matches/{match['id']}/hands/1", json=TEAM_0_LOSES,
                      headers=bearer(match["edit_key"])).status_code == 200
    standings = client.get(f"{url}/standings?season={autumn['id']}")
    check_answer(document, f"{CLUB}/standings", "GET", standings)
    assert standings.get_json()["season"]["closed_at"] == body["closed_at"]
    assert champions(client, url, autumn["id"]) == ["Ann", "Cid"]
    assert champions(client, url) == ["Bob", "Dee"]  # all time follows the matches
    reopened = client.delete(f"{url}/seasons/{autumn['id']}/close", headers=key)
    check_answer(document, CLOSE, "DELETE", reopened)
    assert reopened.get_json()["closed_at"] is None and reopened.get_json()["champions"] == {}
    assert champions(client, url, autumn["id"]) == ["Bob", "Dee"]


def test_the_hall_of_fame_lists_closed_seasons_latest_first(client: FlaskClient, document):
    club, url, key = made(client)
    played(client, url, TEAM_1_LOSES)
    spring = season(client, url, key, "Spring", today() - timedelta(days=90))
    autumn = season(client, url, key, "Autumn", today())
    season(client, url, key, "Summer", today() - timedelta(days=30))  # left open
    empty = client.get(f"{url}/hall-of-fame")
    check_answer(document, f"{CLUB}/hall-of-fame", "GET", empty)
    assert empty.get_json() == {"seasons": []}
    for one in (autumn, spring):
        assert client.post(f"{url}/seasons/{one['id']}/close", headers=key).status_code == 200
    hall = client.get(f"{url}/hall-of-fame")
    check_answer(document, f"{CLUB}/hall-of-fame", "GET", hall)
    assert [(line["season"]["name"], line["champions"]) for line in hall.get_json()["seasons"]] == [
        ("Autumn", {"kozyol": ["Ann", "Cid"]}), ("Spring", {})]


def test_closing_is_refused_early_twice_and_without_the_admin_key(client: FlaskClient, document):
    club, url, key = made(client)
    winter = season(client, url, key, "Winter", today() + timedelta(days=1))
    early = client.post(f"{url}/seasons/{winter['id']}/close", headers=key)
    check_answer(document, CLOSE, "POST", early)
    assert error_of(early, 422)["fields"]["early"] == (
        f"Winter runs until {(today() + timedelta(days=1)).isoformat()}. Closing it today makes today its last day: "
        "confirm to close it early.")
    check_answer(document, CLOSE, "DELETE", client.delete(f"{url}/seasons/{winter['id']}/close", headers=key))
    error_of(client.delete(f"{url}/seasons/{winter['id']}/close", headers=key), 422)
    autumn = season(client, url, key, "Autumn", today())
    assert client.post(f"{url}/seasons/{autumn['id']}/close", headers=key).status_code == 200
    error_of(client.post(f"{url}/seasons/{autumn['id']}/close", headers=key), 422)
    for method in (client.post, client.delete):
        check_answer(document, CLOSE, method.__name__.upper(),
                     missing := method(f"{url}/seasons/{autumn['id']}/close"))
        error_of(missing, 401)
        error_of(method(f"{url}/seasons/{autumn['id']}/close", headers=bearer("x" * 30)), 403)
        error_of(method(f"{url}/seasons/999999/close", headers=key), 404)
    other = client.post(f"{API}/clubs", json={"name": "Other"}).get_json()
    error_of(client.post(f"{API}/clubs/{other['id']}/seasons/{autumn['id']}/close",
                         headers=bearer(other["admin_key"])), 404)  # another club's season
    error_of(client.get(f"{API}/clubs/nope/hall-of-fame"), 404)


def test_the_standings_csv_of_a_closed_season_is_its_snapshot(client: FlaskClient):
    club, url, key = made(client)
    match = played(client, url, TEAM_1_LOSES)
    autumn = season(client, url, key, "Autumn", today())
    assert client.post(f"{url}/seasons/{autumn['id']}/close", headers=key).status_code == 200
    assert client.put(f"{API}/matches/{match['id']}/hands/1", json=TEAM_0_LOSES,
                      headers=bearer(match["edit_key"])).status_code == 200
    lines = client.get(f"{url}/standings.csv?season={autumn['id']}").get_data(as_text=True).splitlines()
    firsts = sorted(line.split(",")[3] for line in lines[1:] if line.split(",")[1] == "1")
    assert firsts == ["Ann", "Cid"]
