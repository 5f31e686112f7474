"""The JSON API for Kozyol (/api/v1/openapi.json): every status code, the match state, and the rules' boundaries."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import api_url, bearer, create_match, error_of, play, post_hand, read
from helpers.matches import PLAYERS

ANN, BOB, CID, DEE = PLAYERS
TEAMS = [[ANN, CID], [BOB, DEE]]
DEFAULTS = {"target": 12, "eggs_double_next": False, "six_for_zero_points": False, "first_dealer": ANN}
ALL = {"A": 4, "10": 4, "K": 4, "Q": 4, "J": 4}

# Deals by who loses what: team 1 takes 2, 4 or 6; team 0 takes 4; eggs.
LOSE_2 = {"points": [75, 45]}
LOSE_4 = {"points": [90, 30]}
LOSE_6 = {"points": [120, 0], "tricks": [None, 0]}
TEAM0_LOSES_4 = {"points": [29, 91]}
EGGS = {"points": [60, 60]}


# -- helpers -------------------------------------------------------------------------------


@pytest.fixture
def match(client: FlaskClient) -> dict[str, Any]:
    """A fresh Kozyol match with the default options."""
    return create_match(client, "kozyol")


# -- 201 create ------------------------------------------------------------------------------


def test_create_answers_the_state_with_teams_and_every_default(client):
    answer = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS})
    assert answer.status_code == 201
    assert answer.mimetype == "application/json"
    state = answer.get_json()
    assert state["game"] == "kozyol" and state["players"] == PLAYERS
    assert state["options"] == DEFAULTS
    assert state["teams"] == TEAMS
    assert state["hands"] == [] and state["totals"] == [0, 0]
    assert state["finished"] is False and state["winners"] == []
    assert "goat" not in state and "goat_with_eggs" not in state
    assert state["next"] == {"number": 1, "dealer": ANN, "leader": BOB}
    assert state["url"] == f"/m/{state['id']}"
    assert isinstance(state["version"], int)
    assert len(state["edit_key"]) * 6 >= 128 and state["edit_key"] in state["edit_url"]


def test_create_keeps_options_given(client):
    options = {"target": 20, "eggs_double_next": True, "six_for_zero_points": True, "first_dealer": DEE}
    made = create_match(client, "kozyol", options=options)
    assert made["options"] == options
    assert made["next"] == {"number": 1, "dealer": DEE, "leader": ANN}
    assert read(client, made)["options"] == options


@pytest.mark.parametrize(
    "body, field",
    [
        ({"game": "kozyol", "players": PLAYERS[:3]}, "players"),
        ({"game": "kozyol", "players": [*PLAYERS, "Eve"]}, "players"),
        ({"game": "kozyol", "players": [ANN, BOB, ANN, DEE]}, "players"),
        ({"game": "kozyol", "players": PLAYERS, "options": {"target": 0}}, "target"),
        ({"game": "kozyol", "players": PLAYERS, "options": {"target": "12"}}, "target"),
        ({"game": "kozyol", "players": PLAYERS, "options": {"eggs_double_next": "yes"}}, "eggs_double_next"),
        ({"game": "kozyol", "players": PLAYERS, "options": {"first_dealer": "Zed"}}, "first_dealer"),
        ({"game": "kozyol", "players": PLAYERS, "options": {"first_declarer": ANN}}, "options"),
    ],
)
def test_create_refuses_what_breaks_a_rule_with_422(client, body, field):
    error = error_of(client.post("/api/v1/matches", json=body), 422)
    assert list(error["fields"]) == [field]


@pytest.mark.parametrize("data", [b"not json", b"[1, 2]", b'"kozyol"'])
def test_create_refuses_a_body_that_is_not_a_json_object_with_400(client, data):
    error_of(client.post("/api/v1/matches", data=data, content_type="application/json"), 400)


# -- 200 read, ETag and 304 ----------------------------------------------------------------------


def test_read_gives_the_state_and_each_hand_in_the_documented_shape(client, match):
    play(client, match, {"points": [75, 45], "tricks": [5, 4], "trump_suit": "hearts", "last_trick": DEE})
    state = read(client, match)
    assert {"id", "url", "game", "players", "options", "hands", "totals", "teams", "finished", "winners", "next",
            "version"} <= set(state)
    assert "edit_key" not in state and "edit_url" not in state
    (hand,) = state["hands"]
    assert {"number", "entry", "loser", "eggs", "defeat_points", "totals"} <= set(hand)
    assert hand["number"] == 1
    assert hand["entry"] == {"points": [75, 45], "tricks": [5, 4], "trump_suit": "hearts", "last_trick": DEE}
    assert hand["loser"] == 1 and hand["eggs"] is False
    assert hand["defeat_points"] == [0, 2] and hand["totals"] == [0, 2] == state["totals"]
    assert state["next"] == {"number": 2, "dealer": BOB, "leader": DEE}, "the last-trick taker leads"


def test_etag_answers_304_until_the_match_changes(client, match):
    first = client.get(api_url(match))
    assert first.status_code == 200 and first.headers["ETag"]
    same = client.get(api_url(match), headers={"If-None-Match": first.headers["ETag"]})
    assert same.status_code == 304 and not same.data
    play(client, match, LOSE_2)
    changed = client.get(api_url(match), headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != first.headers["ETag"]
    assert changed.get_json()["version"] > first.get_json()["version"]


def test_dealer_moves_left_each_deal_and_the_next_player_leads(client):
    made = create_match(client, "kozyol", options={"first_dealer": CID})
    states = [play(client, made, LOSE_2) for _ in range(4)]
    assert [s["next"]["dealer"] for s in states] == [DEE, ANN, BOB, CID]
    assert [s["next"]["leader"] for s in states] == [ANN, BOB, CID, DEE]


# -- docs/rules.md section 2.3: examples and boundaries --------------------------------------------

BOUNDARIES = [
    pytest.param({"points": [61, 59]}, 1, [0, 2], id="61:59 -> 2"),
    pytest.param({"points": [90, 30]}, 1, [0, 4], id="90:30 -> 4"),
    pytest.param({"points": [89, 31]}, 1, [0, 2], id="89:31 -> 2"),
    pytest.param({"points": [75, 45]}, 1, [0, 2], id="75:45 -> 2"),
    pytest.param({"points": [29, 91]}, 0, [4, 0], id="29:91 -> 4"),
    pytest.param({"points": [120, 0], "tricks": [None, 0]}, 1, [0, 6], id="120:0 no trick -> 6"),
    pytest.param({"points": [120, 0], "tricks": [9, 0]}, 1, [0, 6], id="120:0 no trick, 9:0 -> 6"),
    pytest.param({"points": [120, 0], "tricks": [7, 2]}, 1, [0, 4], id="120:0 two tricks -> 4"),
    pytest.param({"points": [120, 0], "tricks": [None, 2]}, 1, [0, 4], id="120:0 a trick -> 4"),
    pytest.param({"points": [0, 120], "tricks": [0, None]}, 0, [6, 0], id="0:120 no trick -> 6"),
    pytest.param({"cards": [ALL, None], "tricks": [None, 1]}, 1, [0, 4], id="all cards, a trick -> 4"),
]


@pytest.mark.parametrize("body, loser, defeat", BOUNDARIES)
def test_boundaries_score_as_the_rules_say(client, match, body, loser, defeat):
    state = play(client, match, body)
    (hand,) = state["hands"]
    assert hand["loser"] == loser and hand["eggs"] is False
    assert hand["defeat_points"] == defeat == hand["totals"] == state["totals"]


def test_60_60_is_eggs_nobody_loses(client, match):
    state = play(client, match, EGGS)
    (hand,) = state["hands"]
    assert hand["loser"] is None and hand["eggs"] is True
    assert hand["defeat_points"] == [0, 0] and state["totals"] == [0, 0]
    assert state["finished"] is False


def test_120_0_without_saying_whether_the_team_took_a_trick_is_refused(client, match):
    error = error_of(post_hand(client, match, {"points": [120, 0]}), 422)
    assert list(error["fields"]) == ["tricks"]
    assert BOB in error["fields"]["tricks"] and DEE in error["fields"]["tricks"]
    assert read(client, match)["hands"] == []


def test_six_for_zero_points_gives_6_even_with_a_trick(client):
    made = create_match(client, "kozyol", options={"six_for_zero_points": True})
    assert play(client, made, {"points": [120, 0], "tricks": [7, 2]})["totals"] == [0, 6]


def test_after_eggs_the_next_deal_counts_double_with_the_option(client):
    made = create_match(client, "kozyol", options={"eggs_double_next": True})
    state = play(client, made, EGGS, LOSE_2, LOSE_2)
    assert [hand["defeat_points"] for hand in state["hands"]] == [[0, 0], [0, 4], [0, 2]]
    assert state["totals"] == [0, 6]


def test_cards_are_counted_and_the_other_side_is_what_is_left(client, match):
    counted = {"A": 2, "10": 1, "K": 3, "Q": 0, "J": 0}
    state = play(client, match, {"cards": [None, counted]})
    (hand,) = state["hands"]
    assert hand["entry"]["points"] == [76, 44]
    assert hand["entry"]["cards"][1] == counted
    assert hand["entry"]["cards"][0] == {"A": 2, "10": 3, "K": 1, "Q": 4, "J": 4}
    assert hand["defeat_points"] == [0, 2]


# -- end of the series ------------------------------------------------------------------------


def test_reaching_the_target_ends_the_series_and_names_the_goat(client, match):
    state = play(client, match, LOSE_4, LOSE_2, LOSE_6)
    assert state["totals"] == [0, 12]
    assert state["finished"] is True
    assert state["goat"] == 1 and state["goat_with_eggs"] is False
    assert state["winners"] == [ANN, CID]
    assert state["next"] is None


def test_a_series_with_eggs_makes_the_goat_with_eggs(client, match):
    state = play(client, match, TEAM0_LOSES_4, EGGS, TEAM0_LOSES_4, TEAM0_LOSES_4)
    assert state["totals"] == [12, 0]
    assert state["goat"] == 0 and state["goat_with_eggs"] is True
    assert state["winners"] == [BOB, DEE]


def test_target_option_ends_the_series_sooner(client):
    made = create_match(client, "kozyol", options={"target": 2})
    state = play(client, made, LOSE_2)
    assert state["finished"] is True and state["goat"] == 1


# -- 401, 403, 404 --------------------------------------------------------------------------------


def test_writes_need_the_key(client, match):
    played = play(client, match, LOSE_2)
    no_key = [
        client.post(api_url(match, "hands"), json=LOSE_2),
        client.put(api_url(match, "hands", 1), json=LOSE_4),
        client.delete(api_url(match, "hands", 1)),
        client.post(api_url(match, "hands"), json=LOSE_2, headers={"Authorization": "Basic abc"}),
    ]
    for answer in no_key:
        error_of(answer, 401)
    wrong = {"Authorization": "Bearer " + "x" * 32}
    for answer in [client.post(api_url(match, "hands"), json=LOSE_2, headers=wrong),
                   client.put(api_url(match, "hands", 1), json=LOSE_4, headers=wrong),
                   client.delete(api_url(match, "hands", 1), headers=wrong)]:
        error_of(answer, 403)
    other = create_match(client, "kozyol")
    error_of(post_hand(client, match, LOSE_2, key=other["edit_key"]), 403)
    assert read(client, match)["version"] == played["version"]


def test_unknown_match_or_hand_is_404(client, match):
    key = bearer(match["edit_key"])
    error_of(client.get("/api/v1/matches/nosuchmatch"), 404)
    error_of(client.post("/api/v1/matches/nosuchmatch/hands", json=LOSE_2, headers=key), 404)
    error_of(client.put(api_url(match, "hands", 1), json=LOSE_2, headers=key), 404)
    error_of(client.delete(api_url(match, "hands", 1), headers=key), 404)
    play(client, match, LOSE_2)
    error_of(client.put(api_url(match, "hands", 2), json=LOSE_2, headers=key), 404)
    error_of(client.delete(api_url(match, "hands", 0), headers=key), 404)


def test_a_hand_body_that_is_not_a_json_object_is_400(client, match):
    headers = {**bearer(match["edit_key"]), "Content-Type": "application/json"}
    error_of(client.post(api_url(match, "hands"), data=b"{points", headers=headers), 400)
    error_of(client.post(api_url(match, "hands"), data=b"[75, 45]", headers=headers), 400)


# -- 409 ----------------------------------------------------------------------------------------


def test_wrong_hand_number_is_409(client, match):
    play(client, match, LOSE_2)
    error_of(post_hand(client, match, {**LOSE_2, "number": 1}), 409)
    error_of(post_hand(client, match, {**LOSE_2, "number": 3}), 409)
    assert len(read(client, match)["hands"]) == 1
    state = play(client, match, {**LOSE_2, "number": 2})
    assert len(state["hands"]) == 2


def test_a_finished_series_takes_no_more_deals_409(client, match):
    play(client, match, LOSE_6, LOSE_6)
    error = error_of(post_hand(client, match, LOSE_2), 409)
    assert error["fields"] == {}
    assert len(read(client, match)["hands"]) == 2


def test_only_the_last_hand_can_be_undone_409(client, match):
    play(client, match, LOSE_2, LOSE_4)
    error_of(client.delete(api_url(match, "hands", 1), headers=bearer(match["edit_key"])), 409)
    assert len(read(client, match)["hands"]) == 2


# -- 422 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, field",
    [
        ({"points": [75, 44]}, "points"),
        ({"points": [1, 119]}, "points"),
        ({"points": [119, 1]}, "points"),
        ({"points": [121, -1]}, "points"),
        ({"points": [75]}, "points"),
        ({"points": ["75", "45"]}, "points"),
        ({}, "points"),
        ({"points": [0, 120]}, "tricks"),
        ({"points": [75, 45], "tricks": [0, 9]}, "tricks"),
        ({"points": [75, 45], "tricks": [5, 5]}, "tricks"),
        ({"points": [120, 0], "tricks": [None, -1]}, "tricks"),
        ({"cards": [{"A": 5}, None]}, "cards"),
        ({"cards": [{"9": 1}, None]}, "cards"),
        ({"cards": [ALL, ALL]}, "cards"),
        ({"cards": [None, None]}, "cards"),
        ({"cards": [ALL, None], "points": [60, 60]}, "cards"),
        ({"points": [75, 45], "trump_suit": "stars"}, "trump_suit"),
        ({"points": [75, 45], "last_trick": "Zed"}, "last_trick"),
        ({"points": [120, 0], "tricks": [None, 0], "last_trick": BOB}, "last_trick"),
    ],
)
def test_an_entry_that_breaks_a_rule_is_422_with_the_reason_under_its_field(client, match, body, field):
    error = error_of(post_hand(client, match, body), 422)
    assert list(error["fields"]) == [field]
    assert error["message"] == error["fields"][field]
    assert read(client, match)["hands"] == []


# docs/rules.md 2.2: given for both teams, the tricks add up to 3 to 9. (tricks, accepted)
@pytest.mark.parametrize("tricks, accepted", [
    ([1, 1], False), ([2, 0], False), ([2, 1], True), ([5, 4], True), ([5, 5], False),
])
def test_both_teams_tricks_add_up_to_3_to_9(client, match, tricks, accepted):
    points = [75, 45] if tricks[1] else [120, 0]
    answer = post_hand(client, match, {"points": points, "tricks": tricks})
    if accepted:
        assert answer.status_code == 201 and answer.get_json()["hands"][0]["entry"]["tricks"] == tricks
    else:
        error = error_of(answer, 422)
        assert error["fields"] == {"tricks": f"The tricks add up to {sum(tricks)}; a deal has 3 to 9 tricks."}
        assert read(client, match)["hands"] == []


# -- PUT correct, DELETE undo ---------------------------------------------------------------------


def test_correcting_a_deal_recomputes_every_later_total(client, match):
    play(client, match, LOSE_2, LOSE_4)
    answer = client.put(api_url(match, "hands", 1), json=TEAM0_LOSES_4, headers=bearer(match["edit_key"]))
    assert answer.status_code == 200
    state = answer.get_json()
    assert [hand["totals"] for hand in state["hands"]] == [[4, 0], [4, 4]]
    assert state["totals"] == [4, 4]
    assert state["hands"][0]["entry"] == TEAM0_LOSES_4


def test_correcting_into_an_illegal_deal_is_422_and_changes_nothing(client, match):
    before = play(client, match, LOSE_2)
    answer = client.put(api_url(match, "hands", 1), json={"points": [0, 120]}, headers=bearer(match["edit_key"]))
    assert list(error_of(answer, 422)["fields"]) == ["tricks"]
    assert read(client, match)["hands"] == before["hands"]


def test_a_correction_that_ends_the_series_before_later_deals_is_422(client, match):
    play(client, match, LOSE_6, LOSE_2, LOSE_2)
    answer = client.put(api_url(match, "hands", 2), json=LOSE_6, headers=bearer(match["edit_key"]))
    error = error_of(answer, 422)
    assert "3" in error["message"]
    assert read(client, match)["totals"] == [0, 10]


def test_correcting_the_last_deal_into_eggs_reopens_a_finished_series(client, match):
    play(client, match, LOSE_6, LOSE_6)
    answer = client.put(api_url(match, "hands", 2), json=EGGS, headers=bearer(match["edit_key"]))
    assert answer.status_code == 200
    state = answer.get_json()
    assert state["finished"] is False and "goat" not in state
    assert state["next"]["number"] == 3


def test_undo_removes_the_last_deal(client, match):
    play(client, match, LOSE_6, LOSE_6)
    answer = client.delete(api_url(match, "hands", 2), headers=bearer(match["edit_key"]))
    assert answer.status_code == 200
    state = answer.get_json()
    assert len(state["hands"]) == 1 and state["totals"] == [0, 6]
    assert state["finished"] is False and state["next"]["number"] == 2
