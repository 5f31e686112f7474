"""The request size limits gunicorn answers before the app runs: the ones documented, and its own plain pages.

gunicorn.conf.py sets them; the OpenAPI document's description and README ("Request size
limits") state the same numbers, and a real server refuses past them with gunicorn's HTML page,
under /api/ too, where everything the app answers is JSON.
"""

from __future__ import annotations

import ast
import html
import re
import socket
from collections.abc import Iterator

import pytest

from helpers.servers import ROOT, Server, fresh_database
from scorekeeper.games import GAMES
from scorekeeper.games.base import NAME_MAX
from scorekeeper.web.api.openapi import document

LIMITS = ("limit_request_line", "limit_request_fields", "limit_request_field_size")


def configured() -> dict[str, int]:
    """The limits as gunicorn.conf.py sets them (read, not run: the file imports the app under gthread)."""
    tree = ast.parse((ROOT / "gunicorn.conf.py").read_text())
    found = {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
             for target in node.targets if isinstance(target, ast.Name) and target.id in LIMITS
             and isinstance(node.value, ast.Constant)}
    assert set(found) == set(LIMITS), "gunicorn.conf.py sets each limit to a number"
    return found


def stated(text: str) -> dict[str, int]:
    """The limits a text states, in the words README and the OpenAPI document use."""
    patterns = {"limit_request_line": r"request line [^.;]*?longer than ([\d,]+) bytes[^.;]*?\b414\b",
                "limit_request_fields": r"more than ([\d,]+) header fields[^.;]*?\b431\b",
                "limit_request_field_size": r"header field longer than ([\d,]+) bytes[^.;]*?\b431\b"}
    said = {}
    for name, pattern in patterns.items():
        found = re.search(pattern, " ".join(text.split()))
        assert found, f"{name} is not stated: {pattern}"
        said[name] = int(found.group(1).replace(",", ""))
    return said


def readme_section() -> str:
    readme = (ROOT / "README.md").read_text()
    serve = readme.split("\n## Serve it for a club\n", 1)[1].split("\n## ", 1)[0]
    assert "\n### Request size limits\n" in serve, "README: the subsection is in 'Serve it for a club'"
    return serve.split("\n### Request size limits\n", 1)[1].split("\n### ", 1)[0]


def test_the_openapi_document_states_gunicorns_limits():
    description = document()["info"]["description"]
    assert stated(description) == configured()
    assert "gunicorn" in description and "HTML" in description


def test_readme_states_gunicorns_limits():
    section = readme_section()
    assert stated(section) == configured()
    assert "gunicorn.conf.py" in section and "HTML" in section


def test_the_longest_link_the_app_makes_fits_the_request_line(client):
    """A blank Hearts sheet's PDF link with the most names, each the longest name of four-byte characters."""
    game = GAMES["hearts"]
    names = [chr(0x1F600 + seat) * NAME_MAX for seat in range(game.max_players)]
    page = client.get("/sheets/hearts", query_string=[("players", name) for name in names])
    link = html.unescape(re.search(r'href="(/sheets/hearts\.pdf\?[^"]+)"', page.text).group(1))
    assert len(f"GET {link} HTTP/1.1") <= configured()["limit_request_line"]


# -- a real server -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory, database: str) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("limits")
    instance = folder / "instance"
    instance.mkdir()
    running = Server({"SCOREKEEPER_INSTANCE_PATH": str(instance), "SCOREKEEPER_DATABASE_URL": fresh_database(folder),
                      "SCOREKEEPER_SECRET_KEY": "limits", "SCOREKEEPER_MIGRATE_ON_START": "false"},
                     folder / "server.log", workers=1)
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


def raw(server: Server, head: bytes) -> tuple[int, str, bytes]:
    """Send a request head as bytes; the status, Content-Type and body of the answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        connection.sendall(head)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    headers, _, body = rest.partition(b"\r\n\r\n")
    kind = next((line.split(b":", 1)[1].strip().decode() for line in headers.split(b"\r\n")
                 if line.lower().startswith(b"content-type:")), "")
    return int(status_line.split()[1]), kind, body


def request(path: str, headers: list[str] = ()) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json", "Connection: close", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


@pytest.mark.parametrize(("name", "status", "head"), [
    ("limit_request_line", 414, lambda limits: request("/api/v1/matches/" + "x" * limits["limit_request_line"])),
    ("limit_request_fields", 431, lambda limits: request("/api/v1/openapi.json", [
        f"X-Field-{n}: {n}" for n in range(limits["limit_request_fields"] + 1)])),
    ("limit_request_field_size", 431, lambda limits: request("/api/v1/openapi.json", [
        "X-Long: " + "x" * limits["limit_request_field_size"]])),
    ("unreadable", 400, lambda limits: b"GET /api/v1/openapi.json HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n"),
])
def test_past_a_limit_the_api_gets_gunicorns_plain_page(server: Server, name: str, status: int, head):
    answered, kind, body = raw(server, head(configured()))
    assert answered == status, (name, body[:200])
    assert kind.startswith("text/html") and b"<html>" in body, name


def test_within_the_limits_the_app_answers(server: Server):
    limits = configured()
    fields = [f"X-Field-{n}: {n}" for n in range(limits["limit_request_fields"] - 10)]
    status, kind, _body = raw(server, request("/api/v1/openapi.json?" + "x" * (limits["limit_request_line"] - 100),
                                              [*fields, "X-Long: " + "x" * (limits["limit_request_field_size"] - 100)]))
    assert status == 200 and kind == "application/json"
