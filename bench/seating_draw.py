"""Figure 15: a large club evening's seating draw, bounded by its work, and a worker's polls while it draws.

    .venv/bin/python bench/seating_draw.py [--sizes 100,200,400] [--runs 3] [--base b3dc29e] [--no-base]
                                           [--draws 5] [--server-size 400] [--matches 4000] [--no-server]
                                           [--small-runs 2] [--small-base 2d17e53]

(a) The engine, in one process, no server and no database. For each size N: a made-up club of 1.5 x N
    players with a season of 20 x N matches behind it (Barbu, Kozyol and Hearts, 4 to 11 seats, some
    sit-outs, as bench/seating.py makes it), N of them present; each run draws one round of each game with
    this tree's engine (the search bounded by seating.WORK) and, as the baseline, with the engine of the
    base commit (read with `git show <base>:scorekeeper/club/engine/seating.py`, its search unbounded), the
    same seed for both. Prints the median wall time (and CPU time) of each and their ratio, and the repeat
    meetings of the tables each drew (how often the pairs at them met before this season) and their ratio.

(b) The production server (gunicorn.conf.py: gevent) with ONE worker, on a throwaway SQLite instance: a
    club of --server-size players seeded in bulk with --matches past matches (club_seed.py), today's evening
    with everyone marked present, and a finished casual match. A phone polls the match's state with
    If-None-Match every 50 ms (answered 304; a new connection each time), first alone for a few seconds
    (the baseline), then while the admin's API draws --draws proposals of the whole evening one after the
    other (POST .../rounds/proposal, each a fresh seed), then the last one again with a swap (the kept
    proposal). Prints each draw's answer time, and the polls' longest wait and median while the draws
    ran, against the polls alone. With --base (the default), the same against a server of the base
    commit's code (`git archive` into a temporary folder, its translations compiled there), on the same
    database: how the worker answered before the draw was bounded and moved off the hub.

(c) Small evenings, in one process: plans of 8 to 16 present (one game, or three tables of two sizes, the
    dearest for the exact search), each drawn for five rounds one after another over a season of 40
    matches: the slowest draw and its CPU time, the most work the exact search takes to prove a round's
    pairs meeting again are the fewest (as the evening's pages ask), and the pairs meeting again, against
    the engine of --small-base drawing each round of the same evening so far.

Targets: a draw of 400 present answered within 2 s; no poll waits more than 200 ms while the draws run; a
draw of up to 16 present within 0.25 s of CPU time.
Exits 1 when this tree misses either.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from types import ModuleType
from typing import Any

import club_seed
import harness
import seed
from harness import PYTHON, REAL_APP, ROOT, emit_figures, say
from scorekeeper.club.engine import seating
from scorekeeper.games import GAMES

BASE = "b3dc29e"  # the last commit whose search was unbounded and ran on the hub
SMALL_BASE = "2d17e53"  # the last commit before the exact search: its draw traded pairs meeting again away
DRAW_TARGET = 2.0  # seconds: a draw of 400 present, answered
POLL_TARGET_MS = 200  # the longest a poll may wait while draws run
POLL_EVERY = 0.05  # seconds between a poll's answer and the next poll
TIMEOUT = 120.0  # the base commit's draw of 400 may take tens of seconds
GAMES_DRAWN = ("barbu", "kozyol", "hearts")
MIX = (("barbu", 4), ("kozyol", 3), ("hearts", 3))  # tenths of the season's matches of each game
SETTINGS = {"SCOREKEEPER_RATELIMIT_ENABLED": "false"}


# -- (a) the engine, this tree against the base commit -------------------------------------------------


def base_engine(commit: str) -> ModuleType:
    """The base commit's seating engine, loaded beside this tree's (it imports the same games)."""
    source = subprocess.run(["git", "show", f"{commit}:scorekeeper/club/engine/seating.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    name = "scorekeeper.club.engine.seating_base"
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "scorekeeper.club.engine"
    sys.modules[name] = module  # its dataclasses look their module up while they are made
    exec(compile(source, f"{commit}:scorekeeper/club/engine/seating.py", "exec"), module.__dict__)  # noqa: S102
    return module


def season(rng: random.Random, players: list[int], matches: int) -> seating.History:
    """A made-up season: matches of the three games between random players, and sit-outs."""
    games = [game for game, tenths in MIX for _ in range(tenths)]
    played = []
    for _ in range(matches):
        game = rng.choice(games)
        played.append((game, rng.sample(players, rng.randint(GAMES[game].min_players, GAMES[game].max_players))))
    return seating.history_of(played, {player: rng.randint(0, 6) for player in players})


def as_base(engine: ModuleType, history: seating.History) -> Any:
    """The same history as the base engine's own class (its draw reads only the three counts)."""
    return engine.History(history.met, history.partnered, history.sat_out)


@dataclass
class Drawn:
    wall: float
    cpu: float
    repeats: int


def timed_draw(call: Callable[[], Any], history: seating.History) -> Drawn:
    wall, cpu = time.perf_counter(), time.process_time()
    made = call()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    met = sum(history.met.get(seating.pair(a, b), 0) for table in made.tables
              for at, a in enumerate(table.seats) for b in table.seats[at + 1:])
    return Drawn(wall, cpu, met)


def engine_figures(sizes: list[int], runs: int, base: ModuleType | None) -> tuple[list[dict], dict[int, float]]:
    """(a): for each size, this tree's draw against the base commit's; the figures, and this tree's slowest."""
    figures, slowest = [], {}
    for size in sizes:
        rng = random.Random(size)
        club = list(range(1, size * 3 // 2 + 1))
        history = season(rng, club, 20 * size)
        now: list[Drawn] = []
        before: list[Drawn] = []
        for run in range(runs):
            present = rng.sample(club, size)
            for game in GAMES_DRAWN:
                seed_ = rng.getrandbits(31)
                now.append(timed_draw(lambda: seating.draw(present, game, history, seed_), history))
                if base is not None:
                    old = as_base(base, history)
                    before.append(timed_draw(lambda: base.draw(present, game, old, seed_), history))
            say(f"    {size} present, run {run + 1} of {runs}: now {', '.join(f'{d.wall:.2f}' for d in now[-3:])} s"
                + (f"; base {', '.join(f'{d.wall:.2f}' for d in before[-3:])} s" if before else ""))
        wall = statistics.median(d.wall for d in now)
        slowest[size] = max(d.wall for d in now)
        line = (f"  {size} present: this tree {1e3 * wall:.0f} ms median (slowest {1e3 * slowest[size]:.0f}, CPU "
                f"{1e3 * statistics.median(d.cpu for d in now):.0f} ms), repeat meetings {sum(d.repeats for d in now)}")
        detail = f"median of {len(now)} draws ({runs} runs x {', '.join(GAMES_DRAWN)}), slowest {slowest[size]:.2f} s"
        value: float = round(wall, 3)
        if before:
            old_wall = statistics.median(d.wall for d in before)
            quality = sum(d.repeats for d in now) / max(1, sum(d.repeats for d in before))
            line += (f"; base {1e3 * old_wall:.0f} ms median (slowest {1e3 * max(d.wall for d in before):.0f}), "
                     f"repeat meetings {sum(d.repeats for d in before)}: time x{wall / old_wall:.3f}, "
                     f"repeat meetings x{quality:.3f}")
            detail += (f"; base commit {old_wall:.2f} s (slowest {max(d.wall for d in before):.2f}): "
                       f"x{wall / old_wall:.3f}; repeat meetings {quality:.3f} x the base's")
        say(line)
        figures.append({"figure": f"15a {size}", "value": value,
                        "target": f"< {DRAW_TARGET:g} s" if size >= 400 else "(bounded)",
                        "pass": slowest[size] < DRAW_TARGET if size >= 400 else None,
                        "name": f"a round's draw for {size} present of a club of {len(club)} with "
                                f"{20 * size:,} matches: wall time (s)", "detail": detail})
    return figures, slowest


# -- (c) small evenings, searched exactly ---------------------------------------------------------------

# (present, game): the plans of up to 16 seated, the dearest for the exact search among them (three tables of
# two sizes), each drawn for SMALL_ROUNDS rounds one after another over a season of 40 matches.
SMALL = [(8, "barbu"), (10, "kozyol"), (12, "kozyol"), (13, "hearts"), (14, ["kozyol", "hearts"]), (16, "barbu"),
         (16, "kozyol"), (16, "hearts"), (16, ["kozyol", "barbu", "hearts"]), (16, ["kozyol", "hearts", "hearts"])]
SMALL_ROUNDS = 5
SMALL_TARGET = 0.25  # seconds: the slowest draw of up to 16 present, well within the draw's bound


def small_figures(runs: int, base: ModuleType | None) -> tuple[list[dict], bool]:
    """(c): each small evening's rounds drawn by this tree (the exact search up to 16 seated) and by the base
    commit's engine on the same evening so far: the slowest draw, and the pairs each seats again."""
    walls, cpus, mine, theirs, spent = [], [], 0, 0, []
    for present, game in SMALL:
        for run in range(runs):
            rng = random.Random(f"{present} {game} {run}")
            history = small_season(rng, list(range(1, present + 1)), 40)
            tonight: list[seating.Round] = []
            for _number in range(SMALL_ROUNDS):
                seed_ = rng.getrandbits(31)
                wall, cpu = time.perf_counter(), time.process_time()
                drawn = seating.draw(list(range(1, present + 1)), game, history, seed_, tonight)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                mine += len(seating.met_again(drawn, tonight))
                if base is not None:
                    old = base.draw(list(range(1, present + 1)), game, as_base(base, history), seed_, tonight)
                    theirs += len(seating.met_again(old, tonight))
                spent.append(exact_work(drawn, tonight))
                tonight.append(drawn)
                history = history.after(drawn)
    slowest = max(cpus)  # CPU time: the machine is shared, and a draw runs in its own thread
    line = (f"  up to 16 present ({len(walls)} draws): CPU median {1e3 * statistics.median(cpus):.0f} ms, slowest "
            f"{1e3 * slowest:.0f} ms (wall {1e3 * max(walls):.0f} ms); the exact search's work at most "
            f"{max(spent):,} of {seating.EXACT_WORK:,}; pairs meeting again {mine}" + (f", base {theirs}" if base else ""))
    say(line)
    return [{"figure": "15d", "value": round(slowest, 3), "target": f"< {SMALL_TARGET:g} s",
             "pass": slowest < SMALL_TARGET, "detail": line.strip(),
             "name": "a round's draw for up to 16 present, searched exactly: slowest, CPU time (s)"}], \
        slowest < SMALL_TARGET


def small_season(rng: random.Random, players: list[int], matches: int) -> seating.History:
    """A made-up season of a small club: matches of the three games among its players, and sit-outs."""
    games = [game for game, tenths in MIX for _ in range(tenths)]
    played = []
    for _ in range(matches):
        game = rng.choice(games)
        size = rng.randint(GAMES[game].min_players, min(GAMES[game].max_players, len(players)))
        played.append((game, rng.sample(players, size)))
    return seating.history_of(played, {player: rng.randint(0, 2) for player in players})


def exact_work(drawn: seating.Round, tonight: list[seating.Round]) -> int:
    """The work the exact search takes to prove the round's pairs meeting again are the fewest (as a page asks)."""
    counted = seating.Work(None)
    players = [player for table in drawn.tables for player in table.seats]
    before = seating.History().after(seating.Round(tuple(t for r in tonight for t in r.tables), ())).met
    matrix = [[int(seating.pair(a, b) in before) if a != b else 0 for b in players] for a in players]
    groups, at = [], 0
    for table in drawn.tables:
        groups.append(list(range(at, at + len(table.seats))))
        at += len(table.seats)
    seating.fewer_again(matrix, groups, seating.by_index(players, tonight), counted)
    return counted.spent


# -- (b) the production server, one worker -------------------------------------------------------------


def call(port: int, method: str, path: str, body: object = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes, float]:
    """harness.call with this benchmark's patience."""
    return harness.call(port, method, path, body, headers, timeout=TIMEOUT)


class Poller(threading.Thread):
    """A phone watching a match: its state with If-None-Match, again POLL_EVERY after each answer."""

    def __init__(self, port: int, path: str, tag: str):
        super().__init__(daemon=True)
        self.port, self.path, self.tag = port, path, tag
        self.polls: list[tuple[float, float, int]] = []  # (sent at, seconds waited, status)
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            sent = time.perf_counter()
            status, _, _, seconds = call(self.port, "GET", self.path, headers={"If-None-Match": self.tag})
            self.polls.append((sent, seconds, status))
            time.sleep(POLL_EVERY)

    def between(self, start: float, end: float) -> list[tuple[float, float, int]]:
        """The polls that were waiting at some moment between start and end."""
        return [poll for poll in self.polls if poll[0] < end and poll[0] + poll[1] > start]


@dataclass
class ServerRun:
    label: str
    draws: list[float]
    kept: float
    alone: list[float]
    during: list[float]
    statuses: list[int]  # the polls' answers
    failed: list[int]  # the statuses of draws not answered 200


def club_for_server(flask_app, size: int, matches: int) -> tuple[str, str, int]:
    """A club of size players with matches behind it and today's evening with all of them present."""
    from scorekeeper.club import evenings, service as clubs
    from scorekeeper.db import db

    public_id, key, roster = club_seed.make_club(flask_app, size)
    if matches:
        club_seed.bulk_matches(flask_app, public_id, roster, matches, random.Random(15), log=lambda _line: None)
    with flask_app.app_context():
        club = clubs.must_find(public_id)
        evening = evenings.schedule(club, clubs.today(club), "19:30", "", "")[0]
        for player in roster:
            evenings.mark_present(club, evening, player, True)
        evening_id = evening.id
        db.session.remove()
    return public_id, key, evening_id


def draws_while_polled(port: int, club: str, key: str, evening: int, watched: str, tag: str, draws: int,
                       label: str, alone_seconds: float = 3.0) -> ServerRun:
    """The polls alone for a while, then while the draws are asked one after the other, then a kept one."""
    poller = Poller(port, f"/api/v1/matches/{watched}", tag)
    poller.start()
    time.sleep(alone_seconds)
    alone_end = time.perf_counter()
    proposal = f"/api/v1/clubs/{club}/planned-evenings/{evening}/rounds/proposal"
    auth = {"Authorization": f"Bearer {key}"}
    times, windows, failed, last = [], [], [], None
    for number in range(draws):
        began = time.perf_counter()
        status, _, body, seconds = call(port, "POST", proposal, {"game": "barbu", "seed": 1000 + number}, auth)
        windows.append((began, began + seconds))
        times.append(seconds)
        if status == 200:
            last = json.loads(body)
        else:  # a worker killed by gunicorn's timeout mid-draw answers nothing (0) or 502
            failed.append(status)
        time.sleep(0.3)
    kept = float("nan")
    if last is not None:
        a, b = last["tables"][0]["seat_ids"][0], last["tables"][-1]["seat_ids"][-1]
        status, _, body, kept = call(port, "POST", proposal, {"game": "barbu", "seed": 1000 + draws - 1,
                                                              "swaps": [[a, b]]}, auth)
        if status != 200:
            failed.append(status)
    time.sleep(0.2)
    poller.stop.set()
    poller.join(TIMEOUT)
    for number, (start, end) in enumerate(windows, 1):  # once every poll is in: one may end with its draw
        waits = [poll[1] for poll in poller.between(start, end)]
        say(f"    {label}: draw {number} of {draws} answered in {end - start:.2f} s; {len(waits)} polls meanwhile, "
            f"the longest {1e3 * max(waits, default=0.0):.0f} ms")
    alone = [seconds for sent, seconds, _status in poller.polls if sent + seconds < alone_end]
    during = sorted({poll for start, end in windows for poll in poller.between(start, end)})
    return ServerRun(label, times, kept, alone, [seconds for _sent, seconds, _status in during],
                     [status for _sent, _seconds, status in poller.polls], failed)


@contextlib.contextmanager
def base_tree(commit: str) -> Iterator[Path]:
    """The base commit's files in a temporary folder (git archive: the repository is only read), translated."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-base-"))
    try:
        archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        subprocess.run([PYTHON, "-c", "import sys; from pathlib import Path; from scorekeeper.i18n import "
                        "compile_catalogs; compile_catalogs(Path(sys.argv[1]))", str(folder / "translations")],
                       cwd=folder, check=True)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class TreeServer(harness.Server):
    """harness.Server, but gunicorn started in another tree (its own code and gunicorn.conf.py)."""

    tree: Path = ROOT

    def start(self, ready_path: str = "/") -> TreeServer:
        env = {**os.environ, **(self.settings or {}), "SCOREKEEPER_BIND": f"127.0.0.1:{self.port}",
               "SCOREKEEPER_WORKERS": str(self.workers), "SCOREKEEPER_THREADS": str(self.threads)}
        env.pop("SCOREKEEPER_ACCESS_LOG", None)
        env["PYTHONPATH"] = str(self.tree)  # its scorekeeper, not this tree's
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen([PYTHON, "-m", "gunicorn", "--config", str(self.tree / "gunicorn.conf.py"),
                                             self.app], cwd=self.tree, env=env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_ready(ready_path)
        return self


def served_run(tree: Path, label: str, logs: Path, club: str, key: str, evening: int, watched: str,
               draws: int) -> ServerRun:
    server = TreeServer(REAL_APP, 1, 1, logs / f"{label}.log", SETTINGS, tree=tree)
    try:
        server.start(f"/m/{watched}")
        tag = call(server.port, "GET", f"/api/v1/matches/{watched}")[1]["ETag"]
        return draws_while_polled(server.port, club, key, evening, watched, tag, draws, label)
    finally:
        server.stop()


def server_line(run: ServerRun) -> str:
    return (f"  {run.label}: draws answered in {', '.join(f'{s:.2f}' for s in run.draws)} s (kept one "
            f"{1e3 * run.kept:.0f} ms); polls alone: median {1e3 * statistics.median(run.alone):.1f} ms, longest "
            f"{1e3 * max(run.alone):.1f} ms ({len(run.alone)}); while drawing: median "
            f"{1e3 * statistics.median(run.during or [0.0]):.1f} ms, longest {1e3 * max(run.during or [0.0]):.1f} ms "
            f"({len(run.during)} polls); polls answered other than 304: {sum(s != 304 for s in run.statuses)}"
            + (f"; draws not answered: {run.failed}" if run.failed else ""))


def server_figures(size: int, matches: int, draws: int, base: str | None) -> tuple[list[dict], bool]:
    runs: list[ServerRun] = []
    with harness.instance("sqlite") as settings:
        flask_app = seed.app()
        club, key, evening = club_for_server(flask_app, size, matches)
        watched, _ = seed.create(flask_app, "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, seed.barbu_entries())
        logs = Path(settings["SCOREKEEPER_INSTANCE_PATH"]) / "logs"
        say(f"  a club of {size} players, {matches:,} past matches, {size} present; one gevent worker")
        runs.append(served_run(ROOT, "this tree", logs, club, key, evening, watched, draws))
        if base is not None:
            with base_tree(base) as tree:
                runs.append(served_run(tree, f"base {base}", logs, club, key, evening, watched, min(draws, 2)))
    for run in runs:
        say(server_line(run))
    now = runs[0]
    longest_ms = 1e3 * max(now.during or [0.0])
    met = (max(now.draws) < DRAW_TARGET and longest_ms <= POLL_TARGET_MS and all(s == 304 for s in now.statuses)
           and not now.failed)
    alone_ms = 1e3 * max(now.alone)
    detail_base = ""
    if len(runs) > 1:
        old = runs[1]
        detail_base = (f"; base {base}: draws {', '.join(f'{s:.2f}' for s in old.draws)} s, longest poll "
                       f"{1e3 * max(old.during or [0.0]):.0f} ms")
    figures = [
        {"figure": "15b", "value": round(max(now.draws), 3), "target": f"< {DRAW_TARGET:g} s",
         "pass": max(now.draws) < DRAW_TARGET and not now.failed,
         "name": f"a proposal for {size} present through the API on one gevent worker: slowest answer (s)",
         "detail": f"{draws} draws, median {statistics.median(now.draws):.2f} s; kept with a swap "
                   f"{1e3 * now.kept:.0f} ms" + detail_base},
        {"figure": "15c", "value": round(longest_ms / alone_ms, 2), "target": f"longest <= {POLL_TARGET_MS} ms",
         "pass": longest_ms <= POLL_TARGET_MS and all(s == 304 for s in now.statuses),
         "name": "longest 304 poll wait while the worker draws / alone",
         "detail": f"{longest_ms:.0f} vs {alone_ms:.0f} ms ({len(now.during)} polls while drawing, median "
                   f"{1e3 * statistics.median(now.during or [0.0]):.1f} ms)" + detail_base},
    ]
    return figures, met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,200,400", help="players present, comma-separated (a)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each size, a round of each game a run (a)")
    parser.add_argument("--base", default=BASE, help=f"the commit to compare with (default {BASE})")
    parser.add_argument("--no-base", action="store_true", help="this tree alone")
    parser.add_argument("--draws", type=int, default=5, help="proposals drawn on the server (b)")
    parser.add_argument("--server-size", type=int, default=400, help="players present on the server (b)")
    parser.add_argument("--matches", type=int, default=4000, help="the server club's past matches (b)")
    parser.add_argument("--no-server", action="store_true", help="the engine alone (a)")
    parser.add_argument("--small-runs", type=int, default=2, help="runs of each small evening (c); 0: none")
    parser.add_argument("--small-base", default=SMALL_BASE, help=f"the commit to compare (c) with ({SMALL_BASE})")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",") if size]
    base = None if args.no_base else args.base
    say(f"seating draw: sizes {sizes}, {args.runs} runs; WORK {seating.WORK:,}; base {base or '(none)'}; "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    say("(a) the engine in one process")
    figures, slowest = engine_figures(sizes, args.runs, base_engine(base) if base else None)
    met = all(seconds < DRAW_TARGET for size, seconds in slowest.items() if size >= 400)
    if args.small_runs:
        say("(c) small evenings, searched exactly")
        more, small_met = small_figures(args.small_runs, None if args.no_base else base_engine(args.small_base))
        figures += more
        met = met and small_met
    if not args.no_server:
        say("(b) the production server")
        more, served_met = server_figures(args.server_size, args.matches, args.draws, base)
        figures += more
        met = met and served_met
    say(f"load average at the end {os.getloadavg()[0]:.2f}")
    emit_figures(figures, args.json)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
