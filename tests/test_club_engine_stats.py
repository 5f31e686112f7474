"""The club engine: a player's statistics and head to head, from the hand-scored matches of test_club_engine.

Player ids: Ann 1, Bob 2, Cid 3, Dee 4, Eve 5, Fay 6. In the Barbu match Ann declares first; her block
holds worked examples 1 and 2 of docs/rules.md and Cid's holds example 3.
"""

from __future__ import annotations

import pytest

from helpers.played import barbu_played, hearts_played, kozyol_played
from scorekeeper.club.engine.stats import head_to_head, player_stats


def one_barbu_match():
    return barbu_played()[:1]


def test_barbu_averages_per_contract_as_declarer_and_as_defender():
    contracts = player_stats("barbu", one_barbu_match(), 1)["contracts"]
    assert {c: (line["as_declarer"], line["as_defender"]) for c, line in contracts.items()} == {
        "no_tricks": (-26, 0), "no_queens": (-12, 0), "no_hearts": (-30, -40 / 3), "no_last_two": (-30, 0),
        "barbu": (-20, 0), "trumps": (110, 0), "dominoes": (45, 20 / 3),
    }
    assert contracts["no_hearts"] == {"as_declarer": -30, "as_defender": -40 / 3, "overall": -17.5,
                                      "declared": 1, "defended": 3}


@pytest.mark.parametrize("player, made, net, doubled, redoubles", [
    (1, 3, -4 - 8 - 16, 5, 2),  # Ann doubles in example 3 only; doubled twice in 1, three times in 2
    (2, 6, 6 + 6 + 12 - 15 - 12 - 6, 1, 1),
    (3, 2, 0 - 50, 4, 1),
    (4, 2, -15 + 0, 3, 1),
])
def test_barbu_doubles_made_their_net_result_and_redoubles(player, made, net, doubled, redoubles):
    stats = player_stats("barbu", one_barbu_match(), player)
    assert (stats["doubles_made"], stats["doubles_net"], stats["doubled"], stats["redoubles"]) == (
        made, net, doubled, redoubles)


def test_barbu_best_and_worst_contract_by_average_as_declarer_then_overall():
    stats = player_stats("barbu", one_barbu_match(), 1)
    # No Hearts and No Last Two both cost Ann 30 as declarer; No Hearts cost her more overall.
    assert (stats["best_contract"], stats["worst_contract"]) == ("trumps", "no_hearts")
    assert (stats["matches"], stats["total"], stats["average"]) == (1, 17, 17)


def test_barbu_over_three_matches_and_for_a_player_who_never_played():
    stats = player_stats("barbu", barbu_played(), 2)  # Bob: seat 1, seat 0, seat 2
    assert (stats["matches"], stats["total"], stats["average"]) == (3, 6, 2)
    # Trumps: Bob declares 65 (plain), 110 (example 2), 65 (plain); defends for -45 once (example 2), else 0.
    assert stats["contracts"]["trumps"] == {"as_declarer": 80.0, "as_defender": -5.0, "overall": 16.25,
                                            "declared": 3, "defended": 9}
    nobody = player_stats("barbu", barbu_played(), 6)
    assert nobody["matches"] == 0 and nobody["average"] is None and nobody["best_contract"] is None
    assert nobody["contracts"]["barbu"]["as_declarer"] is None


def test_kozyol_deals_eggs_goats_and_best_partner():
    assert player_stats("kozyol", kozyol_played(), 1) == {
        "matches": 2, "deals": 6, "deals_won": 2, "eggs": 1, "goats": 1, "goats_with_eggs": 0,
        "best_partner": 3, "partners": {3: {"matches": 1, "deals_won": 2, "goats": 0},
                                        4: {"matches": 1, "deals_won": 0, "goats": 1}},
    }
    dee = player_stats("kozyol", kozyol_played(), 4)
    assert (dee["goats"], dee["goats_with_eggs"], dee["best_partner"]) == (2, 1, 2)


def test_hearts_average_per_hand_black_marias_moons_and_places():
    assert player_stats("hearts", hearts_played(), 1) == {
        "matches": 2, "hands": 3, "total": 70, "hearts": 18, "black_marias": 2, "moons": 0, "wins": 0,
        "average_per_hand": 70 / 3, "average_place": 5.0,
    }
    dee = player_stats("hearts", hearts_played(), 4)
    assert (dee["hearts"], dee["black_marias"], dee["moons"], dee["wins"], dee["average_per_hand"]) == (
        26, 2, 1, 2, 0.0)


def test_head_to_head_counts_who_finished_ahead_per_game():
    everything = barbu_played() + kozyol_played() + hearts_played()
    assert head_to_head(everything, 1, 2) == {
        # Barbu: Ann 17 / Bob 0, then 0 / -11. Kozyol: Ann's team wins, then Bob's. Hearts: 5th / 4th, then both 5th.
        "barbu": {"matches": 2, "a_ahead": 2, "b_ahead": 0, "level": 0},
        "kozyol": {"matches": 2, "a_ahead": 1, "b_ahead": 1, "level": 0, "partners": 0},
        "hearts": {"matches": 2, "a_ahead": 0, "b_ahead": 1, "level": 1},
    }
    assert head_to_head(everything, 1, 3)["kozyol"] == {"matches": 0, "a_ahead": 0, "b_ahead": 0, "level": 0,
                                                         "partners": 1}
    assert head_to_head(everything, 5, 6)["hearts"] == {"matches": 2, "a_ahead": 0, "b_ahead": 0, "level": 2}
    assert head_to_head(everything, 4, 1)["hearts"] == {"matches": 2, "a_ahead": 2, "b_ahead": 0, "level": 0}
