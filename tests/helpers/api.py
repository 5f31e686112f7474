"""Matches made and played through the JSON API, and its answers checked."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from helpers.matches import PLAYERS


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


def api_url(match: dict[str, Any], *parts: Any) -> str:
    """The API address of a match (from create_match), or of a part of it: api_url(m, "hands", 3)."""
    return "/".join([f"/api/v1/matches/{match['id']}", *map(str, parts)])


def post_hand(client: FlaskClient, match: dict[str, Any], body: Any, key: str | None = None):
    """Record a hand through the API with the match's edit key (or the key given)."""
    return client.post(api_url(match, "hands"), json=body, headers=bearer(key or match["edit_key"]))


def play(client: FlaskClient, match: dict[str, Any], *bodies: dict[str, Any]) -> dict[str, Any]:
    """Record hands that must be accepted; return the last state."""
    state: dict[str, Any] = {}
    for body in bodies:
        answer = post_hand(client, match, body)
        assert answer.status_code == 201, answer.get_json()
        state = answer.get_json()
    return state


def post(client: FlaskClient, match: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(f"/api/v1/matches/{match['id']}/hands", json=entry, headers=bearer(match["edit_key"]))
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def read(client: FlaskClient, match: dict[str, Any]) -> dict[str, Any]:
    """The match state the API answers."""
    answer = client.get(api_url(match))
    assert answer.status_code == 200
    return answer.get_json()


def error_of(answer, status: int) -> dict[str, Any]:
    """Check an error answer's status and shape; return its error object."""
    assert answer.status_code == status, answer.get_data(as_text=True)
    assert answer.mimetype == "application/json"
    body = answer.get_json()
    assert set(body) == {"error"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["fields"], dict)
    return body["error"]
