"""The club engine: digests of finished matches, read from tables scored by hand from docs/rules.md."""

from __future__ import annotations

import datetime
import json
import random

import pytest

from club_matches import FOUR, SIX, random_match, replay_of
from scorekeeper.club import Played, digest, in_order

DAY = datetime.date(2026, 12, 5)


def test_a_kozyol_digest_gives_each_seat_its_teams_figures():
    # Ann and Cid (seats 0, 2) against Bob and Dee (1, 3), to 4: light, eggs, light, light.
    replay = replay_of("kozyol", FOUR, {"target": 4}, [{"points": p} for p in ([75, 45], [60, 60], [45, 75], [85, 35])])
    assert digest("kozyol", [7, 8, 9, 10], replay) == {
        "game": "kozyol", "seats": [7, 8, 9, 10], "hands": 4,
        "totals": [2, 4, 2, 4], "places": [1, 2, 1, 2], "winners": [0, 2],
        "teams": [[0, 2], [1, 3]], "deals": [1, None, 0, 1], "goat": 1, "goat_with_eggs": True,
    }


def hearts_entry(hearts: list[int], marias: list[int], moon: str | None = None) -> dict:
    entry = {"hearts": dict(zip(SIX, hearts)), "black_marias": dict(zip(SIX, marias))}
    return entry | ({"moon": moon} if moon else {})


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
