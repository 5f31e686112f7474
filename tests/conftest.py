"""Fixtures: an app on a throwaway database file, its client and CLI runner, and form/API helpers."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

import setup_system
from databases import FILE_NAME, PostgresServer, PostgresTemplate, SQLiteTemplate, Template
from scorekeeper.app import create_app
from scorekeeper.db import db
from scorekeeper.i18n import compile_catalogs

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


# The suite runs once on SQLite files and once on PostgreSQL (manage.py test does both).
POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "")
# The Redis that rate-limit tests share counts through (manage.py test passes one); else one is started.
REDIS_URL = os.environ.get("SCOREKEEPER_TEST_REDIS_URL", "")


def reset_postgres(url: str) -> None:
    """Empty a database that servers share: drop and recreate the public schema."""
    engine = create_engine(url, poolclass=NullPool)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The server of the PostgreSQL test database (SCOREKEEPER_TEST_DATABASE_URL)."""
    server = PostgresServer(POSTGRES_URL)
    yield server
    server.close()


@pytest.fixture(scope="session")
def template(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Template]:
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
def empty_database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A fresh database with no tables at all, for the tests that run the migrations themselves."""
    if POSTGRES_URL:
        return request.getfixturevalue("postgres").empty()
    return f"sqlite:///{tmp_path / FILE_NAME}"


def pytest_sessionstart(session) -> None:
    """Compile the translations (.mo files are built, not committed) when missing or older than the .po."""
    compile_catalogs()


def pytest_collection_modifyitems(config, items) -> None:
    if POSTGRES_URL:
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
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask):
    return app.test_cli_runner()


def csrf_token(client: FlaskClient, url: str = "/new/barbu") -> str:
    """The CSRF token a page hands this client (the same for the whole session)."""
    page = client.get(url)
    match = TOKEN.search(page.text)
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def post_form(client: FlaskClient, url: str, data: dict[str, Any], token_from: str | None = None):
    """Post a form the way a browser does: with the page's CSRF token."""
    return client.post(url, data={"csrf_token": csrf_token(client, token_from or url), **data})


def create_match(client: FlaskClient, game: str = "barbu", players: list[str] | None = None,
                 options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Create a match through the API; returns the answer with edit_key."""
    body: dict[str, Any] = {"game": game, "players": players or PLAYERS}
    if options is not None:
        body["options"] = options
    answer = client.post("/api/v1/matches", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def api_url(match: dict[str, Any], *parts: Any) -> str:
    """The API address of a match (from create_match), or of a part of it: api_url(m, "hands", 3)."""
    return "/".join([f"/api/v1/matches/{match['id']}", *map(str, parts)])


def post_hand(client: FlaskClient, match: dict[str, Any], body: Any, key: str | None = None):
    """Record a hand through the API with the match's edit key (or the key given)."""
    return client.post(api_url(match, "hands"), json=body, headers=bearer(key or match["edit_key"]))


def play(client: FlaskClient, match: dict[str, Any], *bodies: dict[str, Any]) -> dict[str, Any]:
    """Record hands that must be accepted; return the last state."""
    state: dict[str, Any] = {}
    for body in bodies:
        answer = post_hand(client, match, body)
        assert answer.status_code == 201, answer.get_json()
        state = answer.get_json()
    return state


def read(client: FlaskClient, match: dict[str, Any]) -> dict[str, Any]:
    """The match state the API answers."""
    answer = client.get(api_url(match))
    assert answer.status_code == 200
    return answer.get_json()


def error_of(answer, status: int) -> dict[str, Any]:
    """Check an error answer's status and shape; return its error object."""
    assert answer.status_code == status, answer.get_data(as_text=True)
    assert answer.mimetype == "application/json"
    body = answer.get_json()
    assert set(body) == {"error"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["fields"], dict)
    return body["error"]


def hearts_reaching(totals: list[int]) -> list[list[int]]:
    """Hearts-only Cancellation Hearts hands (never a moon) that bring a fresh game to totals.

    As few hands as can be, the hearts shared evenly between them, so that each takes between
    26 - N and 26 hearts, as the rules allow (a cancelled last trick loses at most N cards).
    """
    left, total = list(totals), sum(totals)
    count = -(-total // 26)
    sizes = [total // count + (i < total % count) for i in range(count)] if count else []
    assert all(26 - len(totals) <= size <= 26 for size in sizes), "these totals need Black Marias too"
    hands = []
    for size in sizes:
        hearts = []
        for seat, need in enumerate(left):
            hearts.append(min(need, size))
            size -= hearts[-1]
            left[seat] -= hearts[-1]
        hands.append(hearts)
    return hands
