"""Figures 7 and 8: pages and polls while PDFs are downloaded, and the longest matches' page and PDF.

    .venv/bin/python bench/pdf_load.py [--seconds 10] [--downloaders 4]

Starts gunicorn with the project's gunicorn.conf.py (its workers and worker class) on a throwaway
database, with the rate limits off (they would stop the downloaders first). Phones load a
finished 28-hand Barbu match's page and poll its state (answered 304), each on a new connection
with a short pause, as slow_clients.py does, for --seconds: first alone, then while --downloaders
clients download PDF sheets in a loop, each of a new version (a client undoes its match's last
hand or records it again before each download, so that every download is a render, never a kept
sheet): first the sheet of a 28-hand Barbu match, then that of the longest Hearts game the rules
allow (400 hands, 11 players). Prints the 95th percentile of the page and poll times of each run
and their ratio to the run alone, and what the downloaders got (sheets, 503s with Retry-After).

Then, on a server of one worker, the longest legal matches (Hearts 400 hands of 11 players,
Kozyol 200 deals): the time of a first page view, of the PDF (a render), of the PDF again (kept),
and the worker's resident memory before, after and at its peak.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

import harness
import seed
from harness import REAL_APP, emit_figures, say, served
from serving import production_config

TIMEOUT = 10.0
# While sheets render, a core is theirs (one render slot per two cores), so the phones share what is
# left: their p95 may grow, up to three times, but stays well under what a person notices.
RATIO_TARGET = 3.0
PROMPT_MS = 100
HEARTS_PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]
SETTINGS = {"SCOREKEEPER_RATELIMIT_ENABLED": "false"}


def call(port: int, method: str, path: str, body: object = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes, float]:
    """harness.call with this benchmark's patience."""
    return harness.call(port, method, path, body, headers, timeout=TIMEOUT)


class Phone(threading.Thread):
    """Asks for one path over and over, with a short pause, keeping the times (ms) of good answers."""

    def __init__(self, port: int, path: str, headers: dict[str, str], expect: int):
        super().__init__(daemon=True)
        self.port, self.path, self.headers, self.expect = port, path, headers, expect
        self.times: list[float] = []
        self.failed = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            status, _, _, seconds = call(self.port, "GET", self.path, headers=self.headers)
            if status == self.expect:
                self.times.append(seconds * 1000)
            else:
                self.failed += 1
            time.sleep(0.02)


class Downloader(threading.Thread):
    """A table that changes its match and downloads the new sheet, again and again."""

    def __init__(self, port: int, public_id: str, key: str, last: dict):
        super().__init__(daemon=True)
        self.port, self.public_id, self.key, self.last = port, public_id, key, last
        self.sheets: list[float] = []
        self.busy = self.other = 0
        self.stop = threading.Event()

    def run(self) -> None:
        auth = {"Authorization": f"Bearer {self.key}"}
        state = json.loads(call(self.port, "GET", f"/api/v1/matches/{self.public_id}")[2])
        number = len(state["hands"])
        present = True
        while not self.stop.is_set():
            if present:
                call(self.port, "DELETE", f"/api/v1/matches/{self.public_id}/hands/{number}", headers=auth)
            else:
                call(self.port, "POST", f"/api/v1/matches/{self.public_id}/hands", self.last, headers=auth)
            present = not present
            status, headers, data, seconds = call(self.port, "GET", f"/api/v1/matches/{self.public_id}/sheet.pdf")
            if status == 200 and data.startswith(b"%PDF-"):
                self.sheets.append(seconds)
            elif status == 503 and headers.get("Retry-After"):
                self.busy += 1
            else:
                self.other += 1


def p95(times: list[float], failed: int) -> float:
    every = times + [TIMEOUT * 1000] * failed
    return statistics.quantiles(every, n=20)[-1] if len(every) >= 2 else float("inf")


def phones_run(port: int, match: str, etag: str, seconds: float,
               downloaders: list[Downloader] | None = None) -> dict:
    """Pages and polls for seconds (two phones each), with the downloaders running meanwhile if given."""
    phones = [Phone(port, f"/m/{match}", {}, 200) for _ in range(2)]
    polls = [Phone(port, f"/api/v1/matches/{match}", {"If-None-Match": etag}, 304) for _ in range(2)]
    for client in downloaders or []:
        client.start()
    if downloaders:
        time.sleep(1.0)  # renders under way
    for phone in phones + polls:
        phone.start()
    time.sleep(seconds)
    for client in phones + polls + (downloaders or []):
        client.stop.set()
    for client in phones + polls + (downloaders or []):
        client.join(TIMEOUT * 3)
    row = {
        "page_p95": p95([t for p in phones for t in p.times], sum(p.failed for p in phones)),
        "page_n": sum(len(p.times) for p in phones), "page_failed": sum(p.failed for p in phones),
        "poll_p95": p95([t for p in polls for t in p.times], sum(p.failed for p in polls)),
        "poll_n": sum(len(p.times) for p in polls), "poll_failed": sum(p.failed for p in polls),
    }
    if downloaders:
        sheets = [s for d in downloaders for s in d.sheets]
        row.update(sheets=len(sheets), busy=sum(d.busy for d in downloaders), other=sum(d.other for d in downloaders),
                   sheet_median=statistics.median(sheets) if sheets else 0.0)
    return row


def longest_hearts(count: int = 400) -> list[dict]:
    """The longest Hearts game the rules allow: 400 hands of 11 players, nobody reaching 1000."""
    return [{"hearts": {p: 5 if seat == number % len(HEARTS_PLAYERS) else 1 for seat, p in enumerate(HEARTS_PLAYERS)},
             "black_marias": dict.fromkeys(HEARTS_PLAYERS, 0)} for number in range(count)]


def longest_kozyol(count: int = 200) -> list[dict]:
    """The longest Kozyol series the rules allow: 199 eggs, then one deal lost."""
    return [{"points": [60, 60]}] * (count - 1) + [{"points": [75, 45]}]


def restore(port: int, game: str, players: list[str], options: dict, hands: list[dict]) -> tuple[str, str]:
    document = {"format": "scorekeeper-match", "format_version": 1, "game": game, "players": players,
                "options": options, "hands": hands}
    status, _, body, _ = call(port, "POST", "/api/v1/matches/import", document)
    assert status == 201, body[:300]
    made = json.loads(body)
    return made["id"], made["edit_key"]


def memory(pid: int) -> tuple[float, float]:
    """Resident memory of a process now and at its peak, in MiB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def longest_matches(logs: Path) -> list[dict]:
    """Page and PDF of the longest legal matches on one worker: times and the worker's memory."""
    rows = []
    with served(REAL_APP, 1, 1, logs / "longest.log", "/", settings=SETTINGS) as server:
        worker = harness.child_pids(server.process.pid)[0]
        for game, players, options, hands in (
                ("hearts", HEARTS_PLAYERS, {"target": 1000}, longest_hearts()),
                ("kozyol", seed.PLAYERS, {}, longest_kozyol())):
            public_id, _ = restore(server.port, game, players, options, hands)
            before, _ = memory(worker)
            page = call(server.port, "GET", f"/m/{public_id}")
            first = call(server.port, "GET", f"/api/v1/matches/{public_id}/sheet.pdf")
            again = call(server.port, "GET", f"/api/v1/matches/{public_id}/sheet.pdf")
            after, peak = memory(worker)
            assert page[0] == 200 and first[0] == 200 and again[0] == 200, (page[0], first[0], again[0])
            rows.append({"game": game, "hands": len(hands), "players": len(players), "page_s": page[3],
                         "pdf_s": first[3], "pdf_again_s": again[3], "pdf_kib": len(first[2]) / 1024,
                         "rss_before": before, "rss_after": after, "rss_peak": peak})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10, help="phones' time per run, in seconds (default 10)")
    parser.add_argument("--downloaders", type=int, default=4, help="clients downloading PDFs (default 4)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    workers, threads = production_config()
    say(f"PDF load: {workers} workers, {args.downloaders} downloaders, {args.seconds:g} s per run")
    runs = {}
    with harness.instance("sqlite") as settings:
        flask_app = seed.app()
        watched, _ = seed.create(flask_app, "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, seed.barbu_entries())
        barbu_entries = seed.barbu_entries()
        logs = Path(settings["SCOREKEEPER_INSTANCE_PATH"]) / "logs"
        with served(REAL_APP, workers, threads, logs / "load.log", f"/m/{watched}", settings=SETTINGS) as server:
            port = server.port
            etag = call(port, "GET", f"/api/v1/matches/{watched}")[1]["ETag"]
            tables = {
                "barbu": [(*seed.create(flask_app, "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, barbu_entries),
                           barbu_entries[-1]) for _ in range(args.downloaders)],
                "hearts": [(*restore(port, "hearts", HEARTS_PLAYERS, {"target": 1000}, longest_hearts()),
                            longest_hearts()[-1]) for _ in range(args.downloaders)],
            }
            phones_run(port, watched, etag, 1.0)  # warm every worker
            runs["alone"] = phones_run(port, watched, etag, args.seconds)
            for kind, matches_of in tables.items():
                runs[kind] = phones_run(port, watched, etag, args.seconds,
                                        [Downloader(port, public_id, key, last) for public_id, key, last in matches_of])
        longest = longest_matches(logs)
    alone = runs["alone"]
    say(f"  alone: page p95 {alone['page_p95']:.1f} ms ({alone['page_n']} loads), "
        f"poll p95 {alone['poll_p95']:.1f} ms ({alone['poll_n']} polls)")
    figures = []
    for kind, label in (("barbu", "a 28-hand Barbu match"), ("hearts", "the longest Hearts game (400 hands, 11 players)")):
        row = runs[kind]
        say(f"  {args.downloaders} downloading {label}: page p95 {row['page_p95']:.1f} ms "
            f"({row['page_n']} loads, {row['page_failed']} failed), poll p95 {row['poll_p95']:.1f} ms "
            f"({row['poll_n']} polls, {row['poll_failed']} failed); downloads: {row['sheets']} sheets "
            f"(median {row['sheet_median']:.2f} s), {row['busy']} answered 503 with Retry-After, {row['other']} other")
        for what, figure in (("page", "7"), ("poll", "8")):
            ratio = row[f"{what}_p95"] / alone[f"{what}_p95"]
            figures.append({
                "figure": f"{figure}{'a' if kind == 'barbu' else 'b'}",
                "name": f"{'match page' if what == 'page' else 'poll answered 304'} p95 while {args.downloaders} "
                        f"clients download fresh sheets of {label} / without",
                "value": round(ratio, 2), "target": f"<= {RATIO_TARGET:g}, under {PROMPT_MS} ms, none failed",
                "pass": ratio <= RATIO_TARGET and row[f"{what}_p95"] < PROMPT_MS and not row[f"{what}_failed"],
                "detail": f"{row[f'{what}_p95']:.1f} vs {alone[f'{what}_p95']:.1f} ms; downloads: {row['sheets']} "
                          f"sheets, {row['busy']} 503; {workers} workers",
            })
    for row in longest:
        say(f"  longest {row['game']} ({row['hands']} hands, {row['players']} players): page {row['page_s']:.2f} s, "
            f"PDF {row['pdf_s']:.2f} s ({row['pdf_kib']:.0f} KiB), again {row['pdf_again_s'] * 1000:.0f} ms; "
            f"worker RSS {row['rss_before']:.0f} -> {row['rss_after']:.0f} MiB (peak {row['rss_peak']:.0f})")
        figures.append({
            "figure": f"9 {row['game']}", "name": f"longest legal {row['game']} match ({row['hands']} hands): "
                                                  "PDF render time (s) on one worker",
            "value": round(row["pdf_s"], 2), "target": "(bounded)", "pass": None,
            "detail": f"page {row['page_s']:.2f} s; PDF again {row['pdf_again_s'] * 1000:.0f} ms; worker RSS "
                      f"{row['rss_before']:.0f} -> {row['rss_after']:.0f} MiB, peak {row['rss_peak']:.0f}",
        })
    emit_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
