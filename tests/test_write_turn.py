"""On SQLite, a hand's write waits for the machine's turn to write without holding its worker."""

from __future__ import annotations

import fcntl
import os
import threading
import time

import pytest
from flask import Flask

from helpers.matches import FIRST_HAND, PLAYERS
from scorekeeper import db as database
from scorekeeper.db import db
from scorekeeper.match import matches


@pytest.fixture
def turn_file(app: Flask) -> str:
    with app.app_context():
        path = database._write_lock_path()
    if path is None:
        pytest.skip("PostgreSQL: its writers wait on row locks, not on one lock of the whole database")
    return path


def test_a_write_waits_for_the_turn_sleeping_and_goes_on_when_it_is_free(app: Flask, turn_file: str, monkeypatch):
    with app.app_context():
        match, _key = matches.create("barbu", PLAYERS, {"first_declarer": PLAYERS[0]})
        public_id = match.public_id
    holder = os.open(turn_file, os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)  # another worker is writing
    naps: list[float] = []
    real_sleep = time.sleep
    monkeypatch.setattr(database.time, "sleep", lambda seconds: (naps.append(seconds), real_sleep(seconds)))
    done: list[int] = []

    def write() -> None:
        with app.app_context():
            found, _played = matches.record(public_id, FIRST_HAND)
            done.append(found.version)
            db.session.remove()

    writer = threading.Thread(target=write)
    writer.start()
    real_sleep(0.2)
    assert not done and len(naps) >= 5  # waiting, by sleeps a gevent worker spends on its other phones
    os.close(holder)  # the other worker's turn is over
    writer.join(10)
    assert done == [2]


def test_a_turn_never_had_goes_on_to_sqlites_own_wait(app: Flask, turn_file: str, monkeypatch):
    monkeypatch.setattr(database, "WRITE_TURN_WAIT", 0.05)
    holder = os.open(turn_file, os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)  # held by a worker that hangs
    try:
        with app.app_context():
            match, _key = matches.create("barbu", PLAYERS, {"first_declarer": PLAYERS[0]})
            found, _played = matches.record(match.public_id, FIRST_HAND)
        assert found.version == 2
    finally:
        os.close(holder)
