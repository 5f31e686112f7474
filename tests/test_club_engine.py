"""The club engine: digests and standings of finished matches, from tables scored by hand from docs/rules.md.

Player ids: Ann 1, Bob 2, Cid 3, Dee 4, Eve 5, Fay 6.
"""

from __future__ import annotations

import datetime
import json
import random

import pytest

from helpers.club_matches import FOUR, SIX, random_match, replay_of, scripted_barbu_replay
from helpers.played import DAY, barbu_played, hearts_entry, hearts_played, kozyol_played
from scorekeeper.club.engine.digest import Played, digest, in_order
from scorekeeper.club.engine.standings import Partnership, Standing, partnerships, standings


def test_a_kozyol_digest_gives_each_seat_its_teams_figures():
    # Ann and Cid (seats 0, 2) against Bob and Dee (1, 3), to 4: light, eggs, light, light.
    replay = replay_of("kozyol", FOUR, {"target": 4}, [{"points": p} for p in ([75, 45], [60, 60], [45, 75], [85, 35])])
    assert digest("kozyol", [7, 8, 9, 10], replay) == {
        "game": "kozyol", "seats": [7, 8, 9, 10], "hands": 4,
        "totals": [2, 4, 2, 4], "places": [1, 2, 1, 2], "winners": [0, 2],
        "teams": [[0, 2], [1, 3]], "deals": [1, None, 0, 1], "goat": 1, "goat_with_eggs": True,
    }


def test_a_hearts_digest_counts_hearts_black_marias_and_moons():
    # Hand 1: 18, 10, 24, 0, 0, 0. Hand 2: Dee shoots the moon and adds 26 to everyone else.
    entries = [hearts_entry([5, 10, 11, 0, 0, 0], [1, 0, 1, 0, 0, 0]),
               hearts_entry([0, 0, 0, 26, 0, 0], [0, 0, 0, 2, 0, 0], "add")]
    replay = replay_of("hearts", SIX, {"target": 26, "moon_points": 26}, entries)
    assert digest("hearts", [1, 2, 3, 4, 5, 6], replay) == {
        "game": "hearts", "seats": [1, 2, 3, 4, 5, 6], "hands": 2,
        "totals": [44, 36, 50, 0, 26, 26], "places": [5, 4, 6, 1, 2, 2], "winners": [3],
        "hearts": [5, 10, 11, 26, 0, 0], "black_marias": [1, 0, 1, 2, 0, 0], "moons": [0, 0, 0, 1, 0, 0],
    }


def test_a_barbu_digest_has_every_contract_and_every_double():
    replay, _ = random_match(random.Random(3), "barbu")
    made = digest("barbu", [4, 3, 2, 1], replay)
    assert made["hands"] == len(made["contracts"]) == 28
    for hand, (contract, declarer, scores) in zip(replay.hands, made["contracts"]):
        assert (contract, replay.players[declarer]) == (hand["contract"], hand["declarer"])
        assert scores == [hand["scores"][p] for p in replay.players]
    assert [sum(s[seat] for _, _, s in made["contracts"]) for seat in range(4)] == made["totals"]
    moved = [[replay.players[by], replay.players[target], redoubled, n] for by, target, redoubled, n in made["doubles"]]
    assert moved == [[t["by"], t["target"], t["weight"] == 2, t["moved"]] for h in replay.hands for t in h["settlement"]]


@pytest.mark.parametrize("game", ["barbu", "kozyol", "hearts"])
def test_no_digest_until_the_match_is_finished_and_then_plain_json(game):
    replay, entries = random_match(random.Random(11), game)
    seats = list(range(len(replay.players)))
    unfinished = replay_of(game, replay.players, replay.options, entries[:-1])
    assert digest(game, seats, unfinished) is None
    made = digest(game, seats, replay)
    assert json.loads(json.dumps(made)) == made
    assert made["places"].count(1) == len(made["winners"]) >= 1


def test_played_matches_are_taken_by_day_then_by_match():
    later = Played("aa", DAY + datetime.timedelta(days=1), {})
    assert in_order([later, Played("zz", DAY, {}), Played("bb", DAY, {})]) == [
        Played("bb", DAY, {}), Played("zz", DAY, {}), later]


def test_the_hand_scored_barbu_match_digests_to_its_worked_examples():
    made = digest("barbu", [1, 2, 3, 4], scripted_barbu_replay())
    assert (made["totals"], made["places"], made["winners"]) == ([17, 0, -11, -6], [1, 2, 4, 3], [0])
    assert made["contracts"][:2] == [["no_queens", 0, [-12, 24, -12, -24]], ["trumps", 0, [110, 0, -45, 0]]]
    assert made["contracts"][16] == ["no_hearts", 2, [-40, -24, 16, 18]]
    assert made["doubles"] == [
        [1, 0, False, 6], [1, 2, False, 6], [1, 3, False, 12], [2, 0, True, 0],  # example 1
        [1, 0, False, -15], [2, 0, True, -50], [3, 0, False, -15],  # example 2
        [0, 1, True, -4], [0, 2, False, -8], [0, 3, True, -16], [1, 2, True, -12], [1, 3, False, -6],
        [3, 2, False, 0],  # example 3
    ]


# -- standings --------------------------------------------------------------------------------------------

def table(rows: list[Standing]) -> list[tuple]:
    return [(s.player, s.matches, s.ranked, s.place, s.figures) for s in rows]


def test_barbu_standings_rank_by_average_then_total():
    assert table(standings("barbu", barbu_played())) == [
        (1, 2, True, 1, {"average": 8.5, "total": 17, "wins": 1}),
        (5, 2, True, 2, {"average": 5.5, "total": 11, "wins": 1}),
        (2, 3, True, 3, {"average": 2.0, "total": 6, "wins": 1}),
        (3, 3, True, 4, {"average": -17 / 3, "total": -17, "wins": 0}),
        (4, 2, True, 5, {"average": -8.5, "total": -17, "wins": 0}),
    ]


def test_players_under_the_minimum_are_listed_unranked_at_the_end():
    rows = standings("barbu", barbu_played(), min_matches=3)
    assert [(s.player, s.ranked, s.place) for s in rows] == [
        (2, True, 1), (3, True, 2), (1, False, None), (5, False, None), (4, False, None)]


def test_kozyol_standings_rank_by_goats_per_match_then_deals_won_and_partners_share_a_place():
    assert table(standings("kozyol", kozyol_played())) == [
        (3, 1, True, 1, {"goats": 0, "goats_with_eggs": 0, "deals_won": 2, "deals": 4, "goats_per_match": 0.0}),
        (5, 1, True, 1, {"goats": 0, "goats_with_eggs": 0, "deals_won": 2, "deals": 2, "goats_per_match": 0.0}),
        (2, 2, True, 3, {"goats": 1, "goats_with_eggs": 1, "deals_won": 3, "deals": 6, "goats_per_match": 0.5}),
        (1, 2, True, 4, {"goats": 1, "goats_with_eggs": 0, "deals_won": 2, "deals": 6, "goats_per_match": 0.5}),
        (4, 2, True, 5, {"goats": 2, "goats_with_eggs": 1, "deals_won": 1, "deals": 6, "goats_per_match": 1.0}),
    ]


def test_kozyol_partnerships():
    assert partnerships(kozyol_played()) == [
        Partnership((1, 3), matches=1, goats=0, goats_with_eggs=0, deals=4, deals_won=2),
        Partnership((2, 5), matches=1, goats=0, goats_with_eggs=0, deals=2, deals_won=2),
        Partnership((2, 4), matches=1, goats=1, goats_with_eggs=1, deals=4, deals_won=1),
        Partnership((1, 4), matches=1, goats=1, goats_with_eggs=0, deals=2, deals_won=0),
    ]


def test_hearts_standings_rank_by_wins_then_average_place():
    rows = standings("hearts", hearts_played())
    assert [(s.player, s.place, s.figures["wins"], s.figures["average_place"]) for s in rows] == [
        (4, 1, 2, 1.0), (5, 2, 1, 1.5), (6, 2, 1, 1.5), (3, 4, 1, 3.5), (2, 5, 0, 4.5), (1, 6, 0, 5.0)]
    assert rows[-1].figures["average"] == (44 + 26) / 2


def test_each_game_keeps_to_its_own_matches():
    everything = barbu_played() + kozyol_played() + hearts_played()
    assert standings("kozyol", everything) == standings("kozyol", kozyol_played())
    assert standings("barbu", []) == [] and partnerships(barbu_played()) == []
