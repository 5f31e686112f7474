"""Small things the table noticed: each sentence says what happened, to whom."""

from __future__ import annotations

import io
import re

from helpers.api import bearer, create_match
from helpers.forms import TOKEN, post_form

SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def test_restoring_without_choosing_a_file_asks_for_the_file(client):
    page = client.get("/import").text
    answer = client.post("/import", data={"csrf_token": TOKEN.search(page)[1],
                                          "document": (io.BytesIO(b""), "")}, content_type="multipart/form-data")
    assert answer.status_code == 422
    assert "Choose the backup file to restore first." in answer.text
    assert "not a match exported" not in answer.text


def test_the_end_of_a_hearts_game_names_everyone_at_or_past_the_target(client):
    made = create_match(client, "hearts", SIX, {"target": 100})
    hand = {"hearts": dict(zip(SIX, [13, 12, 1, 0, 0, 0])), "black_marias": dict(zip(SIX, [1, 1, 0, 0, 0, 0]))}
    for _ in range(4):
        assert client.post(f"/api/v1/matches/{made['id']}/hands", json=hand,
                           headers=bearer(made["edit_key"])).status_code == 201
    page = client.get(made["url"]).text
    assert "The game is over: Ann, Bob reached 100." in page  # 104 and 100; Ann alone is the closest


def test_a_team_left_without_points_is_asked_the_question_the_form_offers(app):
    made = create_match(app.test_client(), "kozyol")
    phone = app.test_client()
    phone.get(made["edit_url"])
    answer = post_form(phone, f"/m/{made['id']}/hands/new", {"side": "1", "mode": "points", "points": "120"})
    assert answer.status_code == 422
    reason = re.search(r'<p class="error" id="err-tricks">([^<]+)</p>', answer.text)[1]
    assert reason == "Did Ann and Cid take a trick? Answer yes or no."
