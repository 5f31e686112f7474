"""Planned evenings through the JSON API: listed with the club link, planned, changed and deleted with the admin
key, answered with the club link and an answer key (kept, not counted) or by the admin (counted), marked present
by the admin; answers as documented."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import bearer, error_of
from helpers.clubs import ahead
from helpers.openapi import check_answer

API = "/api/v1"
CLUB = f"{API}/clubs/{{club_id}}"
PLANNED = f"{CLUB}/planned-evenings"
ONE = f"{PLANNED}/{{evening_id}}"



@pytest.fixture
def club(client: FlaskClient) -> dict[str, Any]:
    made = client.post(f"{API}/clubs", json={"name": "Sunday table"}).get_json()
    made["players"] = {}
    for name in ("Ann", "Bob", "Cid"):
        made["players"][name] = client.post(f"{API}/clubs/{made['id']}/players", json={"name": name},
                                            headers=bearer(made["admin_key"])).get_json()["id"]
    return made


def planned(client: FlaskClient, club: dict[str, Any], document, **body: Any) -> list[dict[str, Any]]:
    answer = client.post(f"{API}/clubs/{club['id']}/planned-evenings", json={"day": ahead(3).isoformat(), **body},
                         headers=bearer(club["admin_key"]))
    check_answer(document, PLANNED, "POST", answer)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["evenings"]


def test_evenings_are_planned_listed_read_changed_and_deleted(client: FlaskClient, club, document):
    made = planned(client, club, document, starts_at="19:30", place="Café", note="Cards", weeks=3)
    assert [e["day"] for e in made] == [ahead(3 + 7 * week).isoformat() for week in range(3)]
    assert made[0]["starts_at"] == "19:30" and made[0]["url"].endswith(f"#evening-{made[0]['id']}")
    listed = client.get(f"{API}/clubs/{club['id']}/planned-evenings?limit=2")
    check_answer(document, PLANNED, "GET", listed)
    assert [e["id"] for e in listed.get_json()["evenings"]] == [made[0]["id"], made[1]["id"]]
    url = f"{API}/clubs/{club['id']}/planned-evenings/{made[0]['id']}"
    read = client.get(url)
    check_answer(document, ONE, "GET", read)
    changed = client.patch(url, json={"starts_at": None, "name": "Cup night"}, headers=bearer(club["admin_key"]))
    check_answer(document, ONE, "PATCH", changed)
    assert (changed.get_json()["starts_at"], changed.get_json()["name"], changed.get_json()["place"]) == (
        None, "Cup night", "Café")
    gone = client.delete(url, headers=bearer(club["admin_key"]))
    check_answer(document, ONE, "DELETE", gone)
    assert gone.status_code == 204
    error_of(client.get(url), 404)


def test_planning_needs_the_admin_key_and_refuses_a_bad_plan_by_field(client: FlaskClient, club, document):
    url = f"{API}/clubs/{club['id']}/planned-evenings"
    error_of(client.post(url, json={"day": ahead(1).isoformat()}), 401)
    wrong = client.post(url, json={"day": ahead(1).isoformat()}, headers=bearer("nope"))
    check_answer(document, PLANNED, "POST", wrong)
    error_of(wrong, 403)
    refused = client.post(url, json={"day": ahead(1).isoformat(), "starts_at": "25:00", "weeks": 30},
                          headers=bearer(club["admin_key"]))
    check_answer(document, PLANNED, "POST", refused)
    assert error_of(refused, 422)["fields"] == {"starts_at": "Give a time as hours and minutes, such as 19:30."}
    error_of(client.get(f"{url}?limit=0"), 422)
    error_of(client.get(f"{url}/12345"), 404)


def test_an_answer_gives_a_key_that_alone_changes_it_besides_the_admin_key(client: FlaskClient, club, document):
    (evening,) = planned(client, club, document)
    url = f"{API}/clubs/{club['id']}/planned-evenings/{evening['id']}/answers"
    ann = club["players"]["Ann"]
    first = client.post(url, json={"player": ann, "coming": True})
    check_answer(document, f"{ONE}/answers", "POST", first)
    key = first.get_json()["answer_key"]
    assert first.get_json()["coming"] is True and first.get_json()["name"] == "Ann"
    assert first.get_json()["proven"] is False  # the club link proves nothing: kept, not counted
    assert client.get(f"{API}/clubs/{club['id']}/planned-evenings/{evening['id']}").get_json()["coming"] == []
    other = client.post(url, json={"player": ann, "coming": False})
    check_answer(document, f"{ONE}/answers", "POST", other)
    assert "Another phone answered for Ann" in error_of(other, 403)["message"]
    error_of(client.post(url, json={"player": ann, "coming": False, "answer_key": "guess"}), 403)
    again = client.post(url, json={"player": ann, "coming": False, "answer_key": key})
    assert again.status_code == 200 and again.get_json()["coming"] is False
    by_admin = client.post(url, json={"player": ann, "coming": True}, headers=bearer(club["admin_key"]))
    check_answer(document, f"{ONE}/answers", "POST", by_admin)
    assert by_admin.status_code == 200 and "answer_key" not in by_admin.get_json() and by_admin.get_json()["proven"]
    error_of(client.post(url, json={"player": ann, "coming": True}, headers=bearer("wrong")), 403)
    error_of(client.post(url, json={"player": ann, "coming": "yes"}), 422)
    error_of(client.post(url, json={"player": 999999, "coming": True}), 404)
    read = client.get(f"{API}/clubs/{club['id']}/planned-evenings/{evening['id']}").get_json()
    assert read["coming"] == [{"id": ann, "name": "Ann"}]


def test_an_answer_sent_again_after_its_answer_was_lost_is_answered_not_refused(client: FlaskClient, club, document):
    """A phone that sent "I'm in" with the club link alone and lost the answer sends it again: the same answer,
    already kept, is answered again (Idempotent-Replayed) and changes nothing; the key it first gave still rules."""
    (evening,) = planned(client, club, document)
    url = f"{API}/clubs/{club['id']}/planned-evenings/{evening['id']}/answers"
    ann = club["players"]["Ann"]
    lost = client.post(url, json={"player": ann, "coming": True})
    again = client.post(url, json={"player": ann, "coming": True})
    check_answer(document, f"{ONE}/answers", "POST", again)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true", again.get_json()
    assert (again.get_json()["coming"], again.get_json()["proven"]) == (True, False)
    assert "answer_key" not in again.get_json()  # kept only as a hash: the first answer gave it
    assert "Another phone answered for Ann" in error_of(client.post(url, json={"player": ann, "coming": False}),
                                                       403)["message"]
    changed = client.post(url, json={"player": ann, "coming": False, "answer_key": lost.get_json()["answer_key"]})
    assert changed.status_code == 200 and changed.get_json()["coming"] is False
    assert "Idempotent-Replayed" not in changed.headers


def test_an_answer_sent_under_an_idempotency_key_is_answered_again_with_its_answer_key(client: FlaskClient, club,
                                                                                       document):
    (evening,) = planned(client, club, document)
    url = f"{API}/clubs/{club['id']}/planned-evenings/{evening['id']}/answers"
    ann, bob = club["players"]["Ann"], club["players"]["Bob"]
    once = {"Idempotency-Key": "0b5e9c1f-2d6a-4c71-9a43-5e0f1b2c3d4e"}
    first = client.post(url, json={"player": ann, "coming": True}, headers=once)
    check_answer(document, f"{ONE}/answers", "POST", first)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    again = client.post(url, json={"player": ann, "coming": True}, headers=once)
    check_answer(document, f"{ONE}/answers", "POST", again)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    key = first.get_json()["answer_key"]
    assert again.get_json()["answer_key"] == key  # the lost answer's key, given again
    other = client.post(url, json={"player": ann, "coming": False}, headers=once)  # the key, another answer
    check_answer(document, f"{ONE}/answers", "POST", other)
    assert error_of(other, 422)["fields"] == {"Idempotency-Key": "This idempotency key was already used for a "
                                                                 "different request."}
    changed = client.post(url, json={"player": ann, "coming": False, "answer_key": key})
    assert changed.status_code == 200 and changed.get_json()["coming"] is False
    bobs = client.post(url, json={"player": bob, "coming": True}, headers={"Idempotency-Key": "another-phone"})
    assert bobs.status_code == 200 and bobs.get_json()["answer_key"] != key
    error_of(client.post(url, json={"player": bob, "coming": True}, headers={"Idempotency-Key": "with space"}), 422)
    by_admin = client.post(url, json={"player": bob, "coming": False}, headers={**bearer(club["admin_key"]), **once})
    assert by_admin.status_code == 200 and by_admin.get_json()["proven"]  # proven answers are the same sent twice


def test_the_admin_marks_players_present(client: FlaskClient, club, document):
    (evening,) = planned(client, club, document)
    bob = club["players"]["Bob"]
    url = f"{API}/clubs/{club['id']}/planned-evenings/{evening['id']}/present/{bob}"
    marked = client.put(url, json={"present": True}, headers=bearer(club["admin_key"]))
    check_answer(document, f"{ONE}/present/{{player_id}}", "PUT", marked)
    assert marked.get_json()["present"] is True
    error_of(client.put(url, json={"present": True}), 401)
    error_of(client.put(url, json={"present": "yes"}, headers=bearer(club["admin_key"])), 422)
    read = client.get(f"{API}/clubs/{club['id']}/planned-evenings/{evening['id']}").get_json()
    assert read["present"] == [{"id": bob, "name": "Bob"}]


def test_the_calendar_feed_is_served_by_the_api_too(client: FlaskClient, club, document):
    planned(client, club, document, starts_at="19:30")
    feed = client.get(f"{API}/clubs/{club['id']}/evenings.ics")
    assert feed.status_code == 200 and feed.headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert b"BEGIN:VEVENT" in feed.data
    assert "text/calendar" in document["paths"][f"{CLUB}/evenings.ics"]["get"]["responses"]["200"]["content"]
    error_of(client.get(f"{API}/clubs/nope/evenings.ics"), 404)
