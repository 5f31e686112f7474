"""Show the working: every hand carries how its scores were made, and the working adds up (docs/rules.md)."""

from __future__ import annotations

import random

import pytest

from scorekeeper.games import GAMES, barbu, hearts, kozyol

FOUR = ["Ann", "Bob", "Cid", "Dee"]
SIX = [*FOUR, "Eve", "Fay"]


def replay_of(slug: str, players: list[str], options: dict | None = None):
    game = GAMES[slug]
    return game.new_replay(players, game.parse_options(players, options or {}, random.Random(0)))


def test_barbu_each_double_moves_its_pairs_difference_times_one_or_two():
    played = replay_of("barbu", FOUR, {"first_declarer": "Ann"})
    hand = played.play({"contract": "trumps", "tricks": {"Ann": 6, "Bob": 3, "Cid": 1, "Dee": 3}, "doubles": [
        {"by": "Bob", "target": "Ann", "redoubled": True}, {"by": "Cid", "target": "Ann", "redoubled": False},
        {"by": "Dee", "target": "Ann", "redoubled": False}]})
    assert hand["raw"] == {"Ann": 30, "Bob": 15, "Cid": 5, "Dee": 15}
    assert hand["settlement"] == [
        {"by": "Bob", "target": "Ann", "weight": 2, "moved": -30},
        {"by": "Cid", "target": "Ann", "weight": 1, "moved": -25},
        {"by": "Dee", "target": "Ann", "weight": 1, "moved": -15},
    ]
    assert hand["scores"] == {"Ann": 100, "Bob": -15, "Cid": -20, "Dee": 0}


def working(hand) -> dict[str, int]:
    """The scores rebuilt from the raw scores and the settlement alone."""
    scores = dict(hand["raw"])
    for transfer in hand["settlement"]:
        scores[transfer["by"]] += transfer["moved"]
        scores[transfer["target"]] -= transfer["moved"]
    return scores


@pytest.mark.parametrize("seed", range(40))
def test_barbu_the_working_rebuilds_every_score_of_random_matches(seed):
    rng = random.Random(seed)
    played = replay_of("barbu", FOUR, {"first_declarer": rng.choice(FOUR), "enforce_declarer_doubles": False})
    cards = {"no_tricks": "tricks", "trumps": "tricks", "no_queens": "queens", "no_hearts": "hearts"}
    while not played.finished:
        upcoming = played.next()
        contract = rng.choice(upcoming["contracts_left"])
        entry: dict = {"contract": contract}
        if contract in cards:
            total = barbu.COUNT_TOTALS[cards[contract]]
            cuts = sorted(rng.randint(0, total) for _ in range(3))
            counts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], total - cuts[2]]
            entry[cards[contract]] = dict(zip(FOUR, counts))
            if contract == "no_hearts":
                entry["ace_of_hearts"] = next(p for p, n in zip(FOUR, counts) if n)
        elif contract == "no_last_two":
            entry |= {"second_last": rng.choice(FOUR), "last": rng.choice(FOUR)}
        elif contract == "barbu":
            entry["king_of_hearts"] = rng.choice(FOUR)
        else:
            entry["order"] = rng.sample(FOUR, len(FOUR))
        declarer = upcoming["declarer"]
        entry["doubles"] = [{"by": p, "target": declarer, "redoubled": rng.random() < 0.3}
                            for p in FOUR if p != declarer and rng.random() < 0.5]
        hand = played.play(entry)
        assert working(hand) == hand["scores"]
        assert all(t["weight"] in (barbu.DOUBLED, barbu.REDOUBLED) for t in hand["settlement"])
        assert sum(hand["scores"].values()) == sum(hand["raw"].values())


@pytest.mark.parametrize("points, tricks, options, kind, base, multiplier", [
    ([75, 45], None, {}, "light", 2, 1),
    ([91, 29], None, {}, "heavy", 4, 1),
    ([120, 0], [9, 0], {}, "no_trick", 6, 1),
    ([120, 0], [8, 1], {}, "heavy", 4, 1),
    ([120, 0], [8, 1], {"six_for_zero_points": True}, "no_trick", 6, 1),
])
def test_kozyol_the_loser_is_told_why_it_took_its_defeat_points(points, tricks, options, kind, base, multiplier):
    played = replay_of("kozyol", FOUR, options)
    hand = played.play({"points": points, **({"tricks": tricks} if tricks else {})})
    loser = hand["loser"]
    assert hand["settlement"] == {"points": points[loser], "tricks": (tricks or [None, None])[loser], "kind": kind,
                                  "base": base, "multiplier": multiplier}
    assert hand["defeat_points"][loser] == base * multiplier == kozyol.DEFEAT[kind] * multiplier


def test_kozyol_eggs_have_no_loser_and_the_next_deal_shows_its_doubling():
    played = replay_of("kozyol", FOUR, {"eggs_double_next": True})
    assert played.play({"points": [60, 60]})["settlement"] is None
    hand = played.play({"points": [45, 75]})
    assert hand["settlement"] == {"points": 45, "tricks": None, "kind": "light", "base": 2, "multiplier": 2}
    assert hand["defeat_points"] == [4, 0]


def test_hearts_points_are_hearts_plus_black_marias_and_the_moon_is_named():
    played = replay_of("hearts", SIX, {"moon_points": 26})
    hand = played.play({"hearts": dict(zip(SIX, [5, 4, 3, 6, 8, 0])), "black_marias": dict(zip(SIX, [1, 0, 0, 0, 1, 0]))})
    rule = hand["settlement"]
    assert rule == {"per_heart": hearts.HEART, "per_black_maria": hearts.BLACK_MARIA, "moon": None}
    assert all(hand["points"][p] == hand["entry"]["hearts"][p] * rule["per_heart"]
               + hand["entry"]["black_marias"][p] * rule["per_black_maria"] for p in SIX)
    moon = played.play({"hearts": dict(zip(SIX, [0, 0, 26, 0, 0, 0])), "black_marias": dict(zip(SIX, [0, 0, 2, 0, 0, 0])),
                        "moon": "add"})
    assert moon["settlement"]["moon"] == {"shooter": "Cid", "choice": "add", "points": 26}
    assert moon["scores"] == {"Ann": 26, "Bob": 26, "Cid": 0, "Dee": 26, "Eve": 26, "Fay": 26}
