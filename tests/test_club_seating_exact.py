"""The fewest pairs meeting again (scorekeeper.club.engine.seating, exact.py): up to 16 seated, found exactly.

A pair meets again when its two players already sat at one table tonight. Rows worked out by hand (the
pigeonhole: a new table that takes players from fewer old tables than it has seats seats some of them
together again), then random evenings: up to 12 seated the draw seats as few pairs again as the best of
every seating counted one by one; up to 16 as few as the exact search finds, within its bound; above
that never more than the plain greedy round; and always with the same fair sit-outs.
"""

from __future__ import annotations

import random

import pytest

from helpers.seating import fewest_by_hand, random_evening, season, seated
from scorekeeper.club.engine import exact, seating
from scorekeeper.club.engine.seating import (
    EXACT_WORK,
    History,
    Round,
    draw,
    evening,
    fewest_again,
    greedy_draw,
    met_again,
    plan,
)
from scorekeeper.games import GAMES

# (players, game) -> the fewest pairs meeting again in each round, the draw's own.
FEWEST = [
    (8, "barbu", [0, 4, 4]),  # a new table of 4 from 2 old tables: 2 + 2, a pair from each
    (12, "kozyol", [0, 3, 3]),  # a new table of 4 from 3 old tables: one pair; the draw once gave 6 in round 3
    (16, "barbu", [0, 0, 0, 0, 0, 24]),  # the affine plane of order 4, then everyone has met everyone
    (10, "hearts", [0, 45]),  # one table of 10, twice: every pair
    (12, "hearts", [0, 12]),  # 6 + 6 from 6 + 6: 3 + 3 at each, 3 pairs from each old table
    (13, "hearts", [0, 15]),  # 7 + 6 from 7 + 6: 4 + 3 (6 + 3 pairs) and 3 + 3 (3 + 3)
    (10, ["kozyol", "hearts"], [0, 9]),  # 4 + 6 from 4 + 6: 1 + 3 (3 pairs) and 3 + 3 (3 + 3)
]


@pytest.mark.parametrize(("count", "game", "fewest"), FEWEST,
                         ids=[f"{row[0]}-{row[1] if isinstance(row[1], str) else '+'.join(row[1])}" for row in FEWEST])
def test_each_round_seats_the_fewest_pairs_again_any_seating_allows(count, game, fewest):
    for seed in range(3):
        rounds = evening(list(range(1, count + 1)), game, History(), len(fewest), seed)
        assert [len(met_again(drawn, rounds[:at])) for at, drawn in enumerate(rounds)] == fewest
        assert [fewest_again(drawn, rounds[:at]) for at, drawn in enumerate(rounds)] == fewest
        if count <= 13:
            assert [fewest_by_hand(drawn, rounds[:at]) for at, drawn in enumerate(rounds)] == fewest


@pytest.mark.parametrize("seed", range(12))
def test_the_walks_third_round_seats_no_more_pairs_again_than_its_sit_outs_allow(seed):
    """Ten players at two Kozyol tables, two sitting out each round: round 3 seated 5 pairs again where 4 were
    possible with the same sit-outs. Now it seats as few as the best of the 35 ways to seat its eight."""
    rounds = evening(list(range(1, 11)), "kozyol", History(), 3, seed)
    for at in (1, 2):
        assert len(met_again(rounds[at], rounds[:at])) == fewest_by_hand(rounds[at], rounds[:at]), at


def tonight_of(rng: random.Random, club, rounds: int) -> tuple[list[Round], History]:
    """Rounds already played tonight by the club's players present (greedy, so they leave room to do better)."""
    tonight: list[Round] = []
    history = club.history
    for _number in range(rounds):
        tonight.append(greedy_draw(club.present, club.game, history, rng.getrandbits(31), tonight))
        history = history.after(tonight[-1])
    return tonight, history


def small_evening(rng: random.Random, most: int):
    """A random club evening of at most `most` present, with at least one table's worth."""
    while True:
        club = random_evening(rng)
        club = club.__class__(club.players, club.history, club.present[:most], club.game)
        needed = GAMES[club.game].min_players if isinstance(club.game, str) else sum(
            GAMES[slug].min_players for slug in club.game)
        if needed <= len(club.present):
            return club


@pytest.mark.parametrize("chunk", range(4))
def test_up_to_twelve_seated_the_draw_is_the_best_of_every_seating(chunk):
    for number in range(chunk, 60, 4):
        rng = random.Random(f"exact {number}")
        club = small_evening(rng, 12)
        tonight, history = tonight_of(rng, club, rng.randint(1, 3))
        drawn = draw(club.present, club.game, history, rng.getrandbits(31), tonight)
        assert len(met_again(drawn, tonight)) == fewest_by_hand(drawn, tonight), number


@pytest.mark.parametrize("chunk", range(4))
def test_up_to_sixteen_the_draw_seats_the_fewest_the_exact_search_finds_within_its_bound(chunk):
    for number in range(chunk, 40, 4):
        rng = random.Random(f"sixteen {number}")
        club = small_evening(rng, 16)
        tonight, history = tonight_of(rng, club, rng.randint(1, 4))
        seed = rng.getrandbits(31)
        drawn = draw(club.present, club.game, history, seed, tonight)
        fewest = fewest_again(drawn, tonight)
        assert fewest is not None, number  # the search finished within EXACT_WORK
        assert len(met_again(drawn, tonight)) == fewest, number
        baseline = greedy_draw(club.present, club.game, history, seed, tonight)
        assert drawn.sat_out == baseline.sat_out and len(met_again(drawn, tonight)) <= len(met_again(baseline, tonight))


@pytest.mark.parametrize("chunk", range(3))
def test_above_sixteen_the_draw_never_seats_more_pairs_again_than_the_greedy_round(chunk):
    for number in range(chunk, 30, 3):
        rng = random.Random(f"large {number}")
        club = random_evening(rng)
        if len(club.present) < 20 or len(club.present) - plan(club.game, len(club.present))[1] <= exact.EXACT:
            continue  # too few for the tables, or 16 seated or fewer
        tonight, history = tonight_of(rng, club, rng.randint(1, 3))
        seed = rng.getrandbits(31)
        drawn, baseline = draw(club.present, club.game, history, seed, tonight), greedy_draw(
            club.present, club.game, history, seed, tonight)
        assert drawn.sat_out == baseline.sat_out
        assert len(met_again(drawn, tonight)) <= len(met_again(baseline, tonight)), number
        assert fewest_again(drawn, tonight) is None  # not searched exactly: above its size


@pytest.mark.parametrize("count", [9, 13, 16])
def test_the_sit_outs_stay_fair_and_kozyol_partners_sit_opposite(count):
    present = list(range(1, count + 1))
    rounds = evening(present, "kozyol", History(), 4, count)
    for at, drawn in enumerate(rounds):
        counts = season(rounds[:at]).sat_out
        if drawn.sat_out:
            assert max(counts.get(p, 0) for p in drawn.sat_out) <= min(counts.get(p, 0) for p in seated(drawn))
        for table in drawn.tables:
            assert sorted(seating.partners("kozyol", table.seats)) == sorted(
                [seating.pair(table.seats[0], table.seats[2]), seating.pair(table.seats[1], table.seats[3])])


def test_out_of_work_the_exact_search_says_so_and_the_draw_keeps_what_its_search_found():
    rounds = evening(list(range(1, 17)), ["kozyol", "barbu", "hearts"], History(), 3, 2)
    assert fewest_again(rounds[2], rounds[:2], work=10) is None
    drawn = draw(list(range(1, 17)), ["kozyol", "barbu", "hearts"], season(rounds[:2]), 5, rounds[:2], work=20_000)
    assert sorted(seated(drawn)) == list(range(1, 17))
    with pytest.raises(exact.Unfinished):
        exact.fewest(*exact_inputs(rounds[2], rounds[:2])[:1], [4, 4, 8], exact_inputs(rounds[2], rounds[:2])[2],
                     seating.Work(0), 99)


def test_the_exact_search_stays_well_within_its_bound_at_sixteen():
    """The dearest plans at 16 seated: three tables of two sizes, after two to four rounds (bench/seating_draw.py)."""
    spent = []
    for game in (["kozyol", "barbu", "hearts"], ["kozyol", "hearts", "hearts"], "barbu", "hearts"):
        for seed in range(2):
            rounds = evening(list(range(1, 17)), game, History(), 5, seed)
            for at in range(1, 5):
                work = seating.Work(EXACT_WORK)
                seating.fewer_again(*exact_inputs(rounds[at], rounds[:at]), work)
                spent.append(work.spent)
    assert max(spent) < EXACT_WORK // 2, max(spent)


def exact_inputs(drawn: Round, tonight: list[Round]):
    """What seating.fewer_again reads of a round and tonight's rounds before it."""
    players = seated(drawn)
    before = season(tonight).met
    matrix = [[int(seating.pair(a, b) in before) if a != b else 0 for b in players] for a in players]
    groups, at = [], 0
    for table in drawn.tables:
        groups.append(list(range(at, at + len(table.seats))))
        at += len(table.seats)
    return matrix, groups, seating.by_index(players, tonight)
