"""JSON bodies only as JSON: any other Content-Type is 415, so no web page can write through the API.

A page on another site may POST to the API without asking the browser first only as text/plain,
a form or multipart; a body sent as application/json needs a preflight the API never grants.
Every endpoint that reads a body is tried here with a body that would be accepted as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from helpers.api import bearer, create_match, error_of, play
from helpers.matches import PLAYERS
from scorekeeper.db import db
from scorekeeper.models import Club, Match

API = "/api/v1"
KOZYOL = {"game": "kozyol", "players": PLAYERS}
DEAL = {"points": [75, 45]}
REFUSED = [
    "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x", "multipart/form-data", None, "", "application/json-seq", "text/json",
    "application/vnd.api+json", "application/jsonx", "application/*", "*/*", "json", "application/javascript",
]
ACCEPTED = ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/json ; charset=UTF-8"]
CROSS_SITE = {"Origin": "https://evil.example"}


class Table:
    """A match with a hand, a club with two roster players, and their keys: what the writes aim at."""

    def __init__(self, client: FlaskClient):
        self.match = create_match(client, "kozyol")
        play(client, self.match, DEAL)
        self.club = client.post(f"{API}/clubs", json={"name": "Sunday table"}).get_json()
        url, key = self.club_url, bearer(self.club["admin_key"])
        self.players = [client.post(f"{url}/players", json={"name": name}, headers=key).get_json()["id"]
                        for name in ("Eve", "Fay")]
        self.export = client.get(f"{API}/matches/{self.match['id']}/export").get_json()

    @property
    def match_url(self) -> str:
        return f"{API}/matches/{self.match['id']}"

    @property
    def club_url(self) -> str:
        return f"{API}/clubs/{self.club['id']}"


Write = Callable[[Table], tuple[str, str, dict[str, Any], dict[str, str]]]
# name: (method, address, a body accepted as JSON, headers) for every endpoint that reads a body
WRITES: dict[str, Write] = {
    "create a match": lambda t: ("POST", f"{API}/matches", KOZYOL, {}),
    "import a match": lambda t: ("POST", f"{API}/matches/import", t.export, {}),
    "record a hand": lambda t: ("POST", f"{t.match_url}/hands", DEAL, bearer(t.match["edit_key"])),
    "record a hand once": lambda t: ("POST", f"{t.match_url}/hands", DEAL,
                                     {**bearer(t.match["edit_key"]), "Idempotency-Key": "k-1"}),
    "correct a hand": lambda t: ("PUT", f"{t.match_url}/hands/1", {"points": [45, 75]}, bearer(t.match["edit_key"])),
    "correct a hand once": lambda t: ("PUT", f"{t.match_url}/hands/1", {"points": [45, 75]},
                                      {**bearer(t.match["edit_key"]), "Idempotency-Key": "k-2"}),
    "create a club": lambda t: ("POST", f"{API}/clubs", {"name": "Friday table"}, {}),
    "start a club match": lambda t: ("POST", f"{t.club_url}/matches", KOZYOL, {}),
    "set the club's rules": lambda t: ("PUT", f"{t.club_url}/rules", {"min_matches": 2},
                                       bearer(t.club["admin_key"])),
    "add a season": lambda t: ("POST", f"{t.club_url}/seasons", {"name": "2026", "starts": "2026-01-01",
                                                                 "ends": "2026-12-31"}, bearer(t.club["admin_key"])),
    "name an evening": lambda t: ("PUT", f"{t.club_url}/evenings/2026-12-05", {"name": "Friday"},
                                  bearer(t.club["admin_key"])),
    "add a player": lambda t: ("POST", f"{t.club_url}/players", {"name": "Gus"}, bearer(t.club["admin_key"])),
    "rename a player": lambda t: ("PATCH", f"{t.club_url}/players/{t.players[0]}", {"name": "Eva"},
                                  bearer(t.club["admin_key"])),
    "merge two players": lambda t: ("POST", f"{t.club_url}/players/{t.players[1]}/merge", {"into": t.players[0]},
                                    bearer(t.club["admin_key"])),
}


def stored(app: Flask) -> dict[str, int]:
    """Rows of every table, and the versions of every match and club: any write changes one of them."""
    with app.app_context():
        counts = {table.name: db.session.scalar(select(func.count()).select_from(table))
                  for table in db.metadata.sorted_tables}
        counts["match versions"] = db.session.scalar(select(func.coalesce(func.sum(Match.version), 0)))
        counts["club versions"] = db.session.scalar(select(func.coalesce(func.sum(Club.version), 0)))
        db.session.remove()
    return counts


def send(client: FlaskClient, write: Write, table: Table, content_type: str | None, **extra: str):
    method, url, body, headers = write(table)
    headers = {**headers, **extra, **({"Content-Type": content_type} if content_type is not None else {})}
    return client.open(url, method=method, data=json.dumps(body), headers=headers)


@pytest.mark.parametrize("name", list(WRITES))
def test_a_body_sent_as_anything_but_json_is_415_and_writes_nothing(app: Flask, client: FlaskClient, name: str):
    table = Table(client)
    before = stored(app)
    for content_type in REFUSED:
        answer = send(client, WRITES[name], table, content_type, **CROSS_SITE)
        error = error_of(answer, 415)
        assert error["fields"] == {} and "JSON" in error["message"], (name, content_type)
        assert stored(app) == before, (name, content_type, "something was written")


@pytest.mark.parametrize("content_type", ACCEPTED)
@pytest.mark.parametrize("name", list(WRITES))
def test_a_body_sent_as_json_is_read_whatever_its_parameters(client: FlaskClient, name: str, content_type: str):
    answer = send(client, WRITES[name], Table(client), content_type)
    assert answer.status_code in (200, 201), (name, content_type, answer.get_json())


def test_the_415_speaks_the_players_language(client: FlaskClient):
    answer = client.post(f"{API}/matches", data="{}", headers={"Accept-Language": "fr", "Content-Type": "text/plain"})
    assert error_of(answer, 415)["message"] == "Envoyez la requête en JSON."


@pytest.mark.parametrize("send_bodiless", [
    lambda client, t: client.delete(f"{t.match_url}/hands/1", headers=bearer(t.match["edit_key"])),
    lambda client, t: client.delete(f"{t.match_url}/hands/1", headers={**bearer(t.match["edit_key"]),
                                                                       "Idempotency-Key": "undo-1"}),
    lambda client, t: client.post(f"{t.match_url}/key", headers=bearer(t.match["edit_key"])),
    lambda client, t: client.post(f"{t.club_url}/key", headers=bearer(t.club["admin_key"])),
], ids=["undo", "undo once", "new edit key", "new admin key"])
def test_writes_without_a_body_need_no_content_type(client: FlaskClient, send_bodiless):
    assert send_bodiless(client, Table(client)).status_code == 200


def test_the_document_gives_every_operation_with_a_body_a_415(client: FlaskClient):
    document = client.get(f"{API}/openapi.json").get_json()
    assert "415" in document["components"]["responses"]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if "requestBody" in operation:
                assert list(operation["requestBody"]["content"]) == ["application/json"], (method, path)
                assert operation["responses"].get("415") == {"$ref": "#/components/responses/415"}, (method, path)
            else:
                assert "415" not in operation["responses"], (method, path)
