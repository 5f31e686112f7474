"""Figure 6: a phone's page time while 8 slow clients hold connections, against the same without them.

    .venv/bin/python bench/slow_clients.py [--seconds 8] [--slow 8] [--classes gevent,gthread]

Starts gunicorn with the project's gunicorn.conf.py (its workers; the worker class from --classes,
the first being the production one) on a throwaway database holding a finished 28-hand Barbu
match. A phone then loads the match page over and over, each time on a new connection as a page
load does, for --seconds: first alone (the baseline), then while --slow clients have sent the
headers of a POST and trickle its body, a byte a second. Prints the 95th percentile of the page
time of each run (a load unanswered within TIMEOUT seconds counts as TIMEOUT) and their ratio.
The figure is the production worker's ratio; the others show what it replaced.
"""

from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

import harness
import seed
from harness import REAL_APP, emit_figures, say, served
from serving import production_config

RATIO_TARGET = 2.0  # a phone's p95 may at most double while the slow clients hang on
PROMPT_MS = 1000  # and stays under a second
TIMEOUT = 3.0


class SlowClients:
    """Connections that send a request's headers, then its body one byte a second, until closed."""

    def __init__(self, port: int, count: int):
        head = (f"POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                "Content-Length: 100000\r\n\r\n").encode()
        self.sockets = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(count)]
        for sock in self.sockets:
            sock.sendall(head)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.drip, daemon=True)
        self.thread.start()

    def drip(self) -> None:
        while not self.done.wait(1.0):
            for sock in self.sockets:
                try:
                    sock.sendall(b" ")
                except OSError:
                    pass  # the server gave up on this one: it costs it nothing more

    def close(self) -> None:
        self.done.set()
        self.thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def page_times(port: int, path: str, seconds: float) -> tuple[list[float], int]:
    """Load the page on a new connection each time for seconds; the times (ms) of answers, and the failures."""
    times: list[float] = []
    failed = 0
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        began = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        try:
            connection.request("GET", path)
            answer = connection.getresponse()
            answer.read()
            if answer.status == 200:
                times.append((time.perf_counter() - began) * 1000)
            else:
                failed += 1
        except OSError:
            failed += 1
        finally:
            connection.close()
        time.sleep(0.02)  # a phone, not a load generator
    return times, failed


def p95(times: list[float], failed: int) -> float:
    """The 95th percentile of the page times, a load left unanswered counting as TIMEOUT."""
    every = times + [TIMEOUT * 1000] * failed
    return statistics.quantiles(every, n=20)[-1] if len(every) >= 2 else float("inf")


def measure(worker_class: str, workers: int, public_id: str, seconds: float, slow: int, logs: Path) -> dict:
    settings = {"SCOREKEEPER_WORKER_CLASS": worker_class}
    path = f"/m/{public_id}"
    with served(REAL_APP, workers, 1, logs / f"{worker_class}.log", path, settings=settings) as server:
        page_times(server.port, path, 1.0)  # warm every worker's caches
        alone, alone_failed = page_times(server.port, path, seconds)
        clients = SlowClients(server.port, slow)
        try:
            time.sleep(1.5)  # accepted, headers read, bodies trickling
            crowded, crowded_failed = page_times(server.port, path, seconds)
        finally:
            clients.close()
    row = {"worker_class": worker_class, "workers": workers, "alone_p95": p95(alone, alone_failed),
           "alone_n": len(alone), "alone_failed": alone_failed, "slow_p95": p95(crowded, crowded_failed),
           "slow_n": len(crowded), "slow_failed": crowded_failed}
    row["ratio"] = row["slow_p95"] / row["alone_p95"]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8, help="page loads per run, in seconds (default 8)")
    parser.add_argument("--slow", type=int, default=8, help="slow clients (default 8)")
    parser.add_argument("--classes", default="gevent,gthread",
                        help="worker classes, the production one first (default gevent,gthread)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    workers, _threads = production_config()
    say(f"slow clients: {workers} workers, {args.slow} slow clients, {args.seconds:g} s of page loads per run")
    rows = []
    with harness.instance("sqlite") as settings:
        public_id, _ = seed.create(seed.app(), "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, seed.barbu_entries())
        logs = Path(settings["SCOREKEEPER_INSTANCE_PATH"]) / "logs"
        for worker_class in args.classes.split(","):
            row = measure(worker_class, workers, public_id, args.seconds, args.slow, logs)
            rows.append(row)
            say(f"  {worker_class:8} alone: p95 {row['alone_p95']:7.1f} ms ({row['alone_n']} loads, "
                f"{row['alone_failed']} unanswered) | with {args.slow} slow clients: p95 {row['slow_p95']:7.1f} ms "
                f"({row['slow_n']} loads, {row['slow_failed']} unanswered within {TIMEOUT:g} s) | "
                f"ratio {row['ratio']:.2f}")
    production = rows[0]
    others = "; ".join(f"{r['worker_class']}: p95 {r['slow_p95']:.0f} ms, {r['slow_failed']} of "
                       f"{r['slow_n'] + r['slow_failed']} loads unanswered" for r in rows[1:])
    met = production["ratio"] <= RATIO_TARGET and production["slow_p95"] < PROMPT_MS and not production["slow_failed"]
    figures = [{
        "figure": "6", "name": f"match page p95 with {args.slow} slow clients / without ({production['worker_class']})",
        "value": round(production["ratio"], 2), "target": f"<= {RATIO_TARGET:g}, under {PROMPT_MS} ms, none unanswered",
        "pass": met,
        "detail": f"{production['slow_p95']:.1f} vs {production['alone_p95']:.1f} ms; {workers} workers"
                  + (f"; former worker {others}" if others else ""),
    }]
    emit_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
