"""The browser tests, run again and again: on a quiet machine, or with other test runs beside them as load.

A flaky browser test fails one run in several, so one green run says little. This runs the whole
browser folder (tests/browser/) a number of times in a row, as the suite runs it (one process, one
chromium at a time, on SQLite, CI=true so a missing browser fails), and prints each run's pytest
summary and wall time, then how many runs failed. With `--load N`, N other test runs go on beside it
the whole time: the rest of the suite (everything but the browser folder) in one process each,
started again whenever one ends, stopped when the browser runs are done.

With `--together N`, N runs of the browser folder go on at once, each in a clean clone of its own
(a run keeps figures in its tree's artifacts/), and each is started again as soon as it ends: every
run that ends had N-1 other browser runs beside it from its first test to its last, and each counts.
Once --runs runs have ended, the ones still going are stopped and not counted.

    .venv/bin/python bench/browser_runs.py --runs 10             # quiet: nothing else should run
    .venv/bin/python bench/browser_runs.py --runs 10 --load 2    # loaded: two other test runs beside it
    .venv/bin/python bench/browser_runs.py --runs 9 --together 3 # loaded: each run beside two browser runs

Each run's whole output is kept in a folder printed at the start (--keep names one), for the failures.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"
SUMMARY = re.compile(r"^=* ?(\d+ (?:passed|failed|error).*) in [\d.]+s", re.MULTILINE)
FAILED = re.compile(r"^(FAILED|ERROR) (\S+)", re.MULTILINE)


def environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SCOREKEEPER_TEST_DATABASE")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as manage.py test runs the suite
    return {**env, "CI": "true"}


def pytest(*args: str) -> list[str]:
    return [str(PYTHON), "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *args]


def stop(processes: Iterable[subprocess.Popen[bytes]]) -> None:
    """Stop each run with what it started (its app servers, its chromium): each run is a process group."""
    processes = [process for process in processes if process.poll() is None]
    for process in processes:
        signal_group(process, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            signal_group(process, signal.SIGKILL)


def signal_group(process: subprocess.Popen[bytes], number: signal.Signals) -> None:
    try:
        os.killpg(process.pid, number)
    except ProcessLookupError:  # it ended meanwhile, with all it started
        pass


def browser_run(number: int, folder: Path, tree: Path) -> subprocess.Popen[bytes]:
    with (folder / f"browser-{number}.log").open("wb") as log:
        return subprocess.Popen(pytest("-q", "-rfE", "tests/browser"), cwd=tree, env=environment(), stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)


def outcome(folder: Path, number: int, returncode: int | None) -> tuple[str, list[str]]:
    """A run's pytest summary and the tests that failed, from its log."""
    text = (folder / f"browser-{number}.log").read_text(errors="replace")
    found = SUMMARY.findall(text)
    summary = found[-1] if found else f"no summary (exit {returncode})"
    return summary, [name for _, name in FAILED.findall(text)]


class Load:
    """N other test runs beside the browser runs, each started again when it ends."""

    def __init__(self, count: int, folder: Path) -> None:
        self.count, self.folder = count, folder
        self.running: list[subprocess.Popen[bytes]] = []
        self.started = 0
        self.browser: subprocess.Popen[bytes] | None = None  # the browser run going on, in its own group too

    def _start(self) -> subprocess.Popen[bytes]:
        self.started += 1
        with (self.folder / f"load-{self.started}.log").open("wb") as log:
            return subprocess.Popen(pytest("-q", "--ignore=tests/browser", "-x", "tests"), cwd=ROOT,
                                    env=environment(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    start_new_session=True)

    def keep_up(self) -> None:
        self.running = [process for process in self.running if process.poll() is None]
        while len(self.running) < self.count:
            self.running.append(self._start())

    def ended(self, runs: int) -> Iterator[tuple[int, float, int | None]]:
        """The browser runs one after another, this load beside each: number, seconds, exit code."""
        for number in range(1, runs + 1):
            self.browser = process = browser_run(number, self.folder, ROOT)
            start = time.perf_counter()
            while process.poll() is None:
                self.keep_up()
                time.sleep(1)
            yield number, time.perf_counter() - start, process.returncode

    def stop(self) -> None:
        stop([*self.running, *([self.browser] if self.browser else [])])

    def said(self) -> str:
        return f"; {self.started} load runs started" if self.count else ""


class Together:
    """N runs of the browser folder at once, each in its own clean clone, each started again when it ends."""

    def __init__(self, count: int, folder: Path) -> None:
        self.folder, self.started = folder, 0
        self.trees = [folder / f"tree-{slot}" for slot in range(1, count + 1)]
        for tree in self.trees:
            if not tree.exists():
                subprocess.run(["git", "clone", "-q", str(ROOT), str(tree)], check=True)
                (tree / ".venv").symlink_to(ROOT / ".venv")
        self.running: dict[Path, tuple[int, float, subprocess.Popen[bytes]]] = {}

    def _start(self, tree: Path) -> None:
        self.started += 1
        self.running[tree] = (self.started, time.perf_counter(), browser_run(self.started, self.folder, tree))

    def ended(self, runs: int) -> Iterator[tuple[int, float, int | None]]:
        """Each run as it ends, until `runs` have: number, seconds, exit code."""
        for tree in self.trees:
            self._start(tree)
        for _ in range(runs):
            while not (done := [tree for tree, (_, _, process) in self.running.items() if process.poll() is not None]):
                time.sleep(1)
            number, start, process = self.running[done[0]]
            took = time.perf_counter() - start
            self._start(done[0])  # at once: the others never go on with one run fewer beside them
            yield number, took, process.returncode

    def stop(self) -> None:
        stop(process for _, _, process in self.running.values())

    def said(self) -> str:
        return f"; {self.started - len(self.running)} runs ended, {len(self.running)} stopped and not counted"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10, help="runs of the browser folder to count")
    parser.add_argument("--load", type=int, default=0, help="other test runs going on beside them (default 0)")
    parser.add_argument("--together", type=int, default=1, help="browser runs at once, each in its own clone")
    parser.add_argument("--keep", type=Path, help="the folder for each run's output (default: a new one in /tmp)")
    options = parser.parse_args()
    if options.load and options.together > 1:
        parser.error("--load and --together are two kinds of load: give one")
    folder = options.keep or Path(tempfile.mkdtemp(prefix="browser-runs-"))
    folder.mkdir(parents=True, exist_ok=True)
    beside = (f"{options.together - 1} other browser run(s)" if options.together > 1
              else f"{options.load} other test run(s)")
    print(f"{options.runs} runs of tests/browser, {beside} beside each; output in {folder}; "
          f"load average now {os.getloadavg()[0]:.1f}", flush=True)
    runner = Together(options.together, folder) if options.together > 1 else Load(options.load, folder)
    failed_runs = count = 0
    try:
        for count, (number, took, returncode) in enumerate(runner.ended(options.runs), start=1):
            summary, failures = outcome(folder, number, returncode)
            failed_runs += bool(failures) or "passed" not in summary
            print(f"run {count:2}: {took:6.1f} s  {summary}  load average {os.getloadavg()[0]:.1f}"
                  + (f"  (log browser-{number}.log)" if number != count else "")
                  + "".join(f"\n        {name}" for name in failures), flush=True)
    except KeyboardInterrupt:
        print(f"stopped (Ctrl-C) after {count} of {options.runs} runs")
    finally:
        runner.stop()
    print(f"{failed_runs} of {count} runs failed{runner.said()}")
    sys.exit(1 if failed_runs else 0)


if __name__ == "__main__":
    main()
