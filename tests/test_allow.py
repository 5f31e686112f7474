"""Allow tells the truth: OPTIONS of every address names the methods it has, no more.

An id in an address (a match's, a club's) must never take the word of a route beside it:
/api/v1/matches/import is not a match, so it has POST and no GET.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer, create_match, play
from helpers.matches import PLAYERS

FLASK_ADDS = {"HEAD", "OPTIONS"}


def allowed(answer) -> set[str]:
    return {method.strip() for method in answer.headers["Allow"].split(",")}


def declared(item: dict[str, Any]) -> set[str]:
    """The methods the OpenAPI document gives a path, with the ones Flask adds (HEAD beside GET)."""
    methods = {method.upper() for method in item if method in ("get", "post", "put", "patch", "delete")}
    return methods | {"OPTIONS"} | ({"HEAD"} if "GET" in methods else set())


@pytest.fixture
def values(client: FlaskClient) -> dict[str, str]:
    """A real match with a hand, a real club with a player, a season and an evening: every path parameter of the
    document, filled."""
    match = create_match(client, "kozyol")
    play(client, match, {"points": [75, 45]})
    club = client.post("/api/v1/clubs", json={"name": "Sunday table"}).get_json()
    player = client.post(f"/api/v1/clubs/{club['id']}/players", json={"name": PLAYERS[0]},
                         headers=bearer(club["admin_key"])).get_json()
    season = client.post(f"/api/v1/clubs/{club['id']}/seasons", headers=bearer(club["admin_key"]),
                         json={"name": "Winter", "starts": "2026-12-01", "ends": "2027-02-28"}).get_json()
    evening = client.post(f"/api/v1/clubs/{club['id']}/planned-evenings", headers=bearer(club["admin_key"]),
                          json={"day": "2099-12-05"}).get_json()["evenings"][0]
    return {"public_id": match["id"], "match_id": match["id"], "number": "1", "table_number": "1", "club_id": club["id"],
            "player_id": str(player["id"]),
            "day": "2026-12-05", "season_id": str(season["id"]), "evening_id": str(evening["id"])}


def test_every_documented_path_allows_what_the_document_declares(client: FlaskClient, values: dict[str, str]):
    document = client.get("/api/v1/openapi.json").get_json()
    for template, item in document["paths"].items():
        path = re.sub(r"\{(\w+)\}", lambda found: values[found.group(1)], template)
        answer = client.options(path)
        assert answer.status_code == 200, template
        assert allowed(answer) == declared(item), template


def test_the_import_address_is_no_match(client: FlaskClient):
    assert allowed(client.options("/api/v1/matches/import")) == {"POST", "OPTIONS"}
    refused = client.get("/api/v1/matches/import")
    assert refused.status_code == 405 and refused.mimetype == "application/json"
    assert set(refused.headers["Allow"].replace(" ", "").split(",")) == {"POST", "OPTIONS"}


VARIABLE = re.compile(r"<(?:(\w+)(?:\(([^)]*)\))?:)?\w+>")  # <name>, <int:name>, <any(a, b):name>


def sample(rule: str) -> str:
    """An address the rule takes: each variable part filled with a value its converter accepts."""
    def value(found: re.Match[str]) -> str:
        converter, arguments = found.group(1), found.group(2)
        if converter == "any":
            return arguments.split(",")[0].strip(" '\"")
        return {"int": "1", "path": "a/b.css"}.get(converter, "x1")
    return VARIABLE.sub(value, rule)


def test_every_address_of_the_app_allows_only_its_own_routes_methods(app: Flask):
    """A route's address is taken by no other route: the variable parts never take a sibling's words."""
    routing = app.url_map.bind("localhost")
    by_rule: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        by_rule.setdefault(rule.rule, set()).update(rule.methods or ())
    for rule in app.url_map.iter_rules():
        address = sample(rule.rule)
        assert set(routing.allowed_methods(address)) | FLASK_ADDS == by_rule[rule.rule] | FLASK_ADDS, address
