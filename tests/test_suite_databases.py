"""Each test's PostgreSQL database: the template's schema and no rows, whatever the test before it did.

The database is copied from the template once, then emptied between tests while its schema is still the
template's (helpers/databases.py). These pin that a test never sees the rows, the sequences or the schema
changes of the one before it. They run on PostgreSQL only: on SQLite every test copies a file.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from helpers.databases import PostgresServer, PostgresTemplate


@pytest.fixture
def own(database: str) -> Iterator[PostgresTemplate]:
    """A template of its own, on a database of its own, so that the run's own template is left alone."""
    if database == "sqlite":
        pytest.skip("each SQLite test copies the template's file")
    url = make_url(database)
    server = PostgresServer(url.set(database=f"{url.database}_reuse").render_as_string(hide_password=False))
    made = PostgresTemplate(server)
    yield made
    made.close()
    server.execute(f"DROP DATABASE IF EXISTS {server.url.database} WITH (FORCE)")
    server.close()


def engine_of(url: str) -> Engine:
    return create_engine(url, poolclass=NullPool)


def add_match(url: str) -> int:
    engine = engine_of(url)
    with engine.begin() as connection:
        made = connection.execute(text(
            "INSERT INTO matches (public_id, game, players, options, version, edit_key_hash, created_at, updated_at)"
            " VALUES (md5(random()::text), 'barbu', '[]', '{}', 1, '', now(), now()) RETURNING id")).scalar_one()
    engine.dispose()
    return int(made)


def count(url: str, table: str) -> int:
    engine = engine_of(url)
    with engine.connect() as connection:
        found = connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
    engine.dispose()
    return int(found)


def test_the_next_test_sees_no_row_and_numbers_from_one_again(own):
    url = own.copy(None)
    assert add_match(url) == 1 and add_match(url) == 2
    left_open = engine_of(url).connect()  # a connection the last test left behind (a server's worker)
    left_open.execute(text("SELECT 1"))
    assert own.copy(None) == url
    assert count(url, "matches") == 0
    assert add_match(url) == 1
    assert count(url, "alembic_version") == 1  # the migrations' own record stays
    with pytest.raises(OperationalError):  # closed by the server: it would have held the rows' deletion
        left_open.execute(text("SELECT 1"))
    left_open.invalidate()


def test_a_schema_changed_by_a_test_is_copied_anew(own):
    url = own.copy(None)
    engine = engine_of(url)
    with engine.begin() as connection:
        connection.execute(text("ALTER TABLE matches ADD COLUMN extra integer"))
        connection.execute(text("CREATE TABLE leftover (id integer)"))
    engine.dispose()
    own.copy(None)
    engine = engine_of(url)
    with engine.connect() as connection:
        columns = connection.execute(text("SELECT column_name FROM information_schema.columns"
                                          " WHERE table_name = 'matches'")).scalars().all()
        tables = connection.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars().all()
    engine.dispose()
    assert "extra" not in columns and "leftover" not in tables and "matches" in tables


def test_an_emptied_or_dropped_database_is_copied_anew(own):
    own.copy(None)
    own.server.empty()
    url = own.copy(None)
    assert count(url, "alembic_version") == 1
    own.server.execute(f"DROP DATABASE {own.server.url.database} WITH (FORCE)")
    assert count(own.copy(None), "matches") == 0
