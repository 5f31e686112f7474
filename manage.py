#!/usr/bin/env python3
"""Set up and run Scorekeeper with nothing but Python 3.11+.

    python3 manage.py run     install into .venv if needed, then serve the app on http://127.0.0.1:5000
    python3 manage.py test    install into .venv (with the test tools) if needed, then run the whole test suite

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
# Debian packages the test suite uses (PDF text checks), installed when missing and we may.
TEST_SYSTEM_PACKAGES = {"pdftotext": "poppler-utils"}


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


def ensure_system_packages(packages: dict[str, str]) -> None:
    """Install missing Debian packages (commands the tests call) when running as root with apt."""
    missing = sorted({package for command, package in packages.items() if shutil.which(command) is None})
    if not missing:
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        say(f"please install these system packages: {' '.join(missing)}")
        return
    say(f"installing system packages: {' '.join(missing)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True, env=env)


def run(args: list[str]) -> int:
    ensure_venv("")
    flask = [str(PYTHON), "-m", "flask", "--app", "scorekeeper.app:create_app", "run"]
    return subprocess.call([*flask, *(args or ["--host", "127.0.0.1", "--port", "5000"])], cwd=ROOT)


def test(args: list[str]) -> int:
    ensure_venv("[test]")
    ensure_system_packages(TEST_SYSTEM_PACKAGES)
    return subprocess.call([str(PYTHON), "-m", "pytest", *args], cwd=ROOT)


COMMANDS = {"run": run, "test": test}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
