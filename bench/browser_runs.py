"""The browser tests, run again and again: on a quiet machine, or with other test runs beside them as load.

A flaky browser test fails one run in several, so one green run says little. This runs the whole
browser folder (tests/browser/) a number of times in a row, as the suite runs it (one process, one
chromium at a time, on SQLite, CI=true so a missing browser fails), and prints each run's pytest
summary and wall time, then how many runs failed. With `--load N`, N other test runs go on beside it
the whole time: the rest of the suite (everything but the browser folder) in one process each,
started again whenever one ends, stopped when the browser runs are done.

    .venv/bin/python bench/browser_runs.py --runs 10             # quiet: nothing else should run
    .venv/bin/python bench/browser_runs.py --runs 10 --load 2    # loaded: two other test runs beside it

Each run's whole output is kept in a folder printed at the start (--keep names one), for the failures.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
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


class Load:
    """N other test runs beside the browser runs, each started again when it ends."""

    def __init__(self, count: int, folder: Path) -> None:
        self.count, self.folder = count, folder
        self.running: list[subprocess.Popen[bytes]] = []
        self.started = 0

    def _start(self) -> subprocess.Popen[bytes]:
        self.started += 1
        log = (self.folder / f"load-{self.started}.log").open("wb")
        return subprocess.Popen(pytest("-q", "--ignore=tests/browser", "-x", "tests"), cwd=ROOT, env=environment(),
                                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def keep_up(self) -> None:
        self.running = [process for process in self.running if process.poll() is None]
        while len(self.running) < self.count:
            self.running.append(self._start())

    def stop(self) -> None:
        for process in self.running:
            process.terminate()
        for process in self.running:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def one_run(number: int, folder: Path, load: Load) -> tuple[float, str, list[str]]:
    """One run of the browser folder: seconds, pytest's summary, the tests that failed."""
    log = folder / f"browser-{number}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(pytest("-q", "-rfE", "tests/browser"), cwd=ROOT, env=environment(), stdout=out,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        start = time.perf_counter()
        while process.poll() is None:
            load.keep_up()
            time.sleep(1)
        took = time.perf_counter() - start
    text = log.read_text(errors="replace")
    found = SUMMARY.findall(text)
    summary = found[-1] if found else f"no summary (exit {process.returncode})"
    return took, summary, [name for _, name in FAILED.findall(text)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10, help="runs of the browser folder, one after another")
    parser.add_argument("--load", type=int, default=0, help="other test runs going on beside them (default 0)")
    parser.add_argument("--keep", type=Path, help="the folder for each run's output (default: a new one in /tmp)")
    options = parser.parse_args()
    folder = options.keep or Path(tempfile.mkdtemp(prefix="browser-runs-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{options.runs} runs of tests/browser, {options.load} other test run(s) beside them; "
          f"output in {folder}; load average now {os.getloadavg()[0]:.1f}", flush=True)
    load = Load(options.load, folder)
    failed_runs = 0
    try:
        for number in range(1, options.runs + 1):
            took, summary, failures = one_run(number, folder, load)
            failed_runs += bool(failures) or "passed" not in summary
            print(f"run {number:2}: {took:6.1f} s  {summary}  load average {os.getloadavg()[0]:.1f}"
                  + "".join(f"\n        {name}" for name in failures), flush=True)
    finally:
        load.stop()
    print(f"{failed_runs} of {options.runs} runs failed" + (f"; {load.started} load runs started" if load.count else ""))
    sys.exit(1 if failed_runs else 0)


if __name__ == "__main__":
    main()
