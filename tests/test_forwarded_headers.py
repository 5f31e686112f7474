"""Forwarded headers on the production server: believed from the proxies the app is told of, and from no one else.

With SCOREKEEPER_PROXIES at 0 (the default) gunicorn believes no forwarded header, loopback included: a
request cannot make itself https, and a SCRIPT_NAME header is dropped rather than failing the request.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from helpers.servers import Server, fresh_database

NEW = {"game": "kozyol", "players": ["Ann", "Bob", "Cid", "Dee"]}


def started(folder, proxies: str) -> Server:
    instance = folder / "instance"
    instance.mkdir()
    running = Server({"SCOREKEEPER_INSTANCE_PATH": str(instance), "SCOREKEEPER_DATABASE_URL": fresh_database(folder),
                      "SCOREKEEPER_SECRET_KEY": "forwarded", "SCOREKEEPER_MIGRATE_ON_START": "false",
                      "SCOREKEEPER_PROXIES": proxies, "SCOREKEEPER_RATELIMIT_ENABLED": "false"},
                     folder / "server.log", workers=1)
    running.wait_ready()
    return running


@pytest.fixture(scope="module")
def server(tmp_path_factory, database: str) -> Iterator[Server]:
    running = started(tmp_path_factory.mktemp("no-proxies"), "0")
    try:
        yield running
    finally:
        running.stop()


@pytest.mark.parametrize("header", ["X-Forwarded-Proto", "X-Forwarded-Ssl", "X-Forwarded-Protocol"])
def test_with_no_proxies_a_request_from_loopback_cannot_claim_https(server: Server, header: str):
    value = "on" if header == "X-Forwarded-Ssl" else "ssl" if header == "X-Forwarded-Protocol" else "https"
    status, headers, _ = server.call("GET", "/", headers={header: value})
    assert status == 200
    assert "Strict-Transport-Security" not in headers
    status, _, body = server.call("POST", "/api/v1/matches", NEW, headers={header: value})
    assert status == 201, body
    assert b'"edit_url": "http://' in body or b'"edit_url":"http://' in body


@pytest.mark.parametrize("script_name", ["/elsewhere", "/", "/api", "x"])
def test_a_script_name_header_is_not_a_server_error(server: Server, script_name: str):
    for path in ("/", "/api/v1/matches/nosuchmatch"):
        status, _, body = server.call("GET", path, headers={"SCRIPT_NAME": script_name})
        assert status in (200, 404), (path, status, body[:300])
    status, _, body = server.call("POST", "/api/v1/matches", NEW, headers={"SCRIPT_NAME": "/elsewhere"})
    assert status == 201, body
    assert b"/elsewhere" not in body


def test_with_a_proxy_in_front_its_https_is_believed(tmp_path_factory, database: str):
    running = started(tmp_path_factory.mktemp("one-proxy"), "1")
    try:
        status, _, body = running.call("POST", "/api/v1/matches", NEW, headers={"X-Forwarded-Proto": "https"})
        assert status == 201, body
        assert b"https://" in body
    finally:
        running.stop()
