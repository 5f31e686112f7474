"""Figures 1 and 2: the match page and the 304 poll, against a Flask hello-world on the same gunicorn.

    .venv/bin/python bench/serving.py [--seconds 5] [--configs 4x1,4x2] [--database sqlite|postgres]

For each workers x threads combination it starts gunicorn with the project's gunicorn.conf.py,
first serving bench/hello.py, then the real app on a throwaway database holding a finished
28-hand Barbu match, loads each for --seconds with wrk and prints requests per second and the
ratio to the hello-world of the same combination. The figures come from the production
combination (gunicorn.conf.py's defaults); the other combinations show whether threads help.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

import harness
import seed
from harness import HELLO_APP, REAL_APP, emit_figures, load, ratio, say, served

PAGE_TARGET = 0.35
POLL_TARGET = 0.6


def production_config() -> tuple[int, int]:
    """Workers and threads as gunicorn.conf.py would choose them here."""
    values: dict[str, object] = {}
    exec(compile((harness.ROOT / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), values)
    return int(values["workers"]), int(values["threads"])


def parse_configs(text: str) -> list[tuple[int, int]]:
    return [tuple(int(n) for n in item.split("x")) for item in text.split(",") if item]


def check_match(base: str, public_id: str) -> str:
    """The page shows the finished match and the poll answers 304: return the poll's ETag."""
    status, _, page = harness.get(f"{base}/m/{public_id}")
    assert status == 200 and b"Winner" in page, (status, page[:300])
    status, headers, _ = harness.get(f"{base}/api/v1/matches/{public_id}")
    etag = headers["ETag"]
    status, _, _ = harness.get(f"{base}/api/v1/matches/{public_id}", {"If-None-Match": etag})
    assert status == 304, status
    return etag


def measure(workers: int, threads: int, public_id: str, seconds: float, connections: int, rounds: int,
            logs: Path) -> dict:
    """Hello-world, the page and the poll on one workers x threads combination, interleaved in rounds.

    Each round loads the three one after the other, so a ratio compares neighbouring measurements;
    the figure is the median over the rounds (other work on the machine moves both alike).
    """
    with served(HELLO_APP, workers, threads, logs / f"hello-{workers}x{threads}.log") as hello, \
            served(REAL_APP, workers, threads, logs / f"app-{workers}x{threads}.log", f"/m/{public_id}") as app:
        etag = check_match(app.base, public_id)
        targets = {
            "hello": (hello, hello.base + "/", {}),
            "page": (app, f"{app.base}/m/{public_id}", {}),
            "poll": (app, f"{app.base}/api/v1/matches/{public_id}", {"If-None-Match": etag}),
        }
        for _server, url, headers in targets.values():
            load(url, min(2.0, seconds / 2), connections, headers=headers)
        runs: dict[str, list[harness.Load]] = {name: [] for name in targets}
        for _ in range(rounds):
            for name, (server, url, headers) in targets.items():
                runs[name].append(load(url, seconds, connections, headers=headers, server=server))
    for name, results in runs.items():
        failed = sum(r.errors for r in results)
        if failed:
            raise RuntimeError(f"{name} on {workers}x{threads}: {failed} failed requests")
    row = {"workers": workers, "threads": threads, "tool": runs["hello"][0].tool}
    for name, results in runs.items():
        row[name] = statistics.median(r.rps for r in results)
        row[f"{name}_cpu"] = sum(r.requests for r in results) / max(sum(r.server_cpu for r in results), 1e-9)
        row[f"{name}_ms"] = statistics.median(r.latency_ms for r in results)
    for name in ("page", "poll"):
        per_round = [ratio(p.rps, h.rps) for p, h in zip(runs[name], runs["hello"])]
        row[f"{name}_ratio"] = statistics.median(per_round)
        row[f"{name}_ratio_range"] = [min(per_round), max(per_round)]
        row[f"{name}_cpu_ratio"] = ratio(row[f"{name}_cpu"], row["hello_cpu"])
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5, help="load time per measurement (default 5)")
    parser.add_argument("--connections", type=int, default=16, help="keep-alive connections (default 16)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per combination (default 3)")
    parser.add_argument("--configs", default="", help="workers x threads to compare, e.g. 2x1,4x1,4x2,4x4 "
                        "(default: the production combination, 1 and 4 threads, and half the workers)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    production = production_config()
    half = production[0] // 2 or 1
    configs = parse_configs(args.configs) or sorted({production, (production[0], 1), (production[0], 2),
                                                    (production[0], 4), (half, 1), (half, 2)})
    if production not in configs:
        configs.append(production)
    say(f"serving: {os.cpu_count()} cores, production combination {production[0]} workers x {production[1]} threads, "
        f"database {args.database}, {args.seconds:g} s per load, {args.connections} connections")
    with harness.instance(args.database) as settings:
        public_id, _ = seed.create(seed.app(), "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, seed.barbu_entries())
        logs = Path(settings["SCOREKEEPER_INSTANCE_PATH"]) / "logs"
        rows = []
        for workers, threads in configs:
            row = measure(workers, threads, public_id, args.seconds, args.connections, args.rounds, logs)
            rows.append(row)
            say(f"  {workers} workers x {threads} threads: hello {row['hello']:6.0f} req/s | "
                f"page {row['page']:6.0f} req/s = {row['page_ratio']:.2f} x hello "
                f"(per server CPU-second {row['page_cpu_ratio']:.2f}) | "
                f"poll 304 {row['poll']:6.0f} req/s = {row['poll_ratio']:.2f} x hello "
                f"(per CPU-second {row['poll_cpu_ratio']:.2f})")
    best_page = max(rows, key=lambda r: r["page"])
    best_poll = max(rows, key=lambda r: r["poll"])
    say(f"fastest page: {best_page['workers']}x{best_page['threads']}; "
        f"fastest poll: {best_poll['workers']}x{best_poll['threads']}")
    prod = next(r for r in rows if (r["workers"], r["threads"]) == production)
    where = f"{prod['workers']} workers x {prod['threads']} threads, {args.database}"
    figures = [
        {"figure": "1", "name": "match page of a finished 28-hand Barbu match / hello-world (req/s ratio)",
         "value": round(prod["page_ratio"], 3), "target": f">= {PAGE_TARGET}", "pass": prod["page_ratio"] >= PAGE_TARGET,
         "detail": f"{prod['page']:.0f} vs {prod['hello']:.0f} req/s; {where}"},
        {"figure": "2", "name": "match-state poll answered 304 / hello-world (req/s ratio)",
         "value": round(prod["poll_ratio"], 3), "target": f">= {POLL_TARGET}", "pass": prod["poll_ratio"] >= POLL_TARGET,
         "detail": f"{prod['poll']:.0f} vs {prod['hello']:.0f} req/s; {where}"},
        {"figure": "threads", "name": "workers x threads sweep", "rows": rows},
    ]
    emit_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
