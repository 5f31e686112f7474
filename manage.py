#!/usr/bin/env python3
"""Set up and run Scorekeeper with nothing but Python 3.11+.

Each command first compiles the translations (translations/*/LC_MESSAGES/messages.po into .mo) when changed.

    python3 manage.py run     install into .venv if needed, then serve the app on http://127.0.0.1:5000
    python3 manage.py serve   production: migrate the database once, then gunicorn with several workers on :8000
    python3 manage.py backup FOLDER    a whole backup of the running server (database, secret key, config.py)
                              into a new folder under FOLDER; safe while phones write (scorekeeper/backups.py)
    python3 manage.py restore BACKUP   put a backup back (stop the server first)
    python3 manage.py test    install into .venv (with the test tools) if needed, then run the whole test suite,
                              on SQLite, then again on PostgreSQL (SCOREKEEPER_TEST_POSTGRES_URL) for the tests
                              that touch a database (tests/helpers/passes.py), with a Redis
                              (SCOREKEEPER_TEST_REDIS_URL, else one started on a free port for the run),
                              spread over the machine's cores (pytest-xdist, at most four workers)

Extra arguments go to the server (``run --host 0.0.0.0 --port 8000``) or to pytest (``test -k barbu``).

What ``test`` changes on the machine itself (Debian packages, starting PostgreSQL or Redis) is in setup_system.py.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

import setup_system

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"
# The suite runs a second time against this PostgreSQL database (a local server, trust auth).
POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
POSTGRES_CHECK = "import sqlalchemy, sys; sqlalchemy.create_engine(sys.argv[1]).connect().close()"
# Test workers at most: past four, the browser tests (all on one worker, one after another) set the pace.
MAX_WORKERS = 4
# The rate-limit tests share counts between two servers through this Redis; one is started when none answers.
REDIS_URL = os.environ.get("SCOREKEEPER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
# The one translation compiler (scorekeeper/i18n.py), run in .venv where Babel is installed.
COMPILE_CATALOGS = """
import sys
from pathlib import Path
from scorekeeper.i18n import compile_catalogs
if compile_catalogs(Path(sys.argv[1])):
    print("[scorekeeper] compiled the translations", flush=True)
"""


def say(message: str) -> None:
    print(f"[scorekeeper] {message}", flush=True)


def ensure_venv(extras: str) -> None:
    """Create .venv and install the project into it, again only when pyproject.toml changed."""
    if sys.version_info < (3, 11):
        sys.exit("Scorekeeper needs Python 3.11 or newer.")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        say("creating the virtual environment in .venv")
        venv.EnvBuilder(with_pip=True).create(VENV)
    say("installing dependencies into .venv (first run only)")
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "-e", f".{extras}"], check=True, cwd=ROOT)
    STAMP.write_text(wanted)


def compile_translations() -> None:
    """Compile the message catalogs (.po -> .mo, not committed) when a .mo is missing or older.

    The same function as the test session's, scorekeeper.i18n.compile_catalogs: each .mo is written
    beside and renamed into place, so a server starting meanwhile never reads half a catalog.
    """
    subprocess.run([str(PYTHON), "-c", COMPILE_CATALOGS, str(ROOT / "translations")], check=True, cwd=ROOT)


def run(args: list[str]) -> int:
    ensure_venv("")
    compile_translations()
    flask = [str(PYTHON), "-m", "flask", "--app", "scorekeeper.app:create_app", "run"]
    return subprocess.call([*flask, *(args or ["--host", "127.0.0.1", "--port", "5000"])], cwd=ROOT)


def postgres_answers() -> bool:
    """Whether the test PostgreSQL accepts a connection (asked through .venv, where the driver is)."""
    return subprocess.call([str(PYTHON), "-c", POSTGRES_CHECK, POSTGRES_URL], stderr=subprocess.DEVNULL) == 0


def serve(args: list[str]) -> int:
    """Production: bring the schema up to date once, then start gunicorn with several workers."""
    ensure_venv("")
    compile_translations()
    env = {**os.environ, "SCOREKEEPER_MIGRATE_ON_START": "false"}
    flask = [str(PYTHON), "-m", "flask", "--app", "scorekeeper.app:create_app"]
    code = subprocess.call([*flask, "db", "upgrade"], cwd=ROOT, env=env)
    if code != 0:
        return code
    return subprocess.call([str(PYTHON), "-m", "gunicorn", "--config", "gunicorn.conf.py", *args], cwd=ROOT, env=env)


def test(args: list[str]) -> int:
    ensure_venv("[test]")
    setup_system.ensure_test_packages()
    compile_translations()
    redis_url, redis = setup_system.ensure_redis(REDIS_URL)
    if redis_url is None:
        say(f"no Redis answers at {REDIS_URL} and redis-server is missing: the tests that need one are skipped"
            + (", which fails in CI" if os.environ.get("CI") else ""))
    env = {**os.environ, **({"SCOREKEEPER_TEST_REDIS_URL": redis_url} if redis_url else {})}
    # Keep compiled modules, pytest's rewritten test modules included, whatever the environment says: each
    # worker, the second run and every server a test starts then reuse them instead of compiling again.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    try:
        return run_suites([str(PYTHON), "-m", "pytest", *spread(args), *args], env)
    finally:
        if redis is not None:
            redis.terminate()
            redis.wait()


def spread(args: list[str]) -> list[str]:
    """pytest-xdist options: one worker per core, at most four, unless the arguments choose (-n, -p no:xdist).

    tests/conftest.py keeps each test file on one worker and every browser test on the same one.
    """
    if any(arg.startswith(("-n", "--numprocesses")) or arg == "no:xdist" for arg in args):
        return []
    workers = min(os.cpu_count() or 1, MAX_WORKERS)
    return ["-n", str(workers), "--dist", "loadgroup"] if workers > 1 else []


def run_suites(pytest: list[str], env: dict[str, str]) -> int:
    """The whole suite on SQLite, then on PostgreSQL the tests that touch a database (the conftest selects them)."""
    say("test run 1 of 2: SQLite")
    code = subprocess.call(pytest, cwd=ROOT, env=env)
    if code != 0:
        return code
    if not setup_system.ensure_postgres(postgres_answers):
        if os.environ.get("CI"):
            say(f"PostgreSQL is required in CI but does not answer at {POSTGRES_URL}")
            return 1
        say(f"PostgreSQL does not answer at {POSTGRES_URL}: skipped the PostgreSQL run")
        return 0
    say("test run 2 of 2: PostgreSQL")
    return subprocess.call(pytest, cwd=ROOT, env={**env, "SCOREKEEPER_TEST_DATABASE_URL": POSTGRES_URL})


def backup(args: list[str]) -> int:
    ensure_venv("")
    return subprocess.call([str(PYTHON), "-m", "flask", "--app", "scorekeeper.app:create_app", "backup", *args],
                           cwd=ROOT)


def restore(args: list[str]) -> int:
    ensure_venv("")
    return subprocess.call([str(PYTHON), "-m", "flask", "--app", "scorekeeper.app:create_app", "restore", *args],
                           cwd=ROOT)


COMMANDS = {"run": run, "serve": serve, "test": test, "backup": backup, "restore": restore}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
