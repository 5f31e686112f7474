"""The club engine over many random finished matches: invariants of the standings and statistics, and
ratings that depend on the final entries only, however the corrections came and in whatever order."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st
from openskill.models import PlackettLuce

from helpers.club_matches import corrections, random_club
from helpers.played import barbu_played, kozyol_played
from scorekeeper.club.engine import ratings as rating_module
from scorekeeper.club.engine.digest import in_order
from scorekeeper.club.engine.ratings import ratings
from scorekeeper.club.engine.standings import RANKING, PairTally, Tally, partnerships, standings
from scorekeeper.club.engine.stats import head_to_head, player_stats

GAMES = ("barbu", "kozyol", "hearts")
SEEDS = range(4)


@pytest.fixture(autouse=True)
def fresh_checkpoints():
    rating_module.forget_checkpoints()
    yield
    rating_module.forget_checkpoints()


def club_of(seed: int, count: int = 30):
    kept = random_club(random.Random(seed), count)
    return kept, [k.played() for k in kept]


@pytest.mark.parametrize("seed", SEEDS)
def test_digests_hold_what_each_game_promises(seed):
    for p in club_of(seed)[1]:
        made = p.digest
        assert len(made["totals"]) == len(made["places"]) == len(made["seats"])
        assert made["winners"] == [s for s, place in enumerate(made["places"]) if place == 1]
        if made["game"] == "barbu":
            assert sum(made["totals"]) == 0 and made["hands"] == len(made["contracts"]) == 28
            for block in range(4):  # a declarer's seven hands sum to 0, doubles or not (docs/rules.md)
                hands = made["contracts"][7 * block:7 * block + 7]
                assert len({declarer for _, declarer, _ in hands}) == 1 and len({c for c, _, _ in hands}) == 7
                assert sum(sum(scores) for _, _, scores in hands) == 0
        if made["game"] == "kozyol":
            goats = [s for s, place in enumerate(made["places"]) if place == 2]
            assert sorted(goats) == sorted(made["teams"][made["goat"]]) and len(goats) == 2
            assert made["goat_with_eggs"] == (None in made["deals"])
        if made["game"] == "hearts":
            assert sum(made["black_marias"]) <= 2 * made["hands"] and sum(made["moons"]) <= made["hands"]


@pytest.mark.parametrize("seed", SEEDS)
def test_standings_list_every_seated_player_once_in_place_order(seed):
    _, played = club_of(seed)
    for game in GAMES:
        mine = [p.digest for p in played if p.digest["game"] == game]
        seated = Counter(player for made in mine for player in made["seats"])
        rows = standings(game, played, min_matches=2)
        assert {s.player: s.matches for s in rows} == dict(seated) and len(rows) == len(seated)
        ranked = [s for s in rows if s.ranked]
        assert rows[:len(ranked)] == ranked and all(s.matches >= 2 for s in ranked)
        assert all(s.place is None for s in rows[len(ranked):])
        places = [s.place for s in ranked]
        assert places == sorted(places) and places[:1] in ([], [1])
        key = RANKING[game].key
        for s in ranked:  # a place is one more than the players ranked strictly better: ties share it
            assert s.place == 1 + sum(key(other.figures) < key(s.figures) for other in ranked)
        if game == "barbu":
            assert sum(s.figures["total"] for s in rows) == 0
        if game == "kozyol":
            assert sum(s.figures["goats"] for s in rows) == 2 * len(mine)
            assert sum(p.goats for p in partnerships(played)) == len(mine)
            assert sum(p.matches for p in partnerships(played)) == 2 * len(mine)
        if game == "hearts":
            assert sum(s.figures["wins"] for s in rows) == sum(len(made["winners"]) for made in mine)


@pytest.mark.parametrize("seed", SEEDS)
def test_player_statistics_agree_with_the_standings(seed):
    _, played = club_of(seed)
    barbu = {s.player: s for s in standings("barbu", played)}
    doubles = sum(len(p.digest["doubles"]) for p in played if p.digest["game"] == "barbu")
    made = 0
    for player, line in barbu.items():
        stats = player_stats("barbu", played, player)
        assert (stats["matches"], stats["total"]) == (line.matches, line.figures["total"])
        assert sum(c["declared"] + c["defended"] for c in stats["contracts"].values()) == 28 * line.matches
        assert sum(c["declared"] for c in stats["contracts"].values()) == 7 * line.matches
        made += stats["doubles_made"]
    assert made == doubles
    for s in standings("kozyol", played):
        stats = player_stats("kozyol", played, s.player)
        assert (stats["goats"], stats["deals_won"], stats["matches"]) == (
            s.figures["goats"], s.figures["deals_won"], s.matches)
        assert sum(line["matches"] for line in stats["partners"].values()) == s.matches
    for s in standings("hearts", played):
        stats = player_stats("hearts", played, s.player)
        assert (stats["wins"], stats["average_place"]) == (s.figures["wins"], s.figures["average_place"])


@pytest.mark.parametrize("seed", SEEDS)
def test_head_to_head_reads_the_same_from_either_side(seed):
    _, played = club_of(seed)
    rng = random.Random(seed)
    for _ in range(10):
        a, b = rng.sample(range(1, 13), 2)
        there, back = head_to_head(played, a, b), head_to_head(played, b, a)
        for game in GAMES:
            assert (there[game]["a_ahead"], there[game]["b_ahead"]) == (back[game]["b_ahead"], back[game]["a_ahead"])
            assert there[game]["matches"] == there[game]["a_ahead"] + there[game]["b_ahead"] + there[game]["level"]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_tally_kept_through_corrections_equals_the_standings_from_scratch(seed):
    rng = random.Random(seed)
    kept, final = club_of(seed, 20)
    tallies = {game: Tally(game) for game in GAMES}
    pairs = PairTally()
    now: dict[str, dict] = {}
    for k in rng.sample(kept, len(kept)):
        for entries in corrections(rng, k, rng.randint(1, 3)):  # a correction takes the old digest away
            played = k.played(entries)
            for tally in [*tallies.values(), pairs]:  # a tally of another game lets it pass
                if k.match in now:
                    tally.remove(now[k.match])
                if played is not None:
                    tally.add(played.digest)
            now.pop(k.match, None) if played is None else now.__setitem__(k.match, played.digest)
    for game, tally in tallies.items():
        for least in (1, 2, 3):
            assert tally.standings(least) == standings(game, final, least)
    assert pairs.partnerships() == partnerships(final)
    for p in final:
        tallies[p.digest["game"]].remove(p.digest)
        pairs.remove(p.digest)
    assert all(t.standings() == [] and t.sums == {} for t in tallies.values()) and pairs.counts == {}


# -- ratings ------------------------------------------------------------------------------------------------

def test_one_match_rates_as_openskill_does_by_finishing_place():
    played = barbu_played()[:1]  # Ann 1st, Bob 2nd, Dee 3rd, Cid 4th
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 4, 3])
    got = {r.player: r for r in ratings("barbu", played)}
    assert [r.player for r in ratings("barbu", played)] == [1, 2, 4, 3]
    for player, [rating] in zip([1, 2, 3, 4], expected):
        assert (got[player].mu, got[player].sigma, got[player].matches) == (rating.mu, rating.sigma, 1)
        assert got[player].ordinal == pytest.approx(rating.ordinal())


def test_kozyol_partners_rise_and_fall_together_the_goat_last():
    got = {r.player: r for r in ratings("kozyol", kozyol_played()[:1])}
    assert (got[1].mu, got[1].sigma) == (got[3].mu, got[3].sigma) > (got[2].mu, got[2].sigma)
    assert (got[2].mu, got[2].sigma) == (got[4].mu, got[4].sigma) and got[2].mu < 25 < got[1].mu


@pytest.mark.parametrize("seed", SEEDS)
def test_ratings_rate_every_seated_player_strongest_first_whatever_the_order_given(seed):
    _, played = club_of(seed)
    shuffled = list(played)
    random.Random(seed).shuffle(shuffled)
    for game in GAMES:
        rated = ratings(game, played)
        assert {r.player: r.matches for r in rated} == {s.player: s.matches for s in standings(game, played)}
        assert [r.ordinal for r in rated] == sorted((r.ordinal for r in rated), reverse=True)
        rating_module.forget_checkpoints()
        assert ratings(game, shuffled) == rated


@pytest.mark.parametrize("seed", SEEDS)
def test_ratings_after_shuffled_correction_histories_equal_those_of_the_final_entries(seed, monkeypatch):
    monkeypatch.setattr(rating_module, "CHECKPOINT", 3)  # resume from checkpoints often
    rng = random.Random(seed)
    kept, final = club_of(seed, 24)
    histories = {k.match: corrections(rng, k, rng.randint(1, 4)) for k in kept}
    for history in histories.values():  # the corrections of a match come in any order, the final one last
        rng.shuffle(earlier := history[:-1])
        history[:-1] = earlier
    results = {p.match: p for p in final[:len(final) // 2]}  # half the matches were finished before
    steps = [k for k in kept for _ in histories[k.match]]
    rng.shuffle(steps)
    for k in steps:
        now = k.played(histories[k.match].pop(0))
        results.pop(k.match, None) if now is None else results.__setitem__(k.match, now)
        for game in GAMES:
            ratings(game, list(results.values()))
    assert in_order(results.values()) == in_order(final)
    remembered = {game: ratings(game, list(results.values())) for game in GAMES}
    rating_module.forget_checkpoints()
    assert remembered == {game: ratings(game, final) for game in GAMES}
    assert remembered == {game: ratings(game, final[::-1]) for game in GAMES}


FIXED = club_of(7, 24)[1]


@settings(max_examples=25, deadline=None)
@given(order=st.permutations(range(len(FIXED))))
def test_no_figure_depends_on_the_order_the_matches_are_given_in(order):
    given_order = [FIXED[i] for i in order]
    for game in GAMES:
        assert standings(game, given_order, 2) == standings(game, FIXED, 2)
        assert ratings(game, given_order) == ratings(game, FIXED)
        assert player_stats(game, given_order, 3) == player_stats(game, FIXED, 3)
    assert partnerships(given_order) == partnerships(FIXED)
    assert head_to_head(given_order, 1, 2) == head_to_head(FIXED, 1, 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_ratings_resumed_from_a_kept_run_equal_ratings_from_scratch(seed, monkeypatch):
    """A run that changes anywhere (a result added among tonight's, one corrected, one taken away) resumes
    from the last state kept before the change and ends where a computation from scratch ends."""
    monkeypatch.setattr(rating_module, "STEP", 4)
    monkeypatch.setattr(rating_module, "TAIL", 24)
    rng = random.Random(seed)
    played = [p for p in club_of(seed, 120)[1] if p is not None]
    for game in GAMES:
        pool = [p for p in played if p.digest["game"] == game]
        run = rating_module.Rated.of(game, in_order(pool[:10]))
        current = list(pool[:10])
        for step in range(40):
            change = rng.choice(("add", "add", "drop", "correct"))
            if change == "add" and len(current) < len(pool):
                current = current + [pool[len(current)]]
            elif change == "drop" and current:
                del current[rng.randrange(len(current))]
            elif current:  # the same match again with its seats in another order: a new object
                at = rng.randrange(len(current))
                one = current[at]
                seats = list(one.digest["seats"])
                rng.shuffle(seats)
                current = [*current[:at], type(one)(one.match, one.day, {**one.digest, "seats": seats}),
                           *current[at + 1:]]
            matches = in_order(current)
            run = run.then(game, matches)
            rating_module.forget_checkpoints()
            assert run.table() == ratings(game, matches), (game, step, change)
