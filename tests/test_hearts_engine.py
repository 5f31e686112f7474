"""Cancellation Hearts engine: rows from docs/rules.md section 3 and invariants over random games.

Expected numbers are written out from the rules (1 point a heart, 13 a Black Maria, 26 hearts
and 2 Black Marias in two decks), never read back from the engine's own constants.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from helpers.hearts import random_hand
from helpers.matches import hearts_reaching
from scorekeeper.games.base import InvalidHand
from scorekeeper.games.hearts import GAME, HeartsReplay, parse_options

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]
HAND_KEYS = {"number", "dealer", "leader", "pass", "entry", "points", "scores", "totals", "moon_shooter", "settlement"}
NEXT_KEYS = {"number", "dealer", "leader", "pass", "cards_each", "left_over"}


def players_of(count: int) -> list[str]:
    return NAMES[:count]


def new_replay(count: int, **options: Any) -> HeartsReplay:
    players = players_of(count)
    return HeartsReplay(players, parse_options(players, options, random.Random(0)))


def entry_of(players: list[str], hearts: list[int], marias: list[int], moon: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"hearts": dict(zip(players, hearts)), "black_marias": dict(zip(players, marias))}
    if moon is not None:
        entry["moon"] = moon
    return entry


def play(replay: HeartsReplay, hearts: list[int], marias: list[int], moon: str | None = None) -> dict[str, Any]:
    return replay.play(entry_of(replay.players, hearts, marias, moon))


def spread(count: int, hearts: int = 26) -> list[int]:
    """hearts shared round count players as evenly as can be: a plain hand that keeps the game going."""
    return [hearts // count + (seat < hearts % count) for seat in range(count)]


def replay_at(totals: list[int], **options: Any) -> HeartsReplay:
    replay = new_replay(len(totals), **options)
    for hearts in hearts_reaching(totals):
        play(replay, hearts, [0] * len(totals))
    assert list(replay.summary()["totals"].values()) == totals
    return replay


def as_list(replay: HeartsReplay, by_name: dict[str, int]) -> list[int]:
    assert list(by_name) == replay.players
    return list(by_name.values())


# -- worked examples -------------------------------------------------------------------


def test_example_1_points_of_eight_players():
    replay = new_replay(8)
    hand = play(replay, [5, 0, 7, 3, 2, 4, 5, 0], [1, 0, 0, 1, 0, 0, 0, 0])
    assert as_list(replay, hand["points"]) == [18, 0, 7, 16, 2, 4, 5, 0]
    assert as_list(replay, hand["scores"]) == [18, 0, 7, 16, 2, 4, 5, 0]
    assert hand["moon_shooter"] is None


@pytest.mark.parametrize(
    "moon, after",
    [
        ("add", [66, 61, 86, 70, 48, 74, 116]),
        ("subtract", [40, 35, 60, 44, 22, 48, 90]),
    ],
)
def test_example_2_moon_both_ways(moon, after):
    replay = replay_at([40, 35, 60, 70, 22, 48, 90])
    hand = play(replay, [0, 0, 0, 26, 0, 0, 0], [0, 0, 0, 2, 0, 0, 0], moon)
    assert hand["moon_shooter"] == "Dee"
    assert hand["entry"]["moon"] == moon
    assert as_list(replay, hand["points"]) == [0, 0, 0, 52, 0, 0, 0]
    assert as_list(replay, hand["totals"]) == after
    assert as_list(replay, replay.summary()["totals"]) == after
    assert not replay.summary()["finished"]


def test_example_3_game_ends_and_lowest_wins():
    replay = replay_at([140, 120, 98, 131, 77, 104], target=150)
    assert not replay.summary()["finished"]
    hand = play(replay, [6, 0, 0, 6, 14, 0], [0, 1, 0, 1, 0, 0])
    assert as_list(replay, hand["points"]) == [6, 13, 0, 19, 14, 0]
    summary = replay.summary()
    assert as_list(replay, summary["totals"]) == [146, 133, 98, 150, 91, 104]
    assert summary["finished"] is True
    assert summary["winners"] == ["Eve"]
    assert summary["next"] is None and replay.next() is None
    assert summary["closest"] == ["Dee"]
    assert summary["target"] == 150


# -- deal, dealer, leader, passing -----------------------------------------------------


@pytest.mark.parametrize(
    "count, cards_each, left_over",
    [(6, 17, 2), (7, 14, 6), (8, 13, 0), (9, 11, 5), (10, 10, 4), (11, 9, 5)],
)
def test_deal_table(count, cards_each, left_over):
    nxt = new_replay(count).next()
    assert set(nxt) == NEXT_KEYS
    assert (nxt["cards_each"], nxt["left_over"]) == (cards_each, left_over)
    assert cards_each * count + left_over == 104


@pytest.mark.parametrize(
    "count, first, number, dealer, leader, direction",
    [
        (6, 0, 1, 0, 1, "left"),
        (6, 0, 2, 1, 2, "right"),
        (6, 0, 6, 5, 0, "right"),
        (6, 0, 7, 0, 1, "left"),
        (7, 3, 1, 3, 4, "left"),
        (7, 3, 5, 0, 1, "left"),
        (7, 6, 1, 6, 0, "left"),
        (7, 6, 2, 0, 1, "right"),
        (8, 2, 9, 2, 3, "left"),
        (9, 4, 14, 8, 0, "right"),
        (11, 10, 12, 10, 0, "right"),
    ],
)
def test_rotation(count, first, number, dealer, leader, direction):
    players = players_of(count)
    replay = new_replay(count, target=1000, first_dealer=players[first])
    for _ in range(number - 1):
        play(replay, spread(count), [0] * count)
    expected = {"number": number, "dealer": players[dealer], "leader": players[leader], "pass": direction}
    nxt = replay.next()
    assert {key: nxt[key] for key in expected} == expected
    hand = play(replay, spread(count), [0] * count)
    assert {key: hand[key] for key in expected} == expected


@pytest.mark.parametrize("count", range(6, 12))
def test_dealer_moves_one_seat_left_each_hand(count):
    players = players_of(count)
    first = count // 2
    replay = new_replay(count, target=1000, first_dealer=players[first])
    for number in range(1, 2 * count + 2):
        hand = play(replay, spread(count), [0] * count)
        seat = (first + number - 1) % count
        assert hand["dealer"] == players[seat]
        assert hand["leader"] == players[(seat + 1) % count]
        assert hand["pass"] == ("left" if number % 2 else "right")


# -- the moon --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "moon_points, moon, scores",
    [
        (26, "subtract", [0, 0, -26, 0, 0, 0]),
        (26, "add", [26, 26, 0, 26, 26, 26]),
        (52, "subtract", [0, 0, -52, 0, 0, 0]),
        (52, "add", [52, 52, 0, 52, 52, 52]),
    ],
)
def test_moon(moon_points, moon, scores):
    replay = new_replay(6, moon_points=moon_points)
    hand = play(replay, [0, 0, 26, 0, 0, 0], [0, 0, 2, 0, 0, 0], moon)
    assert hand["moon_shooter"] == "Cid"
    assert as_list(replay, hand["points"]) == [0, 0, 52, 0, 0, 0]
    assert as_list(replay, hand["scores"]) == scores
    assert as_list(replay, hand["totals"]) == scores


@pytest.mark.parametrize("moon", [None, ""])
def test_missing_moon_choice_refused(moon):
    replay = new_replay(6)
    entry = entry_of(replay.players, [26, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0])
    if moon is not None:
        entry["moon"] = moon
    with pytest.raises(InvalidHand) as err:
        replay.play(entry)
    assert set(err.value.fields) == {"moon"}
    assert "Ann" in err.value.fields["moon"]
    assert replay.hands == []


@pytest.mark.parametrize(
    "hearts, marias, points",
    [
        ([26, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [39, 0, 0, 0, 0, 0]),
        ([26, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], [39, 13, 0, 0, 0, 0]),
        ([26, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0], [26, 26, 0, 0, 0, 0]),
        ([25, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [51, 0, 0, 0, 0, 0]),
        ([5, 0, 7, 3, 2, 9], [1, 0, 0, 1, 0, 0], [18, 0, 7, 16, 2, 9]),
    ],
)
@pytest.mark.parametrize("moon", ["add", "subtract"])
def test_moon_choice_refused_when_nobody_shot(hearts, marias, points, moon):
    """docs/rules.md 3.4: a moon choice for a hand without a moon is refused, not ignored."""
    replay = new_replay(6)
    with pytest.raises(InvalidHand) as err:
        play(replay, hearts, marias, moon)
    assert err.value.fields == {"moon": "Nobody took all 26 hearts and both Black Marias, so there is no moon to "
                                        "choose; leave it empty."}
    assert replay.hands == []
    hand = play(replay, hearts, marias)
    assert "moon" not in hand["entry"] and hand["moon_shooter"] is None
    assert as_list(replay, hand["scores"]) == points


# -- sums ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hearts, marias, points",
    [
        ([20, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [20, 13, 0, 0, 0, 0]),
        ([4, 4, 4, 4, 4, 0], [0, 0, 0, 0, 0, 0], [4, 4, 4, 4, 4, 0]),
        ([0, 5, 5, 5, 5, 5], [0, 0, 0, 0, 1, 1], [0, 5, 5, 5, 18, 18]),
        ([10, 10, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [10, 10, 0, 0, 0, 0]),
    ],
)
def test_points_lost_on_a_cancelled_last_trick(hearts, marias, points):
    replay = new_replay(6)
    hand = play(replay, hearts, marias)
    assert as_list(replay, hand["points"]) == points
    assert as_list(replay, hand["totals"]) == points


# docs/rules.md 3.3: the cancelled last trick holds N cards, so at least 26 - N hearts are taken.
# (players, fewest hearts taken)
FEWEST_HEARTS = [(6, 20), (7, 19), (8, 18), (9, 17), (10, 16), (11, 15)]


@pytest.mark.parametrize("count, fewest", FEWEST_HEARTS)
def test_the_fewest_hearts_a_hand_can_take(count, fewest):
    replay = new_replay(count)
    hand = play(replay, spread(count, fewest), [0] * count)
    assert sum(hand["points"].values()) == fewest
    with pytest.raises(InvalidHand) as err:
        play(replay, spread(count, fewest - 1), [0] * count)
    assert err.value.fields == {"hearts": f"The hearts add up to {fewest - 1}, but at least {fewest} are taken: "
                                          f"a cancelled last trick loses at most {count} cards."}
    assert len(replay.hands) == 1


@pytest.mark.parametrize("count", range(6, 12))
def test_a_hand_of_no_hearts_at_all_is_refused(count):
    replay = new_replay(count)
    with pytest.raises(InvalidHand) as err:
        play(replay, [0] * count, [1, 1] + [0] * (count - 2))
    assert set(err.value.fields) == {"hearts"} and replay.hands == []


@pytest.mark.parametrize(
    "hearts, marias, field",
    [
        ([26, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], "hearts"),
        ([5, 5, 5, 5, 5, 5], [0, 0, 0, 0, 0, 0], "hearts"),
        ([26, 26, 0, 0, 0, 0], [2, 2, 0, 0, 0, 0], "hearts"),
        ([5, 5, 5, 5, 5, 1], [2, 1, 0, 0, 0, 0], "black_marias"),
        ([26, 0, 0, 0, 0, 0], [2, 2, 2, 0, 0, 0], "black_marias"),
    ],
)
def test_sums_above_the_deck_refused(hearts, marias, field):
    replay = new_replay(6)
    with pytest.raises(InvalidHand) as err:
        play(replay, hearts, marias, "add")
    assert set(err.value.fields) == {field}
    assert replay.hands == [] and set(replay.totals.values()) == {0}


# -- end of the game -------------------------------------------------------------------


@pytest.mark.parametrize(
    "target, hands, totals, winners, closest",
    [
        # Two players tie lowest; the game ends once Ann passes 100.
        (
            100,
            [([14, 4, 3, 1, 1, 3], [2, 0, 0, 0, 0, 0], None)] * 3,
            [120, 12, 9, 3, 3, 9],
            ["Dee", "Eve"],
            ["Ann"],
        ),
        # A moon added to everyone else ends the game; the shooter alone wins, two are closest.
        (
            100,
            [([26, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0], None)] * 3
            + [([0, 0, 26, 0, 0, 0], [0, 0, 2, 0, 0, 0], "add")],
            [104, 104, 0, 26, 26, 26],
            ["Cid"],
            ["Ann", "Bob"],
        ),
        # Reaching the target exactly ends the game; nobody took a point except Ann.
        (
            104,
            [([26, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], None)] * 4,
            [104, 0, 0, 0, 0, 0],
            ["Bob", "Cid", "Dee", "Eve", "Fay"],
            ["Ann"],
        ),
    ],
)
def test_end_of_game(target, hands, totals, winners, closest):
    replay = new_replay(6, target=target)
    for i, (hearts, marias, moon) in enumerate(hands):
        assert not replay.summary()["finished"], f"ended before hand {i + 1}"
        play(replay, hearts, marias, moon)
    summary = replay.summary()
    assert as_list(replay, summary["totals"]) == totals
    assert summary["finished"] is True
    assert summary["winners"] == winners
    assert summary["closest"] == closest
    assert summary["next"] is None


def test_recording_after_the_end_refused():
    replay = replay_at([140, 120, 98, 131, 77, 104], target=150)
    play(replay, [6, 0, 0, 6, 14, 0], [0, 1, 0, 1, 0, 0])
    before = (len(replay.hands), dict(replay.totals))
    with pytest.raises(InvalidHand) as err:
        play(replay, [0] * 6, [0] * 6)
    assert set(err.value.fields) == {"number"}
    assert "150" in err.value.fields["number"]
    assert (len(replay.hands), dict(replay.totals)) == before


def test_one_below_the_target_plays_on():
    replay = replay_at([149, 0, 0, 0, 0, 0], target=150)
    summary = replay.summary()
    assert summary["finished"] is False and summary["winners"] == []
    assert summary["next"]["number"] == len(replay.hands) + 1
    assert summary["closest"] == ["Ann"]


def test_hand_state_shape_and_history_kept():
    replay = new_replay(6)
    first = play(replay, [5, 0, 7, 3, 2, 9], [1, 0, 0, 1, 0, 0])
    play(replay, [0, 26, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0])
    assert set(first) == HAND_KEYS
    assert replay.hands[0] is first
    assert as_list(replay, replay.hands[0]["totals"]) == [18, 0, 7, 16, 2, 9]
    assert as_list(replay, replay.hands[1]["totals"]) == [18, 26, 20, 16, 2, 9]
    assert first["entry"] == entry_of(replay.players, [5, 0, 7, 3, 2, 9], [1, 0, 0, 1, 0, 0])
    assert set(replay.summary()) == {"totals", "finished", "winners", "next", "closest", "target", "max_hands"}


def test_names_are_trimmed_in_the_entry():
    replay = new_replay(6)
    entry = entry_of(replay.players, [5, 0, 7, 3, 2, 9], [1, 0, 0, 1, 0, 0])
    entry["hearts"] = {f" {name} ": n for name, n in entry["hearts"].items()}
    hand = replay.play(entry)
    assert list(hand["entry"]["hearts"]) == replay.players
    assert as_list(replay, hand["points"]) == [18, 0, 7, 16, 2, 9]


# -- options ---------------------------------------------------------------------------


@pytest.mark.parametrize("raw", [None, {}])
@pytest.mark.parametrize("seed", range(5))
def test_option_defaults_are_not_drawn(raw, seed):
    players = players_of(9)
    assert parse_options(players, raw, random.Random(seed)) == {
        "target": 150,
        "moon_points": 26,
        "first_dealer": "Ann",
    }


@pytest.mark.parametrize(
    "raw, expected",
    [
        ({"target": 100}, {"target": 100}),
        ({"target": 26}, {"target": 26}),
        ({"target": 99}, {"target": 99}),
        ({"target": 1000}, {"target": 1000}),
        ({"target": 250}, {"target": 250}),
        ({"moon_points": 52}, {"moon_points": 52}),
        ({"moon_points": 26}, {"moon_points": 26}),
        ({"first_dealer": "Gus"}, {"first_dealer": "Gus"}),
        ({"first_dealer": " Cid "}, {"first_dealer": "Cid"}),
    ],
)
def test_options_accepted(raw, expected):
    options = parse_options(players_of(7), raw, random.Random(0))
    assert set(options) == {"target", "moon_points", "first_dealer"}
    assert {key: options[key] for key in expected} == expected


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"target": 25}, "target"),
        ({"target": 1001}, "target"),
        ({"target": 10 ** 310}, "target"),
        ({"target": 0}, "target"),
        ({"target": -150}, "target"),
        ({"target": "150"}, "target"),
        ({"target": 150.0}, "target"),
        ({"target": True}, "target"),
        ({"target": [150]}, "target"),
        ({"moon_points": 25}, "moon_points"),
        ({"moon_points": 27}, "moon_points"),
        ({"moon_points": 0}, "moon_points"),
        ({"moon_points": 104}, "moon_points"),
        ({"moon_points": "26"}, "moon_points"),
        ({"moon_points": 26.0}, "moon_points"),
        ({"moon_points": True}, "moon_points"),
        ({"first_dealer": "Zed"}, "first_dealer"),
        ({"first_dealer": "Kim"}, "first_dealer"),
        ({"first_dealer": 0}, "first_dealer"),
        ({"first_dealer": ["Ann"]}, "first_dealer"),
        # Left out, an option has its default; null or "" is no value (the API's schema refuses them too).
        ({"target": None}, "target"),
        ({"moon_points": None}, "moon_points"),
        ({"first_dealer": None}, "first_dealer"),
        ({"first_dealer": ""}, "first_dealer"),
        ({"targett": 150}, "options"),
        ({"first_declarer": "Ann"}, "options"),
        ([], "options"),
        ("target=150", "options"),
    ],
)
def test_options_refused(raw, field):
    with pytest.raises(InvalidHand) as err:
        parse_options(players_of(7), raw, random.Random(0))
    assert set(err.value.fields) == {field}
    assert "{" not in err.value.fields[field]


def test_game_record():
    assert (GAME.slug, GAME.title, GAME.min_players, GAME.max_players) == ("hearts", "Cancellation Hearts", 6, 11)
    players = players_of(6)
    replay = GAME.new_replay(players, GAME.parse_options(players, {"first_dealer": "Fay"}, random.Random(0)))
    assert replay.next()["dealer"] == "Fay" and replay.next()["leader"] == "Ann"


# -- malformed entries -----------------------------------------------------------------

SIX = players_of(6)
GOOD_HEARTS = dict(zip(SIX, [5, 0, 7, 3, 2, 9]))
GOOD_MARIAS = dict(zip(SIX, [1, 0, 0, 1, 0, 0]))
MOON_HEARTS = dict(zip(SIX, [26, 0, 0, 0, 0, 0]))
MOON_MARIAS = dict(zip(SIX, [2, 0, 0, 0, 0, 0]))


def with_value(counts: dict[str, int], name: str, value: Any) -> dict[Any, Any]:
    return {**counts, name: value}


def without(counts: dict[str, int], name: str) -> dict[str, int]:
    return {key: value for key, value in counts.items() if key != name}


BAD_ENTRIES = [
    (None, "entry"),
    ([], "entry"),
    ("hearts", "entry"),
    (7, "entry"),
    (True, "entry"),
    ([["hearts", GOOD_HEARTS]], "entry"),
    ({}, "hearts"),
    ({"black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": GOOD_HEARTS}, "black_marias"),
    ({"hearts": None, "black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": [5, 0, 7, 3, 2, 9], "black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": "Ann=5", "black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": 26, "black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": without(GOOD_HEARTS, "Fay"), "black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": with_value(GOOD_HEARTS, "Zed", 0), "black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": with_value(GOOD_HEARTS, "", 0), "black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": with_value(GOOD_HEARTS, 1, 0), "black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": with_value(GOOD_HEARTS, None, 0), "black_marias": GOOD_MARIAS}, "hearts"),
    ({"hearts": GOOD_HEARTS, "black_marias": without(GOOD_MARIAS, "Ann")}, "black_marias"),
    ({"hearts": GOOD_HEARTS, "black_marias": with_value(GOOD_MARIAS, "Kim", 0)}, "black_marias"),
    ({"hearts": GOOD_HEARTS, "black_marias": []}, "black_marias"),
    ({"hearts": GOOD_HEARTS, "black_marias": 2}, "black_marias"),
]
BAD_HEART_COUNTS = ["5", 5.0, 5.5, True, False, None, -1, 27, 104, [5], {"n": 5}, float("nan")]
BAD_MARIA_COUNTS = ["1", 1.0, True, None, -1, 3, 13, [1], {"n": 1}]
BAD_ENTRIES += [
    ({"hearts": with_value(GOOD_HEARTS, "Cid", value), "black_marias": GOOD_MARIAS}, "hearts")
    for value in BAD_HEART_COUNTS
]
BAD_ENTRIES += [
    ({"hearts": GOOD_HEARTS, "black_marias": with_value(GOOD_MARIAS, "Dee", value)}, "black_marias")
    for value in BAD_MARIA_COUNTS
]
BAD_MOONS = [None, "", "Subtract", "ADD", "both", 26, True, ["add"], {"add": True}]
BAD_ENTRIES += [
    ({"hearts": MOON_HEARTS, "black_marias": MOON_MARIAS, **({} if moon is None else {"moon": moon})}, "moon")
    for moon in BAD_MOONS
]


@pytest.mark.parametrize("entry, field", BAD_ENTRIES)
def test_malformed_entries_raise_invalid_hand_only(entry, field):
    replay = new_replay(6)
    with pytest.raises(InvalidHand) as err:
        replay.play(entry)
    assert set(err.value.fields) == {field}
    reason = err.value.fields[field]
    assert reason and "{" not in reason and reason.endswith(".")
    assert replay.hands == [] and set(replay.totals.values()) == {0}
    assert replay.next()["number"] == 1


# -- invariants over random games ------------------------------------------------------


def expected_scores(hearts: list[int], marias: list[int], moon: str, moon_points: int) -> tuple[list[int], list[int]]:
    """Points and scores straight from docs/rules.md section 3."""
    points = [h + 13 * m for h, m in zip(hearts, marias)]
    shooters = [i for i in range(len(hearts)) if hearts[i] == 26 and marias[i] == 2]
    if not shooters:
        return points, points
    (shooter,) = shooters
    if moon == "subtract":
        return points, [-moon_points if i == shooter else points[i] for i in range(len(points))]
    return points, [0 if i == shooter else points[i] + moon_points for i in range(len(points))]


def play_random_game(rng: random.Random) -> None:
    count = rng.randint(6, 11)
    players = players_of(count)
    first = rng.randrange(count)
    target = rng.randint(100, 260)
    moon_points = rng.choice([26, 52])
    options = {"target": target, "moon_points": moon_points, "first_dealer": players[first]}
    replay = GAME.new_replay(players, GAME.parse_options(players, options, rng))
    totals = [0] * count
    for number in range(1, 500):
        assert not replay.summary()["finished"]
        hearts, marias = random_hand(rng, count)
        moon = rng.choice(["subtract", "add", None])
        shot = any(h == 26 and m == 2 for h, m in zip(hearts, marias))
        if shot and moon is None:
            with pytest.raises(InvalidHand):
                play(replay, hearts, marias, moon)
            moon = rng.choice(["subtract", "add"])
        if not shot and moon is not None:
            with pytest.raises(InvalidHand):
                play(replay, hearts, marias, moon)
            moon = None
        hand = play(replay, hearts, marias, moon)
        points, scores = expected_scores(hearts, marias, moon, moon_points)
        totals = [t + s for t, s in zip(totals, scores)]
        seat = (first + number - 1) % count
        assert hand["number"] == number
        assert (hand["dealer"], hand["leader"]) == (players[seat], players[(seat + 1) % count])
        assert hand["pass"] == ("left" if number % 2 == 1 else "right")
        assert as_list(replay, hand["points"]) == points
        assert as_list(replay, hand["scores"]) == scores
        assert as_list(replay, hand["totals"]) == totals
        if not shot:
            assert hand["scores"] == hand["points"]
            assert hand["moon_shooter"] is None and "moon" not in hand["entry"]
        if max(totals) >= target:
            break
    else:
        pytest.fail("the game never ended")
    summary = replay.summary()
    assert summary["finished"] is True and summary["next"] is None
    assert as_list(replay, summary["totals"]) == totals
    assert all(sum(hand["scores"][p] for hand in replay.hands) == summary["totals"][p] for p in players)
    assert summary["winners"] == [p for p, t in zip(players, totals) if t == min(totals)]
    assert summary["closest"] == [p for p, t in zip(players, totals) if t == max(totals)]
    with pytest.raises(InvalidHand):
        play(replay, [0] * count, [0] * count)


@pytest.mark.parametrize("block", range(4))
def test_invariants_over_random_games(block):
    rng = random.Random(20261129 + block)
    for _ in range(60):
        play_random_game(rng)


# -- the sentence a player reads for each refusal ------------------------------------------------

HEARTS_SENTENCES = [
    pytest.param([], "entry", "A hand must be an object.", id="not an object"),
    pytest.param(entry_of(SIX, [20, 7, 0, 0, 0, 0], [0] * 6), "hearts",
                 "The hearts add up to 27; at most 26 can be taken.", id="27 hearts"),
    pytest.param(entry_of(SIX, [5, 5, 4, 4, 4, 4], [2, 1, 0, 0, 0, 0]), "black_marias",
                 "The Black Marias add up to 3; at most 2 can be taken.", id="3 Black Marias"),
    pytest.param(entry_of(SIX, [0] * 6, [0] * 6), "hearts",
                 "The hearts add up to 0, but at least 20 are taken: a cancelled last trick loses at most 6 cards.",
                 id="no hearts"),
    pytest.param(entry_of(SIX, [5, 5, 4, 4, 4, 4], [1, 1, 0, 0, 0, 0], "subtract"), "moon",
                 "Nobody took all 26 hearts and both Black Marias, so there is no moon to choose; leave it empty.",
                 id="moon without a moon"),
]


@pytest.mark.parametrize("entry, field, sentence", HEARTS_SENTENCES)
def test_refusal_sentences(entry, field, sentence):
    with pytest.raises(InvalidHand) as info:
        new_replay(6).play(entry)
    assert info.value.fields == {field: sentence}


@pytest.mark.parametrize(
    "raw, field, sentence",
    [
        ({"target": 25}, "target", "The target is a whole number of points from 26 to 1000."),
        ({"moon_points": 13}, "moon_points", "Shooting the moon counts either 26 or 52 points."),
    ],
)
def test_option_refusal_sentences(raw, field, sentence):
    with pytest.raises(InvalidHand) as info:
        parse_options(SIX, raw, random.Random(0))
    assert info.value.fields == {field: sentence}


def test_a_finished_game_says_so():
    replay = replay_at([150, 0, 0, 0, 0, 0])
    with pytest.raises(InvalidHand) as info:
        play(replay, [0] * 6, [0] * 6)
    assert info.value.fields == {"number": "The game is over: a player has reached the target of 150."}


# -- how long a game can last -------------------------------------------------------------


def test_a_game_kept_going_by_moons_stops_at_400_hands():
    """Moons taken off the shooter can keep a game under the target for ever; 400 hands is the limit."""
    count = 11
    replay = new_replay(count, target=1000)
    for number in range(1, 401):
        if number % 2:
            play(replay, spread(count), [0] * count)
        else:
            shooter = (number // 2) % count
            play(replay, [26 * (seat == shooter) for seat in range(count)],
                 [2 * (seat == shooter) for seat in range(count)], "subtract")
    summary = replay.summary()
    assert max(summary["totals"].values()) < 1000
    assert (summary["finished"], summary["next"], summary["max_hands"]) == (False, None, 400)
    with pytest.raises(InvalidHand) as info:
        play(replay, spread(count), [0] * count)
    assert info.value.fields == {"number": "This match has reached the limit of 400 hands; no more can be recorded."}
    assert len(replay.hands) == 400


def test_the_limit_is_the_games():
    assert GAME.max_hands == 400 == new_replay(6).max_hands


def test_stored_options_are_checked_again_when_replayed():
    """A match's options kept in the database pass the same rules before a hand is added up."""
    players = players_of(6)
    with pytest.raises(InvalidHand) as info:
        GAME.new_replay(players, {"target": 10 ** 310, "moon_points": 26, "first_dealer": "Ann"})
    assert set(info.value.fields) == {"target"}
