"""Kozyol in the browser: a new match, deals by points and by cards, refusals, the sheet, edit and undo."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import create_match
from helpers.forms import csrf_token, post_form
from helpers.matches import PLAYERS

ANN, BOB, CID, DEE = PLAYERS
ALL_FOUR = {"cards_A": "4", "cards_10": "4", "cards_K": "4", "cards_Q": "4", "cards_J": "4"}


# -- helpers -------------------------------------------------------------------------------


def text(page) -> str:
    """The page's HTML with entities decoded, to look for what a player reads."""
    return html.unescape(page.get_data(as_text=True))


def new_match(client: FlaskClient, **fields: str) -> str:
    """Start a match through the new-match form; return its public id."""
    data = {f"players-{seat}": name for seat, name in enumerate(PLAYERS)}
    answer = post_form(client, "/new/kozyol", {"target": "12", "first_dealer": "0", **data, **fields})
    assert answer.status_code == 302, text(answer)
    found = re.fullmatch(r"/m/([A-Za-z0-9_-]+)", answer.headers["Location"])
    assert found, answer.headers["Location"]
    return found.group(1)


def deal(client: FlaskClient, pid: str, number: int | None = None, **fields: Any):
    """Post the deal form (the next deal, or deal number to correct it)."""
    where = f"/m/{pid}/hands/{number if number else 'new'}"
    return post_form(client, where, {key: str(value) for key, value in fields.items()})


def by_points(client: FlaskClient, pid: str, side: int, points: int, number: int | None = None, **more: Any):
    """Post a deal by the points of one team's pile (number: correct that deal)."""
    return deal(client, pid, number, side=side, mode="points", points=points, **more)


def saved(answer, pid: str, number: int) -> None:
    assert answer.status_code == 302, text(answer)
    # a new hand lands above the next one (#saved), the last hand of a match on the result, a correction on its row
    assert answer.headers["Location"] in (f"/m/{pid}#saved", f"/m/{pid}#standings", f"/m/{pid}#hand-{number}")


def state(client: FlaskClient, pid: str) -> dict[str, Any]:
    answer = client.get(f"/api/v1/matches/{pid}")
    assert answer.status_code == 200
    return answer.get_json()


def row(page_text: str, number: int) -> str:
    """The score-sheet row of one deal."""
    found = re.search(rf'<tr id="hand-{number}".*?</tr>', page_text, re.S)
    assert found, f"no row for deal {number}"
    return found.group(0)


def error_beside(page_text: str, field: str) -> str:
    found = re.search(rf'<p class="error" id="err-{field}">(.*?)</p>', page_text, re.S)
    assert found, f"no reason beside {field}"
    return found.group(1)


def checked(page_text: str, name: str) -> str | None:
    found = re.search(rf'<input checked id="[^"]+" name="{name}"[^>]*value="([^"]*)"', page_text)
    return found.group(1) if found else None


def value_of(page_text: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*?value="([^"]*)"', page_text, re.S)
    assert found, f"no field {name}"
    return found.group(1)


@pytest.fixture
def pid(client: FlaskClient) -> str:
    return new_match(client)


# -- a new match ----------------------------------------------------------------------------


def test_new_match_page_shows_the_teams_as_they_sit(client):
    page = client.get("/new/kozyol")
    assert page.status_code == 200
    body = text(page)
    assert "seats 1 and 3 against seats 2 and 4" in body
    assert re.search(r'class="seat seat-0 team-0"[^>]*>Seat 1<', body)
    assert re.search(r'class="seat seat-1 team-1"[^>]*>Seat 2<', body)
    assert 'name="target"' in body and 'value="12"' in body
    assert 'name="eggs_double_next"' in body and 'name="six_for_zero_points"' in body


def test_starting_a_match_keeps_the_options_and_shows_the_teams_as_they_sit(client):
    pid = new_match(client, target="6", first_dealer="2", eggs_double_next="y")
    assert state(client, pid)["options"] == {"target": 6, "eggs_double_next": True, "six_for_zero_points": False,
                                             "first_dealer": CID}
    body = text(client.get(f"/m/{pid}"))
    for seat, name in enumerate(PLAYERS):
        assert re.search(rf'<span class="seat seat-{seat} team-{seat % 2}"[^>]*>{name}</span>', body)
    assert "Ann & Cid" in body and "Bob & Dee" in body
    assert re.search(r"<dt>Deals</dt><dd>Cid</dd>.*<dt>Leads</dt><dd>Dee</dd>", body, re.S)
    assert "/ 6" in body
    assert f'href="/m/{pid}/hands/new"' in body


def test_a_refused_new_match_shows_the_names_typed_in_the_seats(client):
    data = {"players-0": "Ann", "players-1": "Bob", "players-2": "Ann", "players-3": "Dee", "target": "12"}
    page = post_form(client, "/new/kozyol", data)
    assert page.status_code == 422
    body = text(page)
    assert "same name" in error_beside(body, "players")
    assert re.search(r'class="seat seat-3 team-1"[^>]*>Dee<', body)


@pytest.mark.parametrize("target", ["0", "101", "", "twelve"])
def test_a_target_out_of_range_is_refused_beside_the_field(client, target):
    data = {f"players-{seat}": name for seat, name in enumerate(PLAYERS)}
    page = post_form(client, "/new/kozyol", {**data, "target": target, "first_dealer": "0"})
    assert page.status_code == 422
    assert 'id="err-target"' in text(page)


# -- entering deals -----------------------------------------------------------------------------


def test_the_deal_form_asks_for_one_pile(client, pid):
    page = client.get(f"/m/{pid}/hands/new")
    assert page.status_code == 200
    body = text(page)
    assert "Deal 1" in body and "Ann deals, Bob leads." in body
    assert checked(body, "side") == "0" and checked(body, "mode") == "points"
    for rank in ("A", "10", "K", "Q", "J"):
        assert f'name="cards_{rank}"' in body
    assert "Did Ann & Cid take a trick?" in body and "Did Bob & Dee take a trick?" in body
    assert not re.search(r"<script(?![^>]*\bsrc=)", body), "no inline scripts: the CSP forbids them"
    assert not re.search(r"\son[a-z]+=", body), "no inline event handlers"


def test_one_teams_points_and_the_other_is_120_minus(client, pid):
    saved(by_points(client, pid, side=1, points=45), pid, 1)
    saved(by_points(client, pid, side=0, points=29), pid, 2)
    hands = state(client, pid)["hands"]
    assert [hand["entry"]["points"] for hand in hands] == [[75, 45], [29, 91]]
    assert [hand["defeat_points"] for hand in hands] == [[0, 2], [4, 0]]


def test_counting_the_cards_adds_up_the_points(client, pid):
    counts = {"cards_A": 2, "cards_10": 1, "cards_K": 3, "cards_Q": 0, "cards_J": 0}
    saved(deal(client, pid, side=0, mode="cards", points="", **counts), pid, 1)
    (hand,) = state(client, pid)["hands"]
    assert hand["entry"]["points"] == [44, 76]
    assert hand["entry"]["cards"][0] == {"A": 2, "10": 1, "K": 3, "Q": 0, "J": 0}
    assert hand["defeat_points"] == [2, 0]


def test_an_empty_card_count_is_zero(client, pid):
    saved(deal(client, pid, side=1, mode="cards", cards_A=4, cards_10=2), pid, 1)
    assert state(client, pid)["hands"][0]["entry"]["points"] == [56, 64]


def test_the_next_deal_is_counted_the_way_the_last_one_was(client, pid):
    saved(deal(client, pid, side=1, mode="cards", cards_A=4, cards_10=2), pid, 1)
    assert checked(text(client.get(f"/m/{pid}/hands/new")), "mode") == "cards"
    saved(by_points(client, pid, side=0, points=75), pid, 2)
    assert checked(text(client.get(f"/m/{pid}/hands/new")), "mode") == "points"


@pytest.mark.parametrize(
    "points, tricks, defeat",
    [
        pytest.param(61, None, 2, id="61:59"),
        pytest.param(90, None, 4, id="90:30"),
        pytest.param(89, None, 2, id="89:31"),
        pytest.param(120, "no", 6, id="120:0 no trick"),
        pytest.param(120, "yes", 4, id="120:0 with a trick"),
    ],
)
def test_rules_boundaries_from_the_form(client, pid, points, tricks, defeat):
    more = {"took_1": tricks} if tricks else {}
    saved(by_points(client, pid, side=0, points=points, **more), pid, 1)
    assert state(client, pid)["totals"] == [0, defeat]


def test_sixty_each_is_eggs(client, pid):
    saved(by_points(client, pid, side=1, points=60), pid, 1)
    (hand,) = state(client, pid)["hands"]
    assert hand["eggs"] is True and hand["defeat_points"] == [0, 0]


def test_a_trick_answer_for_a_team_with_points_is_ignored(client, pid):
    saved(by_points(client, pid, side=0, points=75, took_0="no", took_1="no"), pid, 1)
    (hand,) = state(client, pid)["hands"]
    assert "tricks" not in hand["entry"] and hand["defeat_points"] == [0, 2]


def test_notes_are_kept_and_the_last_trick_taker_leads_next(client, pid):
    saved(by_points(client, pid, side=0, points=75, trump_suit="clubs", last_trick=3), pid, 1)
    (hand,) = state(client, pid)["hands"]
    assert hand["entry"]["trump_suit"] == "clubs" and hand["entry"]["last_trick"] == DEE
    body = text(client.get(f"/m/{pid}"))
    assert re.search(r"<dt>Deals</dt><dd>Bob</dd>.*<dt>Leads</dt><dd>Dee</dd>", body, re.S)
    assert "trumps: ♣ Clubs · last trick: Dee" in row(body, 1)
    assert "Bob deals, Dee leads." in text(client.get(f"/m/{pid}/hands/new"))


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("points", [1, 119])
def test_a_pile_no_cards_add_up_to_is_refused_beside_the_field(client, pid, points):
    page = by_points(client, pid, side=1, points=points, trump_suit="hearts")
    assert page.status_code == 422
    body = text(page)
    assert f"adds up to {points}" in error_beside(body, "points")
    assert value_of(body, "points") == str(points)
    assert checked(body, "side") == "1" and checked(body, "trump_suit") == "hearts"
    assert state(client, pid)["hands"] == []


def test_zero_points_without_the_trick_answer_asks_for_it_and_keeps_the_count(client, pid):
    page = deal(client, pid, side=1, mode="cards", last_trick=0, **ALL_FOUR)
    assert page.status_code == 422
    body = text(page)
    reason = error_beside(body, "tricks")
    assert "Did Ann and Cid take a trick?" in reason
    assert checked(body, "mode") == "cards" and checked(body, "side") == "1" and checked(body, "last_trick") == "0"
    assert all(value_of(body, name) == "4" for name in ALL_FOUR)
    assert re.search(r'<strong data-team="0">0</strong> : <strong data-team="1">120</strong>', body)
    assert 'class="error banner"' not in body, "the reason stands beside its field only"
    assert state(client, pid)["hands"] == []
    saved(deal(client, pid, side=1, mode="cards", took_0="yes", **ALL_FOUR), pid, 1)
    assert state(client, pid)["totals"] == [4, 0]


def test_no_points_typed_is_refused(client, pid):
    page = deal(client, pid, side=0, mode="points", points="")
    assert page.status_code == 422
    assert "card points" in error_beside(text(page), "points")


@pytest.mark.parametrize("fields, name", [
    ({"points": "121"}, "points"),
    ({"points": "lots"}, "points"),
    ({"mode": "cards", "cards_A": "5"}, "cards_A"),
])
def test_numbers_out_of_range_are_refused(client, pid, fields, name):
    page = deal(client, pid, **{"side": "0", "mode": "points", **fields})
    assert page.status_code == 422
    body = text(page)
    assert value_of(body, name) == fields[name]
    assert 'class="error"' in body


def test_the_last_trick_cannot_go_to_a_team_that_took_no_trick(client, pid):
    page = by_points(client, pid, side=0, points=120, took_1="no", last_trick=1)
    assert page.status_code == 422
    assert "Bob took the last trick" in error_beside(text(page), "last_trick")


def test_a_post_without_the_page_token_is_refused(client, pid):
    csrf_token(client, f"/m/{pid}/hands/new")
    page = client.post(f"/m/{pid}/hands/new", data={"side": "0", "mode": "points", "points": "75"})
    assert page.status_code == 422
    assert state(client, pid)["hands"] == []


# -- the match page: the tally, each result, eggs, the goat ---------------------------------------


def test_the_sheet_shows_each_result_and_the_running_tally(client, pid):
    for points in (45, 60, 30):
        by_points(client, pid, side=1, points=points)
    by_points(client, pid, side=0, points=29)
    body = text(client.get(f"/m/{pid}"))
    first, eggs, third, fourth = (row(body, n) for n in (1, 2, 3, 4))
    assert "75 : 45" in first and "Bob & Dee lose: 2 defeat points" in first
    assert re.search(r'class="team-1 lost">\s*<strong>\+2</strong>\s*<small class="running">Σ 2</small>', first)
    assert 'class="eggs"' in eggs and "60 : 60" in eggs and "Eggs: nobody loses" in eggs
    assert "Σ 6" in third and "Bob & Dee lose: 4 defeat points" in third
    assert "Ann & Cid lose: 4 defeat points" in fourth and "Σ 4" in fourth
    totals = re.findall(r'<span class="total">(\d+)</span>', body)
    assert totals == ["4", "6"]
    assert "Deal 5" in body and "Series over" not in body


def test_after_eggs_the_doubled_deal_is_marked(client):
    pid = new_match(client, eggs_double_next="y")
    by_points(client, pid, side=0, points=60)
    assert "After eggs, this deal counts double." in text(client.get(f"/m/{pid}/hands/new"))
    by_points(client, pid, side=0, points=75)
    body = text(client.get(f"/m/{pid}"))
    assert "Bob & Dee lose: 2 × 2 = 4 defeat points" in row(body, 2) and "counts double after eggs" in row(body, 2)


def test_the_end_of_the_series_shows_the_goat(client, pid):
    for _ in range(3):
        by_points(client, pid, side=0, points=90)
    body = text(client.get(f"/m/{pid}"))
    assert "Series over: Bob & Dee are the goat." in body
    assert "with eggs" not in body
    assert "/hands/new" not in body, "no more deals once the series is over"
    again = client.get(f"/m/{pid}/hands/new")
    assert again.status_code == 302
    assert "finished" in text(client.get(again.headers["Location"]))


def test_a_series_with_eggs_ends_with_the_goat_with_eggs(client, pid):
    by_points(client, pid, side=0, points=60)
    by_points(client, pid, side=0, points=120, took_1="no")
    saved(by_points(client, pid, side=0, points=120, took_1="no"), pid, 3)
    body = text(client.get(f"/m/{pid}"))
    assert "Series over: Bob & Dee are the goat with eggs." in body
    assert re.search(r'<li class="team-1 goat">', body)


# -- edit and undo -------------------------------------------------------------------------------


def test_editing_a_deal_shows_it_and_recomputes_the_sheet(client, pid):
    by_points(client, pid, side=1, points=45, trump_suit="spades")
    by_points(client, pid, side=0, points=90)
    page = client.get(f"/m/{pid}/hands/1")
    assert page.status_code == 200
    body = text(page)
    assert "Correcting deal 1" in body
    assert value_of(body, "points") == "75" and checked(body, "side") == "0"
    assert checked(body, "trump_suit") == "spades"
    saved(by_points(client, pid, number=1, side=0, points=30), pid, 1)
    result = state(client, pid)
    assert [hand["totals"] for hand in result["hands"]] == [[4, 0], [4, 4]]


def test_editing_a_counted_deal_shows_the_count_and_the_trick_answer(client, pid):
    deal(client, pid, side=0, mode="cards", took_0="no", trump_suit="", **{k: "0" for k in ALL_FOUR})
    body = text(client.get(f"/m/{pid}/hands/1"))
    assert checked(body, "mode") == "cards" and checked(body, "took_0") == "no"
    saved(deal(client, pid, 1, side=0, mode="cards", took_0="yes", **{k: "0" for k in ALL_FOUR}), pid, 1)
    assert state(client, pid)["hands"][0]["entry"]["tricks"] == [1, None]


def test_saying_yes_keeps_a_trick_count_entered_before(client, app: Flask):
    made = create_match(client, "kozyol")
    client.get(made["edit_url"])
    api = client.post(f"/api/v1/matches/{made['id']}/hands", json={"points": [120, 0], "tricks": [6, 3]},
                      headers={"Authorization": f"Bearer {made['edit_key']}"})
    assert api.status_code == 201
    body = text(client.get(f"/m/{made['id']}/hands/1"))
    assert checked(body, "took_1") == "yes"
    saved(by_points(client, made["id"], number=1, side=0, points=120, took_1="yes", trump_suit="diamonds"), made["id"], 1)
    entry = state(client, made["id"])["hands"][0]["entry"]
    assert entry["tricks"] == [None, 3] and entry["trump_suit"] == "diamonds"


def test_a_refused_edit_keeps_the_stored_deal(client, pid):
    by_points(client, pid, side=1, points=45)
    page = by_points(client, pid, number=1, side=0, points=119)
    assert page.status_code == 422
    assert value_of(text(page), "points") == "119"
    assert state(client, pid)["hands"][0]["entry"]["points"] == [75, 45]


def test_an_edit_that_ends_the_series_before_later_deals_is_refused_in_the_banner(client, pid):
    by_points(client, pid, side=0, points=120, took_1="no")
    by_points(client, pid, side=0, points=75)
    by_points(client, pid, side=0, points=75)
    page = by_points(client, pid, number=2, side=0, points=120, took_1="no")
    assert page.status_code == 422
    body = text(page)
    assert re.search(r'class="error banner"[^>]*>Hand 3 would no longer be legal', body)
    assert state(client, pid)["totals"] == [0, 10]


def test_undo_removes_the_last_deal_only(client, pid):
    by_points(client, pid, side=1, points=45)
    by_points(client, pid, side=1, points=30)
    body = text(client.get(f"/m/{pid}"))
    assert f'action="/m/{pid}/hands/2/undo"' in body and f'action="/m/{pid}/hands/1/undo"' not in body
    answer = post_form(client, f"/m/{pid}/hands/2/undo", {}, token_from=f"/m/{pid}")
    assert answer.status_code == 302
    assert "Deal 2 was undone." in text(client.get(answer.headers["Location"]))
    assert len(state(client, pid)["hands"]) == 1
    post_form(client, f"/m/{pid}/hands/2/undo", {}, token_from=f"/m/{pid}")
    assert len(state(client, pid)["hands"]) == 1


def test_undo_reopens_a_finished_series(client, pid):
    for _ in range(2):
        by_points(client, pid, side=0, points=120, took_1="no")
    assert state(client, pid)["finished"] is True
    post_form(client, f"/m/{pid}/hands/2/undo", {}, token_from=f"/m/{pid}")
    body = text(client.get(f"/m/{pid}"))
    assert "Series over" not in body and "Deal 2" in body


# -- watching ------------------------------------------------------------------------------------


def test_a_watcher_without_the_key_sees_the_sheet_read_only(client, app: Flask, pid):
    by_points(client, pid, side=1, points=45)
    watcher = app.test_client()
    page = watcher.get(f"/m/{pid}")
    assert page.status_code == 200
    body = text(page)
    assert "75 : 45" in row(body, 1)
    assert "You are watching" in body
    assert "/hands/" not in body and "Undo" not in body and "join?key=" not in body
    assert watcher.get(f"/m/{pid}/hands/new").status_code == 403
    assert watcher.get(f"/m/{pid}/hands/1").status_code == 403
    assert watcher.post(f"/m/{pid}/hands/new", data={"side": "0", "mode": "points", "points": "75"}).status_code == 403
    assert len(state(client, pid)["hands"]) == 1
