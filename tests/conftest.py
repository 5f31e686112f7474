"""Fixtures and hooks: an app on a throwaway database, its client, CLI runner and API document; Redis; two servers.

The helpers the tests share are in the helpers package (tests/helpers/), imported by name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import setup_system
from helpers.compiled import share_compiled_rules, share_compiled_templates
from helpers.databases import FILE_NAME, POSTGRES_URL, PostgresServer, PostgresTemplate, SQLiteTemplate, Template
from helpers.passes import Connections, check, keep_database_tests, watch
from helpers.servers import Server, two_servers
from scorekeeper.app import create_app
from scorekeeper.db import db
from scorekeeper.i18n import compile_catalogs

# The Redis that rate-limit tests share counts through (manage.py test passes one); else one is started.
REDIS_URL = os.environ.get("SCOREKEEPER_TEST_REDIS_URL", "")
CONNECTIONS = pytest.StashKey[Connections]()


@pytest.fixture(scope="session")
def database() -> str:
    """Which database this run is on: "sqlite", or the PostgreSQL test database's URL.

    Every fixture that touches a database reaches this one, and that is what runs a test a second time on
    PostgreSQL (helpers/passes.py); a test that makes its database some other way asks for it itself.
    """
    return POSTGRES_URL or "sqlite"


@pytest.fixture(scope="session")
def postgres(database: str) -> Iterator[PostgresServer]:
    """The server of the PostgreSQL test database (SCOREKEEPER_TEST_DATABASE_URL)."""
    server = PostgresServer(POSTGRES_URL)
    yield server
    server.close()


@pytest.fixture(scope="session")
def template(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, database: str,
             ) -> Iterator[Template]:
    """The schema migrated once for the whole run; each test's database is a copy of it."""
    if POSTGRES_URL:
        made: Template = PostgresTemplate(request.getfixturevalue("postgres"))
    else:
        made = SQLiteTemplate(tmp_path_factory.mktemp("template"))
    yield made
    made.close()


@pytest.fixture
def database_url(template: Template, tmp_path) -> str:
    """A fresh, real database for one test at the newest schema: a SQLite file, or the PostgreSQL test database."""
    return template.copy(tmp_path)


@pytest.fixture
def empty_database_url(request: pytest.FixtureRequest, tmp_path, database: str) -> str:
    """A fresh database with no tables at all, for the tests that run the migrations themselves."""
    if POSTGRES_URL:
        return request.getfixturevalue("postgres").empty()
    return f"sqlite:///{tmp_path / FILE_NAME}"


def pytest_sessionstart(session) -> None:
    """Compile the translations (.mo files are built, not committed) when missing or older than the .po,
    and let every app of the run share the code werkzeug generates to build its URLs."""
    compile_catalogs()
    share_compiled_rules()


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, when installed
def pytest_xdist_make_scheduler(config, log):
    """Spread over workers with --dist loadgroup (manage.py test does): see helpers/workers.py."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from helpers.workers import FilesAndBrowsers

    return FilesAndBrowsers(config, log)


def pytest_configure(config: pytest.Config) -> None:
    """On SQLite, where every test runs, watch for tests that connect to a database without asking for one."""
    if not POSTGRES_URL:
        config.stash[CONNECTIONS] = Connections()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    if CONNECTIONS in item.config.stash:
        watch(item, item.config.stash[CONNECTIONS])
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """After the test's fixtures are torn down: a test that connected, yet would not run on PostgreSQL, fails."""
    done = yield
    if CONNECTIONS in item.config.stash:
        check(item, item.config.stash[CONNECTIONS])
    return done


def pytest_collection_modifyitems(config, items) -> None:
    from helpers.workers import distinct_ids

    distinct_ids(items)  # every test its own node id, or pytest-xdist runs those sharing one as one
    if POSTGRES_URL:
        keep_database_tests(config, items)  # only the tests that touch the database run again on PostgreSQL
        skip = pytest.mark.skip(reason="SQLite-specific (file, WAL, process kill)")
        for item in items:
            if "sqlite_only" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis: SCOREKEEPER_TEST_REDIS_URL, else a throwaway one on a free port for this session.

    Without redis-server the tests that need it are skipped, except in CI (CI=true), where they fail.
    """
    if REDIS_URL:
        yield REDIS_URL
        return
    started = setup_system.start_redis()
    if started is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs a Redis: set SCOREKEEPER_TEST_REDIS_URL or install redis-server")
        pytest.skip("no Redis: set SCOREKEEPER_TEST_REDIS_URL or install redis-server (python3 manage.py test does)")
    url, process = started
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    # The schema was built by the migrations, as on a real install: database_url is a copy of it.
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "MIGRATE_ON_START": False,
        "RATELIMIT_ENABLED": False,  # tests make matches faster than any table; test_rate_limits.py turns them on
        # Every PDF asked for is rendered, and waits as long as it takes: test_sheet_renders.py tests both.
        "PDF_CACHE_BYTES": 0,
        "PDF_RENDER_WAIT": 120,
    })
    yield share_compiled_templates(app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask):
    return app.test_cli_runner()


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    """The API's OpenAPI document, as the app serves it."""
    answer = client.get("/api/v1/openapi.json")
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    return answer.get_json()


@pytest.fixture(scope="module")
def servers(tmp_path_factory, database: str) -> Iterator[tuple[Server, Server]]:
    with two_servers(tmp_path_factory.mktemp("two-servers"), "shared-secret-of-the-club") as pair:
        yield pair
