"""What every engine shares (games/base.py) and the names they are given (names.py): player names and the refusal a
player reads.

Rows come from docs/rules.md ("Players") and from what the pages and the API show: a
refusal names the field, gives one English sentence, and keeps the template and its values
(a Reason) for the translation.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.games.base import NAME_MAX, InvalidHand, Reason
from scorekeeper.names import parse_players

FOUR = ["Ann", "Bob", "Cid", "Dee"]
TOO_LONG = "A name can have at most {limit} letters or signs; a letter with its marks counts as one."
ELEVEN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]


def refusal(raw: Any, low: int, high: int) -> Reason:
    """parse_players refuses raw: the one reason, on the players field."""
    with pytest.raises(InvalidHand) as info:
        parse_players(raw, low, high)
    err = info.value
    assert [name for name, _ in err.errors] == ["players"]
    assert isinstance(err.reason, Reason)
    assert err.fields == {"players": str(err.reason)}
    return err.reason


# -- InvalidHand ------------------------------------------------------------------------------


def test_a_plain_string_reason_becomes_a_reason():
    """The import page refuses a document with InvalidHand([("document", "some text")])."""
    err = InvalidHand([("document", "This is not a Scorekeeper backup.")])
    assert err.fields == {"document": "This is not a Scorekeeper backup."}
    assert str(err) == "This is not a Scorekeeper backup."
    assert err.reason == Reason("This is not a Scorekeeper backup.")
    assert err.reason.params == {}
    assert err.errors == [("document", Reason("This is not a Scorekeeper backup."))]
    assert all(isinstance(reason, Reason) for _, reason in err.errors)
    assert not hasattr(err, "hand")  # the hand a refusal is about goes in its reason, not on the error
    assert isinstance(err, ValueError)


def test_reasons_keep_their_template_and_values():
    reason = Reason("{n} left", {"n": 2})
    err = InvalidHand([("tricks", reason), ("tricks", "second"), ("queens", "Enter a number.")])
    assert err.errors == [("tricks", reason), ("tricks", Reason("second")), ("queens", Reason("Enter a number."))]
    assert err.fields == {"tricks": "2 left", "queens": "Enter a number."}  # the first reason per field
    assert str(err) == "2 left"
    assert err.reason is reason
    assert err.by_field(lambda r: r.text.upper()) == {"tricks": "{N} LEFT", "queens": "ENTER A NUMBER."}


def test_no_reason_at_all():
    err = InvalidHand([])
    assert (err.errors, err.fields, str(err)) == ([], {}, "invalid entry")


# -- parse_players ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [None, "Ann, Bob, Cid, Dee", ("Ann", "Bob", "Cid", "Dee"), {"Ann": 1}, 4,
     ["Ann", "Bob", "Cid", 4], ["Ann", "Bob", "Cid", None], ["Ann", "Bob", "Cid", ["Dee"]]],
    ids=["none", "string", "tuple", "object", "number", "a-number", "a-null", "a-list"],
)
def test_players_must_be_a_list_of_strings(raw):
    reason = refusal(raw, 4, 4)
    assert reason == Reason("Give the players as a list of names.")


@pytest.mark.parametrize(
    "raw, expected",
    [
        ([" Ann", "Bob ", "\tCid\n", "  Dee  "], FOUR),
        (["Ann Lee", "Bob", "Cid", "Dee"], ["Ann Lee", "Bob", "Cid", "Dee"]),  # inner spaces stay
        (["Жора", "Zoë", "李", "🂡 Dee"], ["Жора", "Zoë", "李", "🂡 Dee"]),  # any script
    ],
)
def test_names_are_trimmed_and_kept_in_seating_order(raw, expected):
    assert parse_players(raw, 4, 4) == expected


# (names given, fewest, most, the reason)
COUNTS = [
    (3, 4, 4, Reason("This game needs exactly {count} players.", {"count": 4})),
    (5, 4, 4, Reason("This game needs exactly {count} players.", {"count": 4})),
    (0, 4, 4, Reason("This game needs exactly {count} players.", {"count": 4})),
    (5, 6, 11, Reason("This game needs {low} to {high} players.", {"low": 6, "high": 11})),
    (12, 6, 11, Reason("This game needs {low} to {high} players.", {"low": 6, "high": 11})),
    (0, 6, 11, Reason("This game needs {low} to {high} players.", {"low": 6, "high": 11})),
]


@pytest.mark.parametrize("count, low, high, reason", COUNTS)
def test_player_count_limits(count, low, high, reason):
    names = [f"P{i}" for i in range(count)]
    assert refusal(names, low, high) == reason


def test_player_count_messages_read_well():
    assert str(refusal(FOUR[:3], 4, 4)) == "This game needs exactly 4 players."
    assert str(refusal(ELEVEN[:5], 6, 11)) == "This game needs 6 to 11 players."


@pytest.mark.parametrize("count", [6, 7, 8, 9, 10, 11])
def test_every_count_in_the_range_is_accepted(count):
    assert parse_players(ELEVEN[:count], 6, 11) == ELEVEN[:count]


def test_exactly_four():
    assert parse_players(FOUR, 4, 4) == FOUR


@pytest.mark.parametrize("empty", ["", " ", "\t", "   \n "])
def test_every_player_needs_a_name(empty):
    assert refusal(["Ann", "Bob", empty, "Dee"], 4, 4) == Reason("Every player needs a name.")


def test_forty_letters_are_accepted_forty_one_refused():
    assert NAME_MAX == 40
    forty = "x" * 40
    assert parse_players([forty, "Bob", "Cid", "Dee"], 4, 4)[0] == forty
    assert parse_players([f"  {forty}  ", "Bob", "Cid", "Dee"], 4, 4)[0] == forty  # counted after trimming
    reason = refusal(["x" * 41, "Bob", "Cid", "Dee"], 4, 4)
    assert reason == Reason(TOO_LONG, {"limit": 40})
    assert str(reason) == "A name can have at most 40 letters or signs; a letter with its marks counts as one."


@pytest.mark.parametrize("name", ["An\nn", "A\x00nn", "Ann\x1b", "A\u202enn", "A\x7fnn", "A\u2060nn",
                                  "An\u2028n", "A\u2029nn"])
def test_control_characters_are_refused(name):
    reason = refusal(["Bob", name, "Cid", "Dee"], 4, 4)
    assert reason == Reason("Names cannot contain control characters.")


def test_line_and_paragraph_separators_around_a_name_are_trimmed_like_spaces():
    assert parse_players(["\u2028Ann", "Bob\u2029", "Cid", "Dee"], 4, 4) == ["Ann", "Bob", "Cid", "Dee"]


@pytest.mark.parametrize(
    "names",
    [["Ann", "Bob", "Ann", "Dee"], [" Ann", "Bob", "Cid", "Ann "], ["Bob", "Bob", "Bob", "Bob"]],
)
def test_two_players_cannot_share_a_name(names):
    reason = refusal(names, 4, 4)
    assert reason == Reason("Two players have the same name; names must differ.")


def test_the_first_broken_rule_is_the_one_reported():
    """The count is checked before the names, and the names in seating order."""
    assert refusal(["", "Bob"], 4, 4).text == "This game needs exactly {count} players."
    assert refusal(["x" * 41, "", "Cid", "Dee"], 4, 4).text == TOO_LONG
    assert refusal(["", "x" * 41, "Cid", "Dee"], 4, 4).text == "Every player needs a name."
    assert refusal(["Ann", "Ann", "C\nid", "Dee"], 4, 4).text == "Names cannot contain control characters."
