"""A second tap on Save shows the hand as saved, not as a failure; another phone's hand is still named."""

from __future__ import annotations

import re

import pytest

from helpers.api import create_match
from helpers.forms import TOKEN

SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
FORMS = {
    "hearts": ("", {**{f"hearts_{seat}": str(n) for seat, n in enumerate([5, 4, 3, 6, 8, 0])},
                    **{f"black_marias_{seat}": str(n) for seat, n in enumerate([1, 0, 0, 0, 1, 0])}}),
    "kozyol": ("", {"side": "0", "mode": "points", "points": "75"}),
    "barbu": ("?variant=no_tricks", {"tricks_0": "4", "tricks_1": "3", "tricks_2": "5", "tricks_3": "1"}),
}


def joined(app, made):
    phone = app.test_client()
    assert phone.get(made["edit_url"]).status_code == 302
    return phone


def open_form(phone, path: str) -> dict[str, str]:
    page = phone.get(path).text
    return {"csrf_token": TOKEN.search(page)[1], "number": re.search(r'name="number" value="(\d+)"', page)[1]}


def told(phone, answer) -> str:
    """What the page the phone lands on says at its top (its flashed messages), one line each."""
    assert answer.status_code == 302
    page = phone.get(answer.headers["Location"]).text
    return "\n".join(re.findall(r'<p class="flash" role="status">([^<]*)</p>', page))


@pytest.mark.parametrize("game", list(FORMS))
def test_the_same_form_sent_twice_is_saved_once_and_says_saved(app, game):
    players = SIX if game == "hearts" else SIX[:4]
    made = create_match(app.test_client(), game, players, {"first_declarer": "Ann"} if game == "barbu" else None)
    phone = joined(app, made)
    query, data = FORMS[game]
    path = f"/m/{made['id']}/hands/new{query}"
    form = {**open_form(phone, path), **data}
    assert phone.post(path, data=form).status_code == 302
    again = told(phone, phone.post(path, data=form))
    assert "Hand 1 is saved." in again and "already recorded" not in again
    assert len(phone.get(f"/api/v1/matches/{made['id']}").get_json()["hands"]) == 1


def test_a_different_hand_sent_for_a_saved_number_says_already_recorded(app):
    made = create_match(app.test_client(), "kozyol")
    phone = joined(app, made)
    path = f"/m/{made['id']}/hands/new"
    form = open_form(phone, path)
    assert phone.post(path, data={**form, "side": "0", "mode": "points", "points": "75"}).status_code == 302
    changed = told(phone, phone.post(path, data={**form, "side": "0", "mode": "points", "points": "90"}))
    assert "Hand 1 is already recorded." in changed
