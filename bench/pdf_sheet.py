"""Benchmark the score sheet PDF: warm render time and memory over many renders.

    .venv/bin/python bench/pdf_sheet.py [--runs 41] [--renders 300]

Prints, from one run in one process:
- the median warm render time of a full 28-hand Barbu sheet (template to PDF bytes) divided by
  that of a plain 28 x 5 HTML table rendered the same way (target: at most 1.5). The documents
  are rendered in turn, so all see the same load on the machine; wall-clock and CPU time are
  both reported, CPU time being the steadier one on a busy machine;
- the same ratio for a Kozyol series to the goat (10 deals, eggs among them) and a finished
  Cancellation Hearts game of 6 players, against the same table;
- the resident memory of the process after 300 sheet renders against after 10 (target: growth
  under 10 MiB), which shows that the one font configuration and the renders do not leak.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import weasyprint  # noqa: E402

from scorekeeper import pdf  # noqa: E402
from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.games import barbu  # noqa: E402
from scorekeeper.match import matches
from scorekeeper.web.sheets import views as sheets  # noqa: E402

PLAYERS = ["Ann", "Bob", "Ёжик", "Козлов"]
HEARTS = ["Ann", "Bob", "Cid", "Ёжик", "Eve", "Козлов"]
KOZYOL_DEALS = [{"points": [75, 45], "trump_suit": "hearts"}, {"points": [60, 60]}, {"points": [29, 91]},
                {"points": [120, 0], "tricks": [9, 0], "last_trick": "Ann"}, {"points": [90, 30]},
                {"points": [45, 75]}, {"points": [60, 60]}, {"points": [62, 58]}, {"points": [30, 90]},
                {"points": [100, 20], "trump_suit": "spades"}]
TABLE = "<!doctype html><title>table</title><table>" + "".join(
    "<tr>" + "".join(f"<td>{row * 7 - column * 13}</td>" for column in range(5)) + "</tr>" for row in range(1, 29)
) + "</table>"
RATIO_TARGET = 1.5
GROWTH_TARGET_MIB = 10


def entry(contract: str, players: list[str], block: int, index: int) -> dict:
    """A legal entry for hand index (0-6) of a block: every other player doubles the declarer twice."""
    seats = players[block:] + players[:block]
    declarer, others = seats[0], seats[1:]
    cards: dict = {
        "no_tricks": {"tricks": dict(zip(seats, [3, 4, 5, 1]))},
        "no_queens": {"queens": dict(zip(seats, [1, 0, 1, 2]))},
        "no_hearts": {"hearts": dict(zip(seats, [4, 5, 2, 2])), "ace_of_hearts": seats[1]},
        "no_last_two": {"second_last": seats[2], "last": seats[3]},
        "barbu": {"king_of_hearts": seats[1]},
        "trumps": {"tricks": dict(zip(seats, [6, 3, 1, 3])), "trump_suit": "hearts"},
        "dominoes": {"order": [seats[1], seats[0], seats[3], seats[2]]},
    }[contract]
    doubles = []
    if index < 2:
        doubles = [{"by": p, "target": declarer, "redoubled": p == others[index]} for p in others]
    elif contract not in barbu.POSITIVE:
        doubles = [{"by": others[0], "target": others[1], "redoubled": index % 2 == 0}]
    return {"contract": contract, "doubles": doubles, **cards}


def full_barbu_match() -> str:
    """Create and play a 28-hand Barbu match; return its public id."""
    match, _ = matches.create("barbu", PLAYERS, {"first_declarer": PLAYERS[0]})
    for number in range(barbu.HANDS):
        block, index = divmod(number, barbu.HANDS_PER_DECLARER)
        matches.record(match.public_id, entry(barbu.CONTRACTS[index], PLAYERS, block, index))
    return match.public_id


def kozyol_series() -> str:
    """A Kozyol series played to the goat at 16 defeat points; return its public id."""
    match, _ = matches.create("kozyol", PLAYERS, {"target": 16}, KOZYOL_DEALS, source="bench")
    return match.public_id


def hearts_game() -> str:
    """A 6-player Cancellation Hearts game to 100, hearts and Black Marias spread at random, played out."""
    rng = random.Random(7)
    match, _ = matches.create("hearts", HEARTS, {"target": 100}, source="bench")
    while not matches.replay(match).summary()["finished"]:
        hearts, marias = dict.fromkeys(HEARTS, 0), dict.fromkeys(HEARTS, 0)
        for _ in range(26):
            hearts[rng.choice(HEARTS)] += 1
        for _ in range(2):
            marias[rng.choice(HEARTS)] += 1
        if not any(hearts[p] == 26 and marias[p] == 2 for p in HEARTS):
            match, _ = matches.record(match.public_id, {"hearts": hearts, "black_marias": marias})
    return match.public_id


def rss_mib() -> float:
    """Resident memory of this process in MiB, from /proc (Linux) or resource elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource  # the peak, where /proc is missing

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(render: Callable[[], bytes]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    render()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=41, help="timed renders of each document")
    parser.add_argument("--renders", type=int, default=300, help="sheet renders for the memory figure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = folder
        app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite",
                          "RATELIMIT_ENABLED": False})
        with app.app_context():
            public_ids = {"barbu": full_barbu_match(), "kozyol": kozyol_series(), "hearts": hearts_game()}
        with app.test_request_context():
            documents = {game: sheets.filled(matches.find(public_id)) for game, public_id in public_ids.items()}
            hands = {game: len(context["hands"]) for game, (_template, context) in documents.items()}

            def render(game: str) -> Callable[[], bytes]:
                template, context = documents[game]
                return lambda: pdf.render_pdf(template, **context)

            def table() -> bytes:
                return pdf.html_to_pdf(TABLE, app.static_folder)

            sheet = render("barbu")
            for _ in range(3):  # warm: imports, fonts, caches
                table()
                for game in documents:
                    render(game)()
            for _ in range(7):  # 10 sheet renders in all
                sheet()
            gc.collect()
            after_10 = rss_mib()
            # Each sheet in turn with the table, as pairs: (sheet, table) for every game, round after round.
            times: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = {game: [] for game in documents}
            for _ in range(args.runs):
                for game in documents:
                    times[game].append((timed(render(game)), timed(table)))
            for _ in range(args.renders - 10 - args.runs):  # up to --renders in all
                sheet()
            gc.collect()
            after_all = rss_mib()
        medians = {game: [statistics.median(pair[side][i] for pair in pairs) for side in (0, 1) for i in (0, 1)]
                   for game, pairs in times.items()}  # sheet wall, sheet CPU, table wall, table CPU
        for game, label in (("kozyol", "Kozyol series"), ("hearts", "Hearts game")):
            wall, cpu, table_wall, table_cpu = medians[game]
            print(f"{label} ({hands[game]} hands), warm render: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU "
                  f"(median of {args.runs}); / table: {wall / table_wall:.2f} wall, {cpu / table_cpu:.2f} CPU")
        wall, cpu, table_wall, table_cpu = medians["barbu"]
        print(f"full Barbu sheet, warm render: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU "
              f"(median of {args.runs})")
        print(f"plain 28 x 5 table, warm render: {table_wall * 1000:.0f} ms wall, {table_cpu * 1000:.0f} ms CPU")
        print(f"ratio sheet / table: {wall / table_wall:.2f} wall, {cpu / table_cpu:.2f} CPU "
              f"(target: at most {RATIO_TARGET})")
        print(f"memory: {after_10:.1f} MiB after 10 sheet renders, {after_all:.1f} MiB after {args.renders}: "
              f"growth {after_all - after_10:.1f} MiB (target: under {GROWTH_TARGET_MIB} MiB)")
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, WeasyPrint {weasyprint.__version__}")


if __name__ == "__main__":
    main()
