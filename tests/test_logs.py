"""The logs hold no key: not gunicorn's access log or error log, nor the app's, nor the dev server's.

Edit links carry a match's edit key (/m/<id>/join?key=...), admin links a club's admin key
(/c/<id>/join/<key>), API writes send a key as Authorization: Bearer, and the session cookie
holds every key a phone has opened. Whoever reads a log must find none of them there.
"""

from __future__ import annotations

import http.client
import json
import logging
import shlex
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from flask import Flask
from werkzeug.serving import make_server

from helpers.api import bearer, create_match
from helpers.matches import PLAYERS
from helpers.purity import WEB_PACKAGES, run_python
from helpers.servers import Server, fresh_database
from scorekeeper.logs import REDACTED, RedactedAtoms, Redacting, redact, redact_atom

# The default access log line, and every atom a deployer may add that can carry a key.
FORMAT = ('%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" path=%(U)s query=%(q)s '
          'auth="%({authorization}i)s" referer="%({referer}i)s" cookie="%({cookie}i)s" '
          'set-cookie="%({set-cookie}o)s" location="%({location}o)s" uri="%({raw_uri}e)s" '
          'environ-auth="%({http_authorization}e)s"')
NO_TRICKS = {"contract": "no_tricks", "tricks": {"Ann": 4, "Bob": 3, "Cid": 5, "Dee": 1}}
KEY = "CHUqhVopEq8oszCRwMzR8ffjUA1Ns67J"  # the shape of every key: secrets.token_urlsafe(24)
R = REDACTED


# -- the redaction, line by line ------------------------------------------------------------------


@pytest.mark.parametrize(("line", "logged"), [
    # the edit link's ?key=, however it is spelled
    ("GET /m/AbC/join?key=s3cret HTTP/1.1", f"GET /m/AbC/join?key={R} HTTP/1.1"),
    ("GET /m/AbC/join?KEY=s3cret HTTP/1.1", f"GET /m/AbC/join?KEY={R} HTTP/1.1"),
    ("GET /m/AbC/join?Key=s3cret", f"GET /m/AbC/join?Key={R}"),
    ("GET /m/AbC/join?%6Bey=s3cret", f"GET /m/AbC/join?%6Bey={R}"),
    ("GET /m/AbC/join?%4B%45%59=s3cret", f"GET /m/AbC/join?%4B%45%59={R}"),
    ("GET /m/AbC/join?%256Bey=s3cret", f"GET /m/AbC/join?%256Bey={R}"),
    ("GET /m/AbC/join?key%3Ds3cret", f"GET /m/AbC/join?key%3D{R}"),
    ("GET /m/AbC/join?key==s3cret", f"GET /m/AbC/join?key={R}"),
    ("GET /m/AbC/join?key=%73%33cret", f"GET /m/AbC/join?key={R}"),
    ("GET /m/AbC/join?key=s3cret;x=1", f"GET /m/AbC/join?key={R}"),
    ("GET /m/AbC/join?x=1;key=s3cret", f"GET /m/AbC/join?x=1;key={R}"),
    ("GET /m/AbC/join?key=one&key=two&season=3", f"GET /m/AbC/join?key={R}&key={R}&season=3"),
    ("GET /m/AbC/join?edit_key=s3cret", f"GET /m/AbC/join?edit_key={R}"),
    ("GET /m/AbC/join?key[]=s3cret", f"GET /m/AbC/join?key[]={R}"),
    ("GET /?next=%2Fm%2FAbC%2Fjoin%3Fkey%3Ds3cret", f"GET /?next=%2Fm%2FAbC%2Fjoin%3Fkey%3D{R}"),
    ("https://x.example/m/AbC/join?key=s3cret#share", f"https://x.example/m/AbC/join?key={R}#share"),
    ("query=key=s3cret", f"query=key={R}"),
    # the admin link's segment after /join/
    ("GET /c/AbC/join/s3cret HTTP/1.1", f"GET /c/AbC/join/{R} HTTP/1.1"),
    ("GET /c/AbC/join/s3cret/ HTTP/1.1", f"GET /c/AbC/join/{R}/ HTTP/1.1"),
    ("GET /c/AbC/join/s3cret/more?x=1", f"GET /c/AbC/join/{R}/more?x=1"),
    ("GET //c/AbC/join/s3cret", f"GET //c/AbC/join/{R}"),
    ("GET /c/AbC/join//s3cret", f"GET /c/AbC/join//{R}"),
    ("GET /c/AbC/%6Aoin/s3cret", f"GET /c/AbC/%6Aoin/{R}"),
    ("GET /c/AbC/JOIN/s3cret", f"GET /c/AbC/JOIN/{R}"),
    ("GET /c/AbC/join%2Fs3cret", f"GET /c/AbC/join%2F{R}"),
    ("GET /c/AbC/join/s3%63ret%2Fx", f"GET /c/AbC/join/{R}"),
    ("GET /c/AbC/join/s3cret?key=s3cret", f"GET /c/AbC/join/{R}?key={R}"),
    # request lines gunicorn refuses, as its error log quotes them
    ("Invalid HTTP request line: 'GET /c/AbC/join/s3cret\\x01 HTTP/1.1'",
     f"Invalid HTTP request line: 'GET /c/AbC/join/{R}\\x01 HTTP/1.1'"),
    ("Invalid HTTP request line: 'GET /m/AbC/join?key=s3cret'", f"Invalid HTTP request line: 'GET /m/AbC/join?key={R}'"),
    # a Bearer credential
    ("Bearer s3cret", f"Bearer {R}"),
    ("authorization: bearer  s3cret, other", f"authorization: bearer  {R}, other"),
    ("BEARER%20s3cret", f"BEARER%20{R}"),
    # a key of the app's shape, wherever it stands
    (f"GET /elsewhere/{KEY} HTTP/1.1", f"GET /elsewhere/{R} HTTP/1.1"),
    (f"GET /c/AbC/x%2F{KEY} HTTP/1.1", f"GET /c/AbC/x%2F{R} HTTP/1.1"),
    (f"GET /c/AbC/x%25{KEY}", f"GET /c/AbC/x%25{R}"),
    (f"{{'keys': {{'AbC': '{KEY}'}}}}", f"{{'keys': {{'AbC': '{R}'}}}}"),
])
def test_a_key_is_taken_out_of_a_line(line: str, logged: str):
    assert redact(line) == logged
    assert redact(logged) == logged  # twice is the same as once


@pytest.mark.parametrize("line", [
    '127.0.0.1 - - [01/Dec/2026:19:13:59 +0000] "GET /m/d3voXng0I4uchrSHAji8nA HTTP/1.1" 200 5730 "-" "Mozilla/5.0"',
    "GET /m/AbC/join HTTP/1.1",
    "POST /api/v1/matches/d3voXng0I4uchrSHAji8nA/key HTTP/1.1",
    "POST /api/v1/clubs/d3voXng0I4uchrSHAji8nA/key?season=2 HTTP/1.1",
    "GET /c/AbC/admin?season=all&game=barbu HTTP/1.1",
    "GET /m/AbC/join?key= HTTP/1.1",
    "Idempotency-Key: 0f8fad5b-d9cb-469f-a165-70867728950e",
    "ETag: 5d41402abc4b2a76b9719d911017c592",  # a digest, not a key
    "[2026-12-01 19:14:11 +0000] [16545] [INFO] Listening at: http://127.0.0.1:50605 (16545)",
])
def test_a_line_without_a_key_is_left_as_it_was(line: str):
    assert redact(line) == line


@pytest.mark.parametrize(("atom", "value", "logged"), [
    ("{authorization}i", "Bearer s3cret", f"Bearer {R}"),
    ("{authorization}i", "s3cret", R),
    ("{authorization}i", "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==", f"Basic {R}"),
    ("{proxy-authorization}i", "Bearer s3cret", f"Bearer {R}"),
    ("{http_authorization}e", "Bearer s3cret", f"Bearer {R}"),
    ("{cookie}i", "session=s3cret; theme=dark", f"session={R}; theme={R}"),
    ("{http_cookie}e", "session=s3cret", f"session={R}"),
    ("{set-cookie}o", "session=s3cret; Expires=Sat, 30 Jan 2027 19:14:15 GMT; HttpOnly; Path=/",
     f"session={R}; Expires=Sat, 30 Jan 2027 19:14:15 GMT; HttpOnly; Path=/"),
    ("{referer}i", "https://x.example/m/AbC/join?key=s3cret", f"https://x.example/m/AbC/join?key={R}"),
    ("{location}o", "/c/AbC/join/s3cret", f"/c/AbC/join/{R}"),
    ("{raw_uri}e", "/m/AbC/join?key=s3cret", f"/m/AbC/join?key={R}"),
    ("{query_string}e", "key=s3cret", f"key={R}"),
    ("r", "GET /m/AbC/join?key=s3cret HTTP/1.1", f"GET /m/AbC/join?key={R} HTTP/1.1"),
    ("u", KEY, R),
    ("q", "KEY=s3cret", f"KEY={R}"),
    ("U", "/c/AbC/join/s3cret", f"/c/AbC/join/{R}"),
    ("{idempotency-key}i", "0f8fad5b-d9cb-469f-a165-70867728950e", "0f8fad5b-d9cb-469f-a165-70867728950e"),
    ("{user-agent}i", "Mozilla/5.0 (Android 14)", "Mozilla/5.0 (Android 14)"),
    ("s", "302", "302"),
    ("B", None, None),
    ("D", 1234, 1234),
])
def test_each_access_log_atom_is_logged_without_its_key(atom: str, value, logged):
    assert redact_atom(atom, value) == logged


def test_an_access_log_format_gets_every_atom_redacted():
    atoms = {"r": "GET /m/AbC/join?key=s3cret HTTP/1.1", "s": "302", "{authorization}i": "Bearer s3cret",
             "{cookie}i": "session=s3cret", "{werkzeug.request}e": f"<Request 'http://x/c/AbC/join/{KEY}' [GET]>"}
    access_log_format = '"%(r)s" %(s)s auth="%({Authorization}i)s" cookie="%({COOKIE}i)s" %({werkzeug.request}e)s %(b)s'
    line = access_log_format % RedactedAtoms(atoms)  # as gunicorn formats it, unknown atoms as "-"
    assert line == (f'"GET /m/AbC/join?key={R} HTTP/1.1" 302 auth="Bearer {R}" cookie="session={R}" '
                    f"<Request 'http://x/c/AbC/join/{R}' [GET]> -")


def test_a_record_loses_its_keys_from_message_arguments_and_traceback():
    record = logging.LogRecord("scorekeeper.app", logging.ERROR, __file__, 1, "Error handling request %s",
                               ("/m/AbC/join?key=s3cret",), None)
    try:
        raise ValueError(f"no club at /c/AbC/join/{KEY}")
    except ValueError as err:
        record.exc_info = (type(err), err, err.__traceback__)
    assert Redacting().filter(record)
    written = logging.Formatter().format(record)
    assert "s3cret" not in written and KEY not in written
    assert f"Error handling request /m/AbC/join?key={R}" in written
    assert f"ValueError: no club at /c/AbC/join/{R}" in written


@dataclass
class Logged:
    """What a server wrote while a phone used an edit link, an admin link and the API."""

    access: str
    errors: str
    match_id: str
    club_id: str
    secrets: dict[str, str]  # what must appear in no log line, by what it is


def exchange(port: int, method: str, path: str, headers: dict[str, str] | None = None,
             body: bytes | None = None) -> http.client.HTTPResponse:
    """One request on a connection of its own, redirects not followed; the answer read."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        answer.read()
        return answer
    finally:
        connection.close()


def raw(port: int, request: bytes) -> None:
    """Send bytes as they are (a malformed request line), and read whatever comes back."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        while sock.recv(4096):
            pass


def cookie_of(answer: http.client.HTTPResponse) -> str:
    return answer.getheader("Set-Cookie").split(";", 1)[0]


def use_the_links(server: Server) -> tuple[str, str, dict[str, str]]:
    """Make a match and a club, open both links, play a hand, and try the variants a probe would."""
    status, _, body = server.call("POST", "/api/v1/matches", {"game": "barbu", "players": PLAYERS})
    assert status == 201, body
    match = json.loads(body)
    status, _, body = server.call("POST", "/api/v1/clubs", {"name": "Thursday club"})
    assert status == 201, body
    club = json.loads(body)
    edit_key, admin_key = match["edit_key"], club["admin_key"]
    edit_path, admin_path = urlsplit(match["edit_url"]).path, urlsplit(club["admin_url"]).path
    edit_link = edit_path + "?" + urlsplit(match["edit_url"]).query
    port = server.port

    joined = exchange(port, "GET", edit_link)
    assert joined.status == 302
    edit_cookie = cookie_of(joined)
    page = exchange(port, "GET", f"/m/{match['id']}", {"Cookie": edit_cookie, "Referer": match["edit_url"]})
    assert page.status == 200
    admin = exchange(port, "GET", admin_path)
    assert admin.status == 302
    admin_cookie = cookie_of(admin)
    page = exchange(port, "GET", f"/c/{club['id']}/admin", {"Cookie": admin_cookie, "Referer": club["admin_url"]})
    assert page.status == 200
    played = exchange(port, "POST", f"/api/v1/matches/{match['id']}/hands",
                      {**bearer(edit_key), "Content-Type": "application/json"}, json.dumps(NO_TRICKS).encode())
    assert played.status == 201

    # The same keys as a probe would spell them: letters in another case, percent-encoded, repeated,
    # after a semicolon, with slashes doubled or a trailing part; and a request line gunicorn refuses.
    for variant in (f"{edit_path}?KEY={edit_key}", f"{edit_path}?%6Bey={edit_key}&key={edit_key}",
                    f"{edit_path}?x=1;key={edit_key}", f"{edit_path}?key=%{ord(edit_key[0]):02X}{edit_key[1:]}",
                    f"{admin_path}/", f"/{admin_path}", admin_path.replace("/join/", "/%6Aoin/")):
        exchange(port, "GET", variant)
    raw(port, f"GET {edit_link}\r\n\r\n".encode())
    raw(port, f"GET {edit_link}\x7f HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    raw(port, f"GET {admin_path}/\x01 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    raw(port, f"GET {admin_path} HTTP/1.1\r\nAuthorization: Bearer {admin_key}\x01\r\n\r\n".encode())
    secrets = {"edit key": edit_key, "admin key": admin_key,
               "edit cookie": edit_cookie.split("=", 1)[1], "admin cookie": admin_cookie.split("=", 1)[1]}
    return match["id"], club["id"], secrets


@pytest.fixture(scope="module")
def logged(tmp_path_factory, database: str) -> Logged:
    """The production server (gunicorn.conf.py, one gevent worker) logging every atom that can carry a key."""
    folder = tmp_path_factory.mktemp("logs")
    url = fresh_database(folder)
    instance = folder / "instance"
    instance.mkdir()
    access = folder / "access.log"
    server = Server({"SCOREKEEPER_INSTANCE_PATH": str(instance), "SCOREKEEPER_DATABASE_URL": url,
                     "SCOREKEEPER_SECRET_KEY": "logs", "SCOREKEEPER_MIGRATE_ON_START": "false",
                     "SCOREKEEPER_ACCESS_LOG": str(access),
                     "GUNICORN_CMD_ARGS": f"--access-logformat {shlex.quote(FORMAT)}"},
                    folder / "error.log", workers=1)
    try:
        server.wait_ready()
        match_id, club_id, secrets = use_the_links(server)
    finally:
        server.stop()
    return Logged(access.read_text(), server.log.read_text(), match_id, club_id, secrets)


def test_no_key_reaches_the_access_log_or_the_error_log(logged: Logged):
    for name, secret in logged.secrets.items():
        for log, text in (("access", logged.access), ("error", logged.errors)):
            lines = [line for line in text.splitlines() if secret in line]
            assert lines == [], f"the {name} is in the {log} log"


def test_the_access_log_still_says_what_each_request_was(logged: Logged):
    for request in (f'"GET /m/{logged.match_id}/join?key=[redacted] HTTP/1.1" 302',
                    f'"GET /c/{logged.club_id}/join/[redacted] HTTP/1.1" 302',
                    f'"GET /c/{logged.club_id}/admin HTTP/1.1" 200',
                    f'"POST /api/v1/matches/{logged.match_id}/hands HTTP/1.1" 201'):
        assert request in logged.access
    assert 'auth="Bearer [redacted]"' in logged.access
    assert 'cookie="session=[redacted]"' in logged.access


def test_the_logger_class_loads_in_the_gunicorn_master_without_the_app():
    loaded = run_python("import sys, scorekeeper.logs; print(' '.join(sorted(sys.modules)))").split()
    assert not {name.split(".")[0] for name in loaded} & WEB_PACKAGES


# -- the app's own log and the dev server's (python3 manage.py run) ----------------------------


@pytest.fixture
def dev_server(app: Flask) -> Iterator[int]:
    """The app served by werkzeug's development server, as `flask run` serves it; yields its port."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_the_dev_server_logs_each_request_line_without_its_key(dev_server: int, client, caplog):
    match = create_match(client)
    club = client.post("/api/v1/clubs", json={"name": "Thursday club"}).get_json()
    caplog.set_level(logging.INFO, logger="werkzeug")
    edit, admin = urlsplit(match["edit_url"]), urlsplit(club["admin_url"])
    assert exchange(dev_server, "GET", f"{edit.path}?{edit.query}").status == 302
    assert exchange(dev_server, "GET", admin.path).status == 302
    raw(dev_server, f"GET {admin.path} HTTP/1.1 and more\r\n\r\n".encode())
    lines = [record.getMessage() for record in caplog.records if record.name == "werkzeug"]
    assert any(f'GET /m/{match["id"]}/join?key={R} HTTP/1.1' in line for line in lines), lines
    assert any(f'GET /c/{club["id"]}/join/{R} HTTP/1.1' in line for line in lines), lines
    for key in (match["edit_key"], club["admin_key"]):
        assert key not in caplog.text


def test_the_app_logs_an_error_without_its_key(app: Flask, caplog):
    try:
        raise RuntimeError(f"the link /c/AbC/join/{KEY} broke")
    except RuntimeError:
        app.logger.exception("unhandled error on %s", "/m/AbC/join?key=s3cret")
    assert f"unhandled error on /m/AbC/join?key={R}" in caplog.text
    assert f"the link /c/AbC/join/{R} broke" in caplog.text
    assert KEY not in caplog.text and "s3cret" not in caplog.text
