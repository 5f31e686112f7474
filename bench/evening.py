"""Figure 12: a club evening at scale: its draw through the store, and its results page and PDFs against a match's.

    .venv/bin/python bench/evening.py [--matches 10000] [--players 100] [--present 40] [--rounds 3] [--runs 3]
                                      [--page-rounds 5]
    .venv/bin/python bench/evening.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432   # PostgreSQL

The club is seeded in bulk as for figure 10 (club_seed.py: 100 players, 10,000 finished matches over a
year). Then, in one process:

- the draw (12a): evenings of 40 players marked present, each of 3 Barbu rounds (10 tables) drawn one after
  the other through the store side (rounds.propose: the season's history read from the database, then the
  seating search), each round confirmed before the next is drawn (rounds.confirm: the round, its tables
  and their 10 club matches stored); the draw and the confirmations are timed apart, and their sum;
- the first evening's (today's) 30 matches are then played to their end, and, round after round through the test
  client: the evening results page (GET /c/<id>/evenings/<id>/results) against a finished 28-hand Barbu
  match's page (GET /m/<id>), warm (both kept) and with the page caches emptied (12b, 12c); the evening
  results PDF against the match's PDF sheet (12d), and the table cards of a round of 10 tables against the
  same sheet (12e), beside a blank Barbu sheet with names (each card is followed by one). Every PDF is a
  render: the app runs with PDF_CACHE_BYTES 0, so no sheet is kept.
  The evenings after the first are drawn for the days before it, and their matches are dated on their own
  day (as they would be had they been drawn that evening), so today's results hold today's matches only.
  With --quiet-day the seeded matches of the evening's day (about 27) are moved to the day before, so the
  results show the evening's own 30 matches only.

Each figure is a median over the runs or rounds; pages and PDFs are ratios to their baseline of the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import timedelta

import club_seed
import harness
import seed
from harness import emit_figures, say

DRAW_TARGET = 1.0  # seconds: the bound for drawing an evening
PAGE_TARGET = 3.0  # the evening page and its PDF within 3 x a match page and a match sheet
GAME = "barbu"  # four seats a table: 40 present make rounds of 10 tables


def timed(client, url: str, **kwargs) -> float:
    """One GET through the test client, in milliseconds; anything but 200 stops the run."""
    began = time.perf_counter()
    answer = client.get(url, **kwargs)
    spent = 1e3 * (time.perf_counter() - began)
    if answer.status_code != 200:
        raise RuntimeError(f"GET {url} answered {answer.status_code}: {answer.get_data(as_text=True)[:300]}")
    return spent


def draw_evening(app, club_public_id: str, present: list[int], day, rounds: int, seed_: int) -> dict:
    """An evening on this day with these players present, its rounds drawn and confirmed one after the other.

    Returns the evening's id and the seconds spent drawing (propose) and confirming, round by round."""
    from scorekeeper.club import evenings, rounds as store, service as clubs
    from scorekeeper.db import db

    with app.app_context():
        club = clubs.must_find(club_public_id)
        evening = evenings.schedule(club, day, "19:30", "", "")[0]
        for player in present:
            evenings.mark_present(club, evening, player, True)
        drawn_s, confirmed_s = [], []
        for number in range(rounds):
            club, evening = clubs.must_find(club_public_id), evenings.evening_of(club, evening.id)
            began = time.perf_counter()
            seed_used, proposal = store.propose(club, evening, GAME, seed_ + number)
            drawn_s.append(time.perf_counter() - began)
            began = time.perf_counter()
            store.confirm(club, evening, proposal, seed_used, number + 1)
            confirmed_s.append(time.perf_counter() - began)
        evening_id = evening.id
        db.session.remove()
    return {"evening": evening_id, "draw": drawn_s, "confirm": confirmed_s}


def play_out(app, club_public_id: str, evening_id: int, rng: random.Random) -> int:
    """Every table of the evening played to the end (28 legal hands each); the number of matches."""
    from scorekeeper.club import evenings, rounds as store, service as clubs
    from scorekeeper.db import db
    from scorekeeper.match import matches

    with app.app_context():
        club = clubs.must_find(club_public_id)
        tables = [match for _made, played in store.rounds_of(evenings.evening_of(club, evening_id))
                  for _table, match in played if match is not None]
        for match in tables:
            public_id, names = match.public_id, list(match.players)
            for entry in club_seed.barbu_entries(rng, names):
                matches.record(public_id, entry)
        db.session.remove()
    return len(tables)


def date_matches(app, after_id: int, day) -> int:
    """The club results of the matches made after this id moved to this day: an evening drawn here for a day
    before keeps its matches on its own day, as it would have had it been drawn that evening."""
    from sqlalchemy import update

    from scorekeeper.db import db
    from scorekeeper.models import ClubResult

    with app.app_context():
        moved = db.session.execute(update(ClubResult).where(ClubResult.match_id > after_id)
                                   .values(day=day)).rowcount
        db.session.commit()
        db.session.remove()
    return moved


def last_match_id(app) -> int:
    from sqlalchemy import func, select

    from scorekeeper.db import db
    from scorekeeper.models import Match

    with app.app_context():
        found = db.session.scalar(select(func.max(Match.id))) or 0
        db.session.remove()
    return found


def clear_day(app, day) -> int:
    """Move the seeded club results of this day to the day before: the evening's day holds its own matches only."""
    from sqlalchemy import update

    from scorekeeper.db import db
    from scorekeeper.models import ClubResult

    with app.app_context():
        moved = db.session.execute(update(ClubResult).where(ClubResult.day == day)
                                   .values(day=day - timedelta(days=1))).rowcount
        db.session.commit()
        db.session.remove()
    return moved


def measure(kind: str, matches: int, players: int, present: int, rounds: int, runs: int, page_rounds: int,
            quiet_day: bool) -> dict:
    from scorekeeper.club import service as clubs
    from scorekeeper.db import db
    from scorekeeper.match import matches as stored
    from scorekeeper.web.club import pages as club_pages
    from scorekeeper.web.match import pages

    rng = random.Random(12)
    with harness.instance(kind, "scorekeeper_bench_evening"):
        app = harness.local_app(RATELIMIT_ENABLED=False, PDF_CACHE_BYTES=0)  # every PDF a render
        club_id, admin_key, roster = club_seed.make_club(app, players)
        began = time.perf_counter()
        club_seed.bulk_matches(app, club_id, roster, matches, rng, log=lambda line: None)
        say(f"  {kind}: {matches} club matches of {players} players stored ({time.perf_counter() - began:.0f} s)")
        with app.app_context():
            today = clubs.today(clubs.must_find(club_id))
            db.session.remove()
        if quiet_day:
            say(f"  {clear_day(app, today)} seeded matches of the evening's day moved to the day before")
        drawn = []
        for run in range(runs):  # the first evening is today's, whose results are shown; the others the days before
            here, before = rng.sample(sorted(roster), present), last_match_id(app)
            drawn.append(draw_evening(app, club_id, here, today - timedelta(days=run), rounds, 1000 * run))
            if run:
                date_matches(app, before, today - timedelta(days=run))
            made = drawn[-1]
            say(f"  evening {run + 1}: draws " + ", ".join(f"{1e3 * s:.0f}" for s in made["draw"]) + " ms; confirms "
                + ", ".join(f"{1e3 * s:.0f}" for s in made["confirm"]) + " ms")
        evening_id = drawn[0]["evening"]
        began = time.perf_counter()
        played = play_out(app, club_id, evening_id, rng)
        say(f"  {played} matches of the evening played out ({time.perf_counter() - began:.0f} s)")
        baseline, _ = seed.create(app, "barbu", seed.PLAYERS, seed.BARBU_OPTIONS, seed.barbu_entries())
        urls = {"match": f"/m/{baseline}", "evening": f"/c/{club_id}/evenings/{evening_id}/results",
                "sheet": f"/api/v1/matches/{baseline}/sheet.pdf",
                "evening_pdf": f"/c/{club_id}/evenings/{evening_id}/results.pdf",
                "cards": f"/api/v1/clubs/{club_id}/evenings/{evening_id}/cards.pdf?round=1",
                "blank": "/sheets/barbu.pdf?players=" + ",".join(seed.PLAYERS)}  # what each card is followed by
        admin = {"Authorization": f"Bearer {admin_key}"}
        client = app.test_client()
        for name, url in urls.items():
            timed(client, url, headers=admin if name == "cards" else None)
        times: dict[str, list[float]] = {name: [] for name in (*urls, "match_cold", "evening_cold")}
        pdf_bytes: dict[str, int] = {}
        for _round in range(page_rounds):
            for name in ("match", "evening"):
                for _ in range(3):
                    times[name].append(timed(client, urls[name]))
            stored.cached_replay.cache_clear()
            pages.WATCHED.clear()
            club_pages.PAGES.clear()
            for name in ("match", "evening"):
                times[f"{name}_cold"].append(timed(client, urls[name]))
            for name in ("sheet", "evening_pdf", "cards", "blank"):
                began = time.perf_counter()
                answer = client.get(urls[name], headers=admin if name == "cards" else None)
                times[name].append(1e3 * (time.perf_counter() - began))
                if answer.status_code != 200 or not answer.data.startswith(b"%PDF"):
                    raise RuntimeError(f"GET {urls[name]} answered {answer.status_code}")
                pdf_bytes[name] = len(answer.data)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    medians = {name: statistics.median(values) for name, values in times.items()}
    say(f"  {kind}: " + ", ".join(f"{name} {value:.2f} ms" for name, value in medians.items()))
    whole = [sum(made["draw"]) + sum(made["confirm"]) for made in drawn]
    return {"ms": medians, "bytes": pdf_bytes, "quiet": quiet_day, "rounds": len(times["match"]) // 3,
            "draw": statistics.median(sum(made["draw"]) for made in drawn),
            "confirm": statistics.median(sum(made["confirm"]) for made in drawn),
            "whole": statistics.median(whole), "slowest": max(whole),
            "round_draw": statistics.median(s for made in drawn for s in made["draw"])}


def figures_of(kind: str, got: dict, matches: int, players: int, present: int, rounds: int, runs: int
               ) -> list[dict]:
    size = f"a club of {players} players and {matches:,} matches" + (", no other matches that day" * got["quiet"])
    ms, n = got["ms"], got["rounds"]
    out = [{"figure": f"12a {kind}", "value": round(got["whole"], 3), "target": f"< {DRAW_TARGET:g} s",
            "pass": got["whole"] < DRAW_TARGET,
            "name": f"an evening of {present} present x {rounds} rounds drawn and confirmed through the store, {size}: "
                    "wall time (s)",
            "detail": f"median of {runs} evenings (slowest {got['slowest']:.3f} s): drawing {got['draw']:.3f} s "
                      f"(a round {1e3 * got['round_draw']:.0f} ms, history read included), confirming "
                      f"{got['confirm']:.3f} s; {kind}"}]
    rows = [
        ("12b", "evening results page / match page (warm)", "evening", "match"),
        ("12c", "evening results page / match page (page caches emptied)", "evening_cold", "match_cold"),
        ("12d", "evening results PDF / a match's PDF sheet (both rendered)", "evening_pdf", "sheet"),
    ]
    for figure, name, what, base in rows:
        value = ms[what] / ms[base]
        out.append({"figure": f"{figure} {kind}", "name": f"{name}, {size}", "value": round(value, 2),
                    "target": f"<= {PAGE_TARGET:g}", "pass": value <= PAGE_TARGET,
                    "detail": f"{ms[what]:.2f} vs {ms[base]:.2f} ms, medians of {n} rounds; {kind}"})
    out.append({"figure": f"12e {kind}", "name": f"table cards PDF of a round of {present // 4} tables / a match's "
                f"PDF sheet (both rendered), {size}", "value": round(ms["cards"] / ms["sheet"], 2),
                "target": "(reported)", "pass": None,
                "detail": f"{ms['cards']:.0f} vs {ms['sheet']:.0f} ms ({got['bytes']['cards'] // 1024} vs "
                          f"{got['bytes']['sheet'] // 1024} KiB); a blank Barbu sheet alone {ms['blank']:.0f} ms; "
                          f"medians of {n} rounds; {kind}"})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--present", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each evening (default 3)")
    parser.add_argument("--runs", type=int, default=3, help="evenings drawn (default 3)")
    parser.add_argument("--page-rounds", type=int, default=5, help="rounds of the pages and PDFs (default 5)")
    parser.add_argument("--quiet-day", action="store_true",
                        help="no other club matches on the evening's day (the seeded year has about 27 a day)")
    harness.database_options(parser)
    args = parser.parse_args(argv)
    kind = harness.database_kind(args)
    if not 11 <= args.players or not 4 <= args.present <= args.players or args.present % 4 \
            or args.rounds < 1 or args.runs < 1 or args.matches < 1 or args.page_rounds < 1:
        parser.error("need at least 11 players (a Hearts table), a multiple of 4 present (Barbu tables) "
                     "no more than the club, a round, an evening and a match")
    say(f"evening: {args.present} of {args.players} players x {args.rounds} rounds, {args.matches:,} finished "
        f"matches on {kind}; {args.runs} evenings")
    got = measure(kind, args.matches, args.players, args.present, args.rounds, args.runs, args.page_rounds,
                  args.quiet_day)
    figures = figures_of(kind, got, args.matches, args.players, args.present, args.rounds, args.runs)
    emit_figures(figures, args.json)
    return 0 if figures[0]["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
