"""Barbu rules engine, checked against docs/rules.md section 1.

Expected numbers come from the rules text (the tables and worked examples copied below),
never from the engine itself. Seats: A=Ann (0), B=Bob (1), C=Cid (2), D=Dee (3).
"""

from __future__ import annotations

import copy
import doctest
import importlib
import pkgutil
import random
from itertools import combinations
from typing import Any

import pytest

import scorekeeper.games
from helpers.barbu import (
    CONTRACTS,
    DOMINOES_DEFAULT,
    DOMINOES_VARIANT,
    HANDS,
    HANDS_PER_BLOCK,
    PLAYERS,
    RULES_SUM,
    A,
    B,
    C,
    D,
    dbl,
    expected_declarers,
    left,
    new_replay,
    per,
    random_match,
    reference_settle,
    right,
)
from scorekeeper.games import GAMES, barbu
from scorekeeper.games.base import InvalidHand, Reason

# -- building matches -------------------------------------------------------------------

PLAIN_CARDS = {
    "no_tricks": {"tricks": per([4, 3, 3, 3])},
    "no_queens": {"queens": per([1, 1, 1, 1])},
    "no_hearts": {"hearts": per([4, 3, 3, 3]), "ace_of_hearts": A},
    "no_last_two": {"second_last": A, "last": B},
    "barbu": {"king_of_hearts": C},
    "trumps": {"tricks": per([4, 3, 3, 3])},
    "dominoes": {"order": [A, B, C, D]},
}


def declarer_at(first: str, number: int) -> str:
    return PLAYERS[expected_declarers(PLAYERS.index(first))[number - 1]]


def play_until(replay: barbu.BarbuReplay, number: int, keep: str | None = None) -> None:
    """Record plain hands until hand `number` is next, leaving contract `keep` free in its block.

    Every non-declarer doubles the declarer in the first two hands of each block,
    which settles the obligation for the rest of the block.
    """
    target_block = (number - 1) // HANDS_PER_BLOCK
    while len(replay.hands) + 1 < number:
        played = len(replay.hands)
        declarer = declarer_at(replay.options["first_declarer"], played + 1)
        used = {hand["contract"] for hand in replay.hands[played - played % HANDS_PER_BLOCK :]}
        if played // HANDS_PER_BLOCK == target_block:
            used.add(keep)
        contract = next(c for c in CONTRACTS if c not in used)
        doubles = [dbl(p, declarer) for p in PLAYERS if p != declarer] if played % HANDS_PER_BLOCK < 2 else []
        replay.play({"contract": contract, **PLAIN_CARDS[contract], "doubles": doubles})


def assert_refused(replay: barbu.BarbuReplay, entry: Any, field: str) -> InvalidHand:
    """The entry is refused on `field` with a filled-in sentence, and the match is unchanged."""
    before = copy.deepcopy(replay.summary()), len(replay.hands)
    with pytest.raises(InvalidHand) as info:
        replay.play(entry)
    assert field in info.value.fields, info.value.fields
    message = info.value.fields[field]
    assert message and "{" not in message
    assert (replay.summary(), len(replay.hands)) == before
    return info.value


# -- worked examples (docs/rules.md 1.7) --------------------------------------------------------------------

EXAMPLES = [
    pytest.param(
        "no_queens", A, {"queens": per([1, 0, 1, 2])},
        # B doubles A, C and D; C doubles A; D passes; A redoubles C.
        [dbl(B, A), dbl(B, C), dbl(B, D), dbl(C, A, True)],
        [-6, 0, -6, -12], [-12, 24, -12, -24],
        id="1-no-queens",
    ),
    pytest.param(
        "trumps", A, {"tricks": per([6, 3, 1, 3])},
        # B, C and D each double A; A redoubles C.
        [dbl(B, A), dbl(C, A, True), dbl(D, A)],
        [30, 15, 5, 15], [110, 0, -45, 0],
        id="2-trumps",
    ),
    pytest.param(
        "no_hearts", C, {"hearts": per([4, 5, 2, 2]), "ace_of_hearts": A},
        # Pairs AB 2, AC 1, AD 2, BC 2, BD 1, CD 1; the declarer C only ever redoubles.
        [dbl(A, B, True), dbl(A, C), dbl(A, D, True), dbl(B, C, True), dbl(B, D), dbl(D, C)],
        [-12, -10, -4, -4], [-40, -24, 16, 18],
        id="3-no-hearts",
    ),
]
# (block, position in block) at which each example is replayed.
PLACEMENTS = [(0, 1), (1, 3), (2, 5), (3, 7)]


@pytest.mark.parametrize("block, position", PLACEMENTS)
@pytest.mark.parametrize("contract, declarer, cards, doubles, raw, scores", EXAMPLES)
def test_worked_example(contract, declarer, cards, doubles, raw, scores, block, position):
    first = PLAYERS[(PLAYERS.index(declarer) - block) % 4]
    number = block * HANDS_PER_BLOCK + position
    replay = new_replay(first)
    play_until(replay, number, keep=contract)
    totals_before = dict(replay.totals)

    hand = replay.play({"contract": contract, **cards, "doubles": doubles})

    assert hand["number"] == number
    assert hand["declarer"] == declarer
    assert hand["raw"] == per(raw)
    assert hand["scores"] == per(scores)
    assert sum(scores) == RULES_SUM[contract]
    assert hand["totals"] == {p: totals_before[p] + hand["scores"][p] for p in PLAYERS}
    assert hand["warnings"] == []


@pytest.mark.parametrize("contract, declarer, cards, doubles, raw, scores", EXAMPLES)
def test_reference_settlement_reproduces_worked_examples(contract, declarer, cards, doubles, raw, scores):
    assert reference_settle(per(raw), doubles) == per(scores)
    assert barbu.settle(per(raw), doubles) == per(scores)


# -- raw scores per contract ------------------------------------------------------------

RAW_ROWS = [
    ("no_tricks", {"tricks": per([3, 4, 5, 1])}, [-6, -8, -10, -2]),
    ("no_tricks", {"tricks": per([13, 0, 0, 0])}, [-26, 0, 0, 0]),
    ("no_tricks", {"tricks": per([0, 0, 6, 7])}, [0, 0, -12, -14]),
    ("no_queens", {"queens": per([1, 0, 1, 2])}, [-6, 0, -6, -12]),
    ("no_queens", {"queens": per([4, 0, 0, 0])}, [-24, 0, 0, 0]),
    ("no_queens", {"queens": per([1, 1, 1, 1])}, [-6, -6, -6, -6]),
    ("no_hearts", {"hearts": per([4, 5, 2, 2]), "ace_of_hearts": A}, [-12, -10, -4, -4]),
    ("no_hearts", {"hearts": per([13, 0, 0, 0]), "ace_of_hearts": A}, [-30, 0, 0, 0]),
    ("no_hearts", {"hearts": per([0, 1, 12, 0]), "ace_of_hearts": B}, [0, -6, -24, 0]),
    ("no_hearts", {"hearts": per([3, 3, 3, 4]), "ace_of_hearts": D}, [-6, -6, -6, -12]),
    ("no_last_two", {"second_last": B, "last": C}, [0, -10, -20, 0]),
    ("no_last_two", {"second_last": A, "last": D}, [-10, 0, 0, -20]),
    ("no_last_two", {"second_last": D, "last": D}, [0, 0, 0, -30]),
    ("barbu", {"king_of_hearts": D}, [0, 0, 0, -20]),
    ("barbu", {"king_of_hearts": A}, [-20, 0, 0, 0]),
    ("trumps", {"tricks": per([6, 3, 1, 3])}, [30, 15, 5, 15]),
    ("trumps", {"tricks": per([0, 13, 0, 0])}, [0, 65, 0, 0]),
    ("trumps", {"tricks": per([4, 4, 4, 1])}, [20, 20, 20, 5]),
    ("dominoes", {"order": [B, A, D, C]}, [20, 45, -5, 5]),
    ("dominoes", {"order": [A, B, C, D]}, [45, 20, 5, -5]),
    ("dominoes", {"order": [D, C, B, A]}, [-5, 5, 20, 45]),
]


@pytest.mark.parametrize("contract, cards, raw", RAW_ROWS)
def test_raw_scores(contract, cards, raw):
    hand = new_replay().play({"contract": contract, **cards})
    assert hand["raw"] == per(raw)
    assert hand["scores"] == per(raw)  # no doubles: the hand score is the raw score
    assert sum(raw) == RULES_SUM[contract]


@pytest.mark.parametrize(
    "order, raw",
    [([B, A, D, C], [25, 40, -10, 10]), ([A, B, C, D], [40, 25, 10, -10]), ([C, D, A, B], [10, -10, 40, 25])],
)
def test_dominoes_variant_scores(order, raw):
    hand = new_replay(domino_scores=DOMINOES_VARIANT).play({"contract": "dominoes", "order": order})
    assert hand["raw"] == per(raw)
    assert sum(raw) == RULES_SUM["dominoes"]


def test_contract_sums_make_a_block_zero_sum():
    assert sum(RULES_SUM.values()) == 0
    assert set(RULES_SUM) == set(barbu.CONTRACTS)


def test_notes_do_not_change_the_score_and_are_kept():
    replay = new_replay()
    trumps = replay.play({"contract": "trumps", "tricks": per([6, 3, 1, 3]), "trump_suit": "spades"})
    dominoes = replay.play({"contract": "dominoes", "order": [B, A, D, C], "start_rank": "J"})
    assert trumps["raw"] == per([30, 15, 5, 15]) and trumps["entry"]["trump_suit"] == "spades"
    assert dominoes["raw"] == per([20, 45, -5, 5]) and dominoes["entry"]["start_rank"] == "J"


def test_names_are_trimmed_and_the_entry_is_not_modified():
    entry = {
        "contract": "no_hearts",
        "hearts": {" Ann": 4, "Bob ": 5, "Cid": 2, "Dee": 2},
        "ace_of_hearts": " Ann ",
        "doubles": [{"by": " Bob", "target": "Ann "}],
    }
    original = copy.deepcopy(entry)
    hand = new_replay().play(entry)
    assert entry == original
    assert hand["entry"]["hearts"] == per([4, 5, 2, 2])
    assert hand["entry"]["ace_of_hearts"] == A
    assert hand["entry"]["doubles"] == [dbl(B, A)]
    # raw -12 -10 -4 -4; pair AB doubled once: A -12 + (-12 - -10) = -14, B -10 + 2 = -8
    assert hand["scores"] == per([-14, -8, -4, -4])


# -- schedule ---------------------------------------------------------------------------


@pytest.mark.parametrize("first", range(4))
def test_schedule_function(first):
    for number, declarer in enumerate(expected_declarers(first), start=1):
        assert barbu.schedule(number, first) == {
            "declarer": declarer,
            "dealer": right(declarer),
            "cutter": left(left(declarer)),
        }


@pytest.mark.parametrize(
    "first, number, declarer, dealer, cutter",
    [
        (C, 1, C, B, A),
        (C, 7, C, B, A),
        (C, 8, D, C, B),
        (C, 15, A, D, C),
        (C, 22, B, A, D),
        (C, 28, B, A, D),
        (A, 14, B, A, D),
        (D, 21, B, A, D),
        (B, 22, A, D, C),
    ],
)
def test_schedule_rows(first, number, declarer, dealer, cutter):
    seats = barbu.schedule(number, PLAYERS.index(first))
    assert [PLAYERS[seats[k]] for k in ("declarer", "dealer", "cutter")] == [declarer, dealer, cutter]


@pytest.mark.parametrize("first", PLAYERS)
def test_a_full_match_follows_the_schedule(first):
    replay = new_replay(first)
    declarers = [PLAYERS[s] for s in expected_declarers(PLAYERS.index(first))]
    for number in range(1, HANDS + 1):
        nxt = replay.next()
        seat = PLAYERS.index(declarers[number - 1])
        assert nxt["number"] == number
        assert (nxt["declarer"], nxt["dealer"]) == (PLAYERS[seat], PLAYERS[right(seat)])
        play_until(replay, number + 1)
        hand = replay.hands[-1]
        assert (hand["number"], hand["declarer"], hand["dealer"], hand["cutter"]) == (
            number, PLAYERS[seat], PLAYERS[right(seat)], PLAYERS[left(left(seat))],
        )
    assert replay.next() is None


def test_contracts_left_shrink_through_a_block_and_refill():
    replay = new_replay()
    played: list[str] = []
    for contract in ["barbu", "trumps", "no_tricks", "dominoes", "no_queens", "no_last_two", "no_hearts"]:
        assert sorted(replay.next()["contracts_left"]) == sorted(set(CONTRACTS) - set(played))
        doubles = [dbl(p, A) for p in (B, C, D)] if len(played) < 2 else []
        replay.play({"contract": contract, **PLAIN_CARDS[contract], "doubles": doubles})
        played.append(contract)
    assert sorted(replay.next()["contracts_left"]) == sorted(CONTRACTS)
    assert replay.next()["declarer"] == B


# -- refusals ---------------------------------------------------------------------------

REFUSALS = [
    pytest.param({"contract": "misere"}, "contract", id="unknown-contract"),
    pytest.param({"contract": "no_tricks", "tricks": per([4, 3, 3, 2])}, "tricks", id="tricks-sum-12"),
    pytest.param({"contract": "no_tricks", "tricks": per([4, 4, 3, 3])}, "tricks", id="tricks-sum-14"),
    pytest.param({"contract": "trumps", "tricks": per([13, 1, 0, 0])}, "tricks", id="trumps-sum-14"),
    pytest.param({"contract": "trumps", "tricks": per([0, 0, 0, 0])}, "tricks", id="trumps-sum-0"),
    pytest.param({"contract": "no_queens", "queens": per([1, 1, 1, 0])}, "queens", id="queens-sum-3"),
    pytest.param({"contract": "no_queens", "queens": per([2, 1, 1, 1])}, "queens", id="queens-sum-5"),
    pytest.param({"contract": "no_queens", "queens": per([5, 0, 0, 0])}, "queens", id="queens-over-4"),
    pytest.param(
        {"contract": "no_hearts", "hearts": per([4, 5, 2, 1]), "ace_of_hearts": A}, "hearts", id="hearts-sum-12"
    ),
    pytest.param(
        {"contract": "no_hearts", "hearts": per([4, 5, 2, 3]), "ace_of_hearts": A}, "hearts", id="hearts-sum-14"
    ),
    pytest.param(
        {"contract": "no_hearts", "hearts": per([0, 5, 4, 4]), "ace_of_hearts": A},
        "ace_of_hearts", id="ace-holder-without-hearts",
    ),
    pytest.param({"contract": "no_hearts", "hearts": per([4, 5, 2, 2])}, "ace_of_hearts", id="ace-missing"),
    pytest.param(
        {"contract": "no_hearts", "hearts": per([4, 5, 2, 2]), "ace_of_hearts": "Zed"},
        "ace_of_hearts", id="ace-unknown-player",
    ),
    pytest.param({"contract": "dominoes", "order": [A, A, B, C]}, "order", id="order-duplicate"),
    pytest.param({"contract": "dominoes", "order": [A, B, C]}, "order", id="order-three"),
    pytest.param({"contract": "dominoes", "order": [A, B, C, D, A]}, "order", id="order-five"),
    pytest.param({"contract": "dominoes", "order": [A, B, C, "Zed"]}, "order", id="order-unknown"),
    pytest.param({"contract": "dominoes"}, "order", id="order-missing"),
    pytest.param(
        {"contract": "no_tricks", "tricks": {A: 4, B: 3, C: 3, "Zed": 3}}, "tricks", id="tricks-unknown-player"
    ),
    pytest.param({"contract": "no_tricks", "tricks": {A: 4, B: 3, C: 6}}, "tricks", id="tricks-missing-player"),
    pytest.param(
        {"contract": "no_queens", "queens": {**per([1, 1, 1, 1]), "Zed": 0}}, "queens", id="queens-extra-player"
    ),
    pytest.param({"contract": "no_last_two", "second_last": A, "last": "Zed"}, "last", id="last-unknown"),
    pytest.param({"contract": "no_last_two", "second_last": "Zed", "last": A}, "second_last", id="second-unknown"),
    pytest.param({"contract": "no_last_two", "second_last": A}, "last", id="last-missing"),
    pytest.param({"contract": "barbu", "king_of_hearts": "Zed"}, "king_of_hearts", id="king-unknown"),
    pytest.param({"contract": "barbu"}, "king_of_hearts", id="king-missing"),
    pytest.param({**PLAIN_CARDS["barbu"], "contract": "barbu", "doubles": [dbl("Zed", A)]}, "doubles", id="by-unknown"),
    pytest.param({**PLAIN_CARDS["barbu"], "contract": "barbu", "doubles": [dbl(B, "Zed")]}, "doubles", id="to-unknown"),
    # Hand 1: Ann declares.
    pytest.param(
        {**PLAIN_CARDS["no_queens"], "contract": "no_queens", "doubles": [dbl(A, B)]}, "doubles", id="declarer-starts"
    ),
    pytest.param(
        {**PLAIN_CARDS["trumps"], "contract": "trumps", "doubles": [dbl(A, C)]}, "doubles", id="declarer-starts-trumps"
    ),
    pytest.param(
        {**PLAIN_CARDS["no_tricks"], "contract": "no_tricks", "doubles": [dbl(B, A), dbl(A, B)]},
        "doubles", id="declarer-doubles-back",
    ),
    pytest.param({**PLAIN_CARDS["barbu"], "contract": "barbu", "doubles": [dbl(B, B)]}, "doubles", id="oneself"),
    pytest.param({**PLAIN_CARDS["barbu"], "contract": "barbu", "doubles": [dbl(A, A)]}, "doubles", id="declarer-self"),
    pytest.param(
        {**PLAIN_CARDS["trumps"], "contract": "trumps", "doubles": [dbl(B, C)]}, "doubles", id="trumps-not-declarer"
    ),
    pytest.param(
        {**PLAIN_CARDS["dominoes"], "contract": "dominoes", "doubles": [dbl(B, A), dbl(C, D)]},
        "doubles", id="dominoes-not-declarer",
    ),
    pytest.param(
        {**PLAIN_CARDS["no_hearts"], "contract": "no_hearts", "doubles": [dbl(B, C), dbl(C, B)]},
        "doubles", id="mutual",
    ),
    pytest.param(
        {**PLAIN_CARDS["no_hearts"], "contract": "no_hearts", "doubles": [dbl(C, D, True), dbl(D, C)]},
        "doubles", id="mutual-after-redouble",
    ),
    pytest.param(
        {**PLAIN_CARDS["trumps"], "contract": "trumps", "doubles": [dbl(B, A), dbl(B, A)]}, "doubles", id="duplicate"
    ),
    pytest.param(
        {**PLAIN_CARDS["no_tricks"], "contract": "no_tricks", "doubles": [dbl(C, D), dbl(C, D, True)]},
        "doubles", id="duplicate-redoubled",
    ),
]


@pytest.mark.parametrize("entry, field", REFUSALS)
def test_refusal(entry, field):
    assert_refused(new_replay(), entry, field)


@pytest.mark.parametrize(
    "contract, doubles",
    [
        ("no_tricks", [dbl(B, C), dbl(D, C, True), dbl(B, D)]),  # non-declarers double each other
        ("barbu", [dbl(B, A, True), dbl(C, A, True), dbl(D, A, True)]),  # the declarer redoubles all
        ("dominoes", [dbl(B, A), dbl(C, A, True)]),
        ("trumps", []),
    ],
)
def test_legal_doubles_are_accepted(contract, doubles):
    hand = new_replay().play({"contract": contract, **PLAIN_CARDS[contract], "doubles": doubles})
    assert hand["entry"]["doubles"] == doubles


def test_two_keys_for_one_player_are_refused():
    entry = {"contract": "no_tricks", "tricks": {A: 13, " Ann": 0, B: 0, C: 0, D: 13}}
    assert_refused(new_replay(), entry, "tricks")


def test_refusal_carries_the_field_and_is_a_value_error():
    err = assert_refused(new_replay(), {"contract": "no_queens", "queens": per([1, 1, 1, 0])}, "queens")
    assert isinstance(err, ValueError)
    assert "3" in err.fields["queens"] and "4" in err.fields["queens"]


def test_a_contract_is_named_once_per_block_and_again_in_the_next():
    replay = new_replay()
    replay.play({"contract": "no_tricks", **PLAIN_CARDS["no_tricks"], "doubles": [dbl(B, A), dbl(C, A), dbl(D, A)]})
    assert_refused(replay, {"contract": "no_tricks", **PLAIN_CARDS["no_tricks"]}, "contract")
    play_until(replay, 7)
    assert_refused(replay, {"contract": "no_tricks", **PLAIN_CARDS["no_tricks"]}, "contract")
    play_until(replay, 8)
    assert {hand["contract"] for hand in replay.hands} == set(CONTRACTS)
    hand = replay.play({"contract": "no_tricks", **PLAIN_CARDS["no_tricks"]})
    assert (hand["number"], hand["declarer"]) == (8, B)


def test_no_29th_hand():
    replay = new_replay(C)
    play_until(replay, HANDS + 1)
    assert len(replay.hands) == HANDS
    assert_refused(replay, {"contract": "no_tricks", **PLAIN_CARDS["no_tricks"]}, "number")


# -- the doubling obligation ------------------------------------------------------------


def test_compulsory_doubles_through_a_block():
    """Bob never doubles Ann, Cid doubles her once, Dee twice: Bob is due at hand 6, Cid at 7."""
    replay = new_replay(A)
    planned = {1: [dbl(C, A), dbl(D, A)], 2: [dbl(D, A, True), dbl(B, C)], 3: [], 4: [], 5: [dbl(B, D)]}
    owed = {B: 2, C: 2, D: 2}
    for number, contract in zip(range(1, 6), ["trumps", "no_tricks", "no_queens", "dominoes", "no_hearts"]):
        nxt = replay.next()
        assert nxt["doubles_owed"] == owed and nxt["must_double"] == []
        replay.play({"contract": contract, **PLAIN_CARDS[contract], "doubles": planned[number]})
        for d in planned[number]:
            if d["target"] == A:
                owed[d["by"]] -= 1
    # Hand 6: two chances left (6 and 7), Bob owes 2.
    assert replay.next()["doubles_owed"] == {B: 2, C: 1, D: 0}
    assert replay.next()["must_double"] == [B]
    entry = {"contract": "barbu", **PLAIN_CARDS["barbu"]}
    assert_refused(replay, entry, "doubles")
    assert_refused(replay, {**entry, "doubles": [dbl(C, A), dbl(B, D)]}, "doubles")  # doubling another is no help
    assert replay.play({**entry, "doubles": [dbl(B, A, True)]})["warnings"] == []
    # Hand 7: one chance left, Bob and Cid owe one each.
    assert replay.next()["doubles_owed"] == {B: 1, C: 1, D: 0}
    assert sorted(replay.next()["must_double"]) == [B, C]
    entry = {"contract": "no_last_two", **PLAIN_CARDS["no_last_two"]}
    assert_refused(replay, {**entry, "doubles": [dbl(B, A)]}, "doubles")
    assert_refused(replay, {**entry, "doubles": [dbl(C, A)]}, "doubles")
    replay.play({**entry, "doubles": [dbl(B, A), dbl(C, A)]})
    # Hand 8: Bob declares; everything starts over.
    nxt = replay.next()
    assert (nxt["declarer"], nxt["doubles_owed"], nxt["must_double"]) == (B, {A: 2, C: 2, D: 2}, [])


def test_compulsory_doubles_only_warn_when_not_enforced():
    replay = new_replay(D, enforce_declarer_doubles=False)
    play_until(replay, 6, keep="trumps")  # everyone doubled Dee in hands 1 and 2
    assert replay.next()["must_double"] == []
    assert replay.play({"contract": "trumps", **PLAIN_CARDS["trumps"]})["warnings"] == []
    assert replay.play({"contract": "dominoes", **PLAIN_CARDS["dominoes"]})["warnings"] == []
    # Hand 8, Ann declares: nobody doubles her at all.
    remaining = iter(CONTRACTS)
    for number in range(8, 15):
        nxt = replay.next()
        chances = 15 - number
        expected_must = [p for p in (B, C, D) if chances <= 2]
        assert nxt["doubles_owed"] == {B: 2, C: 2, D: 2}
        assert sorted(nxt["must_double"]) == expected_must
        contract = next(remaining)
        hand = replay.play({"contract": contract, **PLAIN_CARDS[contract]})
        assert bool(hand["warnings"]) == bool(expected_must)
        if expected_must:
            assert all(isinstance(w, str) and w for w in hand["warnings"])
    assert replay.next()["declarer"] == B and replay.next()["must_double"] == []


def test_enforced_match_refuses_what_an_unenforced_one_warns_about():
    strict, lenient = new_replay(B), new_replay(B, enforce_declarer_doubles=False)
    for replay in (strict, lenient):
        for contract in CONTRACTS[:5]:
            replay.play({"contract": contract, **PLAIN_CARDS[contract], "doubles": [dbl(C, B)]})
    entry = {"contract": "trumps", **PLAIN_CARDS["trumps"], "doubles": [dbl(C, B)]}
    assert sorted(strict.next()["must_double"]) == [A, D]
    assert_refused(strict, entry, "doubles")
    assert len(lenient.play(entry)["warnings"]) == 2


# -- malformed input --------------------------------------------------------------------

BASE = {
    "no_tricks": {"contract": "no_tricks", "tricks": per([4, 3, 3, 3])},
    "no_queens": {"contract": "no_queens", "queens": per([1, 1, 1, 1])},
    "no_hearts": {"contract": "no_hearts", "hearts": per([4, 3, 3, 3]), "ace_of_hearts": A},
    "no_last_two": {"contract": "no_last_two", "second_last": A, "last": B},
    "barbu": {"contract": "barbu", "king_of_hearts": C},
    "trumps": {"contract": "trumps", "tricks": per([4, 3, 3, 3])},
    "dominoes": {"contract": "dominoes", "order": [A, B, C, D]},
}


def with_(contract: str, **changes: Any) -> dict[str, Any]:
    return {**BASE[contract], **changes}


MALFORMED = [
    (None, "entry"),
    ([], "entry"),
    ("no_tricks", "entry"),
    (7, "entry"),
    ([("contract", "barbu")], "entry"),
    ({}, "contract"),
    ({"contract": None}, "contract"),
    ({"contract": 3}, "contract"),
    ({"contract": ["no_tricks"]}, "contract"),
    ({"contract": {"no_tricks": 1}}, "contract"),
    ({"contract": "No Tricks"}, "contract"),
    (with_("no_tricks", tricks=[4, 3, 3, 3]), "tricks"),
    (with_("no_tricks", tricks="4,3,3,3"), "tricks"),
    (with_("no_tricks", tricks=None), "tricks"),
    (with_("no_tricks", tricks=13), "tricks"),
    (with_("no_tricks", tricks={A: "4", B: 3, C: 3, D: 3}), "tricks"),
    (with_("no_tricks", tricks={A: 4.0, B: 3, C: 3, D: 3}), "tricks"),
    (with_("no_tricks", tricks={A: 4.5, B: 2.5, C: 3, D: 3}), "tricks"),
    (with_("no_tricks", tricks={A: True, B: 6, C: 3, D: 3}), "tricks"),
    (with_("no_tricks", tricks={A: -1, B: 5, C: 6, D: 3}), "tricks"),
    (with_("no_tricks", tricks={A: 14, B: -1, C: 0, D: 0}), "tricks"),
    (with_("no_tricks", tricks={A: None, B: 4, C: 6, D: 3}), "tricks"),
    (with_("no_tricks", tricks={A: [4], B: 3, C: 3, D: 3}), "tricks"),
    (with_("no_tricks", tricks={A: {"n": 4}, B: 3, C: 3, D: 3}), "tricks"),
    (with_("no_tricks", tricks={0: 4, 1: 3, 2: 3, 3: 3}), "tricks"),
    (with_("no_tricks", tricks={None: 4, B: 3, C: 3, D: 3}), "tricks"),
    (with_("trumps", tricks={A: 10**100, B: 3, C: 3, D: 3}), "tricks"),
    (with_("trumps", tricks={A: "", B: 3, C: 3, D: 7}), "tricks"),
    (with_("no_queens", queens={A: 1.0, B: 1, C: 1, D: 1}), "queens"),
    (with_("no_queens", queens={A: False, B: 2, C: 1, D: 1}), "queens"),
    (with_("no_queens", queens={A: -1, B: 3, C: 1, D: 1}), "queens"),
    (with_("no_queens", queens=[1, 1, 1, 1]), "queens"),
    (with_("no_hearts", hearts={A: "4", B: 3, C: 3, D: 3}), "hearts"),
    (with_("no_hearts", hearts={A: None, B: 3, C: 3, D: 7}), "hearts"),
    (with_("no_hearts", ace_of_hearts=0), "ace_of_hearts"),
    (with_("no_hearts", ace_of_hearts=None), "ace_of_hearts"),
    (with_("no_hearts", ace_of_hearts=[A]), "ace_of_hearts"),
    (with_("no_hearts", ace_of_hearts={"name": A}), "ace_of_hearts"),
    (with_("no_hearts", ace_of_hearts=True), "ace_of_hearts"),
    (with_("no_last_two", last=3), "last"),
    (with_("no_last_two", last=[B]), "last"),
    (with_("no_last_two", second_last=None), "second_last"),
    (with_("barbu", king_of_hearts={C: 1}), "king_of_hearts"),
    (with_("barbu", king_of_hearts=""), "king_of_hearts"),
    (with_("dominoes", order="Ann,Bob,Cid,Dee"), "order"),
    (with_("dominoes", order=None), "order"),
    (with_("dominoes", order={A: 1, B: 2, C: 3, D: 4}), "order"),
    (with_("dominoes", order=[0, 1, 2, 3]), "order"),
    (with_("dominoes", order=[A, B, C, 3]), "order"),
    (with_("dominoes", order=[A, B, C, None]), "order"),
    (with_("dominoes", order=[[A], B, C, D]), "order"),
    (with_("dominoes", order=[A, B, D, D]), "order"),
    (with_("dominoes", order=[A, " Ann", C, D]), "order"),
    (with_("dominoes", order=[]), "order"),
    (with_("trumps", trump_suit="stars"), "trump_suit"),
    (with_("trumps", trump_suit=3), "trump_suit"),
    (with_("trumps", trump_suit=["spades"]), "trump_suit"),
    (with_("dominoes", start_rank="1"), "start_rank"),
    (with_("dominoes", start_rank=10), "start_rank"),
    (with_("dominoes", start_rank={"J": 1}), "start_rank"),
    (with_("barbu", doubles="Bob"), "doubles"),
    (with_("barbu", doubles=dbl(B, A)), "doubles"),
    (with_("barbu", doubles=7), "doubles"),
    (with_("barbu", doubles=True), "doubles"),
    (with_("barbu", doubles=[None]), "doubles"),
    (with_("barbu", doubles=["Bob"]), "doubles"),
    (with_("barbu", doubles=[[B, A]]), "doubles"),
    (with_("barbu", doubles=[7]), "doubles"),
    (with_("barbu", doubles=[{"by": B}]), "doubles"),
    (with_("barbu", doubles=[{"target": A}]), "doubles"),
    (with_("barbu", doubles=[{}]), "doubles"),
    (with_("barbu", doubles=[{"by": 1, "target": A}]), "doubles"),
    (with_("barbu", doubles=[{"by": None, "target": A}]), "doubles"),
    (with_("barbu", doubles=[{"by": B, "target": [A]}]), "doubles"),
    (with_("barbu", doubles=[{"by": B, "target": {A: 1}}]), "doubles"),
    (with_("barbu", doubles=[{"by": B, "target": A, "redoubled": "yes"}]), "doubles"),
    (with_("barbu", doubles=[{"by": B, "target": A, "redoubled": 1}]), "doubles"),
    (with_("barbu", doubles=[{"by": B, "target": A, "redoubled": None}]), "doubles"),
    (with_("barbu", doubles=[{"by": B, "target": A, "redoubled": "false"}]), "doubles"),
    (with_("barbu", doubles=[dbl(B, A), None]), "doubles"),
]


@pytest.mark.parametrize("entry, field", MALFORMED, ids=[f"malformed-{i}" for i in range(len(MALFORMED))])
def test_malformed_entry_is_refused(entry, field):
    assert_refused(new_replay(), entry, field)


JUNK = [None, True, False, 0, -1, 1, 13, 14, 2.5, 1.0, "", "Ann", "Zed", " ", "13", [], [1], ["Ann"], {}, {"Ann": 1},
        [None], [{}], {"by": "Bob"}, 10**30, float("nan")]


def mutate(value: Any, rng: random.Random) -> Any:
    """Replace one random part of a JSON-like value with junk."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        if rng.random() < 0.1:
            return {k: v for k, v in value.items() if k != key}
        return {**value, key: mutate(value[key], rng)}
    if isinstance(value, list) and value and rng.random() < 0.7:
        i = rng.randrange(len(value))
        return value[:i] + [mutate(value[i], rng)] + value[i + 1 :]
    return rng.choice(JUNK)


def test_mutated_entries_raise_nothing_but_invalid_hand():
    rng = random.Random(20240901)
    refused = 0
    for _ in range(3000):
        contract = rng.choice(CONTRACTS)
        entry = {**BASE[contract], "doubles": [dbl(B, A, rng.random() < 0.5)]}
        for _ in range(rng.randint(1, 3)):
            entry = mutate(entry, rng)
        replay = new_replay()
        try:
            hand = replay.play(entry)
        except InvalidHand as err:
            refused += 1
            assert err.fields and len(replay.hands) == 0
        else:
            # Accepted junk must still be a legal hand.
            assert sum(hand["raw"].values()) == RULES_SUM[hand["contract"]]
            assert sum(hand["scores"].values()) == sum(hand["raw"].values())
    assert refused > 1000


# -- options ----------------------------------------------------------------------------


@pytest.mark.parametrize("raw", [None, {}])
def test_option_defaults(raw):
    options = barbu.parse_options(PLAYERS, raw, random.Random(1))
    assert set(options) == {"first_declarer", "domino_scores", "enforce_declarer_doubles"}
    assert options["domino_scores"] == DOMINOES_DEFAULT
    assert options["enforce_declarer_doubles"] is True
    assert options["first_declarer"] in PLAYERS


def test_first_declarer_is_drawn_with_the_given_rng():
    random.seed(1)
    first = [barbu.parse_options(PLAYERS, {}, random.Random(seed))["first_declarer"] for seed in range(60)]
    random.seed(2)  # the global generator plays no part
    again = [barbu.parse_options(PLAYERS, None, random.Random(seed))["first_declarer"] for seed in range(60)]
    assert first == again
    assert set(first) == set(PLAYERS)


@pytest.mark.parametrize("given, expected", [(C, C), (" Dee ", D), (A, A)])
def test_first_declarer_can_be_picked(given, expected):
    options = barbu.parse_options(PLAYERS, {"first_declarer": given}, random.Random(0))
    assert options["first_declarer"] == expected
    assert barbu.GAME.new_replay(PLAYERS, options).next()["declarer"] == expected


def test_domino_variant_and_enforcement_option_are_accepted():
    options = barbu.parse_options(
        PLAYERS, {"domino_scores": DOMINOES_VARIANT, "enforce_declarer_doubles": False, "first_declarer": B},
        random.Random(0),
    )
    assert options == {"first_declarer": B, "domino_scores": DOMINOES_VARIANT, "enforce_declarer_doubles": False}


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"target": 150}, "options"),
        ({"first_declarer": A, "doubles": True}, "options"),
        ([("first_declarer", A)], "options"),
        ("first_declarer=Ann", "options"),
        ({"first_declarer": "Zed"}, "first_declarer"),
        ({"first_declarer": 2}, "first_declarer"),
        ({"first_declarer": [A]}, "first_declarer"),
        # Left out, the first declarer is drawn; null or "" names nobody (the API's schema refuses them too).
        ({"first_declarer": None}, "first_declarer"),
        ({"first_declarer": ""}, "first_declarer"),
        ({"domino_scores": [45, 20, 5]}, "domino_scores"),
        ({"domino_scores": [45, 20, 5, -5, 0]}, "domino_scores"),
        ({"domino_scores": "45,20,5,-5"}, "domino_scores"),
        ({"domino_scores": None}, "domino_scores"),
        ({"domino_scores": {"1": 45}}, "domino_scores"),
        ({"domino_scores": [45, 20, 5, "-5"]}, "domino_scores"),
        ({"domino_scores": [45.0, 20, 5, -5]}, "domino_scores"),
        ({"domino_scores": [True, 44, 25, -5]}, "domino_scores"),
        ({"domino_scores": [45, 20, 5, None]}, "domino_scores"),
        ({"domino_scores": [50, 20, 5, -5]}, "domino_scores"),  # adds up to 70, not 65
        ({"domino_scores": [-5, 5, 20, 45]}, "domino_scores"),  # first place must score most
        ({"domino_scores": [10 ** 310, 0, 0, 65 - 10 ** 310]}, "domino_scores"),  # adds up, but beyond any table
        ({"domino_scores": [131, 0, 0, -66]}, "domino_scores"),
        ({"domino_scores": [195, 0, 0, -130]}, "domino_scores"),
        ({"enforce_declarer_doubles": "yes"}, "enforce_declarer_doubles"),
        ({"enforce_declarer_doubles": "false"}, "enforce_declarer_doubles"),
        ({"enforce_declarer_doubles": 1}, "enforce_declarer_doubles"),
        ({"enforce_declarer_doubles": 0}, "enforce_declarer_doubles"),
        ({"enforce_declarer_doubles": None}, "enforce_declarer_doubles"),
    ],
)
def test_bad_options_are_refused(raw, field):
    with pytest.raises(InvalidHand) as info:
        barbu.parse_options(PLAYERS, raw, random.Random(0))
    assert field in info.value.fields, info.value.fields


# docs/rules.md 1.6: each Dominoes score is a whole number from -130 to 130 (what the two positive
# contracts are worth together), and the four go down and add up to 65. (scores, accepted)
DOMINO_RANGE = [
    pytest.param([130, 0, 0, -65], True, id="130 first"),
    pytest.param([65, 65, 65, -130], True, id="-130 last"),
    pytest.param([131, 0, 0, -66], False, id="131 first"),
    pytest.param([65, 65, 66, -131], False, id="-131 last"),
    pytest.param([10 ** 310, 0, 0, 65 - 10 ** 310], False, id="10^310"),
]


@pytest.mark.parametrize("scores, accepted", DOMINO_RANGE)
def test_domino_scores_have_a_range(scores, accepted):
    if accepted:
        replay = new_replay(A, domino_scores=scores)
        hand = replay.play({"contract": "dominoes", "order": [A, B, C, D]})
        assert hand["raw"] == per(scores)
    else:
        with pytest.raises(InvalidHand) as info:
            barbu.parse_options(PLAYERS, {"domino_scores": scores}, random.Random(0))
        assert info.value.fields == {"domino_scores": "Enter a number from -130 to 130."}


def test_stored_options_are_checked_again_when_replayed():
    """A match's options kept in the database pass the same rules before a hand is added up."""
    options = {"first_declarer": A, "domino_scores": [10 ** 310, 0, 0, 65 - 10 ** 310],
               "enforce_declarer_doubles": True}
    with pytest.raises(InvalidHand) as info:
        barbu.GAME.new_replay(PLAYERS, options)
    assert set(info.value.fields) == {"domino_scores"}


def test_the_registry_knows_barbu():
    game = GAMES["barbu"]
    assert game is barbu.GAME
    assert (game.slug, game.min_players, game.max_players, game.max_hands) == ("barbu", 4, 4, 28)


# -- summary ----------------------------------------------------------------------------

# One block's entries by position (0..3 counted from a shifting seat), no doubles.
# Position scores: 0: trumps 65 + dominoes 45 = 110; 1: -26 -24 -30 + 5 = -75;
# 2: dominoes 20; 3: -30 -20 -5 = -55. They add up to 0.
PATTERN = [
    ("trumps", lambda at: {"tricks": {at(0): 13, at(1): 0, at(2): 0, at(3): 0}}),
    ("no_tricks", lambda at: {"tricks": {at(0): 0, at(1): 13, at(2): 0, at(3): 0}}),
    ("no_queens", lambda at: {"queens": {at(0): 0, at(1): 4, at(2): 0, at(3): 0}}),
    ("no_hearts", lambda at: {"hearts": {at(0): 0, at(1): 0, at(2): 0, at(3): 13}, "ace_of_hearts": at(3)}),
    ("no_last_two", lambda at: {"second_last": at(1), "last": at(1)}),
    ("barbu", lambda at: {"king_of_hearts": at(3)}),
    ("dominoes", lambda at: {"order": [at(0), at(2), at(1), at(3)]}),
]
POSITION_SCORE = [65 + 45, -26 - 24 - 30 + 5, 20, -30 - 20 - 5]


@pytest.mark.parametrize(
    "shift, totals, winners",
    [
        (0, [440, -300, 80, -220], [A]),  # Ann holds position 0 in every block
        (1, [0, 0, 0, 0], PLAYERS),  # every player holds every position once
        (2, [260, -260, 260, -260], [A, C]),  # positions 0 and 2 twice each for Ann and Cid
    ],
)
def test_summary_after_28_hands(shift, totals, winners):
    assert sum(POSITION_SCORE) == 0
    replay = new_replay(A, enforce_declarer_doubles=False)
    for block in range(4):
        for contract, cards in PATTERN:
            assert not replay.summary()["finished"]
            replay.play({"contract": contract, **cards(lambda pos: PLAYERS[(pos + shift * block) % 4])})
    summary = replay.summary()
    assert summary["finished"] is True
    assert summary["next"] is None and replay.next() is None
    assert summary["totals"] == per(totals)
    assert summary["winners"] == winners
    assert [sum(POSITION_SCORE[(p - shift * b) % 4] for b in range(4)) for p in range(4)] == totals


def test_summary_before_the_end():
    replay = new_replay(B)
    summary = replay.summary()
    assert summary == {"totals": per([0, 0, 0, 0]), "finished": False, "winners": [], "next": replay.next(),
                       "max_hands": 28}
    play_until(replay, 28)
    summary = replay.summary()
    assert not summary["finished"] and summary["winners"] == []
    assert summary["next"]["number"] == 28


# -- invariants over random matches -----------------------------------------------------


@pytest.mark.parametrize("honour_obligation", [True, False])
def test_random_matches_keep_the_invariants(honour_obligation):
    rng = random.Random(28 if honour_obligation else 82)
    for _ in range(200 if honour_obligation else 100):
        replay, entries = random_match(rng, honour_obligation)
        summary = replay.summary()
        assert summary["finished"] and summary["next"] is None
        assert summary["totals"] == {p: sum(h["scores"][p] for h in replay.hands) for p in PLAYERS}
        assert sum(summary["totals"].values()) == 0
        best = max(summary["totals"].values())
        assert summary["winners"] == [p for p in PLAYERS if summary["totals"][p] == best]
        # Replaying the stored entries gives the same match (store what was entered, derive the scores).
        again = barbu.GAME.new_replay(PLAYERS, replay.options)
        for hand in replay.hands:
            again.play(copy.deepcopy(hand["entry"]))
        assert again.hands == replay.hands


def test_settle_matches_the_pair_formula_on_random_hands():
    rng = random.Random(5)
    for _ in range(2000):
        raw = {p: rng.randint(-40, 70) for p in PLAYERS}
        doubles = []
        for x, y in combinations(PLAYERS, 2):
            if rng.random() < 0.6:
                by, target = rng.sample([x, y], 2)
                doubles.append(dbl(by, target, rng.random() < 0.4))
        rng.shuffle(doubles)
        scores = barbu.settle(raw, doubles)
        assert scores == reference_settle(raw, doubles)
        assert sum(scores.values()) == sum(raw.values())


# -- doctests ---------------------------------------------------------------------------

ENGINE_MODULES = sorted(
    f"scorekeeper.games.{info.name}" for info in pkgutil.iter_modules(scorekeeper.games.__path__)
)


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, verbose=False)
    assert result.failed == 0
    if name in ("scorekeeper.games.base", "scorekeeper.games.barbu"):
        assert result.attempted > 0


# -- what the panel for the next hand shows ----------------------------------------------------

# Hand number -> hands left in the declarer's block, this one included (docs/rules.md 1.1).
HANDS_LEFT = {number: HANDS_PER_BLOCK - (number - 1) % HANDS_PER_BLOCK for number in range(1, HANDS + 1)}


def test_hands_left_table_reads_as_the_rules_say():
    assert [HANDS_LEFT[n] for n in range(1, 15)] == [7, 6, 5, 4, 3, 2, 1, 7, 6, 5, 4, 3, 2, 1]
    assert [HANDS_LEFT[n] for n in (1, 8, 15, 22)] == [7, 7, 7, 7]
    assert [HANDS_LEFT[n] for n in (7, 14, 21, 28)] == [1, 1, 1, 1]


@pytest.mark.parametrize("first", [A, C])
def test_hands_left_in_block_for_every_hand(first):
    replay = new_replay(first)
    for number in range(1, HANDS + 1):
        nxt = replay.next()
        assert (nxt["number"], nxt["hands_left_in_block"]) == (number, HANDS_LEFT[number])
        assert nxt["declarer"] == declarer_at(first, number)
        play_until(replay, number + 1)
    assert replay.next() is None and replay.summary()["next"] is None


# -- compulsory doubles: the warnings a lenient match keeps ----------------------------------------

MUST_DOUBLE = "{name} must double the declarer {declarer}: the doubles still owed equal the hands left."


def must_double(name: str, declarer: str) -> Reason:
    return Reason(MUST_DOUBLE, {"name": name, "declarer": declarer})


def undoubled_block(enforce: bool) -> barbu.BarbuReplay:
    """Ann declares; in hands 1-5 nobody doubles her, so everyone still owes her two doubles."""
    replay = new_replay(A, enforce_declarer_doubles=enforce)
    for contract in CONTRACTS[:5]:
        assert replay.play({"contract": contract, **PLAIN_CARDS[contract]})["warnings"] == []
    return replay


HAND_6 = {"contract": "trumps", **PLAIN_CARDS["trumps"], "doubles": [dbl(C, A)]}
HAND_7 = {"contract": "dominoes", **PLAIN_CARDS["dominoes"], "doubles": []}


def test_warnings_name_each_player_who_left_out_a_compulsory_double():
    replay = undoubled_block(enforce=False)
    assert replay.warned == {}
    assert replay.next()["must_double"] == [B, C, D]
    hand = replay.play(HAND_6)  # Cid doubles Ann; Bob and Dee do not
    assert hand["warnings"] == [
        "Bob must double the declarer Ann: the doubles still owed equal the hands left.",
        "Dee must double the declarer Ann: the doubles still owed equal the hands left.",
    ]
    assert hand["scores"] == barbu.settle(hand["raw"], HAND_6["doubles"])  # scored as entered
    assert replay.warned == {6: [must_double(B, A), must_double(D, A)]}
    assert replay.next()["must_double"] == [B, C, D]  # Bob and Dee owe 2, Cid 1: one hand left
    hand = replay.play(HAND_7)
    assert hand["warnings"] == [
        "Bob must double the declarer Ann: the doubles still owed equal the hands left.",
        "Cid must double the declarer Ann: the doubles still owed equal the hands left.",
        "Dee must double the declarer Ann: the doubles still owed equal the hands left.",
    ]
    assert replay.warned == {6: [must_double(B, A), must_double(D, A)], 7: [must_double(p, A) for p in (B, C, D)]}
    assert [h["warnings"] for h in replay.hands[:5]] == [[]] * 5
    # Hand 8: Bob declares and nobody owes anything yet; a plain hand adds no warning.
    replay.play({"contract": "barbu", **PLAIN_CARDS["barbu"]})
    assert sorted(replay.warned) == [6, 7] and replay.hands[-1]["warnings"] == []


def test_enforced_match_refuses_the_same_hand_with_the_same_reasons():
    replay = undoubled_block(enforce=True)
    with pytest.raises(InvalidHand) as info:
        replay.play(HAND_6)
    err = info.value
    assert err.errors == [("doubles", must_double(B, A)), ("doubles", must_double(D, A))]
    assert err.fields == {"doubles": "Bob must double the declarer Ann: the doubles still owed equal the hands left."}
    assert str(err) == err.fields["doubles"]
    assert len(replay.hands) == 5 and replay.warned == {}
    hand = replay.play({**HAND_6, "doubles": [dbl(B, A), dbl(C, A), dbl(D, A)]})
    assert hand["warnings"] == [] and replay.warned == {}


@pytest.mark.parametrize(
    "entry, field, sentence",
    [
        ({"contract": "no_tricks", "tricks": per([4, 3, 3, 2])}, "tricks",
         "The tricks add up to 12; they must add up to 13."),
        ({"contract": "no_queens", "queens": per([1, 1, 1, 2])}, "queens",
         "The queens add up to 5; they must add up to 4."),
        ({"contract": "no_hearts", "hearts": per([4, 3, 3, 2]), "ace_of_hearts": A}, "hearts",
         "The hearts add up to 12; they must add up to 13."),
        ({"contract": "barbu", "king_of_hearts": C, "doubles": {"by": B}}, "doubles", "Give the doubles as a list."),
        ({"contract": "barbu", "king_of_hearts": C, "doubles": [B]}, "doubles", "Each double names who doubled and whom."),
    ],
)
def test_refusal_sentences(entry, field, sentence):
    err = assert_refused(new_replay(A), entry, field)
    assert err.fields == {field: sentence} and str(err) == sentence
