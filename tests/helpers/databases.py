"""Throwaway databases for tests: migrated once per run into a template, then copied for each test.

The schema still comes from the migrations, as on a real install; a test only pays for a file copy
(SQLite) or a CREATE DATABASE ... TEMPLATE (PostgreSQL) instead of every migration since the first.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Protocol

from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from scorekeeper.app import create_app
from scorekeeper.db import db

FILE_NAME = "scorekeeper.sqlite"


def postgres_url(given: str, worker: str) -> str:
    """The PostgreSQL test database of this process: the one given, or one of its own per pytest-xdist worker.

    Every test drops and recreates its database, so two workers on one database would drop each
    other's; worker gw1 of test_ci uses test_ci_gw1 (and its template test_ci_gw1_template).
    """
    if not given or not worker:
        return given
    url = make_url(given)
    return url.set(database=f"{url.database}_{worker}").render_as_string(hide_password=False)


# The suite runs once on SQLite files and once on PostgreSQL (manage.py test does both).
POSTGRES_URL = postgres_url(os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", ""),
                            os.environ.get("PYTEST_XDIST_WORKER", ""))


def reset_postgres(url: str) -> None:
    """Empty a database that servers share: drop and recreate the public schema.

    A worker's own database (postgres_url) is created on first use, which may be this.
    """
    named = make_url(url)
    server = create_engine(named.set(database="postgres"), poolclass=NullPool, isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        known = "SELECT 1 FROM pg_database WHERE datname = :name"
        if connection.execute(text(known), {"name": named.database}).scalar() is None:
            connection.execute(text(f"CREATE DATABASE {server.dialect.identifier_preparer.quote(named.database)}"))
        # Whatever an earlier test left connected (a server's worker, a thread's transaction) goes first: its locks
        # would hold the schema's drop below until the test's timeout, with nothing said of why.
        connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = :name AND pid <> pg_backend_pid()"), {"name": named.database})
    server.dispose()
    engine = create_engine(url, poolclass=NullPool)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def migrate(url: str) -> None:
    """Bring the database at url to the newest revision through the migrations, then close every connection."""
    app = create_app({"TESTING": True, "SECRET_KEY": "template", "SQLALCHEMY_DATABASE_URI": url,
                      "MIGRATE_ON_START": True, "RATELIMIT_ENABLED": False})
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


class Template(Protocol):
    def copy(self, folder: Path) -> str:
        """A new database holding the migrated schema and nothing else; returns its URL."""

    def close(self) -> None:
        """Remove the template."""


class SQLiteTemplate:
    """A migrated SQLite file; each copy is a new file in the test's folder."""

    def __init__(self, folder: Path):
        self.path = folder / FILE_NAME
        migrate(f"sqlite:///{self.path}")
        # Back to a rollback journal: the whole database is then in this one file, with no -wal or -shm
        # beside it to copy; the app turns write-ahead logging on again when it connects to a copy.
        with contextlib.closing(sqlite3.connect(self.path)) as raw:
            assert raw.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"
        beside = sorted(path.name for path in folder.iterdir() if path != self.path)
        assert not beside, f"the template is more than one file: {beside}"

    def copy(self, folder: Path) -> str:
        path = folder / FILE_NAME
        shutil.copyfile(self.path, path)
        return f"sqlite:///{path}"

    def close(self) -> None:
        self.path.unlink()


class PostgresServer:
    """The PostgreSQL server of a test database, spoken to through its maintenance database."""

    def __init__(self, url: str):
        self.url = make_url(url)
        assert self.url.database not in (None, "postgres"), "the test database must be one of its own"
        # One connection, kept for the whole run: nothing is written in the maintenance database.
        self.engine: Engine = create_engine(self.url.set(database="postgres"), pool_size=1, max_overflow=0,
                                            isolation_level="AUTOCOMMIT")

    def close(self) -> None:
        self.engine.dispose()

    def url_of(self, name: str) -> str:
        return self.url.set(database=name).render_as_string(hide_password=False)

    def execute(self, *statements: str) -> None:
        with self.engine.connect() as connection:
            for statement in statements:
                connection.execute(text(statement))

    def recreate(self, name: str, template: str | None = None) -> str:
        """Drop the database called name (closing whatever is connected) and create it anew; returns its URL."""
        quote = self.engine.dialect.identifier_preparer.quote
        self.execute(f"DROP DATABASE IF EXISTS {quote(name)} WITH (FORCE)",
                     f"CREATE DATABASE {quote(name)}" + (f" TEMPLATE {quote(template)}" if template else ""))
        return self.url_of(name)

    def empty(self) -> str:
        """The test database, empty."""
        return self.recreate(self.url.database)


# Every object of the database's own schemas, with the transaction that last wrote its catalog row: DDL of any
# kind (a table, column, index, constraint, type, function or trigger made, changed or dropped) changes it, rows
# written to the tables do not. A copy of the template has the template's catalog rows, xmin included.
SCHEMA = """
WITH own AS (SELECT oid FROM pg_namespace
             WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg_toast%'
               AND nspname NOT LIKE 'pg_temp%')
SELECT md5(string_agg(entry, ',' ORDER BY entry)) FROM (
    SELECT 'n' || oid || ':' || xmin AS entry FROM pg_namespace WHERE oid IN (SELECT oid FROM own)
    UNION ALL SELECT 'c' || oid || ':' || xmin FROM pg_class WHERE relnamespace IN (SELECT oid FROM own)
    UNION ALL SELECT 'a' || attrelid || '.' || attnum || ':' || a.xmin FROM pg_attribute a
        JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace IN (SELECT oid FROM own)
    UNION ALL SELECT 't' || oid || ':' || xmin FROM pg_type WHERE typnamespace IN (SELECT oid FROM own)
    UNION ALL SELECT 'p' || oid || ':' || xmin FROM pg_proc WHERE pronamespace IN (SELECT oid FROM own)
    UNION ALL SELECT 'k' || oid || ':' || xmin FROM pg_constraint WHERE connamespace IN (SELECT oid FROM own)
    UNION ALL SELECT 'g' || t.oid || ':' || t.xmin FROM pg_trigger t
        JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace IN (SELECT oid FROM own)
) AS objects
"""
# The rows of every table, but the migrations' own record, and every sequence back to its start. Foreign keys
# are not checked meanwhile (every row goes), so the order of the tables does not matter.
TABLES = ("SELECT format('%I.%I', schemaname, tablename) FROM pg_tables "
          "WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tablename <> 'alembic_version'")
SEQUENCES = ("SELECT format('%I.%I', schemaname, sequencename) FROM pg_sequences "
             "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")


class PostgresTemplate:
    """A migrated PostgreSQL database, <test database>_template; each copy replaces the test database.

    A copy is made once; after that, while the test database's schema is still the template's, the next test
    gets it emptied of its rows, its sequences restarted, instead: 20-60 ms against 190 ms for a new copy (a
    test that changed the schema, or emptied the database to migrate it, gets a new copy).
    """

    def __init__(self, server: PostgresServer):
        self.server = server
        self.name = f"{server.url.database}_template"
        migrate(server.recreate(self.name))
        # Nobody may be connected to a template while it is copied: from now on nobody can be.
        quoted = server.engine.dialect.identifier_preparer.quote(self.name)
        server.execute(f"ALTER DATABASE {quoted} ALLOW_CONNECTIONS false")
        self.url = server.url_of(server.url.database)
        self.schema: str | None = None  # the copy's schema as the template made it, once a copy is made

    def copy(self, folder: Path) -> str:  # noqa: ARG002 (the database lives on the server)
        if self.schema is not None and self._emptied():
            return self.url
        self.server.recreate(self.server.url.database, template=self.name)
        engine = create_engine(self.url, poolclass=NullPool)
        with engine.connect() as connection:
            self.schema = connection.execute(text(SCHEMA)).scalar_one()
        engine.dispose()
        return self.url

    def _emptied(self) -> bool:
        """Empty the test database of the last test's rows, if its schema is still the template's."""
        engine = create_engine(self.url, poolclass=NullPool)
        try:
            with engine.begin() as connection:
                # Whatever the last test left connected (a server's worker, a thread's transaction) goes first.
                connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                        "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
                if connection.execute(text(SCHEMA)).scalar_one() != self.schema:
                    return False
                tables = connection.execute(text(TABLES)).scalars().all()
                sequences = connection.execute(text(SEQUENCES)).scalars().all()
                connection.execute(text("SET LOCAL session_replication_role = replica"))
                connection.execute(text("".join(f"DELETE FROM {table};" for table in tables)))
                for sequence in sequences:
                    connection.execute(text("SELECT setval(:name, 1, false)"), {"name": sequence})
            return True
        except OperationalError:  # the database is gone (a test dropped it): a new copy
            return False
        finally:
            engine.dispose()

    def close(self) -> None:
        quoted = self.server.engine.dialect.identifier_preparer.quote(self.name)
        self.server.execute(f"DROP DATABASE IF EXISTS {quoted}")
