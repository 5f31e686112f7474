"""The round being played over the JSON API: new tables for latecomers and sit-outs, none of the tables playing
moved, and a player leaving a table; the admin key needed, answers as documented (web/api/club_playing.py)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import error_of
from helpers.club_nights import ROUNDS, ApiNight
from helpers.openapi import check_answer

API = "/api/v1"


class Night(ApiNight):
    """The club's evening, round 1 of Kozyol confirmed (two tables, one sitting out), three more players on its
    roster, not here yet."""

    def __init__(self, client: FlaskClient):
        super().__init__(client)
        for name in ("Zed", "Yan", "Xia"):
            added = client.post(f"{API}/clubs/{self.id}/players", json={"name": name}, headers=self.admin)
            self.players[name] = added.get_json()["id"]
        made = self.post("", {"game": "kozyol", "seed": 5, "number": 1})
        assert made.status_code == 201, made.get_json()
        self.first = made.get_json()

    def post(self, tail: str, body: dict[str, Any], key: bool = True):
        return self.client.post(self.url(tail), json=body, headers=self.admin if key else {})


@pytest.fixture
def night(client: FlaskClient) -> Night:
    return Night(client)


def test_latecomers_get_a_new_table_and_the_tables_playing_stay(night: Night, document):
    assert error_of(night.post("/1/tables/proposal", {"game": "kozyol", "seed": 3}), 422)["fields"] == {
        "players": "A new table needs at least 4 players; free now: 1."}
    for name in ("Zed", "Yan", "Xia"):
        night.present(night.players[name], True)
    proposed = night.post("/1/tables/proposal", {"game": "kozyol", "seed": 3})
    assert proposed.status_code == 200, proposed.get_json()
    check_answer(document, ROUNDS + "/{number}/tables/proposal", "POST", proposed)
    drawn = proposed.get_json()
    free = {night.players[name] for name in ("Zed", "Yan", "Xia")} | set(night.first["sat_out"])
    assert drawn["number"] == 1 and [table["number"] for table in drawn["tables"]] == [3]
    assert set(drawn["tables"][0]["seat_ids"]) == free and drawn["sat_out"] == []
    added = night.post("/1/tables", {"game": "kozyol", "seed": 3})
    assert added.status_code == 201, added.get_json()
    check_answer(document, ROUNDS + "/{number}/tables", "POST", added)
    state = added.get_json()
    assert state["tables"][:2] == [{**table, "match": {**table["match"], "hands": 0}} for table in night.first["tables"]]
    assert state["tables"][2]["seat_ids"] == drawn["tables"][0]["seat_ids"] and state["tables"][2]["match"]["edit_key"]
    assert state["sat_out"] == []


def test_a_player_leaves_and_the_table_chooses(night: Night, document):
    table = night.first["tables"][0]
    nobody = night.post("/1/tables/1/leave", {"player": table["seat_ids"][0], "then": "seat",
                                              "by": table["seat_ids"][1]})
    assert list(error_of(nobody, 422)["fields"]) == ["by"]
    out = night.first["sat_out"][0]
    left = night.post("/1/tables/1/leave", {"player": table["seat_ids"][0], "then": "seat", "by": out})
    assert left.status_code == 200, left.get_json()
    check_answer(document, ROUNDS + "/{number}/tables/{table_number}/leave", "POST", left)
    tables = left.get_json()["tables"]
    assert tables[0]["ended"]["then"] == "seat" and tables[0]["ended"]["by"] == out and tables[0]["ended"]["table"] == 3
    assert tables[2]["seat_ids"] == [out, *table["seat_ids"][1:]] and tables[2]["ended"] is None
    exported = night.client.get(f"{API}/clubs/{night.id}/export", headers=night.admin).get_json()
    assert exported["evenings"][0]["rounds"][0]["tables"][0]["ended"] == tables[0]["ended"]  # a club moved keeps it
    again = night.post("/1/tables/1/leave", {"player": table["seat_ids"][1], "then": "ended"})
    assert list(error_of(again, 422)["fields"]) == ["table"]
    ended = night.post("/1/tables/2/leave", {"player": True, "then": "ended"})
    assert list(error_of(ended, 422)["fields"]) == ["player"]


def test_only_the_round_being_played_takes_new_tables_and_only_from_the_admin(night: Night):
    assert night.post("/1/tables/proposal", {"game": "kozyol"}, key=False).status_code == 401
    assert night.post("/1/tables/1/leave", {"player": 1, "then": "ended"}, key=False).status_code == 401
    assert night.post("/5/tables/proposal", {"game": "kozyol"}).status_code == 404
    assert night.post("/1/tables/9/leave", {"player": 1, "then": "ended"}).status_code == 404
    assert night.post("", {"game": "kozyol", "seed": 6, "number": 2}).status_code == 201
    assert night.post("/1/tables/proposal", {"game": "kozyol"}).status_code == 409
    assert night.post("/1/tables/1/leave", {"player": 1, "then": "ended"}).status_code == 404
