"""Hand forms carry a key: a repeat saves once; the phone's outbox reads what became of a kept hand in JSON."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from helpers.api import api_url, bearer, create_match, read
from helpers.forms import TOKEN
from helpers.matches import PLAYERS

ANN, BOB, CID, DEE = PLAYERS
JSON = {"Accept": "application/json"}
KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')
DEAL = {"side": "0", "mode": "points", "points": "75"}
NO_TRICKS = {"variant": "no_tricks", "tricks_0": "4", "tricks_1": "3", "tricks_2": "5", "tricks_3": "1"}


def joined(app: Flask, made: dict[str, Any]) -> FlaskClient:
    phone = app.test_client()
    assert phone.get(made["edit_url"]).status_code == 302
    return phone


def opened(phone: FlaskClient, path: str) -> dict[str, str]:
    """The hidden fields of a hand form as the page gives them: token, hand number, key."""
    page = phone.get(path).text
    return {"csrf_token": TOKEN.search(page)[1], "number": re.search(r'name="number" value="(\d+)"', page)[1],
            "idempotency_key": KEY.search(page)[1]}


def kozyol(app: Flask) -> tuple[dict[str, Any], FlaskClient, str]:
    made = create_match(app.test_client(), "kozyol")
    return made, joined(app, made), f"/m/{made['id']}/hands/new"


def test_every_hand_form_carries_a_fresh_key(app):
    made, phone, path = kozyol(app)
    keys = {opened(phone, path)["idempotency_key"] for _ in range(3)}
    assert len(keys) == 3 and all(len(key) >= 16 for key in keys)
    page = phone.get(path).text
    assert f'data-outbox data-match="{made["id"]}"' in page and 'data-label="Deal {n}"' in page


def test_a_form_sent_again_under_its_key_saves_once_and_lands_where_it_did(app):
    made, phone, path = kozyol(app)
    form = {**opened(phone, path), **DEAL}
    first = phone.post(path, data=form)
    assert first.status_code == 302 and first.headers["Location"].endswith("#saved")
    # The answer was lost: the page is sent again, even with a fresh token, under the same key.
    again = phone.post(path, data={**form, "csrf_token": opened(phone, path)["csrf_token"]})
    assert again.status_code == 302 and again.headers["Location"] == first.headers["Location"]
    assert "Hand 1 is saved." in phone.get(again.headers["Location"]).text
    assert len(read(phone, made)["hands"]) == 1


def test_a_form_changed_after_its_save_and_sent_again_is_judged_as_a_new_entry(app):
    made, phone, path = kozyol(app)
    form = {**opened(phone, path), **DEAL}
    assert phone.post(path, data=form).status_code == 302
    changed = phone.post(path, data={**form, "points": "90"})
    assert "Hand 1 is already recorded." in phone.get(changed.headers["Location"]).text
    assert [hand["entry"]["points"] for hand in read(phone, made)["hands"]] == [[75, 45]]


def test_a_correction_sent_again_under_its_key_is_made_once(app):
    made, phone, path = kozyol(app)
    assert phone.post(path, data={**opened(phone, path), **DEAL}).status_code == 302
    form = {**opened(phone, f"/m/{made['id']}/hands/1"), **DEAL, "points": "90"}
    for _ in range(2):
        assert phone.post(f"/m/{made['id']}/hands/1", data=form).status_code == 302
    history = phone.get(api_url(made, "history")).get_json()["changes"]
    assert [change["action"] for change in history] == ["correct", "record"]


# -- the outbox's JSON answers -----------------------------------------------------------------------


def test_the_outbox_is_told_where_the_saved_hand_lands_and_a_repeat_is_told_the_same(app):
    made, phone, path = kozyol(app)
    form = {**opened(phone, path), **DEAL}
    first = phone.post(path, data=form, headers=JSON)
    assert (first.status_code, first.get_json()) == (201, {"saved": 1, "location": f"/m/{made['id']}#saved"})
    again = phone.post(path, data=form, headers=JSON)
    assert (again.status_code, again.data) == (201, first.data)
    assert len(read(phone, made)["hands"]) == 1


def test_a_hand_another_phone_recorded_meanwhile_comes_back_beside_what_was_recorded(app):
    made, phone, path = kozyol(app)
    other = joined(app, made)
    mine, theirs = opened(phone, path), opened(other, path)
    assert other.post(path, data={**theirs, **DEAL, "points": "30", "trump_suit": "clubs"}).status_code == 302
    answer = phone.post(path, data={**mine, **DEAL}, headers=JSON)
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["error"]["message"] == "Hand 1 is already recorded."
    assert body["number"] == 1 and body["next"] == 2
    assert body["recorded"] == ["card points: 30 : 90", "trump suit: ♣ Clubs"]
    assert body["yours"] == ["card points: 75 : 45"]
    # Recorded as the next hand: the same entry, numbered on, under a key of its own.
    moved = phone.post(path, data={**mine, **DEAL, "number": "2", "idempotency_key": "moved-on-1"}, headers=JSON)
    assert moved.status_code == 201 and moved.get_json()["saved"] == 2
    assert [hand["entry"]["points"] for hand in read(phone, made)["hands"]] == [[30, 90], [75, 45]]


def test_a_kept_hand_the_rules_now_refuse_comes_back_with_the_rules_sentence(app):
    made = create_match(app.test_client(), "barbu", options={"first_declarer": ANN})
    phone = joined(app, made)
    assert app.test_client().post(api_url(made, "hands"), json={"contract": "no_tricks", "tricks": {
        ANN: 4, BOB: 3, CID: 5, DEE: 1}}, headers=bearer(made["edit_key"])).status_code == 201
    path = f"/m/{made['id']}/hands/new?variant=barbu"
    kept = {**opened(phone, path), "variant": "barbu", "king_of_hearts": "1"}
    # Meanwhile another phone corrects hand 1: Ann declared the Barbu there.
    assert app.test_client().put(api_url(made, "hands", 1), json={"contract": "barbu", "king_of_hearts": BOB},
                                 headers=bearer(made["edit_key"])).status_code == 200
    answer = phone.post(path, data=kept, headers=JSON)
    assert answer.status_code == 422
    assert answer.get_json()["error"]["message"] == "Ann has already played Barbu in this block."
    assert len(read(phone, made)["hands"]) == 1


def test_a_kept_hand_with_a_stale_token_is_told_so_by_field(app):
    made, phone, path = kozyol(app)
    answer = phone.post(path, data={**opened(phone, path), **DEAL, "csrf_token": "expired"}, headers=JSON)
    assert answer.status_code == 422 and "csrf_token" in answer.get_json()["error"]["fields"]
    assert read(phone, made)["hands"] == []


def test_a_kept_hand_from_a_phone_whose_link_was_replaced_is_refused_in_words(app):
    made, phone, path = kozyol(app)
    form = {**opened(phone, path), **DEAL}
    assert app.test_client().post(api_url(made, "key"), headers=bearer(made["edit_key"])).status_code == 200
    answer = phone.post(path, data=form, headers=JSON)
    assert answer.status_code == 403
    assert answer.get_json()["error"]["message"].startswith("The edit link this phone opened has been replaced")


def test_a_kept_hand_for_a_finished_match_is_told_there_is_no_next_hand(app):
    made = create_match(app.test_client(), "kozyol", options={"target": 1})
    phone = joined(app, made)
    path = f"/m/{made['id']}/hands/new"
    form = {**opened(phone, path), **DEAL}
    assert app.test_client().post(api_url(made, "hands"), json={"points": [0, 120], "tricks": [0, 8]},
                                  headers=bearer(made["edit_key"])).status_code == 201
    body = phone.post(path, data=form, headers=JSON).get_json()
    assert body["error"]["message"] == "Hand 1 is already recorded." and body["next"] is None


def test_the_pages_without_script_work_as_before(app):
    made, phone, path = kozyol(app)
    form = opened(phone, path)
    del form["idempotency_key"]  # a page opened before keys existed
    assert phone.post(path, data={**form, **DEAL}).status_code == 302
    refused = phone.post(f"/m/{made['id']}/hands/new?variant=", data={**opened(phone, path), **DEAL, "points": "121"})
    assert refused.status_code == 422 and 'name="idempotency_key"' in refused.text
    barbu = create_match(app.test_client(), "barbu", options={"first_declarer": ANN})
    other = joined(app, barbu)
    page = f"/m/{barbu['id']}/hands/new?variant=no_tricks"
    assert other.post(page, data={**opened(other, page), **NO_TRICKS}).status_code == 302
