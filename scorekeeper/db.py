"""The database handle and per-connection settings."""

from __future__ import annotations

import fcntl
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import click
from flask import Flask
from flask.cli import FlaskGroup
from flask_migrate import Migrate, upgrade
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.orm import DeclarativeBase

# What a write or a read raises when the database cannot take it: a full disk, a connection dropped by a restart.
# The web layer answers them 503 (web/errors.py) without naming the database library.
LOST = (OperationalError, InterfaceError, DisconnectionError)


class Base(DeclarativeBase):
    pass


# A request ends soon after its commit: keep what was just written instead of reading the
# match back (a write answers with the state it computed; retries call expire_all() themselves).
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()


def prepare(app: Flask) -> None:
    """Bring the schema up to date on start when configured (the default for SQLite).

    A server with several workers on PostgreSQL runs ``flask db upgrade`` once before starting
    them instead (see the README), so that workers never race to migrate.
    """
    setting = app.config.get("MIGRATE_ON_START")
    if setting is None:
        setting = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    if setting and not migrating_by_hand():
        with app.app_context():
            upgrade()


def migrating_by_hand() -> bool:
    """Whether the app is loaded for a ``flask db`` command: the schema is then the operator's to move.

    Without this, ``flask db downgrade`` upgraded first, and any ``flask db`` command after a downgrade
    (``current``, ``history``) brought the schema back up, under the older code the downgrade was for."""
    context = click.get_current_context(silent=True)
    # The flask command loads the app while it looks its subcommand up, before any context of "db" exists.
    return context is not None and isinstance(context.find_root().command, FlaskGroup) and "db" in sys.argv[1:]


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record) -> None:  # noqa: ARG001
    """Turn on foreign keys and write-ahead logging for every SQLite connection."""
    if type(dbapi_connection).__module__ != "sqlite3":
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # With write-ahead logging, NORMAL syncs the log at checkpoints instead of at every commit:
    # the database stays consistent and a crashed or killed server loses nothing; only a power
    # cut can undo the last hands before it. FULL made every hand wait for the disk (half the
    # write throughput on the benchmark machine, bench/RESULTS.md).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


WRITE_TURN_WAIT = 10.0  # seconds a write waits for its turn before it goes on to SQLite's own wait


@contextmanager
def write_turn() -> Iterator[None]:
    """On SQLite, the machine's one turn to write, waited for cooperatively; elsewhere nothing.

    SQLite lets one connection write at a time, and a connection that finds the database locked waits
    in SQLite's busy handler, inside the driver: under gevent that wait holds the whole worker, every
    phone polling through it included, for up to a tenth of a second a try. The match core's writes
    take this turn first instead: a lock on a file beside the database, tried without blocking and
    waited for with time.sleep, which a gevent worker spends answering its other phones. The turn is
    held for the flush and the commit only (a few milliseconds), so SQLite's lock is then free; a turn
    not had within WRITE_TURN_WAIT seconds goes on to SQLite's own wait rather than fail.
    """
    path = _write_lock_path()
    if path is None:
        yield
        return
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        deadline, pause = time.monotonic() + WRITE_TURN_WAIT, 0.0005
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(pause)  # under gevent: the worker's other requests go on meanwhile
                pause = min(pause * 2, 0.004)
        yield
    finally:
        os.close(descriptor)  # the lock goes with it


def _write_lock_path() -> str | None:
    """The turn's lock file for the database in use: beside an SQLite file, None for any other database."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return url.database + ".write-turn"
