"""The session cookie shows no key to whoever reads it, still lets its phone edit, and a new key still revokes it."""

from __future__ import annotations

import base64
import re
import zlib

import pytest
from flask.sessions import SecureCookieSessionInterface

from helpers.api import bearer, create_match
from helpers.forms import csrf_token
from scorekeeper.db import db

FORM_KEY = re.compile(r'href="(/c/[^"/]+/join/[^"]+)"')


def cookie_of(client) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def every_reading(cookie: str) -> list[bytes]:
    """What a reader can make of the cookie with no secret: each part base64-decoded, and inflated if it can be."""
    readings = [cookie.encode()]
    for part in cookie.lstrip(".").split("."):
        try:
            raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        except ValueError:
            continue
        readings.append(raw)
        try:
            readings.append(zlib.decompress(raw))
        except zlib.error:
            pass
    return readings


def assert_hidden(cookie: str, *secrets: str) -> None:
    for reading in every_reading(cookie):
        for secret in secrets:
            assert secret.encode() not in reading
        assert b"keys" not in reading and b"club_keys" not in reading


def new_club(client) -> dict:
    answer = client.post("/api/v1/clubs", json={"name": "Thursday club"})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def test_a_phone_holding_edit_keys_and_an_admin_key_shows_none_of_them(client):
    made = [create_match(client) for _ in range(3)]
    for match in made:
        assert client.get(f"/m/{match['id']}/join?key={match['edit_key']}").status_code == 302
    club = new_club(client)
    assert client.get(club["admin_url"].replace("http://localhost", "")).status_code == 302
    cookie = cookie_of(client)
    assert_hidden(cookie, *(m["edit_key"] for m in made), club["admin_key"])
    # The phone still edits every match it joined and administers the club.
    for match in made:
        page = client.get(f"/m/{match['id']}").text
        assert match["edit_key"] in page  # the share section shows this phone its own edit link
    assert client.get(f"/c/{club['id']}/admin").status_code == 200


def test_thirty_matches_and_twelve_clubs_fit_one_cookie(client):
    for _ in range(30):
        match = create_match(client)
        client.get(f"/m/{match['id']}/join?key={match['edit_key']}")
    for _ in range(12):
        club = new_club(client)
        client.get(club["admin_url"].replace("http://localhost", ""))
    assert len(cookie_of(client)) < 4000
    assert client.get(f"/m/{match['id']}/hands/new").status_code == 200  # the last match: still editable


def test_a_new_edit_key_still_revokes_a_phone_that_holds_the_old_one(client, app):
    match = create_match(client)
    phone = app.test_client()
    phone.get(f"/m/{match['id']}/join?key={match['edit_key']}")
    assert phone.get(f"/m/{match['id']}/hands/new").status_code == 200
    rotated = client.post(f"/api/v1/matches/{match['id']}/key", headers=bearer(match["edit_key"]))
    assert rotated.status_code == 200
    assert phone.get(f"/m/{match['id']}/hands/new").status_code == 403


def test_a_new_admin_key_still_revokes_a_phone_that_holds_the_old_one(client, app):
    club = new_club(client)
    phone = app.test_client()
    phone.get(club["admin_url"].replace("http://localhost", ""))
    assert phone.get(f"/c/{club['id']}/admin").status_code == 200
    rotated = client.post(f"/api/v1/clubs/{club['id']}/key", headers=bearer(club["admin_key"]))
    assert rotated.status_code == 200
    assert phone.get(f"/c/{club['id']}/admin").status_code == 403


@pytest.mark.parametrize("cookie", ["", "x", ".eJx", "a.b.c", "." * 3000, "AQ" * 100, "é"])
def test_a_cookie_that_cannot_be_read_is_a_new_session_not_an_error(client, cookie):
    client.set_cookie("session", cookie)
    assert client.get("/").status_code == 200
    assert client.get("/new/barbu").status_code == 200


def test_a_tampered_cookie_is_a_new_session(client):
    match = create_match(client)
    client.get(f"/m/{match['id']}/join?key={match['edit_key']}")
    cookie = cookie_of(client)
    flipped = cookie[:10] + ("A" if cookie[10] != "A" else "B") + cookie[11:]
    client.set_cookie("session", flipped)
    assert client.get(f"/m/{match['id']}/hands/new").status_code == 403


def test_a_cookie_signed_before_cookies_were_sealed_keeps_its_keys_and_is_sealed(client, app):
    """A phone that joined before the upgrade still edits, and its next answer seals its cookie."""
    match = create_match(client)
    legacy = SecureCookieSessionInterface().get_signing_serializer(app)
    with app.test_request_context():
        client.set_cookie("session", legacy.dumps({"matches": [match["id"]], "keys": {match["id"]: match["edit_key"]},
                                                   "_permanent": True}))
    answer = client.get(f"/m/{match['id']}/hands/new")
    assert answer.status_code == 200
    assert_hidden(cookie_of(client), match["edit_key"])
    assert client.get(f"/m/{match['id']}/hands/new").status_code == 200


def test_a_cookie_made_with_another_secret_is_a_new_session(client, app, database_url):
    from scorekeeper.app import create_app

    match = create_match(client)
    client.get(f"/m/{match['id']}/join?key={match['edit_key']}")
    made = create_app({**app.config, "SECRET_KEY": "another secret", "TESTING": True})
    other = made.test_client()
    other.set_cookie("session", cookie_of(client))
    try:
        assert other.get(f"/m/{match['id']}/hands/new").status_code == 403
    finally:
        with made.app_context():  # its connection closes now, not whenever it is collected
            db.session.remove()
            db.engine.dispose()


def test_the_form_token_still_checks_with_a_sealed_cookie(client):
    token = csrf_token(client, "/new/barbu")
    answer = client.post("/new/barbu", data={"csrf_token": token, "players-0": "Ann", "players-1": "Bob",
                                              "players-2": "Cid", "players-3": "Dee"})
    assert answer.status_code in (302, 422)
    assert "too long" not in answer.get_data(as_text=True)


# -- opened only when used ----------------------------------------------------------------------


@pytest.fixture
def openings(monkeypatch) -> list[int]:
    """Each time a session cookie is opened (checked and decrypted)."""
    from scorekeeper.web import session_cookie

    seen: list[int] = []
    real = session_cookie.Sealer.loads

    def counted(self, sealed):
        seen.append(1)
        return real(self, sealed)

    monkeypatch.setattr(session_cookie.Sealer, "loads", counted)
    return seen


def test_the_poll_and_the_static_files_never_open_the_phones_session(client, openings):
    match = create_match(client)
    assert client.get(match["edit_url"]).status_code == 302  # this phone now holds a sealed cookie
    assert client.get(f"/m/{match['id']}").status_code == 200
    assert cookie_of(client)
    openings.clear()
    first = client.get(f"/api/v1/matches/{match['id']}")
    again = client.get(f"/api/v1/matches/{match['id']}", headers={"If-None-Match": first.headers["ETag"]})
    with client.get("/static/style.css") as style:
        assert style.status_code == 200
    assert first.status_code == 200 and again.status_code == 304
    assert openings == []
    for answer in (first, again):
        assert "Set-Cookie" not in answer.headers and "Cookie" not in answer.headers.get("Vary", "")


def test_a_page_that_uses_the_session_opens_it_once_and_keeps_what_it_holds(client, openings):
    match = create_match(client)
    assert client.get(match["edit_url"]).status_code == 302
    openings.clear()
    page = client.get(f"/m/{match['id']}")
    assert page.status_code == 200 and "/hands/new?variant=no_tricks" in page.text  # the edit key, from the session
    assert len(openings) == 1
    assert client.get(f"/m/{match['id']}/hands/new").status_code == 200  # still this phone's to edit


@pytest.mark.parametrize("step", [-300, -3600, 300])
def test_a_clock_stepped_back_or_ahead_keeps_every_phones_keys(client, app, monkeypatch, step):
    """The server's clock steps back five minutes (an NTP step on a laptop), or the cookie's server ran ahead:
    a cookie signed "in the future" is read, and the next cookie written keeps the edit key."""
    import time

    from itsdangerous import TimestampSigner

    made = create_match(client, "kozyol")
    client.get(made["edit_url"])
    signed_at = time.time() - step  # the cookie was signed by a clock this far ahead of the server's now
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: int(signed_at))
    client.get(f"/m/{made['id']}")  # a page view writes the cookie again, signed then
    monkeypatch.undo()
    assert '<form method="post"' in client.get(f"/m/{made['id']}").text  # still this phone's to edit
    client.get("/")  # and the next page that writes the cookie keeps the key
    with client.session_transaction() as session:
        assert made["id"] in session.get("keys", {})


def test_a_cookie_older_than_the_sessions_life_is_still_a_new_session(client, app, monkeypatch):
    import time

    from itsdangerous import TimestampSigner

    made = create_match(client, "kozyol")
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: int(time.time() - 61 * 24 * 3600))
    client.get(made["edit_url"])
    monkeypatch.undo()
    assert '<form method="post"' not in client.get(f"/m/{made['id']}").text
