"""Figure 11: the seating of a club evening: 40 players x 3 rounds drawn for a club of 100 with 10,000 matches.

    .venv/bin/python bench/seating.py [--players 100] [--matches 10000] [--present 40] [--rounds 3] [--runs 7]

Pure Python, in one process, no server and no database. A season is made up at random (Barbu, Kozyol and
Hearts matches, 4 to 11 seats, some sit-outs) and turned into the engine's History (history_of). Then, run
after run, for each game and for a mixed evening (a Kozyol table, Hearts tables, a Barbu table): the
evening drawn (seating.evening: the search) and, as the baseline, the same rounds by the plain greedy
method (seating.greedy_draw), one after the other from the history plus the rounds before.

Prints the median wall time of each evening, its ratio to the greedy rounds', and the repeat meetings
(how often the pairs at the tables met before) of both. Exits 1 when an evening takes more than 1 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from harness import ROOT, emit_figures, say  # noqa: F401  (puts the project on sys.path)
from scorekeeper.club.engine.seating import History, Round, evening, greedy_draw, history_of, repeat_meetings
from scorekeeper.games import GAMES

LIMIT = 1.0  # seconds: the bound for one evening's draw
MIX = (("barbu", 4), ("kozyol", 3), ("hearts", 3))  # tenths of the matches of each game, as bench/club_seed.py


def season(rng: random.Random, players: int, matches: int) -> History:
    """A made-up season: matches of the three games between random players, and sit-outs."""
    games = [game for game, tenths in MIX for _ in range(tenths)]
    played = []
    for _ in range(matches):
        game = rng.choice(games)
        size = rng.randint(GAMES[game].min_players, GAMES[game].max_players)
        played.append((game, rng.sample(range(1, players + 1), size)))
    return history_of(played, {player: rng.randint(0, 6) for player in range(1, players + 1)})


def greedy_evening(present: list[int], game: str | list[str], history: History, rounds: int,
                   seed: int) -> list[Round]:
    """The baseline: the same rounds by the plain greedy method."""
    drawn = []
    for number in range(rounds):
        drawn.append(greedy_draw(present, game, history, seed + number, tonight=drawn))
        history = history.after(drawn[-1])
    return drawn


def repeats(rounds: list[Round], history: History) -> int:
    """The repeat meetings of rounds drawn one after the other: each against the history before it."""
    total = 0
    for drawn in rounds:
        total += repeat_meetings(drawn, history)
        history = history.after(drawn)
    return total


def timed(call: Callable[[], list[Round]]) -> tuple[float, list[Round]]:
    began = time.perf_counter()
    made = call()
    return time.perf_counter() - began, made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--present", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=7, help="evenings drawn of each kind (default 7)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not 24 <= args.present <= args.players or args.rounds < 1 or args.runs < 1:
        parser.error("need at least 24 present (the mixed evening's tables), no more than the club, a round, a run")
    rng = random.Random(11)
    began = time.perf_counter()
    history = season(rng, args.players, args.matches)
    built = time.perf_counter() - began
    say(f"seating: a club of {args.players} players, {args.matches:,} matches (history built in {built:.3f} s); "
        f"{args.present} present, {args.rounds} rounds, {args.runs} runs")
    evenings: dict[str, str | list[str]] = {game: game for game in GAMES}
    evenings["mixed"] = ["kozyol", "hearts", "hearts", "barbu"]
    figures, worst = [], 0.0
    for name, game in evenings.items():
        times: dict[str, list[float]] = {"search": [], "greedy": []}
        met: dict[str, list[int]] = {"search": [], "greedy": []}
        for run in range(args.runs):
            present = rng.sample(range(1, args.players + 1), args.present)
            for method, call in (("search", lambda: evening(present, game, history, args.rounds, run)),
                                 ("greedy", lambda: greedy_evening(present, game, history, args.rounds, run))):
                spent, made = timed(call)
                times[method].append(spent)
                met[method].append(repeats(made, history))
        search, greedy = statistics.median(times["search"]), statistics.median(times["greedy"])
        worst = max(worst, search)
        quality = sum(met["search"]) / max(1, sum(met["greedy"]))
        say(f"  {name}: {1e3 * search:.1f} ms (slowest {1e3 * max(times['search']):.1f}) against greedy "
            f"{1e3 * greedy:.2f} ms: x{search / greedy:.0f}; repeat meetings {statistics.mean(met['search']):.0f} "
            f"against {statistics.mean(met['greedy']):.0f} ({quality:.3f})")
        figures.append({
            "figure": f"11 {name}", "value": round(search, 3), "target": f"<= {LIMIT:g} s", "pass": search <= LIMIT,
            "name": f"an evening of {args.present} players x {args.rounds} rounds of {name}, a club of "
                    f"{args.players} players and {args.matches:,} matches: wall time (s)",
            "detail": f"median of {args.runs}; {search / greedy:.0f} x the greedy rounds' {1e3 * greedy:.2f} ms; "
                      f"repeat meetings {quality:.3f} x greedy's; history built in {built:.3f} s"})
    emit_figures(figures, args.json)
    if worst > LIMIT:
        say(f"seating: an evening took {worst:.3f} s, over {LIMIT:g} s")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
