"""A database restart is a blip: a dropped connection is replaced before use, and a write that loses its
connection midway is answered 503 with Retry-After (the API's JSON), never a 500, and saves nothing.

PostgreSQL only: its server drops the connections (pg_terminate_backend, as a restart does); SQLite has none.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from helpers.api import bearer
from helpers.matches import PLAYERS
from scorekeeper.db import db

DEAL = {"points": [75, 45]}


@pytest.fixture
def server(app: Flask, database: str, request: pytest.FixtureRequest) -> Any:
    if database == "sqlite":
        pytest.skip("a database server's restart is PostgreSQL's: SQLite is a file")
    return request.getfixturevalue("postgres")


def drop_connections(server: Any, app: Flask) -> None:
    """Every connection of the test database dropped by its server, as a restart drops them."""
    name = app.config["SQLALCHEMY_DATABASE_URI"].rsplit("/", 1)[1]
    server.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' "
                   "AND pid <> pg_backend_pid()")


def test_after_the_server_dropped_every_connection_the_next_requests_are_answered(app: Flask, server: Any):
    client = app.test_client()
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
    for _ in range(3):  # the pool now holds connections
        assert client.get(f"/api/v1/matches/{made['id']}").status_code == 200
    drop_connections(server, app)
    assert client.get(f"/api/v1/matches/{made['id']}").status_code == 200
    assert client.get(f"/m/{made['id']}").status_code == 200
    saved = client.post(f"/api/v1/matches/{made['id']}/hands", json=DEAL, headers=bearer(made["edit_key"]))
    assert saved.status_code == 201


def test_a_write_that_loses_its_connection_midway_is_503_and_saves_nothing(app: Flask, server: Any):
    client = app.test_client()
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
    dropped = []

    def drop_on_insert(connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO HANDS") and not dropped:
            dropped.append(True)
            drop_connections(server, app)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", drop_on_insert)
    headers = {**bearer(made["edit_key"]), "Idempotency-Key": "deal-1"}
    lost = client.post(f"/api/v1/matches/{made['id']}/hands", json=DEAL, headers=headers)
    assert dropped and lost.status_code == 503, lost.get_data(as_text=True)[:300]
    assert lost.get_json()["error"]["message"].startswith("The server cannot save right now")
    assert int(lost.headers["Retry-After"]) > 0
    assert client.get(f"/api/v1/matches/{made['id']}").get_json()["hands"] == []
    again = client.post(f"/api/v1/matches/{made['id']}/hands", json=DEAL, headers=headers)
    assert again.status_code == 201 and len(client.get(f"/api/v1/matches/{made['id']}").get_json()["hands"]) == 1
