"""A worker ends with its master, however the master ends: a master killed outright (SIGKILL, the OOM killer)
leaves no worker holding the port, so the server started again at once can bind it.

On the real production server too (gunicorn with gunicorn.conf.py, as `manage.py serve` runs it): a worker
still booting ends at once with its master, and a worker serving ends within a second or two.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers.servers import ROOT, Server

# A master that forks one worker; the worker asks to end with it (as gunicorn.conf.py's post_fork does),
# then sleeps as a worker importing the app would; the master prints the worker's pid and waits.
MASTER = """
import os, sys, time
from scorekeeper.serving import end_with_parent

master = os.getpid()
worker = os.fork()
if worker == 0:
    os.write(1, b"asked\\n" if end_with_parent(master) else b"unsupported\\n")  # one write: lines never interleave
    time.sleep(120)
    os._exit(0)
os.write(1, f"{worker}\\n".encode())
time.sleep(120)
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent's end is told to a process on Linux")
def test_a_worker_ends_when_its_master_is_killed_outright():
    master = subprocess.Popen([sys.executable, "-c", MASTER], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    lines: list[str] = []
    try:
        while len(lines) < 20 and not ({"asked", "unsupported"} & set(lines) and any(one.isdigit() for one in lines)):
            line = master.stdout.readline()
            if not line:
                break
            lines.append(line.strip())
        assert "asked" in lines and any(line.isdigit() for line in lines), lines
        worker = int(next(line for line in lines if line.isdigit()))
        assert alive(worker)
        master.send_signal(signal.SIGKILL)
        master.wait(timeout=10)
        deadline = time.monotonic() + 10
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(worker), "the worker outlived its master"
    finally:
        master.kill()
        master.wait(timeout=10)
        master.stdout.close()
        for line in lines:  # a worker left by a failure above
            if line.isdigit() and alive(int(line)):
                os.kill(int(line), signal.SIGKILL)


# The production settings, with workers slow to boot: each says so in the log, then waits before warming up,
# as a worker still loading the app and reading the clubs' figures on a busy machine does.
SLOW_BOOT = """
import runpy
import time

globals().update({{name: value for name, value in runpy.run_path({config!r}).items() if not name.startswith("__")}})
ready = post_worker_init


def post_worker_init(worker):
    worker.log.info("worker %s boots slowly", worker.pid)
    time.sleep({seconds})
    ready(worker)
"""
BOOTING = re.compile(r"worker (\d+) boots slowly")
WARM = re.compile(r"worker (\d+) warm:")
ON_LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent's end is told on Linux")


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated as `manage.py serve` does before it starts gunicorn (flask db upgrade)."""
    path = tmp_path_factory.mktemp("migrated") / "scorekeeper.sqlite"
    subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper.app:create_app", "db", "upgrade"], cwd=ROOT,
                   env={**os.environ, "SCOREKEEPER_DATABASE_URL": f"sqlite:///{path}", "SCOREKEEPER_SECRET_KEY": "x",
                        "SCOREKEEPER_INSTANCE_PATH": str(path.parent)},
                   check=True, capture_output=True, timeout=120)
    return path


@pytest.fixture
def settings(tmp_path: Path, migrated: Path) -> dict[str, str]:
    """A server's settings: an instance folder of its own, with a copy of the migrated database."""
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(migrated, instance / migrated.name)
    return {"SCOREKEEPER_INSTANCE_PATH": str(instance), "SCOREKEEPER_SECRET_KEY": "orphans",
            "SCOREKEEPER_DATABASE_URL": f"sqlite:///{instance / migrated.name}",
            "SCOREKEEPER_MIGRATE_ON_START": "false", "SCOREKEEPER_RATELIMIT_ENABLED": "false"}


def logged(server: Server, said: re.Pattern[str], count: int, timeout: float = 90) -> list[int]:
    """The pids of the first `count` workers that logged what `said` matches, waited for."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert server.process.poll() is None, server.log.read_text()[-3000:]
        found = [int(pid) for pid in said.findall(server.log.read_text())]
        if len(found) >= count:
            return found[:count]
        time.sleep(0.05)
    raise AssertionError(f"{count} workers never logged {said.pattern}: {server.log.read_text()[-3000:]}")


def killed_and_started_again(first: Server, workers: list[int], settings: dict[str, str], log: Path) -> float:
    """SIGKILL the master, start another on its port at once and see it serve; seconds until the workers were gone.

    gunicorn tries to bind five times, a second apart, before it gives up: a worker ending gracefully may cost it
    a try; one that held the port for longer would leave the new master to exit."""
    first.process.send_signal(signal.SIGKILL)
    first.process.wait(timeout=10)
    began = time.monotonic()
    second = Server(settings, log, workers=1, port=first.port)
    try:
        while any(alive(pid) for pid in workers) and time.monotonic() - began < 30:
            time.sleep(0.02)
        gone = time.monotonic() - began
        second.wait_ready(timeout=60)
        status, _headers, _body = second.call("GET", "/")
        assert status == 200
    finally:
        second.stop()
    return gone


def clean_up(server: Server) -> None:
    """End whatever a failed test left of a server: its master, and any worker of its process group."""
    server.stop()
    try:
        os.killpg(server.process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@ON_LINUX
def test_a_master_killed_while_its_workers_boot_leaves_the_port_free_for_the_next_at_once(tmp_path: Path, settings):
    config = tmp_path / "slow-boot.conf.py"
    config.write_text(SLOW_BOOT.format(config=str(ROOT / "gunicorn.conf.py"), seconds=60))
    first = Server(settings, tmp_path / "first.log", config=config)
    try:
        workers = logged(first, BOOTING, 2)  # both workers are booting, the port in hand
        gone = killed_and_started_again(first, workers, settings, tmp_path / "second.log")
        assert gone < 2, f"the booting workers outlived their master by {gone:.1f} s"
        assert "Connection in use" not in (tmp_path / "second.log").read_text()  # bound at the first try
    finally:
        clean_up(first)
    assert not any(alive(pid) for pid in workers)


@ON_LINUX
def test_a_master_killed_while_its_workers_serve_leaves_no_worker_behind(tmp_path: Path, settings):
    first = Server(settings, tmp_path / "first.log")
    try:
        workers = logged(first, WARM, 2)  # both ready: each ends gracefully, finishing what it serves
        first.wait_ready()
        gone = killed_and_started_again(first, workers, settings, tmp_path / "second.log")
        assert gone < 5, f"the serving workers outlived their master by {gone:.1f} s"
    finally:
        clean_up(first)
    assert not any(alive(pid) for pid in workers)
