"""The machine's rate-limit counts (scorekeeper/web/rate_limits/counts.py): one SQLite file, every process counting in it.

Each test has a file of its own. The windows pass on a clock the tests move, except where a test
says it waits; several storages on one file stand for several workers, real processes for real ones.
The windows are measured on the monotonic clock: the wall clock set back or forward changes none of them.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from limits import parse
from limits.errors import ConfigurationError, StorageError
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from scorekeeper.web.rate_limits import counts as hit_counts
from scorekeeper.web.rate_limits.counts import HitCounts

ROOT = Path(__file__).resolve().parent.parent
KEY = "LIMITER/scorekeeper/192.0.2.1/new-match/3/1/minute"
PROCESS_HITS = """
import sys
from scorekeeper.web.rate_limits.counts import HitCounts
counts = HitCounts(sys.argv[1])
for _ in range(int(sys.argv[2])):
    counts.incr("shared", 60)
"""


class Clock:
    """The storage's clocks, moved by the test: time passing moves both (now); a clock set moves the wall alone."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0
        self.set_by = 0.0  # seconds the wall clock was set forward (negative: back)

    def time(self) -> float:
        return self.now + self.set_by

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    moved = Clock()
    monkeypatch.setattr(hit_counts, "time", SimpleNamespace(time=moved.time, monotonic=moved.monotonic))
    return moved


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "instance" / "rate-limits.sqlite"


def at(path: Path) -> HitCounts:
    return HitCounts(f"sqlite:///{path}")


def rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT key, count FROM windows ORDER BY key").fetchall()


def test_hits_are_counted_per_key_within_a_window_and_the_window_is_set_by_the_first(path: Path, clock: Clock):
    counts = at(path)
    assert counts.get(KEY) == 0 and counts.get_expiry(KEY) == clock.now
    assert [counts.incr(KEY, 60) for _ in range(3)] == [1, 2, 3]
    clock.now += 30
    assert counts.incr(KEY, 60, amount=2) == 5
    assert counts.get(KEY) == 5 and counts.get_expiry(KEY) == clock.now + 30  # not moved by later hits
    assert counts.incr("another", 3600) == 1 and counts.get(KEY) == 5
    assert counts.check()


def test_a_window_that_has_passed_counts_for_nothing_and_the_next_hit_starts_a_new_one(path: Path, clock: Clock):
    counts = at(path)
    counts.incr(KEY, 60)
    counts.incr(KEY, 60)
    clock.now += 59.9
    assert counts.get(KEY) == 2
    clock.now += 0.1
    assert counts.get(KEY) == 0 and counts.get_expiry(KEY) == clock.now
    assert counts.incr(KEY, 60) == 1
    assert counts.get_expiry(KEY) == clock.now + 60


def test_clear_forgets_one_key_and_reset_every_key(path: Path, clock: Clock):
    counts = at(path)
    for key in ("a", "b", "c"):
        counts.incr(key, 60)
    counts.incr("a", 60)
    counts.clear("a")
    assert counts.get("a") == 0 and counts.get("b") == 1
    assert counts.incr("a", 60) == 1
    assert counts.reset() == 3
    assert [counts.get(key) for key in ("a", "b", "c")] == [0, 0, 0]


def test_two_storages_on_one_file_share_their_counts(path: Path, clock: Clock):
    one, two = at(path), at(path)
    assert one.incr(KEY, 60) == 1
    assert two.incr(KEY, 60) == 2
    assert one.get(KEY) == 2 and one.get_expiry(KEY) == two.get_expiry(KEY) == clock.now + 60
    two.clear(KEY)
    assert one.get(KEY) == 0


def test_processes_hitting_one_key_at_once_lose_no_hit(path: Path):
    path.parent.mkdir()
    hitting = [subprocess.Popen([sys.executable, "-c", PROCESS_HITS, f"sqlite:///{path}", "300"], cwd=ROOT)
               for _ in range(4)]
    assert [process.wait(timeout=60) for process in hitting] == [0, 0, 0, 0]
    assert at(path).get("shared") == 1200


def test_passed_windows_are_cleared_out_of_the_file_now_and_then(path: Path, clock: Clock):
    counts = at(path)
    counts.incr("short", 10)
    counts.incr("long", 3600)
    clock.now += 11
    counts.incr("new", 60)  # within a minute of the last clear-out: the passed window is still there
    assert [key for key, _ in rows(path)] == ["long", "new", "short"]
    clock.now += hit_counts.SWEEP_EVERY - 10
    counts.incr("new", 60)
    assert rows(path) == [("long", 1), ("new", 2)]


def test_the_limiter_allows_the_limit_and_says_when_the_window_ends(path: Path, clock: Clock):
    limiter, limit = FixedWindowRateLimiter(at(path)), parse("3 per minute")
    assert [limiter.hit(limit, "192.0.2.1") for _ in range(4)] == [True, True, True, False]
    assert limiter.hit(limit, "192.0.2.2")
    stats = limiter.get_window_stats(limit, "192.0.2.1")
    assert stats.remaining == 0 and stats.reset_time == clock.now + 60
    clock.now += 60
    assert limiter.hit(limit, "192.0.2.1")


def test_a_window_ends_on_the_real_clock_too(path: Path):
    counts = at(path)
    assert counts.incr(KEY, 1) == 1 and counts.get(KEY) == 1
    time.sleep(1.05)
    assert counts.get(KEY) == 0 and counts.incr(KEY, 1) == 1


def test_a_deleted_file_is_made_again_and_shared_again(path: Path, clock: Clock):
    one, two = at(path), at(path)
    one.incr(KEY, 60)
    assert two.incr(KEY, 60) == 2
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
        (path.parent / name).unlink(missing_ok=True)
    assert one.incr(KEY, 60) == 1
    assert two.incr(KEY, 60) == 2 and one.get(KEY) == 2
    for name in path.parent.iterdir():
        name.unlink()
    path.parent.rmdir()  # the instance folder itself gone
    assert two.incr(KEY, 60) == 1 and one.get(KEY) == 1


def test_a_file_held_by_another_writer_fails_the_hit_quickly_with_a_storage_error(path: Path, clock: Clock):
    counts = at(path)
    counts.incr(KEY, 60)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        began = time.monotonic()
        with pytest.raises(StorageError) as raised:
            counts.incr(KEY, 60)
        assert time.monotonic() - began < 1
        assert isinstance(raised.value.storage_error, sqlite3.OperationalError)
        assert counts.get(KEY) == 1 and counts.check()  # reading waits for no writer (WAL)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert counts.incr(KEY, 60) == 2


def test_a_file_that_is_not_a_database_is_replaced(path: Path, clock: Clock):
    path.parent.mkdir()
    path.write_bytes(b"not a database, " * 256)
    counts = at(path)
    with pytest.raises(StorageError):
        counts.incr(KEY, 60)
    assert counts.incr(KEY, 60) == 1 and at(path).get(KEY) == 1


def test_the_scheme_is_registered_with_limits_and_needs_a_file(path: Path):
    assert isinstance(storage_from_string(f"sqlite:///{path}", wrap_exceptions=True, socket_timeout=1), HitCounts)
    with pytest.raises(ConfigurationError):
        storage_from_string("sqlite://")


def test_a_clock_set_back_an_hour_leaves_a_minutes_window_a_minute_long(path: Path, clock: Clock):
    limiter, limit = FixedWindowRateLimiter(at(path)), parse("3 per minute")
    assert [limiter.hit(limit, "192.0.2.1") for _ in range(4)] == [True, True, True, False]
    clock.now += 20
    clock.set_by = -3600  # the wall clock set back an hour
    stats = limiter.get_window_stats(limit, "192.0.2.1")
    assert stats.remaining == 0 and stats.reset_time - clock.time() == 40  # what Retry-After says: 40 s, not 3640
    clock.now += 39.9
    assert not limiter.hit(limit, "192.0.2.1")
    clock.now += 0.1  # a minute after the first hit, whatever the wall clock says
    assert limiter.hit(limit, "192.0.2.1")
    clock.set_by = +3600  # and set forward: the new window does not end with it
    assert [limiter.hit(limit, "192.0.2.1") for _ in range(3)] == [True, True, False]


def test_counts_from_before_the_machine_restarted_hold_nobody_back(path: Path, clock: Clock):
    """The monotonic clock starts again at boot: a window that started later than now is from before, and over."""
    clock.now = 3_000_000.0  # a month after the machine started
    before = at(path)
    for _ in range(5):
        before.incr(KEY, 3600)
    assert before.get(KEY) == 5
    clock.now = 40.0  # the machine started again 40 s ago; the file is still there
    after = at(path)
    assert after.get(KEY) == 0 and after.get_expiry(KEY) == clock.time()
    assert after.incr(KEY, 3600) == 1 and after.get_expiry(KEY) == clock.time() + 3600


def test_the_counts_of_a_release_that_counted_on_the_wall_clock_start_afresh(path: Path, clock: Clock):
    path.parent.mkdir()
    with sqlite3.connect(path) as former:
        former.execute("CREATE TABLE hits (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires REAL NOT NULL)")
        former.execute("INSERT INTO hits VALUES (?, 99, ?)", (KEY, clock.time() + 3600))
    former.close()
    counts = at(path)
    assert counts.get(KEY) == 0 and counts.incr(KEY, 60) == 1
    with sqlite3.connect(path) as reading:
        tables = [name for (name,) in reading.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    reading.close()
    assert tables == ["windows"]
