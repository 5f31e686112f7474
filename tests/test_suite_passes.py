"""The split of the two runs: every test on SQLite, and on PostgreSQL every test that touches a database.

These run pytest itself on a small test file, with the suite's own fixtures and hooks (conftest.py as a
plugin): what the suite does with a new test, seen from outside.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers.passes import BROWSER, on_postgres, touches_database

ROOT = Path(__file__).resolve().parents[1]
NEW_TESTS = '''
from sqlalchemy import create_engine


def connect(folder):
    engine = create_engine(f"sqlite:///{folder}/own.sqlite")
    engine.connect().close()
    engine.dispose()


def test_pure():
    assert sum([1, 2]) == 3


def test_connects_without_asking(tmp_path):
    connect(tmp_path)


def test_connects_and_asked(database, tmp_path):
    connect(tmp_path)


def test_through_the_app(client):
    assert client.get("/").status_code == 200
'''


def pytest_on(folder: Path, *options: str, database_url: str = "") -> subprocess.CompletedProcess[str]:
    """pytest in one process on the test file in folder, with the suite's conftest.py as a plugin."""
    (folder / "test_new.py").write_text(NEW_TESTS)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("SCOREKEEPER_TEST_DATABASE", "PYTEST_XDIST", "PYTEST_CURRENT"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "tests"), str(ROOT)])
    if database_url:
        env["SCOREKEEPER_TEST_DATABASE_URL"] = database_url
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "-c", os.devnull, "--rootdir", str(folder), "-q", "-W", "ignore", *options,
                           str(folder / "test_new.py")], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=240)


def test_a_test_that_connects_without_asking_for_the_database_fails_the_run(tmp_path):
    done = pytest_on(tmp_path, "-rA")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "4 passed, 1 error" in done.stdout, done.stdout  # it passed, and its teardown failed it
    assert "ERROR test_new.py::test_connects_without_asking" in done.stdout
    assert "would leave it out: ask for database_url" in done.stdout


def test_the_postgresql_run_keeps_exactly_the_tests_that_ask_for_the_database(tmp_path):
    # Collection only: no PostgreSQL server is asked anything.
    done = pytest_on(tmp_path, "--collect-only", database_url="postgresql+psycopg://postgres@127.0.0.1:1/none")
    assert done.returncode == 0, done.stdout + done.stderr
    kept = sorted(line.split("::")[1] for line in done.stdout.splitlines() if "::" in line)
    assert kept == ["test_connects_and_asked", "test_through_the_app"], done.stdout
    assert "2/4 tests collected (2 deselected)" in done.stdout


class Item:
    def __init__(self, nodeid: str, fixturenames: list[str]) -> None:
        self.nodeid, self.fixturenames = nodeid, fixturenames


def test_browser_tests_run_once_and_pure_tests_run_once():
    page = Item(f"{BROWSER}test_x_browser.py::test_a", ["phone", "live_server", "database_url", "database"])
    api = Item("tests/test_api_barbu.py::test_a", ["client", "app", "database_url", "template", "database"])
    engine = Item("tests/test_barbu_engine.py::test_a", ["tmp_path"])
    assert touches_database(page) and not on_postgres(page)
    assert touches_database(api) and on_postgres(api)
    assert not touches_database(engine) and not on_postgres(engine)


def test_every_fixture_that_reaches_a_database_reaches_database(request):
    """The fixtures the suite's tests use to reach a database all go through `database`."""
    reaching = {"template", "database_url", "empty_database_url", "postgres", "app", "client", "runner",
                "document", "live_server", "servers"}
    for item in request.session.items:
        used = reaching.intersection(getattr(item, "fixturenames", ()))
        assert not used or touches_database(item), (item.nodeid, used)
