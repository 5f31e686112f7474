"""Which tests run on which database: every test on SQLite, and again on PostgreSQL those that touch a database.

`python3 manage.py test` runs the suite twice. The first run, on SQLite files, runs every test. The
second, on PostgreSQL, runs only the tests whose fixtures reach `database` (conftest.py): the
database's own fixtures (template, database_url, empty_database_url, postgres) and everything made
from them (app, client, runner, document, live_server, servers, ...) all do. A new test lands on the
right side by asking for what it uses; nobody keeps a list. Pure tests (engines, rules, schemas,
helpers, lint) run once, and so do the browser tests: they drive the same pages on either database,
and the pages' database work is what the second run's other tests cover.

What keeps the split honest: on the SQLite run every test is watched for connections to a database
through SQLAlchemy (the app's only way in), in its setup, its body and its teardown. A test that opens
one without reaching `database` would be missing from the PostgreSQL run, so it fails there and then,
saying which fixture to ask for.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, event

DATABASE = "database"  # the session fixture in conftest.py that every database fixture reaches
BROWSER = "tests/browser/"
MISSING = ("{nodeid} opened {count} database connection(s) without asking for the database, so the "
           "PostgreSQL run would leave it out: ask for database_url (or app, client, servers, ...), or for "
           "`database` itself when the test makes its database another way")


def touches_database(item: pytest.Item) -> bool:
    """Whether a test's fixtures, direct or through other fixtures, reach the database."""
    return DATABASE in getattr(item, "fixturenames", ())


def on_postgres(item: pytest.Item) -> bool:
    """Whether a test runs again in the PostgreSQL run: it touches the database and is not a browser test."""
    return touches_database(item) and not item.nodeid.startswith(BROWSER)


def keep_database_tests(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The PostgreSQL run: deselect every test that does not run on it (pytest reports them as deselected)."""
    kept = [item for item in items if on_postgres(item)]
    left = [item for item in items if not on_postgres(item)]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


class Connections:
    """How many times code in this process connected to a database through SQLAlchemy, any engine."""

    def __init__(self) -> None:
        self.count = 0
        event.listen(Engine, "engine_connect", self._opened)

    def _opened(self, connection: Any) -> None:
        self.count += 1

    def close(self) -> None:
        event.remove(Engine, "engine_connect", self._opened)


BEFORE = pytest.StashKey[int]()


def watch(item: pytest.Item, connections: Connections) -> None:
    """Note the count as a test's setup starts."""
    item.stash[BEFORE] = connections.count


def check(item: pytest.Item, connections: Connections) -> None:
    """At the end of a test's teardown: fail a test that connected to a database it did not ask for."""
    opened = connections.count - item.stash.get(BEFORE, connections.count)
    if opened and not touches_database(item):
        pytest.fail(MISSING.format(nodeid=item.nodeid, count=opened), pytrace=False)
