"""The production server's workers restart one at a time, and a new one is warm before its first request."""

from __future__ import annotations

import runpy
from pathlib import Path
from types import SimpleNamespace

from flask import Flask

from helpers.clubs import QUICK, TEAM_0_LOSES
from helpers.matches import PLAYERS
from scorekeeper.club import figures, service as clubs
from scorekeeper.match import matches
from scorekeeper.serving import lifetime, warm

CONFIG = Path(__file__).resolve().parents[1] / "gunicorn.conf.py"


def settings(monkeypatch, **env: str) -> dict:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(CONFIG))


def restarts(config: dict, workers: int, requests_each: int) -> list[tuple[int, int]]:
    """When each worker restarts, in requests served per worker, under an even load (gunicorn's hook given
    its ages as the arbiter counts them: 1..N at start, then one more for every replacement)."""
    server = SimpleNamespace(num_workers=workers)
    ages = iter(range(1, 10_000))
    alive = []
    for _slot in range(workers):
        worker = SimpleNamespace(age=next(ages), max_requests=config["max_requests"])
        config["post_fork"](server, worker)
        alive.append([worker.max_requests, 0])  # (lifetime, born at)
    out = []
    for served in range(1, requests_each + 1):
        for slot, (life, born) in enumerate(alive):
            if served - born >= life:
                out.append((served, slot))
                worker = SimpleNamespace(age=next(ages), max_requests=config["max_requests"])
                config["post_fork"](server, worker)
                alive[slot] = [worker.max_requests, served]
    return out


def test_workers_restart_one_at_a_time_spread_over_max_requests(monkeypatch):
    config = settings(monkeypatch, SCOREKEEPER_MAX_REQUESTS="400", SCOREKEEPER_WORKERS="4")
    assert config["max_requests"] == 400 and config["max_requests_jitter"] == 0
    seen = restarts(config, 4, 4000)
    times = [served for served, _slot in seen]
    assert len(times) == len(set(times)) and len(seen) >= 36  # never two at once, each worker about 10 times
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert min(gaps) == max(gaps) == 100  # max_requests / workers apart, every time
    assert {slot for _served, slot in seen} == {0, 1, 2, 3}


def test_without_max_requests_no_worker_is_recycled(monkeypatch):
    config = settings(monkeypatch, SCOREKEEPER_MAX_REQUESTS="0")
    worker = SimpleNamespace(age=2, max_requests=2**63)
    config["post_fork"](SimpleNamespace(num_workers=4), worker)
    assert worker.max_requests == 2**63 and lifetime(2, 4, 0) == 0


def test_a_new_worker_compiles_the_templates_and_reads_the_latest_clubs_figures(app: Flask):
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        match, _key = clubs.start_match(club, "kozyol", PLAYERS, QUICK)
        matches.record(match.public_id, TEAM_0_LOSES)
        public_id = club.public_id
    figures._digests.clear()
    app.jinja_env.cache.clear()
    warmed = warm(app)
    assert warmed["clubs"] == 1 and warmed["templates"] > 50
    assert any(key[0] == public_id for key in figures._digests)  # its season's sums are kept
    assert len(app.jinja_env.cache) >= warmed["templates"]  # compiled: a first page renders without compiling


def test_the_server_runs_the_hooks(monkeypatch):
    config = settings(monkeypatch)
    assert callable(config["post_fork"]) and callable(config["post_worker_init"])


def test_another_app_under_the_same_settings_boots_without_warming():
    """The benchmarks serve a plain hello-world with the production settings: its workers must boot."""
    hello = Flask("hello")
    hello.route("/")(lambda: "Hello")
    assert warm(hello) == {"templates": 0, "clubs": 0}


def test_a_worker_that_cannot_be_warmed_serves_cold(app: Flask, monkeypatch):
    monkeypatch.setattr(figures, "warm", lambda most: (_ for _ in ()).throw(RuntimeError("no database yet")))
    warmed = warm(app)
    assert warmed["clubs"] == 0 and warmed["templates"] > 50
