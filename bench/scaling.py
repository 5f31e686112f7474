"""Figure 4: how the match page's time grows with the stored matches and with the hands of a match.

    .venv/bin/python bench/scaling.py [--seconds 5] [--large 100000] [--database sqlite|postgres]

Matches: two databases, each holding a finished 28-hand Barbu match and 50 more made by the app
(the probes), filled up with Barbu matches of 0 to 28 hands (bulk Core inserts of the app's
tables) to --small and to --large matches. The page is timed two ways, the two databases in
turn, round after round: served by gunicorn with wrk (the standings and page caches warm, as for
a table that keeps looking) and in-process with both caches emptied before every view (find the
match, read its hands, replay, render: every lookup a cold page makes). The figures are the
median time ratios large / small.

Hands: a 30-hand and a 300-hand Cancellation Hearts game, page timed in-process with the caches
emptied before every view. Replaying is linear, so the ratio should stay near 10, far from 100.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import harness
import seed
from harness import REAL_APP, emit_figures, load, say, served

MATCHES_TARGET = 1.2
HANDS_TARGET = 15.0  # 10 x the hands: linear gives about 10 (less, with the fixed costs), quadratic about 100
PROBES = 50


def cold_page_ms(app, public_ids: list[str], rounds: int) -> float:
    """A match page view with the standings and page caches emptied before it, in milliseconds.

    Each page is viewed once a round; its best time stands for it (on a shared machine other
    work only ever adds time), and the figure is the median over the pages.
    """
    from scorekeeper.match import matches
    from scorekeeper.web.match import pages

    client = app.test_client()
    best = {public_id: float("inf") for public_id in public_ids}
    for _ in range(rounds):
        for public_id in public_ids:
            matches.cached_replay.cache_clear()
            pages.WATCHED.clear()
            began = time.perf_counter()
            answer = client.get(f"/m/{public_id}")
            best[public_id] = min(best[public_id], time.perf_counter() - began)
            if answer.status_code != 200:
                raise RuntimeError(f"/m/{public_id} answered {answer.status_code}")
    return 1e3 * statistics.median(best.values())


def populate(app, size: int) -> tuple[str, list[str]]:
    """The finished Barbu match and the probes, made by the app, then bulk matches up to size in all."""
    target, _ = seed.create(app, "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, seed.barbu_entries())
    entries = seed.barbu_entries()
    probes = [seed.create(app, "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, entries[: 1 + n % 28])[0]
              for n in range(PROBES)]
    seed.bulk_barbu(app, size - 1 - PROBES, log=lambda _: None)
    return target, probes


def matches_figure(kind: str, small: int, large: int, seconds: float, connections: int, rounds: int) -> dict:
    """Two databases side by side, small and large; their page timings interleaved round by round."""
    from serving import production_config

    workers, threads = production_config()
    with harness.instance(kind, "scorekeeper_bench_small") as small_settings:
        small_app = seed.app()
        small_target, small_probes = populate(small_app, small)
        with harness.instance(kind, "scorekeeper_bench_large") as large_settings:
            large_app = seed.app()
            began = time.perf_counter()
            say(f"  {kind}: storing {large} matches (bulk inserts)")
            large_target, large_probes = populate(large_app, large)
            say(f"  {kind}: {small} and {large} matches stored ({time.perf_counter() - began:.0f} s); timing the page")
            logs = Path(large_settings["SCOREKEEPER_INSTANCE_PATH"])
            with served(REAL_APP, workers, threads, logs / "small.log", f"/m/{small_target}",
                        small_settings) as small_server, \
                    served(REAL_APP, workers, threads, logs / "large.log", f"/m/{large_target}",
                           large_settings) as large_server:
                urls = [f"{small_server.base}/m/{small_target}", f"{large_server.base}/m/{large_target}"]
                for url in urls:
                    load(url, min(2.0, seconds / 2), connections)
                runs: list[list[harness.Load]] = [[], []]
                for _ in range(rounds):
                    for n, (url, server) in enumerate(zip(urls, (small_server, large_server))):
                        runs[n].append(load(url, seconds, connections, server=server))
            if any(r.errors for side in runs for r in side):
                raise RuntimeError("failed page requests")
            cold = [cold_page_ms(small_app, small_probes, rounds), cold_page_ms(large_app, large_probes, rounds)]
            for app in (small_app, large_app):
                with app.app_context():
                    from scorekeeper.db import db

                    db.session.remove()
                    db.engine.dispose()
    # The best round of each side stands for it: other work on the machine only ever slows a round.
    sizes = {
        size: {"served_rps": max(r.rps for r in side), "served_ms": 1e3 / max(r.rps for r in side),
               "served_cpu_ms": 1e3 * sum(r.server_cpu for r in side) / sum(r.requests for r in side),
               "cold_ms": times}
        for size, side, times in ((small, runs[0], cold[0]), (large, runs[1], cold[1]))
    }
    for size, row in sizes.items():
        say(f"    {size:>7} matches: served {row['served_rps']:.0f} req/s ({row['served_ms']:.2f} ms a page, "
            f"{row['served_cpu_ms']:.2f} ms of server CPU); cold page (caches emptied) {row['cold_ms']:.2f} ms")
    return {"sizes": sizes, "served_ratio": sizes[large]["served_ms"] / sizes[small]["served_ms"],
            "served_cpu_ratio": sizes[large]["served_cpu_ms"] / sizes[small]["served_cpu_ms"],
            "cold_ratio": sizes[large]["cold_ms"] / sizes[small]["cold_ms"]}


def hands_figure(kind: str, rounds: int) -> dict:
    with harness.instance(kind):
        app = seed.app()
        games = {n: seed.create(app, "hearts", seed.HEARTS_PLAYERS, seed.HEARTS_OPTIONS, seed.hearts_entries(n))[0]
                 for n in (30, 300)}
        times = {n: cold_page_ms(app, [public_id], 5 * rounds) for n, public_id in games.items()}
        with app.app_context():
            from scorekeeper.db import db

            db.session.remove()
            db.engine.dispose()
    say(f"  hearts page, caches emptied: 30 hands {times[30]:.2f} ms, 300 hands {times[300]:.2f} ms, "
        f"ratio {times[300] / times[30]:.1f}")
    return {"ms_30": times[30], "ms_300": times[300], "ratio": times[300] / times[30]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5, help="wrk load time per size (default 5)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved rounds of wrk loads and of cold views of every probe (default 3)")
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.small <= PROBES or args.large <= args.small:
        parser.error(f"need {PROBES} < --small < --large")

    say(f"scaling: {args.small} vs {args.large} matches on {args.database}; 30 vs 300 Hearts hands")
    by_matches = matches_figure(args.database, args.small, args.large, args.seconds, args.connections, args.rounds)
    by_hands = hands_figure(args.database, args.rounds)
    small, large = by_matches["sizes"][args.small], by_matches["sizes"][args.large]
    figures = [
        {"figure": "4a", "name": f"match page time, {args.large:,} vs {args.small} stored matches (served, caches warm)",
         "value": round(by_matches["served_ratio"], 3), "target": f"<= {MATCHES_TARGET}",
         "pass": by_matches["served_ratio"] <= MATCHES_TARGET,
         "detail": f"{large['served_ms']:.2f} vs {small['served_ms']:.2f} ms a page "
                   f"({large['served_rps']:.0f} vs {small['served_rps']:.0f} req/s, best of {args.rounds}); "
                   f"server CPU a page {by_matches['served_cpu_ratio']:.2f} x; {args.database}"},
        {"figure": "4b", "name": f"match page time, {args.large:,} vs {args.small} stored matches (caches emptied)",
         "value": round(by_matches["cold_ratio"], 3), "target": f"<= {MATCHES_TARGET}",
         "pass": by_matches["cold_ratio"] <= MATCHES_TARGET,
         "detail": f"{large['cold_ms']:.2f} vs {small['cold_ms']:.2f} ms a view, median over {PROBES} matches "
                   f"of each one's best of {args.rounds}; "
                   f"{args.database}"},
        {"figure": "4c", "name": "match page time, 300-hand vs 30-hand Hearts game (caches emptied)",
         "value": round(by_hands["ratio"], 2), "target": f"<= {HANDS_TARGET:g} (linear ~10, quadratic ~100)",
         "pass": by_hands["ratio"] <= HANDS_TARGET,
         "detail": f"{by_hands['ms_300']:.2f} vs {by_hands['ms_30']:.2f} ms a view; {args.database}"},
    ]
    emit_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
