"""The database handle and per-connection settings."""

from __future__ import annotations

from flask import Flask
from flask_migrate import Migrate, upgrade
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


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
    if setting:
        with app.app_context():
            upgrade()


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
