"""Two copies of one kept hand, sent at once by two tabs of a phone: the second is always a replay.

A copy whose first look for its key came before the other copy's commit still lands where the
other one saved it, never on "Hand n is already recorded". On the test database file (SQLite) or,
in the PostgreSQL run, on PostgreSQL.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import create_match, read
from helpers.forms import TOKEN
from scorekeeper.match import receipts

JSON = {"Accept": "application/json"}
KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')
ROUNDS = 12


def joined(app: Flask, made: dict[str, Any]) -> FlaskClient:
    phone = app.test_client()
    assert phone.get(made["edit_url"]).status_code == 302
    return phone


def kept_deal(phone: FlaskClient, path: str, points: int) -> dict[str, str]:
    """A deal as the outbox keeps it: the form's hidden fields as the page gave them, and the count."""
    page = phone.get(path).text
    return {"csrf_token": TOKEN.search(page)[1], "number": re.search(r'name="number" value="(\d+)"', page)[1],
            "idempotency_key": KEY.search(page)[1], "side": "0", "mode": "points", "points": str(points)}


def test_a_copy_that_looked_for_its_key_too_early_is_still_a_replay(app, monkeypatch):
    made = create_match(app.test_client(), "kozyol")
    phone, path = joined(app, made), f"/m/{made['id']}/hands/new"
    deal = kept_deal(phone, path, 75)
    first = phone.post(path, data=deal, headers=JSON)
    assert first.status_code == 201
    # The second tab's copy looked for the key while the first copy's commit was on its way.
    looks = {"count": 0}
    check = receipts.check

    def too_early(match_id: int, pending: receipts.Pending | None) -> None:
        looks["count"] += 1
        if looks["count"] > 1:
            check(match_id, pending)

    monkeypatch.setattr(receipts, "check", too_early)
    again = phone.post(path, data=deal, headers=JSON)
    assert (again.status_code, again.data) == (201, first.data)
    plain = phone.post(path, data=deal)  # and the same without the script: it landed where it saved
    assert plain.status_code == 302 and plain.headers["Location"] == first.get_json()["location"]
    assert "Hand 1 is saved." in phone.get(plain.headers["Location"]).text
    assert len(read(phone, made)["hands"]) == 1


def race(work: Any, count: int) -> list[Any]:
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def run(index: int) -> None:
        barrier.wait(timeout=30)
        answers[index] = work(index)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a tab never got an answer"
    return answers


@pytest.mark.parametrize("tabs", [2, 3])
def test_tabs_sending_the_same_kept_hands_at_once_are_all_answered_saved(app, tabs):
    made = create_match(app.test_client(), "kozyol")
    phone, path = joined(app, made), f"/m/{made['id']}/hands/new"
    for _ in range(ROUNDS):
        deal = kept_deal(phone, path, 60)  # a drawn deal: the series never ends
        cookie = phone.get_cookie("session")  # the form's token lives in it
        # One phone, several tabs: the same session, each tab its own connection.
        clients = [app.test_client() for _ in range(tabs)]
        for client in clients:
            client.set_cookie("session", cookie.value)
        answers = race(lambda index, deal=deal: clients[index].post(path, data=deal, headers=JSON), tabs)
        assert [answer.status_code for answer in answers] == [201] * tabs, [answer.text for answer in answers]
        assert len({answer.data for answer in answers}) == 1
    assert len(read(phone, made)["hands"]) == ROUNDS
