"""Real servers for the tests that need more than one process: gunicorn on ports of their own, one database."""

from __future__ import annotations

import contextlib
import html
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from helpers.databases import POSTGRES_URL, reset_postgres
from scorekeeper.app import create_app
from scorekeeper.db import db

ROOT = Path(__file__).resolve().parents[2]
TOTALS = re.compile(r'<span class="name"[^>]*>([^<]*)</span> <span class="total">(-?\d+)</span>')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One gunicorn (production settings, two workers of two threads) on a port of its own, or on the port given."""

    def __init__(self, settings: dict[str, str], log: Path, workers: int = 2, port: int | None = None,
                 config: Path = ROOT / "gunicorn.conf.py"):
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, **settings, "SCOREKEEPER_BIND": f"127.0.0.1:{self.port}",
               "SCOREKEEPER_WORKERS": str(workers), "SCOREKEEPER_THREADS": "2"}
        env.pop("SCOREKEEPER_TEST_DATABASE_URL", None)
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "--config", str(config)],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            try:
                with urllib.request.urlopen(self.base + "/", timeout=5):
                    return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"the server on {self.base} did not answer: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
             ) -> tuple[int, dict[str, str], bytes]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={
            **({"Content-Type": "application/json"} if data is not None else {}), **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as err:
            with err:
                return err.code, dict(err.headers), err.read()

    def state(self, public_id: str) -> dict[str, Any]:
        status, _, body = self.call("GET", f"/api/v1/matches/{public_id}")
        assert status == 200, body
        return json.loads(body)

    def page_totals(self, public_id: str, headers: dict[str, str] | None = None) -> dict[str, int]:
        status, _, body = self.call("GET", f"/m/{public_id}", headers=headers)
        assert status == 200
        return {html.unescape(name): int(total) for name, total in TOTALS.findall(body.decode())}


def fresh_database(folder: Path) -> str:
    """The URL of an empty database migrated to the newest schema (PostgreSQL when tested on it), for servers."""
    url = POSTGRES_URL or f"sqlite:///{folder / 'shared.sqlite'}"
    if POSTGRES_URL:
        reset_postgres(POSTGRES_URL)
    migrated = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": url, "MIGRATE_ON_START": True})
    with migrated.app_context():
        db.engine.dispose()
    return url


@contextlib.contextmanager
def two_servers(folder: Path, secret: str, **settings: str) -> Iterator[tuple[Server, Server]]:
    """Two servers sharing one freshly migrated database and one secret key, as behind a load balancer.

    Each has its own instance folder: nothing is shared but the database (and whatever settings share).
    """
    url = fresh_database(folder)
    started = []
    try:
        for name in ("one", "two"):
            instance = folder / name
            instance.mkdir()
            started.append(Server({"SCOREKEEPER_INSTANCE_PATH": str(instance), "SCOREKEEPER_DATABASE_URL": url,
                                   "SCOREKEEPER_SECRET_KEY": secret, "SCOREKEEPER_MIGRATE_ON_START": "false",
                                   **settings}, folder / f"{name}.log"))
        for server in started:
            server.wait_ready()
        yield started[0], started[1]
    finally:
        for server in started:
            server.stop()


def joined_cookie(port: int, public_id: str, key: str) -> str:
    """The session cookie of a phone that opened the edit link on the server at port."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", f"/m/{public_id}/join?key={key}")
    joined = connection.getresponse()
    joined.read()
    connection.close()
    assert joined.status == 302
    return joined.getheader("Set-Cookie").split(";", 1)[0]
