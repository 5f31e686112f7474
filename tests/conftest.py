"""Fixtures: an app on a throwaway database file, its client and CLI runner, and form/API helpers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.app import create_app
from scorekeeper.db import db

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}",
    })
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask):
    return app.test_cli_runner()


def csrf_token(client: FlaskClient, url: str = "/new/barbu") -> str:
    """The CSRF token a page hands this client (the same for the whole session)."""
    page = client.get(url)
    match = TOKEN.search(page.text)
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def post_form(client: FlaskClient, url: str, data: dict[str, Any], token_from: str | None = None):
    """Post a form the way a browser does: with the page's CSRF token."""
    return client.post(url, data={"csrf_token": csrf_token(client, token_from or url), **data})


def create_match(client: FlaskClient, game: str = "barbu", players: list[str] | None = None,
                 options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Create a match through the API; returns the answer with edit_key."""
    body: dict[str, Any] = {"game": game, "players": players or PLAYERS}
    if options is not None:
        body["options"] = options
    answer = client.post("/api/v1/matches", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}
