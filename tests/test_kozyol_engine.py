"""Kozyol rules engine: rows straight from docs/rules.md section 2, refusals, and random series."""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

from helpers.kozyol import ALL, play_deal
from helpers.matches import PLAYERS
from scorekeeper.games import kozyol
from scorekeeper.games.base import InvalidHand
from scorekeeper.games.kozyol import GAME, KozyolReplay, parse_options

TEAM_NAMES = [["Ann", "Cid"], ["Bob", "Dee"]]
NONE = {"A": 0, "10": 0, "K": 0, "Q": 0, "J": 0}
FIELDS = {"points", "cards", "tricks", "trump_suit", "last_trick", "number", "entry"}


def rules_defeat(points: int, tricks: int | None, six_for_zero_points: bool = False) -> int:
    """Defeat points of a losing team, written out from the table of docs/rules.md 2.3 (not from the engine)."""
    assert 0 <= points <= 59
    if 31 <= points <= 59:
        return 2
    if tricks == 0:
        return 6
    if six_for_zero_points and points == 0:
        return 6
    return 4


def replay(**options: Any) -> KozyolReplay:
    return KozyolReplay(PLAYERS, parse_options(PLAYERS, {"target": 100, **options}, None))


def deal(points: list[int], tricks: list[int | None] | None = None, **notes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"points": points, **notes}
    if tricks is not None:
        entry["tricks"] = tricks
    return entry


def refused(game: KozyolReplay, entry: Any) -> InvalidHand:
    """Record entry, expect a refusal, and check the replay did not change."""
    before = (len(game.hands), list(game.totals))
    with pytest.raises(InvalidHand) as info:
        game.play(entry)
    err = info.value
    assert set(err.fields) <= FIELDS, err.fields
    assert all(str(reason) for _, reason in err.errors)  # every template fills in
    assert (len(game.hands), list(game.totals)) == before
    return err


# -- worked examples ----------------------------------------------------------------------

# (points [team 0, team 1], tricks, losing team, defeat points): docs/rules.md section 2.3.
EXAMPLES = [
    pytest.param([75, 45], None, 1, 2, id="75:45"),
    pytest.param([29, 91], None, 0, 4, id="29:91"),
    pytest.param([60, 60], None, None, 0, id="60:60 eggs"),
    pytest.param([120, 0], [9, 0], 1, 6, id="120:0 no trick"),
    pytest.param([120, 0], [None, 0], 1, 6, id="120:0 no trick, winner's tricks unknown"),
    pytest.param([120, 0], [7, 2], 1, 4, id="120:0 two tricks"),
    pytest.param([120, 0], [None, 2], 1, 4, id="120:0 two tricks, winner's tricks unknown"),
    pytest.param([90, 30], None, 1, 4, id="90:30"),
    pytest.param([89, 31], None, 1, 2, id="89:31"),
    pytest.param([61, 59], None, 1, 2, id="61:59"),
]


@pytest.mark.parametrize("mirrored", [False, True], ids=["as written", "teams swapped"])
@pytest.mark.parametrize("points, tricks, loser, defeat", EXAMPLES)
def test_worked_examples(points, tricks, loser, defeat, mirrored):
    if mirrored:
        points = points[::-1]
        tricks = tricks[::-1] if tricks else None
        loser = None if loser is None else 1 - loser
    expected = [0, 0]
    if loser is not None:
        expected[loser] = defeat
    hand = replay().play(deal(points, tricks))
    assert hand["loser"] == loser
    assert hand["eggs"] is (loser is None)
    assert hand["defeat_points"] == expected
    assert hand["totals"] == expected
    assert hand["multiplier"] == 1
    assert hand["entry"]["points"] == points


LOSER_ROWS = [
    (points, tricks)
    for points in range(60)
    if points != 1
    for tricks in ([0, 1, 2] if points == 0 else [None, 1, 4])
]


@pytest.mark.parametrize("six", [False, True])
@pytest.mark.parametrize("points, tricks", LOSER_ROWS)
def test_every_losing_score_follows_the_table(points, tricks, six):
    hand = replay(six_for_zero_points=six).play(deal([120 - points, points], [None, tricks]))
    assert hand["defeat_points"] == [0, rules_defeat(points, tricks, six)]


# -- options ------------------------------------------------------------------------------


def test_options_defaults_are_filled_in_and_the_first_dealer_is_not_drawn():
    expected = {"target": 12, "eggs_double_next": False, "six_for_zero_points": False, "first_dealer": "Ann"}
    for seed in range(5):
        assert parse_options(PLAYERS, None, random.Random(seed)) == expected
        assert parse_options(PLAYERS, {}, random.Random(seed)) == expected


def test_options_given():
    raw = {"target": 100, "eggs_double_next": True, "six_for_zero_points": True, "first_dealer": " Cid "}
    assert parse_options(PLAYERS, raw, None) == {**raw, "first_dealer": "Cid"}
    assert parse_options(PLAYERS, {"target": 1}, None)["target"] == 1


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"target": 0}, "target"),
        ({"target": 101}, "target"),
        ({"target": "12"}, "target"),
        ({"target": True}, "target"),
        ({"target": 12.0}, "target"),
        ({"eggs_double_next": "yes"}, "eggs_double_next"),
        ({"eggs_double_next": 1}, "eggs_double_next"),
        ({"six_for_zero_points": 0}, "six_for_zero_points"),
        ({"first_dealer": "Zed"}, "first_dealer"),
        ({"first_dealer": 2}, "first_dealer"),
        # Left out, an option has its default; null or "" is no value (the API's schema refuses them too).
        ({"target": None}, "target"),
        ({"eggs_double_next": None}, "eggs_double_next"),
        ({"six_for_zero_points": None}, "six_for_zero_points"),
        ({"first_dealer": None}, "first_dealer"),
        ({"first_dealer": ""}, "first_dealer"),
        ({"goat": 12}, "options"),
        ("target=12", "options"),
        ([12], "options"),
    ],
)
def test_bad_options_are_refused(raw, field):
    with pytest.raises(InvalidHand) as info:
        parse_options(PLAYERS, raw, None)
    assert list(info.value.fields) == [field]


def test_three_players_are_refused():
    with pytest.raises(InvalidHand) as info:
        parse_options(PLAYERS[:3], {}, None)
    assert list(info.value.fields) == ["players"]


@pytest.mark.parametrize(
    "target, losses, deals_to_finish",
    [
        (12, [4, 4, 4], 3),  # default target
        (12, [4, 4, 2, 2], 4),
        (12, [2, 4, 6], 3),  # 12 exactly
        (12, [6, 4, 4], 3),  # passes the target: 14
        (1, [2], 1),
        (5, [4, 2], 2),
        (6, [2, 2, 2], 3),
        (20, [6, 6, 6, 2], 4),
    ],
)
def test_target_ends_the_series(target, losses, deals_to_finish):
    entries = {2: deal([75, 45]), 4: deal([90, 30]), 6: deal([120, 0], [9, 0])}
    game = KozyolReplay(PLAYERS, parse_options(PLAYERS, {"target": target}, None))
    for number, loss in enumerate(losses, 1):
        game.play(entries[loss])
        assert game.summary()["finished"] is (number >= deals_to_finish)
        assert game.summary()["totals"] == [0, sum(losses[:number])]
    assert len(game.hands) == deals_to_finish


# Deals by who loses what: L4 is lost by team 0 (29:91), L2, L6 and the rest by team 1, W6 by team 0.
EGGS, L2, L4, L6, W6 = deal([60, 60]), deal([75, 45]), deal([29, 91]), deal([120, 0], [9, 0]), deal([0, 120], [0, 9])


@pytest.mark.parametrize(
    "option, entries, defeat, multipliers",
    [
        pytest.param(False, [EGGS, L2], [0, 2], [1, 1], id="off"),
        pytest.param(True, [EGGS, L2], [0, 4], [1, 2], id="next deal doubled"),
        pytest.param(True, [EGGS, L4], [0, 8], [1, 2], id="4 doubled"),
        pytest.param(True, [L2, EGGS, L6], [2, 0, 12], [1, 1, 2], id="6 doubled"),
        pytest.param(True, [EGGS, EGGS, L2], [0, 0, 4], [1, 2, 2], id="eggs twice do not stack"),
        pytest.param(True, [EGGS, EGGS, EGGS, L4], [0, 0, 0, 8], [1, 2, 2, 2], id="eggs three times"),
        pytest.param(True, [EGGS, L2, L2], [0, 4, 2], [1, 2, 1], id="only the next deal"),
        pytest.param(False, [EGGS, EGGS, L2], [0, 0, 2], [1, 1, 1], id="off, eggs twice"),
    ],
)
def test_eggs_double_next(option, entries, defeat, multipliers):
    game = replay(eggs_double_next=option)
    hands = [game.play(entry) for entry in entries]
    assert [max(hand["defeat_points"]) for hand in hands] == defeat
    assert [hand["multiplier"] for hand in hands] == multipliers
    assert game.summary()["totals"] == [
        sum(hand["defeat_points"][0] for hand in hands), sum(hand["defeat_points"][1] for hand in hands)
    ]


@pytest.mark.parametrize(
    "entry, off, on",
    [
        (deal([120, 0], [7, 2]), 4, 6),  # 0 points but a trick: the option makes it 6
        (deal([120, 0], [9, 0]), 6, 6),
        (deal([90, 30], [6, 3]), 4, 4),
        (deal([118, 2], [8, 1]), 4, 4),
        (deal([75, 45]), 2, 2),
    ],
)
def test_six_for_zero_points(entry, off, on):
    assert replay(six_for_zero_points=False).play(entry)["defeat_points"] == [0, off]
    assert replay(six_for_zero_points=True).play(entry)["defeat_points"] == [0, on]


# -- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize("points", [[1, 119], [119, 1]])
def test_impossible_points_are_refused(points):
    err = refused(replay(), deal(points, [1, 8]))
    assert list(err.fields) == ["points"]


@pytest.mark.parametrize("points", [[60, 59], [61, 60], [0, 0], [120, 120], [100, 100], [0, 119]])
def test_points_not_adding_up_to_120_are_refused(points):
    err = refused(replay(), deal(points, [4, 5]))
    assert list(err.fields) == ["points"]
    assert str(sum(points)) in err.fields["points"]


@pytest.mark.parametrize(
    "points, tricks, names",
    [
        ([120, 0], None, "Bob and Dee"),
        ([120, 0], [9, None], "Bob and Dee"),
        ([0, 120], None, "Ann and Cid"),
        ([0, 120], [None, 9], "Ann and Cid"),
        ([0, 120], [None, None], "Ann and Cid"),
    ],
)
def test_tricks_are_required_for_a_team_without_points(points, tricks, names):
    err = refused(replay(), deal(points, tricks))
    assert list(err.fields) == ["tricks"]
    assert err.fields["tricks"].startswith(f"Did {names} take a trick?")


@pytest.mark.parametrize(
    "entry, field",
    [
        (deal([75, 45], [0, 5]), "tricks"),  # points without a trick
        (deal([75, 45], [9, None]), "tricks"),  # no trick left for the team with points
        (deal([75, 45], [5, 5]), "tricks"),  # more than 9 tricks
        (deal([75, 45], [10, None]), "tricks"),
        (deal([120, 0], [9, 0], last_trick="Bob"), "last_trick"),  # Bob's team took no trick
        (deal([120, 0], [9, 0], last_trick="Dee"), "last_trick"),
        (deal([75, 45], last_trick="Zed"), "last_trick"),
        (deal([75, 45], trump_suit="stars"), "trump_suit"),
        ({"points": [44, 76], "cards": [{"A": 2, "10": 1, "K": 4}, None]}, "cards"),  # cards count 48
        ({"cards": [{"A": 3}, {"A": 0}]}, "cards"),  # three aces in the deck
        ({"cards": [ALL, ALL]}, "cards"),
        ({"cards": [None, None]}, "cards"),
        ({"cards": [{"9": 1}, None]}, "cards"),
        ({"cards": [{"A": 5}, None]}, "cards"),
        ({"tricks": [5, 4]}, "points"),  # neither points nor cards
    ],
)
def test_contradictions_are_refused(entry, field):
    err = refused(replay(), entry)
    assert list(err.fields) == [field]


# docs/rules.md 2.2: a lead is 1 to 4 cards covered by as many, so a deal has 3 to 9 tricks;
# trick counts given for both teams add up to that. (tricks [team 0, team 1], accepted)
TRICK_TOTALS = [
    pytest.param([1, 1], False, id="2 tricks"),
    pytest.param([1, 0], False, id="1 trick"),
    pytest.param([2, 1], True, id="3 tricks: four-card leads"),
    pytest.param([1, 2], True, id="3 tricks, the other way"),
    pytest.param([4, 2], True, id="6 tricks"),
    pytest.param([5, 4], True, id="9 tricks: single cards"),
    pytest.param([8, 1], True, id="9 tricks, one team most"),
    pytest.param([5, 5], False, id="10 tricks"),
    pytest.param([9, 9], False, id="18 tricks"),
]


@pytest.mark.parametrize("mirrored", [False, True], ids=["as written", "teams swapped"])
@pytest.mark.parametrize("tricks, accepted", TRICK_TOTALS)
def test_both_teams_tricks_add_up_to_3_to_9(tricks, accepted, mirrored):
    points, tricks = ([45, 75], tricks[::-1]) if mirrored else ([75, 45], tricks)
    if accepted:
        assert replay().play(deal(points, tricks))["entry"]["tricks"] == tricks
    else:
        err = refused(replay(), deal(points, tricks))
        assert err.fields == {"tricks": f"The tricks add up to {sum(tricks)}; a deal has 3 to 9 tricks."}


@pytest.mark.parametrize("points, tricks", [
    ([75, 45], [1, None]), ([75, 45], [None, 1]), ([0, 120], [0, None]), ([120, 0], [None, 0]),
])
def test_one_teams_tricks_alone_need_no_total(points, tricks):
    assert replay().play(deal(points, tricks))["entry"]["tricks"] == tricks


# -- counting cards -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, tricks, points",
    [
        ([ALL, None], [9, 0], [120, 0]),
        ([None, ALL], [0, 9], [0, 120]),
        ([NONE, None], [1, 8], [0, 120]),
        ([{"A": 2, "10": 1, "K": 3}, None], None, [44, 76]),  # 22 + 10 + 12
        ([None, {"A": 2, "10": 1, "K": 3}], None, [76, 44]),
        ([{"J": 4, "Q": 4}, None], None, [20, 100]),  # 8 + 12
        ([{"A": 2, "10": 2, "K": 2, "Q": 2, "J": 2}, None], None, [60, 60]),  # half the deck: eggs
        (
            [{"A": 1, "10": 2, "K": 0, "Q": 4, "J": 1}, {"A": 3, "10": 2, "K": 4, "Q": 0, "J": 3}],
            None,
            [45, 75],  # 11 + 20 + 12 + 2 and 33 + 20 + 16 + 6
        ),
    ],
)
def test_cards_are_counted(cards, tricks, points):
    entry: dict[str, Any] = {"cards": cards, "trump_suit": "clubs"}
    if tricks:
        entry["tricks"] = tricks
    hand = replay().play(entry)
    assert hand["entry"]["points"] == points
    assert hand["entry"]["trump_suit"] == "clubs"
    counted = hand["entry"]["cards"]
    for rank in ALL:
        assert counted[0][rank] + counted[1][rank] == 4
    assert hand["eggs"] is (points == [60, 60])
    if not hand["eggs"]:
        loser = points.index(min(points))
        assert hand["loser"] == loser
        loser_tricks = tricks[loser] if tricks else None
        assert hand["defeat_points"][loser] == rules_defeat(points[loser], loser_tricks)


def test_cards_and_points_that_agree_are_both_kept():
    hand = replay().play({"points": [44, 76], "cards": [{"A": 2, "10": 1, "K": 3}, None]})
    assert hand["entry"]["points"] == [44, 76]
    assert hand["entry"]["cards"] == [
        {"A": 2, "10": 1, "K": 3, "Q": 0, "J": 0},
        {"A": 2, "10": 3, "K": 1, "Q": 4, "J": 4},
    ]


def test_entry_is_normalized():
    hand = replay().play({"points": [75, 45], "tricks": [None, None], "trump_suit": "", "last_trick": " Bob "})
    assert hand["entry"] == {"points": [75, 45], "last_trick": "Bob"}
    hand = replay().play({"points": [75, 45], "tricks": [5, 3], "trump_suit": "hearts", "number": 1})
    assert hand["entry"] == {"points": [75, 45], "tricks": [5, 3], "trump_suit": "hearts"}


# -- dealer, leader, end of the series ----------------------------------------------------


def test_dealer_moves_clockwise_and_the_dealers_left_leads():
    game = replay()
    for number in range(1, 10):
        dealer = (number - 1) % 4
        expected = {"number": number, "dealer": PLAYERS[dealer], "leader": PLAYERS[(dealer + 1) % 4]}
        assert game.summary()["next"] == expected
        hand = game.play(deal([75, 45]))
        assert {key: hand[key] for key in expected} == expected


def test_first_dealer_option():
    game = replay(first_dealer="Dee")
    assert game.summary()["next"] == {"number": 1, "dealer": "Dee", "leader": "Ann"}
    game.play(deal([75, 45]))
    assert game.summary()["next"] == {"number": 2, "dealer": "Ann", "leader": "Bob"}


def test_last_trick_leads_the_next_deal():
    game = replay()
    first = game.play(deal([75, 45], last_trick="Cid"))
    assert (first["dealer"], first["leader"]) == ("Ann", "Bob")
    assert game.summary()["next"] == {"number": 2, "dealer": "Bob", "leader": "Cid"}
    second = game.play(deal([120, 0], [9, 0], last_trick="Ann"))
    assert (second["dealer"], second["leader"]) == ("Bob", "Cid")
    assert game.summary()["next"] == {"number": 3, "dealer": "Cid", "leader": "Ann"}
    game.play(deal([75, 45]))  # not noted: the dealer's left leads
    assert game.summary()["next"] == {"number": 4, "dealer": "Dee", "leader": "Ann"}
    game.play(deal([75, 45], last_trick="Bob"))
    assert game.summary()["next"] == {"number": 5, "dealer": "Ann", "leader": "Bob"}



@pytest.mark.parametrize("blank", ["", None], ids=["empty text", "null"])
def test_a_blank_last_trick_is_not_noted(blank):
    """docs/rules.md 2.2 and 2.5: left empty, the last trick is not noted and the dealer's left leads."""
    game = replay()
    hand = game.play(deal([75, 45], last_trick=blank))
    assert "last_trick" not in hand["entry"]
    assert hand["entry"] == {"points": [75, 45]}
    assert game.summary()["next"] == {"number": 2, "dealer": "Bob", "leader": "Cid"}
    # After a deal whose last trick was noted, a blank one does not carry the old taker over.
    game.play(deal([75, 45], last_trick="Cid"))
    assert game.summary()["next"] == {"number": 3, "dealer": "Cid", "leader": "Cid"}
    hand = game.play(deal([45, 75], [2, 5], last_trick=blank))
    assert hand["entry"] == {"points": [45, 75], "tricks": [2, 5]}
    assert (hand["dealer"], hand["leader"]) == ("Cid", "Cid")
    assert game.summary()["next"] == {"number": 4, "dealer": "Dee", "leader": "Ann"}

def test_summary_before_the_first_deal():
    assert KozyolReplay(PLAYERS, parse_options(PLAYERS, {}, None)).summary() == {
        "totals": [0, 0],
        "teams": TEAM_NAMES,
        "finished": False,
        "winners": [],
        "next": {"number": 1, "dealer": "Ann", "leader": "Bob"},
        "max_hands": 200,
    }


@pytest.mark.parametrize(
    "entries, goat, totals, with_eggs",
    [
        ([L4, L4, L4], 0, [12, 0], False),
        ([L2, L2, L2, L2, L2, L2], 1, [0, 12], False),
        ([L2, EGGS, L6, L4, L2, L2], 1, [4, 12], True),
        ([L4, deal([60, 60], [4, 5]), L4, L4], 0, [12, 0], True),
        ([L2, L4, L2, L4, L6, L2], 1, [8, 12], False),  # the other team's points stay on the replay
        ([L6, L6], 1, [0, 12], False),
        ([L4, L4, W6], 0, [14, 0], False),  # past the target
    ],
)
def test_end_of_series(entries, goat, totals, with_eggs):
    game = KozyolReplay(PLAYERS, parse_options(PLAYERS, {}, None))
    for entry in entries[:-1]:
        game.play(entry)
        assert game.summary()["finished"] is False
        assert "goat" not in game.summary()
    game.play(entries[-1])
    summary = game.summary()
    assert summary["totals"] == totals
    assert summary["finished"] is True
    assert summary["goat"] == goat
    assert summary["goat_with_eggs"] is with_eggs
    assert summary["winners"] == TEAM_NAMES[1 - goat]
    assert summary["next"] is None
    err = refused(game, deal([75, 45]))
    assert list(err.fields) == ["number"]
    err = refused(game, "not even an entry")
    assert list(err.fields) == ["number"]


# -- malformed entries --------------------------------------------------------------------

MALFORMED = [
    None, 0, 75, "75:45", [75, 45], (75, 45), True, b"{}",
    {},
    {"points": None},
    {"points": "75,45"},
    {"points": 120},
    {"points": [75]},
    {"points": [75, 45, 0]},
    {"points": ["75", "45"]},
    {"points": [True, 119]},
    {"points": [75.0, 45.0]},
    {"points": [-15, 135]},
    {"points": [None, 120]},
    {"points": {"0": 75, "1": 45}},
    {"points": [[75], [45]]},
    {"points": [75, 45], "tricks": "5"},
    {"points": [75, 45], "tricks": 5},
    {"points": [75, 45], "tricks": [5]},
    {"points": [75, 45], "tricks": [5, 3, 1]},
    {"points": [75, 45], "tricks": [True, 3]},
    {"points": [75, 45], "tricks": [-1, 3]},
    {"points": [75, 45], "tricks": [5.0, 3]},
    {"points": [75, 45], "tricks": {"Ann": 5}},
    {"points": [75, 45], "trump_suit": 5},
    {"points": [75, 45], "trump_suit": ["hearts"]},
    {"points": [75, 45], "trump_suit": "Hearts"},
    {"points": [75, 45], "last_trick": 3},
    {"points": [75, 45], "last_trick": ["Ann"]},
    {"points": [75, 45], "last_trick": {"name": "Ann"}},
    {"cards": "A A K"},
    {"cards": []},
    {"cards": [ALL]},
    {"cards": [ALL, None, None]},
    {"cards": [[4, 4, 4, 4, 4], None]},
    {"cards": [{"A": "4"}, None]},
    {"cards": [{"A": True}, None]},
    {"cards": [{"A": -1}, None]},
    {"cards": [{"A": None}, None]},
    {"cards": [{"A": 1.5}, None]},
    {"cards": [{1: 2}, None]},
    {"cards": [{"ace": 2}, None]},
    {"cards": [{"a": 2}, None]},
    {"points": [60, 60], "cards": [ALL, None], "tricks": [9, 0]},
]


@pytest.mark.parametrize("entry", MALFORMED, ids=[repr(entry)[:60] for entry in MALFORMED])
def test_malformed_entries_raise_invalid_hand_only(entry):
    game = replay()
    refused(game, entry)
    assert game.play(deal([75, 45]))["number"] == 1  # the replay still works


JUNK = [None, True, False, 0, 1, -1, 9, 10, 60, 120, 121, 1.5, "", "60", "Ann", "hearts", [], [60], [60, 60],
        [None, None], [0, 120], [1, None], {}, {"A": 4}, {"Ann": 1}, [ALL, None], [None, {"Q": 9}], b"x"]
KEYS = ["points", "cards", "tricks", "trump_suit", "last_trick", "number", "extra"]


def test_junk_entries_never_raise_anything_but_invalid_hand():
    rng = random.Random(2024)
    accepted = 0
    for _ in range(3000):
        entry = {key: rng.choice(JUNK) for key in rng.sample(KEYS, rng.randint(0, len(KEYS)))}
        if rng.random() < 0.5:
            entry["points"] = rng.choice([[60, 60], [120, 0], [0, 120], [75, 45]])
        game = replay()
        try:
            hand = game.play(entry)
        except InvalidHand as err:
            assert set(err.fields) <= FIELDS and all(str(reason) for _, reason in err.errors)
            continue
        accepted += 1
        assert sum(hand["entry"]["points"]) == 120
    assert accepted > 0


# -- random series ------------------------------------------------------------------------


def test_random_series_invariants():
    seen = {"eggs": 0, "doubled": 0, "six": 0, "goat 0": 0, "goat 1": 0, "goat with eggs": 0}
    for seed in range(300):
        rng = random.Random(seed)
        raw = {
            "target": rng.choice([1, 2, 5, 12, 12, 12, 20, 30]),
            "eggs_double_next": rng.random() < 0.5,
            "six_for_zero_points": rng.random() < 0.5,
            "first_dealer": rng.choice(PLAYERS),
        }
        options = parse_options(PLAYERS, raw, rng)
        target, first = options["target"], PLAYERS.index(options["first_dealer"])
        game = KozyolReplay(PLAYERS, options)
        totals, eggs_before, leader = [0, 0], False, PLAYERS[(first + 1) % 4]
        for number in range(1, 200):
            assert max(totals) < target and not game.summary()["finished"]
            dealer = PLAYERS[(first + number - 1) % 4]
            entry, points, tricks = play_deal(rng)
            hand = game.play(entry)
            assert (hand["number"], hand["dealer"], hand["leader"]) == (number, dealer, leader)
            multiplier = 2 if eggs_before and options["eggs_double_next"] else 1
            assert hand["multiplier"] == multiplier
            if points == [60, 60]:
                assert hand["eggs"] and hand["loser"] is None and hand["defeat_points"] == [0, 0]
                seen["eggs"] += 1
            else:
                loser = 0 if points[0] < 60 else 1
                assert points[loser] <= 59 and points[1 - loser] >= 61
                assert hand["loser"] == loser and not hand["eggs"]
                expected = [0, 0]
                six = options["six_for_zero_points"]
                expected[loser] = multiplier * rules_defeat(points[loser], tricks[loser], six)
                assert hand["defeat_points"] == expected
                seen["doubled"] += multiplier == 2
                seen["six"] += rules_defeat(points[loser], tricks[loser]) == 6
            totals = [total + d for total, d in zip(totals, hand["defeat_points"])]
            assert hand["totals"] == totals
            eggs_before = hand["eggs"]
            leader = entry.get("last_trick") or PLAYERS[(first + number + 1) % 4]
            if max(totals) >= target:
                break
        summary = game.summary()
        assert summary["totals"] == totals == [sum(h["defeat_points"][t] for h in game.hands) for t in (0, 1)]
        assert summary["finished"] is True and summary["next"] is None
        goat = 0 if totals[0] >= target else 1
        assert totals[1 - goat] < target
        assert summary["goat"] == goat and summary["winners"] == TEAM_NAMES[1 - goat]
        assert summary["goat_with_eggs"] is any(h["entry"]["points"] == [60, 60] for h in game.hands)
        seen[f"goat {goat}"] += 1
        seen["goat with eggs"] += summary["goat_with_eggs"]
        assert list(refused(game, entry).fields) == ["number"]
    assert all(count > 0 for count in seen.values()), seen


# -- the module itself --------------------------------------------------------------------


def test_game_record():
    assert (GAME.slug, GAME.title, GAME.min_players, GAME.max_players) == ("kozyol", "Kozyol", 4, 4)
    game = GAME.new_replay(PLAYERS, GAME.parse_options(PLAYERS, {}, random.Random(0)))
    assert game.play(deal([75, 45]))["totals"] == [0, 2]


def test_doctests():
    result = doctest.testmod(kozyol)
    assert result.failed == 0 and result.attempted >= 4



# -- the sentence a player reads for each refusal ------------------------------------------------

SENTENCES = [
    pytest.param([], "entry", "A deal must be an object.", id="not an object"),
    pytest.param({}, "points", "Enter the card points of both teams, or the cards they won.", id="nothing"),
    pytest.param(deal([75, 45], [5, 5]), "tricks", "The tricks add up to 10; a deal has 3 to 9 tricks.", id="10 tricks"),
    pytest.param(deal([75, 45], [1, 1]), "tricks", "The tricks add up to 2; a deal has 3 to 9 tricks.", id="2 tricks"),
    pytest.param(deal([75, 45], [0, 5]), "tricks", "Ann and Cid won card points, so they took at least one trick.",
                 id="points without a trick"),
    pytest.param(deal([45, 75], [None, 9]), "tricks", "Ann and Cid won card points, so they took at least one trick.",
                 id="points, the others took all 9"),
    pytest.param(deal([75, 45], [5, 0]), "tricks", "Bob and Dee won card points, so they took at least one trick.",
                 id="points without a trick, team 1"),
    pytest.param({"points": [75, 45], "cards": [ALL, None]}, "cards",
                 "The cards count 120 and 0, but the points say 75 and 45.", id="cards and points disagree"),
    pytest.param(deal([75]), "points", "Enter the card points of Ann and Cid, then of Bob and Dee.", id="one number"),
    pytest.param(deal([75, 44]), "points", "The card points add up to 119; they must add up to 120.", id="119"),
    pytest.param(deal([119, 1]), "points", "No set of cards adds up to 119; check the count of Ann and Cid.", id="119:1"),
    pytest.param(deal([1, 119]), "points", "No set of cards adds up to 1; check the count of Ann and Cid.", id="1 first"),
    pytest.param({"cards": ALL}, "cards", "Give the cards of Ann and Cid, then of Bob and Dee; one of them may be empty.",
                 id="cards not a pair"),
    pytest.param({"cards": [None, None]}, "cards", "Count the cards of at least one team.", id="no cards"),
    pytest.param({"cards": [[], None]}, "cards", "Count each team's cards by rank: A, 10, K, Q and J.",
                 id="cards not counted by rank"),
    pytest.param({"cards": [{"9": 1}, None]}, "cards", "Only A, 10, K, Q and J count; leave out 9.", id="a nine"),
    pytest.param({"cards": [ALL, {**NONE, "K": 1}]}, "cards", "The counts of K add up to 5; they must add up to 4.",
                 id="five kings"),
    pytest.param(deal([75, 45], [None, "5"]), "tricks", "Enter a whole number.", id="tricks as text"),
    pytest.param(deal([75, 45], 8), "tricks",
                 "Enter the tricks of Ann and Cid, then of Bob and Dee; either may be empty.", id="tricks not a pair"),
    pytest.param(deal([120, 0], [9, 0], last_trick="Dee"), "last_trick",
                 "Dee took the last trick, but the tricks say that team took none.", id="last trick of a trickless team"),
    pytest.param(deal([120, 0], [9, 0], last_trick="Zed"), "last_trick", "Choose one of the players.",
                 id="last trick by a stranger"),
]


@pytest.mark.parametrize("entry, field, sentence", SENTENCES)
def test_refusal_sentences(entry, field, sentence):
    err = refused(replay(), entry)
    assert err.fields == {field: sentence}
    assert str(err) == sentence


def test_a_finished_series_names_the_goat():
    game = replay(target=2)
    game.play(deal([75, 45]))
    err = refused(game, deal([75, 45]))
    assert err.fields == {"number": "The series is over: Bob and Dee are the goat."}


def test_kozyol_needs_four_players():
    with pytest.raises(InvalidHand) as info:
        parse_options(PLAYERS[:3], {}, None)
    assert info.value.fields == {"players": "This game needs exactly 4 players."}


# -- how long a series can last -----------------------------------------------------------


def test_a_series_of_eggs_stops_at_200_deals():
    """Eggs for ever never make a goat; 200 deals is the limit."""
    series = replay()
    for _ in range(200):
        series.play(deal([60, 60]))
    summary = series.summary()
    assert (summary["finished"], summary["next"], summary["max_hands"], summary["totals"]) == (False, None, 200, [0, 0])
    err = refused(series, deal([75, 45]))
    assert err.fields == {"number": "This match has reached the limit of 200 hands; no more can be recorded."}


def test_the_longest_series_without_eggs_fits_well_within_the_limit():
    """At the highest target, 100, each team can take 49 light defeats: the 99th deal makes a goat."""
    series = replay(target=100)
    for number in range(98):
        series.play(deal([75, 45] if number % 2 else [45, 75]))
    assert series.summary()["totals"] == [98, 98] and not series.finished
    series.play(deal([75, 45]))
    assert series.finished and len(series.hands) == 99 < GAME.max_hands == series.max_hands == 200


def test_stored_options_are_checked_again_when_replayed():
    with pytest.raises(InvalidHand) as info:
        GAME.new_replay(PLAYERS, {"target": 10 ** 310})
    assert set(info.value.fields) == {"target"}
