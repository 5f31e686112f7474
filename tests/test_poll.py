"""The poll answered 304 before the app's hooks run: the same answer as the view's, for a fraction of its cost."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import create_match
from helpers.apps import apps
from scorekeeper.match import matches

HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}
SAME = ("ETag", "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options",
        "Cross-Origin-Opener-Policy", "Vary", "Strict-Transport-Security", "Cache-Control", "Set-Cookie")


@pytest.fixture
def hooks(app: Flask) -> list[str]:
    """Every request that reaches the app's hooks, by path."""
    seen: list[str] = []
    from flask import request

    app.before_request(lambda: seen.append(request.path) and None)
    return seen


def polled(client: FlaskClient) -> tuple[str, str]:
    made = create_match(client)
    answer = client.get(f"/api/v1/matches/{made['id']}")
    return made["id"], answer.headers["ETag"]


def headers_of(answer) -> dict[str, str | None]:
    return {name: answer.headers.get(name) for name in SAME}


def test_a_current_poll_is_answered_304_without_reaching_the_app(client: FlaskClient, hooks: list[str]):
    public_id, tag = polled(client)
    hooks.clear()
    for sent in (tag, f"W/{tag}", f'"other", {tag}', tag[:-1] + ':br"', "*"):
        answer = client.get(f"/api/v1/matches/{public_id}", headers={"If-None-Match": sent})
        assert answer.status_code == 304 and answer.data == b"", sent
        assert answer.headers["ETag"] == tag
    assert hooks == []


def test_the_304_carries_the_headers_the_view_gives(client: FlaskClient, hooks: list[str]):
    """The app's own 304 (a query string takes the view's path) and the early one are the same answer."""
    public_id, tag = polled(client)
    sent = {"If-None-Match": tag, "Accept-Encoding": "br, gzip"}
    early = client.get(f"/api/v1/matches/{public_id}", headers=sent)
    hooks.clear()
    viewed = client.get(f"/api/v1/matches/{public_id}?from=app", headers=sent)
    assert hooks == [f"/api/v1/matches/{public_id}"]
    assert viewed.status_code == early.status_code == 304
    assert headers_of(early) == headers_of(viewed)


def test_anything_but_a_current_poll_goes_to_the_app(client: FlaskClient, hooks: list[str]):
    public_id, tag = polled(client)
    hooks.clear()
    stale = client.get(f"/api/v1/matches/{public_id}", headers={"If-None-Match": f'"{public_id}.0"'})
    assert stale.status_code == 200 and stale.get_json()["id"] == public_id and stale.headers["ETag"] == tag
    unknown = client.get("/api/v1/matches/NoSuchMatch0000000000", headers={"If-None-Match": tag})
    assert unknown.status_code == 404 and unknown.is_json
    bare = client.get(f"/api/v1/matches/{public_id}")
    head = client.head(f"/api/v1/matches/{public_id}", headers={"If-None-Match": tag})
    history = client.get(f"/api/v1/matches/{public_id}/history", headers={"If-None-Match": tag})
    assert bare.status_code == history.status_code == 200 and head.status_code == 304
    assert len(hooks) == 5


@pytest.fixture
def make_app(database_url: str) -> Iterator:
    with apps(database_url, MIGRATE_ON_START=False) as make:
        yield make


@pytest.mark.parametrize("hsts", [True, False])
def test_over_https_behind_a_proxy_the_early_304_sends_hsts_as_the_app_does(make_app, hsts: bool):
    client = make_app(PROXIES=1, HSTS=hsts).test_client()
    public_id, tag = polled(client)
    early = client.get(f"/api/v1/matches/{public_id}", headers={"If-None-Match": tag, **HTTPS})
    viewed = client.get(f"/api/v1/matches/{public_id}?from=app", headers={"If-None-Match": tag, **HTTPS})
    assert early.status_code == viewed.status_code == 304
    assert headers_of(early) == headers_of(viewed)
    assert ("Strict-Transport-Security" in early.headers) is hsts
    plain = client.get(f"/api/v1/matches/{public_id}", headers={"If-None-Match": tag})
    assert "Strict-Transport-Security" not in plain.headers


def test_a_host_this_server_does_not_answer_to_is_refused_by_the_app(make_app):
    client = make_app(TRUSTED_HOSTS="scores.example.org").test_client()
    made = client.post("/api/v1/matches", json={"game": "barbu", "players": ["Ann", "Bob", "Cid", "Dee"]},
                       headers={"Host": "scores.example.org"}).get_json()
    tag = client.get(f"/api/v1/matches/{made['id']}", headers={"Host": "scores.example.org"}).headers["ETag"]
    refused = client.get(f"/api/v1/matches/{made['id']}", headers={"Host": "evil.example", "If-None-Match": tag})
    assert refused.status_code == 400
    kept = client.get(f"/api/v1/matches/{made['id']}", headers={"Host": "scores.example.org", "If-None-Match": tag})
    assert kept.status_code == 304


def test_when_the_read_fails_the_app_answers_for_itself(client: FlaskClient, hooks: list[str], monkeypatch):
    public_id, tag = polled(client)
    real, failed = matches.peek_in, []

    def once_down(*args):
        if not failed:
            failed.append(True)
            raise RuntimeError("the database went away for a moment")
        return real(*args)

    monkeypatch.setattr(matches, "peek_in", once_down)
    hooks.clear()
    answer = client.get(f"/api/v1/matches/{public_id}", headers={"If-None-Match": tag})
    assert failed and hooks == [f"/api/v1/matches/{public_id}"] and answer.status_code == 304
