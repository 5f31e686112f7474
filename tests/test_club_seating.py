"""The seating of a club evening (scorekeeper.club.engine.seating), from tables worked out by hand.

Barbu and Kozyol sit 4 to a table, Hearts 6 to 11; the bounds below are the games' own, restated.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from helpers.seating import most_met, repeats, season, seated
from scorekeeper.club.engine.seating import (
    History,
    Round,
    Table,
    draw,
    evening,
    greedy_draw,
    history_of,
    met_again,
    partners,
    plan,
    repeat_meetings,
    round_seed,
    swap,
)
from scorekeeper.refusals import Refusal

SEEDS = range(4)
TOO_FEW = "These tables need at least {count} players; players here: {present}."
# Hearts: players -> table sizes (as few tables as seat everyone, sizes as even as possible).
HEARTS = {6: [6], 7: [7], 8: [8], 9: [9], 10: [10], 11: [11], 12: [6, 6], 13: [7, 6], 14: [7, 7], 15: [8, 7],
          16: [8, 8], 17: [9, 8], 18: [9, 9], 19: [10, 9], 20: [10, 10], 21: [11, 10], 22: [11, 11],
          23: [8, 8, 7], 24: [8, 8, 8], 25: [9, 8, 8]}


def refusal(call, *args) -> dict[str, str]:
    with pytest.raises(Refusal) as caught:
        call(*args)
    return caught.value.fields


@pytest.mark.parametrize("count", range(26))
@pytest.mark.parametrize("game", ["barbu", "kozyol"])
def test_games_of_four_seat_four_a_table_and_the_rest_sit_out(game, count):
    if count < 4:
        assert refusal(plan, game, count) == {"players": TOO_FEW.format(count=4, present=count)}
    else:
        assert plan(game, count) == ([(game, 4)] * (count // 4), count % 4)


@pytest.mark.parametrize("count", range(26))
def test_hearts_seats_everyone_at_as_few_tables_as_even_as_can_be(count):
    if count < 6:
        assert refusal(plan, "hearts", count) == {"players": TOO_FEW.format(count=6, present=count)}
    else:
        assert plan("hearts", count) == ([("hearts", size) for size in HEARTS[count]], 0)


@pytest.mark.parametrize(("games", "count", "tables", "out"), [
    (["kozyol", "hearts"], 10, [("kozyol", 4), ("hearts", 6)], 0),
    (["kozyol", "hearts"], 15, [("kozyol", 4), ("hearts", 11)], 0),
    (["kozyol", "hearts"], 16, [("kozyol", 4), ("hearts", 11)], 1),
    (["hearts", "barbu", "hearts"], 16, [("hearts", 6), ("barbu", 4), ("hearts", 6)], 0),
    (["hearts", "barbu", "hearts"], 19, [("hearts", 8), ("barbu", 4), ("hearts", 7)], 0),
    (["hearts", "barbu", "hearts"], 30, [("hearts", 11), ("barbu", 4), ("hearts", 11)], 4),
    (["barbu", "barbu"], 9, [("barbu", 4), ("barbu", 4)], 1),
    (["barbu"], 4, [("barbu", 4)], 0),
])
def test_a_list_of_games_gives_those_tables_in_order(games, count, tables, out):
    assert plan(games, count) == (tables, out)


@pytest.mark.parametrize(("games", "count", "needed"), [
    (["kozyol", "hearts"], 9, 10), (["barbu", "barbu"], 7, 8), (["hearts", "hearts"], 11, 12), (["kozyol"], 0, 4),
])
def test_too_few_for_the_tables_asked_is_refused(games, count, needed):
    assert refusal(plan, games, count) == {"players": TOO_FEW.format(count=needed, present=count)}


@pytest.mark.parametrize("game", ["chess", [], ["barbu", "whist"]])
def test_a_game_the_engine_does_not_know_is_refused(game):
    assert list(refusal(plan, game, 8)) == ["game"]
    assert list(refusal(draw, list(range(8)), game, History(), 1)) == ["game"]


def test_a_player_listed_twice_is_refused():
    assert refusal(draw, [1, 2, 3, 4, 4], "barbu", History(), 1) == {"players": "List each player once."}


@pytest.mark.parametrize("seed", SEEDS)
def test_eight_players_three_rounds_of_barbu_seat_the_fewest_pairs_again(seed):
    """Round 2 already repeats: each of its tables takes 4 players from round 1's two tables, so two of them
    sat together; at best 4 pairs, two from each old table at each new one. Round 3 seats 4 pairs again at
    best too (counted over the 35 ways to split 8 players in two), and those 4 then meet a third time:
    seating 8 pairs a second time instead, as the draw once did to spare a third meeting, seats more
    people with someone they played tonight.
    """
    rounds = evening(list(range(8)), "barbu", History(), 3, seed)
    assert [len(met_again(drawn, rounds[:at])) for at, drawn in enumerate(rounds)] == [0, 4, 4]
    assert repeats(rounds) == 8 and most_met(rounds) == 3


@pytest.mark.parametrize("seed", SEEDS)
def test_sixteen_players_five_rounds_never_meet_twice(seed):
    """The social golfers' bound: 16 players at 4 tables of 4 meet 3 new people a round, 15 in all.

    So at most 5 rounds go without anyone meeting twice, and 5 can (the lines of the affine plane of order
    4). Drawn one round after another that is not always reached: round 3 must leave a round 4 that fits
    (not every one does), which the draw looks one round ahead for. A sixth round repeats every pair at it.
    """
    rounds = evening(list(range(16)), "barbu", History(), 6, seed)
    assert most_met(rounds[:5]) == 1
    assert all(count == 1 for count in season(rounds[:5]).met.values()) and len(season(rounds[:5]).met) == 120
    assert repeat_meetings(rounds[5], season(rounds[:5])) == 4 * 6


def test_twelve_players_repeat_from_round_two_as_eight_do():
    """Three tables of 4 and a table of round 2 takes 4 players from 3 old tables: two sat together."""
    rounds = evening(list(range(12)), "barbu", History(), 2, 7)
    assert repeats(rounds) == 3  # one pair per table, the least


@pytest.mark.parametrize("seed", SEEDS)
def test_kozyol_four_players_three_rounds_partner_everyone(seed):
    rounds = evening([11, 12, 13, 14], "kozyol", History(), 3, seed)
    partnered = season(rounds).partnered
    assert partnered == {pair: 1 for pair in combinations([11, 12, 13, 14], 2)}


@pytest.mark.parametrize("players", [8, 12, 16])
def test_kozyol_three_rounds_give_everyone_three_partners(players):
    for seed in SEEDS:
        rounds = evening(list(range(players)), "kozyol", History(), 3, seed)
        assert set(season(rounds).partnered.values()) == {1} and len(season(rounds).partnered) == players * 3 // 2


def test_kozyol_partners_are_drawn_when_nobody_partnered_yet():
    drawn = {frozenset(partners("kozyol", draw([1, 2, 3, 4], "kozyol", History(), seed).tables[0].seats))
             for seed in range(20)}
    assert drawn == {frozenset({(1, 2), (3, 4)}), frozenset({(1, 3), (2, 4)}), frozenset({(1, 4), (2, 3)})}


def test_kozyol_partners_sit_opposite_and_those_who_partnered_least_are_partners():
    history = history_of([("kozyol", (1, 3, 2, 4))] * 5 + [("kozyol", (1, 2, 3, 4))] * 2)  # 1&2, 3&4 five times
    for seed in SEEDS:
        table = draw([1, 2, 3, 4], "kozyol", history, seed).tables[0]
        assert sorted(partners("kozyol", table.seats)) == [(1, 4), (2, 3)]
        assert {table.seats[0], table.seats[2]} in ({1, 4}, {2, 3})


def test_the_seat_order_and_the_first_declarer_are_drawn():
    firsts = {draw([1, 2, 3, 4], "barbu", History(), seed).tables[0].seats[0] for seed in range(40)}
    orders = {draw([1, 2, 3, 4], "barbu", History(), seed).tables[0].seats for seed in range(40)}
    assert firsts == {1, 2, 3, 4} and len(orders) > 10


def test_those_who_met_least_sit_together():
    # 1-4 met five times each, 5-8 too, across never: each table takes two from each four, 2 pairs of 5 each.
    history = history_of([("barbu", (1, 2, 3, 4)), ("barbu", (5, 6, 7, 8))] * 5)
    for seed in SEEDS:
        drawn = draw(range(1, 9), "barbu", history, seed)
        assert repeat_meetings(drawn, history) == 20
        assert all(len(set(table.seats) & {1, 2, 3, 4}) == 2 for table in drawn.tables)


def test_nine_players_sit_out_once_each_before_anyone_twice():
    rounds = evening(list(range(1, 10)), "barbu", History(), 9, 3)
    out = [drawn.sat_out for drawn in rounds]
    assert all(len(players) == 1 for players in out)
    assert sorted(player for players in out for player in players) == list(range(1, 10))


def test_the_seasons_sit_outs_count_first_and_ties_are_drawn():
    history = History(sat_out={1: 2, 2: 2, 3: 1, 4: 1, 5: 1})  # 6 and 7 have never sat out
    thirds = set()
    for seed in range(12):
        out = draw(range(1, 8), "barbu", history, seed).sat_out
        assert len(out) == 3 and {6, 7} < set(out)
        thirds |= set(out) - {6, 7}
    assert thirds == {3, 4, 5}


def test_someone_leaving_after_round_two_changes_round_three_only():
    present = list(range(1, 14))
    rounds = evening(present, "barbu", History(), 3, 21)
    assert evening(present, "barbu", History(), 2, 21) == rounds[:2]
    so_far = season(rounds[:2])
    assert draw(present, "barbu", so_far, round_seed(21, 2), tonight=rounds[:2]) == rounds[2]
    gone = rounds[2].tables[0].seats[0]
    again = draw([p for p in present if p != gone], "barbu", so_far, round_seed(21, 2), tonight=rounds[:2])
    assert gone not in seated(again) + list(again.sat_out) and again != rounds[2]


def test_the_same_seed_draws_the_same_and_other_seeds_differ():
    history = history_of([("hearts", tuple(range(1, 9))), ("barbu", (1, 9, 10, 11))])
    present = list(range(1, 21))
    assert draw(present, "hearts", history, 5) == draw(present, "hearts", history, 5)
    assert draw(list(reversed(present)), "hearts", history, 5) == draw(present, "hearts", history, 5)
    assert len({draw(present, "barbu", history, seed) for seed in range(6)}) > 1


def test_a_list_of_games_gives_its_tables_in_order():
    drawn = draw(range(1, 17), ["kozyol", "hearts", "barbu"], History(), 2)
    assert [(table.game, len(table.seats)) for table in drawn.tables] == [("kozyol", 4), ("hearts", 8),
                                                                         ("barbu", 4)]
    assert sorted(seated(drawn)) == list(range(1, 17)) and drawn.sat_out == ()


def test_the_search_meets_no_more_than_the_greedy_tables():
    history = history_of([("barbu", tuple(range(k, k + 4))) for k in range(1, 30)])
    for seed in SEEDS:
        assert repeat_meetings(draw(range(1, 33), "barbu", history, seed), history) <= repeat_meetings(
            greedy_draw(range(1, 33), "barbu", history, seed), history)


ROUND = Round((Table("kozyol", (1, 2, 3, 4)), Table("barbu", (5, 6, 7, 8))), (9, 10))


@pytest.mark.parametrize(("a", "b", "tables", "out"), [
    (1, 6, ((6, 2, 3, 4), (5, 1, 7, 8)), (9, 10)),
    (10, 3, ((1, 2, 10, 4), (5, 6, 7, 8)), (3, 9)),
    (9, 10, ((1, 2, 3, 4), (5, 6, 7, 8)), (9, 10)),
    (2, 2, ((1, 2, 3, 4), (5, 6, 7, 8)), (9, 10)),
])
def test_the_admin_swaps_two_people(a, b, tables, out):
    assert swap(ROUND, a, b) == Round((Table("kozyol", tables[0]), Table("barbu", tables[1])), out)


def test_swapping_someone_not_in_the_round_is_refused():
    assert refusal(swap, ROUND, 1, 11) == {"players": "Choose two players of this round."}


def test_the_history_counts_meetings_partners_and_sit_outs():
    made = history_of([("kozyol", (1, 2, 3, 4)), ("hearts", (1, 2, 3, 4, 5, 6))], {7: 2})
    assert made.met[(1, 2)] == 2 and made.met[(5, 6)] == 1 and made.partnered == {(1, 3): 1, (2, 4): 1}
    later = made.after(ROUND)
    assert later.met[(1, 2)] == 3 and later.partnered == {(1, 3): 2, (2, 4): 2}
    assert later.sat_out == {7: 2, 9: 1, 10: 1} and made.sat_out == {7: 2}
