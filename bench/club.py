"""Figure 10: a club of 100 players and 10,000 finished matches: its pages against a match page, and a hand's write.

    .venv/bin/python bench/club.py [--matches 10000] [--players 100] [--rounds 9] [--database sqlite|postgres]
    .venv/bin/python bench/club.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432   # PostgreSQL

The club is seeded in bulk (club_seed.py: Barbu, Kozyol and Hearts matches over a year, with their
digests). Then, in one process through the app's test client, round after round:

- baseline: a finished 28-hand Barbu match's page (GET /m/<id>), warm, and with the match caches
  emptied (cold);
- the club's standings page (GET /c/<id>) and a player's page (GET /c/<id>/players/<pid>), warm
  (their figures kept for the club's current state) and cold: the first view after a new hand
  finishes a club match;
- a hand written through the API to a club match (one more row: its club result) and to a
  casual match, alternately.

Each figure is a median over the rounds, given as a ratio to its baseline of the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

import club_seed
import harness
import seed
from harness import emit_figures, say

PAGE_TARGET = 3.0  # the issue: the standings and a player page within 3 x a single match page
WRITE_TARGET = 1.5  # "no more than today plus one indexed write"
WRITERS = 3  # matches of each kind written hand by hand


def timed(client, method: str, url: str, **kwargs) -> float:
    """One request through the test client, in milliseconds; anything but 200/201 stops the run."""
    began = time.perf_counter()
    answer = client.open(url, method=method, **kwargs)
    spent = 1e3 * (time.perf_counter() - began)
    if answer.status_code not in (200, 201):
        raise RuntimeError(f"{method} {url} answered {answer.status_code}: {answer.get_data(as_text=True)[:300]}")
    return spent


def club_match(app, club_public_id: str, roster: dict[int, str], rng: random.Random, hands: int):
    """A Barbu match of the club made by the app, its first hands recorded; (public id, key, all 28 entries)."""
    from scorekeeper.club import service as clubs
    from scorekeeper.db import db
    from scorekeeper.match import matches

    seats = rng.sample(sorted(roster), 4)
    names = [roster[seat] for seat in seats]
    entries = club_seed.barbu_entries(rng, names)
    with app.app_context():
        club = clubs.must_find(club_public_id)
        match, key = matches.create("barbu", names, {"first_declarer": names[0]}, entries[:hands],
                                    club_id=club.id, seat_ids=seats)
        public_id = match.public_id
        db.session.remove()
    return public_id, key, entries


def casual_match(app, rng: random.Random):
    entries = club_seed.barbu_entries(rng, seed.PLAYERS)
    public_id, key = seed.create(app, "barbu", seed.PLAYERS, {"first_declarer": seed.PLAYERS[0]}, [])
    return public_id, key, entries


def post_hand(client, public_id: str, key: str, entry: dict) -> float:
    return timed(client, "POST", f"/api/v1/matches/{public_id}/hands", data=json.dumps(entry),
                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})


def measure(kind: str, matches: int, players: int, rounds: int) -> dict[str, float]:
    from scorekeeper.match import matches as stored
    from scorekeeper.web.match import pages

    rng = random.Random(16)
    with harness.instance(kind, "scorekeeper_bench_club"):
        app = harness.local_app(RATELIMIT_ENABLED=False)
        club_id, _, roster = club_seed.make_club(app, players)
        began = time.perf_counter()
        club_seed.bulk_matches(app, club_id, roster, matches, rng, log=lambda line: None)
        say(f"  {kind}: {matches} club matches of {players} players stored ({time.perf_counter() - began:.0f} s)")
        baseline, _ = seed.create(app, "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, seed.barbu_entries())
        pending = [club_match(app, club_id, roster, rng, 27) for _ in range(2 * rounds)]
        writers = [(club_match(app, club_id, roster, rng, 0), casual_match(app, rng)) for _ in range(WRITERS)]
        player = sorted(roster)[0]
        urls = {"match": f"/m/{baseline}", "club": f"/c/{club_id}", "player": f"/c/{club_id}/players/{player}"}
        client = app.test_client()
        times: dict[str, list[float]] = {name: [] for name in
                                         ("match", "club", "player", "match_cold", "club_cold", "player_cold",
                                          "club_write", "casual_write", "finishing_write")}
        for url in urls.values():
            timed(client, "GET", url)
        for round_ in range(rounds):
            for name, url in urls.items():
                for _ in range(3):
                    times[name].append(timed(client, "GET", url))
            stored.cached_replay.cache_clear()
            pages.WATCHED.clear()
            times["match_cold"].append(timed(client, "GET", urls["match"]))
            for name in ("club", "player"):  # a new hand finishes a club match; then the page's first view
                public_id, key, entries = pending.pop()
                times["finishing_write"].append(post_hand(client, public_id, key, entries[27]))
                times[f"{name}_cold"].append(timed(client, "GET", urls[name]))
            for (club_side, casual_side) in writers:  # hands of both kinds in turn, none finishing a match
                number = round_ % 27
                times["club_write"].append(post_hand(client, club_side[0], club_side[1], club_side[2][number]))
                times["casual_write"].append(post_hand(client, casual_side[0], casual_side[1],
                                                       casual_side[2][number]))
        with app.app_context():
            from scorekeeper.db import db

            db.session.remove()
            db.engine.dispose()
    medians = {name: statistics.median(values) for name, values in times.items()}
    say(f"  {kind}: " + ", ".join(f"{name} {value:.2f} ms" for name, value in medians.items()))
    return medians


def figures_of(kind: str, ms: dict[str, float], matches: int, players: int, rounds: int) -> list[dict]:
    size = f"{players} players, {matches:,} matches"
    rows = [
        ("10a", "club standings page / match page (warm)", "club", "match", PAGE_TARGET),
        ("10b", "player page / match page (warm)", "player", "match", PAGE_TARGET),
        ("10c", "club standings page, first view after a match finishes / match page (caches emptied)",
         "club_cold", "match_cold", PAGE_TARGET),
        ("10d", "player page, first view after a match finishes / match page (caches emptied)",
         "player_cold", "match_cold", PAGE_TARGET),
        ("10e", "a hand written to a club match / to a casual match (API)", "club_write", "casual_write",
         WRITE_TARGET),
    ]
    out = []
    for figure, name, what, base, target in rows:
        value = ms[what] / ms[base]
        out.append({"figure": f"{figure} {kind}", "name": f"{name}, {size}", "value": round(value, 2),
                    "target": f"<= {target:g}", "pass": value <= target,
                    "detail": f"{ms[what]:.2f} vs {ms[base]:.2f} ms, medians of {rounds} rounds; {kind}"})
    out.append({"figure": f"10f {kind}", "name": f"the hand that finishes a club match (API), {size}",
                "value": round(ms["finishing_write"] / ms["casual_write"], 2), "target": "(reported)", "pass": None,
                "detail": f"{ms['finishing_write']:.2f} ms vs a casual hand's {ms['casual_write']:.2f} ms; {kind}"})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=9, help="rounds of every measure (default 9)")
    harness.database_options(parser)
    args = parser.parse_args(argv)
    kind = harness.database_kind(args)
    if args.players < 11 or args.rounds < 1 or args.matches < 1:
        parser.error("need at least 11 players (a Hearts table), one match and one round")
    say(f"club: {args.players} players, {args.matches} finished matches on {kind}; {args.rounds} rounds")
    ms = measure(kind, args.matches, args.players, args.rounds)
    emit_figures(figures_of(kind, ms, args.matches, args.players, args.rounds), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
