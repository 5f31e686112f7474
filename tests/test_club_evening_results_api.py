"""An evening's results over the JSON API, and its closing with the club's admin key: afterwards a write to one of
its matches needs the admin key too, and the results answer what the admin changed."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clubs import QUICK, TEAM_0_LOSES, TEAM_1_LOSES
from helpers.openapi import check_answer

API = "/api/v1"
EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def call(client: FlaskClient, method: str, path: str, key: str | None = None, **more: Any):
    return getattr(client, method)(f"{API}{path}", headers=bearer(key) if key else {}, **more)


@pytest.fixture
def evening(client: FlaskClient) -> dict[str, Any]:
    """A club of eight over the API, today's evening with everyone present, one round of two quick Kozyol tables:
    the first finished, the second still at the table."""
    made = client.post(f"{API}/clubs", json={"name": "Les Vendredis", "house_rules": {"kozyol": QUICK}}).get_json()
    club, key = made["id"], made["admin_key"]
    ids = [call(client, "post", f"/clubs/{club}/players", key, json={"name": name}).get_json()["id"]
           for name in EIGHT]
    day = datetime.now(timezone.utc).date().isoformat()
    planned = call(client, "post", f"/clubs/{club}/planned-evenings", key, json={"day": day, "name": "Friday"})
    evening_id = planned.get_json()["evenings"][0]["id"]
    for player in ids:
        assert call(client, "put", f"/clubs/{club}/planned-evenings/{evening_id}/present/{player}", key,
                    json={"present": True}).status_code == 200
    confirmed = call(client, "post", f"/clubs/{club}/planned-evenings/{evening_id}/rounds", key,
                     json={"game": "kozyol", "seed": 3})
    assert confirmed.status_code == 201, confirmed.get_json()
    tables = [table["match"] for table in confirmed.get_json()["tables"]]
    assert call(client, "post", f"/matches/{tables[0]['id']}/hands", tables[0]["edit_key"],
                json=TEAM_1_LOSES).status_code == 201
    return {"club": club, "key": key, "id": evening_id, "day": day, "tables": tables}


RESULTS = f"{API}/clubs/{{club_id}}/evenings/{{evening_id}}/results"
CLOSE = f"{API}/clubs/{{club_id}}/evenings/{{evening_id}}/close"


def results_of(client: FlaskClient, evening: dict[str, Any], ref: Any = None) -> dict[str, Any]:
    answer = call(client, "get", f"/clubs/{evening['club']}/evenings/{ref or evening['id']}/results")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_the_results_answer_as_documented(client: FlaskClient, document: dict[str, Any], evening: dict[str, Any]):
    answer = call(client, "get", f"/clubs/{evening['club']}/evenings/{evening['id']}/results")
    check_answer(document, RESULTS, "get", answer)
    body = answer.get_json()
    assert body["evening"] == {"id": evening["id"], "day": evening["day"], "name": "Friday", "closed_at": None}
    [made] = body["rounds"]
    first, second = made["tables"]
    assert (first["table"], first["finished"], first["hands"]) == (1, True, 1)
    assert sorted(first["winners"]) == sorted(first["players"][0::2]) and len(first["totals"]) == 4
    assert (second["finished"], second["totals"], second["winners"]) == (False, None, [])
    assert body["winners"] == {"kozyol": first["winners"]}
    places = body["places"]["kozyol"]  # one match each, and the club ranks from three
    assert sorted(row["name"] for row in places) == sorted(first["players"])
    assert all((row["matches"], row["ranked"], row["place"], row["before"]) == (1, False, None, None) for row in places)
    assert body["url"].endswith(f"/evenings/{evening['day']}/results") and body["pdf_url"].endswith("results.pdf")
    assert results_of(client, evening, evening["day"]) == body  # the same evening by its day


def test_closing_needs_the_admin_key_and_then_so_does_every_write_to_its_matches(
        client: FlaskClient, document: dict[str, Any], evening: dict[str, Any]):
    club, key = evening["club"], evening["key"]
    close = f"/clubs/{club}/evenings/{evening['id']}/close"
    assert call(client, "post", close).status_code == 401
    assert call(client, "post", close, "x" * 32).status_code == 403
    closed = call(client, "post", close, key)
    assert closed.status_code == 200 and closed.get_json()["evening"]["closed_at"]
    check_answer(document, CLOSE, "post", closed)
    again = call(client, "post", close, key)
    check_answer(document, CLOSE, "post", again)
    assert again.status_code == 422 and again.get_json()["error"]["fields"] == {"evening": "This evening is already closed."}

    done, playing = evening["tables"]
    refused = call(client, "put", f"/matches/{done['id']}/hands/1", done["edit_key"], json=TEAM_0_LOSES)
    assert refused.status_code == 403
    assert refused.get_json()["error"]["message"] == (
        "The evening of this match (Friday) is closed: only the club's admin can change it.")
    assert call(client, "post", f"/matches/{playing['id']}/hands", playing["edit_key"],
                json=TEAM_1_LOSES).status_code == 403
    assert results_of(client, evening)["rounds"][0]["tables"][1]["finished"] is False

    admin = {**bearer(done["edit_key"]), "Club-Admin-Key": key}
    changed = client.put(f"{API}/matches/{done['id']}/hands/1", json=TEAM_0_LOSES, headers=admin)
    assert changed.status_code == 200, changed.get_json()
    first = results_of(client, evening)["rounds"][0]["tables"][0]
    assert sorted(first["winners"]) == sorted(first["players"][1::2])

    assert call(client, "delete", close, key).status_code == 200
    assert call(client, "delete", close, key).status_code == 422
    assert call(client, "post", f"/matches/{playing['id']}/hands", playing["edit_key"],
                json=TEAM_1_LOSES).status_code == 201


def test_an_unknown_evening_or_club_is_404_and_a_day_without_matches_too(client: FlaskClient, evening: dict[str, Any]):
    for path in (f"/clubs/{evening['club']}/evenings/999999/results", f"/clubs/{evening['club']}/evenings/0/results",
                 f"/clubs/{evening['club']}/evenings/2026-02-30/results",
                 f"/clubs/{evening['club']}/evenings/1999-01-01/results",
                 f"/clubs/{evening['club']}/evenings/{'9' * 40}/results", f"/clubs/nope/evenings/{evening['id']}/results"):
        answer = call(client, "get", path)
        assert answer.status_code == 404 and answer.get_json()["error"]["message"], path
    assert call(client, "post", f"/clubs/{evening['club']}/evenings/1999-01-01/close", evening["key"]).status_code == 404


def test_an_evening_planned_ahead_cannot_be_closed(app: Flask, client: FlaskClient, evening: dict[str, Any]):
    planned = call(client, "post", f"/clubs/{evening['club']}/planned-evenings", evening["key"],
                   json={"day": "2099-01-02"}).get_json()["evenings"][0]["id"]
    answer = call(client, "post", f"/clubs/{evening['club']}/evenings/{planned}/close", evening["key"])
    assert answer.status_code == 422
    assert answer.get_json()["error"]["fields"] == {"evening": "An evening can be closed once it has been played."}
    assert results_of(client, evening, planned)["rounds"] == []
