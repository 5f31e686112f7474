"""Figures 1p and 2p: the match page and the 304 poll against a plain baseline, and how 8 connections spread.

    .venv/bin/python bench/plain_baseline.py [--runs 5] [--rounds 3] [--seconds 4] [--connections 8]
                                              [--database sqlite|postgres]

The plain baseline is a Flask hello-world (bench/hello.py) on gunicorn with 2 sync workers, the
smallest honest server; the app runs as `manage.py serve` runs it (gunicorn.conf.py: gevent workers,
two a core). Both are loaded with wrk over the same 8 keep-alive connections. A run starts both
servers afresh and loads, round after round, the baseline, the finished 28-hand Barbu match's page
and its 304 poll (If-None-Match), one after the other, so a ratio compares neighbouring loads; a run's
figure is the median of its rounds, and the script reports the median and the range over --runs runs.
For comparison it also loads the hello-world on the app's own combination (gevent workers) once a run.

Why runs differ: each gevent worker accepts as many connections as it likes, and wrk opens its 8 at
once, so one run may give a worker 5 of them and another worker none, and the next run spread them
2-2-2-2. A busy worker serves its connections in turn on one core while another sits idle, so the
throughput of a run depends on how the connections fell. The script records, per load, how many
workers did work (CPU time over 10 % of the load's) and the largest share of the CPU one worker took,
and prints them beside each run's ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import harness
import seed
from harness import HELLO_APP, REAL_APP, child_pids, emit_figures, load, process_cpu, ratio, say, served

PAGE_TARGET = 0.40
POLL_TARGET = 0.65
PLAIN = {"SCOREKEEPER_WORKER_CLASS": "sync"}  # gunicorn's sync worker: one request at a time, no gevent


def production_workers() -> int:
    values: dict[str, object] = {}
    exec(compile((harness.ROOT / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), values)
    return int(values["workers"])


def spread(server, run) -> tuple[object, dict[str, float]]:
    """Run a load and say how its work fell on the server's workers: how many worked, the busiest's share."""
    pids = child_pids(server.process.pid)
    before = {pid: process_cpu(pid) for pid in pids}
    result = run()
    used = {pid: process_cpu(pid) - before.get(pid, 0.0) for pid in child_pids(server.process.pid)}
    total = sum(used.values()) or 1e-9
    return result, {"busy": sum(1 for spent in used.values() if spent / total > 0.1),
                    "top_share": max(used.values(), default=0.0) / total}


def one_run(public_id: str, etag: str, seconds: float, connections: int, rounds: int, workers: int,
            logs: Path, number: int) -> dict:
    with served(HELLO_APP, 2, 1, logs / f"plain-{number}.log", settings=PLAIN) as plain, \
            served(HELLO_APP, workers, 1, logs / f"hello-{number}.log") as hello, \
            served(REAL_APP, workers, 1, logs / f"app-{number}.log", f"/m/{public_id}") as app:
        targets = {"plain": (plain, plain.base + "/", {}),
                   "page": (app, f"{app.base}/m/{public_id}", {}),
                   "poll": (app, f"{app.base}/api/v1/matches/{public_id}", {"If-None-Match": etag})}
        for _server, url, headers in targets.values():
            load(url, 1.0, connections, headers=headers)
        loads: dict[str, list] = {name: [] for name in targets}
        spreads: dict[str, list] = {name: [] for name in targets}
        for _ in range(rounds):
            for name, (server, url, headers) in targets.items():
                result, how = spread(server, lambda: load(url, seconds, connections, headers=headers, server=server))
                if result.errors > connections:
                    raise RuntimeError(f"{name}: {result.errors} failed requests")
                # A worker recycled after max_requests closes the keep-alive connections it held: wrk counts
                # each as a failed read. At most one per connection is that, and it is reported.
                loads[name].append(result)
                spreads[name].append(how)
        same = load(hello.base + "/", seconds, connections)
    row = {name: statistics.median(r.rps for r in results) for name, results in loads.items()}
    row["hello_gevent"] = same.rps
    row["closed"] = sum(r.errors for results in loads.values() for r in results)
    for name in ("page", "poll"):
        row[f"{name}_ratio"] = statistics.median(ratio(a.rps, p.rps) for a, p in zip(loads[name], loads["plain"]))
        row[f"{name}_busy"] = [how["busy"] for how in spreads[name]]
        row[f"{name}_top"] = [round(how["top_share"], 2) for how in spreads[name]]
    return row


def check(base: str, public_id: str) -> str:
    status, headers, _ = harness.get(f"{base}/api/v1/matches/{public_id}")
    status, _, _ = harness.get(f"{base}/api/v1/matches/{public_id}", {"If-None-Match": headers["ETag"]})
    assert status == 304, status
    return headers["ETag"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs, each with fresh servers (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per run (default 3)")
    parser.add_argument("--seconds", type=float, default=4, help="load time per measurement (default 4)")
    parser.add_argument("--connections", type=int, default=8, help="keep-alive connections (default 8)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    workers = production_workers()
    say(f"plain baseline: hello-world on 2 sync workers; the app on {workers} gevent workers; "
        f"{args.connections} connections, {args.seconds:g} s a load, {args.rounds} rounds x {args.runs} runs; "
        f"{args.database}")
    with harness.instance(args.database) as settings:
        public_id, _ = seed.create(seed.app(), "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, seed.barbu_entries())
        logs = Path(settings["SCOREKEEPER_INSTANCE_PATH"]) / "logs"
        with served(REAL_APP, 1, 1, logs / "check.log", f"/m/{public_id}") as server:
            etag = check(server.base, public_id)
        runs = []
        for number in range(args.runs):
            row = one_run(public_id, etag, args.seconds, args.connections, args.rounds, workers, logs, number)
            runs.append(row)
            say(f"  run {number + 1}: plain {row['plain']:.0f} req/s, hello on gevent {row['hello_gevent']:.0f}; "
                f"page {row['page']:.0f} = {row['page_ratio']:.2f} x plain (workers busy {row['page_busy']}, "
                f"busiest's CPU share {row['page_top']}); poll {row['poll']:.0f} = {row['poll_ratio']:.2f} x plain "
                f"(busy {row['poll_busy']}, busiest {row['poll_top']}); {row['closed']} connections closed by a "
                f"recycled worker")
    figures = []
    for number, name, key, target in (("1p", "match page of a finished 28-hand Barbu match", "page", PAGE_TARGET),
                                      ("2p", "match-state poll answered 304", "poll", POLL_TARGET)):
        ratios = [row[f"{key}_ratio"] for row in runs]
        middle = statistics.median(ratios)
        figures.append({
            "figure": f"{number} {args.database}", "name": f"{name} / hello-world on 2 sync workers (req/s ratio, "
            f"{args.connections} connections)", "value": round(middle, 3), "target": f">= {target}",
            "pass": middle >= target,
            "detail": f"median of {len(runs)} runs, range {min(ratios):.2f}-{max(ratios):.2f}; "
                      f"{statistics.median(row[key] for row in runs):.0f} vs "
                      f"{statistics.median(row['plain'] for row in runs):.0f} req/s plain, "
                      f"{statistics.median(row['hello_gevent'] for row in runs):.0f} req/s hello-world on the app's "
                      f"{workers} gevent workers; workers busy per load {[row[f'{key}_busy'] for row in runs]}"})
    emit_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
