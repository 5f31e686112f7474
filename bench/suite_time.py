"""The test suite's wall time, now and at a baseline commit, run in turn on this machine.

`--command` times the README's test command as a whole, `python3 manage.py test` (both databases, as CI runs
it), in a clean clone of each commit, and counts the tests each database ran; the other modes below time
pytest on SQLite alone.

    .venv/bin/python bench/suite_time.py --command --base <commit>   # before and after, alternating, ~30 minutes
    .venv/bin/python bench/suite_time.py --command --base <commit> --now <commit> --rounds 2

Both clones use this checkout's .venv (the installation is the same; its one-off cost is not the suite's), and
run with CI=true, as CI does: a missing browser or database fails instead of skipping. Each run also reports the
processor time the whole machine spent meanwhile (/proc/stat: every process, the browsers and the PostgreSQL
server too, which pytest does not wait for) and that time shared over the cores: the shortest wall time the same
work could take on this machine, however it were spread.

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
# manage.py test says which run starts: "[scorekeeper] test run 2 of 2: PostgreSQL".
RUN = re.compile(r"^\[scorekeeper\] test run \d of \d: (\w+)$", re.MULTILINE)
COUNT = re.compile(r"(\d+) (passed|failed|skipped|deselected|errors?|xfailed|xpassed)")


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


def counts_per_database(output: str) -> dict[str, dict[str, int]]:
    """What each database's run of manage.py test reported: {"SQLite": {"passed": 3400, ...}, "PostgreSQL": ...}."""
    marks = list(RUN.finditer(output))
    found: dict[str, dict[str, int]] = {}
    for mark, after in zip(marks, [*marks[1:], None]):
        part = output[mark.end():after.start() if after else len(output)]
        summaries = SUMMARY.findall(part)
        if summaries:
            found[mark.group(1)] = {kind.rstrip("s") if kind.startswith("error") else kind: int(number)
                                    for number, kind in COUNT.findall(summaries[-1][0])}
    return found


def machine_busy() -> float:
    """Processor seconds the whole machine has spent busy since it started, all cores (Linux's /proc/stat).

    Busy is every column of the "cpu" line but idle and iowait (guest time is already in user's).
    """
    columns = [int(value) for value in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (columns + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def whole_command(tree: Path, log: Path) -> tuple[float, float, int, dict[str, dict[str, int]]]:
    """Seconds `python3 manage.py test` took in tree, the machine's busy processor seconds meanwhile, its exit code,
    and what each database ran (output in log)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SCOREKEEPER_TEST_DATABASE")}
    start, busy = time.perf_counter(), machine_busy()
    done = subprocess.run([sys.executable, "manage.py", "test", "-p", "no:cacheprovider"], cwd=tree,
                          env={**env, "CI": "true"}, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    took, busy = time.perf_counter() - start, machine_busy() - busy
    log.write_text(done.stdout + done.stderr)
    return took, busy, done.returncode, counts_per_database(done.stdout)


def change(ratio: float) -> str:
    """A ratio of wall times in words: "38% less wall time", "11% more wall time"."""
    return f"{abs(1 - ratio) * 100:.0f}% {'less' if ratio <= 1 else 'more'} wall time"


def ran(counts: dict[str, dict[str, int]]) -> str:
    return "; ".join(f"{db}: " + ", ".join(f"{n} {kind}" for kind, n in figures.items())
                     for db, figures in counts.items()) or "no summary"


def compare_commands(base: str, now: str, rounds: int) -> None:
    """The README's test command in a clean clone of each commit, alternating, round after round."""
    logs = Path(tempfile.mkdtemp(prefix="suite-command-logs-"))
    with tempfile.TemporaryDirectory(prefix="suite-command-") as folder:
        trees = {}
        for side, commit in (("before", base), ("after", now)):
            trees[side] = Path(folder) / side / "tree"
            subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(trees[side])], check=True)
            git("checkout", "--quiet", "--detach", commit, cwd=trees[side])
            (trees[side] / ".venv").symlink_to(ROOT / ".venv")
        print(f"python3 manage.py test: before {base[:10]}, after {now[:10]}; {rounds} round(s), alternating; "
              f"each run's output in {logs}", flush=True)
        times: dict[str, list[float]] = {"before": [], "after": []}
        cores = os.cpu_count() or 1
        for round_ in range(1, rounds + 1):
            for side in ("before", "after"):
                took, busy, code, counts = whole_command(trees[side], logs / f"round-{round_}-{side}.log")
                times[side].append(took)
                print(f"round {round_} {side:>6}: {took:7.1f} s, exit {code}  ({ran(counts)}); the machine busy "
                      f"{busy:.0f} processor-s, {busy / took / cores:.0%} of its {cores} cores: at least "
                      f"{busy / cores:.0f} s on them", flush=True)
    before, after = statistics.median(times["before"]), statistics.median(times["after"])
    print(f"median: before {before:.1f} s, after {after:.1f} s; after / before = {after / before:.2f}x "
          f"({change(after / before)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", help="the baseline commit (default: the one before the template databases)")
    parser.add_argument("--command", action="store_true",
                        help="time the whole `python3 manage.py test` (both databases) at --base and at --now")
    parser.add_argument("--now", default="HEAD", help="with --command: the commit measured as after (default HEAD)")
    parser.add_argument("--rounds", type=int, default=3, help="runs on each side, alternating (default 3)")
    parser.add_argument("--full", action="store_true", help="the whole suite instead of the sample")
    parser.add_argument("--workers", type=int, default=None, help="now: this many pytest-xdist workers (default: "
                        "as manage.py test spreads it, one per core up to four; 0: one process)")
    options = parser.parse_args()
    if options.command:
        if not options.base:
            parser.error("--command needs --base")
        compare_commands(git("rev-parse", options.base), git("rev-parse", options.now), options.rounds)
        return
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
          f"({change(after / before)})")


if __name__ == "__main__":
    main()
