"""What shared code reads of every engine the same way: sides, their totals, running totals, rankings.

A side is who scores together: one player in Barbu and Hearts, a team of partners in Kozyol
(docs/rules.md). Charts and the table view read these and never branch on the game; the
refusal sentences below are the ones a player reads when an entry or an option is malformed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.games import GAMES, barbu, hearts, kozyol
from scorekeeper.games.base import InvalidHand, in_seat_order, ranking, running_totals

FOUR = ["Ann", "Bob", "Cid", "Dee"]
SIX = [*FOUR, "Eve", "Fay"]


def replay_of(slug: str, players: list[str], options: dict[str, Any] | None = None):
    game = GAMES[slug]
    return game.new_replay(players, game.parse_options(players, options or {}, random.Random(0)))


@pytest.mark.parametrize("totals, lowest, expected", [
    ({"A": 9, "B": 7, "C": 5, "D": 5}, False, [(1, "A", 9), (2, "B", 7), (3, "C", 5), (3, "D", 5)]),
    ({"A": 9, "B": 7, "C": 5, "D": 5}, True, [(1, "C", 5), (1, "D", 5), (3, "B", 7), (4, "A", 9)]),
    ({"A": 0, "B": 0, "C": 0}, False, [(1, "A", 0), (1, "B", 0), (1, "C", 0)]),
    ({"A": -3, "B": 4}, False, [(1, "B", 4), (2, "A", -3)]),
])
def test_ranking_shares_a_place_between_equal_totals(totals, lowest, expected):
    assert ranking(totals, lowest) == expected


def test_totals_in_seat_order_follow_the_players_not_the_mapping():
    assert in_seat_order({"Dee": 4, "Ann": 1, "Cid": 3, "Bob": 2}, FOUR) == [1, 2, 3, 4]


def test_barbu_sides_are_the_players_and_follow_every_hand():
    played = replay_of("barbu", FOUR, {"first_declarer": "Ann"})
    hands = [{"contract": "no_queens", "queens": {"Ann": 1, "Bob": 0, "Cid": 1, "Dee": 2}},
             {"contract": "trumps", "tricks": {"Ann": 6, "Bob": 3, "Cid": 1, "Dee": 3},
              "doubles": [{"by": "Bob", "target": "Ann", "redoubled": False}]}]
    for entry in hands:
        played.play(entry)
    assert played.sides == [["Ann"], ["Bob"], ["Cid"], ["Dee"]] and played.lowest_wins is False
    assert played.side_totals(played.hands[0]) == [-6, 0, -6, -12]
    assert played.side_totals(played.hands[1]) == [-6 + 45, 0, -6 + 5, -12 + 15]
    assert played.side_totals() == played.side_totals(played.hands[-1])
    assert running_totals(played) == [[0, -6, 39], [0, 0, 0], [0, -6, -1], [0, -12, 3]]


def test_kozyol_sides_are_the_teams_and_their_defeat_points():
    played = replay_of("kozyol", FOUR)
    for points in ([75, 45], [60, 60], [20, 100]):
        played.play({"points": points})
    assert played.sides == [["Ann", "Cid"], ["Bob", "Dee"]] and played.lowest_wins is True
    assert [played.side_totals(hand) for hand in played.hands] == [[0, 2], [0, 2], [4, 2]]
    assert played.side_totals() == [4, 2] == played.summary()["totals"]
    assert running_totals(played) == [[0, 0, 0, 4], [0, 2, 2, 2]]


def test_hearts_sides_are_the_players_lowest_first():
    played = replay_of("hearts", SIX)
    played.play({"hearts": dict(zip(SIX, [5, 4, 3, 6, 8, 0])), "black_marias": dict(zip(SIX, [1, 0, 0, 0, 1, 0]))})
    played.play({"hearts": dict(zip(SIX, [0, 0, 0, 0, 0, 26])), "black_marias": dict(zip(SIX, [0, 0, 0, 0, 0, 2]))
                 } | {"moon": "subtract"})
    assert played.sides == [[name] for name in SIX] and played.lowest_wins is True
    assert played.side_totals(played.hands[0]) == [18, 4, 3, 6, 21, 0]
    assert played.side_totals() == [18, 4, 3, 6, 21, -26]
    assert running_totals(played) == [[0, 18, 18], [0, 4, 4], [0, 3, 3], [0, 6, 6], [0, 21, 21], [0, 0, -26]]


@pytest.mark.parametrize("slug, players", [("barbu", FOUR), ("kozyol", FOUR), ("hearts", SIX)])
def test_a_fresh_match_has_one_line_per_side_at_zero(slug, players):
    played = replay_of(slug, players)
    assert running_totals(played) == [[0] for _ in played.sides]
    assert played.side_totals() == [0] * len(played.sides)
    assert played.finished is False


# -- the sentences a malformed entry or option gets (English; the pages translate them) --------


def refused(slug: str, entry: Any, players: list[str] = FOUR, options: dict[str, Any] | None = None) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        replay_of(slug, players, options).play(entry)
    return info.value


@pytest.mark.parametrize("entry, field, sentence", [
    ([], "entry", "A hand must be an object."),
    ({"contract": "slam"}, "contract", "Choose one of the seven contracts."),
    ({"contract": "no_queens", "queens": {"Ann": 1, "Bob": 1, "Cid": 1, "Zed": 1}}, "queens",
     "Zed is not a player in this match."),
    ({"contract": "no_queens", "queens": {"Ann": 1, " Ann": 1, "Bob": 1, "Cid": 1}}, "queens",
     "Give one number per player, each player once."),
    ({"contract": "no_queens", "queens": {"Ann": 1, "Bob": 1, "Cid": 2}}, "queens", "Enter a number for Dee."),
    ({"contract": "no_hearts", "hearts": {"Ann": 0, "Bob": 5, "Cid": 4, "Dee": 4}, "ace_of_hearts": "Ann"},
     "ace_of_hearts", "Ann took the ace of hearts, so Ann took at least one heart."),
    ({"contract": "dominoes", "order": "Ann"}, "order", "Put all four players in finishing order, each once."),
    ({"contract": "dominoes", "order": ["Ann", "Bob", "Cid", "Cid"]}, "order",
     "Put all four players in finishing order, each once."),
    ({"contract": "barbu", "king_of_hearts": "Bob", "doubles": [{"by": "Bob", "target": "Bob"}]}, "doubles",
     "Bob cannot double themselves."),
    ({"contract": "barbu", "king_of_hearts": "Bob", "doubles": [{"by": "Ann", "target": "Bob"}]}, "doubles",
     "The declarer never starts a double; Ann may only redouble."),
    ({"contract": "trumps", "tricks": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3},
      "doubles": [{"by": "Bob", "target": "Cid"}]}, "doubles", "In this contract only the declarer may be doubled."),
    ({"contract": "barbu", "king_of_hearts": "Bob",
      "doubles": [{"by": "Bob", "target": "Cid"}, {"by": "Cid", "target": "Bob"}]}, "doubles",
     "Cid and Bob cannot double each other twice; doubling back is the redouble."),
    ({"contract": "barbu", "king_of_hearts": "Bob", "doubles": [{"by": "Bob", "target": "Ann", "redoubled": "yes"}]},
     "doubles", "Answer yes or no (true or false)."),
    ({"contract": "no_tricks", "tricks": [4, 3, 3, 3]}, "tricks", "Give one number per player."),
    ({"contract": "trumps", "tricks": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}, "trump_suit": "stars"},
     "trump_suit", "Choose one of: spades, hearts, diamonds, clubs."),
])
def test_barbu_refusals_read_as_written(entry, field, sentence):
    err = refused("barbu", entry, options={"first_declarer": "Ann"})
    assert err.fields == {field: sentence}


def test_barbu_a_contract_named_twice_names_the_declarer_and_the_contract():
    played = replay_of("barbu", FOUR, {"first_declarer": "Ann"})
    played.play({"contract": "barbu", "king_of_hearts": "Bob"})
    with pytest.raises(InvalidHand) as info:
        played.play({"contract": "barbu", "king_of_hearts": "Cid"})
    assert info.value.fields == {"contract": "Ann has already played Barbu in this block."}


def test_barbu_no_hand_after_the_last_one():
    played = replay_of("barbu", FOUR, {"first_declarer": "Ann", "enforce_declarer_doubles": False})
    cards = {"no_tricks": {"tricks": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}},
             "no_queens": {"queens": {"Ann": 1, "Bob": 1, "Cid": 1, "Dee": 1}},
             "no_hearts": {"hearts": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}, "ace_of_hearts": "Ann"},
             "no_last_two": {"second_last": "Ann", "last": "Bob"}, "barbu": {"king_of_hearts": "Cid"},
             "trumps": {"tricks": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}},
             "dominoes": {"order": ["Ann", "Bob", "Cid", "Dee"]}}
    for _block in range(barbu.SEATS):
        for contract in barbu.CONTRACTS:
            played.play({"contract": contract, **cards[contract]})
    with pytest.raises(InvalidHand) as info:
        played.play({"contract": "barbu", "king_of_hearts": "Cid"})
    assert info.value.fields == {"number": f"All {barbu.HANDS} hands have been played."}


@pytest.mark.parametrize("slug, players, options, field, sentence", [
    ("barbu", FOUR, [], "options", "Options must be an object."),
    ("hearts", SIX, {"target": 150, "colour": "red"}, "options", "Unknown option: colour."),
    ("barbu", FOUR, {"domino_scores": [45, 20, 5]}, "domino_scores", "Give four whole numbers, first place to last."),
    ("barbu", FOUR, {"domino_scores": [20, 45, 5, -5]}, "domino_scores",
     f"The four scores must go down from first place and add up to {barbu.DOMINO_TOTAL}."),
    ("kozyol", FOUR, {"target": 0}, "target", "Enter a number from 1 to 100."),
    ("hearts", SIX, {"moon_points": 30}, "moon_points", "Shooting the moon counts either 26 or 52 points."),
])
def test_option_refusals_read_as_written(slug, players, options, field, sentence):
    with pytest.raises(InvalidHand) as info:
        GAMES[slug].parse_options(players, options, random.Random(0))
    assert info.value.fields == {field: sentence}


def test_barbu_next_hand_names_declarer_dealer_and_cutter():
    upcoming = replay_of("barbu", FOUR, {"first_declarer": "Bob"}).next()
    assert (upcoming["declarer"], upcoming["dealer"], upcoming["cutter"]) == ("Bob", "Ann", "Dee")


def test_kozyol_a_losing_team_with_no_points_but_a_trick_takes_the_heavy_defeat_by_default():
    assert kozyol.score_deal([0, 120], [3, 6]) == (0, [kozyol.DEFEAT["heavy"], 0])


def test_the_engines_constants_behind_those_sentences():
    assert (barbu.DOMINO_TOTAL, kozyol.TARGET_RANGE, hearts.MOON_POINTS) == (65, (1, 100), (26, 52))
