"""The JSON API for Barbu (/api/v1/openapi.json): every status code, the match state, and whole matches."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import api_url, bearer, create_match, error_of, play, post_hand, read
from helpers.matches import PLAYERS
from helpers.names import TOO_LONG

ANN, BOB, CID, DEE = PLAYERS
CONTRACTS = ["no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu", "trumps", "dominoes"]
URLSAFE = re.compile(r"^[A-Za-z0-9_-]+$")

# One legal entry per contract (no doubles), and its raw scores (docs/rules.md section 1.2).
ENTRIES: dict[str, dict[str, Any]] = {
    "no_tricks": {"contract": "no_tricks", "tricks": {ANN: 4, BOB: 3, CID: 5, DEE: 1}},
    "no_queens": {"contract": "no_queens", "queens": {ANN: 1, BOB: 0, CID: 1, DEE: 2}},
    "no_hearts": {"contract": "no_hearts", "hearts": {ANN: 4, BOB: 5, CID: 2, DEE: 2}, "ace_of_hearts": ANN},
    "no_last_two": {"contract": "no_last_two", "second_last": CID, "last": DEE},
    "barbu": {"contract": "barbu", "king_of_hearts": BOB},
    "trumps": {"contract": "trumps", "tricks": {ANN: 6, BOB: 3, CID: 1, DEE: 3}, "trump_suit": "spades"},
    "dominoes": {"contract": "dominoes", "order": [BOB, ANN, DEE, CID], "start_rank": "J"},
}
RAW: dict[str, dict[str, int]] = {
    "no_tricks": {ANN: -8, BOB: -6, CID: -10, DEE: -2},
    "no_queens": {ANN: -6, BOB: 0, CID: -6, DEE: -12},
    "no_hearts": {ANN: -12, BOB: -10, CID: -4, DEE: -4},
    "no_last_two": {ANN: 0, BOB: 0, CID: -10, DEE: -20},
    "barbu": {ANN: 0, BOB: -20, CID: 0, DEE: 0},
    "trumps": {ANN: 30, BOB: 15, CID: 5, DEE: 15},
    "dominoes": {ANN: 20, BOB: 45, CID: -5, DEE: 5},
}


# -- helpers -------------------------------------------------------------------------------


def entry(contract: str, doubles: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    return {**ENTRIES[contract], "doubles": doubles or [], **extra}


def double(by: str, target: str, redoubled: bool = False) -> dict[str, Any]:
    return {"by": by, "target": target, "redoubled": redoubled}


def settle(raw: dict[str, int], doubles: list[dict[str, Any]]) -> dict[str, int]:
    """docs/rules.md 1.4: f_i = s_i + sum over j of m_ij (s_i - s_j), m from the doubles of the pair."""
    weight: dict[frozenset[str], int] = {}
    for d in doubles:
        weight[frozenset((d["by"], d["target"]))] = 2 if d["redoubled"] else 1
    return {
        i: raw[i] + sum(weight.get(frozenset((i, j)), 0) * (raw[i] - raw[j]) for j in raw if j != i)
        for i in raw
    }


@pytest.fixture
def match(client: FlaskClient) -> dict[str, Any]:
    """A fresh Barbu match where Ann declares first."""
    return create_match(client, options={"first_declarer": ANN})


# -- 201 create ------------------------------------------------------------------------------


def test_create_answers_the_state_with_a_long_random_edit_key(client):
    answer = client.post("/api/v1/matches", json={"game": "barbu", "players": PLAYERS})
    assert answer.status_code == 201
    assert answer.mimetype == "application/json"
    body = answer.get_json()
    assert body["game"] == "barbu"
    assert body["players"] == PLAYERS
    assert body["hands"] == []
    assert body["totals"] == {name: 0 for name in PLAYERS}
    assert body["finished"] is False and body["winners"] == []
    assert body["next"]["number"] == 1
    assert body["url"] == f"/m/{body['id']}"
    key = body["edit_key"]
    assert URLSAFE.match(key) and len(key) * 6 >= 128, "an edit key needs at least 128 random bits"
    assert key in body["edit_url"]
    assert URLSAFE.match(body["id"]) and len(body["id"]) * 6 >= 96, "match ids must be unguessable"


def test_every_match_gets_its_own_id_and_key(client):
    made = [create_match(client) for _ in range(5)]
    assert len({m["id"] for m in made}) == 5
    assert len({m["edit_key"] for m in made}) == 5


def test_create_fills_in_every_default_option_and_draws_the_first_declarer(client):
    seen = set()
    for _ in range(40):
        options = create_match(client)["options"]
        assert set(options) == {"first_declarer", "domino_scores", "enforce_declarer_doubles"}
        assert options["domino_scores"] == [45, 20, 5, -5]
        assert options["enforce_declarer_doubles"] is True
        assert options["first_declarer"] in PLAYERS
        seen.add(options["first_declarer"])
    assert len(seen) > 1, "the first declarer is drawn at random, not always the same seat"


def test_create_keeps_options_given(client):
    made = create_match(client, options={"first_declarer": CID, "domino_scores": [40, 25, 10, -10],
                                         "enforce_declarer_doubles": False})
    assert made["options"] == {"first_declarer": CID, "domino_scores": [40, 25, 10, -10],
                               "enforce_declarer_doubles": False}
    assert made["next"]["declarer"] == CID
    assert read(client, made)["options"] == made["options"]


def test_create_trims_names(client):
    made = create_match(client, players=[" Ann", "Bob ", "Cid", "Dee"], options={"first_declarer": " Bob "})
    assert made["players"] == PLAYERS
    assert made["options"]["first_declarer"] == BOB


def test_edit_url_lets_a_fresh_browser_edit_and_drops_the_key_from_the_address(app, match):
    phone = app.test_client()
    assert phone.get(f"/m/{match['id']}/hands/new").status_code == 403
    joined = phone.get(match["edit_url"])
    assert joined.status_code in (302, 303)
    location = joined.headers["Location"]
    assert location.endswith(f"/m/{match['id']}")
    assert match["edit_key"] not in location and "key=" not in location
    page = phone.get(location)
    assert page.status_code == 200
    assert f"/m/{match['id']}/hands/new?variant=no_tricks" in page.text
    assert phone.get(f"/m/{match['id']}/hands/new?variant=barbu").status_code == 200


def test_edit_url_with_a_wrong_key_does_not_grant_editing(app, match):
    phone = app.test_client()
    wrong = match["edit_url"].replace(match["edit_key"], "x" * len(match["edit_key"]))
    assert phone.get(wrong).status_code == 403
    assert phone.get(f"/m/{match['id']}/hands/new").status_code == 403


# -- 200 read, ETag, version -------------------------------------------------------------------


def test_read_gives_every_field_of_the_state(client, match):
    play(client, match, entry("no_queens", [double(BOB, ANN)]))
    state = read(client, match)
    assert {"id", "url", "game", "players", "options", "hands", "totals", "finished", "winners", "next",
            "version"} <= set(state)
    assert "edit_key" not in state and "edit_url" not in state, "reading must not leak the edit key"
    assert state["id"] == match["id"] and state["url"] == match["url"]
    (hand,) = state["hands"]
    assert {"number", "declarer", "dealer", "contract", "entry", "raw", "scores", "totals"} <= set(hand)
    assert hand["number"] == 1 and hand["declarer"] == ANN and hand["dealer"] == DEE
    assert hand["contract"] == "no_queens"
    assert hand["entry"]["queens"] == ENTRIES["no_queens"]["queens"]
    assert hand["entry"]["doubles"] == [double(BOB, ANN)]
    assert hand["raw"] == RAW["no_queens"]
    assert hand["scores"] == {ANN: -12, BOB: 6, CID: -6, DEE: -12}, "Bob doubled Ann: 6 changes hands"
    assert hand["totals"] == hand["scores"] == state["totals"]
    nxt = state["next"]
    assert nxt["number"] == 2 and nxt["declarer"] == ANN and nxt["dealer"] == DEE
    assert nxt["contracts_left"] == [c for c in CONTRACTS if c != "no_queens"]
    assert nxt["doubles_owed"] == {BOB: 1, CID: 2, DEE: 2}
    assert nxt["must_double"] == []


def test_next_follows_the_schedule_across_blocks(client):
    made = create_match(client, options={"first_declarer": DEE})
    assert made["next"]["declarer"] == DEE and made["next"]["dealer"] == CID
    state = play(client, made, *[entry(c, [double(p, DEE) for p in (ANN, BOB, CID)] if i < 2 else [])
                                 for i, c in enumerate(CONTRACTS)])
    nxt = state["next"]
    assert nxt["number"] == 8
    assert nxt["declarer"] == ANN and nxt["dealer"] == DEE, "the player on the declarer's left declares next"
    assert nxt["contracts_left"] == CONTRACTS
    assert nxt["doubles_owed"] == {BOB: 2, CID: 2, DEE: 2}


def test_unknown_match_reads_404(client):
    error_of(client.get("/api/v1/matches/no-such-match"), 404)


def test_version_grows_with_every_change_and_not_with_refusals(client, match):
    versions = [match["version"]]
    versions.append(post_hand(client, match, entry("barbu")).get_json()["version"])
    versions.append(post_hand(client, match, entry("trumps")).get_json()["version"])
    post_hand(client, match, entry("barbu"))  # refused: contract used
    assert read(client, match)["version"] == versions[-1]
    versions.append(client.put(api_url(match, "hands", 1), json=entry("no_tricks"),
                               headers=bearer(match["edit_key"])).get_json()["version"])
    versions.append(client.delete(api_url(match, "hands", 2), headers=bearer(match["edit_key"])).get_json()["version"])
    assert all(a < b for a, b in zip(versions, versions[1:])), versions
    assert read(client, match)["version"] == versions[-1]


def test_etag_answers_304_until_the_match_changes(client, match):
    first = client.get(api_url(match))
    tag = first.headers["ETag"]
    assert tag
    again = client.get(api_url(match), headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.get_data() == b""
    play(client, match, entry("barbu"))
    changed = client.get(api_url(match), headers={"If-None-Match": tag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != tag
    assert len(changed.get_json()["hands"]) == 1
    assert client.get(api_url(match), headers={"If-None-Match": changed.headers["ETag"]}).status_code == 304


def test_write_answers_carry_the_new_etag(client, match):
    answer = post_hand(client, match, entry("barbu"))
    assert client.get(api_url(match), headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304


# -- 400 ----------------------------------------------------------------------------------------

NOT_AN_OBJECT = [
    pytest.param({"data": "hello", "content_type": "application/json"}, id="not-json"),
    pytest.param({"data": "{\"contract\": ", "content_type": "application/json"}, id="broken-json"),
    pytest.param({"json": ["barbu"]}, id="json-array"),
    pytest.param({"json": "barbu"}, id="json-string"),
    pytest.param({"json": 7}, id="json-number"),
    pytest.param({"data": b"", "content_type": "application/json"}, id="empty-body"),
    pytest.param({"data": b"\xff\xfe\x00", "content_type": "application/json"}, id="not-utf8"),
    pytest.param({"data": "[" * 50000 + "]" * 50000, "content_type": "application/json"}, id="deeply-nested"),
]


# Not sent as JSON: 415 (tests/test_api_content_types.py tries every endpoint and more types).
NOT_SENT_AS_JSON = [
    pytest.param({"data": "hello", "content_type": "text/plain"}, id="text"),
    pytest.param({}, id="no-body"),
]


@pytest.mark.parametrize("request_body", NOT_SENT_AS_JSON)
def test_a_body_not_sent_as_json_is_415(client, match, request_body):
    key = bearer(match["edit_key"])
    error_of(client.post("/api/v1/matches", **request_body), 415)
    error_of(client.post(api_url(match, "hands"), headers=key, **request_body), 415)
    error_of(client.put(api_url(match, "hands", 1), headers=key, **request_body), 415)
    assert read(client, match)["hands"] == []


@pytest.mark.parametrize("request_body", NOT_AN_OBJECT)
def test_create_with_a_body_that_is_not_an_object_is_400(client, request_body):
    error_of(client.post("/api/v1/matches", **request_body), 400)


@pytest.mark.parametrize("request_body", NOT_AN_OBJECT)
def test_record_with_a_body_that_is_not_an_object_is_400(client, match, request_body):
    error_of(client.post(api_url(match, "hands"), headers=bearer(match["edit_key"]), **request_body), 400)
    assert read(client, match)["hands"] == []


@pytest.mark.parametrize("request_body", NOT_AN_OBJECT)
def test_correct_with_a_body_that_is_not_an_object_is_400(client, match, request_body):
    play(client, match, entry("barbu"))
    error_of(client.put(api_url(match, "hands", 1), headers=bearer(match["edit_key"]), **request_body), 400)
    assert read(client, match)["hands"][0]["contract"] == "barbu"


# -- 401, 403 ------------------------------------------------------------------------------------

NO_KEY = [
    pytest.param({}, id="no-authorization"),
    pytest.param({"Authorization": ""}, id="empty"),
    pytest.param({"Authorization": "Bearer"}, id="bearer-without-key"),
    pytest.param({"Authorization": "Bearer   "}, id="bearer-blank"),
    pytest.param({"Authorization": "Basic QW5uOmtleQ=="}, id="basic-scheme"),
    pytest.param({"Authorization": "Token KEY"}, id="token-scheme"),
]


def writes(match: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        ("post", api_url(match, "hands"), {"json": entry("no_tricks")}),
        ("put", api_url(match, "hands", 1), {"json": entry("no_tricks")}),
        ("delete", api_url(match, "hands", 1), {}),
    ]


@pytest.mark.parametrize("headers", NO_KEY)
def test_writes_without_a_key_are_401(client, match, headers):
    play(client, match, entry("barbu"))
    for method, path, kwargs in writes(match):
        sent = {name: value.replace("KEY", match["edit_key"]) for name, value in headers.items()}
        error_of(getattr(client, method)(path, headers=sent, **kwargs), 401)
    assert [h["contract"] for h in read(client, match)["hands"]] == ["barbu"]


def test_writes_with_a_wrong_key_or_another_matchs_key_are_403(client, match):
    other = create_match(client)
    play(client, match, entry("barbu"))
    for key in ("wrong-key", match["edit_key"][:-1], match["edit_key"] + "x", other["edit_key"]):
        for method, path, kwargs in writes(match):
            error_of(getattr(client, method)(path, headers=bearer(key), **kwargs), 403)
    assert [h["contract"] for h in read(client, match)["hands"]] == ["barbu"]


def test_the_other_match_still_takes_its_own_key(client, match):
    other = create_match(client)
    assert post_hand(client, other, entry("barbu")).status_code == 201
    assert post_hand(client, match, entry("barbu"), key=other["edit_key"]).status_code == 403


def test_bearer_scheme_is_case_insensitive(client, match):
    answer = client.post(api_url(match, "hands"), json=entry("barbu"),
                         headers={"Authorization": f"bearer {match['edit_key']}"})
    assert answer.status_code == 201


# -- 404 ------------------------------------------------------------------------------------------


def test_writes_to_an_unknown_match_are_404(client, match):
    ghost = {"id": "no-such-match"}
    for method, path, kwargs in writes(ghost):
        error_of(getattr(client, method)(path, headers=bearer(match["edit_key"]), **kwargs), 404)


@pytest.mark.parametrize("number", [0, 2, 5, 29, 10**20])
def test_put_or_delete_of_an_unknown_hand_is_404(client, match, number):
    play(client, match, entry("barbu"))
    key = bearer(match["edit_key"])
    error_of(client.put(api_url(match, "hands", number), json=entry("no_tricks"), headers=key), 404)
    error_of(client.delete(api_url(match, "hands", number), headers=key), 404)
    assert [h["contract"] for h in read(client, match)["hands"]] == ["barbu"]


def test_put_or_delete_on_a_match_without_hands_is_404(client, match):
    key = bearer(match["edit_key"])
    error_of(client.put(api_url(match, "hands", 1), json=entry("no_tricks"), headers=key), 404)
    error_of(client.delete(api_url(match, "hands", 1), headers=key), 404)


# -- 409 ------------------------------------------------------------------------------------------


def test_number_that_is_not_the_next_one_is_409(client, match):
    play(client, match, entry("barbu"))
    for number in (3, 28, 0, -1):
        err = error_of(post_hand(client, match, entry("trumps", number=number)), 409)
        assert err["message"] == "The next hand is hand 2."
    assert len(read(client, match)["hands"]) == 1


def test_number_already_recorded_is_409(client, match):
    play(client, match, entry("barbu", number=1))
    err = error_of(post_hand(client, match, entry("trumps", number=1)), 409)
    assert err["message"] == "Hand 1 is already recorded."
    assert [h["contract"] for h in read(client, match)["hands"]] == ["barbu"]


def test_the_right_number_is_accepted(client, match):
    play(client, match, entry("barbu", number=1))
    state = play(client, match, entry("trumps", number=2))
    assert [h["number"] for h in state["hands"]] == [1, 2]


def test_delete_of_a_hand_that_is_not_the_last_is_409(client, match):
    play(client, match, entry("barbu"), entry("trumps"), entry("no_tricks"))
    err = error_of(client.delete(api_url(match, "hands", 2), headers=bearer(match["edit_key"])), 409)
    assert "Only the last hand can be undone" in err["message"]
    assert len(read(client, match)["hands"]) == 3


# -- 422 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "field", "message"), [
    pytest.param({**ENTRIES["no_tricks"], "tricks": {ANN: 4, BOB: 3, CID: 4, DEE: 1}}, "tricks",
                 "The tricks add up to 12; they must add up to 13.", id="tricks-sum"),
    pytest.param({**ENTRIES["trumps"], "tricks": {ANN: 6, BOB: 3, CID: 1, DEE: 4}}, "tricks",
                 "The tricks add up to 14; they must add up to 13.", id="trumps-sum"),
    pytest.param({**ENTRIES["no_queens"], "queens": {ANN: 1, BOB: 1, CID: 1, DEE: 0}}, "queens",
                 "The queens add up to 3; they must add up to 4.", id="queens-sum"),
    pytest.param({**ENTRIES["no_hearts"], "hearts": {ANN: 4, BOB: 5, CID: 2, DEE: 3}}, "hearts",
                 "The hearts add up to 14; they must add up to 13.", id="hearts-sum"),
    pytest.param({**ENTRIES["no_hearts"], "hearts": {ANN: 0, BOB: 9, CID: 2, DEE: 2}}, "ace_of_hearts",
                 "Ann took the ace of hearts, so Ann took at least one heart.", id="ace-without-hearts"),
    pytest.param({**ENTRIES["no_tricks"], "tricks": {ANN: 14, BOB: 0, CID: 0, DEE: 0}}, "tricks",
                 "Enter a number from 0 to 13.", id="tricks-too-many"),
    pytest.param({**ENTRIES["no_tricks"], "tricks": {ANN: -1, BOB: 4, CID: 5, DEE: 5}}, "tricks",
                 "Enter a number from 0 to 13.", id="tricks-negative"),
    pytest.param({**ENTRIES["no_queens"], "queens": {ANN: 5, BOB: 0, CID: 0, DEE: 0}}, "queens",
                 "Enter a number from 0 to 4.", id="queens-too-many"),
    pytest.param({**ENTRIES["no_tricks"], "tricks": {ANN: 4.5, BOB: 3, CID: 4.5, DEE: 1}}, "tricks",
                 "Enter a whole number.", id="tricks-fraction"),
    pytest.param({**ENTRIES["no_tricks"], "tricks": {ANN: "4", BOB: 3, CID: 5, DEE: 1}}, "tricks",
                 "Enter a whole number.", id="tricks-text"),
    pytest.param({**ENTRIES["no_tricks"], "tricks": {ANN: True, BOB: 3, CID: 8, DEE: 1}}, "tricks",
                 "Enter a whole number.", id="tricks-boolean"),
    pytest.param({**ENTRIES["no_tricks"], "tricks": {ANN: 4, BOB: 3, CID: 5}}, "tricks",
                 "Enter a number for Dee.", id="tricks-missing-player"),
    pytest.param({**ENTRIES["no_tricks"], "tricks": {ANN: 4, BOB: 3, CID: 5, "Zed": 1}}, "tricks",
                 "Zed is not a player in this match.", id="tricks-unknown-player"),
    pytest.param({**ENTRIES["no_tricks"], "tricks": [4, 3, 5, 1]}, "tricks",
                 "Give one number per player.", id="tricks-list"),
    pytest.param({"contract": "barbu", "king_of_hearts": "Zed"}, "king_of_hearts",
                 "Choose one of the players.", id="king-unknown-player"),
    pytest.param({"contract": "barbu"}, "king_of_hearts", "Choose one of the players.", id="king-missing"),
    pytest.param({"contract": "no_last_two", "second_last": ANN, "last": "Zed"}, "last",
                 "Choose one of the players.", id="last-unknown-player"),
    pytest.param({"contract": "dominoes", "order": [ANN, BOB, CID, CID]}, "order",
                 "Put all four players in finishing order, each once.", id="order-repeats"),
    pytest.param({"contract": "dominoes", "order": [ANN, BOB, CID]}, "order",
                 "Put all four players in finishing order, each once.", id="order-short"),
    pytest.param({"contract": "dominoes", "order": [ANN, BOB, CID, "Zed"]}, "order",
                 "Put all four players in finishing order, each once.", id="order-unknown-player"),
    pytest.param({**ENTRIES["trumps"], "trump_suit": "stars"}, "trump_suit",
                 "Choose one of: spades, hearts, diamonds, clubs.", id="trump-suit"),
    pytest.param({**ENTRIES["dominoes"], "start_rank": "1"}, "start_rank",
                 "Choose one of: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A.", id="start-rank"),
    pytest.param({"contract": "grand_slam"}, "contract", "Choose one of the seven contracts.", id="unknown-contract"),
    pytest.param({"king_of_hearts": ANN}, "contract", "Choose one of the seven contracts.", id="no-contract"),
    pytest.param({**ENTRIES["barbu"], "number": "1"}, "number", "The hand number must be a whole number.",
                 id="number-text"),
    pytest.param({**ENTRIES["barbu"], "number": True}, "number", "The hand number must be a whole number.",
                 id="number-boolean"),
])
def test_entries_that_break_a_rule_are_422_with_the_reason(client, match, body, field, message):
    err = error_of(post_hand(client, match, body), 422)
    assert err["message"] == message
    assert err["fields"] == {field: message}
    state = read(client, match)
    assert state["hands"] == [] and state["version"] == match["version"]


@pytest.mark.parametrize(("contract", "doubles", "message"), [
    pytest.param("no_tricks", [double(ANN, BOB)],
                 "The declarer never starts a double; Ann may only redouble.", id="declarer-starts"),
    pytest.param("no_tricks", [double(BOB, CID), double(CID, BOB)],
                 "Cid and Bob cannot double each other twice; doubling back is the redouble.", id="mutual"),
    pytest.param("no_tricks", [double(BOB, ANN), double(ANN, BOB, True)],
                 "The declarer never starts a double; Ann may only redouble.", id="declarer-doubles-back"),
    pytest.param("no_tricks", [double(BOB, BOB)], "Bob cannot double themselves.", id="self"),
    pytest.param("trumps", [double(BOB, CID)], "In this contract only the declarer may be doubled.",
                 id="positive-not-declarer"),
    pytest.param("dominoes", [double(DEE, BOB)], "In this contract only the declarer may be doubled.",
                 id="dominoes-not-declarer"),
    pytest.param("no_tricks", [double(BOB, "Zed")], "Choose one of the players.", id="unknown-target"),
    pytest.param("no_tricks", [double("Zed", ANN)], "Choose one of the players.", id="unknown-doubler"),
    pytest.param("no_tricks", [{"by": BOB, "target": ANN, "redoubled": "yes"}],
                 "Answer yes or no (true or false).", id="redoubled-not-boolean"),
    pytest.param("no_tricks", [[BOB, ANN]], "Each double names who doubled and whom.", id="double-not-object"),
    pytest.param("no_tricks", {"by": BOB, "target": ANN}, "Give the doubles as a list.", id="doubles-not-list"),
])
def test_illegal_doubles_are_422_under_doubles(client, match, contract, doubles, message):
    body = {**ENTRIES[contract], "doubles": doubles}
    err = error_of(post_hand(client, match, body), 422)
    assert err["message"] == message
    assert err["fields"] == {"doubles": message}
    assert read(client, match)["hands"] == []


def test_a_contract_named_twice_in_a_block_is_422(client, match):
    play(client, match, entry("barbu"))
    err = error_of(post_hand(client, match, entry("barbu")), 422)
    assert err["fields"] == {"contract": "Ann has already played Barbu in this block."}


def test_a_missing_compulsory_double_is_422_and_the_state_says_who_must_double(client, match):
    state = play(client, match, *[entry(c) for c in CONTRACTS[:5]])
    nxt = state["next"]
    assert nxt["number"] == 6
    assert nxt["doubles_owed"] == {BOB: 2, CID: 2, DEE: 2}
    assert nxt["must_double"] == [BOB, CID, DEE]
    err = error_of(post_hand(client, match, entry("trumps", [double(BOB, ANN), double(CID, ANN)])), 422)
    assert err["fields"] == {"doubles": "Dee must double the declarer Ann: the doubles still owed equal the hands left."}
    state = play(client, match, entry("trumps", [double(p, ANN) for p in (BOB, CID, DEE)]))
    assert state["next"]["doubles_owed"] == {BOB: 1, CID: 1, DEE: 1}
    assert state["next"]["must_double"] == [BOB, CID, DEE]


def test_without_enforcement_a_missing_double_is_recorded(client):
    made = create_match(client, options={"first_declarer": ANN, "enforce_declarer_doubles": False})
    state = play(client, made, *[entry(c) for c in CONTRACTS[:6]])
    assert len(state["hands"]) == 6
    assert state["next"]["must_double"] == [BOB, CID, DEE]


@pytest.mark.parametrize(("body", "field", "message"), [
    pytest.param({"game": "barbu", "players": PLAYERS[:3]}, "players", "This game needs exactly 4 players.",
                 id="three-players"),
    pytest.param({"game": "barbu", "players": [*PLAYERS, "Eve"]}, "players", "This game needs exactly 4 players.",
                 id="five-players"),
    pytest.param({"game": "barbu", "players": [ANN, BOB, CID, ANN]}, "players",
                 "Two players have the same name; names must differ.", id="duplicate"),
    pytest.param({"game": "barbu", "players": [ANN, BOB, CID, " Ann "]}, "players",
                 "Two players have the same name; names must differ.", id="duplicate-after-trimming"),
    pytest.param({"game": "barbu", "players": [ANN, BOB, CID, "x" * 41]}, "players",
                 TOO_LONG, id="name-41-chars"),
    pytest.param({"game": "barbu", "players": [ANN, BOB, CID, "   "]}, "players", "Every player needs a name.",
                 id="blank-name"),
    pytest.param({"game": "barbu", "players": [ANN, BOB, CID, 4]}, "players", "Give the players as a list of names.",
                 id="name-not-text"),
    pytest.param({"game": "barbu", "players": "Ann, Bob, Cid, Dee"}, "players", "Give the players as a list of names.",
                 id="players-not-list"),
    pytest.param({"game": "barbu"}, "players", "Give the players as a list of names.", id="no-players"),
    pytest.param({"game": "chess", "players": PLAYERS}, "game", None, id="unknown-game"),
    pytest.param({"players": PLAYERS}, "game", None, id="no-game"),
    pytest.param({"game": "barbu", "players": PLAYERS, "options": {"first_declarer": "Zed"}}, "first_declarer",
                 "Choose one of the players.", id="first-declarer-unknown"),
    pytest.param({"game": "barbu", "players": PLAYERS, "options": {"first_declarer": 0}}, "first_declarer",
                 "Choose one of the players.", id="first-declarer-seat-number"),
    pytest.param({"game": "barbu", "players": PLAYERS, "options": {"domino_scores": [45, 20, 5]}}, "domino_scores",
                 "Give four whole numbers, first place to last.", id="domino-three-numbers"),
    pytest.param({"game": "barbu", "players": PLAYERS, "options": {"domino_scores": [45, 20, 5, 5]}},
                 "domino_scores", "The four scores must go down from first place and add up to 65.",
                 id="domino-wrong-sum"),
    pytest.param({"game": "barbu", "players": PLAYERS, "options": {"domino_scores": [-5, 5, 20, 45]}},
                 "domino_scores", "The four scores must go down from first place and add up to 65.",
                 id="domino-upside-down"),
    pytest.param({"game": "barbu", "players": PLAYERS, "options": {"enforce_declarer_doubles": "no"}},
                 "enforce_declarer_doubles", "Answer yes or no (true or false).", id="enforce-not-boolean"),
    pytest.param({"game": "barbu", "players": PLAYERS, "options": {"target": 12}}, "options",
                 "Unknown option: target.", id="unknown-option"),
    pytest.param({"game": "barbu", "players": PLAYERS, "options": ["first_declarer"]}, "options",
                 "Options must be an object.", id="options-not-object"),
])
def test_create_that_breaks_a_rule_is_422(client, body, field, message):
    err = error_of(client.post("/api/v1/matches", json=body), 422)
    assert list(err["fields"]) == [field]
    if message is not None:
        assert err["message"] == message
        assert err["fields"][field] == message


def test_a_name_of_40_characters_is_fine(client):
    made = create_match(client, players=[ANN, BOB, CID, "x" * 40])
    assert made["players"][3] == "x" * 40


# -- correcting and undoing ------------------------------------------------------------------------


def test_put_correcting_an_earlier_hand_recomputes_later_totals(client, match):
    play(client, match, entry("no_tricks"), entry("barbu"), entry("trumps"))
    before = read(client, match)
    assert before["totals"] == {p: RAW["no_tricks"][p] + RAW["barbu"][p] + RAW["trumps"][p] for p in PLAYERS}
    fixed = {"contract": "no_tricks", "tricks": {ANN: 0, BOB: 13, CID: 0, DEE: 0}}
    answer = client.put(api_url(match, "hands", 1), json=fixed, headers=bearer(match["edit_key"]))
    assert answer.status_code == 200
    state = answer.get_json()
    assert state["hands"][0]["raw"] == {ANN: 0, BOB: -26, CID: 0, DEE: 0}
    running = {p: 0 for p in PLAYERS}
    for hand, raw in zip(state["hands"], [{ANN: 0, BOB: -26, CID: 0, DEE: 0}, RAW["barbu"], RAW["trumps"]]):
        running = {p: running[p] + raw[p] for p in PLAYERS}
        assert hand["totals"] == running
    assert state["totals"] == running == {ANN: 30, BOB: -31, CID: 5, DEE: 15}
    assert read(client, match)["totals"] == running
    assert state["version"] > before["version"]


def test_put_can_change_the_contract_and_the_doubles(client, match):
    play(client, match, entry("no_tricks"), entry("barbu"))
    body = entry("no_queens", [double(BOB, ANN), double(BOB, CID), double(BOB, DEE), double(CID, ANN, True)])
    state = client.put(api_url(match, "hands", 1), json=body, headers=bearer(match["edit_key"])).get_json()
    assert state["hands"][0]["contract"] == "no_queens"
    assert state["hands"][0]["scores"] == {ANN: -12, BOB: 24, CID: -12, DEE: -24}
    assert state["next"]["contracts_left"] == ["no_tricks", "no_hearts", "no_last_two", "trumps", "dominoes"]
    assert state["next"]["doubles_owed"] == {BOB: 1, CID: 1, DEE: 2}


def test_put_making_a_later_hand_illegal_is_422_and_changes_nothing(client, match):
    play(client, match, entry("no_tricks"), entry("no_queens"), entry("barbu"))
    before = read(client, match)
    answer = client.put(api_url(match, "hands", 1), json=entry("no_queens"), headers=bearer(match["edit_key"]))
    err = error_of(answer, 422)
    assert err["message"] == "Hand 2 would no longer be legal: Ann has already played No Queens in this block."
    assert err["fields"] == {"contract": err["message"]}
    assert read(client, match) == before


def test_put_removing_a_double_that_a_later_hand_relied_on_is_422(client, match):
    owed = [double(p, ANN) for p in (BOB, CID, DEE)]
    state = play(client, match, *[entry(c) for c in CONTRACTS[:4]], entry("barbu", owed))
    assert state["next"]["must_double"] == [], "one double owed with two hands left is not compulsory yet"
    play(client, match, entry("trumps"))
    before = read(client, match)
    err = error_of(client.put(api_url(match, "hands", 5), json=entry("barbu"), headers=bearer(match["edit_key"])), 422)
    assert err["message"].startswith("Hand 6 would no longer be legal: ")
    assert "must double the declarer Ann" in err["message"]
    assert read(client, match) == before


def test_put_that_is_itself_illegal_is_422_and_changes_nothing(client, match):
    play(client, match, entry("no_tricks"))
    before = read(client, match)
    bad = {"contract": "no_tricks", "tricks": {ANN: 1, BOB: 1, CID: 1, DEE: 1}}
    err = error_of(client.put(api_url(match, "hands", 1), json=bad, headers=bearer(match["edit_key"])), 422)
    assert err["fields"] == {"tricks": "The tricks add up to 4; they must add up to 13."}
    assert read(client, match) == before


def test_delete_undoes_the_last_hand(client, match):
    after_one = play(client, match, entry("no_tricks"))
    play(client, match, entry("barbu", [double(BOB, ANN)]))
    answer = client.delete(api_url(match, "hands", 2), headers=bearer(match["edit_key"]))
    assert answer.status_code == 200
    state = answer.get_json()
    assert [h["contract"] for h in state["hands"]] == ["no_tricks"]
    assert state["totals"] == after_one["totals"]
    assert state["next"] == after_one["next"]
    assert state["version"] > after_one["version"]
    again = play(client, match, entry("barbu", number=2))
    assert again["hands"][1]["contract"] == "barbu"


# -- the examples of docs/rules.md section 1.7 -----------------------------------------------------------


def test_worked_examples_1_and_2_through_the_api(client, match):
    example_1 = entry("no_queens", [double(BOB, ANN), double(BOB, CID), double(BOB, DEE), double(CID, ANN, True)])
    state = play(client, match, example_1)
    hand = state["hands"][0]
    assert hand["declarer"] == ANN
    assert hand["raw"] == {ANN: -6, BOB: 0, CID: -6, DEE: -12}
    assert hand["scores"] == {ANN: -12, BOB: 24, CID: -12, DEE: -24}
    assert sum(hand["scores"].values()) == -24
    example_2 = {"contract": "trumps", "tricks": {ANN: 6, BOB: 3, CID: 1, DEE: 3},
                 "doubles": [double(BOB, ANN), double(CID, ANN, True), double(DEE, ANN)]}
    state = play(client, match, example_2)
    hand = state["hands"][1]
    assert hand["raw"] == {ANN: 30, BOB: 15, CID: 5, DEE: 15}
    assert hand["scores"] == {ANN: 110, BOB: 0, CID: -45, DEE: 0}
    assert hand["totals"] == state["totals"] == {ANN: 98, BOB: 24, CID: -57, DEE: -24}
    assert state["next"]["doubles_owed"] == {BOB: 0, CID: 0, DEE: 1}, "Dee passed in example 1"


def test_worked_example_3_through_the_api(client):
    made = create_match(client, options={"first_declarer": CID})
    body = {"contract": "no_hearts", "hearts": {ANN: 4, BOB: 5, CID: 2, DEE: 2}, "ace_of_hearts": ANN,
            "doubles": [double(ANN, BOB, True), double(ANN, CID), double(ANN, DEE, True),
                        double(BOB, CID, True), double(BOB, DEE), double(DEE, CID)]}
    state = play(client, made, body)
    hand = state["hands"][0]
    assert hand["declarer"] == CID and hand["dealer"] == BOB
    assert hand["raw"] == {ANN: -12, BOB: -10, CID: -4, DEE: -4}
    assert hand["scores"] == {ANN: -40, BOB: -24, CID: 16, DEE: 18}
    assert state["totals"] == hand["scores"]


def test_domino_scores_option_is_used(client):
    made = create_match(client, options={"first_declarer": ANN, "domino_scores": [40, 25, 10, -10]})
    hand = play(client, made, entry("dominoes"))["hands"][0]
    assert hand["raw"] == {BOB: 40, ANN: 25, DEE: 10, CID: -10}


# -- a whole match ------------------------------------------------------------------------------------


def block_doubles(declarer: str, index: int) -> list[dict[str, Any]]:
    """Everyone doubles the declarer in the first two hands of a block; Bob also doubles Dee when he can."""
    if index >= 2:
        return []
    doubles = [double(p, declarer, redoubled=(p == CID)) for p in PLAYERS if p != declarer]
    if declarer not in (BOB, DEE) and index == 0:
        doubles.append(double(BOB, DEE))
    return doubles


def test_a_full_match_of_28_hands(client):
    made = create_match(client, options={"first_declarer": BOB})
    totals = {p: 0 for p in PLAYERS}
    declarers = []
    for block in range(4):
        declarer = PLAYERS[(1 + block) % 4]
        order = CONTRACTS[block:] + CONTRACTS[:block]
        for index, contract in enumerate(order):
            number = block * 7 + index + 1
            doubles = block_doubles(declarer, index)
            answer = post_hand(client, made, entry(contract, doubles, number=number))
            assert answer.status_code == 201, answer.get_json()
            hand = answer.get_json()["hands"][-1]
            scores = settle(RAW[contract], doubles)
            totals = {p: totals[p] + scores[p] for p in PLAYERS}
            assert hand["number"] == number and hand["declarer"] == declarer
            assert hand["scores"] == scores, (number, contract)
            assert hand["totals"] == totals
            declarers.append(hand["declarer"])
    state = read(client, made)
    assert declarers == [BOB] * 7 + [CID] * 7 + [DEE] * 7 + [ANN] * 7
    assert len(state["hands"]) == 28
    assert state["totals"] == totals
    assert sum(totals.values()) == 0, "every block sums to 0 and doubling never changes a hand's sum"
    assert state["finished"] is True
    assert state["next"] is None
    best = max(totals.values())
    assert state["winners"] == [p for p in PLAYERS if totals[p] == best]
    assert state["winners"]

    err = error_of(post_hand(client, made, entry("barbu")), 409)
    assert err["message"] == "This match is finished; no more hands can be recorded."
    error_of(post_hand(client, made, entry("barbu", number=29)), 409)
    assert len(read(client, made)["hands"]) == 28

    undone = client.delete(api_url(made, "hands", 28), headers=bearer(made["edit_key"])).get_json()
    assert undone["finished"] is False and undone["winners"] == [] and undone["next"]["number"] == 28


# -- errors are JSON, never a 500 ------------------------------------------------------------------------

GARBAGE_PATHS = [
    "/api/v1", "/api/v1/", "/api/v1/nothing", "/api/v1/matches/", "/api/v1/matches/x/y/z",
    "/api/v1/matches/%00", "/api/v1/matches/%ff%fe", "/api/v1/matches/" + "a" * 5000,
    "/api/v1/matches/MATCH/hands/abc", "/api/v1/matches/MATCH/hands/-1", "/api/v1/matches/MATCH/hands/1.5",
    "/api/v1/matches/MATCH/hands/99999999999999999999999999", "/api/v1/matches/MATCH/hands/1/extra",
    "/api/v1/matches/MATCH/../../etc/passwd", "/api/v1/matches/'%20OR%201=1--",
]


@pytest.mark.parametrize("path", GARBAGE_PATHS)
def test_garbage_paths_answer_json_errors(client, match, path):
    for method in ("get", "post", "put", "delete", "patch"):
        answer = getattr(client, method)(path.replace("MATCH", match["id"]), json={"contract": "barbu"},
                                         headers=bearer(match["edit_key"]))
        err = error_of(answer, answer.status_code)
        assert 400 <= answer.status_code < 500, (method, answer.status_code, err)


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/v1/matches"),
    ("put", "/api/v1/matches"),
    ("delete", "/api/v1/matches"),
    ("put", "/api/v1/matches/MATCH"),
    ("post", "/api/v1/matches/MATCH"),
    ("delete", "/api/v1/matches/MATCH"),
    ("patch", "/api/v1/matches/MATCH"),
    ("get", "/api/v1/matches/MATCH/hands"),
    ("put", "/api/v1/matches/MATCH/hands"),
    ("delete", "/api/v1/matches/MATCH/hands"),
    ("get", "/api/v1/matches/MATCH/hands/1"),
    ("post", "/api/v1/matches/MATCH/hands/1"),
    ("patch", "/api/v1/matches/MATCH/hands/1"),
])
def test_methods_not_allowed_are_405_json(client, match, method, path):
    answer = getattr(client, method)(path.replace("MATCH", match["id"]), headers=bearer(match["edit_key"]))
    error_of(answer, 405)


@pytest.mark.parametrize("body", [
    {"contract": None}, {"contract": ["barbu"]}, {"contract": {"barbu": 1}},
    {"contract": "no_tricks", "tricks": None}, {"contract": "no_tricks", "tricks": {"": 13}},
    {"contract": "no_tricks", "tricks": {ANN: 10**40, BOB: 0, CID: 0, DEE: 0}},
    {"contract": "no_tricks", "tricks": {ANN: 13, BOB: 0, CID: 0, DEE: 0}, "doubles": [None]},
    {"contract": "no_tricks", "tricks": {ANN: 13, BOB: 0, CID: 0, DEE: 0}, "doubles": [{"by": [BOB], "target": {}}]},
    {"contract": "no_hearts", "hearts": {ANN: 13, BOB: 0, CID: 0, DEE: 0}, "ace_of_hearts": ["Ann"]},
    {"contract": "dominoes", "order": [ANN, BOB, CID, {"x": 1}]},
    {"contract": "dominoes", "order": "AnnBobCidDee"},
    {"contract": "trumps", "tricks": {ANN: 13, BOB: 0, CID: 0, DEE: 0}, "trump_suit": ["spades"]},
    {"contract": "barbu", "king_of_hearts": ANN, "number": 10**40},
    {"contract": "barbu", "king_of_hearts": ANN, "number": [1]},
    {"contract": "barbu", "king_of_hearts": "\u0000"},
])
def test_odd_entries_are_refused_without_a_500(client, match, body):
    answer = post_hand(client, match, body)
    err = error_of(answer, answer.status_code)
    assert answer.status_code in (409, 422), err
    assert read(client, match)["hands"] == []


@pytest.mark.parametrize("body", [
    {"game": None, "players": PLAYERS}, {"game": ["barbu"], "players": PLAYERS},
    {"game": "barbu", "players": [None, None, None, None]}, {"game": "barbu", "players": [[], {}, 1, True]},
    {"game": "barbu", "players": [ANN, BOB, CID, "\u0000"]}, {"game": "barbu", "players": [ANN, BOB, CID, "\ud800"]},
    {"game": "barbu", "players": PLAYERS, "options": {"domino_scores": [45.0, 20, 5, -5]}},
    {"game": "barbu", "players": PLAYERS, "options": {"domino_scores": [True, 20, 5, -5]}},
    {"game": "barbu", "players": PLAYERS, "options": {"domino_scores": "45,20,5,-5"}},
    {"game": "barbu", "players": PLAYERS, "options": {"first_declarer": [ANN]}},
    {"game": "barbu", "players": PLAYERS, "options": {"z" * 5000: 1}},
])
def test_odd_creates_are_refused_without_a_500(client, body):
    answer = client.post("/api/v1/matches", json=body)
    error_of(answer, 422)


def test_a_body_too_large_is_413_json(client):
    error_of(client.post("/api/v1/matches", data="x" * 300_000, content_type="application/json"), 413)
