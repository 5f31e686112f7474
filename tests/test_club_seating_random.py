"""The seating of a club evening over a few hundred random clubs: what every proposal keeps.

Everyone present is seated or sits out, once; tables are within their game's bounds and as the plan says;
the search meets no more than the plain greedy tables; sit-outs go to those who sat out least, and over a
season of rounds drawn one after another nobody sits out two more times than another.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers.seating import random_evening, season, seated
from scorekeeper.club.engine.seating import History, draw, evening, greedy_draw, partners, plan, repeat_meetings
from scorekeeper.games import GAMES
from scorekeeper.refusals import Refusal

CLUBS = range(300)


def fewest_needed(game: str | list[str]) -> int:
    return GAMES[game].min_players if isinstance(game, str) else sum(GAMES[slug].min_players for slug in game)


@pytest.mark.parametrize("chunk", range(6))
def test_every_proposal_seats_everyone_once_within_bounds_and_meets_no_more_than_greedy(chunk):
    for number in CLUBS[chunk::6]:
        rng = random.Random(number)
        club = random_evening(rng)
        seed = rng.getrandbits(32)
        if len(club.present) < fewest_needed(club.game):
            with pytest.raises(Refusal):
                draw(club.present, club.game, club.history, seed)
            continue
        drawn = draw(club.present, club.game, club.history, seed)
        everyone = seated(drawn) + list(drawn.sat_out)
        assert sorted(everyone) == sorted(club.present), number
        assert list(drawn.sat_out) == sorted(drawn.sat_out)
        tables, out = plan(club.game, len(club.present))
        assert [(table.game, len(table.seats)) for table in drawn.tables] == tables and len(drawn.sat_out) == out
        for table in drawn.tables:
            assert GAMES[table.game].min_players <= len(table.seats) <= GAMES[table.game].max_players
        counts = club.history.sat_out
        if drawn.sat_out:
            assert max(counts.get(p, 0) for p in drawn.sat_out) <= min(counts.get(p, 0) for p in seated(drawn))
        baseline = greedy_draw(club.present, club.game, club.history, seed)
        assert baseline.sat_out == drawn.sat_out
        assert repeat_meetings(drawn, club.history) <= repeat_meetings(baseline, club.history), number
        if number % 10 == 0:
            assert draw(club.present, club.game, club.history, seed) == drawn


@pytest.mark.parametrize("game", sorted(GAMES))
def test_sit_outs_stay_within_one_over_a_season(game):
    for number in range(8):
        rng = random.Random(f"{game}{number}")
        present = rng.sample(range(1, 200), rng.randint(GAMES[game].min_players + 1, 30))
        rounds = evening(present, game, History(), 12, number)
        for played in range(1, len(rounds) + 1):
            counts = Counter({player: 0 for player in present}) + Counter()
            counts.update(season(rounds[:played]).sat_out)
            spread = [counts[player] for player in present]
            assert max(spread) - min(spread) <= 1, (number, played)


def test_kozyol_tables_count_their_partners_opposite():
    rng = random.Random(4)
    for number in range(20):
        club = random_evening(rng)
        if len(club.present) < 4:
            continue
        drawn = draw(club.present, "kozyol", club.history, number)
        later = club.history.after(drawn)
        for table in drawn.tables:
            for pair in partners("kozyol", table.seats):
                assert later.partnered[pair] == club.history.partnered.get(pair, 0) + 1
            a, b, c, d = table.seats
            assert sorted(partners("kozyol", table.seats)) == sorted([tuple(sorted((a, c))), tuple(sorted((b, d)))])
