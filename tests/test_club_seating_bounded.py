"""The seating search bounded by its work: large evenings (100, 200, 400 present) drawn right, and the same each time.

A draw takes at most seating.WORK looks at a pair of players, counted, never timed: the same seed draws
the same round on any machine. These tests check what every proposal keeps at those sizes (everyone
present seated once or sitting out, tables of the plan's sizes within the game's bounds, sit-outs to
those who sat out least, no more meetings than the plain greedy tables), that the bound holds, and that
an evening small enough never to reach it is drawn as the unbounded search draws it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers.seating import seated
from scorekeeper.club.engine import seating
from scorekeeper.club.engine.seating import (
    WORK,
    History,
    Round,
    draw,
    greedy_draw,
    history_of,
    partners,
    plan,
    repeat_meetings,
)
from scorekeeper.games import GAMES

MIX = ("barbu", "barbu", "kozyol", "kozyol", "hearts")


def made_up_season(rng: random.Random, players: list[int], matches: int) -> History:
    """A season of random matches between these players (sizes within each game's bounds), and sit-outs."""
    played = []
    for _ in range(matches):
        game = rng.choice(MIX)
        played.append((game, rng.sample(players, rng.randint(GAMES[game].min_players, GAMES[game].max_players))))
    return history_of(played, {player: rng.randint(0, 4) for player in players if rng.random() < 0.5})


def mixed(count: int) -> list[str]:
    """A list of games, one a table, for about count players: Kozyol, Hearts and Barbu tables."""
    return ["kozyol"] * (count // 40) + ["hearts"] * (count // 20) + ["barbu"] * (count // 40)


def keeps_every_rule(drawn: Round, present: list[int], game: str | list[str], history: History) -> None:
    """What every proposal keeps, whatever the number of players."""
    everyone = seated(drawn) + list(drawn.sat_out)
    assert sorted(everyone) == sorted(present), "everyone present is seated once or sits out, and nobody else"
    assert list(drawn.sat_out) == sorted(drawn.sat_out)
    tables, out = plan(game, len(present))
    assert [(table.game, len(table.seats)) for table in drawn.tables] == tables and len(drawn.sat_out) == out
    for table in drawn.tables:
        assert GAMES[table.game].min_players <= len(table.seats) <= GAMES[table.game].max_players
    if drawn.sat_out:
        counts = history.sat_out
        assert max(counts.get(p, 0) for p in drawn.sat_out) <= min(counts.get(p, 0) for p in seated(drawn))


# (players present, game, season's matches, rounds drawn before tonight, seed)
CASES = [
    (100, "barbu", 0, 0, 1),
    (100, "kozyol", 2_000, 0, 2),
    (100, "hearts", 2_000, 2, 3),
    (101, mixed(101), 500, 1, 4),
    (200, "barbu", 4_000, 0, 5),
    (200, "kozyol", 0, 1, 6),
    (203, "hearts", 1_000, 0, 7),
    (200, mixed(200), 4_000, 0, 8),
    (400, "barbu", 8_000, 0, 9),
    (400, "kozyol", 2_000, 1, 10),
    (402, "hearts", 0, 0, 11),
    (400, mixed(400), 8_000, 0, 12),
]


@pytest.mark.parametrize(("count", "game", "matches", "before", "seed"), CASES,
                         ids=[f"{c[0]}-{c[1] if isinstance(c[1], str) else 'mixed'}-{c[2]}-{c[3]}" for c in CASES])
def test_a_large_evening_is_drawn_by_every_rule_and_the_same_for_its_seed(count, game, matches, before, seed):
    rng = random.Random(seed)
    present = rng.sample(range(1, 3 * count), count)
    history = made_up_season(rng, present, matches)
    tonight: list[Round] = []
    for number in range(before):  # rounds of the evening already played: counted in the history too
        tonight.append(greedy_draw(present, game, history, seed + number, tonight))
        history = history.after(tonight[-1])
    drawn = draw(present, game, history, seed, tonight)
    keeps_every_rule(drawn, present, game, history)
    if not tonight:  # with rounds tonight, a fourth meeting tonight weighs more than the season's: not comparable
        assert repeat_meetings(drawn, history) <= repeat_meetings(greedy_draw(present, game, history, seed), history)
    assert draw(list(reversed(present)), game, history, seed, tonight) == drawn
    if game == "kozyol":
        later = history.after(drawn)
        for table in drawn.tables:
            for key in partners("kozyol", table.seats):
                assert later.partnered[key] == history.partnered.get(key, 0) + 1


@pytest.mark.parametrize("chunk", range(3))
def test_random_large_evenings_seat_everyone_once_within_the_games_bounds(chunk):
    for number in range(chunk, 12, 3):
        rng = random.Random(f"large {number}")
        count = rng.choice((100, 150, 200, 300, 400)) + rng.randint(0, 7)
        present = rng.sample(range(1, 2000), count)
        history = made_up_season(rng, present, rng.choice((0, count, 10 * count)))
        game: str | list[str] = rng.choice(sorted(GAMES))
        if rng.random() < 0.3:
            game = [rng.choice(sorted(GAMES)) for _ in range(rng.randint(1, count // 8))]
            while sum(GAMES[slug].min_players for slug in game) > count:
                game.pop()
        drawn = draw(present, game, history, rng.getrandbits(31))
        keeps_every_rule(drawn, present, game, history)


class Counted(seating.Work):
    """The engine's Work, each one kept so that what it spent can be read after the draw."""

    made: list[seating.Work] = []

    def __init__(self, units: int | None) -> None:
        super().__init__(units)
        Counted.made.append(self)


@pytest.mark.parametrize("count", [100, 200, 400])
def test_a_draw_takes_no_more_work_than_its_bound(monkeypatch, count):
    monkeypatch.setattr(seating, "Work", Counted)
    rng = random.Random(count)
    present = list(range(1, count + 1))
    for history in (History(), made_up_season(rng, present, 20 * count)):
        Counted.made = []
        draw(present, "barbu", history, count)
        assert 0 < sum(work.spent for work in Counted.made) <= WORK


def test_a_hundred_players_take_under_half_the_bound_and_four_hundred_more(monkeypatch):
    monkeypatch.setattr(seating, "Work", Counted)
    rng = random.Random(4)
    for count, reached in ((100, False), (400, True)):
        present = list(range(1, count + 1))
        Counted.made = []
        draw(present, "hearts", made_up_season(rng, present, 20 * count), count)
        spent = sum(work.spent for work in Counted.made)
        assert (spent > WORK // 2) is reached, spent


@pytest.mark.parametrize("seed", range(3))
def test_an_evening_within_the_bound_is_drawn_as_the_unbounded_search_draws_it(seed):
    rng = random.Random(seed)
    for count, game in ((16, "barbu"), (40, "kozyol"), (60, "hearts"), (100, "barbu")):
        present = rng.sample(range(1, 500), count)
        history = made_up_season(rng, present, rng.choice((0, 10 * count)))
        assert draw(present, game, history, seed) == draw(present, game, history, seed, work=None)


@pytest.mark.parametrize(("count", "game"), [(12, "barbu"), (100, "kozyol"), (400, "hearts")])
def test_with_no_work_at_all_the_draw_is_the_greedy_tables(count, game):
    rng = random.Random(count)
    present = list(range(1, count + 1))
    history = made_up_season(rng, present, 5 * count)
    assert draw(present, game, history, 3, work=0) == greedy_draw(present, game, history, 3)


@pytest.mark.parametrize("work", [1, 1_000, 50_000, 500_000])
def test_any_bound_still_draws_a_whole_round_the_same_for_its_seed(work):
    rng = random.Random(work)
    present = rng.sample(range(1, 1000), 200)
    history = made_up_season(rng, present, 1000)
    drawn = draw(present, "kozyol", history, 8, work=work)
    keeps_every_rule(drawn, present, "kozyol", history)
    assert drawn == draw(present, "kozyol", history, 8, work=work)
    assert repeat_meetings(drawn, history) <= repeat_meetings(greedy_draw(present, "kozyol", history, 8), history)


def test_sit_outs_stay_within_one_over_an_evening_of_four_hundred():
    present = list(range(1, 403))  # two sit out each round of Barbu
    rounds = seating.evening(present, "barbu", History(), 3, 17)
    counts = Counter({player: 0 for player in present})
    for drawn in rounds:
        counts.update(drawn.sat_out)
        keeps_every_rule(drawn, present, "barbu", History())
    assert max(counts.values()) - min(counts.values()) <= 1 and sum(counts.values()) == 6
