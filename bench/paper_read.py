"""Benchmark reading a phone's photo of a readable sheet: a 12 MP photo, taken in and read, in under 3 s.

    .venv/bin/python bench/paper_read.py [--runs 10] [--size 4000x3000]

Draws each game's sheet with marks on it, photographs it (perspective, turn, uneven light, a shadow, noise,
JPEG 80) at the size given, then times, per photo, the intake (bounds, EXIF turn, metadata stripped,
re-encoded) and the reading (markers, straightened page, code, every bubble) one after the other in one
process. Prints the median and the slowest of each, wall-clock and CPU, and the process's peak memory.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from helpers.paper import drawn_page, photographed  # noqa: E402
from scorekeeper.paper import layout  # noqa: E402
from scorekeeper.paper.layout import Identity, Page  # noqa: E402
from scorekeeper.paper.photos import intake  # noqa: E402
from scorekeeper.paper.reader import read  # noqa: E402

TARGET_S = 3.0
GAMES = {"barbu": layout.page_for("barbu", 4), "kozyol": layout.page_for("kozyol", 4),
         "hearts": layout.page_for("hearts", 6, 26)}
STYLES = ("solid", "cross", "tick")


def photo(game: str, size: tuple[int, int], seed: int) -> bytes:
    page = GAMES[game]
    marks = {(group.row, group.key, group.bubbles[(seed + k) % len(group.bubbles)].value): STYLES[k % 3]
             for k, group in enumerate(page.groups) if k % 2 == seed % 2}
    picture = drawn_page(page, layout.qr_payload("Zq3x_Yb8Ru0aLk2Pd7WcNg", 1), marks)
    return photographed(picture, size=size, tilt=12.0, turn=-8.0 + 4 * (seed % 5), light=0.4, shadow=0.3,
                        noise=5.0, quality=80, seed=seed)


def always(page: Page) -> Callable[[Identity], Page]:
    return lambda identity: page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--size", default="4000x3000")
    args = parser.parse_args()
    size = tuple(int(side) for side in args.size.split("x"))
    assert len(size) == 2
    timings: dict[str, list[tuple[float, float]]] = {"intake": [], "read": [], "both": []}
    for run in range(args.runs):
        game = list(GAMES)[run % len(GAMES)]
        data = photo(game, (size[0], size[1]), run)
        wall, cpu = time.perf_counter(), time.process_time()
        kept = intake(data)
        middle_wall, middle_cpu = time.perf_counter(), time.process_time()
        reading = read(kept, always(GAMES[game]))
        end_wall, end_cpu = time.perf_counter(), time.process_time()
        assert reading.page is GAMES[game]
        timings["intake"].append((middle_wall - wall, middle_cpu - cpu))
        timings["read"].append((end_wall - middle_wall, end_cpu - middle_cpu))
        timings["both"].append((end_wall - wall, end_cpu - cpu))
    print(f"{args.runs} photos of {size[0]}x{size[1]} ({size[0] * size[1] / 1e6:.0f} MP), {len(data) // 1024} KiB each")
    for name, values in timings.items():
        walls, cpus = [w for w, _ in values], [c for _, c in values]
        print(f"{name:7s} wall median {statistics.median(walls):.2f} s, slowest {max(walls):.2f} s;"
              f" cpu median {statistics.median(cpus):.2f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    slowest = max(w for w, _ in timings["both"])
    print(f"peak memory {peak:.0f} MiB; slowest photo {slowest:.2f} s (target < {TARGET_S:.0f} s):"
          f" {'met' if slowest < TARGET_S else 'MISSED'}")


if __name__ == "__main__":
    main()
