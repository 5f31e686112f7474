"""Writes sent again under the same Idempotency-Key are made once and answered the same, on any server."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from helpers.api import api_url, bearer, create_match, error_of, read
from helpers.matches import PLAYERS
from helpers.openapi import check_answer
from scorekeeper.db import db
from scorekeeper.match.receipts import KEY_MAX
from scorekeeper.models import Match, Receipt

ANN, BOB, CID, DEE = PLAYERS
DEAL = {"points": [75, 45]}
OTHER_DEAL = {"points": [30, 90]}


def keyed(match: dict[str, Any], key: str) -> dict[str, str]:
    return {**bearer(match["edit_key"]), "Idempotency-Key": key}


def test_the_same_key_twice_records_one_hand_and_answers_the_same(client):
    made = create_match(client, "kozyol")
    first = client.post(api_url(made, "hands"), json=DEAL, headers=keyed(made, "3f1c0a52-phone-1"))
    again = client.post(api_url(made, "hands"), json=DEAL, headers=keyed(made, "3f1c0a52-phone-1"))
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.data == first.data
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    hands = read(client, made)["hands"]
    assert [hand["entry"]["points"] for hand in hands] == [[75, 45]]
    history = client.get(api_url(made, "history")).get_json()["changes"]
    assert [change["action"] for change in history] == ["record"]


def test_a_repeat_gets_the_answer_it_got_then_even_after_later_hands(client):
    made = create_match(client, "kozyol")
    first = client.post(api_url(made, "hands"), json=DEAL, headers=keyed(made, "first"))
    assert client.post(api_url(made, "hands"), json=OTHER_DEAL, headers=keyed(made, "second")).status_code == 201
    again = client.post(api_url(made, "hands"), json=DEAL, headers=keyed(made, "first"))
    assert (again.status_code, again.get_json()) == (201, first.get_json())
    assert len(again.get_json()["hands"]) == 1 and len(read(client, made)["hands"]) == 2


def test_a_different_body_under_a_used_key_is_refused_and_writes_nothing(client):
    made = create_match(client, "kozyol")
    assert client.post(api_url(made, "hands"), json=DEAL, headers=keyed(made, "k-1")).status_code == 201
    for body in (OTHER_DEAL, {**DEAL, "number": 1}, {**DEAL, "trump_suit": "hearts"}):
        error = error_of(client.post(api_url(made, "hands"), json=body, headers=keyed(made, "k-1")), 422)
        assert error["fields"] == {"Idempotency-Key": "This idempotency key was already used for a different request."}
    # The same key on another kind of write, or on another hand, is another request too.
    error_of(client.put(api_url(made, "hands", 1), json=DEAL, headers=keyed(made, "k-1")), 422)
    error_of(client.delete(api_url(made, "hands", 1), headers=keyed(made, "k-1")), 422)
    assert len(read(client, made)["hands"]) == 1


def test_corrections_and_undos_under_a_key_are_made_once(client):
    made = create_match(client, "kozyol")
    for entry in (DEAL, DEAL):
        assert client.post(api_url(made, "hands"), json=entry, headers=bearer(made["edit_key"])).status_code == 201
    fixed = [client.put(api_url(made, "hands", 1), json=OTHER_DEAL, headers=keyed(made, "fix")) for _ in range(2)]
    assert [answer.status_code for answer in fixed] == [200, 200] and fixed[0].data == fixed[1].data
    undone = [client.delete(api_url(made, "hands", 2), headers=keyed(made, "undo")) for _ in range(2)]
    assert [answer.status_code for answer in undone] == [200, 200] and undone[0].data == undone[1].data
    # Without its key, the same undo is a new request: hand 1 is the last one now, so it goes too.
    assert client.delete(api_url(made, "hands", 1), headers=bearer(made["edit_key"])).status_code == 200
    history = client.get(api_url(made, "history")).get_json()["changes"]
    assert [(change["action"], change["number"]) for change in history] == [
        ("undo", 1), ("undo", 2), ("correct", 1), ("record", 2), ("record", 1)]


def test_a_refused_write_is_not_remembered_and_can_be_sent_again(client):
    made = create_match(client, "kozyol")
    early = {**DEAL, "number": 2}
    assert error_of(client.post(api_url(made, "hands"), json=early, headers=keyed(made, "k")), 409)
    assert client.post(api_url(made, "hands"), json=OTHER_DEAL, headers=bearer(made["edit_key"])).status_code == 201
    assert client.post(api_url(made, "hands"), json=early, headers=keyed(made, "k")).status_code == 201
    assert [hand["entry"]["points"] for hand in read(client, made)["hands"]] == [[30, 90], [75, 45]]


def test_keys_belong_to_their_match(client):
    one, two = create_match(client, "kozyol"), create_match(client, "kozyol")
    for made in (one, two):
        answer = client.post(api_url(made, "hands"), json=DEAL, headers=keyed(made, "same-key"))
        assert answer.status_code == 201 and "Idempotent-Replayed" not in answer.headers
        assert len(read(client, made)["hands"]) == 1


@pytest.mark.parametrize("key", ["", "has space", "x" * (KEY_MAX + 1), "clé", "tab\there"])
def test_a_malformed_key_is_refused_before_anything_is_written(client, key):
    made = create_match(client, "kozyol")
    for answer in (client.post(api_url(made, "hands"), json=DEAL, headers=keyed(made, key)),
                   client.delete(api_url(made, "hands", 1), headers=keyed(made, key))):
        error = error_of(answer, 422)
        assert error["fields"] == {
            "Idempotency-Key": f"An idempotency key is 1 to {KEY_MAX} visible characters, without spaces."}
    assert read(client, made)["hands"] == []


def test_the_key_is_checked_after_the_edit_key(client):
    made = create_match(client, "kozyol")
    assert client.post(api_url(made, "hands"), json=DEAL, headers={"Idempotency-Key": "bad key"}).status_code == 401
    assert client.post(api_url(made, "hands"), json=DEAL,
                       headers={**bearer("wrong"), "Idempotency-Key": "k"}).status_code == 403


def test_threads_racing_with_one_key_record_one_hand(app):
    made = create_match(app.test_client(), "hearts", [*PLAYERS, "Eve", "Fay"], {"target": 1000})
    entry = {"hearts": {name: 0 for name in made["players"]} | {ANN: 5, BOB: 21},
             "black_marias": dict.fromkeys(made["players"], 0)}
    answers: list[Any] = [None] * 6
    barrier = threading.Barrier(len(answers))

    def send(index: int) -> None:
        client = app.test_client()
        barrier.wait(timeout=30)
        answers[index] = client.post(api_url(made, "hands"), json=entry, headers=keyed(made, "one-tap"))

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(answers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert {answer.status_code for answer in answers} == {201}
    assert len({answer.data for answer in answers}) == 1
    assert len(read(app.test_client(), made)["hands"]) == 1


def test_the_database_itself_refuses_a_second_receipt_for_a_key(app, client):
    made = create_match(client, "kozyol")
    with app.app_context():
        match_id = db.session.query(Match.id).filter_by(public_id=made["id"]).scalar()
        receipt = {"match_id": match_id, "key": "k", "fingerprint": "0" * 64, "number": 1, "status": 201, "body": b""}
        db.session.add(Receipt(**receipt))
        db.session.commit()
        db.session.add(Receipt(**receipt))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()


# -- several server processes on one database ------------------------------------------------------


def test_a_repeat_sent_to_another_server_is_answered_the_same(servers):
    one, two = servers
    status, _, body = one.call("POST", "/api/v1/matches", {"game": "barbu", "players": PLAYERS,
                                                           "options": {"first_declarer": ANN}})
    made = json.loads(body)
    path = f"/api/v1/matches/{made['id']}/hands"
    entry = {"contract": "barbu", "king_of_hearts": BOB}
    first = one.call("POST", path, entry, keyed(made, "lost-answer"))
    again = two.call("POST", path, entry, keyed(made, "lost-answer"))
    assert (first[0], again[0]) == (201, 201) and again[2] == first[2]
    assert again[1]["Idempotent-Replayed"] == "true"
    other = two.call("POST", path, {**entry, "king_of_hearts": CID}, keyed(made, "lost-answer"))
    assert other[0] == 422
    assert len(one.state(made["id"])["hands"]) == 1


RACES = 10


def test_two_servers_racing_with_one_key_record_one_hand(servers):
    one, two = servers
    six = [*PLAYERS, "Eve", "Fay"]
    status, _, body = one.call("POST", "/api/v1/matches", {"game": "hearts", "players": six,
                                                           "options": {"target": 1000}})
    made = json.loads(body)
    path = f"/api/v1/matches/{made['id']}/hands"
    for number in range(1, RACES + 1):
        # Conditional, as the phones send it: a lost race is not retried, so only the key saves it.
        entry = {"hearts": dict.fromkeys(six, 0) | {ANN: number, BOB: 26 - number}, "black_marias": dict.fromkeys(six, 0),
                 "number": number}
        answers: list[Any] = [None] * 4
        barrier = threading.Barrier(len(answers))

        def send(index: int, entry: dict[str, Any] = entry, key: str = f"race-{number}") -> None:
            barrier.wait(timeout=30)
            answers[index] = (one, two)[index % 2].call("POST", path, entry, keyed(made, key))

        threads = [threading.Thread(target=send, args=(index,)) for index in range(len(answers))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert [answer[0] for answer in answers] == [201] * len(answers), [answer[2] for answer in answers]
        assert len({answer[2] for answer in answers}) == 1
    assert [hand["entry"]["hearts"][ANN] for hand in two.state(made["id"])["hands"]] == list(range(1, RACES + 1))


# -- the OpenAPI document --------------------------------------------------------------------------


def test_the_key_and_the_replay_are_documented_for_every_write_to_hands(client):
    document = client.get("/api/v1/openapi.json").get_json()
    made = create_match(client, "kozyol")
    writes = {("post", "/api/v1/matches/{public_id}/hands"): lambda key: client.post(
                  api_url(made, "hands"), json=DEAL, headers=keyed(made, key)),
              ("put", "/api/v1/matches/{public_id}/hands/{number}"): lambda key: client.put(
                  api_url(made, "hands", 1), json=OTHER_DEAL, headers=keyed(made, key)),
              ("delete", "/api/v1/matches/{public_id}/hands/{number}"): lambda key: client.delete(
                  api_url(made, "hands", 1), headers=keyed(made, key))}
    for (method, path), send in writes.items():
        operation = document["paths"][path][method]
        assert {"$ref": "#/components/parameters/IdempotencyKey"} in operation["parameters"]
        assert "Idempotency-Key" in operation["description"] and "422" in operation["responses"]
        first, again = send(method), send(method)
        assert again.headers["Idempotent-Replayed"] == "true" and again.data == first.data
        for answer in (first, again, send(" ")):
            check_answer(document, path, method.upper(), answer)
        success = operation["responses"]["201" if method == "post" else "200"]
        assert "Idempotent-Replayed" in success["headers"]
    key = document["components"]["parameters"]["IdempotencyKey"]
    assert (key["in"], key["required"], key["schema"]["maxLength"]) == ("header", False, KEY_MAX)
