"""A player's best and worst Barbu contract, ranked as declarer and as defender apart, against averages
worked out by hand from the hand-scored match (docs/rules.md's worked examples 1-3 in Ann's and Cid's blocks).

Ann, seat 1 of the first match, per contract (her own block, then the three hands of each contract the
others declared): as declarer No Tricks -26, No Queens -12, No Hearts -30, No Last Two -30, Barbu -20,
Trumps 110, Dominoes 45; as defender No Hearts -40/3 (example 3 costs her 4 hearts and the ace: -40 in
three hands) and Dominoes 20/3 (20 for second place once, in three hands), every other contract 0.
"""

from __future__ import annotations

from helpers.played import barbu_played
from scorekeeper.club.engine.barbu import ranked_by
from scorekeeper.club.engine.stats import player_stats


def test_ann_ranks_her_contracts_as_declarer_and_as_defender_apart():
    stats = player_stats("barbu", barbu_played()[:1], 1)
    assert (stats["best_contract"], stats["worst_contract"]) == ("trumps", "no_hearts")
    assert (stats["best_as_defender"], stats["worst_as_defender"]) == ("dominoes", "no_hearts")
    assert stats["contracts"]["dominoes"]["as_defender"] == 20 / 3
    assert stats["contracts"]["no_hearts"]["as_defender"] == -40 / 3


def test_a_tie_goes_to_the_contract_better_overall():
    line = {"declared": 1, "defended": 3}
    contracts = {"no_tricks": {**line, "as_declarer": -26, "as_defender": 0, "overall": -6.5},
                 "trumps": {**line, "as_declarer": 110, "as_defender": 0, "overall": 27.5},
                 "barbu": {**line, "as_declarer": None, "as_defender": -20, "overall": -20}}
    assert ranked_by(contracts, "as_defender") == ["barbu", "no_tricks", "trumps"]
    assert ranked_by(contracts, "as_declarer") == ["no_tricks", "trumps"]


def test_nobody_has_a_best_or_worst_contract():
    stats = player_stats("barbu", barbu_played(), 6)
    assert (stats["best_as_defender"], stats["worst_as_defender"]) == (None, None)
