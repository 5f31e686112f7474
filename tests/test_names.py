"""A player's name: one spelling, look-alikes taken for one name, letters counted and cut as a reader sees them.

The look-alike key (games.base.same_name) and the engines' lookups by it, and the names module: a name
cleaned (NFC, zero-width spaces dropped), counted in grapheme clusters, refused when led by a mark, cut whole.
"""

from __future__ import annotations

import unicodedata

import pytest

from helpers.matches import hearts_entry
from helpers.names import (
    DECOMPOSED,
    KHMER_LETTER,
    LED_BY_A_MARK,
    LOOK_ALIKE,
    SAME_NAME,
    SREYPOV,
    TOO_LONG,
    khmer_name,
    nfc,
)
from scorekeeper.games import barbu, hearts, kozyol
from scorekeeper.games.base import (
    NAME_MAX,
    InvalidHand,
    as_player,
    per_player,
    player_named,
    quoted,
    same_name,
    stored_players,
)
from scorekeeper.names import NAME_CODE_POINTS, cleaned, clip, initials, letters, parse_players


def refused(names: list[str]) -> str:
    with pytest.raises(InvalidHand) as info:
        parse_players(names, len(names), len(names))
    return str(info.value.reason)


# -- the look-alike key ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("one, other, why", LOOK_ALIKE, ids=[why for _, _, why in LOOK_ALIKE])
def test_spellings_that_look_alike_have_one_key_and_make_one_name(one: str, other: str, why: str):
    assert one != other and same_name(one) == same_name(other), why
    assert refused([one, other, "Cid", "Dee"]) == SAME_NAME


@pytest.mark.parametrize("one, other", [
    ("Ann", "Anne"), ("Zoe", "Zoé"), ("Олег", "Oleg"),  # a letter more, an accent, another script
    ("\u17a7\u178f\u17d2\u178f\u1798", "\u17a7\u178f\u178f\u1798"),  # a subscript TA, and TA on the line
    ("\u179f\u17b8", "\u179f\u17bb"),  # two Khmer vowels
    ("\u0e84\u0eb3", "\u0e84\u0eb2"),  # Lao AM and AA
])
def test_names_that_read_differently_keep_their_own_keys(one: str, other: str):
    assert same_name(one) != same_name(other)
    assert parse_players([one, other, "Cid", "Dee"], 4, 4) == [nfc(one), nfc(other), "Cid", "Dee"]


def test_the_key_is_the_key_of_itself():
    for one, other, _ in LOOK_ALIKE:
        assert same_name(same_name(one)) == same_name(one) == same_name(other)


def test_a_khmer_subscript_typed_after_two_signs_moves_before_both():
    typed = "\u1794\u17c9\u17bc\u17d2\u179a"  # BA, a register shifter, a vowel, then subscript RO
    drawn = "\u1794\u17d2\u179a\u17c9\u17bc"
    assert same_name(typed) == same_name(drawn)


# -- a player found by any of their spellings (the engines) --------------------------------------------------------


def test_a_player_is_found_by_the_spelling_given_or_any_that_looks_alike():
    players = ["Zo\u00e9", SREYPOV, "\u17a7\u178f\u17d2\u178f\u1798", "\u0e84\u0eb3"]
    for one, other, _ in LOOK_ALIKE[:5]:
        stored = next((name for name in players if same_name(name) == same_name(one)), None)
        if stored is not None:
            assert player_named(one, players) == player_named(other, players) == stored
    assert player_named(" ZOE\u0301 ", players) == "Zo\u00e9"
    assert player_named("Zoe", players) is None


def test_the_spelling_as_given_wins_where_two_stored_names_look_alike():
    """A match stored before look-alikes were one name may seat both: each is found by its own spelling."""
    players = ["\u17a7\u178f\u17d2\u178f\u1798", "\u17a7\u178f\u17d2\u178a\u1798", "Cid", "Dee"]
    assert [player_named(name, players) for name in players] == players
    assert player_named("\u17a7\u178f\u17d2\u178f\u1798 ", players) == players[0]


def test_an_entry_naming_players_in_another_spelling_is_normalised_to_theirs():
    players = ["Zo\u00e9", "Bob", "Cid", "Dee"]
    assert as_player(DECOMPOSED, "last", players) == "Zo\u00e9"
    counts = per_player({"tricks": {"ZOE\u0301": 3, "bob": 4, "Cid": 5, "Dee": 1}}, "tricks", players, 13)
    assert counts == {"Zo\u00e9": 3, "Bob": 4, "Cid": 5, "Dee": 1}
    with pytest.raises(InvalidHand) as info:
        per_player({"tricks": {"Zo\u00e9": 3, DECOMPOSED: 4, "Cid": 5, "Dee": 1}}, "tricks", players, 13)
    assert str(info.value) == "Give one number per player, each player once."
    with pytest.raises(InvalidHand) as info:
        as_player("Eve", "last", players)
    assert str(info.value) == "Choose one of the players."


def test_every_engine_takes_a_hand_naming_a_player_by_a_decomposed_spelling():
    players = ["Zo\u00e9", "Bob", "Cid", "Dee"]
    game = barbu.GAME
    played = game.new_replay(players, game.parse_options(players, {"first_declarer": DECOMPOSED}, None))
    hand = played.play({"contract": "barbu", "king_of_hearts": "ZOE\u0301"})
    assert hand["entry"]["king_of_hearts"] == "Zo\u00e9"
    game = kozyol.GAME
    played = game.new_replay(players, game.parse_options(players, {"first_dealer": DECOMPOSED}, None))
    assert played.next()["dealer"] == "Zo\u00e9"
    six = [*players, "Eve", "Fay"]
    game = hearts.GAME
    played = game.new_replay(six, game.parse_options(six, None, None))
    entry = hearts_entry(1, six)
    entry["hearts"][DECOMPOSED] = entry["hearts"].pop("Zo\u00e9")
    entry["black_marias"]["ZOE\u0301"] = entry["black_marias"].pop("Zo\u00e9")
    hand = played.play(entry)
    assert list(hand["entry"]["hearts"]) == list(hand["entry"]["black_marias"]) == six


def test_a_stored_match_is_replayed_with_its_names_as_spelt():
    legacy = ["Zoe\u0301", "\u17a7\u178f\u17d2\u178f\u1798", "\u17a7\u178f\u17d2\u178a\u1798", "\u0301Dee"]
    assert stored_players(legacy, 4, 4) == legacy
    with pytest.raises(InvalidHand):
        stored_players(["Ann", "Ann", "Cid", "Dee"], 4, 4)


# -- a name given: cleaned, counted, checked -------------------------------------------------------------------


def test_a_name_is_kept_in_nfc():
    assert parse_players([DECOMPOSED, "Bob", "Cid", "Dee"], 4, 4)[0] == "Zo\u00e9"
    assert unicodedata.is_normalized("NFC", cleaned("Ame\u0301lie"))


def test_a_zero_width_space_is_dropped_not_refused():
    typed = "\u179f\u17d2\u179a\u17b8\u200b\u1796\u17c5"  # ស្រី, a word break, ពៅ
    assert parse_players([typed, "\u200bBob\u200b", "Cid", "Dee"], 4, 4) == [SREYPOV, "Bob", "Cid", "Dee"]


def test_joiners_stay_inside_a_name_and_go_at_its_ends():
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    assert parse_players([f"\u200d{family} Ann\u200c", "Bob", "Cid", "Dee"], 4, 4)[0] == f"{family} Ann"
    assert parse_players(["\u0915\u094d\u200c\u0937", "Bob", "Cid", "Dee"], 4, 4)[0] == "\u0915\u094d\u200c\u0937"


@pytest.mark.parametrize("name", ["\u0301", "\u0301Ann", "\u17b8\u179f", "\u0e34\u0e01", " \u0301 "])
def test_a_name_led_by_a_mark_is_refused(name: str):
    assert refused([name, "Bob", "Cid", "Dee"]) == LED_BY_A_MARK


@pytest.mark.parametrize("name", ["\u3164", "\u115f\u1160", "\u00a0\u200b\u00a0"])
def test_a_name_that_shows_nothing_is_no_name(name: str):
    assert refused([name, "Bob", "Cid", "Dee"]) == "Every player needs a name."


def test_letters_are_counted_as_a_reader_sees_them():
    forty = khmer_name(40)
    assert len(letters(forty)) == NAME_MAX < len(forty)
    assert parse_players([forty, "Bob", "Cid", "Dee"], 4, 4)[0] == forty
    assert refused([khmer_name(41), "Bob", "Cid", "Dee"]) == TOO_LONG
    accents = "e\u0301\u0302" * NAME_MAX  # forty letters of three code points each
    assert parse_players([accents, "Bob", "Cid", "Dee"], 4, 4)[0] == unicodedata.normalize("NFC", accents)
    flags = "\U0001f1eb\U0001f1f7" * NAME_MAX  # forty flags, two code points each
    assert parse_players([flags, "Bob", "Cid", "Dee"], 4, 4)[0] == flags
    assert refused(["x" * (NAME_MAX + 1), "Bob", "Cid", "Dee"]) == TOO_LONG


def test_a_few_letters_piled_with_marks_are_refused():
    piled = "Z" + "\u0336" * NAME_CODE_POINTS
    assert len(letters(piled)) == 1
    assert refused([piled, "Bob", "Cid", "Dee"]) == (
        "This name piles too many marks or joiners on its letters; write it more simply.")


# -- a name cut, never inside a letter ------------------------------------------------------------------------------


def test_a_cut_keeps_whole_letters():
    assert clip(SREYPOV * 3, 3) == SREYPOV + "\u2026"
    assert clip(DECOMPOSED * 10, 5) == DECOMPOSED + "Z\u2026"
    assert clip("Ann", 3) == "Ann"
    assert initials(SREYPOV, 2) == SREYPOV and initials(SREYPOV, 1) == SREYPOV[:4]
    assert initials(KHMER_LETTER + "x", 1) == KHMER_LETTER
    assert initials("\U0001f469\u200d\U0001f469\u200d\U0001f467 Ann", 1) == "\U0001f469\u200d\U0001f469\u200d\U0001f467"


def test_a_refusal_quotes_a_name_without_cutting_a_letter():
    long = "e\u0301" * 30
    assert quoted(long) == "e\u0301" * 20
    assert quoted("x" * 39 + "\u17d2\u179a") == "x" * 38  # the letter drawn with its subscript goes whole
    assert quoted("x" * 39 + "\u200d\U0001f469") == "x" * 38
