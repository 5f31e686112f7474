"""The test suite's wall time on SQLite, now and at a baseline commit, run in turn on this machine.

Until the template databases landed, every test that used the app migrated a fresh SQLite file
through every migration since the first, made its app and compiled every template it rendered. Now
the schema is migrated once per run and copied per test, and the templates' compiled code is shared
by the apps of a run. This script measures what that bought: it checks the baseline out into a
temporary worktree, then runs the same test files there and here, alternately, round after round,
so that whatever else the machine is doing hits both alike. It reports each run, the median of each
side, and the ratio now / baseline. The side of now runs as `manage.py test` runs it: over the
machine's cores with pytest-xdist (tests/helpers/workers.py); `--workers 0` runs it in one process,
`--workers N` over N workers. The baseline ran in one process, as its own `manage.py test` did.

    .venv/bin/python bench/suite_time.py                 # a sample of app-heavy files, 3 rounds (~10 minutes)
    .venv/bin/python bench/suite_time.py --full --rounds 1   # every test file both sides have, once each side
    .venv/bin/python bench/suite_time.py --base <commit>
    .venv/bin/python bench/suite_time.py --workers 0     # now in one process too: what the per-test savings buy

The default baseline is the commit before tests/databases.py was first added. Only test files that
exist on both sides are run, so the two sides run the same tests; the pytest summary of each run is
printed to show they passed alike. Browser tests are left out of the sample (a browser's start-up
dominates them) but are part of --full.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import manage  # noqa: E402 (the checkout's own, found from bench/)

PYTHON = ROOT / ".venv" / "bin" / "python"
# Files whose tests nearly all open the app on a fresh database: where per-test setup shows.
SAMPLE = [
    "tests/test_api_barbu.py",
    "tests/test_web_barbu.py",
    "tests/test_web_kozyol.py",
    "tests/test_api_hearts.py",
    "tests/test_club_api.py",
    "tests/test_club_pages.py",
    "tests/test_access.py",
]
SUMMARY = re.compile(r"^=+ (.*(passed|failed|error).*) in [\d.]+s", re.MULTILINE)


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def default_base() -> str:
    """The commit before the template databases (the first commit that added tests/databases.py)."""
    added = git("log", "--diff-filter=A", "--format=%H", "--", "tests/databases.py").splitlines()
    if not added:
        sys.exit("cannot find the commit that added tests/databases.py: give --base")
    return git("rev-parse", f"{added[-1]}^")


def shared_files(tree: Path) -> list[str]:
    """Every test file of the suite, browser tests included, that both sides have: the same tests run on each."""
    names = {str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py")}
    return sorted(name for name in names if (tree / name).exists())


def run(tree: Path, files: list[str], options: list[str]) -> tuple[float, str]:
    """Seconds the suite took in tree on SQLite, and pytest's summary line."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SCOREKEEPER_TEST_DATABASE")}
    command = [str(PYTHON), "-m", "pytest", "-q", "-p", "no:cacheprovider", *options, *files]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    took = time.perf_counter() - start
    found = SUMMARY.findall(done.stdout)
    summary = found[-1][0] if found else done.stdout.strip().splitlines()[-1:]
    return took, str(summary)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", help="the baseline commit (default: the one before the template databases)")
    parser.add_argument("--rounds", type=int, default=3, help="runs on each side, alternating (default 3)")
    parser.add_argument("--full", action="store_true", help="the whole suite instead of the sample")
    parser.add_argument("--workers", type=int, default=None, help="now: this many pytest-xdist workers (default: "
                        "as manage.py test spreads it, one per core up to four; 0: one process)")
    options = parser.parse_args()
    if options.workers is None:
        now_options = manage.spread([])
    else:
        now_options = ["-n", str(options.workers), "--dist", "loadgroup"] if options.workers else []
    base = options.base or default_base()
    with tempfile.TemporaryDirectory(prefix="suite-base-") as folder:
        tree = Path(folder) / "tree"
        git("worktree", "add", "--detach", str(tree), base)
        try:
            (tree / ".venv").symlink_to(ROOT / ".venv")  # the baseline's own package is found first (pythonpath ".")
            files = shared_files(tree) if options.full else [
                name for name in SAMPLE if (ROOT / name).exists() and (tree / name).exists()]
            print(f"baseline {base[:10]} in one process, now {git('rev-parse', '--short', 'HEAD')} with "
                  f"{' '.join(now_options) or 'one process'}; files: {' '.join(files)}")
            times: dict[str, list[float]] = {"baseline": [], "now": []}
            for round_ in range(1, options.rounds + 1):
                for side, where, extra in (("baseline", tree, []), ("now", ROOT, now_options)):
                    took, summary = run(where, files, extra)
                    times[side].append(took)
                    print(f"round {round_} {side:>8}: {took:7.1f} s  ({summary})", flush=True)
        finally:
            git("worktree", "remove", "--force", str(tree))
    before, after = statistics.median(times["baseline"]), statistics.median(times["now"])
    print(f"median: baseline {before:.1f} s, now {after:.1f} s; now / baseline = {after / before:.2f}x "
          f"({(1 - after / before) * 100:.0f}% less wall time)")


if __name__ == "__main__":
    main()
