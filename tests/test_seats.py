"""Seats as the table sits: no empty seat squeezed out, one name per person, the limit said, not cut."""

from __future__ import annotations

import re

import pytest

from helpers.forms import post_form
from helpers.names import TOO_LONG

SEAT_ERROR = re.compile(r'<p class="error" id="err-players">([^<]+)</p>')


OPTIONS = {"barbu": {}, "kozyol": {"target": "12", "first_dealer": "0"},
           "hearts": {"target": "150", "moon_points": "26", "first_dealer": "0"}}


def new_match(client, game: str, names: list[str]):
    fields = {f"players-{seat}": name for seat, name in enumerate(names)}
    return post_form(client, f"/new/{game}", {**fields, **OPTIONS[game]})


def test_an_empty_seat_between_names_is_refused_with_the_seats_named_and_the_names_kept(client):
    answer = new_match(client, "barbu", ["Ann", "", "Cid", "Dee", "Eve"])
    assert answer.status_code == 422
    assert SEAT_ERROR.findall(answer.text) == [
        "Seat 2 has no name, but seat 3 has one: fill the seats in order round the table."]
    assert all(f'value="{name}"' in answer.text for name in ("Ann", "Cid", "Dee", "Eve"))


def test_hearts_seats_left_empty_after_the_last_name_are_fine(client):
    answer = new_match(client, "hearts", ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "", ""])
    assert answer.status_code == 302


@pytest.mark.parametrize("names", [
    ["Ann", "ann", "Cid", "Dee"],
    ["Zoé", "Zoe\u0301", "Cid", "Dee"],  # the same letters, composed and decomposed
    ["Jo Lee", "jo\u00a0lee", "Cid", "Dee"],  # a no-break space is a space
])
def test_names_that_differ_only_by_case_unicode_form_or_space_are_one_name(client, names):
    answer = new_match(client, "barbu", names)
    assert SEAT_ERROR.findall(answer.text) == ["Two players have the same name; names must differ."]
    api = client.post("/api/v1/matches", json={"game": "kozyol", "players": names})
    assert api.status_code == 422
    assert api.get_json()["error"]["fields"] == {"players": "Two players have the same name; names must differ."}


def test_a_name_over_the_limit_is_refused_with_the_limit_and_kept_whole(client):
    long_name = "Maximilian-Alexander von Hohenzollern-Ost"  # 41 letters
    answer = new_match(client, "barbu", [long_name, "Bob", "Cid", "Dee"])
    assert SEAT_ERROR.findall(answer.text) == [TOO_LONG]
    assert f'value="{long_name}"' in answer.text
    assert "maxlength" not in client.get("/new/barbu").text  # the browser does not cut a pasted name


def test_names_a_phone_keyboard_types_are_kept_as_typed(client):
    names = ["Zoé", "Jo\u00a0Lee", "👨\u200d👩\u200d👧 Family", "Ольга"]
    answer = client.post("/api/v1/matches", json={"game": "barbu", "players": names})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["players"] == names
