"""The JSON API for Cancellation Hearts (/api/v1/openapi.json): every status code, the match state, whole games.

Expected numbers come from docs/rules.md section 3 (1 point a heart, 13 a Black Maria, two decks),
written out here rather than read back from the engine.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import api_url, bearer, create_match, error_of, play, post_hand, read
from helpers.matches import hearts_reaching

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]
SIX = NAMES[:6]
ANN, BOB, CID, DEE, EVE, FAY = SIX
URLSAFE = re.compile(r"^[A-Za-z0-9_-]+$")
HAND_KEYS = {"number", "dealer", "pass", "entry", "points", "scores", "totals", "moon_shooter"}
NEXT_KEYS = {"number", "dealer", "leader", "pass", "cards_each", "left_over"}
STATE_KEYS = {"id", "url", "game", "players", "options", "hands", "totals", "finished", "winners", "next", "version"}
# docs/rules.md section 3.1, the deal table: players -> (cards each, left over).
DEALS = {6: (17, 2), 7: (14, 6), 8: (13, 0), 9: (11, 5), 10: (10, 4), 11: (9, 5)}


# -- helpers -------------------------------------------------------------------------------


def entry(players: list[str], hearts: list[int], marias: list[int] | None = None, moon: str | None = None,
          **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "hearts": dict(zip(players, hearts)),
        "black_marias": dict(zip(players, marias or [0] * len(players))),
        **extra,
    }
    if moon is not None:
        body["moon"] = moon
    return body


def reach(client: FlaskClient, match: dict[str, Any], totals: list[int]) -> dict[str, Any]:
    players = match["players"]
    state = play(client, match, *[entry(players, hearts) for hearts in hearts_reaching(totals)])
    assert state["totals"] == dict(zip(players, totals))
    return state


@pytest.fixture
def match(client: FlaskClient) -> dict[str, Any]:
    """A fresh six-player game with the default options (Ann deals first, target 150)."""
    return create_match(client, game="hearts", players=SIX)


# -- 201 create ------------------------------------------------------------------------------


def test_create_answers_the_whole_state_with_a_long_random_edit_key(client):
    answer = client.post("/api/v1/matches", json={"game": "hearts", "players": SIX})
    assert answer.status_code == 201
    assert answer.mimetype == "application/json"
    body = answer.get_json()
    assert STATE_KEYS <= set(body)
    assert body["game"] == "hearts"
    assert body["players"] == SIX
    assert body["options"] == {"target": 150, "moon_points": 26, "first_dealer": ANN}
    assert body["hands"] == []
    assert body["totals"] == {name: 0 for name in SIX}
    assert body["finished"] is False and body["winners"] == []
    assert body["next"] == {"number": 1, "dealer": ANN, "leader": BOB, "pass": "left",
                            "cards_each": 17, "left_over": 2}
    assert body["url"] == f"/m/{body['id']}"
    key = body["edit_key"]
    assert URLSAFE.match(key) and len(key) * 6 >= 128, "an edit key needs at least 128 random bits"
    assert key in body["edit_url"] and body["edit_url"].endswith(f"/m/{body['id']}/join?key={key}")
    assert URLSAFE.match(body["id"]) and len(body["id"]) * 6 >= 96, "match ids must be unguessable"


@pytest.mark.parametrize("count", sorted(DEALS))
def test_six_to_eleven_players_and_the_deal_table(client, count):
    made = create_match(client, game="hearts", players=NAMES[:count])
    cards_each, left_over = DEALS[count]
    assert made["players"] == NAMES[:count]
    assert made["next"]["cards_each"] == cards_each and made["next"]["left_over"] == left_over
    assert cards_each * count + left_over == 104


def test_create_keeps_the_options_given(client):
    made = create_match(client, game="hearts", players=SIX,
                        options={"target": 100, "moon_points": 52, "first_dealer": " Fay "})
    assert made["options"] == {"target": 100, "moon_points": 52, "first_dealer": FAY}
    assert made["next"]["dealer"] == FAY and made["next"]["leader"] == ANN, "the dealer's left leads"
    assert read(client, made)["options"] == made["options"]


def test_create_trims_names(client):
    made = create_match(client, game="hearts", players=[" Ann", "Bob ", *SIX[2:]])
    assert made["players"] == SIX


# -- 200 read, ETag, version -------------------------------------------------------------------


def test_read_gives_the_hand_and_next_in_the_documented_shape(client, match):
    body = entry(SIX, [5, 0, 7, 3, 2, 9], [1, 0, 0, 1, 0, 0])
    play(client, match, body)
    state = read(client, match)
    assert STATE_KEYS <= set(state)
    assert "edit_key" not in state and "edit_url" not in state, "reading must not leak the edit key"
    (hand,) = state["hands"]
    assert set(hand) >= HAND_KEYS
    assert hand["number"] == 1 and hand["dealer"] == ANN and hand["pass"] == "left"
    assert hand["entry"] == body, "the entry is stored as sent, without a moon when nobody shot it"
    assert hand["points"] == {ANN: 18, BOB: 0, CID: 7, DEE: 16, EVE: 2, FAY: 9}
    assert hand["scores"] == hand["points"] == hand["totals"] == state["totals"]
    assert hand["moon_shooter"] is None
    assert set(state["next"]) == NEXT_KEYS
    assert state["next"] == {"number": 2, "dealer": BOB, "leader": CID, "pass": "right",
                             "cards_each": 17, "left_over": 2}


def test_dealer_moves_left_and_passing_alternates(client):
    made = create_match(client, game="hearts", players=SIX, options={"first_dealer": EVE})
    state = play(client, made, *[entry(SIX, [4, 4, 4, 4, 4, 1]) for _ in range(4)])
    assert [(h["number"], h["dealer"], h["pass"]) for h in state["hands"]] == [
        (1, EVE, "left"), (2, FAY, "right"), (3, ANN, "left"), (4, BOB, "right")]
    assert state["next"]["dealer"] == CID and state["next"]["leader"] == DEE and state["next"]["pass"] == "left"
    assert state["totals"][FAY] == 4


def test_fewer_than_26_hearts_are_fine_when_a_last_trick_was_lost(client, match):
    state = play(client, match, entry(SIX, [5, 5, 5, 5, 0, 0], [1, 0, 0, 0, 0, 0]))
    assert state["totals"] == {ANN: 18, BOB: 5, CID: 5, DEE: 5, EVE: 0, FAY: 0}


def test_unknown_match_reads_404(client):
    error_of(client.get("/api/v1/matches/no-such-match"), 404)


def test_etag_answers_304_until_the_match_changes(client, match):
    first = client.get(api_url(match))
    tag = first.headers["ETag"]
    assert tag
    again = client.get(api_url(match), headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b""
    answer = post_hand(client, match, entry(SIX, [26, 0, 0, 0, 0, 0]))
    assert answer.status_code == 201
    changed = client.get(api_url(match), headers={"If-None-Match": tag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != tag == first.headers["ETag"]
    assert changed.headers["ETag"] == answer.headers["ETag"], "a write answers with the new ETag"
    assert client.get(api_url(match), headers={"If-None-Match": changed.headers["ETag"]}).status_code == 304


def test_version_grows_with_every_change_and_not_with_refusals(client, match):
    versions = [match["version"]]
    versions.append(post_hand(client, match, entry(SIX, [21, 0, 0, 0, 0, 0])).get_json()["version"])
    versions.append(post_hand(client, match, entry(SIX, [0, 21, 0, 0, 0, 0])).get_json()["version"])
    assert post_hand(client, match, entry(SIX, [27, 0, 0, 0, 0, 0])).status_code == 422
    assert read(client, match)["version"] == versions[-1]
    key = bearer(match["edit_key"])
    versions.append(client.put(api_url(match, "hands", 1), json=entry(SIX, [0, 0, 22, 0, 0, 0]), headers=key)
                    .get_json()["version"])
    versions.append(client.delete(api_url(match, "hands", 2), headers=key).get_json()["version"])
    assert all(a < b for a, b in zip(versions, versions[1:])), versions


# -- 400 ----------------------------------------------------------------------------------------

NOT_AN_OBJECT = [
    pytest.param({"data": "hello", "content_type": "application/json"}, id="not-json"),
    pytest.param({"data": "{\"hearts\": ", "content_type": "application/json"}, id="broken-json"),
    pytest.param({"json": ["hearts"]}, id="json-array"),
    pytest.param({"data": "null", "content_type": "application/json"}, id="json-null"),
    pytest.param({"data": b"", "content_type": "application/json"}, id="empty-body"),
]


@pytest.mark.parametrize("request_body", NOT_AN_OBJECT)
def test_bodies_that_are_not_objects_are_400(client, match, request_body):
    play(client, match, entry(SIX, [21, 0, 0, 0, 0, 0]))
    key = bearer(match["edit_key"])
    error_of(client.post("/api/v1/matches", **request_body), 400)
    error_of(client.post(api_url(match, "hands"), headers=key, **request_body), 400)
    error_of(client.put(api_url(match, "hands", 1), headers=key, **request_body), 400)
    assert read(client, match)["totals"][ANN] == 21


# -- 401, 403 ------------------------------------------------------------------------------------

NO_KEY = [
    pytest.param({}, id="no-authorization"),
    pytest.param({"Authorization": ""}, id="empty"),
    pytest.param({"Authorization": "Bearer"}, id="bearer-without-key"),
    pytest.param({"Authorization": "Basic QW5uOmtleQ=="}, id="basic-scheme"),
]


def writes(match: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    body = entry(SIX, [0, 0, 0, 0, 0, 23])
    return [
        ("post", api_url(match, "hands"), {"json": body}),
        ("put", api_url(match, "hands", 1), {"json": body}),
        ("delete", api_url(match, "hands", 1), {}),
    ]


@pytest.mark.parametrize("headers", NO_KEY)
def test_writes_without_a_key_are_401(client, match, headers):
    play(client, match, entry(SIX, [21, 0, 0, 0, 0, 0]))
    for method, path, kwargs in writes(match):
        error_of(getattr(client, method)(path, headers=headers, **kwargs), 401)
    assert read(client, match)["totals"] == {ANN: 21, BOB: 0, CID: 0, DEE: 0, EVE: 0, FAY: 0}


def test_writes_with_a_wrong_key_or_another_matchs_key_are_403(client, match):
    other = create_match(client, game="hearts", players=SIX)
    play(client, match, entry(SIX, [21, 0, 0, 0, 0, 0]))
    for key in ("wrong-key", match["edit_key"] + "x", other["edit_key"]):
        for method, path, kwargs in writes(match):
            error_of(getattr(client, method)(path, headers=bearer(key), **kwargs), 403)
    assert len(read(client, match)["hands"]) == 1


# -- 404 ------------------------------------------------------------------------------------------


def test_writes_to_an_unknown_match_are_404(client, match):
    for method, path, kwargs in writes({"id": "no-such-match"}):
        error_of(getattr(client, method)(path, headers=bearer(match["edit_key"]), **kwargs), 404)


@pytest.mark.parametrize("number", [0, 2, 9])
def test_put_or_delete_of_an_unknown_hand_is_404(client, match, number):
    play(client, match, entry(SIX, [21, 0, 0, 0, 0, 0]))
    key = bearer(match["edit_key"])
    error_of(client.put(api_url(match, "hands", number), json=entry(SIX, [0, 0, 0, 0, 0, 23]), headers=key), 404)
    error_of(client.delete(api_url(match, "hands", number), headers=key), 404)
    assert len(read(client, match)["hands"]) == 1


# -- 409 ------------------------------------------------------------------------------------------


def test_a_hand_number_that_is_not_the_next_one_is_409(client, match):
    play(client, match, entry(SIX, [21, 0, 0, 0, 0, 0], number=1))
    err = error_of(post_hand(client, match, entry(SIX, [21, 0, 0, 0, 0, 0], number=3)), 409)
    assert err["message"] == "The next hand is hand 2."
    err = error_of(post_hand(client, match, entry(SIX, [21, 0, 0, 0, 0, 0], number=1)), 409)
    assert err["message"] == "Hand 1 is already recorded."
    state = play(client, match, entry(SIX, [0, 21, 0, 0, 0, 0], number=2))
    assert [h["number"] for h in state["hands"]] == [1, 2]


def test_a_finished_game_takes_no_more_hands_409(client):
    made = create_match(client, game="hearts", players=SIX, options={"target": 100})
    state = reach(client, made, [100, 0, 0, 0, 0, 0])
    assert state["finished"] is True and state["next"] is None
    err = error_of(post_hand(client, made, entry(SIX, [21, 0, 0, 0, 0, 0])), 409)
    assert err["message"] == "This match is finished; no more hands can be recorded."
    assert read(client, made)["hands"] == state["hands"]


def test_delete_of_a_hand_that_is_not_the_last_is_409(client, match):
    play(client, match, *[entry(SIX, [21, 0, 0, 0, 0, 0])] * 3)
    err = error_of(client.delete(api_url(match, "hands", 2), headers=bearer(match["edit_key"])), 409)
    assert "Only the last hand can be undone" in err["message"]
    assert len(read(client, match)["hands"]) == 3


# -- 422 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "field", "message"), [
    pytest.param(entry(SIX, [10, 10, 7, 0, 0, 0]), "hearts",
                 "The hearts add up to 27; at most 26 can be taken.", id="hearts-27"),
    pytest.param(entry(SIX, [5, 5, 4, 4, 4, 4], [1, 1, 1, 0, 0, 0]), "black_marias",
                 "The Black Marias add up to 3; at most 2 can be taken.", id="marias-3"),
    pytest.param(entry(SIX, [27, 0, 0, 0, 0, 0]), "hearts", "Enter a number from 0 to 26.", id="hearts-over-26"),
    pytest.param(entry(SIX, [-1, 1, 0, 0, 0, 0]), "hearts", "Enter a number from 0 to 26.", id="hearts-negative"),
    pytest.param(entry(SIX, [5, 5, 4, 4, 4, 4], [3, 0, 0, 0, 0, 0]), "black_marias", "Enter a number from 0 to 2.",
                 id="marias-over-2"),
    pytest.param(entry(SIX, [1.5, 0, 0, 0, 0, 0]), "hearts", "Enter a whole number.", id="hearts-fraction"),
    pytest.param(entry(SIX, ["3", 0, 0, 0, 0, 0]), "hearts", "Enter a whole number.", id="hearts-text"),
    pytest.param(entry(SIX, [True, 0, 0, 0, 0, 0]), "hearts", "Enter a whole number.", id="hearts-boolean"),
    pytest.param({"hearts": dict(zip(SIX[:5], [0] * 5)), "black_marias": dict.fromkeys(SIX, 0)}, "hearts",
                 "Enter a number for Fay.", id="hearts-missing-player"),
    pytest.param({"hearts": {**dict.fromkeys(SIX, 0), "Zed": 1}, "black_marias": dict.fromkeys(SIX, 0)}, "hearts",
                 "Zed is not a player in this match.", id="hearts-unknown-player"),
    pytest.param({"hearts": [0] * 6, "black_marias": dict.fromkeys(SIX, 0)}, "hearts",
                 "Give one number per player.", id="hearts-list"),
    pytest.param({"hearts": dict(zip(SIX, [5, 5, 4, 4, 4, 4]))}, "black_marias", "Give one number per player.",
                 id="marias-missing"),
    pytest.param(entry(SIX, [26, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]), "moon",
                 "Ann shot the moon: choose subtract (from Ann) or add (to everyone else).", id="moon-missing"),
    pytest.param(entry(SIX, [26, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], moon="double"), "moon",
                 "Choose one of: subtract, add.", id="moon-unknown"),
    pytest.param(entry(SIX, [21, 0, 0, 0, 0, 0], number="2"), "number",
                 "The hand number must be a whole number.", id="number-text"),
    pytest.param(entry(SIX, [21, 0, 0, 0, 0, 0], number=True), "number",
                 "The hand number must be a whole number.", id="number-boolean"),
])
def test_entries_that_break_a_rule_are_422_with_the_reason(client, match, body, field, message):
    err = error_of(post_hand(client, match, body), 422)
    assert err["fields"][field] == message
    assert err["message"] == message
    assert read(client, match)["hands"] == []


@pytest.mark.parametrize(("body", "field", "message"), [
    pytest.param({"game": "hearts", "players": NAMES[:5]}, "players", "This game needs 6 to 11 players.",
                 id="5-players"),
    pytest.param({"game": "hearts", "players": [*NAMES, "Lou"]}, "players", "This game needs 6 to 11 players.",
                 id="12-players"),
    pytest.param({"game": "hearts", "players": [*SIX[:5], "Ann"]}, "players",
                 "Two players have the same name; names must differ.", id="same-name"),
    pytest.param({"game": "hearts", "players": [*SIX[:5], " "]}, "players", "Every player needs a name.",
                 id="blank-name"),
    pytest.param({"game": "hearts", "players": SIX, "options": {"target": 25}}, "target",
                 "The target is a whole number of points from 26 to 1000.", id="target-25"),
    pytest.param({"game": "hearts", "players": SIX, "options": {"target": 1001}}, "target",
                 "The target is a whole number of points from 26 to 1000.", id="target-1001"),
    pytest.param({"game": "hearts", "players": SIX, "options": {"target": 10 ** 310}}, "target",
                 "The target is a whole number of points from 26 to 1000.", id="target-10^310"),
    pytest.param({"game": "hearts", "players": SIX, "options": {"target": "150"}}, "target",
                 "The target is a whole number of points from 26 to 1000.", id="target-text"),
    pytest.param({"game": "hearts", "players": SIX, "options": {"moon_points": 30}}, "moon_points",
                 "Shooting the moon counts either 26 or 52 points.", id="moon-points-30"),
    pytest.param({"game": "hearts", "players": SIX, "options": {"first_dealer": "Zed"}}, "first_dealer",
                 "Choose one of the players.", id="dealer-unknown"),
    pytest.param({"game": "hearts", "players": SIX, "options": {"rounds": 3}}, "options",
                 "Unknown option: rounds.", id="unknown-option"),
    pytest.param({"game": "hearts", "players": SIX, "options": [150]}, "options",
                 "Options must be an object.", id="options-list"),
])
def test_create_that_breaks_a_rule_is_422(client, body, field, message):
    err = error_of(client.post("/api/v1/matches", json=body), 422)
    assert err["fields"][field] == message


# -- PUT, DELETE -----------------------------------------------------------------------------


def test_put_correcting_an_earlier_hand_recomputes_later_totals(client, match):
    play(client, match, entry(SIX, [10, 16, 0, 0, 0, 0]), entry(SIX, [0, 0, 26, 0, 0, 0], [0, 0, 0, 0, 1, 1]))
    answer = client.put(api_url(match, "hands", 1), json=entry(SIX, [0, 16, 0, 0, 0, 10], [1, 0, 0, 0, 0, 0]),
                        headers=bearer(match["edit_key"]))
    assert answer.status_code == 200
    state = answer.get_json()
    assert state["hands"][0]["totals"] == {ANN: 13, BOB: 16, CID: 0, DEE: 0, EVE: 0, FAY: 10}
    assert state["totals"] == {ANN: 13, BOB: 16, CID: 26, DEE: 0, EVE: 13, FAY: 23}
    assert read(client, match)["totals"] == state["totals"]


def test_put_that_ends_the_game_before_a_later_hand_is_422_and_changes_nothing(client):
    made = create_match(client, game="hearts", players=SIX, options={"target": 100})
    reach(client, made, [90, 0, 0, 0, 0, 0])
    before = play(client, made, entry(SIX, [0, 21, 0, 0, 0, 0]), entry(SIX, [0, 0, 21, 0, 0, 0]))
    number = len(before["hands"]) - 1
    err = error_of(client.put(api_url(made, "hands", number), json=entry(SIX, [10, 0, 0, 0, 0, 10]),
                              headers=bearer(made["edit_key"])), 422)
    assert err["message"] == (f"Hand {number + 1} would no longer be legal: "
                              "The game is over: a player has reached the target of 100.")
    assert read(client, made)["hands"] == before["hands"]


def test_put_that_is_itself_illegal_is_422_and_changes_nothing(client, match):
    before = play(client, match, entry(SIX, [21, 0, 0, 0, 0, 0]))
    err = error_of(client.put(api_url(match, "hands", 1), json=entry(SIX, [26, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]),
                              headers=bearer(match["edit_key"])), 422)
    assert set(err["fields"]) == {"moon"}
    assert read(client, match)["hands"] == before["hands"]


def test_delete_undoes_the_last_hand(client, match):
    play(client, match, entry(SIX, [21, 0, 0, 0, 0, 0]), entry(SIX, [0, 22, 0, 0, 0, 0]))
    answer = client.delete(api_url(match, "hands", 2), headers=bearer(match["edit_key"]))
    assert answer.status_code == 200
    state = answer.get_json()
    assert [h["number"] for h in state["hands"]] == [1]
    assert state["totals"] == {ANN: 21, BOB: 0, CID: 0, DEE: 0, EVE: 0, FAY: 0}
    assert state["next"]["number"] == 2 and state["next"]["dealer"] == BOB
    assert read(client, match) == state


def test_undo_reopens_a_finished_game(client):
    made = create_match(client, game="hearts", players=SIX, options={"target": 100})
    state = reach(client, made, [100, 0, 0, 0, 0, 0])
    last = len(state["hands"])
    answer = client.delete(api_url(made, "hands", last), headers=bearer(made["edit_key"]))
    assert answer.status_code == 200
    reopened = answer.get_json()
    assert reopened["finished"] is False and reopened["winners"] == []
    assert reopened["next"]["number"] == last


# -- the moon ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("moon", "moon_points", "scores"), [
    ("subtract", 26, [-26, 0, 0, 0, 0, 0]),
    ("add", 26, [0, 26, 26, 26, 26, 26]),
    ("subtract", 52, [-52, 0, 0, 0, 0, 0]),
    ("add", 52, [0, 52, 52, 52, 52, 52]),
])
def test_shooting_the_moon_both_ways(client, moon, moon_points, scores):
    made = create_match(client, game="hearts", players=SIX, options={"moon_points": moon_points})
    state = play(client, made, entry(SIX, [26, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], moon=moon))
    (hand,) = state["hands"]
    assert hand["moon_shooter"] == ANN
    assert hand["entry"]["moon"] == moon
    assert hand["points"] == {ANN: 52, BOB: 0, CID: 0, DEE: 0, EVE: 0, FAY: 0}
    assert hand["scores"] == dict(zip(SIX, scores)) == state["totals"]


@pytest.mark.parametrize("moon", ["add", "subtract"])
def test_a_moon_choice_without_a_moon_is_refused(client, match, moon):
    """docs/rules.md 3.4: Ann took every heart but only one Black Maria; a moon choice sent is refused, not ignored."""
    body = entry(SIX, [26, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], moon=moon)
    err = error_of(post_hand(client, match, body), 422)
    assert err["fields"] == {"moon": "Nobody took all 26 hearts and both Black Marias, so there is no moon to "
                                     "choose; leave it empty."}
    assert read(client, match)["hands"] == []
    del body["moon"]
    (hand,) = play(client, match, body)["hands"]
    assert hand["moon_shooter"] is None and "moon" not in hand["entry"]
    assert hand["scores"] == {ANN: 39, BOB: 13, CID: 0, DEE: 0, EVE: 0, FAY: 0}


# docs/rules.md 3.3: a cancelled last trick holds N cards, so at least 26 - N hearts are taken.
@pytest.mark.parametrize(("players", "hearts", "accepted"), [
    pytest.param(6, [20, 0, 0, 0, 0, 0], True, id="6 players, 20 hearts"),
    pytest.param(6, [19, 0, 0, 0, 0, 0], False, id="6 players, 19 hearts"),
    pytest.param(6, [0, 0, 0, 0, 0, 0], False, id="6 players, no hearts"),
    pytest.param(11, [15] + [0] * 10, True, id="11 players, 15 hearts"),
    pytest.param(11, [14] + [0] * 10, False, id="11 players, 14 hearts"),
])
def test_hearts_taken_account_for_the_hand(client, players, hearts, accepted):
    made = create_match(client, game="hearts", players=NAMES[:players])
    answer = post_hand(client, made, entry(NAMES[:players], hearts))
    if accepted:
        assert answer.status_code == 201 and answer.get_json()["totals"][ANN] == hearts[0]
    else:
        err = error_of(answer, 422)
        assert err["fields"] == {"hearts": f"The hearts add up to {hearts[0]}, but at least {26 - players} are "
                                           f"taken: a cancelled last trick loses at most {players} cards."}
        assert read(client, made)["hands"] == []


@pytest.mark.parametrize("target", [26, 50, 99])
def test_a_target_below_100_can_be_agreed(client, target):
    made = create_match(client, game="hearts", players=SIX, options={"target": target})
    assert made["options"]["target"] == target
    state = play(client, made, entry(SIX, [26, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0]))
    assert state["finished"] is (target <= 39)


# -- docs/rules.md worked examples ------------------------------------------------------------


def test_worked_example_1_eight_players(client):
    players = NAMES[:8]
    made = create_match(client, game="hearts", players=players)
    assert made["next"]["cards_each"] == 13 and made["next"]["left_over"] == 0
    state = play(client, made, entry(players, [5, 0, 7, 3, 2, 4, 5, 0], [1, 0, 0, 1, 0, 0, 0, 0]))
    assert state["hands"][0]["points"] == dict(zip(players, [18, 0, 7, 16, 2, 4, 5, 0]))


@pytest.mark.parametrize(("moon", "after"), [
    ("add", [66, 61, 86, 70, 48, 74, 116]),
    ("subtract", [40, 35, 60, 44, 22, 48, 90]),
])
def test_worked_example_2_the_moon_on_seven_players(client, moon, after):
    players = NAMES[:7]
    made = create_match(client, game="hearts", players=players)
    reach(client, made, [40, 35, 60, 70, 22, 48, 90])
    state = play(client, made, entry(players, [0, 0, 0, 26, 0, 0, 0], [0, 0, 0, 2, 0, 0, 0], moon=moon))
    assert state["hands"][-1]["moon_shooter"] == "Dee"
    assert state["totals"] == dict(zip(players, after))
    assert state["finished"] is False


def test_worked_example_3_the_game_ends_and_the_fifth_player_wins(client):
    made = create_match(client, game="hearts", players=SIX, options={"target": 150})
    state = reach(client, made, [140, 120, 98, 131, 77, 104])
    assert state["finished"] is False and state["winners"] == []
    # Hand points 6 13 0 19 14 0: Bob and Dee each took a Black Maria.
    state = play(client, made, entry(SIX, [6, 0, 0, 6, 14, 0], [0, 1, 0, 1, 0, 0]))
    assert state["hands"][-1]["points"] == dict(zip(SIX, [6, 13, 0, 19, 14, 0]))
    assert state["totals"] == dict(zip(SIX, [146, 133, 98, 150, 91, 104]))
    assert state["finished"] is True
    assert state["winners"] == [EVE]
    assert state["next"] is None
    assert read(client, made) == state
    error_of(post_hand(client, made, entry(SIX, [21, 0, 0, 0, 0, 0])), 409)


def test_ties_share_the_win(client):
    made = create_match(client, game="hearts", players=SIX, options={"target": 100})
    reach(client, made, [90, 50, 10, 10, 60, 70])
    state = play(client, made, entry(SIX, [10, 0, 5, 5, 0, 0]))
    assert state["finished"] is True and state["winners"] == [CID, DEE]
