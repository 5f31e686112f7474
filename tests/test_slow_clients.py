"""Slow phones: clients that send their request a byte at a time do not stall the production server.

A phone on a poor line, or someone holding connections open on purpose, sends the headers of a
request and then its body a byte every second or so. The production command (gunicorn with
gunicorn.conf.py) must go on answering everybody else at once meanwhile. The server here is the
real one, started as tests/test_serving.py starts it (two workers), and every wait is bounded.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest

from helpers.matches import PLAYERS
from helpers.servers import Server, fresh_database, joined_cookie

SLOW_CLIENTS = 8
# More than the database connections of a worker (SQLAlchemy's pool: 5, and 10 more when busy).
SLOW_WRITERS = 40
PROMPT = 1.0  # seconds: what "answered at once" means for a phone at the table
NEW_MATCH = ("application/json", json.dumps({"game": "barbu", "players": PLAYERS}).encode())
HAND_FORM = ("application/x-www-form-urlencoded", b"variant=no_tricks&tricks-0=4&tricks-1=3&tricks-2=5&tricks-3=1")


@pytest.fixture(scope="module")
def server(tmp_path_factory, database: str) -> Iterator[Server]:
    """The production server with its default worker settings, two workers, on a fresh database."""
    folder = tmp_path_factory.mktemp("slow-clients")
    url = fresh_database(folder)
    instance = folder / "instance"
    instance.mkdir()
    started = Server({"SCOREKEEPER_INSTANCE_PATH": str(instance), "SCOREKEEPER_DATABASE_URL": url,
                      "SCOREKEEPER_SECRET_KEY": "slow-clients", "SCOREKEEPER_MIGRATE_ON_START": "false"},
                     folder / "server.log")
    try:
        started.wait_ready()
        yield started
    finally:
        started.stop()


class SlowClients:
    """Connections that send a request's headers, then its body one byte a second, until closed."""

    def __init__(self, port: int, count: int, path: str = "/api/v1/matches", body: tuple[str, bytes] = NEW_MATCH,
                 cookie: str = ""):
        kind, self.body = body
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {kind}\r\n"
                + (f"Cookie: {cookie}\r\n" if cookie else "")
                + f"Content-Length: {len(self.body)}\r\n\r\n").encode()
        self.sockets = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(count)]
        for sock in self.sockets:
            sock.sendall(head)
        self.sent = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.drip, daemon=True)
        self.thread.start()

    def drip(self) -> None:
        while not self.done.wait(1.0) and self.sent < len(self.body) - 1:  # never the last byte
            for sock in self.sockets:
                sock.sendall(self.body[self.sent:self.sent + 1])
            self.sent += 1

    def close(self) -> None:
        self.done.set()
        self.thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def timed_get(url: str) -> tuple[int, float]:
    """Status and seconds of one GET; a server that does not answer within a few seconds fails the test."""
    began = time.monotonic()
    with urllib.request.urlopen(url, timeout=5) as answer:
        answer.read()
        return answer.status, time.monotonic() - began


def new_match(server: Server) -> dict:
    status, _, made = server.call("POST", "/api/v1/matches", {"game": "barbu", "players": PLAYERS})
    assert status == 201, made
    return json.loads(made)


def answered_promptly(server: Server, slow: SlowClients, pages: list[str]) -> None:
    """Ask for each page five times while the slow clients trickle; each answer comes within PROMPT."""
    try:
        time.sleep(1.5)  # every slow connection accepted, its headers read, its body trickling in
        timings = []
        for _ in range(5):
            for page in pages:
                status, seconds = timed_get(page)
                assert status == 200
                timings.append(seconds)
            time.sleep(0.5)
        assert slow.sent >= 3, "the slow clients were still sending while the pages were asked for"
    finally:
        slow.close()
    assert max(timings) < PROMPT, f"slowest answer {max(timings):.2f} s; all: {[round(t, 3) for t in timings]}"


def test_a_phone_is_answered_at_once_while_slow_clients_hold_connections(server: Server):
    made = new_match(server)
    answered_promptly(server, SlowClients(server.port, SLOW_CLIENTS), [server.base + "/", server.base + made["url"]])
    # The server is unharmed afterwards: it still creates matches.
    assert new_match(server)["id"]


def test_slow_phones_sending_hands_hold_no_database_connection_while_they_send(server: Server):
    """Phones holding the edit key, each sending a hand slowly: more than a worker's database connections."""
    made = new_match(server)
    cookie = joined_cookie(server.port, made["id"], made["edit_key"])
    slow = SlowClients(server.port, SLOW_WRITERS, f"/m/{made['id']}/hands/new", HAND_FORM, cookie)
    answered_promptly(server, slow, [server.base + made["url"], server.base + made["url"] + "/table"])
