#!/usr/bin/env python3
"""Set up and run Scorekeeper with nothing but Python 3.11+.

Each command first compiles the translations (translations/*/LC_MESSAGES/messages.po into .mo) when changed.

    python3 manage.py run     install into .venv if needed, then serve the app on http://127.0.0.1:5000
    python3 manage.py serve   production: migrate the database once, then gunicorn with several workers on :8000
    python3 manage.py test    install into .venv (with the test tools) if needed, then run the whole test suite,
                              on SQLite and then on PostgreSQL (SCOREKEEPER_TEST_POSTGRES_URL)

Extra arguments go to the server (``run --host 0.0.0.0 --port 8000``) or to pytest (``test -k barbu``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"
# Debian packages the test suite uses, installed when missing and we may: a command it calls or a
# file it needs (an absolute path), and the package that brings it. pdftotext checks the PDF text;
# the browser tests drive Debian's chromium, and their screenshots show the emoji the pages use.
TEST_SYSTEM_PACKAGES = {
    "pdftotext": "poppler-utils",
    "chromium": "chromium",
    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf": "fonts-noto-color-emoji",
}
# The suite runs a second time against this PostgreSQL database (a local server, trust auth).
POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
POSTGRES_CHECK = "import sqlalchemy, sys; sqlalchemy.create_engine(sys.argv[1]).connect().close()"
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


def present(need: str) -> bool:
    """Whether a command is on the PATH, or a file (an absolute path) exists."""
    return Path(need).exists() if os.path.isabs(need) else shutil.which(need) is not None


def ensure_system_packages(packages: dict[str, str]) -> None:
    """Install missing Debian packages (commands or files the tests need) when running as root with apt."""
    missing = sorted({package for need, package in packages.items() if not present(need)})
    if not missing:
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        say(f"please install these system packages: {' '.join(missing)}")
        return
    say(f"installing system packages: {' '.join(missing)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True, env=env)


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


def postgres_ready() -> bool:
    """Whether the test PostgreSQL answers; start the local cluster once if it does not."""
    check = [str(PYTHON), "-c", POSTGRES_CHECK, POSTGRES_URL]
    if subprocess.call(check, stderr=subprocess.DEVNULL) == 0:
        return True
    if shutil.which("pg_ctlcluster") and Path("/etc/postgresql").is_dir():
        for version in sorted(p.name for p in Path("/etc/postgresql").iterdir()):
            say(f"starting the local PostgreSQL {version} cluster")
            subprocess.call(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"])
        return subprocess.call(check, stderr=subprocess.DEVNULL) == 0
    return False


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
    ensure_system_packages(TEST_SYSTEM_PACKAGES)
    compile_translations()
    pytest = [str(PYTHON), "-m", "pytest", *args]
    say("test run 1 of 2: SQLite")
    code = subprocess.call(pytest, cwd=ROOT)
    if code != 0:
        return code
    if not postgres_ready():
        if os.environ.get("CI"):
            say(f"PostgreSQL is required in CI but does not answer at {POSTGRES_URL}")
            return 1
        say(f"PostgreSQL does not answer at {POSTGRES_URL}: skipped the PostgreSQL run")
        return 0
    say("test run 2 of 2: PostgreSQL")
    return subprocess.call(pytest, cwd=ROOT, env={**os.environ, "SCOREKEEPER_TEST_DATABASE_URL": POSTGRES_URL})


COMMANDS = {"run": run, "serve": serve, "test": test}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
