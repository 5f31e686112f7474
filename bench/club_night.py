"""Figure 14: a club night of N tables on the production server, every phone of every table at once.

    .venv/bin/python bench/club_night.py                          # 50, 100 and 150 tables, a new club, SQLite
    .venv/bin/python bench/club_night.py --tables 100 --history 10000
    .venv/bin/python bench/club_night.py --pace real --tables 100 # a hand every 3 minutes a table
    .venv/bin/python bench/club_night.py --database postgres

One club, N tables: Barbu and Kozyol of four, one table in five a Hearts game of seven. The server is
`manage.py serve`'s (gunicorn.conf.py: gevent workers, two a core), with its rate limits on: every
phone comes from the one address of the club's Wi-Fi. Each phone keeps one keep-alive connection and
does what the app does:

- every phone polls its match every 2 s (If-None-Match; `static/js/live.js`), and on a change
  draws the match page again (`X-Live-Redraw`);
- each table's entering phone posts its next hand every 6 s at the compressed pace (30 times a real
  table's: `--pace real` is a hand every 180 s);
- one phone a table reloads the club page every 10 s;
- at the end every table downloads its score sheet (PDF), the tables within 10 s of each other; a
  phone told 503 (every render slot busy) taps again after Retry-After, at most five times.

Start times are spread over the first interval. With `--history N` the club first gets N finished
matches over the past year (club_seed.py), and the server is warmed by one view of the club page,
as a club's server is when its evening starts.

A phone is a player's: the entering phone and the one that reloads the club page are two of the
table's players. Reported per kind of request: count, p50/p95/p99 in ms and errors (any answer but the one expected,
or none); the server's CPU over the load (percent of one core); each worker's memory (resident and
peak, MiB) at the end; and whether every acknowledged hand is stored (read back through the API).
A run passes with p95 poll < 200 ms, p95 write < 500 ms and no error. The load generator runs on
the same machine, so it takes its share of the two cores, as it did for the figures in the issue.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import club_seed
import harness
from harness import REAL_APP, child_pids, emit_figures, say, served

POLL_EVERY, CLUB_EVERY = 2.0, 10.0
PACES = {"compressed": 6.0, "real": 180.0}
POLL_TARGET_MS, WRITE_TARGET_MS = 200.0, 500.0
HEARTS_EVERY = 5  # one table in five plays Hearts, with seven
SHEETS_WITHIN, SHEET_TRIES = 10.0, 5  # the tables finish within ten seconds; a busy answer is tried again
ACCEPT = "gzip, deflate, br, zstd"  # what a phone's Chrome sends


@dataclass
class Table:
    game: str
    match: str
    key: str
    entries: list[dict]
    acknowledged: int = 0


@dataclass
class Tally:
    """Latencies (ms) per kind of request, and the errors seen."""

    times: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    def add(self, kind: str, ms: float) -> None:
        self.times.setdefault(kind, []).append(ms)

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
        if len(self.examples) < 10:
            self.examples.append(f"{kind}: {what}")


class Phone:
    """One keep-alive HTTP/1.1 connection, as a phone's browser keeps one to the server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):  # the server may have closed an idle connection (keepalive) meanwhile
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                return await self._exchange(method, path, headers or {}, body)
            except (ConnectionError, asyncio.IncompleteReadError, OSError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(self, method, path, headers, body):
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Accept-Encoding: {ACCEPT}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        status = int(status_line.split()[1])
        answer: dict[str, str] = {}
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            answer[name.strip().lower()] = value.strip()
        data = b""
        if answer.get("transfer-encoding") == "chunked":
            while (size := int((await self.reader.readuntil(b"\r\n")).strip(), 16)) > 0:
                data += await self.reader.readexactly(size + 2)
            await self.reader.readuntil(b"\r\n")
        elif status != 304 and method != "HEAD":
            data = await self.reader.readexactly(int(answer.get("content-length", 0)))
        if answer.get("connection", "").lower() == "close":
            await self.close()
        return status, answer, data

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionError, OSError):
                pass
        self.reader = self.writer = None


async def timed(tally: Tally, kind: str, phone: Phone, expected: tuple[int, ...], method: str, path: str,
                headers: dict[str, str] | None = None, body: bytes | None = None):
    began = time.perf_counter()
    try:
        status, answer, data = await phone.request(method, path, headers, body)
    except Exception as err:  # noqa: BLE001 - any failure of a request is an error of the run
        tally.error(kind, f"{type(err).__name__} {err}")
        return None
    tally.add(kind, 1e3 * (time.perf_counter() - began))
    if status not in expected:
        tally.error(kind, f"{status} {data[:120]!r}")
        return None
    return status, answer, data


async def watcher(table: Table, port: int, tally: Tally, until: float, rng: random.Random) -> None:
    """A phone that polls its match every 2 s and draws its page again on a change."""
    phone, tag = Phone(port), ""
    await asyncio.sleep(rng.uniform(0, POLL_EVERY))
    while time.monotonic() < until:
        began = time.monotonic()
        got = await timed(tally, "poll", phone, (200, 304), "GET", f"/api/v1/matches/{table.match}",
                          {"If-None-Match": tag} if tag else None)
        if got is not None and got[0] == 200:
            tag = got[1].get("etag", "")
            await timed(tally, "redraw", phone, (200,), "GET", f"/m/{table.match}",
                        {"Accept": "text/html", "X-Live-Redraw": "1"})
        await asyncio.sleep(max(0.0, POLL_EVERY - (time.monotonic() - began)))
    await phone.close()


async def enterer(table: Table, port: int, tally: Tally, until: float, every: float, rng: random.Random) -> None:
    """The table's entering phone: its next hand every `every` seconds, until the match is over."""
    phone = Phone(port)
    await asyncio.sleep(rng.uniform(0, every))
    while time.monotonic() < until and table.acknowledged < len(table.entries):
        began = time.monotonic()
        body = json.dumps(table.entries[table.acknowledged]).encode()
        got = await timed(tally, "write", phone, (201,), "POST", f"/api/v1/matches/{table.match}/hands",
                          {"Authorization": f"Bearer {table.key}"}, body)
        if got is not None:
            table.acknowledged += 1
        await asyncio.sleep(max(0.0, every - (time.monotonic() - began)))
    await phone.close()


async def club_reader(club: str, port: int, tally: Tally, until: float, rng: random.Random) -> None:
    phone = Phone(port)
    await asyncio.sleep(rng.uniform(0, CLUB_EVERY))
    while time.monotonic() < until:
        began = time.monotonic()
        await timed(tally, "club", phone, (200,), "GET", f"/c/{club}")
        await asyncio.sleep(max(0.0, CLUB_EVERY - (time.monotonic() - began)))
    await phone.close()


async def sheets(tables: list[Table], port: int, tally: Tally, rng: random.Random) -> None:
    """Every table downloads its score sheet at the end, within SHEETS_WITHIN seconds of each other. A 503
    (every render slot busy) says when to try again (Retry-After): the phone does, as a person would tap
    again, at most SHEET_TRIES times; the time counted is the whole wait, from the first tap."""
    async def one(table: Table) -> None:
        await asyncio.sleep(rng.uniform(0, SHEETS_WITHIN))
        phone, began = Phone(port), time.perf_counter()
        for attempt in range(1, SHEET_TRIES + 1):
            try:
                status, answer, data = await phone.request("GET", f"/api/v1/matches/{table.match}/sheet.pdf")
            except Exception as err:  # noqa: BLE001 - any failure of a request is an error of the run
                tally.error("sheet", f"{type(err).__name__} {err}")
                break
            if status == 503 and attempt < SHEET_TRIES:
                tally.add("sheet busy", 1e3 * (time.perf_counter() - began))
                await asyncio.sleep(float(answer.get("retry-after", "3")))
                continue
            tally.add("sheet", 1e3 * (time.perf_counter() - began))
            if status != 200:
                tally.error("sheet", f"{status} {data[:120]!r}")
            break
        await phone.close()
    await asyncio.gather(*(one(table) for table in tables))


def make_tables(base: str, club: str, admin_key: str, roster: list[str], count: int, rng: random.Random
                ) -> list[Table]:
    """The evening's matches, started through the API by the organiser (one address, as at a club), as a
    round's tables are: the admin key is never refused for what strangers at that address spent."""
    tables, free = [], list(roster)
    rng.shuffle(free)
    for number in range(count):
        game = "hearts" if number % HEARTS_EVERY == HEARTS_EVERY - 1 else ("barbu", "kozyol")[number % 2]
        seats = 7 if game == "hearts" else 4
        if len(free) < seats:
            free = list(roster)
            rng.shuffle(free)
        names, free = free[:seats], free[seats:]
        options = {"first_declarer": names[0]} if game == "barbu" else {"target": 100} if game == "hearts" else {}
        status, made = harness.post_json(f"{base}/api/v1/clubs/{club}/matches",
                                         {"game": game, "players": names, "options": options},
                                         {"Authorization": f"Bearer {admin_key}"})
        if status != 201:
            raise RuntimeError(f"starting table {number + 1}: {status} {made}")
        entries = {"barbu": club_seed.barbu_entries, "kozyol": club_seed.kozyol_entries,
                   "hearts": club_seed.hearts_entries}[game](rng, names)
        tables.append(Table(game, made["id"], made["edit_key"], entries))
    return tables


async def night(port: int, club: str, tables: list[Table], seconds: float, every: float, tally: Tally) -> None:
    rng = random.Random(7)
    until = time.monotonic() + seconds
    phones = []
    for table in tables:
        seated = 7 if table.game == "hearts" else 4
        phones += [watcher(table, port, tally, until, rng) for _ in range(seated)]
        phones.append(enterer(table, port, tally, until, every, rng))
        phones.append(club_reader(club, port, tally, until, rng))
    await asyncio.gather(*phones)
    await sheets(tables, port, tally, rng)


def memory(pid: int) -> tuple[float, float]:
    """Resident and peak resident memory of a process, MiB."""
    found = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                found[name] = int(value.split()[0]) / 1024
    except OSError:
        return 0.0, 0.0
    return found.get("VmRSS", 0.0), found.get("VmHWM", 0.0)


def stored_hands(base: str, tables: list[Table]) -> int:
    """How many acknowledged hands are missing from the stored matches."""
    missing = 0
    for table in tables:
        status, _headers, body = harness.get(f"{base}/api/v1/matches/{table.match}")
        stored = len(json.loads(body)["hands"]) if status == 200 else 0
        missing += max(0, table.acknowledged - stored)
    return missing


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(kind: str, tables_count: int, history: int, pace: str, seconds: float, logs: Path, limits: bool) -> dict:
    rng = random.Random(tables_count * 7 + history)
    players = tables_count * 5 + 20
    with harness.instance(kind, "scorekeeper_bench_night") as settings:

        app = harness.local_app(RATELIMIT_ENABLED=False)
        club, admin_key, roster = club_seed.make_club(app, players)
        if history:
            began = time.perf_counter()
            club_seed.bulk_matches(app, club, roster, history, rng, log=lambda line: None)
            say(f"  {history} past matches stored ({time.perf_counter() - began:.0f} s)")
        with app.app_context():
            from scorekeeper.db import db

            db.session.remove()
            db.engine.dispose()
        log = logs / f"night-{kind}-{tables_count}-{history}-{pace}.log"
        limited = {} if limits else {"SCOREKEEPER_RATELIMIT_ENABLED": "false"}
        with served(REAL_APP, harness_workers(), 1, log, settings={**settings, **limited}) as server:
            base = server.base
            tables = make_tables(base, club, admin_key, sorted(roster.values()), tables_count, rng)
            harness.get(f"{base}/c/{club}")  # the club's page drawn once, as before any evening
            cpu_before, wall_before = server.cpu_seconds(), time.monotonic()
            own_before = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
            tally = Tally()
            asyncio.run(night(server.port, club, tables, seconds, PACES[pace], tally))
            cpu = server.cpu_seconds() - cpu_before
            wall = time.monotonic() - wall_before
            own = sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) - own_before
            workers = {pid: memory(pid) for pid in child_pids(server.process.pid)}
            missing = stored_hands(base, tables)
            restarts = server.log.read_text().count("Autorestarting worker")
    summary = {kind_: {"count": len(values), "p50": percentile(values, 0.5), "p95": percentile(values, 0.95),
                       "p99": percentile(values, 0.99), "errors": tally.errors.get(kind_, 0)}
               for kind_, values in sorted(tally.times.items())}
    errors = sum(tally.errors.values()) + missing
    passed = (summary.get("poll", {}).get("p95", 1e9) < POLL_TARGET_MS
              and summary.get("write", {}).get("p95", 1e9) < WRITE_TARGET_MS and errors == 0)
    phones = sum(7 if table.game == "hearts" else 4 for table in tables)  # one a player: one enters, one reloads
    result = {"database": kind, "limits": limits, "tables": tables_count, "phones": phones, "history": history,
              "pace": pace, "seconds": seconds, "kinds": summary,
              "cpu_percent": round(100 * cpu / wall, 1), "load_cpu_percent": round(100 * own / wall, 1),
              "workers_mib": sorted(workers.values()),
              "hands_acknowledged": sum(t.acknowledged for t in tables), "hands_missing": missing,
              "restarts": restarts, "errors": errors, "examples": tally.examples, "pass": passed}
    report(result)
    return result


def harness_workers() -> int:
    values: dict[str, object] = {}
    exec(compile((harness.ROOT / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), values)
    return int(values["workers"])


def report(result: dict) -> None:
    say(f"  {result['database']}, {result['tables']} tables ({result['phones']} phones), "
        f"{result['history']:,} past matches, {result['pace']} pace, {result['seconds']:.0f} s, "
        f"rate limits {'on' if result['limits'] else 'off'}: "
        f"{'pass' if result['pass'] else 'FAIL'}; server CPU {result['cpu_percent']} % of a core, "
        f"the load's own {result['load_cpu_percent']} %; "
        f"{result['hands_acknowledged']} hands acknowledged, {result['hands_missing']} missing; "
        f"{result['restarts']} worker restarts")
    for kind, row in result["kinds"].items():
        say(f"    {kind:>7}: {row['count']:6d} requests, p50 {row['p50']:7.1f} ms, p95 {row['p95']:7.1f} ms, "
            f"p99 {row['p99']:7.1f} ms, {row['errors']} errors")
    say("    workers (resident, peak MiB): " + ", ".join(f"{rss:.0f}/{peak:.0f}" for rss, peak in
                                                       result["workers_mib"]))
    for example in result["examples"]:
        say(f"    error: {example}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="50,100,150", help="comma-separated table counts (default 50,100,150)")
    parser.add_argument("--history", type=int, default=0, help="past matches of the club (default 0: a new club)")
    parser.add_argument("--pace", choices=sorted(PACES), default="compressed")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the evening's load (default 60)")
    parser.add_argument("--limits", choices=("on", "off"), default="on",
                        help="the server's rate limits (off: as measured on trees that counted every phone of a "
                             "club against its one address)")
    harness.database_options(parser)
    args = parser.parse_args(argv)
    kind = harness.database_kind(args)
    if kind == "postgres" and not harness.postgres_available():
        say("no PostgreSQL answers: nothing to measure")
        return 0
    logs = Path(tempfile.mkdtemp(prefix="scorekeeper-night-"))  # the servers' logs, kept for a look afterwards
    figures, results = [], []
    for count in (int(n) for n in args.tables.split(",")):
        say(f"club night: {count} tables on {kind}, {args.history:,} past matches, {args.pace} pace")
        result = run(kind, count, args.history, args.pace, args.seconds, logs, args.limits == "on")
        results.append(result)
        kinds = result["kinds"]
        figures.append({"figure": f"14 {kind} {count}t {args.history}h {args.pace}",
                        "name": f"club night of {count} tables, {args.history:,} past matches, {args.pace} pace",
                        "value": round(kinds.get("poll", {}).get("p95", 0.0), 1), "target": "poll p95 < 200 ms",
                        "pass": result["pass"],
                        "detail": "; ".join(f"{k} p95 {v['p95']:.0f} ms" for k, v in kinds.items())
                        + f"; CPU {result['cpu_percent']} %; errors {result['errors']}"})
    passing = [r["tables"] for r in results if r["pass"]]
    largest = f"{max(passing)} tables" if passing else "none of those measured"
    say(f"largest evening that passed: {largest}; server logs in {logs}")
    emit_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
