"""Undo is one tap, so it can be taken back: the hand undone is put back exactly as it was."""

from __future__ import annotations

import html
import re

from helpers.api import bearer, create_match
from helpers.forms import TOKEN
from helpers.matches import PLAYERS, barbu_entry

KOZYOL = [{"points": [75, 45]}, {"points": [30, 90], "trump_suit": "hearts", "last_trick": "Bob"}]


def editor_of(app, made):
    phone = app.test_client()
    assert phone.get(made["edit_url"]).status_code == 302
    return phone


def token(phone, made) -> str:
    return TOKEN.search(phone.get(f"/m/{made['id']}").text)[1]


def hands(phone, made) -> list[dict]:
    return phone.get(f"/api/v1/matches/{made['id']}").get_json()["hands"]


def test_an_undone_hand_can_be_put_back_as_it_was(app):
    made = create_match(app.test_client(), "kozyol")
    for entry in KOZYOL:
        app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=entry, headers=bearer(made["edit_key"]))
    phone = editor_of(app, made)
    kept = hands(phone, made)
    assert phone.post(f"/m/{made['id']}/hands/2/undo", data={"csrf_token": token(phone, made)}).status_code == 302
    page = phone.get(f"/m/{made['id']}").text
    assert "Deal 2 undone." in page and "Put deal 2 back" in page
    assert "Put deal 2 back" not in app.test_client().get(f"/m/{made['id']}").text, "only an editor can"
    answer = phone.post(f"/m/{made['id']}/hands/2/back", data={"csrf_token": token(phone, made)})
    assert answer.status_code == 302
    assert "Deal 2 is back." in phone.get(answer.headers["Location"]).text
    assert hands(phone, made) == kept
    assert "Put deal 2 back" not in phone.get(f"/m/{made['id']}").text


def undo_on(phone, made, number: int):
    answer = phone.post(f"/m/{made['id']}/hands/{number}/undo", data={"csrf_token": token(phone, made)})
    assert answer.status_code == 302


def put_back_from_history(phone, made, label: str):
    """Tap the history's button named label; return the page the phone lands on and its address."""
    page = phone.get(f"/m/{made['id']}/history").text
    form = re.search(r'<form class="put-back" method="post"\s+action="([^"]+)">.*?name="change" value="(\d+)">'
                     r'\s*<button class="button" type="submit">([^<]+)</button>', page, re.S)
    assert form is not None and form[3].strip() == label, page
    answer = phone.post(form[1], data={"csrf_token": TOKEN.search(page)[1], "change": form[2]})
    assert answer.status_code == 302
    return html.unescape(phone.get(answer.headers["Location"]).text), answer.headers["Location"]


def test_an_undone_hand_comes_back_from_the_history_after_later_hands(app):
    made = create_match(app.test_client(), "kozyol")
    for entry in KOZYOL:
        app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=entry, headers=bearer(made["edit_key"]))
    phone = editor_of(app, made)
    undo_on(phone, made, 2)
    app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json={"points": [61, 59]},
                           headers=bearer(made["edit_key"]))
    assert "Put deal 2 back" not in app.test_client().get(f"/m/{made['id']}/history").text, "only an editor can"
    page, landed = put_back_from_history(phone, made, "Put deal 2 back as deal 3")
    assert "Deal 2 is back, as deal 3." in page
    assert landed.endswith("#saved"), "the phone lands on the next hand's controls"
    assert [hand["entry"]["points"] for hand in hands(phone, made)] == [[75, 45], [61, 59], [30, 90]]
    assert "Put deal 2 back" not in phone.get(f"/m/{made['id']}/history").text, "put back once"


def test_a_second_tap_on_put_back_records_nothing_more(app):
    made = create_match(app.test_client(), "kozyol")
    for entry in KOZYOL:
        app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=entry, headers=bearer(made["edit_key"]))
    phone = editor_of(app, made)
    undo_on(phone, made, 2)
    history = phone.get(f"/m/{made['id']}/history").text
    sent = {"csrf_token": TOKEN.search(history)[1], "change": re.search(r'name="change" value="(\d+)"', history)[1]}
    assert phone.post(f"/m/{made['id']}/hands/2/back", data=sent).status_code == 302
    again = phone.post(f"/m/{made['id']}/hands/2/back", data=sent)
    assert "Hand 2 is not waiting to be put back" in phone.get(again.headers["Location"]).text
    assert len(hands(phone, made)) == 2


def test_a_hand_typed_again_is_no_longer_offered(app):
    made = create_match(app.test_client(), "kozyol")
    for entry in KOZYOL:
        app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=entry, headers=bearer(made["edit_key"]))
    phone = editor_of(app, made)
    undo_on(phone, made, 2)
    app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=KOZYOL[1], headers=bearer(made["edit_key"]))
    assert "Put deal 2 back" not in phone.get(f"/m/{made['id']}/history").text


def test_hands_come_back_in_their_order(app):
    made = create_match(app.test_client(), "kozyol")
    for entry in [*KOZYOL, {"points": [61, 59]}]:
        app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=entry, headers=bearer(made["edit_key"]))
    phone = editor_of(app, made)
    undo_on(phone, made, 3)
    undo_on(phone, made, 2)
    early = phone.post(f"/m/{made['id']}/hands/3/back", data={"csrf_token": token(phone, made)})
    assert "Hand 3 cannot be put back before hand 2: put that hand back first." in \
        html.unescape(phone.get(early.headers["Location"]).text)
    for number in (2, 3):
        assert phone.post(f"/m/{made['id']}/hands/{number}/back",
                          data={"csrf_token": token(phone, made)}).status_code == 302
    assert [hand["entry"]["points"] for hand in hands(phone, made)] == [[75, 45], [30, 90], [61, 59]]


def barbu_match(app, *entries: dict) -> dict:
    """A Barbu match with Ann declaring first and the entries recorded."""
    made = create_match(app.test_client(), "barbu", options={"first_declarer": "Ann", "enforce_declarer_doubles": False})
    for entry in entries:
        assert app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=entry,
                                      headers=bearer(made["edit_key"])).status_code == 201
    return made


OTHER_QUEENS = {**barbu_entry(2, PLAYERS), "queens": {"Ann": 0, "Bob": 1, "Cid": 1, "Dee": 2}}


def test_a_contract_played_since_cannot_come_back(app):
    made = barbu_match(app, barbu_entry(1, PLAYERS), barbu_entry(2, PLAYERS))
    phone = editor_of(app, made)
    undo_on(phone, made, 2)
    app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=OTHER_QUEENS, headers=bearer(made["edit_key"]))
    page, landed = put_back_from_history(phone, made, "Put hand 2 back as hand 3")
    assert "Hand 2 cannot be put back: " in page and "No Queens" in page
    assert landed.endswith("/history")
    assert [hand["entry"]["contract"] for hand in hands(phone, made)] == ["no_tricks", "no_queens"]


def test_a_hand_is_not_put_back_under_another_declarer(app):
    made = barbu_match(app, barbu_entry(1, PLAYERS), barbu_entry(2, PLAYERS))
    phone = editor_of(app, made)
    undo_on(phone, made, 2)
    for entry in [*(barbu_entry(number, PLAYERS) for number in range(3, 8)), OTHER_QUEENS]:
        assert app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=entry,
                                      headers=bearer(made["edit_key"])).status_code == 201
    page, landed = put_back_from_history(phone, made, "Put hand 2 back as hand 8")
    assert "Hand 2 was Ann's to declare and the next hand is Bob's: it cannot be put back." in page
    assert len(hands(phone, made)) == 7


def test_a_new_edit_link_is_made_only_once_confirmed(app):
    made = create_match(app.test_client())
    phone = editor_of(app, made)
    asked = phone.post(f"/m/{made['id']}/key", data={"csrf_token": token(phone, made)})
    assert asked.headers["Location"] == f"/m/{made['id']}/key"
    confirm = phone.get(asked.headers["Location"]).text
    assert "Every other phone that entered hands with the current edit link loses access" in confirm
    assert app.test_client().get(made["edit_url"]).status_code == 302, "nothing changed before the confirmation"
    done = phone.post(f"/m/{made['id']}/key", data={"csrf_token": TOKEN.search(confirm)[1], "confirm": "yes"})
    assert "Old edit links no longer work" in phone.get(done.headers["Location"]).text
    assert app.test_client().get(made["edit_url"]).status_code == 403
