"""Behind a TLS proxy, and reached by a Host it does not answer to: Secure cookies, HSTS, no key-bearing link elsewhere."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from helpers.api import bearer
from helpers.apps import apps
from helpers.matches import PLAYERS
from scorekeeper.app import create_app
from scorekeeper.db import db

NEW = {"game": "barbu", "players": PLAYERS}
HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}


@pytest.fixture
def make_app(database_url: str) -> Iterator:
    with apps(database_url, MIGRATE_ON_START=True) as make:
        yield make


def session_cookie_header(answer) -> str:
    found = [value for value in answer.headers.getlist("Set-Cookie") if value.startswith("session=")]
    assert found, "no session cookie set"
    return found[0]


def test_behind_a_trusted_proxy_that_says_https_cookies_are_secure_and_hsts_is_sent(make_app):
    client = make_app(PROXIES=1).test_client()
    answer = client.get("/new/barbu", headers=HTTPS)
    assert answer.status_code == 200
    assert "; Secure" in session_cookie_header(answer)
    assert answer.headers["Strict-Transport-Security"].startswith("max-age=")
    assert int(answer.headers["Strict-Transport-Security"].split("=")[1]) >= 180 * 24 * 3600
    made = client.post("/api/v1/matches", json=NEW, headers=HTTPS)
    assert made.status_code == 201
    assert made.get_json()["edit_url"].startswith("https://")
    assert "Strict-Transport-Security" in made.headers
    joined = client.get(made.get_json()["edit_url"].replace("https://localhost", ""), headers=HTTPS)
    assert "; Secure" in session_cookie_header(joined)


@pytest.mark.parametrize("path", ["/", "/rules/barbu", "/api/v1/openapi.json", "/static/style.css", "/no-such-page"])
def test_hsts_is_on_every_answer_over_https(make_app, path):
    with make_app(PROXIES=1).test_client().get(path, headers=HTTPS) as answer:
        assert "Strict-Transport-Security" in answer.headers


def test_hsts_can_be_turned_off(make_app):
    answer = make_app(PROXIES=1, HSTS=False).test_client().get("/new/barbu", headers=HTTPS)
    assert "Strict-Transport-Security" not in answer.headers
    assert "; Secure" in session_cookie_header(answer)


def test_over_plain_http_or_from_an_untrusted_proxy_there_is_no_hsts_nor_secure_cookie(make_app):
    for app, headers in ((make_app(PROXIES=1), {}), (make_app(), HTTPS)):
        answer = app.test_client().get("/new/barbu", headers=headers)
        assert "Strict-Transport-Security" not in answer.headers
        assert "Secure" not in session_cookie_header(answer)


BAD_HOSTS = ["evil.example", "evil.example:80", "scores.example.org.evil.example", "evil.local.example.com",
             "localhost.evil.example", "127.0.0.1.evil.example", "evil.example/x", "user@localhost", "a b", "evil.example:99999"]


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_a_host_this_server_does_not_answer_to_builds_no_link(make_app, host):
    client = make_app().test_client()
    made = client.post("/api/v1/matches", json=NEW, headers={"Host": host})
    assert made.status_code == 400
    assert made.mimetype == "application/json"
    assert set(made.get_json()) == {"error"}
    assert "evil" not in made.get_data(as_text=True)
    page = client.get("/", headers={"Host": host})
    assert page.status_code == 400 and "evil" not in page.get_data(as_text=True)


def test_nothing_is_made_for_a_host_this_server_does_not_answer_to(make_app):
    client = make_app().test_client()
    client.post("/api/v1/matches", json=NEW, headers={"Host": "evil.example"})
    client.post("/api/v1/clubs", json={"name": "X"}, headers={"Host": "evil.example"})
    assert client.get("/").status_code == 200
    assert "Ann" not in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("host", ["localhost", "localhost:5000", "127.0.0.1:8000", "192.168.1.20:8000", "[::1]:8000",
                                  "[fe80::1]", "laptop", "laptop.local", "pi.lan", "box.home.arpa", "web.internal"])
def test_out_of_the_box_a_laptop_is_reached_by_its_address_or_local_name(make_app, host):
    client = make_app().test_client()
    made = client.post("/api/v1/matches", json=NEW, headers={"Host": host})
    assert made.status_code == 201
    assert made.get_json()["edit_url"].startswith(f"http://{host}/m/")


@pytest.mark.parametrize("setting", [["scores.example.org"], "scores.example.org", "other.example, scores.example.org",
                                     [".example.org"]])
def test_trusted_hosts_name_the_server_and_refuse_the_rest(make_app, setting):
    client = make_app(TRUSTED_HOSTS=setting).test_client()
    made = client.post("/api/v1/matches", json=NEW, headers={"Host": "scores.example.org"})
    assert made.status_code == 201
    assert made.get_json()["edit_url"].startswith("http://scores.example.org/m/")
    for host in ("evil.example", "localhost", "127.0.0.1"):
        assert client.post("/api/v1/matches", json=NEW, headers={"Host": host}).status_code == 400
        assert client.get("/", headers={"Host": host}).status_code == 400


def test_trusted_hosts_from_the_environment(monkeypatch, tmp_path, database_url):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", "scores.example.org,www.scores.example.org")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", database_url)
    monkeypatch.setenv("SCOREKEEPER_RATELIMIT_ENABLED", "false")
    app = create_app()
    try:
        client = app.test_client()
        assert client.get("/", headers={"Host": "www.scores.example.org"}).status_code == 200
        assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    finally:
        with app.app_context():
            db.engine.dispose()


def test_the_edit_qr_code_and_the_share_page_name_only_a_trusted_host(make_app):
    app = make_app(TRUSTED_HOSTS="scores.example.org")
    client = app.test_client()
    made = client.post("/api/v1/matches", json=NEW, headers={"Host": "scores.example.org"}).get_json()
    client.get(f"/m/{made['id']}/join?key={made['edit_key']}", headers={"Host": "scores.example.org"})
    assert client.get(f"/m/{made['id']}/qr/edit.svg", headers={"Host": "evil.example"}).status_code == 400
    assert client.get(f"/m/{made['id']}/qr/edit.svg", headers={"Host": "scores.example.org"}).status_code == 200
    rotated = client.post(f"/api/v1/matches/{made['id']}/key", headers={**bearer(made["edit_key"]), "Host": "evil.example"})
    assert rotated.status_code == 400
