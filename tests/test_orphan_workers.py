"""A worker ends with its master, however the master ends: a master killed outright (SIGKILL, the OOM killer)
leaves no worker holding the port, so the server started again at once can bind it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

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
