"""A database restart is a blip: a dropped connection is replaced before use, and a write that loses its
connection midway is answered 503 with Retry-After (the API's JSON), never a 500, and saves nothing.

PostgreSQL only: its server drops the connections (pg_terminate_backend, as a restart does); SQLite has none.
A database that does not answer at all (stopped, or restarting for real under the requests) is answered 503
too, reads and polls included: those tests stop and restart a PostgreSQL of their own (helpers/private_postgres.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from helpers.api import bearer
from helpers.i18n import seen
from helpers.matches import PLAYERS
from helpers.private_postgres import PrivatePostgres, private_postgres
from helpers.servers import free_port
from scorekeeper.app import create_app
from scorekeeper.db import db

DEAL = {"points": [75, 45]}
SAYS = "The server cannot save right now"
SOME_MATCH = "sknOiy1OD_q1TOk1rUbEkA"  # a well-formed id: the database must be asked about it


@pytest.fixture
def server(app: Flask, database: str, request: pytest.FixtureRequest) -> Any:
    if database == "sqlite":
        pytest.skip("a database server's restart is PostgreSQL's: SQLite is a file")
    return request.getfixturevalue("postgres")


def drop_connections(server: Any, app: Flask) -> None:
    """Every connection of the test database dropped by its server, as a restart drops them."""
    name = app.config["SQLALCHEMY_DATABASE_URI"].rsplit("/", 1)[1]
    server.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' "
                   "AND pid <> pg_backend_pid()")


def test_after_the_server_dropped_every_connection_the_next_requests_are_answered(app: Flask, server: Any):
    client = app.test_client()
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
    for _ in range(3):  # the pool now holds connections
        assert client.get(f"/api/v1/matches/{made['id']}").status_code == 200
    drop_connections(server, app)
    assert client.get(f"/api/v1/matches/{made['id']}").status_code == 200
    assert client.get(f"/m/{made['id']}").status_code == 200
    saved = client.post(f"/api/v1/matches/{made['id']}/hands", json=DEAL, headers=bearer(made["edit_key"]))
    assert saved.status_code == 201


def test_a_write_that_loses_its_connection_midway_is_503_and_saves_nothing(app: Flask, server: Any):
    client = app.test_client()
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
    dropped = []

    def drop_on_insert(connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO HANDS") and not dropped:
            dropped.append(True)
            drop_connections(server, app)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", drop_on_insert)
    headers = {**bearer(made["edit_key"]), "Idempotency-Key": "deal-1"}
    lost = client.post(f"/api/v1/matches/{made['id']}/hands", json=DEAL, headers=headers)
    assert dropped and lost.status_code == 503, lost.get_data(as_text=True)[:300]
    assert lost.get_json()["error"]["message"].startswith("The server cannot save right now")
    assert int(lost.headers["Retry-After"]) > 0
    assert client.get(f"/api/v1/matches/{made['id']}").get_json()["hands"] == []
    again = client.post(f"/api/v1/matches/{made['id']}/hands", json=DEAL, headers=headers)
    assert again.status_code == 201 and len(client.get(f"/api/v1/matches/{made['id']}").get_json()["hands"]) == 1


def app_on(url: str, migrate: bool = False) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": url,
                       "MIGRATE_ON_START": migrate, "RATELIMIT_ENABLED": False})


def closed(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def said_503(answer: Any) -> bool:
    return answer.status_code == 503 and int(answer.headers.get("Retry-After", 0)) > 0


def test_a_database_that_does_not_answer_is_503_for_reads_polls_pages_and_writes():
    """Nothing listens on the database's port (a server stopped, or not started yet): every request that needs it
    says to try again in a moment, the API in its JSON error shape, a page as a page; none is a 500."""
    app = app_on(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/scorekeeper")
    client = app.test_client()
    path = f"/api/v1/matches/{SOME_MATCH}"
    for answer in (client.get(path),
                   client.get(path, headers={"If-None-Match": '"v1"'}),  # a phone's poll
                   client.post(f"{path}/hands", json=DEAL, headers={**bearer("k" * 22), "Idempotency-Key": "deal-1"})):
        assert said_503(answer), (answer.request.path, answer.status_code, answer.get_data(as_text=True)[:300])
        assert answer.get_json()["error"]["message"].startswith(SAYS)
    page = client.get(f"/m/{SOME_MATCH}")
    assert said_503(page) and page.mimetype == "text/html"
    assert SAYS in seen(page.text) and "Traceback" not in page.text and "psycopg" not in page.text
    closed(app)


def test_a_stopped_database_is_503_and_the_same_requests_are_answered_once_it_is_back(database: str):
    with private_postgres(database) as cluster:
        app = app_on(cluster.url, migrate=True)
        client = app.test_client()
        made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
        path, key = f"/api/v1/matches/{made['id']}", bearer(made["edit_key"])
        tag = client.get(path).headers["ETag"]
        cluster.stop()
        hand = {**key, "Idempotency-Key": "deal-1"}
        for answer in (client.get(path), client.get(path, headers={"If-None-Match": tag}),
                       client.post(f"{path}/hands", json=DEAL, headers=hand)):
            assert said_503(answer), (answer.status_code, answer.get_data(as_text=True)[:300])
            assert answer.get_json()["error"]["message"].startswith(SAYS)
        page = client.get(f"/m/{made['id']}")
        assert said_503(page) and SAYS in seen(page.text)
        cluster.start()
        assert client.get(path, headers={"If-None-Match": tag}).status_code == 304
        assert client.post(f"{path}/hands", json=DEAL, headers=hand).status_code == 201
        assert client.post(f"{path}/hands", json=DEAL, headers=hand).status_code == 201  # its repeat, not a second hand
        assert len(client.get(path).get_json()["hands"]) == 1
        closed(app)


class Phone:
    """A phone at a table while the database restarts: it polls, reads, opens the page and writes hands, each
    under its own key, and sends a hand not saved again under that key until it is."""

    def __init__(self, app: Flask, made: dict[str, Any], name: str):
        self.client, self.made, self.name = app.test_client(), made, name
        self.answers: list[tuple[str, int, str | None]] = []
        self.sent = 0  # hands sent, each under a key of its own; the last one may still be waiting
        self.saved = 0

    def step(self) -> None:
        path = f"/api/v1/matches/{self.made['id']}"
        read = self.client.get(path)
        self.note("read", read)
        if read.status_code == 200:
            self.note("poll", self.client.get(path, headers={"If-None-Match": read.headers["ETag"]}))
        self.note("page", self.client.get(f"/m/{self.made['id']}"))
        if self.saved == self.sent:
            self.sent += 1
        points = [75, 45] if self.sent % 2 else [45, 75]
        headers = {**bearer(self.made["edit_key"]), "Idempotency-Key": f"{self.name}-{self.sent}"}
        hand = self.client.post(f"{path}/hands", json={"points": points}, headers=headers)
        self.note("hand", hand)
        if hand.status_code == 201:
            self.saved = self.sent
        self.note("club", self.client.post("/api/v1/clubs", json={"name": f"Club of {self.name}"}))

    def note(self, what: str, answer: Any) -> None:
        self.answers.append((what, answer.status_code, answer.headers.get("Retry-After")))

    def run(self, until: threading.Event) -> None:
        while not until.is_set():
            self.step()


@pytest.fixture
def restarting(database: str) -> Iterator[tuple[PrivatePostgres, Flask]]:
    with private_postgres(database) as cluster:
        app = app_on(cluster.url, migrate=True)
        yield cluster, app
        closed(app)


def test_requests_during_a_real_restart_are_answered_or_told_when_to_retry_and_writes_go_on_after(restarting):
    """pg_ctl restart -m fast while four phones poll, read, open the page and write: every answer is a success or
    503 with Retry-After, never a 500; afterwards the pool's connections from before the restart are not used
    (the first write after it succeeds), and every hand is stored exactly once."""
    cluster, app = restarting
    client = app.test_client()
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS, "options": {"target": 100}})
    made = made.get_json()
    phones = [Phone(app, made, f"phone{number}") for number in range(4)]
    for phone in phones:
        phone.step()  # the pool now holds connections, which the restart will end
    until = threading.Event()
    threads = [threading.Thread(target=phone.run, args=(until,)) for phone in phones]
    for thread in threads:
        thread.start()
    try:
        time.sleep(0.5)
        cluster.restart()
        time.sleep(1.0)
    finally:
        until.set()
        for thread in threads:
            thread.join(timeout=60)
    answers = [answer for phone in phones for answer in phone.answers]
    wrong = [answer for answer in answers if answer[1] not in (200, 201, 304) and not (answer[1] == 503 and answer[2])]
    assert not wrong, wrong[:20]
    assert any(status == 503 for _what, status, _retry in answers)  # the restart did happen under the requests
    for phone in phones:  # right after: the first write of each phone is saved, with no retry
        phone.client = app.test_client()
        if phone.saved < phone.sent:
            phone.step()
            assert phone.saved == phone.sent, phone.answers[-5:]
        phone.step()
        assert phone.answers[-2][:2] == ("hand", 201) and phone.answers[-1][:2] == ("club", 201), phone.answers[-4:]
    stored = client.get(f"/api/v1/matches/{made['id']}").get_json()["hands"]
    assert len(stored) == sum(phone.sent for phone in phones)
