"""A whole backup of a running server, and its restore: every hand acknowledged before the backup began is in it,
even while phones write; the secret key comes back with it, so every phone's edit key still works; a damaged
backup changes nothing. The real `flask backup` and `flask restore` commands, on both databases."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from helpers.api import bearer
from helpers.databases import Template
from helpers.full_disk import FullDisk
from helpers.matches import PLAYERS
from scorekeeper import backups
from scorekeeper.app import create_app
from scorekeeper.db import db

DEAL = {"points": [75, 45]}


def made_app(url: str, instance: Path, monkeypatch: pytest.MonkeyPatch, secret: str | None = None) -> Flask:
    """The app as a server runs it: its own instance folder, its secret key from there unless given."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(instance))
    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "MIGRATE_ON_START": False, "RATELIMIT_ENABLED": False}
    return create_app({**config, **({"SECRET_KEY": secret} if secret else {})})


@pytest.fixture
def server(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    app = made_app(database_url, tmp_path / "instance", monkeypatch)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def hands_of(app: Flask, public_id: str) -> list[dict]:
    return app.test_client().get(f"/api/v1/matches/{public_id}").get_json()["hands"]


def test_a_backup_taken_while_phones_write_restores_every_hand_acknowledged_before_it(
        server: Flask, tmp_path: Path, template: Template, database: str, monkeypatch: pytest.MonkeyPatch):
    client = server.test_client()
    made = [client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json() for _ in range(3)]
    for match in made:
        for _ in range(4):
            assert client.post(f"/api/v1/matches/{match['id']}/hands", json=DEAL,
                               headers=bearer(match["edit_key"])).status_code == 201
    writing, stop = server.test_client(), threading.Event()
    extra = writing.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()

    def phones() -> None:  # a table goes on entering hands all through the backup
        while not stop.is_set():
            writing.post(f"/api/v1/matches/{extra['id']}/hands", json=DEAL, headers=bearer(extra["edit_key"]))

    table = threading.Thread(target=phones)
    table.start()
    try:
        taken = server.test_cli_runner().invoke(args=["backup", str(tmp_path / "backups")])
    finally:
        stop.set()
        table.join(timeout=30)
    assert taken.exit_code == 0, taken.output
    folder = next((tmp_path / "backups").iterdir())
    manifest = backups.checked(folder)
    assert manifest["database"] == ("sqlite" if database == "sqlite" else "postgresql") and manifest["revision"]
    if database == "sqlite":
        with sqlite3.connect(folder / backups.SQLITE_COPY) as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        copy.close()
        target = tmp_path / "elsewhere" / "scorekeeper.sqlite"  # a new laptop: an empty instance folder
        restored_url = f"sqlite:///{target}"
    else:
        client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS})  # made after: gone again
        restored_url = server.config["SQLALCHEMY_DATABASE_URI"]
        with server.app_context():
            db.session.remove()
            db.engine.dispose()
    secret = (tmp_path / "instance" / "secret_key").read_text()
    restorer = made_app(restored_url, tmp_path / "elsewhere", monkeypatch, secret="only-to-load-the-command")
    put_back = restorer.test_cli_runner().invoke(args=["restore", "--yes", str(folder)])
    assert put_back.exit_code == 0, put_back.output
    assert (tmp_path / "elsewhere" / "secret_key").read_text() == secret
    restored = made_app(restored_url, tmp_path / "elsewhere", monkeypatch)
    assert restored.secret_key == secret  # every phone's cookie, and the keys it holds, still readable
    for match in made:
        assert [hand["entry"]["points"] for hand in hands_of(restored, match["id"])] == [[75, 45]] * 4
    numbers = [hand["number"] for hand in hands_of(restored, extra["id"])]
    assert numbers == list(range(1, len(numbers) + 1))  # the table's hands as they stood at one moment, no gap
    phone = restored.test_client()
    assert phone.post(f"/api/v1/matches/{made[0]['id']}/hands", json=DEAL,
                      headers=bearer(made[0]["edit_key"])).status_code == 201  # the edit keys still work
    for app in (restorer, restored):
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_a_damaged_backup_is_refused_and_changes_nothing(server: Flask, tmp_path: Path):
    client = server.test_client()
    match = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
    assert server.test_cli_runner().invoke(args=["backup", str(tmp_path / "backups")]).exit_code == 0
    folder = next((tmp_path / "backups").iterdir())
    assert not [path for path in (tmp_path / "backups").iterdir() if path.name.endswith(".part")]
    copy = next(path for path in folder.iterdir() if path.name.startswith("database."))
    damaged = bytearray(copy.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    copy.write_bytes(bytes(damaged))
    client.post(f"/api/v1/matches/{match['id']}/hands", json=DEAL, headers=bearer(match["edit_key"]))
    refused = server.test_cli_runner().invoke(args=["restore", "--yes", str(folder)])
    assert refused.exit_code != 0 and "damaged" in refused.output
    assert len(hands_of(server, match["id"])) == 1  # the database as it was
    not_one = server.test_cli_runner().invoke(args=["restore", "--yes", str(tmp_path)])
    assert not_one.exit_code != 0 and "not a backup" in not_one.output


def test_a_backup_onto_a_full_disk_says_so_in_one_sentence_and_leaves_nothing_there(server: Flask, tmp_path: Path):
    """The backup disk is full: `flask backup` fails (non-zero) with one sentence, what failed, that nothing was
    left behind and what to do; no traceback, no partial folder. Once space is freed the same command backs up."""
    disk = FullDisk(tmp_path / "usb")
    if not disk.mounted:
        pytest.skip(f"this machine lets no test mount a small disk: {disk.why}")
    try:
        client = server.test_client()
        assert client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).status_code == 201
        disk.fill()
        into = disk.path / "scorekeeper"
        failed = server.test_cli_runner().invoke(args=["backup", str(into)])
        assert failed.exit_code == 1 and isinstance(failed.exception, SystemExit), failed.output
        said = failed.output.strip()
        assert len(said.splitlines()) == 1 and "Traceback" not in said, said
        assert said.startswith("Error: No backup was written") and "no space left" in said, said
        assert "nothing was left behind" in said and "free some space" in said, said
        assert sorted(path.name for path in disk.path.iterdir()) == ["filler"]
        disk.free()
        done = server.test_cli_runner().invoke(args=["backup", str(into)])
        assert done.exit_code == 0, done.output
        assert [path.name.startswith("scorekeeper-backup-") for path in into.iterdir()] == [True]
    finally:
        disk.close()
