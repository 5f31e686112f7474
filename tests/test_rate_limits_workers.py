"""Rate limits on one machine: the production server's workers count together, with no Redis.

The server is the real one (gunicorn.conf.py, four gevent workers), started as tests/test_serving.py
starts it, with a temporary instance folder and no RATELIMIT_STORAGE_URI: the out-of-the-box setup of
a laptop at a club. The requests go over connections opened one by one and kept open, which the workers
take in turn; /proc says which worker took each, and each test uses at least two.
"""

from __future__ import annotations

import http.client
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.api import bearer
from helpers.matches import FIRST_HAND, NEW
from helpers.servers import Server, fresh_database

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="finds the workers through Linux's /proc")

LIMITS = {"SCOREKEEPER_RATELIMIT_ENABLED": "true", "SCOREKEEPER_RATELIMIT_STORAGE_URI": "",
          "SCOREKEEPER_RATELIMIT_NEW_CLUBS": "5 per minute", "SCOREKEEPER_RATELIMIT_WRONG_KEYS": "3 per minute"}


@pytest.fixture(scope="module")
def server(tmp_path_factory, database: str) -> Iterator[Server]:
    """The production server with four workers, its rate limits on and counted where it counts them by default."""
    folder = tmp_path_factory.mktemp("limits-workers")
    url = fresh_database(folder)
    instance = folder / "instance"
    instance.mkdir()
    started = Server({"SCOREKEEPER_INSTANCE_PATH": str(instance), "SCOREKEEPER_DATABASE_URL": url,
                      "SCOREKEEPER_SECRET_KEY": "limits-workers", "SCOREKEEPER_MIGRATE_ON_START": "false", **LIMITS},
                     folder / "server.log", workers=4)
    try:
        started.wait_ready()
        yield started
    finally:
        started.stop()


def phones(server: Server, count: int) -> list[tuple[http.client.HTTPConnection, int]]:
    """At least count connections and the worker holding each, opened one by one until two workers or more hold them."""
    opened: list[tuple[http.client.HTTPConnection, int]] = []
    while len(opened) < count or len({worker for _, worker in opened}) < 2:
        assert len(opened) < 100, "a hundred connections all went to one worker"
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.connect()
        opened.append((connection, worker_of(server, connection)))
    return opened


def ask(connection: http.client.HTTPConnection, path: str, body: object, headers: dict[str, str] | None = None,
        ) -> http.client.HTTPResponse:
    """POST body as JSON on a connection that stays open (keep-alive); the answer, read."""
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json", **(headers or {})})
    answer = connection.getresponse()
    answer.read()
    return answer


def worker_of(server: Server, connection: http.client.HTTPConnection, wait: float = 5) -> int:
    """The pid of the worker that accepted connection: the one holding its server end's socket (from /proc)."""
    ends = (f":{server.port:04X}", f":{connection.sock.getsockname()[1]:04X}")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
        inodes = {fields[9] for fields in map(str.split, lines) if (fields[1][-5:], fields[2][-5:]) == ends} - {"0"}
        for stat in Path("/proc").glob("[0-9]*/stat") if inodes else ():
            try:
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) != server.process.pid:
                    continue
                if any(os.readlink(fd) in {f"socket:[{inode}]" for inode in inodes} for fd in (stat.parent / "fd").iterdir()):
                    return int(stat.parent.name)
            except OSError:  # a process that ended meanwhile
                continue
        time.sleep(0.01)  # not accepted yet
    raise AssertionError(f"no worker accepted the connection from port {connection.sock.getsockname()[1]}")


def test_the_workers_of_one_server_share_one_count_of_new_clubs(server: Server):
    tables = phones(server, 12)
    answers = [ask(phone, "/api/v1/clubs", {"name": f"Table {n}"}) for n, (phone, _) in enumerate(tables)]
    for phone, _ in tables:
        phone.close()
    assert len({worker for _, worker in tables}) >= 2
    assert [answer.status for answer in answers] == [201] * 5 + [429] * (len(tables) - 5)
    assert all(1 <= int(answer.headers["Retry-After"]) <= 60 for answer in answers[5:])


def test_wrong_keys_sent_to_different_workers_are_counted_together(server: Server):
    status, _, body = server.call("POST", "/api/v1/matches", NEW)
    assert status == 201, body
    match = json.loads(body)
    path = f"/api/v1/matches/{match['id']}/hands"
    guessers = phones(server, 8)
    answers = [ask(phone, path, FIRST_HAND, bearer("guess")).status for phone, _ in guessers]
    right = ask(guessers[-1][0], path, FIRST_HAND, bearer(match["edit_key"])).status
    for phone, _ in guessers:
        phone.close()
    assert len({worker for _, worker in guessers}) >= 2
    assert answers == [403] * 3 + [429] * (len(guessers) - 3)
    assert right == 201  # a right key is never refused
