"""Writes a phone may send twice, after an answer it never got, are safe twice: "I'm in" and "Agreed" again
change nothing and refuse nothing; and a request whose database connection died is closed without an error
escaping to the server's bare 500 page."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from helpers.agreements import asking_club, finished_match
from helpers.api import bearer
from helpers.clubs import ahead, member_key
from helpers.forms import csrf_token


def test_im_in_and_agreed_sent_twice_are_the_same_answer(app: Flask, client: FlaskClient):
    from scorekeeper.club import evenings, service

    club = asking_club(app, client)
    match = finished_match(client, club)
    ann = match["seat_ids"][0]
    phone = app.test_client()
    assert phone.get(f"/c/{club['id']}/member/{member_key(app, club['id'], ann)}").status_code == 302
    with app.app_context():
        found = service.find(club["id"])
        evening = evenings.schedule(found, ahead(2), "19:30", "", "")[0].id
    token = csrf_token(phone, "/clubs/new")
    for _ in range(2):
        said = phone.post(f"/c/{club['id']}/evenings/{evening}/answer", data={"csrf_token": token, "coming": "in"})
        assert said.status_code == 302
    phone.get(f"/m/{match['id']}/join?key={match['edit_key']}")
    for _ in range(2):
        agreed = phone.post(f"/m/{match['id']}/agree", data={"csrf_token": token, "seat": "0"}, follow_redirects=True)
        assert "Agreed. Thank you." in agreed.text
    state = client.get(f"/api/v1/matches/{match['id']}/agreements").get_json()
    assert [one["name"] for one in state["agreed_by"]] == ["Ann"]
    with app.app_context():
        found = service.find(club["id"])
        assert [p.name for p in evenings.answers(found, evenings.evening_of(found, evening)).coming] == ["Ann"]
    for _ in range(2):
        again = client.post(f"/api/v1/clubs/{club['id']}/planned-evenings/{evening}/answers", json={"coming": True},
                            headers={"Club-Member-Key": member_key(app, club["id"], ann)})
        assert again.status_code == 200 and again.get_json()["proven"] is True


def test_a_session_that_cannot_close_is_dropped_without_an_error_page(app: Flask, client: FlaskClient,
                                                                     monkeypatch: pytest.MonkeyPatch):
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": ["Ann", "Bob", "Cid", "Dee"]}).get_json()
    real, failed = Session.close, []

    def dead_connection(self: Session) -> None:
        if not failed:
            failed.append(True)
            raise OperationalError("ROLLBACK", {}, Exception("server closed the connection unexpectedly"))
        real(self)

    monkeypatch.setattr(Session, "close", dead_connection)
    answer = client.get(f"/api/v1/matches/{made['id']}")
    assert failed and answer.status_code == 200
    assert client.post(f"/api/v1/matches/{made['id']}/hands", json={"points": [75, 45]},
                       headers=bearer(made["edit_key"])).status_code == 201
