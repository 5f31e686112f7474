"""The linter passes: `ruff check` over every Python file of the project, with the rules in pyproject.toml.

Ruff comes with the test extra (pyproject.toml). On a failure the message is ruff's own report;
`.venv/bin/python -m ruff check --fix` sorts imports and drops unused ones.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A file from each place that must be linted: a new top-level script or folder is found the same way.
MUST_BE_LINTED = [
    "manage.py",
    "setup_system.py",
    "gunicorn.conf.py",
    "scorekeeper/games/base.py",
    "scorekeeper/web/api/matches.py",
    "tests/conftest.py",
    "tests/browser/conftest.py",
    "bench/harness.py",
    "migrations/env.py",
]


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    # --no-cache: nothing written into the tree; the whole project takes well under a second.
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache", "."],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )


def test_ruff_checks_every_part_of_the_project():
    result = ruff("check", "--show-files")
    assert result.returncode == 0, result.stderr or result.stdout
    checked = {Path(line).resolve() for line in result.stdout.splitlines() if line.strip()}
    missing = [name for name in MUST_BE_LINTED if (ROOT / name).resolve() not in checked]
    assert not missing, f"ruff does not look at {missing}: see [tool.ruff] in pyproject.toml"


def test_ruff_finds_nothing():
    result = ruff("check", "--output-format", "full")
    assert result.returncode == 0, f"ruff check failed:\n{result.stdout}{result.stderr}"
