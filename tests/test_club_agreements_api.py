"""Agreements through the JSON API: agreeing from a client, reading who agreed, the lock and the admin's override.

Every answer is checked against the OpenAPI document; a locked match's writes answer 403 in the error shape
of API.md without the club's admin key, and 422 on `reason` with it but without a reason.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from helpers.agreements import asking_club, club_match, finished_match
from helpers.api import bearer, error_of
from helpers.club_matches import FOUR
from helpers.clubs import TEAM_0_LOSES, TEAM_1_LOSES
from helpers.openapi import check_answer

MATCH = "/api/v1/matches/{public_id}"
AGREEMENTS = f"{MATCH}/agreements"
ANN, BOB, CID = "ann-own-key-0123456789", "bob-own-key-0123456789", "cid-own-key-0123456789"


def agree(client: FlaskClient, document, match: dict[str, Any], seat: Any, phone: Any):
    answer = client.post(f"/api/v1/matches/{match['id']}/agreements", json={"seat": seat, "phone": phone},
                         headers=bearer(match["edit_key"]))
    check_answer(document, AGREEMENTS, "POST", answer)
    return answer


def test_two_clients_agree_and_lock_the_match(app: Flask, client: FlaskClient, document):
    club = asking_club(app, client)
    match = finished_match(client, club)
    read = client.get(f"/api/v1/matches/{match['id']}/agreements")
    check_answer(document, AGREEMENTS, "GET", read)
    assert read.get_json() == {"asked": 2, "locked": False, "finished": True, "agreed_by": []}
    assert agree(client, document, match, 0, ANN).status_code == 201
    assert agree(client, document, match, 0, ANN).status_code == 200  # the same client again: nothing new
    assert "Ann has already agreed" in error_of(agree(client, document, match, 0, BOB), 409)["message"]
    assert "already agreed as Ann" in error_of(agree(client, document, match, 1, ANN), 409)["message"]
    locked = agree(client, document, match, 1, BOB).get_json()
    assert locked["locked"] and [one["name"] for one in locked["agreed_by"]] == ["Ann", "Bob"]
    assert locked["agreed_by"][0]["at"].endswith("+00:00")


def test_agreeing_is_refused_in_a_sentence(app: Flask, client: FlaskClient, document):
    club = asking_club(app, client)
    match = finished_match(client, club)
    for seat, phone, field in ((4, ANN, "seat"), ("0", ANN, "seat"), (True, ANN, "seat"), (0, "short", "phone"),
                               (0, None, "phone"), (0, "x" * 201, "phone")):
        assert field in error_of(agree(client, document, match, seat, phone), 422)["fields"]
    playing = club_match(client, club)
    assert error_of(agree(client, document, playing, 0, ANN), 409)["message"] == (
        "A match can be agreed once it is finished.")
    no_key = client.post(f"/api/v1/matches/{match['id']}/agreements", json={"seat": 0, "phone": ANN})
    check_answer(document, AGREEMENTS, "POST", no_key)
    error_of(no_key, 401)
    casual = client.post("/api/v1/matches", json={"game": "kozyol", "players": ["A", "B", "C", "D"]}).get_json()
    assert "seat" in error_of(agree(client, document, casual, 0, ANN), 422)["fields"]
    read = client.get(f"/api/v1/matches/{casual['id']}/agreements")
    check_answer(document, AGREEMENTS, "GET", read)
    assert read.get_json()["asked"] == 0


def test_a_locked_match_takes_writes_only_from_the_admin_with_a_reason(app: Flask, client: FlaskClient, document):
    club = asking_club(app, client)
    match = finished_match(client, club)
    agree(client, document, match, 0, ANN)
    agree(client, document, match, 1, BOB)
    hand = f"/api/v1/matches/{match['id']}/hands/1"
    refused = client.put(hand, json=TEAM_0_LOSES, headers=bearer(match["edit_key"]))
    check_answer(document, f"{MATCH}/hands/{{number}}", "PUT", refused)
    assert error_of(refused, 403)["message"] == "Agreed by Ann, Bob: locked. The club's admin can change it."
    undo = client.delete(hand, headers=bearer(match["edit_key"]))
    check_answer(document, f"{MATCH}/hands/{{number}}", "DELETE", undo)
    error_of(undo, 403)
    admin = {**bearer(match["edit_key"]), "Club-Admin-Key": club["admin_key"]}
    wrong = client.put(hand, json=TEAM_0_LOSES, headers={**admin, "Club-Admin-Key": "not-the-key"})
    error_of(wrong, 403)
    without = client.put(hand, json=TEAM_0_LOSES, headers=admin)
    check_answer(document, f"{MATCH}/hands/{{number}}", "PUT", without)
    assert "reason" in error_of(without, 422)["fields"]
    fixed = client.put(f"{hand}?reason=Teams%20swapped", json=TEAM_0_LOSES, headers=admin)
    check_answer(document, f"{MATCH}/hands/{{number}}", "PUT", fixed)
    assert fixed.status_code == 200 and fixed.get_json()["hands"][0]["entry"]["points"] == TEAM_0_LOSES["points"]
    assert client.get(f"/api/v1/matches/{match['id']}/agreements").get_json()["locked"]
    undone = client.delete(f"{hand}?reason=Not played", headers=admin)
    assert undone.status_code == 200
    again = client.post(f"/api/v1/matches/{match['id']}/hands?reason=Played again", json=TEAM_1_LOSES,
                        headers=admin)
    check_answer(document, f"{MATCH}/hands", "POST", again)
    assert again.status_code == 201


def test_a_change_before_the_lock_clears_the_agreements(app: Flask, client: FlaskClient, document):
    club = asking_club(app, client, agree_to_lock=3)
    match = finished_match(client, club)
    agree(client, document, match, 0, ANN)
    agree(client, document, match, 1, BOB)
    fixed = client.put(f"/api/v1/matches/{match['id']}/hands/1", json=TEAM_0_LOSES, headers=bearer(match["edit_key"]))
    assert fixed.status_code == 200
    assert client.get(f"/api/v1/matches/{match['id']}/agreements").get_json()["agreed_by"] == []
    assert agree(client, document, match, 2, CID).status_code == 201


def test_the_club_settings_endpoint_sets_the_lock_and_the_confirmation(client: FlaskClient, document):
    made = client.post("/api/v1/clubs", json={"name": "Sunday table"}).get_json()
    assert (made["agree_to_lock"], made["confirm_hands"]) == (0, False)  # as every club before
    rules = f"/api/v1/clubs/{made['id']}/rules"
    admin = bearer(made["admin_key"])
    for junk in ({"agree_to_lock": -1}, {"agree_to_lock": 12}, {"agree_to_lock": "2"}, {"confirm_hands": "yes"},
                 {"agree_to_lock": 2, "min_matches": 0}):
        refused = client.put(rules, json=junk, headers=admin)
        check_answer(document, "/api/v1/clubs/{club_id}/rules", "PUT", refused)
        error_of(refused, 422)
    assert client.get(f"/api/v1/clubs/{made['id']}").get_json()["agree_to_lock"] == 0  # nothing changed
    saved = client.put(rules, json={"agree_to_lock": 2, "confirm_hands": True}, headers=admin)
    check_answer(document, "/api/v1/clubs/{club_id}/rules", "PUT", saved)
    assert (saved.get_json()["agree_to_lock"], saved.get_json()["confirm_hands"]) == (2, True)
    error_of(client.put(rules, json={"agree_to_lock": 1}), 401)


def test_a_club_match_s_answer_carries_its_agreement_and_a_casual_one_none(app: Flask, client: FlaskClient, document):
    club = asking_club(app, client)
    match = finished_match(client, club)
    agree(client, document, match, 0, ANN)
    agree(client, document, match, 2, CID)
    answer = client.get(f"/api/v1/matches/{match['id']}")
    check_answer(document, MATCH, "GET", answer)
    agreement = answer.get_json()["agreement"]
    assert agreement["locked"] is True and agreement["asked"] == 2
    assert [one["name"] for one in agreement["agreed_by"]] == [FOUR[0], FOUR[2]]
    casual = client.post("/api/v1/matches", json={"game": "kozyol", "players": FOUR}).get_json()
    assert "agreement" not in client.get(f"/api/v1/matches/{casual['id']}").get_json()
