"""Benchmark the reading of photographed readable sheets: thousands of synthetic photos, every row judged.

    .venv/bin/python bench/paper_photos.py                  # 300 photos per game, 12 MP (about 40 minutes)
    .venv/bin/python bench/paper_photos.py --photos 2000    # thousands: the figures of the note
    .venv/bin/python bench/paper_photos.py --photos 20 --frame 1600x1200 --games kozyol   # a smoke run

In one process, on a throwaway instance: random legal games of each kind are created through the API, their
readable sheets fetched and rastered at 150-300 dpi, each photo a page filled as a table fills it (pen fills,
crosses, ticks, pencil, stray strokes, a dot on another bubble, a corrected mark, figures in the boxes) and
photographed (tilted up to 15 degrees, turned any way, uneven light, a shadow, blur, noise, JPEG 50-90, one corner
out of the frame in 8% of them); see tests/helpers/paper_set.py. Each photo is read as the app reads it
(photos.intake, reader.read, marks.group_marks, fitting.fit_page) and each row holding a hand is judged:

- exact: certain, and the marks it stands for are the truth's;
- sent to review: doubtful; "asked" where the generator put a doubt on purpose (a corrected mark, a dot), else
  "unasked" (a row the reader should have read);
- silently wrong: certain and not the truth. Target: none in at least 5,000 rows;
- lost: a hand read as an empty row (the sheet ends there for the app: never saved, never wrong).

Per game it prints photos aligned (read, where all four corners were in view), rows exact (target >= 99%),
rows sent to review, rows silently wrong, photos with a corner out refused with "Move so all four corners of the
sheet are in view.", and the read time of a photo (wall and CPU; median, p95) against a baseline measured in the
same run on the same photos: OpenCV decoding the JPEG (cv2.imdecode), as a ratio. Target: a 12 MP photo reads in
under 3 s on the two-core machine. --failures prints that many rows that were not exact, with what was drawn.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import harness  # noqa: E402
from helpers import paper_set as synthetic  # noqa: E402
from helpers.paper_photos import Camera  # noqa: E402
from scorekeeper.paper import reader  # noqa: E402

GAMES = ("barbu", "kozyol", "hearts")
MATCHES = {"barbu": 3, "kozyol": 8, "hearts": 6}  # games printed per kind: a dozen pages or more each
EXACT_TARGET = 0.99
SECONDS_TARGET = 3.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def decode_seconds(jpeg: bytes) -> float:
    """The baseline: OpenCV decoding the photo, nothing else."""
    start = time.perf_counter()
    cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    return time.perf_counter() - start


def run_game(client, game: str, args: argparse.Namespace, rng: np.random.Generator) -> dict:
    pages = synthetic.game_pages(synthetic.ThroughTheApi(client), game, rng, MATCHES[game], dpis=2, progress=harness.say)
    rows: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    failures: list[str] = []
    in_view = aligned = out = out_refused = 0
    wall: list[float] = []
    cpu: list[float] = []
    base: list[float] = []
    made = 0.0
    levels: dict[str, list[float]] = {}
    styles: Counter[str] = Counter()  # rows by the style they were marked in: all, and not exact
    reasons: Counter[str] = Counter()
    for index in range(args.photos):
        start = time.perf_counter()
        photo = synthetic.photo_of(pages[int(rng.integers(len(pages)))], rng, Camera(args.frame))
        made += time.perf_counter() - start
        base.append(decode_seconds(photo.shot.jpeg))
        clock = time.process_time()
        read = synthetic.read_photo(photo)
        cpu.append(time.process_time() - clock)
        wall.append(read.seconds)
        if photo.shot.corner_out is not None:
            out += 1
            out_refused += read.refused == reader.NO_CORNERS
            if read.refused != reader.NO_CORNERS:
                failures.append(f"corner {photo.shot.corner_out} out, not refused ({read.refused or 'read'}): "
                                f"{photo.shot.settings}")
            continue
        in_view += 1
        if read.refused is not None:
            refusals[read.refused] += 1
            failures.append(f"refused with all corners in view: {read.refused!r}; dpi {photo.dpi}, "
                            f"photo {photo.shot.settings}")
            if args.keep:
                (args.keep / f"{game}-{index}-refused.jpg").write_bytes(photo.shot.jpeg)
            continue
        aligned += 1
        for shape, found in synthetic.fill_levels(photo, read).items():
            levels.setdefault(shape, []).extend(found)
        judged = synthetic.judge(photo, read, f"{game} photo {index} ")
        for row, kind in judged.kinds.items():
            if row < photo.rows:
                styles[photo.filled.styles[row]] += 1
                styles[f"{photo.filled.styles[row]} not exact"] += kind != synthetic.EXACT
        rows.update(judged.counts)
        reasons.update(judged.reasons)
        failures += judged.failures
        if args.keep and judged.failures:
            (args.keep / f"{game}-{index}.jpg").write_bytes(photo.shot.jpeg)
        if (index + 1) % 50 == 0:
            harness.say(f"{game}: {index + 1} photos, rows {dict(rows)}")
    exact, asked, unasked = rows[synthetic.EXACT], rows[synthetic.DOUBTED], rows[synthetic.UNEXPECTED]
    total = exact + asked + unasked + rows[synthetic.WRONG] + rows[synthetic.LOST]
    return {"game": game, "frame": "x".join(map(str, args.frame)), "photos": args.photos, "in_view": in_view,
            "aligned": aligned, "refused": dict(refusals), "rows": total, "exact": exact, "review_asked": asked,
            "review_unasked": unasked, "wrong": rows[synthetic.WRONG], "lost": rows[synthetic.LOST],
            "phantom": rows[synthetic.PHANTOM], "exact_share": exact / total if total else 0.0,
            "exact_share_unasked": exact / (total - asked) if total > asked else 0.0,
            "corner_out": out, "corner_out_refused": out_refused,
            "read_median": statistics.median(wall), "read_p95": percentile(wall, 0.95),
            "cpu_median": statistics.median(cpu), "cpu_p95": percentile(cpu, 0.95),
            "decode_median": statistics.median(base), "made_per_photo": made / args.photos,
            "levels": {shape: [round(percentile(found, q), 3) for q in (0.0, 0.01, 0.05, 0.5, 0.95, 0.99, 0.999)]
                       + [len(found)] for shape, found in sorted(levels.items())},
            "styles": dict(styles),
            "reasons": dict(reasons.most_common()),
            "failures": failures}


def report(figure: dict, shown: int) -> None:
    say = harness.say
    say(f"\n{figure['game']}: {figure['photos']} photos of {figure['frame']} px")
    say(f"  aligned: {figure['aligned']} of {figure['in_view']} with all four corners in view"
        + (f"; refused: {figure['refused']}" if figure["refused"] else ""))
    say(f"  rows: {figure['rows']}; exact {figure['exact']} ({100 * figure['exact_share']:.2f}%, target >= "
        f"{100 * EXACT_TARGET:.0f}%; {100 * figure['exact_share_unasked']:.2f}% of the rows with no doubt put on "
        f"purpose); sent to review {figure['review_asked'] + figure['review_unasked']} ({figure['review_asked']} "
        f"where a doubt was put on purpose, {figure['review_unasked']} not); silently wrong {figure['wrong']} "
        f"(target 0); lost {figure['lost']}; empty rows read as hands {figure['phantom']}")
    say(f"  corner out of the frame: {figure['corner_out_refused']} of {figure['corner_out']} refused with "
        f"\"{reader.NO_CORNERS}\"")
    say(f"  read time per photo: median {figure['read_median']:.2f} s, p95 {figure['read_p95']:.2f} s wall "
        f"(target < {SECONDS_TARGET:.0f} s); CPU median {figure['cpu_median']:.2f} s, p95 {figure['cpu_p95']:.2f} s; "
        f"/ cv2.imdecode of the same photos ({1000 * figure['decode_median']:.0f} ms): "
        f"{harness.ratio(figure['read_median'], figure['decode_median']):.1f}x median")
    say(f"  (making a photo took {figure['made_per_photo']:.2f} s)")
    say("  rows not exact by the style of their marks: " + ", ".join(
        f"{style} {figure['styles'].get(style + ' not exact', 0)} of {count}"
        for style, count in figure["styles"].items() if not style.endswith("not exact")))
    say("  the reasons given for the rows not exact (each row once per reason):")
    for reason, count in figure["reasons"].items():
        say(f"    {count:5d}  {reason}")
    say("  the reader's fill of each kind of mark: min, p1, p5, median, p95, p99, p99.9 (bubbles)")
    for shape, found in figure["levels"].items():
        say(f"    {shape:>14}: " + " ".join(f"{value:6.3f}" for value in found[:-1]) + f"  ({found[-1]})")
    for line in figure["failures"][:shown]:
        say(f"    {line}")
    if len(figure["failures"]) > shown:
        say(f"    ... and {len(figure['failures']) - shown} more")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=300, help="photos per game")
    parser.add_argument("--frame", default="4000x3000", help="the photos' size in px (12 MP: 4000x3000)")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--failures", type=int, default=15, help="rows not read exactly to print per game")
    parser.add_argument("--keep", type=Path, help="a folder to keep the photos of rows not read exactly in")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    width, height = (int(side) for side in args.frame.split("x"))
    args.frame = (width, height)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    figures = []
    with harness.instance():
        app = harness.local_app(RATELIMIT_ENABLED=False)
        client = app.test_client()
        for game in args.games.split(","):
            figure = run_game(client, game, args, rng)
            report(figure, args.failures)
            figures.append(figure)
    rows = sum(f["rows"] for f in figures)
    exact = sum(f["exact"] for f in figures)
    wrong = sum(f["wrong"] for f in figures)
    harness.say(f"\nall games: {rows} rows, {exact} exact ({100 * exact / max(1, rows):.2f}%), {wrong} silently "
                f"wrong; corners out refused {sum(f['corner_out_refused'] for f in figures)} of "
                f"{sum(f['corner_out'] for f in figures)}")
    harness.emit_figures([{k: v for k, v in f.items() if k != "failures"} for f in figures], args.json)


if __name__ == "__main__":
    main()
