"""Undo is one tap, so it can be taken back: the hand undone is put back exactly as it was."""

from __future__ import annotations

from helpers.api import bearer, create_match
from helpers.forms import TOKEN

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
    assert "Hand 2 undone." in page and "Put hand 2 back" in page
    assert "Put hand 2 back" not in app.test_client().get(f"/m/{made['id']}").text, "only an editor can"
    answer = phone.post(f"/m/{made['id']}/hands/2/back", data={"csrf_token": token(phone, made)})
    assert answer.status_code == 302
    assert "Hand 2 is back." in phone.get(answer.headers["Location"]).text
    assert hands(phone, made) == kept
    assert "Put hand 2 back" not in phone.get(f"/m/{made['id']}").text


def test_a_hand_cannot_be_put_back_once_the_match_moved_on(app):
    made = create_match(app.test_client(), "kozyol")
    for entry in KOZYOL:
        app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json=entry, headers=bearer(made["edit_key"]))
    phone = editor_of(app, made)
    phone.post(f"/m/{made['id']}/hands/2/undo", data={"csrf_token": token(phone, made)})
    app.test_client().post(f"/api/v1/matches/{made['id']}/hands", json={"points": [61, 59]},
                           headers=bearer(made["edit_key"]))
    assert "Put hand 2 back" not in phone.get(f"/m/{made['id']}").text
    answer = phone.post(f"/m/{made['id']}/hands/2/back", data={"csrf_token": token(phone, made)})
    assert "Hand 2 can no longer be put back" in phone.get(answer.headers["Location"]).text
    assert [hand["entry"]["points"] for hand in hands(phone, made)] == [[75, 45], [61, 59]]


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
