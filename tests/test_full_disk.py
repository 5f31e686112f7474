"""A full disk: every write says so (503, Retry-After, nothing saved), never "already recorded", and loses nothing.

The SQLite database, the sheets and the secret key sit on a small filesystem of the test's own, filled to
its last byte (helpers/full_disk.py). A hand sent to a full disk is answered 503 in the API's JSON error
(the phone's outbox keeps it and sends it again), a form comes back as it was typed, and once space is
freed the same hand, sent again under its key, is saved exactly once.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask

from helpers.api import bearer
from helpers.databases import FILE_NAME, Template
from helpers.forms import TOKEN
from helpers.full_disk import FullDisk
from helpers.i18n import seen
from helpers.matches import PLAYERS
from helpers.private_postgres import private_postgres
from scorekeeper.app import create_app
from scorekeeper.config import SECRET_FILE, NoSecretKey, stored_secret
from scorekeeper.db import db
from scorekeeper.web.sheets.cache import SheetCache

JSON = {"Accept": "application/json"}
DEAL = {"points": [75, 45]}
KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')
SAYS = "The server cannot save right now"


@pytest.fixture
def mount(tmp_path: Path) -> Iterator[FullDisk]:
    real = FullDisk(tmp_path / "disk")
    yield real
    real.close()


@pytest.fixture
def full(mount: FullDisk, template: Template, database: str) -> Iterator[tuple[Flask, FullDisk]]:
    """An app whose SQLite database is on the small disk."""
    if database != "sqlite":
        pytest.skip("a full disk is a SQLite file's: PostgreSQL keeps its files on its own server")
    if not mount.mounted:
        pytest.skip(f"this machine lets no test mount a small disk: {mount.why}")
    url = template.copy(mount.path)
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": url,
                      "MIGRATE_ON_START": False, "RATELIMIT_ENABLED": False, "PDF_CACHE_BYTES": 0})
    yield app, mount
    mount.free()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    (mount.path / FILE_NAME).unlink(missing_ok=True)


def hands_stored(app: Flask, public_id: str) -> int:
    client = app.test_client()
    return len(client.get(f"/api/v1/matches/{public_id}").get_json()["hands"])


def test_a_hand_sent_to_a_full_disk_is_503_not_already_recorded_and_arrives_once_when_space_is_freed(full):
    app, disk = full
    client = app.test_client()
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
    disk.fill()
    headers = {**bearer(made["edit_key"]), "Idempotency-Key": "deal-1-of-this-phone"}
    for _ in range(3):  # the outbox sends it again and again while the disk is full
        answer = client.post(f"/api/v1/matches/{made['id']}/hands", json=DEAL, headers=headers)
        assert answer.status_code == 503, answer.get_json()
        assert int(answer.headers["Retry-After"]) > 0
        assert answer.get_json()["error"]["message"].startswith(SAYS)
        assert "already recorded" not in answer.get_data(as_text=True)
    disk.free()
    assert hands_stored(app, made["id"]) == 0  # nothing half saved
    saved = client.post(f"/api/v1/matches/{made['id']}/hands", json=DEAL, headers=headers)
    again = client.post(f"/api/v1/matches/{made['id']}/hands", json=DEAL, headers=headers)
    assert saved.status_code == 201 and again.status_code == 201
    assert hands_stored(app, made["id"]) == 1


def test_the_outbox_and_the_form_hear_503_and_the_form_keeps_what_was_typed(full):
    app, disk = full
    client = app.test_client()
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
    phone = app.test_client()
    phone.get(made["edit_url"])
    path = f"/m/{made['id']}/hands/new"
    page = phone.get(path).text
    form = {"csrf_token": TOKEN.search(page)[1], "number": "1", "idempotency_key": KEY.search(page)[1],
            "side": "0", "mode": "points", "points": "75"}
    disk.fill()
    kept = phone.post(path, data=form, headers=JSON)  # the outbox sending a hand it kept
    assert kept.status_code == 503 and kept.get_json()["error"]["message"].startswith(SAYS)
    assert "Retry-After" in kept.headers
    typed = phone.post(path, data=form)  # the form itself
    assert typed.status_code == 503 and SAYS in seen(typed.text)
    assert 'value="75"' in typed.text  # what was typed is still there
    disk.free()
    assert hands_stored(app, made["id"]) == 0
    assert phone.post(path, data=form).status_code == 302
    assert phone.post(path, data=form, headers=JSON).status_code == 201  # the same key again: the same answer
    assert hands_stored(app, made["id"]) == 1


def test_every_other_write_on_a_full_disk_says_the_truth(full):
    app, disk = full
    client = app.test_client()
    club = client.post("/api/v1/clubs", json={"name": "Full"}).get_json()
    admin = bearer(club["admin_key"])
    for name in ("Ann", "Bob", "Cid", "Dee"):
        client.post(f"/api/v1/clubs/{club['id']}/players", json={"name": name}, headers=admin)
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
    ann = client.get(f"/api/v1/clubs/{club['id']}").get_json()
    ann = next(player["id"] for player in ann["players"] if player["name"] == "Ann")
    link = client.post(f"/api/v1/clubs/{club['id']}/players/{ann}/member-key", headers=admin).get_json()
    member_key, member_url = link["member_key"], link["member_url"]
    planned = client.post(f"/api/v1/clubs/{club['id']}/planned-evenings", headers=admin,
                          json={"day": (date.today() + timedelta(days=2)).isoformat()})
    assert planned.status_code == 201, planned.get_json()
    evening = planned.get_json()["evenings"][0]["id"]
    answers = f"/api/v1/clubs/{club['id']}/planned-evenings/{evening}/answers"
    disk.fill()
    writes = [
        ("POST", answers, {"coming": True}, {"Club-Member-Key": member_key}),
        ("PUT", f"/api/v1/clubs/{club['id']}/planned-evenings/{evening}/present/{ann}", {"present": True}, admin),
        ("POST", "/api/v1/matches", {"game": "kozyol", "players": PLAYERS}, {}),
        ("POST", f"/api/v1/clubs/{club['id']}/matches", {"game": "kozyol", "players": ["Ann", "Bob", "Eve", "Fay"]},
         {}),
        ("POST", f"/api/v1/clubs/{club['id']}/players", {"name": "Gus"}, admin),
        ("POST", "/api/v1/clubs", {"name": "Another"}, {}),
        ("POST", f"/api/v1/matches/{made['id']}/hands", DEAL, bearer(made["edit_key"])),
    ]
    for method, path, body, headers in writes:
        answer = client.open(path, method=method, json=body, headers=headers)
        assert answer.status_code == 503, (path, answer.status_code, answer.get_data(as_text=True)[:200])
        assert answer.get_json()["error"]["message"].startswith(SAYS) and "Retry-After" in answer.headers
    member = app.test_client()  # Ann's phone, opened with her member link before the disk filled
    member.get(urlsplit(member_url).path)
    said = member.post(f"/c/{club['id']}/evenings/{evening}/answer",
                       data={"csrf_token": TOKEN.search(member.get("/clubs/new").text)[1], "coming": "in"})
    assert said.status_code == 503 and SAYS in seen(said.text)
    page = app.test_client()
    token = TOKEN.search(page.get("/new/kozyol").text)[1]
    names = {f"players-{seat}": name for seat, name in enumerate(PLAYERS)}
    started = page.post("/new/kozyol", data={"csrf_token": token, "target": "12", "first_dealer": "0", **names})
    assert started.status_code == 503 and SAYS in seen(started.text) and 'value="Ann"' in started.text
    disk.free()
    assert client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).status_code == 201


def test_a_sheet_kept_on_a_full_disk_leaves_no_partial_file(mount: FullDisk):
    if not mount.mounted:
        pytest.skip(f"this machine lets no test mount a small disk: {mount.why}")
    cache = SheetCache(mount.path / "sheets", budget=10_000_000)
    (mount.path / "sheets").mkdir()
    mount.fill()
    pdf = b"%PDF-1.7 " + b"x" * 5000
    assert cache.put(cache.tag("match", "abc", 1, "en"), pdf) == pdf  # still served
    assert sorted(path.name for path in (mount.path / "sheets").iterdir()) == []
    mount.free()
    cache.put(cache.tag("match", "abc", 1, "en"), pdf)
    assert [path.suffix for path in (mount.path / "sheets").iterdir()] == [".pdf"]


def test_a_first_start_on_a_full_disk_writes_the_secret_key_whole_or_not_at_all(mount: FullDisk):
    if not mount.mounted:
        pytest.skip(f"this machine lets no test mount a small disk: {mount.why}")
    folder = mount.path / "instance"
    folder.mkdir()
    mount.fill()
    with pytest.raises(NoSecretKey, match="cannot write the secret key"):
        stored_secret(folder)
    assert sorted(path.name for path in folder.iterdir()) == []  # no empty key, no half-written one
    mount.free()
    (folder / SECRET_FILE).write_text("")  # an empty key left by an older release's start on a full disk
    key = stored_secret(folder)
    assert len(key) == 64 and (folder / SECRET_FILE).read_text() == key and stored_secret(folder) == key
    assert sorted(path.name for path in folder.iterdir()) == [SECRET_FILE]


def test_postgresql_on_a_full_disk_answers_503_and_the_hand_resent_once_space_is_freed_is_saved_once(database: str):
    """PostgreSQL's own disk full: a hand is 503 with Retry-After (the outbox keeps it), not 409 "already recorded"
    and not 500, and so is a new club; once space is freed the hand sent again under its key is saved exactly once."""
    with private_postgres(database, disk_megabytes=64) as cluster:
        assert cluster.disk is not None
        app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": cluster.url,
                          "MIGRATE_ON_START": True, "RATELIMIT_ENABLED": False, "PDF_CACHE_BYTES": 0})
        client = app.test_client()
        made = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS}).get_json()
        headers = {**bearer(made["edit_key"]), "Idempotency-Key": "deal-1-of-this-phone"}
        path = f"/api/v1/matches/{made['id']}/hands"
        cluster.disk.fill()
        writes = [(path, DEAL, headers)] * 3 + [("/api/v1/clubs", {"name": "Full"}, {})]
        for where, body, sent in writes:
            answer = client.post(where, json=body, headers=sent)
            assert answer.status_code == 503, (where, answer.status_code, answer.get_data(as_text=True)[:300])
            assert int(answer.headers["Retry-After"]) > 0 and answer.get_json()["error"]["message"].startswith(SAYS)
        cluster.disk.free()
        deadline = time.monotonic() + 60
        while (saved := client.post(path, json=DEAL, headers=headers)).status_code == 503:  # a server recovering
            assert time.monotonic() < deadline, "the hand was never saved once space was freed"
            time.sleep(0.5)
        again = client.post(path, json=DEAL, headers=headers)
        assert saved.status_code == 201 and again.status_code == 201, (saved.get_json(), again.get_json())
        assert hands_stored(app, made["id"]) == 1
        assert client.post("/api/v1/clubs", json={"name": "Freed"}).status_code == 201
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
