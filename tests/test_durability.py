"""Nothing acknowledged is lost: SQLite settings, a killed writer, the edit history, backups, migrations."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import JSON, DateTime, bindparam, func, select, text
from sqlalchemy.exc import IntegrityError

from helpers.api import bearer, create_match
from helpers.forms import csrf_token
from helpers.matches import PLAYERS
from scorekeeper.app import create_app
from scorekeeper.db import db
from scorekeeper.models import Match

ROOT = Path(__file__).resolve().parent.parent
SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
FIRST_REVISION = "c576bed8a771"
ANN, BOB, CID, DEE = PLAYERS
BARBU_HANDS = [
    {"contract": "no_tricks", "tricks": {ANN: 4, BOB: 3, CID: 5, DEE: 1},
     "doubles": [{"by": BOB, "target": ANN, "redoubled": True}, {"by": CID, "target": DEE, "redoubled": False}]},
    {"contract": "no_queens", "queens": {ANN: 1, BOB: 0, CID: 1, DEE: 2}},
    {"contract": "barbu", "king_of_hearts": CID, "doubles": [{"by": DEE, "target": ANN, "redoubled": False}]},
    {"contract": "trumps", "tricks": {ANN: 6, BOB: 3, CID: 1, DEE: 3}, "trump_suit": "spades"},
    {"contract": "dominoes", "order": [BOB, ANN, DEE, CID], "start_rank": "J"},
]
GAMES = {
    "barbu": (PLAYERS, {"first_declarer": ANN}, BARBU_HANDS),
    "kozyol": (PLAYERS, {"target": 12, "eggs_double_next": True},
               [{"points": [75, 45], "trump_suit": "hearts"}, {"points": [0, 120], "tricks": [0, 9]},
                {"points": [60, 60], "last_trick": BOB}]),
    "hearts": (SIX, {"target": 100, "moon_points": 52},
               [{"hearts": dict(zip(SIX, [5, 4, 3, 6, 8, 0])), "black_marias": dict(zip(SIX, [1, 0, 0, 0, 1, 0]))},
                {"hearts": dict(zip(SIX, [26, 0, 0, 0, 0, 0])), "black_marias": dict(zip(SIX, [2, 0, 0, 0, 0, 0])),
                 "moon": "add"}]),
}


def played(client: FlaskClient, game: str) -> dict[str, Any]:
    """A match of the game with its sample hands recorded over the API; returns the creation answer."""
    players, options, hands = GAMES[game]
    made = create_match(client, game, players, options)
    for entry in hands:
        answer = client.post(f"/api/v1/matches/{made['id']}/hands", json=entry, headers=bearer(made["edit_key"]))
        assert answer.status_code == 201, answer.get_json()
    return made


def state(client: FlaskClient, match_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/v1/matches/{match_id}")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()


def match_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Match))


# -- SQLite settings on every connection ----------------------------------------------------------


@pytest.mark.sqlite_only
def test_every_sqlite_connection_has_wal_and_foreign_keys(app: Flask):
    with app.app_context():
        engine = db.engine
        seen = []

        def check(connection) -> None:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() > 0
            seen.append(connection.connection.dbapi_connection)

        held = [engine.connect() for _ in range(4)]  # four at once: four different pooled connections
        for connection in held:
            check(connection)
        assert len({id(dbapi) for dbapi in seen}) == 4
        for connection in held:
            connection.close()
        engine.dispose()  # brand-new connections, and one opened in another thread
        with engine.connect() as connection:
            check(connection)
        worker = threading.Thread(target=lambda: check(engine.connect()))
        worker.start()
        worker.join()
        assert len(seen) == 6
        with engine.connect() as connection:  # foreign keys are enforced, not only switched on
            with pytest.raises(IntegrityError):
                connection.execute(text(
                    "INSERT INTO hands (match_id, number, entry, created_at, updated_at) "
                    "VALUES (424242, 1, '{}', '2026-01-01', '2026-01-01')"))
                connection.commit()


# -- a writer killed mid-stream -------------------------------------------------------------------

WRITER = r"""
import sys
from scorekeeper.app import create_app

SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
app = create_app({"TESTING": True, "SECRET_KEY": "kill-test", "SQLALCHEMY_DATABASE_URI": sys.argv[1],
                  "MIGRATE_ON_START": True})
client = app.test_client()
made = client.post("/api/v1/matches", json={"game": "hearts", "players": SIX, "options": {"target": 1000}}).get_json()
print("match", made["id"], made["edit_key"], flush=True)
number = 0
while True:
    number += 1
    rest = 26 - number % 7 - number % 5  # every heart taken, shared so that nobody nears the target
    hearts = [number % 7, number % 5, *(rest // 4 + (seat < rest % 4) for seat in range(4))]
    entry = {"hearts": dict(zip(SIX, hearts)), "black_marias": dict.fromkeys(SIX, 0),
             "number": number}
    answer = client.post(f"/api/v1/matches/{made['id']}/hands", json=entry,
                         headers={"Authorization": "Bearer " + made["edit_key"]})
    if answer.status_code != 201:
        print("refused", answer.status_code, answer.get_data(as_text=True), flush=True)
        break
    print(number, flush=True)
"""
ACKNOWLEDGED_BEFORE_KILL = 60


@pytest.mark.sqlite_only
def test_a_writer_killed_mid_stream_loses_no_acknowledged_hand(tmp_path: Path, database: str):
    path = tmp_path / "killed.sqlite"
    url = f"sqlite:///{path}"
    env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance")}
    writer = subprocess.Popen([sys.executable, "-c", WRITER, url], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, cwd=ROOT, env=env)
    watchdog = threading.Timer(120, writer.kill)
    watchdog.start()
    try:
        header = writer.stdout.readline().split()
        assert header and header[0] == "match", f"the writer did not start: {header}"
        _, match_id, key = header
        acknowledged = []
        while len(acknowledged) < ACKNOWLEDGED_BEFORE_KILL:
            line = writer.stdout.readline()
            assert line and line.strip().isdigit(), f"the writer stopped: {line!r}"
            acknowledged.append(int(line))
        time.sleep(random.uniform(0, 0.02))  # somewhere inside the next write
        os.kill(writer.pid, signal.SIGKILL)
        assert writer.wait(timeout=30) == -signal.SIGKILL
        acknowledged.extend(int(line) for line in writer.stdout.read().split() if line.isdigit())
    finally:
        watchdog.cancel()
        writer.stdout.close()
    assert acknowledged == list(range(1, len(acknowledged) + 1))

    with sqlite3.connect(path) as raw:  # the write-ahead log is recovered on opening
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": url, "MIGRATE_ON_START": True})
    client = app.test_client()
    found = state(client, match_id)  # replays every stored hand through the rules
    numbers = [hand["number"] for hand in found["hands"]]
    # Every acknowledged hand is there; at most the one being written when killed went through unannounced.
    assert numbers[: len(acknowledged)] == acknowledged
    assert len(numbers) - len(acknowledged) in (0, 1)
    for hand in found["hands"]:
        n = hand["number"]
        assert hand["entry"]["hearts"]["Ann"] == n % 7 and hand["entry"]["hearts"]["Bob"] == n % 5
    assert found["totals"]["Ann"] == sum(n % 7 for n in numbers)
    history = client.get(f"/api/v1/matches/{match_id}/history").get_json()["changes"]
    assert sorted(change["number"] for change in history) == numbers
    # The match goes on from where it stopped.
    entry = {"hearts": dict(zip(SIX, [5, 5, 4, 4, 4, 4])), "black_marias": dict.fromkeys(SIX, 0),
             "number": len(numbers) + 1}
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=entry, headers=bearer(key)).status_code == 201
    print(f"\nkill test: {len(acknowledged)} hands acknowledged before SIGKILL, {len(numbers)} stored after restart")
    with app.app_context():
        db.engine.dispose()


# -- the edit history ------------------------------------------------------------------------------


def test_record_correct_undo_over_the_api_leave_three_lines_of_history(client):
    made = create_match(client, options={"first_declarer": ANN})
    url = f"/api/v1/matches/{made['id']}/hands"
    first, second = BARBU_HANDS[0], {**BARBU_HANDS[0], "tricks": {ANN: 0, BOB: 6, CID: 6, DEE: 1}}
    assert client.post(url, json=first, headers=bearer(made["edit_key"])).status_code == 201
    recorded = state(client, made["id"])["hands"][0]["entry"]
    assert client.put(f"{url}/1", json=second, headers=bearer(made["edit_key"])).status_code == 200
    corrected = state(client, made["id"])["hands"][0]["entry"]
    assert client.delete(f"{url}/1", headers=bearer(made["edit_key"])).status_code == 200
    history = client.get(f"/api/v1/matches/{made['id']}/history").get_json()["changes"]
    assert [(c["action"], c["number"], c["before"], c["after"]) for c in history] == [
        ("undo", 1, corrected, None),
        ("correct", 1, recorded, corrected),
        ("record", 1, None, recorded),
    ]
    assert corrected["tricks"][BOB] == 6 and recorded["tricks"][BOB] == 3
    times = [datetime.fromisoformat(change["at"]) for change in history]
    assert times == sorted(times, reverse=True) and all(t.tzinfo is not None for t in times)
    assert {change["source"] for change in history} == {"api"}
    assert state(client, made["id"])["hands"] == []


def test_the_history_page_is_linked_from_the_match_page_and_shows_before_and_after(client):
    made = create_match(client, options={"first_declarer": ANN})
    assert client.get(made["edit_url"]).status_code == 302
    page = f"/m/{made['id']}/hands/new?variant=no_tricks"
    token = csrf_token(client, page)
    counts = {"tricks_0": "4", "tricks_1": "3", "tricks_2": "5", "tricks_3": "1", "number": "1"}
    assert client.post(page, data={"csrf_token": token, "variant": "no_tricks", **counts}).status_code == 302
    fixed = {**counts, "tricks_0": "2", "tricks_1": "5"}
    assert client.post(f"/m/{made['id']}/hands/1", data={"csrf_token": token, "variant": "no_tricks", **fixed}
                       ).status_code == 302
    assert client.post(f"/m/{made['id']}/hands/1/undo", data={"csrf_token": token}).status_code == 302

    match_page = client.get(f"/m/{made['id']}").text
    assert f'href="/m/{made["id"]}/history"' in match_page
    shown = client.get(f"/m/{made['id']}/history")
    assert shown.status_code == 200
    history = shown.text.split('<ol class="history"', 1)[1].split("</ol>", 1)[0]
    lines = history.split("<li>")[1:]
    assert len(lines) == 3
    assert "Hand 1 undone" in lines[0] and "Hand 1 corrected" in lines[1] and "Hand 1 recorded" in lines[2]
    assert "Before" in lines[0] and "After" not in lines[0]
    assert "Before" in lines[1] and "After" in lines[1]
    assert "Before" not in lines[2] and "After" in lines[2]
    before, after = lines[1].split("After", 1)
    assert '"Ann": 4' in before and '"Ann": 2' in after  # the counts as entered, then as corrected
    assert all("this phone" in line for line in lines)  # which phone did it, as that phone reads it
    assert "Ann: tricks 4 → 2" in lines[1] and "Bob: tricks 3 → 5" in lines[1]  # what the correction changed
    assert all(re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", line) for line in lines)


def test_a_new_match_has_an_empty_history(client):
    made = create_match(client)
    assert client.get(f"/api/v1/matches/{made['id']}/history").get_json() == {"changes": []}
    assert "Nothing has been entered yet." in client.get(f"/m/{made['id']}/history").text
    assert client.get("/api/v1/matches/nope/history").status_code == 404
    assert client.get("/m/nope/history").status_code == 404


# -- backups: export and import ------------------------------------------------------------------


def same_match(original: dict[str, Any], restored: dict[str, Any]) -> None:
    assert restored["id"] != original["id"]
    for field in ("game", "players", "options", "totals", "finished", "winners", "next"):
        assert restored[field] == original[field], field
    assert restored["hands"] == original["hands"]


@pytest.mark.parametrize("game", list(GAMES))
def test_export_and_import_over_the_api_give_back_the_same_match(client, game):
    made = played(client, game)
    original = state(client, made["id"])
    document = client.get(f"/api/v1/matches/{made['id']}/export").get_json()
    assert document["format"] == "scorekeeper-match" and document["game"] == game
    assert len(document["hands"]) == len(GAMES[game][2])
    answer = client.post("/api/v1/matches/import", json=document)
    assert answer.status_code == 201, answer.get_json()
    restored = answer.get_json()
    same_match(original, restored)
    assert restored["edit_key"] != made["edit_key"]
    hands_url = f"/api/v1/matches/{restored['id']}/hands/{len(restored['hands'])}"
    assert client.delete(hands_url, headers=bearer(made["edit_key"])).status_code == 403  # its own key only
    assert client.delete(hands_url, headers=bearer(restored["edit_key"])).status_code == 200
    assert len(state(client, made["id"])["hands"]) == len(GAMES[game][2])  # the original is untouched
    history = client.get(f"/api/v1/matches/{restored['id']}/history").get_json()["changes"]
    assert [change["action"] for change in history][-len(GAMES[game][2]):] == ["record"] * len(GAMES[game][2])


@pytest.mark.parametrize("game", list(GAMES))
def test_download_the_backup_and_restore_it_in_the_browser(client, game):
    made = played(client, game)
    original = state(client, made["id"])
    download = client.get(f"/m/{made['id']}/export.json")
    assert download.status_code == 200 and download.mimetype == "application/json"
    assert download.headers["Content-Disposition"].startswith("attachment;")
    assert made["id"] in client.get(f"/m/{made['id']}").text.split(f'href="/m/{made["id"]}/export.json"')[0]

    phone = client.application.test_client()
    token = csrf_token(phone, "/import")
    answer = phone.post("/import", data={"csrf_token": token, "document": (BytesIO(download.data), "backup.json")},
                        content_type="multipart/form-data")
    assert answer.status_code == 302, answer.text
    restored_id = answer.headers["Location"].rsplit("/", 1)[1]
    page = phone.get(answer.headers["Location"])
    assert "restored as a new match" in page.text
    same_match(original, state(phone, restored_id))
    assert phone.get(f"/m/{restored_id}/hands/new").status_code == 200  # this phone holds the new edit key
    assert phone.get(f"/m/{made['id']}/hands/new").status_code == 403  # and not the old match's


def doctored(client: FlaskClient) -> dict[str, dict[str, Any]]:
    """Exports changed by hand or damaged, each with the field the refusal names."""
    made = played(client, "barbu")
    good = client.get(f"/api/v1/matches/{made['id']}/export").get_json()
    illegal = json.loads(json.dumps(good))
    illegal["hands"][1]["queens"][ANN] = 3  # five queens in hand 2
    return {
        "hands.2": illegal,
        "hands.1": {**good, "hands": [{"contract": "no_tricks", "tricks": {ANN: 13, BOB: 13, CID: 0, DEE: 0}}]},
        "players": {**good, "players": [ANN, ANN, CID, DEE]},
        "game": {**good, "game": "poker"},
        "format": {**good, "format": "something-else"},
        "format_version": {**good, "format_version": 99},
        "hands": {**good, "hands": "all of them"},
    }


def test_a_doctored_export_is_refused_over_the_api_and_creates_nothing(app, client):
    cases = doctored(client)
    before = match_count(app)
    for field, document in cases.items():
        answer = client.post("/api/v1/matches/import", json=document)
        assert answer.status_code == 422, (field, answer.get_json())
        error = answer.get_json()["error"]
        assert field in error["fields"] and error["message"], (field, error)
    assert "Hand 2 breaks a rule" in client.post("/api/v1/matches/import", json=cases["hands.2"]
                                                 ).get_json()["error"]["message"]
    for body in (b"", b"{", b"[]", b"not json"):
        assert client.post("/api/v1/matches/import", data=body, content_type="application/json").status_code == 400
    assert match_count(app) == before


def test_a_damaged_or_doctored_file_is_refused_in_the_browser_with_the_reason(app, client):
    cases = doctored(client)
    files = {field: json.dumps(document).encode() for field, document in cases.items()}
    good = json.dumps(cases["players"] | {"players": PLAYERS}).encode()
    files.update({"truncated": good[: len(good) // 2], "binary": b"\x89PNG\r\n\x1a\n\x00\x00", "empty": b"",
                  "not an object": b"[1, 2, 3]", "deep": b"[" * 50_000})
    before = match_count(app)
    token = csrf_token(client, "/import")
    for name, content in files.items():
        answer = client.post("/import", data={"csrf_token": token, "document": (BytesIO(content), "backup.json")},
                             content_type="multipart/form-data")
        assert answer.status_code == 422, name
        reasons = re.findall(r'<p class="error[^"]*"[^>]*>(.*?)</p>', answer.text, flags=re.S)
        assert reasons, f"{name}: refused without a reason"
        if name == "hands.2":
            assert any("Hand 2 breaks a rule" in reason for reason in reasons), reasons
    assert match_count(app) == before


# -- schema migrations -----------------------------------------------------------------------------


def bare_app(database_url: str) -> Flask:
    """The app on database_url without migrating on start: the test decides the schema's revision."""
    return create_app({"TESTING": True, "SECRET_KEY": "migrations", "SQLALCHEMY_DATABASE_URI": database_url,
                       "MIGRATE_ON_START": False})


def current_revision(app: Flask) -> str | None:
    with app.app_context(), db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def test_upgrading_from_the_first_revision_keeps_every_match_and_hand(empty_database_url):
    app = bare_app(empty_database_url)
    with app.app_context():
        flask_migrate.upgrade(revision=FIRST_REVISION)
    assert current_revision(app) == FIRST_REVISION
    key = "an-edit-key-from-before-the-history"
    players, options, entries = PLAYERS, {"first_declarer": ANN, "domino_scores": [45, 20, 5, -5],
                                          "enforce_declarer_doubles": True}, BARBU_HANDS[:3]
    stamp = datetime(2026, 11, 1, 20, 30, tzinfo=timezone.utc)
    with app.app_context(), db.engine.begin() as connection:
        insert_match = text(
            "INSERT INTO matches (public_id, game, players, options, version, edit_key_hash, created_at, updated_at) "
            "VALUES (:public_id, 'barbu', :players, :options, :version, :hash, :at, :at)"
        ).bindparams(bindparam("players", type_=JSON), bindparam("options", type_=JSON),
                     bindparam("at", type_=DateTime(timezone=True)))
        connection.execute(insert_match, {"public_id": "OldMatchFromRevision1", "players": players,
                                          "options": options, "version": len(entries) + 1,
                                          "hash": hashlib.sha256(key.encode()).hexdigest(), "at": stamp})
        match_id = connection.execute(text("SELECT id FROM matches WHERE public_id = 'OldMatchFromRevision1'")).scalar()
        insert_hand = text(
            "INSERT INTO hands (match_id, number, entry, created_at, updated_at) VALUES (:match_id, :number, :entry, :at, :at)"
        ).bindparams(bindparam("entry", type_=JSON), bindparam("at", type_=DateTime(timezone=True)))
        for number, entry in enumerate(entries, 1):
            connection.execute(insert_hand, {"match_id": match_id, "number": number, "entry": entry, "at": stamp})

    with app.app_context():
        flask_migrate.upgrade()
        head = ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config()).get_current_head()
    assert current_revision(app) == head != FIRST_REVISION

    with app.app_context(), db.engine.connect() as connection:
        rows = connection.execute(text("SELECT number, entry FROM hands ORDER BY number")).all()
        stored = [(number, entry if isinstance(entry, dict) else json.loads(entry)) for number, entry in rows]
        assert stored == list(enumerate(entries, 1))
        assert connection.execute(text("SELECT count(*) FROM hand_changes")).scalar() == 0
    client = app.test_client()
    found = state(client, "OldMatchFromRevision1")
    assert found["players"] == players and found["options"] == options
    # It replays exactly as the same hands entered today.
    today = create_match(client, "barbu", players, options)
    for entry in entries:
        assert client.post(f"/api/v1/matches/{today['id']}/hands", json=entry,
                           headers=bearer(today["edit_key"])).status_code == 201
    fresh = state(client, today["id"])
    assert found["hands"] == fresh["hands"] and found["totals"] == fresh["totals"] and found["next"] == fresh["next"]
    # The history works on the old match: a correction keeps what the old hand was.
    url = "/api/v1/matches/OldMatchFromRevision1/hands"
    fixed = {**entries[1], "queens": {ANN: 0, BOB: 1, CID: 1, DEE: 2}}
    assert client.put(f"{url}/2", json=fixed, headers=bearer(key)).status_code == 200
    assert client.post(url, json=BARBU_HANDS[3], headers=bearer(key)).status_code == 201
    history = client.get("/api/v1/matches/OldMatchFromRevision1/history").get_json()["changes"]
    assert [(c["action"], c["number"]) for c in history] == [("record", 4), ("correct", 2)]
    assert history[1]["before"] == entries[1]  # the row as it was stored before the upgrade
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_the_migrated_schema_matches_the_models(empty_database_url):
    app = bare_app(empty_database_url)
    with app.app_context():
        flask_migrate.upgrade()
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            differences = compare_metadata(context, db.metadata)
        db.engine.dispose()
    assert differences == [], "the models changed without a migration (flask db migrate)"
