"""Figure 3: hands recorded per second through the API, on SQLite and on PostgreSQL.

    .venv/bin/python bench/writes.py [--seconds 10] [--connections 8] [--database sqlite,postgres]

Starts gunicorn (the project's gunicorn.conf.py) on a throwaway database holding Barbu matches
made by the app, then keep-alive connections post hands concurrently: each match takes its 28
hands in order (conditional writes with "number"), one request in flight per match, so the
load is what tables do, never two phones racing. Only answers 201 count. A hello-world served
by the same gunicorn settings in the same run gives the ratio.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import sys
import threading
import time
from pathlib import Path

import harness
import seed
from harness import HELLO_APP, REAL_APP, emit_figures, load, say, served

TARGET = 300  # hands per second on SQLite, 2 cores
HANDS = 28


def lua_script(path: Path, made: list[tuple[str, str]], bodies: list[str]) -> None:
    """A wrk script: each request takes the next hand of a match waiting for one; answers put it back."""
    rows = ",\n".join(f'{{"{pid}", "{key}"}}' for pid, key in made)
    hands = ",\n".join(f"[==[{body}]==]" for body in bodies)
    path.write_text(f"""
local matches = {{
{rows}
}}
local bodies = {{
{hands}
}}
local index = {{}}
for i, m in ipairs(matches) do index[m[1]] = i end
local next_hand, ready, unused = {{}}, {{}}, 1
counted, lost = 0, 0  -- globals: done() reads them from each thread

function request()
  local i = table.remove(ready, 1)
  if i == nil then
    i = unused
    unused = unused + 1
    if i > #matches then i = #matches end
    next_hand[i] = next_hand[i] or 1
  end
  local m = matches[i]
  local n = next_hand[i]
  return wrk.format("POST", "/api/v1/matches/" .. m[1] .. "/hands",
    {{["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. m[2]}}, bodies[n])
end

function response(status, headers, body)
  if status ~= 201 then lost = lost + 1 return end
  counted = counted + 1
  local i = index[string.match(body, '"id":"([^"]+)"')]
  if i == nil then return end
  next_hand[i] = next_hand[i] + 1
  if next_hand[i] <= #bodies then table.insert(ready, i) end
end

local threads = {{}}
function setup(thread) table.insert(threads, thread) end
function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do total = total + t:get("counted") end
  io.write("counted " .. total .. "\\n")
end
""")


def python_writes(base: str, made: list[tuple[str, str]], bodies: list[str], seconds: float,
                  connections: int) -> harness.Load:
    """The same load without wrk: one thread per connection, each playing its own matches in turn."""
    host, port = base.removeprefix("http://").split(":")
    stop = time.monotonic() + seconds
    shares = [made[n::connections] for n in range(connections)]
    counts = [0] * connections

    def play(n: int) -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        for pid, key in shares[n]:
            for body in bodies:
                if time.monotonic() >= stop:
                    return
                conn.request("POST", f"/api/v1/matches/{pid}/hands", body=body,
                             headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
                answer = conn.getresponse()
                answer.read()
                counts[n] += answer.status == 201

    began = time.monotonic()
    threads = [threading.Thread(target=play, args=(n,)) for n in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return harness.Load(sum(counts), time.monotonic() - began, 0, 0.0, "python", sum(counts))


def measure(kind: str, configs: list[tuple[int, int]], seconds: float, connections: int, rounds: int,
            expected: float) -> list[dict]:
    """Each workers x threads combination on a database of its own, loaded in turn, round after round."""
    with contextlib.ExitStack() as stack:
        sides = []
        for n, (workers, threads) in enumerate(configs):
            settings = stack.enter_context(harness.instance(kind, f"scorekeeper_bench_writes_{n}"))
            folder = Path(settings["SCOREKEEPER_INSTANCE_PATH"])
            app = seed.app()
            count = math.ceil(seconds * expected / HANDS) + 2 * connections
            say(f"  {kind} {workers}x{threads}: making {rounds + 1} x {count} Barbu matches through the app")
            batches = [[seed.create(app, "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, []) for _ in range(count)]
                       for _ in range(rounds + 1)]
            hello = stack.enter_context(served(HELLO_APP, workers, threads, folder / "hello.log", settings=settings))
            server = stack.enter_context(served(REAL_APP, workers, threads, folder / "app.log",
                                                f"/m/{batches[0][0][0]}", settings))
            sides.append({"workers": workers, "threads": threads, "app": app, "batches": batches, "hello": hello,
                          "server": server, "folder": folder, "hellos": [], "writes": []})
        bodies = [json.dumps({**entry, "number": n}, separators=(",", ":"))
                  for n, entry in enumerate(seed.barbu_entries(), 1)]
        for side in sides:  # warm up: every worker has compiled its statements and templates
            load(side["hello"].base + "/", min(2.0, seconds / 2), connections)
            write_load(side, side["batches"][0], bodies, min(3.0, seconds / 2), connections, "warm")
        for r in range(rounds):
            for side in sides:
                side["hellos"].append(load(side["hello"].base + "/", seconds, connections, server=side["hello"]))
                side["writes"].append(write_load(side, side["batches"][r + 1], bodies, seconds, connections, r))
        for side in sides:  # a graceful stop lets the writes still in flight finish before the count
            side["server"].stop()
            side["hello"].stop()
        rows = []
        for side in sides:
            counted = sum(w.counted or 0 for w in side["writes"]) + (side["warm"].counted or 0)
            check_stored(side["app"], counted, connections * (rounds + 1))
            best = max(side["writes"], key=lambda w: (w.counted or 0) / w.seconds)
            hands = (best.counted or 0) / best.seconds
            hello = max(h.rps for h in side["hellos"])
            per_cpu = sum(w.counted or 0 for w in side["writes"]) / max(sum(w.server_cpu for w in side["writes"]), 1e-9)
            refused = sum(w.errors for w in side["writes"])
            say(f"  {kind} {side['workers']}x{side['threads']}: {hands:.0f} hands/s recorded (best of {rounds} "
                f"rounds of {seconds:g} s, {refused} refused), hello-world {hello:.0f} req/s, ratio "
                f"{hands / hello:.3f}; {per_cpu:.0f} hands per server CPU-second")
            rows.append({"database": kind, "workers": side["workers"], "threads": side["threads"],
                         "hands_per_s": hands, "hello": hello, "ratio": hands / hello, "refused": refused,
                         "per_cpu_second": per_cpu, "latency_ms": best.latency_ms, "tool": best.tool})
            with side["app"].app_context():
                from scorekeeper.db import db

                db.session.remove()
                db.engine.dispose()
        return rows


def write_load(side: dict, made: list[tuple[str, str]], bodies: list[str], seconds: float, connections: int,
               label) -> harness.Load:
    """Post the hands of these matches for a bounded time; the load counts the answers 201."""
    server = side["server"]
    began = server.cpu_seconds()
    if harness.WRK:
        script = side["folder"] / f"writes-{label}.lua"
        lua_script(script, made, bodies)
        result = load(f"{server.base}/", seconds, connections, script=script)
    else:
        result = python_writes(server.base, made, bodies, seconds, connections)
    result.server_cpu = server.cpu_seconds() - began
    if label == "warm":
        side["warm"] = result
    return result


def check_stored(app, counted: int, in_flight: int) -> None:
    """Every hand answered 201 is in the database, numbered without gaps."""
    from sqlalchemy import func, select, text

    from scorekeeper.db import db
    from scorekeeper.models import Hand, Match

    with app.app_context():
        stored = db.session.scalar(select(func.count()).select_from(Hand))
        versions = db.session.scalar(select(func.sum(Match.version - 1)))
        odd = db.session.execute(text(
            "SELECT m.public_id, m.version, (SELECT COUNT(*) FROM hands h WHERE h.match_id = m.id), "
            "(SELECT COUNT(*) FROM hand_changes c WHERE c.match_id = m.id) FROM matches m "
            "WHERE m.version - 1 <> (SELECT COUNT(*) FROM hands h WHERE h.match_id = m.id)")).all()
        db.session.remove()
        db.engine.dispose()
    # Writes still in flight when a load stopped are stored but not counted: at most one per connection.
    if not counted <= stored <= counted + in_flight or versions != stored:
        raise RuntimeError(f"{counted} hands answered 201 but {stored} stored ({versions} version raises); "
                           f"matches whose version is not 1 + their hands (id, version, hands, history): {odd}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10, help="load time per database (default 10)")
    parser.add_argument("--connections", type=int, default=8, help="keep-alive connections posting (default 8)")
    parser.add_argument("--database", default="sqlite,postgres", help="sqlite, postgres or both (default)")
    parser.add_argument("--configs", default="", help="workers x threads to compare, e.g. 4x1,4x2 "
                        "(default: gunicorn.conf.py's)")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (default 2)")
    parser.add_argument("--expect", type=float, default=1500, help="hands/s to make matches for (default 1500)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    from serving import parse_configs, production_config

    production = production_config()
    configs = parse_configs(args.configs) or [production]
    kinds = [k for k in args.database.split(",") if k]
    if "postgres" in kinds and not harness.postgres_available():
        say(f"PostgreSQL does not answer at {harness.POSTGRES_SERVER}: skipping it")
        kinds.remove("postgres")
    say(f"writes: {', '.join(f'{w}x{t}' for w, t in configs)} (workers x threads), {args.connections} connections, "
        f"{args.rounds} rounds of {args.seconds:g} s")
    rows = [row for kind in kinds
            for row in measure(kind, configs, args.seconds, args.connections, args.rounds, args.expect)]
    figures = []
    for row in rows:
        if (row["workers"], row["threads"]) != production and len(configs) > 1:
            continue
        target = f">= {TARGET} hands/s" if row["database"] == "sqlite" else "(none)"
        figures.append({
            "figure": f"3 {row['database']}", "name": f"hands recorded per second through the API, {row['database']}",
            "value": round(row["hands_per_s"], 1), "target": target,
            "pass": row["hands_per_s"] >= TARGET if row["database"] == "sqlite" else None,
            "detail": f"{row['ratio']:.3f} x hello-world ({row['hello']:.0f} req/s); "
                      f"{row['per_cpu_second']:.0f} hands per server CPU-second; {row['workers']}x{row['threads']}, "
                      f"{args.connections} connections",
            "row": row,
        })
    if len(configs) > 1:
        figures.append({"figure": "writes-threads", "name": "workers x threads sweep of writes", "rows": rows})
    emit_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
