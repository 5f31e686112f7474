"""The app served for the real-browser tests: in a thread that closes every answer, or in a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import WSGIRequestHandler

SECRET = "browser-test-secret"
# A second server process on the same database, as gunicorn runs several: prints its port.
SERVE = """
import json, sys
from werkzeug.serving import make_server
from scorekeeper.app import create_app
server = make_server("127.0.0.1", int(sys.argv[2]) if len(sys.argv) > 2 else 0, create_app(json.loads(sys.argv[1])),
                     threaded=True)
print(server.server_port, flush=True)
server.serve_forever()
"""


def app_config(database_url: str) -> dict[str, Any]:
    # The same secret in every process: a phone's session (its edit keys) works on all of them.
    return {"TESTING": True, "SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": database_url, "MIGRATE_ON_START": True,
            "RATELIMIT_ENABLED": False, "PDF_RENDER_WAIT": 120}  # as tests/conftest.py: other tests print meanwhile


class Answer:
    """An answer of the app that is closed once, whoever closes it first."""

    current = threading.local()  # the answer of the request this server thread is serving

    def __init__(self, iterable: Any) -> None:
        self.iterable, self.closed = iterable, False

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.iterable)

    def close(self) -> None:
        if not self.closed and hasattr(self.iterable, "close"):
            self.iterable.close()
        self.closed = True


class ClosingHandler(WSGIRequestHandler):
    """Werkzeug's handler, closing the answer even when the phone hung up before reading all of it.

    Werkzeug drains a dropped connection before it closes the answer, and skips the close when that
    read fails (connection reset): a static file stays open, and its ResourceWarning fails a test. A
    page that loads a dozen modules is often mid-answer when its browser closes.
    """

    def run_wsgi(self) -> None:
        Answer.current.answer = None
        try:
            super().run_wsgi()
        finally:
            if Answer.current.answer is not None:
                Answer.current.answer.close()


def closing(app: Any) -> Callable[..., Answer]:
    """The app, its answers kept where ClosingHandler finds them."""

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Answer:
        Answer.current.answer = Answer(app(environ, start_response))
        return Answer.current.answer

    return serve


class ServerProcess:
    """The app in a process of its own on a port that stays the same: a test may kill it and start it again."""

    def __init__(self, database_url: str, log: Path):
        self.config = json.dumps(app_config(database_url))
        self.log = log
        self.port = 0
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        with self.log.open("a") as log:
            process = subprocess.Popen([sys.executable, "-c", SERVE, self.config, str(self.port)],
                                       stdout=subprocess.PIPE, stderr=log, text=True)
        port = process.stdout.readline().strip() if process.stdout else ""
        if not port.isdigit():
            pytest.fail(f"the server did not start: {self.log.read_text()}")
        self.port, self.process = int(port), process
        return self

    def kill(self) -> None:
        """Stop it at once, as a power cut or a crash would: no request in flight gets an answer."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            if self.process.stdout:
                self.process.stdout.close()
            self.process = None
