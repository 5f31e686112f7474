"""PDF renders: once per match version and language, a few at a time, and never at the pages' cost.

Renders are counted where WeasyPrint is called (``pdf.html_to_pdf``). A sheet downloaded again
at the same version comes from the kept copy, or as 304 with its ETag; a new hand, another
language or other names print a new one; the kept sheets stay within their budget and are
shared by every worker of the machine. A download that gets no turn to render within the wait
is answered 503 with Retry-After, while pages and polls are answered as usual; on the production
server (gunicorn with gevent workers) a render does not stop its own worker answering polls.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from helpers.api import create_match, post
from helpers.matches import PLAYERS, barbu_entry
from helpers.pdf import save, text
from helpers.servers import Server, fresh_database
from scorekeeper import pdf
from scorekeeper.app import create_app
from scorekeeper.db import db
from scorekeeper.render_slots import RenderSlots
from scorekeeper.web.sheets.cache import SheetCache

PDF = "application/pdf"


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """Every PDF WeasyPrint lays out, as the first characters of its HTML."""
    made: list[str] = []
    real = pdf.html_to_pdf

    def counting(html: str, *args: Any, **kwargs: Any) -> bytes:
        made.append(html[:200])
        return real(html, *args, **kwargs)

    monkeypatch.setattr(pdf, "html_to_pdf", counting)
    return made


def app_on(folder: Path, database_url: str, monkeypatch, **config: Any) -> Flask:
    """An app with its instance folder (kept sheets, render slots) in folder, like one worker of a server."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(folder))
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": database_url,
                       "MIGRATE_ON_START": True, "RATELIMIT_ENABLED": False, **config})


@pytest.fixture
def worker(tmp_path, database_url, monkeypatch) -> Iterator[Flask]:
    """The app as production runs it: sheets kept in its instance folder, renders taking turns."""
    made = app_on(tmp_path / "instance", database_url, monkeypatch)
    yield made
    with made.app_context():
        db.session.remove()
        db.engine.dispose()


def sheet_of(client, match: dict[str, Any], headers: dict[str, str] | None = None):
    return client.get(f"/api/v1/matches/{match['id']}/sheet.pdf", headers=headers or {})


# -- render once per version ------------------------------------------------------------------


def test_the_same_version_is_rendered_once_and_a_phone_that_has_it_gets_304(worker, renders, tmp_path):
    client = worker.test_client()
    match = create_match(client, "barbu", PLAYERS, {"first_declarer": PLAYERS[0]})
    for number in (1, 2, 3):
        post(client, match, barbu_entry(number, PLAYERS))
    first = sheet_of(client, match)
    assert first.status_code == 200 and first.mimetype == PDF and len(renders) == 1
    tag = first.headers["ETag"]
    assert tag and first.headers["Cache-Control"] == "no-cache"
    again = sheet_of(client, match)
    assert again.status_code == 200 and again.data == first.data and again.headers["ETag"] == tag
    assert len(renders) == 1, "the second download of the same version is not rendered"
    kept = sheet_of(client, match, {"If-None-Match": tag})
    assert kept.status_code == 304 and kept.data == b"" and kept.headers["ETag"] == tag
    assert len(renders) == 1

    post(client, match, barbu_entry(4, PLAYERS))
    fresh = sheet_of(client, match, {"If-None-Match": tag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != tag and len(renders) == 2
    assert "Standings after hand 4" in text(save(tmp_path, fresh.data))
    assert "Standings after hand 3" in text(save(tmp_path, first.data, "before.pdf"))


def test_another_language_is_another_sheet_unless_the_match_fixed_one(worker, renders):
    client = worker.test_client()
    reader = create_match(client, "kozyol", PLAYERS)
    english, french = (sheet_of(client, reader, {"Accept-Language": lang}) for lang in ("en", "fr"))
    assert english.headers["ETag"] != french.headers["ETag"] and len(renders) == 2
    answer = client.post("/api/v1/matches", json={"game": "kozyol", "players": PLAYERS, "language": "ru"})
    fixed = answer.get_json()
    tags = {sheet_of(client, fixed, {"Accept-Language": lang}).headers["ETag"] for lang in ("en", "fr", "ru")}
    assert len(tags) == 1 and len(renders) == 3


def test_blank_sheets_are_kept_per_game_and_names(worker, renders):
    client = worker.test_client()
    named = "/sheets/barbu.pdf?players=Ann,Bob,Cid,Dee"
    assert client.get(named).status_code == 200 and client.get(named).status_code == 200
    assert len(renders) == 1
    assert client.get("/sheets/barbu.pdf?players=Ann,Bob,Cid,Eve").status_code == 200
    assert client.get("/sheets/hearts.pdf?seats=7").status_code == 200
    assert len(renders) == 3


def test_every_worker_of_the_machine_serves_a_sheet_another_rendered(tmp_path, database_url, monkeypatch, renders):
    """Two apps on one instance folder and database, as two gunicorn workers: one render between them."""
    one = app_on(tmp_path / "instance", database_url, monkeypatch)
    other = app_on(tmp_path / "instance", database_url, monkeypatch)
    match = create_match(one.test_client(), "kozyol", PLAYERS)
    assert sheet_of(one.test_client(), match).status_code == 200
    assert sheet_of(other.test_client(), match).status_code == 200
    assert len(renders) == 1
    for made in (one, other):
        with made.app_context():
            db.engine.dispose()


def test_the_kept_sheets_stay_within_their_budget(tmp_path, database_url, monkeypatch, renders):
    made = app_on(tmp_path / "instance", database_url, monkeypatch, PDF_CACHE_BYTES=100_000)
    client = made.test_client()
    kozyols = [create_match(client, "kozyol", PLAYERS) for _ in range(8)]
    sizes = []
    for match in kozyols:
        sizes.append(len(sheet_of(client, match).data))
        time.sleep(0.01)  # each sheet served after the one before
    cache: SheetCache = made.extensions["sheet_cache"]
    assert sum(sizes) > 100_000 >= cache.size() > 0, (sizes, cache.size())
    assert len(renders) == 8
    assert sheet_of(client, kozyols[-1]).status_code == 200 and len(renders) == 8, "the newest is kept"
    assert sheet_of(client, kozyols[0]).status_code == 200 and len(renders) == 9, "the oldest went first"
    with made.app_context():
        db.engine.dispose()


# -- a bounded number of renders --------------------------------------------------------------


def test_a_download_that_gets_no_turn_is_told_to_come_back_and_pages_answer_meanwhile(
        tmp_path, database_url, monkeypatch, renders):
    """Every render slot of the machine taken (here by another worker): 503 with Retry-After, JSON
    under /api/ and a page elsewhere; the match page and the poll are answered at once."""
    made = app_on(tmp_path / "instance", database_url, monkeypatch, PDF_RENDERS=1, PDF_RENDER_WAIT=0.3)
    client = made.test_client()
    match = create_match(client, "barbu", PLAYERS, {"first_declarer": PLAYERS[0]})
    post(client, match, barbu_entry(1, PLAYERS))
    poll = client.get(f"/api/v1/matches/{match['id']}")
    other_worker = RenderSlots(tmp_path / "instance" / "render-slots", renders=1, wait=0)
    with other_worker.turn():
        began = time.monotonic()
        refused = sheet_of(client, match)
        assert time.monotonic() - began < 3
        assert refused.status_code == 503 and refused.mimetype == "application/json"
        assert int(refused.headers["Retry-After"]) >= 1
        error = refused.get_json()["error"]
        assert "try again in" in error["message"] and error["fields"] == {}
        page = client.get("/sheets/kozyol.pdf", headers={"Accept-Language": "fr"})
        assert page.status_code == 503 and page.mimetype == "text/html" and page.headers["Retry-After"]
        assert "réessayez dans" in page.text.lower()
        began = time.monotonic()
        assert client.get(f"/m/{match['id']}").status_code == 200
        assert client.get(f"/api/v1/matches/{match['id']}",
                          headers={"If-None-Match": poll.headers["ETag"]}).status_code == 304
        assert time.monotonic() - began < 2
    assert renders == []
    assert sheet_of(client, match).status_code == 200 and len(renders) == 1
    with made.app_context():
        db.engine.dispose()


def test_one_render_at_a_time_in_a_worker(tmp_path, database_url, monkeypatch):
    """A second download in a worker that is rendering waits its turn, then is refused: never two at once."""
    made = app_on(tmp_path / "instance", database_url, monkeypatch, PDF_RENDERS=4, PDF_RENDER_WAIT=0.3)
    slots: RenderSlots = made.extensions["render_slots"]
    started, finish = threading.Event(), threading.Event()

    def render_forever() -> None:
        with slots.turn():
            started.set()
            finish.wait(30)

    holder = threading.Thread(target=render_forever)
    holder.start()
    try:
        assert started.wait(10)
        answer = made.test_client().get("/sheets/barbu.pdf")
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    finally:
        finish.set()
        holder.join(10)
    assert made.test_client().get("/sheets/barbu.pdf").status_code == 200
    with made.app_context():
        db.engine.dispose()


def test_the_machine_slots_are_shared_and_freed(tmp_path):
    slots = [RenderSlots(tmp_path, renders=2, wait=0) for _ in range(3)]
    with slots[0].turn(), slots[1].turn():
        with pytest.raises(Exception, match="no render slot free"), slots[2].turn():
            pass
    with slots[2].turn():
        pass


# -- the production server --------------------------------------------------------------------


def long_hearts_game() -> dict[str, Any]:
    """The longest game Hearts allows, as an export to restore: its sheet takes the longest to render."""
    players = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]
    hands = [{"hearts": {p: 5 if seat == number % len(players) else 1 for seat, p in enumerate(players)},
              "black_marias": dict.fromkeys(players, 0)} for number in range(400)]
    return {"format": "scorekeeper-match", "format_version": 1, "game": "hearts", "players": players,
            "options": {"target": 1000}, "hands": hands}


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory, database: str) -> Iterator[Server]:
    """The production server with a single gevent worker, so that a render and the polls share it."""
    folder = tmp_path_factory.mktemp("renders")
    url = fresh_database(folder)
    (folder / "instance").mkdir()
    started = Server({"SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"), "SCOREKEEPER_DATABASE_URL": url,
                      "SCOREKEEPER_SECRET_KEY": "renders", "SCOREKEEPER_MIGRATE_ON_START": "false",
                      "SCOREKEEPER_PDF_RENDER_WAIT": "0.2", "SCOREKEEPER_PDF_RENDERS": "1"},
                     folder / "server.log", workers=1)
    try:
        started.wait_ready()
        yield started
    finally:
        started.stop()


def slot_locked(lock: Path) -> bool:
    """Whether some process holds the flock of this lock file, read from /proc/locks without taking it."""
    if not lock.exists():
        return False
    inode = str(lock.stat().st_ino)
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()  # "1: FLOCK  ADVISORY  WRITE 3785 fe:00:1474578 0 EOF"
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5].rsplit(":", 1)[-1] == inode:
            return True
    return False


def rendering_since(slots: Path, limit: float = 60) -> None:
    """Wait until the server's render holds the machine's render slot.

    The longest Hearts sheet renders in under a second on a quiet machine, about as long as the
    waits of the checks below: a fixed sleep would let the render end before they ask. The lock is
    only looked at, never taken, so the server's render can never find it held by the test.
    """
    deadline = time.monotonic() + limit
    while not slot_locked(slots / "render-0.lock"):
        assert time.monotonic() < deadline, "the server never started rendering"
        time.sleep(0.005)


def test_a_worker_rendering_a_long_sheet_answers_polls_and_refuses_a_second_render(one_worker: Server):
    status, _, body = one_worker.call("POST", "/api/v1/matches/import", long_hearts_game())
    assert status == 201, body
    long_game = json.loads(body)
    status, headers, _ = one_worker.call("GET", f"/api/v1/matches/{long_game['id']}")
    tag = headers["ETag"]
    short = json.loads(one_worker.call("POST", "/api/v1/matches", {"game": "kozyol", "players": PLAYERS})[2])
    answers: dict[str, Any] = {}
    download = threading.Thread(target=lambda: answers.update(
        long=one_worker.call("GET", f"/api/v1/matches/{long_game['id']}/sheet.pdf")))
    download.start()
    rendering_since(one_worker.log.parent / "instance" / "render-slots")  # the render holds the machine's slot
    second = threading.Thread(target=lambda: answers.update(
        refused=one_worker.call("GET", f"/api/v1/matches/{short['id']}/sheet.pdf")))
    second.start()  # waits its 0.2 s for a turn while the phones poll
    polls = []
    while second.is_alive() or not polls:
        began = time.monotonic()
        status, _, _ = one_worker.call("GET", f"/api/v1/matches/{long_game['id']}", headers={"If-None-Match": tag})
        polls.append((status, time.monotonic() - began))
    second.join(120)
    rendering = download.is_alive()
    download.join(120)
    refused = answers["refused"]
    status, headers, data = answers["long"]
    assert status == 200 and data.startswith(b"%PDF-"), one_worker.log.read_text()[-2000:]
    assert rendering, "the long sheet should still have been rendering while the others asked"
    assert polls and all(code == 304 for code, _ in polls)
    assert max(seconds for _, seconds in polls) < 1.0, polls
    assert refused[0] == 503 and refused[1]["Retry-After"] == "1", refused
    assert one_worker.call("GET", f"/api/v1/matches/{short['id']}/sheet.pdf")[0] == 200
