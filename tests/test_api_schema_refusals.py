"""What the OpenAPI document's schemas refuse, the app refuses: 422, with the field and its reason.

Each row is a body the app used to take although its schema says no: an empty string or null
where the schema has a name, a number or a yes/no, null for an object, an empty evening name.
The schema is checked too (the unchanged body fits it, the changed one does not), so a row
cannot pass by testing something the document allows.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from helpers.api import bearer, create_match, error_of
from helpers.matches import PLAYERS
from helpers.openapi import DOCUMENT_URI, pointer

API = "/api/v1"
SIX = [*PLAYERS, "Eve", "Fay"]
NEW = {"barbu": {"game": "barbu", "players": PLAYERS}, "kozyol": {"game": "kozyol", "players": PLAYERS},
       "hearts": {"game": "hearts", "players": SIX}}
OPTIONS = {  # game: (option, a value its schema refuses) for each option that took "" or null
    "barbu": [("first_declarer", ""), ("first_declarer", None), ("enforce_declarer_doubles", None),
              ("domino_scores", None)],
    "kozyol": [("first_dealer", ""), ("first_dealer", None), ("target", None), ("eggs_double_next", None),
               ("six_for_zero_points", None)],
    "hearts": [("first_dealer", ""), ("first_dealer", None), ("target", None), ("moon_points", None)],
}
HOUSE_RULES = {game: [(name, value) for name, value in options if not name.startswith("first_")]
               for game, options in OPTIONS.items()}


class Case:
    """One write: where it goes (its path in the document), a body the schema takes, and the change it refuses."""

    def __init__(self, method: str, template: str, body: dict[str, Any], change: Callable[[dict[str, Any]], None],
                 field: str, admin: bool = False):
        self.method, self.template, self.body, self.change, self.field, self.admin = (
            method, template, body, change, field, admin)

    def changed(self) -> dict[str, Any]:
        body = copy.deepcopy(self.body)
        self.change(body)
        return body


def setting(*keys: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(body: dict[str, Any]) -> None:
        for key in keys[:-1]:
            body = body.setdefault(key, {})
        body[keys[-1]] = value
    return change


def cases() -> dict[str, Case]:
    made: dict[str, Case] = {}
    for game, options in OPTIONS.items():
        for name, value in options:
            for where, template in (("match", "/api/v1/matches"), ("club match", "/api/v1/clubs/{club_id}/matches")):
                made[f"{where}, {game} {name}={value!r}"] = Case(
                    "post", template, NEW[game], setting("options", name, value=value), name,
                    admin=where == "club match")
        for name, value in HOUSE_RULES[game]:
            made[f"new club, {game} house rule {name}={value!r}"] = Case(
                "post", "/api/v1/clubs", {"name": "T"}, setting("house_rules", game, name, value=value),
                f"house_rules.{game}.{name}")
            made[f"club rules, {game} house rule {name}={value!r}"] = Case(
                "put", "/api/v1/clubs/{club_id}/rules", {"min_matches": 2},
                setting("house_rules", game, name, value=value), f"house_rules.{game}.{name}", admin=True)
    for where, template in (("match", "/api/v1/matches"), ("club match", "/api/v1/clubs/{club_id}/matches")):
        made[f"{where}, options null"] = Case("post", template, NEW["kozyol"], setting("options", value=None),
                                              "options", admin=where == "club match")
        made[f"{where}, language empty"] = Case("post", template, NEW["kozyol"], setting("language", value=""),
                                                "language", admin=where == "club match")
    made["new club, house rules null"] = Case("post", "/api/v1/clubs", {"name": "T"},
                                              setting("house_rules", value=None), "house_rules")
    made["club rules, house rules null"] = Case("put", "/api/v1/clubs/{club_id}/rules", {"min_matches": 2},
                                                setting("house_rules", value=None), "house_rules", admin=True)
    made["evening, empty name"] = Case("put", "/api/v1/clubs/{club_id}/evenings/{day}", {"name": "Friday"},
                                       setting("name", value=""), "name", admin=True)
    made["hand, number null"] = Case("post", "/api/v1/matches/{public_id}/hands", {"points": [75, 45]},
                                     setting("number", value=None), "number")
    return made


CASES = cases()
IMPORTS = {  # an export changed as the schema refuses: its options and its language
    "first_dealer=''": (setting("options", "first_dealer", value=""), "first_dealer"),
    "target=null": (setting("options", "target", value=None), "target"),
    "options null": (setting("options", value=None), "options"),
    "language empty": (setting("language", value=""), "language"),
}


def fits(document: dict[str, Any], template: str, method: str, body: Any) -> bool:
    registry = Registry().with_resource(DOCUMENT_URI, Resource(document, specification=DRAFT202012))
    where = pointer("paths", template, method, "requestBody", "content", "application/json", "schema")
    return Draft202012Validator({"$ref": DOCUMENT_URI + "#" + where}, registry=registry).is_valid(body)


@pytest.mark.parametrize("name", list(CASES))
def test_what_the_schema_refuses_is_refused_with_its_field(client: FlaskClient, document, name: str):
    case = CASES[name]
    refused = case.changed()
    assert fits(document, case.template, case.method, case.body), "the unchanged body fits the schema"
    assert not fits(document, case.template, case.method, refused), "the schema refuses the change"
    match = create_match(client, "kozyol")
    club = client.post(f"{API}/clubs", json={"name": "Sunday table"}).get_json()
    url = case.template.format(public_id=match["id"], club_id=club["id"], day="2026-12-05")
    key = club["admin_key"] if case.admin else match["edit_key"]  # a bearer sent to a club must be its admin key
    error = error_of(client.open(url, method=case.method.upper(), json=refused, headers=bearer(key)), 422)
    assert case.field in error["fields"] and error["fields"][case.field], error
    accepted = client.open(url, method=case.method.upper(), json=case.body, headers=bearer(key))
    assert accepted.status_code in (200, 201), accepted.get_json()


@pytest.mark.parametrize("name", list(IMPORTS))
def test_an_import_the_schema_refuses_is_refused_with_its_field(client: FlaskClient, document, name: str):
    match = create_match(client, "kozyol")
    exported = client.get(f"{API}/matches/{match['id']}/export").get_json()
    change, field = IMPORTS[name]
    refused = copy.deepcopy(exported)
    change(refused)
    assert fits(document, "/api/v1/matches/import", "post", exported)
    assert not fits(document, "/api/v1/matches/import", "post", refused)
    error = error_of(client.post(f"{API}/matches/import", json=refused), 422)
    assert field in error["fields"], error


def test_what_the_schema_allows_is_still_taken(client: FlaskClient):
    """Left out is the default; null where the schema has null: the reader's language, no evening name."""
    for game, body in NEW.items():
        assert client.post(f"{API}/matches", json=body).status_code == 201, game
        assert client.post(f"{API}/matches", json={**body, "options": {}, "language": None}).status_code == 201
    club = client.post(f"{API}/clubs", json={"name": "T", "house_rules": {"hearts": {}}}).get_json()
    key = bearer(club["admin_key"])
    day = f"{API}/clubs/{club['id']}/evenings/2026-12-05"
    assert client.put(day, json={"name": "Friday"}, headers=key).get_json()["name"] == "Friday"
    assert client.put(day, json={"name": None}, headers=key).get_json() == {"day": "2026-12-05", "name": None}
    assert client.put(f"{API}/clubs/{club['id']}/rules", json={"time_zone": None}, headers=key).status_code == 200


def test_an_evening_name_of_spaces_is_refused_as_any_name(client: FlaskClient):
    club = client.post(f"{API}/clubs", json={"name": "T"}).get_json()
    answer = client.put(f"{API}/clubs/{club['id']}/evenings/2026-12-05", json={"name": "   "},
                        headers=bearer(club["admin_key"]))
    assert error_of(answer, 422)["fields"] == {"name": "Give it a name."}
