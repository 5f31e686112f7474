"""A match start sent twice under its Idempotency-Key starts one match: the repeat answers the same match, its
edit key too. A start resent after no answer no longer leaves an empty match "still at the table" for good."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from helpers.api import bearer
from helpers.matches import PLAYERS

API = "/api/v1"
START = {"game": "kozyol", "players": PLAYERS}


def matches_stored(app: Flask) -> int:
    from scorekeeper.db import db
    from scorekeeper.models import Match

    with app.app_context():
        return db.session.scalar(select(func.count(Match.id)))


def test_a_casual_start_sent_again_answers_the_same_match(app: Flask, client: FlaskClient):
    key = {"Idempotency-Key": "start-7f3a9c"}
    first = client.post(f"{API}/matches", json=START, headers=key)
    again = client.post(f"{API}/matches", json=START, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert again.get_json() == first.get_json()  # its edit key and link too
    assert matches_stored(app) == 1
    other = client.post(f"{API}/matches", json={**START, "game": "barbu", "options": {"first_declarer": "Ann"}},
                        headers=key)
    assert other.status_code == 422 and "already used for a different request" in str(other.get_json())
    assert client.post(f"{API}/matches", json=START).get_json()["id"] != first.get_json()["id"]  # no key: a new one
    played = client.post(f"{API}/matches/{first.get_json()['id']}/hands", json={"points": [75, 45]},
                         headers=bearer(first.get_json()["edit_key"]))
    assert played.status_code == 201  # the key the repeat answered writes


def test_a_club_start_sent_again_starts_one_match_and_adds_its_names_once(app: Flask, client: FlaskClient):
    from scorekeeper.club import service

    club = client.post(f"{API}/clubs", json={"name": "Thursday"}).get_json()
    other_club = client.post(f"{API}/clubs", json={"name": "Friday"}).get_json()
    key = {"Idempotency-Key": "club-start-1"}
    answers = [client.post(f"{API}/clubs/{club['id']}/matches", json=START, headers=key) for _ in range(4)]
    assert {answer.status_code for answer in answers} == {201}
    assert len({answer.get_json()["id"] for answer in answers}) == 1
    assert len({answer.get_json()["edit_key"] for answer in answers}) == 1
    elsewhere = client.post(f"{API}/clubs/{other_club['id']}/matches", json=START, headers=key)
    assert elsewhere.status_code == 201 and elsewhere.get_json()["id"] != answers[0].get_json()["id"]
    assert matches_stored(app) == 2
    with app.app_context():
        assert sorted(player.name for player in service.roster(service.find(club["id"]))) == sorted(PLAYERS)


def test_a_start_whose_edit_link_was_replaced_is_not_handed_out_again(app: Flask, client: FlaskClient):
    key = {"Idempotency-Key": "start-then-new-link"}
    first = client.post(f"{API}/matches", json=START, headers=key).get_json()
    assert client.post(f"{API}/matches/{first['id']}/key", headers=bearer(first["edit_key"])).status_code == 200
    again = client.post(f"{API}/matches", json=START, headers=key)
    assert again.status_code == 409 and "edit link was replaced" in again.get_json()["error"]["message"]
    assert matches_stored(app) == 1
