"""A downgrade stays put: after `flask db downgrade` the schema is the operator's, and no `flask db` command
brings it back up by itself (MIGRATE_ON_START is for starting the app, not for moving the schema by hand).

The real `flask` command on a real SQLite file, as an operator types it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAD_BEFORE_MEMBERS = "2f1a5e0d4ce2"  # club evenings, agreements and locks: before members proved who they are


def flask(folder: Path, *args: str) -> str:
    env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": str(folder), "SCOREKEEPER_SECRET_KEY": "operator-test",
           "SCOREKEEPER_DATABASE_URL": f"sqlite:///{folder / 'scorekeeper.sqlite'}", "FLASK_APP": "scorekeeper.app"}
    env.pop("SCOREKEEPER_MIGRATE_ON_START", None)  # the default: on, for SQLite
    done = subprocess.run([sys.executable, "-m", "flask", *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_after_a_downgrade_no_flask_db_command_upgrades_again(tmp_path: Path, database: str):
    if database != "sqlite":
        pytest.skip("MIGRATE_ON_START is on by default for SQLite only")
    flask(tmp_path, "db", "upgrade")
    head = flask(tmp_path, "db", "heads").split()[0]
    assert head in flask(tmp_path, "db", "current")
    flask(tmp_path, "db", "downgrade", HEAD_BEFORE_MEMBERS)
    for _ in range(2):  # the next commands look, and leave it where the operator put it
        current = flask(tmp_path, "db", "current")
        assert HEAD_BEFORE_MEMBERS in current and head not in current, current
    flask(tmp_path, "db", "upgrade")  # and up again only when asked
    assert head in flask(tmp_path, "db", "current")


def test_the_readme_says_what_a_downgrade_past_each_revision_drops():
    """Every revision has its row in the README's downgrade table, the first one (everything) included."""
    revisions = {re.search(r"^revision = ['\"](\w+)['\"]", path.read_text(), re.M)[1]
                 for path in (ROOT / "migrations" / "versions").glob("*.py")}
    readme = (ROOT / "README.md").read_text()
    table = readme.split("### Downgrades", 1)[1].split("\n### ", 1)[0]
    listed = re.findall(r"^\| `(\w+)` ", table, re.M)
    assert len(listed) == len(set(listed)) and set(listed) == revisions, sorted(revisions ^ set(listed))
