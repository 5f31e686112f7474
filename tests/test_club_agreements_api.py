"""Agreements through the JSON API: agreeing from a member's client, reading who agreed, the lock and the admin's override.

A member's client sends the edit key and the member's own key (Club-Member-Key, made by the admin): the
member agrees in the seat they sat in, once. Every answer is checked against the OpenAPI document; an
agreement without a member's key, or for a seat that is not theirs, answers 403 in the error shape of
API.md, and so do a locked match's writes without the club's admin key (422 on `reason` with it but
without a reason).
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
MEMBER_KEY = "/api/v1/clubs/{club_id}/players/{player_id}/member-key"
PHONE = "ann-own-key-0123456789"
UNSENT = object()


def member_key(client: FlaskClient, document, club: dict[str, Any], player_id: int) -> str:
    """The member's own key, as the admin makes it through the API."""
    made = client.post(f"/api/v1/clubs/{club['id']}/players/{player_id}/member-key", headers=bearer(club["admin_key"]))
    check_answer(document, MEMBER_KEY, "POST", made)
    assert made.status_code == 201 and made.get_json()["id"] == player_id, made.get_json()
    return made.get_json()["member_key"]


def members(client: FlaskClient, document, club: dict[str, Any], match: dict[str, Any]) -> list[str]:
    """The own key of the member in each seat of the match."""
    return [member_key(client, document, club, player) for player in match["seat_ids"]]


def agree(client: FlaskClient, document, match: dict[str, Any], member: str | None, seat: Any = UNSENT,
          phone: Any = UNSENT):
    """A member's client agrees: the edit key, the member's key (none: None), the seat and phone when given."""
    sent = {name: value for name, value in (("seat", seat), ("phone", phone)) if value is not UNSENT}
    headers = {**bearer(match["edit_key"]), **({"Club-Member-Key": member} if member is not None else {})}
    answer = client.post(f"/api/v1/matches/{match['id']}/agreements", json=sent, headers=headers)
    check_answer(document, AGREEMENTS, "POST", answer)
    return answer


def test_two_clients_agree_and_lock_the_match(app: Flask, client: FlaskClient, document):
    club = asking_club(app, client)
    match = finished_match(client, club)
    read = client.get(f"/api/v1/matches/{match['id']}/agreements")
    check_answer(document, AGREEMENTS, "GET", read)
    assert read.get_json() == {"asked": 2, "locked": False, "finished": True, "agreed_by": [],
                               "changed_after_agreement": []}
    ann, bob, _cid, _dee = members(client, document, club, match)
    assert agree(client, document, match, ann, 0, PHONE).status_code == 201
    assert agree(client, document, match, ann).status_code == 200  # the same member again: nothing new
    assert error_of(agree(client, document, match, bob, 0), 403)["message"] == (
        "You sat as Bob: agree in your own seat.")
    assert error_of(agree(client, document, match, ann, 1), 403)["message"] == (
        "You sat as Ann: agree in your own seat.")
    locked = agree(client, document, match, bob).get_json()
    assert locked["locked"] and [one["name"] for one in locked["agreed_by"]] == ["Ann", "Bob"]
    assert locked["agreed_by"][0]["at"].endswith("+00:00")


def test_agreeing_is_refused_in_a_sentence(app: Flask, client: FlaskClient, document):
    club = asking_club(app, client)
    match = finished_match(client, club)
    ann = member_key(client, document, club, match["seat_ids"][0])
    for seat, phone, field in ((4, PHONE, "seat"), ("0", PHONE, "seat"), (True, PHONE, "seat"), (0, "short", "phone"),
                               (0, 7, "phone"), (0, "x" * 201, "phone")):
        assert field in error_of(agree(client, document, match, ann, seat, phone), 422)["fields"]
    assert error_of(agree(client, document, match, None, 0), 403)["message"].startswith(
        "Agree from your own phone: open the member link")  # the edit key says nobody
    assert "member link" in error_of(agree(client, document, match, "not-a-member-key", 0), 403)["message"]
    eve = client.post(f"/api/v1/clubs/{club['id']}/players", json={"name": "Eve"},
                      headers=bearer(club["admin_key"])).get_json()
    assert error_of(agree(client, document, match, member_key(client, document, club, eve["id"])), 403)[
        "message"] == "Eve did not play this match: only its players agree to it."
    playing = club_match(client, club)
    assert error_of(agree(client, document, playing, ann, 0), 409)["message"] == (
        "A match can be agreed once it is finished.")
    no_key = client.post(f"/api/v1/matches/{match['id']}/agreements", json={"seat": 0},
                         headers={"Club-Member-Key": ann})
    check_answer(document, AGREEMENTS, "POST", no_key)
    error_of(no_key, 401)
    assert client.get(f"/api/v1/matches/{match['id']}/agreements").get_json()["agreed_by"] == []
    casual = client.post("/api/v1/matches", json={"game": "kozyol", "players": ["A", "B", "C", "D"]}).get_json()
    assert "seat" in error_of(agree(client, document, casual, ann, 0), 422)["fields"]
    read = client.get(f"/api/v1/matches/{casual['id']}/agreements")
    check_answer(document, AGREEMENTS, "GET", read)
    assert read.get_json()["asked"] == 0


def test_a_locked_match_takes_writes_only_from_the_admin_with_a_reason(app: Flask, client: FlaskClient, document):
    club = asking_club(app, client)
    match = finished_match(client, club)
    ann, bob, _cid, _dee = members(client, document, club, match)
    agree(client, document, match, ann)
    agree(client, document, match, bob)
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
    ann, bob, cid, _dee = members(client, document, club, match)
    assert agree(client, document, match, ann).status_code == 201
    assert agree(client, document, match, bob).status_code == 201
    fixed = client.put(f"/api/v1/matches/{match['id']}/hands/1", json=TEAM_0_LOSES, headers=bearer(match["edit_key"]))
    assert fixed.status_code == 200
    assert client.get(f"/api/v1/matches/{match['id']}/agreements").get_json()["agreed_by"] == []
    assert agree(client, document, match, cid, 2).status_code == 201
    assert agree(client, document, match, ann).status_code == 201  # agreed to other figures: again


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
    ann, _bob, cid, _dee = members(client, document, club, match)
    agree(client, document, match, ann)
    agree(client, document, match, cid)
    answer = client.get(f"/api/v1/matches/{match['id']}")
    check_answer(document, MATCH, "GET", answer)
    agreement = answer.get_json()["agreement"]
    assert agreement["locked"] is True and agreement["asked"] == 2
    assert [one["name"] for one in agreement["agreed_by"]] == [FOUR[0], FOUR[2]]
    casual = client.post("/api/v1/matches", json={"game": "kozyol", "players": FOUR}).get_json()
    assert "agreement" not in client.get(f"/api/v1/matches/{casual['id']}").get_json()
