"""The rounds of an evening over the JSON API: a proposal stores nothing, a confirmation starts the tables' matches
once (409 after), the rounds are listed from the club link; writes need the admin key; answers as documented."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import bearer, error_of
from helpers.club_nights import NINE, ROUNDS, ApiNight
from helpers.openapi import check_answer

API = "/api/v1"


class Night(ApiNight):
    """The club's evening, its rounds asked for through the API."""

    def post(self, tail: str, body: dict[str, Any], key: bool = True):
        return self.client.post(self.url(tail), json=body, headers=self.admin if key else {})


@pytest.fixture
def night(client: FlaskClient) -> Night:
    return Night(client)


def test_a_proposal_is_drawn_again_from_its_seed_and_stores_nothing(night: Night, document):
    proposed = night.post("/proposal", {"game": "kozyol", "seed": 42})
    assert proposed.status_code == 200, proposed.get_json()
    check_answer(document, ROUNDS + "/proposal", "POST", proposed)
    drawn = proposed.get_json()
    assert drawn["seed"] == 42 and drawn["number"] == 1 and len(drawn["tables"]) == 2 and len(drawn["sat_out"]) == 1
    assert drawn["tables"][0]["first"] == drawn["tables"][0]["players"][0]
    assert night.post("/proposal", {"game": "kozyol", "seed": 42}).get_json() == drawn
    out, seated = drawn["sat_out"][0], drawn["tables"][1]["seat_ids"][3]
    swapped = night.post("/proposal", {"game": "kozyol", "seed": 42, "swaps": [[out, seated]]}).get_json()
    assert swapped["sat_out"] == [seated] and swapped["tables"][1]["seat_ids"][3] == out
    fresh = night.post("/proposal", {"game": "kozyol"}).get_json()
    assert isinstance(fresh["seed"], int)
    listed = night.client.get(night.url())
    check_answer(document, ROUNDS, "GET", listed)
    assert listed.get_json()["rounds"] == [] and listed.get_json()["next"] == 1


def test_confirming_starts_the_matches_once_and_lists_them(night: Night, document):
    drawn = night.post("/proposal", {"game": "kozyol", "seed": 5, "swaps": []}).get_json()
    made = night.post("", {"game": "kozyol", "seed": 5, "number": 1})
    assert made.status_code == 201, made.get_json()
    check_answer(document, ROUNDS, "POST", made)
    state = made.get_json()
    assert [table["seat_ids"] for table in state["tables"]] == [table["seat_ids"] for table in drawn["tables"]]
    table = state["tables"][0]
    match = night.client.get(f"{API}/matches/{table['match']['id']}").get_json()
    assert match["players"] == table["players"] and match["options"]["first_dealer"] == table["players"][0]
    sent = night.client.post(f"{API}/matches/{table['match']['id']}/hands", json={"points": [75, 45]},
                             headers=bearer(table["match"]["edit_key"]))
    assert sent.status_code == 201
    again = night.post("", {"game": "kozyol", "seed": 5, "number": 1})
    assert "already confirmed" in error_of(again, 409)["message"]
    listed = night.client.get(night.url())
    check_answer(document, ROUNDS, "GET", listed)
    [shown] = listed.get_json()["rounds"]
    assert shown["tables"][0]["match"]["hands"] == 1 and "edit_key" not in shown["tables"][0]["match"]
    assert listed.get_json()["next"] == 2


def test_the_tables_as_proposed_are_confirmed_as_given(night: Night):
    ann, bob, cid, dee = (night.players[name] for name in NINE[:4])
    made = night.post("", {"tables": [{"game": "barbu", "seats": [cid, ann, dee, bob]}]})
    assert made.status_code == 201, made.get_json()
    state = made.get_json()
    assert state["tables"][0]["players"] == ["Cid", "Ann", "Dee", "Bob"] and len(state["sat_out"]) == 5
    match = night.client.get(f"{API}/matches/{state['tables'][0]['match']['id']}").get_json()
    assert match["options"]["first_declarer"] == "Cid"


@pytest.mark.parametrize(("body", "field"), [
    ({"game": "chess"}, "game"),
    ({"game": "kozyol", "seed": -1}, "seed"),
    ({"game": "kozyol", "seed": True}, "seed"),
    ({"game": "kozyol", "swaps": [[1]]}, "swaps"),
    ({"game": ["hearts", "hearts"]}, "players"),
])
def test_a_proposal_refuses_what_it_cannot_draw(night: Night, body: dict[str, Any], field: str):
    refused = night.post("/proposal", body)
    assert field in error_of(refused, 422)["fields"], refused.get_json()


def test_a_confirmation_refuses_tables_of_players_not_present_or_seated_twice(night: Night):
    ann, bob, cid = (night.players[name] for name in NINE[:3])
    for tables in ([{"game": "kozyol", "seats": [ann, bob, cid, ann]}], [{"game": "kozyol", "seats": [ann, bob]}],
                   [{"game": "kozyol", "seats": [ann, bob, cid, 999_999]}], "all"):
        assert night.post("", {"tables": tables}).status_code == 422
    assert night.post("", {"game": "kozyol"}).status_code == 422  # neither a seed nor tables
    assert night.client.get(night.url()).get_json()["rounds"] == []


def test_writes_need_the_admin_key_and_an_unknown_evening_is_404(night: Night):
    assert night.post("/proposal", {"game": "kozyol"}, key=False).status_code == 401
    assert night.client.post(night.url(), json={"game": "kozyol", "seed": 1}, headers=bearer("nope")).status_code == 403
    assert night.client.get(ROUNDS.format(club_id=night.id, evening_id=999)).status_code == 404
    assert night.client.post(ROUNDS.format(club_id=night.id, evening_id=999) + "/proposal", json={"game": "kozyol"},
                             headers=night.admin).status_code == 404
