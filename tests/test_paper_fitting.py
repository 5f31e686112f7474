"""Rows of a read sheet fitted to the rules: certain rows, doubts the checksum settles, and rules broken on paper."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from helpers import barbu as barbu_helpers
from helpers.hearts import random_hand
from helpers.kozyol import play_deal
from helpers.paper import marks_of
from scorekeeper.games import GAMES
from scorekeeper.paper import fitting
from scorekeeper.paper.entries import paper_form
from scorekeeper.paper.layout import LOST, Key, Page, Value, page_for, rows_per_page
from scorekeeper.paper.marks import GroupMarks, group_marks

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
A, B, C, D = PLAYERS
HEARTS_PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
INK, PAPER, FAINT = 0.85, 0.02, 0.15  # how dark a mark, a blank bubble and a faint mark read (marks.py)

Marks = dict[tuple[int, Key], GroupMarks]


def sheet(page: Page, rows: list[dict[tuple[int, Key], tuple[Value, ...]]],
          faint: dict[tuple[int, Key], tuple[Value, ...]] | None = None) -> Marks:
    """The marks of a page as the reader finds them: inked values, faint ones, every other bubble blank."""
    chosen = {key: values for row in rows for key, values in row.items()}
    out: Marks = {}
    for group in page.groups:
        key = (group.row, group.key)
        inked, light = chosen.get(key, ()), (faint or {}).get(key, ())
        fills = [INK if b.value in inked else FAINT if b.value in light else PAPER for b in group.bubbles]
        out[key] = group_marks(group, fills)
    return out


def fit(game: str, rows: list[dict[str, Any]], players: list[str] = PLAYERS, options: dict[str, Any] | None = None,
        before: list[dict[str, Any]] | None = None, first: int = 1, change: Any = None) -> list[fitting.RowRead]:
    """Fit a page marked for rows (API entries); change(marks) alters the marks first."""
    page = page_for(game, len(players))
    chosen = [marks_of(game, entry, players, row) for row, entry in enumerate(rows)]
    marks = sheet(page, chosen)
    if change is not None:
        change(page, marks)
    return fitting.fit_page(page, marks, players, options or {}, before or [], first)


def normalized(game: str, players: list[str], options: dict[str, Any], entries: list[dict[str, Any]]) -> Any:
    """Each entry as the engine keeps it, played in turn."""
    replay = GAMES[game].new_replay(players, options)
    return [paper_form(game, replay.play(copy.deepcopy(entry))["entry"]) for entry in entries]


def reasons(row: fitting.RowRead) -> list[str]:
    return [str(reason) for reason in row.why]


def dbl(by: str, target: str, redoubled: bool = False) -> dict[str, Any]:
    return {"by": by, "target": target, "redoubled": redoubled}


BARBU = {"first_declarer": A}
# docs/rules.md, Barbu's worked examples 1 to 3 (the declarer of hand 1 is the first declarer).
EXAMPLES = [
    ({"first_declarer": A}, {"contract": "no_queens", "queens": {A: 1, B: 0, C: 1, D: 2},
                             "doubles": [dbl(B, A), dbl(B, C), dbl(B, D), dbl(C, A, True)]}),
    ({"first_declarer": A}, {"contract": "trumps", "tricks": {A: 6, B: 3, C: 1, D: 3},
                             "doubles": [dbl(B, A), dbl(C, A, True), dbl(D, A)]}),
    ({"first_declarer": C}, {"contract": "no_hearts", "hearts": {A: 4, B: 5, C: 2, D: 2}, "ace_of_hearts": A,
                             "doubles": [dbl(A, B, True), dbl(A, C), dbl(D, A, True), dbl(B, C, True), dbl(B, D),
                                         dbl(D, C)]}),
]


@pytest.mark.parametrize(("options", "entry"), EXAMPLES)
def test_barbu_examples_read_certain(options: dict[str, Any], entry: dict[str, Any]) -> None:
    row, *rest = fit("barbu", [entry], options=options)
    assert (row.status, row.number, row.reasons, row.recorded) == ("certain", 1, [], False)
    assert normalized("barbu", PLAYERS, options, [row.entry]) == normalized("barbu", PLAYERS, options, [entry])
    assert row.read["contract"] == [entry["contract"]]
    assert all(other.status == "empty" and other.entry is None for other in rest)


CERTAIN_ROWS = [
    ("barbu", {"contract": "no_last_two", "second_last": B, "last": B, "doubles": []}),
    ("barbu", {"contract": "barbu", "king_of_hearts": D, "doubles": [dbl(C, A)]}),
    ("barbu", {"contract": "dominoes", "order": [C, A, D, B], "doubles": [dbl(B, A, True)]}),
    ("barbu", {"contract": "no_tricks", "tricks": {A: 0, B: 11, C: 1, D: 1}, "doubles": []}),
    ("kozyol", {"points": [75, 45]}),
    ("kozyol", {"points": [60, 60]}),
    ("kozyol", {"points": [120, 0], "tricks": [None, 0]}),
    ("kozyol", {"points": [0, 120], "tricks": [1, None]}),  # no card points, but a trick: "no mark: it took one"
    ("hearts", {"hearts": dict(zip(HEARTS_PLAYERS, [5, 0, 7, 3, 2, 4, 5, 0])),
                "black_marias": dict(zip(HEARTS_PLAYERS, [1, 0, 0, 1, 0, 0, 0, 0]))}),
    ("hearts", {"hearts": dict(zip(HEARTS_PLAYERS, [20, 0, 0, 0, 0, 0, 0, 3])),  # 3 lost in a cancelled last trick
                "black_marias": dict(zip(HEARTS_PLAYERS, [1, 0, 0, 0, 0, 0, 0, 0]))}),  # and a Black Maria
    ("hearts", {"hearts": dict(zip(HEARTS_PLAYERS, [0, 26, 0, 0, 0, 0, 0, 0])),
                "black_marias": dict(zip(HEARTS_PLAYERS, [0, 2, 0, 0, 0, 0, 0, 0])), "moon": "add"}),
]


@pytest.mark.parametrize(("game", "entry"), CERTAIN_ROWS)
def test_clear_legal_rows_are_certain(game: str, entry: dict[str, Any]) -> None:
    players = HEARTS_PLAYERS if game == "hearts" else PLAYERS
    options = BARBU if game == "barbu" else {}
    row = fit(game, [entry], players, options)[0]
    assert (row.status, row.reasons) == ("certain", [])
    assert row.entry is not None
    assert normalized(game, players, options, [row.entry]) == normalized(game, players, options, [entry])


def test_a_missing_units_mark_is_settled_by_the_thirteen_tricks() -> None:
    entry = {"contract": "no_tricks", "tricks": {A: 3, B: 4, C: 5, D: 1}, "doubles": []}

    def blank_units_of_bob(page: Page, marks: Marks) -> None:
        marks[(0, ("units", 1))] = group_marks(page.group(0, ("units", 1)), [PAPER] * 10)

    row = fit("barbu", [entry], options=BARBU, change=blank_units_of_bob)[0]
    assert row.status == "doubtful"
    assert row.entry is not None and row.entry["tricks"] == {A: 3, B: 4, C: 5, D: 1}
    assert reasons(row)[0] == "The count of Bob has no mark from 0 to 9."
    assert "Check the count of Bob: the marks are unclear." in reasons(row)
    assert fitting.PROPOSED in row.reasons


def test_two_marks_in_a_group_are_a_doubt_the_checksum_settles() -> None:
    entry = {"contract": "no_queens", "queens": {A: 1, B: 0, C: 1, D: 2}, "doubles": []}

    def second_mark(page: Page, marks: Marks) -> None:  # Dee's units: 2, and a darker 3 (a corrected mark?)
        fills = [PAPER] * 10
        fills[2], fills[3] = 0.6, 0.9
        marks[(0, ("units", 3))] = group_marks(page.group(0, ("units", 3)), fills)

    row = fit("barbu", [entry], options=BARBU, change=second_mark)[0]
    assert row.status == "doubtful"
    assert row.entry is not None and row.entry["queens"] == {A: 1, B: 0, C: 1, D: 2}
    assert reasons(row)[0] == "The queens add up to 5; they must add up to 4."
    assert "Check the count of Dee: the marks are unclear." in reasons(row)


def test_a_faint_double_is_never_read_silently() -> None:
    entry = {"contract": "no_queens", "queens": {A: 1, B: 0, C: 1, D: 2}, "doubles": []}
    page = page_for("barbu", 4)
    marks = sheet(page, [marks_of("barbu", entry, PLAYERS, 0)], faint={(0, ("doubled", 1, 2)): (1,)})
    row = fitting.fit_page(page, marks, PLAYERS, BARBU, [], 1)[0]
    assert row.status == "doubtful"
    assert reasons(row) == ["Check the doubles between Bob and Cid: the marks are unclear."]


@pytest.mark.parametrize(("game", "entry", "first_reason"), [
    ("kozyol", {"points": [119, 1]}, "No set of cards adds up to 119; check the count of Ann and Cid."),
    ("kozyol", {"points": [75, 55]}, "The card points add up to 130; they must add up to 120."),
    ("kozyol", {"points": [80, 40], "tricks": [None, 0]}, "Bob and Dee won card points, so they took at least one trick."),
    ("hearts", {"hearts": dict(zip(HEARTS_PLAYERS, [6, 0, 7, 3, 2, 4, 5, 0])),
                "black_marias": dict(zip(HEARTS_PLAYERS, [1, 0, 0, 1, 0, 0, 0, 0]))},
     "The hearts taken and lost add up to 27; they must add up to 26."),
    ("hearts", {"hearts": dict(zip(HEARTS_PLAYERS, [5, 0, 7, 3, 2, 4, 5, 0])),
                "black_marias": dict(zip(HEARTS_PLAYERS, [1, 1, 0, 1, 0, 0, 0, 0]))},
     "The Black Marias taken and lost add up to 3; they must add up to 2."),
    ("hearts", {"hearts": dict(zip(HEARTS_PLAYERS, [0, 26, 0, 0, 0, 0, 0, 0])),
                "black_marias": dict(zip(HEARTS_PLAYERS, [0, 2, 0, 0, 0, 0, 0, 0]))},
     "Bob shot the moon: choose subtract (from Bob) or add (to everyone else)."),
    ("hearts", {"hearts": dict(zip(HEARTS_PLAYERS, [1, 25, 0, 0, 0, 0, 0, 0])),
                "black_marias": dict(zip(HEARTS_PLAYERS, [0, 2, 0, 0, 0, 0, 0, 0])), "moon": "subtract"},
     "Nobody took all 26 hearts and both Black Marias, so there is no moon to choose; leave it empty."),
    ("barbu", {"contract": "dominoes", "order": [A, B, C, D], "doubles": []},
     "The domino places must be 1, 2, 3 and 4, each once."),
    ("barbu", {"contract": "trumps", "tricks": {A: 6, B: 3, C: 1, D: 3}, "doubles": [dbl(B, C)]},
     "In this contract only the declarer may be doubled."),
    ("barbu", {"contract": "barbu", "king_of_hearts": D, "doubles": [dbl(A, C)]},
     "The declarer never starts a double; Ann may only redouble."),
])
def test_a_clear_row_that_breaks_a_rule_goes_to_review(game: str, entry: dict[str, Any], first_reason: str) -> None:
    players = HEARTS_PLAYERS if game == "hearts" else PLAYERS

    def same_place(page: Page, marks: Marks) -> None:  # Bob also marks place 1
        marks[(0, ("units", 1))] = marks[(0, ("units", 0))]

    row = fit(game, [entry], players, BARBU if game == "barbu" else {},
              change=same_place if first_reason.startswith("The domino") else None)[0]
    assert row.status == "doubtful"
    assert reasons(row)[0] == first_reason
    assert row.reasons[-1] == fitting.NO_LEGAL_ROW


def test_a_contract_the_declarer_has_played_is_refused() -> None:
    played = {"contract": "no_queens", "queens": {A: 1, B: 0, C: 1, D: 2}, "doubles": []}
    again = {"contract": "no_queens", "queens": {A: 0, B: 0, C: 2, D: 2}, "doubles": []}
    first, second, *_ = fit("barbu", [played, again], options=BARBU)
    assert first.status == "certain"
    assert second.status == "doubtful"
    assert reasons(second)[0] == "Ann has already played No Queens in this block."


def test_owed_doubles_are_required() -> None:
    contracts = ["no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu", "trumps"]
    entries = []
    for contract in contracts[:5]:
        entry: dict[str, Any] = {"contract": contract, "doubles": [dbl(C, A), dbl(D, A)]}
        entry.update({"no_tricks": {"tricks": {A: 13, B: 0, C: 0, D: 0}},
                      "no_queens": {"queens": {A: 4, B: 0, C: 0, D: 0}},
                      "no_hearts": {"hearts": {A: 13, B: 0, C: 0, D: 0}, "ace_of_hearts": A},
                      "no_last_two": {"second_last": A, "last": A}, "barbu": {"king_of_hearts": A}}[contract])
        entries.append(entry)
    sixth = {"contract": "trumps", "tricks": {A: 13, B: 0, C: 0, D: 0}, "doubles": [dbl(C, A), dbl(D, A)]}
    rows = fit("barbu", [*entries, sixth], options=BARBU, before=entries[:5])
    assert [row.status for row in rows[:5]] == ["certain"] * 5 and all(row.recorded for row in rows[:5])
    assert rows[5].status == "doubtful"
    assert reasons(rows[5])[0] == "Bob must double the declarer Ann: the doubles still owed equal the hands left."
    warned = fit("barbu", [*entries, sixth], options={**BARBU, "enforce_declarer_doubles": False}, before=entries[:5])
    assert warned[5].status == "certain"  # the match only warns


def test_a_recorded_row_with_the_same_figures_is_certain_and_not_sent_again() -> None:
    entries = [{"points": [75, 45], "trump_suit": "hearts", "tricks": [5, 4]}, {"points": [120, 0], "tricks": [9, 0]}]
    rows = fit("kozyol", [{"points": [75, 45]}, {"points": [120, 0], "tricks": [None, 0]}, {"points": [29, 91]}],
               before=entries)
    assert [(row.status, row.recorded) for row in rows[:3]] == [("certain", True), ("certain", True), ("certain", False)]
    assert rows[0].entry == entries[0]
    assert rows[2].entry == {"points": [29, 91]} and rows[2].number == 3


def test_a_recorded_row_with_other_figures_is_doubtful() -> None:
    rows = fit("kozyol", [{"points": [70, 50]}], before=[{"points": [75, 45]}])
    assert (rows[0].status, rows[0].recorded) == ("doubtful", False)
    assert reasons(rows[0]) == ["Hand 1 is already recorded with other figures."]
    assert rows[0].entry == {"points": [70, 50]}


def test_a_doubtful_row_that_may_read_as_the_recorded_hand_is_that_hand() -> None:
    def blank_units(page: Page, marks: Marks) -> None:
        marks[(0, ("units", 1))] = group_marks(page.group(0, ("units", 1)), [PAPER] * 10)

    rows = fit("kozyol", [{"points": [75, 45]}], before=[{"points": [75, 45]}], change=blank_units)
    assert (rows[0].status, rows[0].recorded) == ("certain", True)


def test_the_second_page_goes_on_from_the_match_so_far() -> None:
    played = [{"points": [60, 60]}] * 9  # eggs: the series goes on
    rows = fit("kozyol", [{"points": [29, 91]}], before=played, first=10)
    assert (rows[0].number, rows[0].status) == (10, "certain")
    early = fit("kozyol", [{"points": [29, 91]}], before=played[:3], first=10)[0]
    assert early.status == "doubtful"
    assert reasons(early) == ["Hand 4 is not recorded yet, so this row cannot be checked: save the rows before it first."]


def test_rows_after_the_last_marked_row_are_empty() -> None:
    rows = fit("kozyol", [{"points": [75, 45]}, {"points": [75, 45]}])
    assert [row.status for row in rows] == ["certain", "certain"] + ["empty"] * 7
    assert [row.number for row in rows] == list(range(1, 10))
    assert all(row.read == {} and row.entry is None for row in rows[2:])


def test_an_empty_row_between_marked_rows_is_doubtful_and_the_rows_below_are_read() -> None:
    def rub_out_row_1(page: Page, marks: Marks) -> None:
        for group in page.row_groups(1):
            marks[(1, group.key)] = group_marks(group, [PAPER] * len(group.bubbles))

    rows = fit("kozyol", [{"points": [75, 45]}, {"points": [60, 60]}, {"points": [29, 91]}], change=rub_out_row_1)
    assert [row.status for row in rows[:4]] == ["certain", "doubtful", "certain", "empty"]
    assert (rows[1].entry, rows[1].read) == (None, {})
    assert reasons(rows[1]) == ["Hand 2 has no marks but rows below it do: fill it in."]
    assert rows[2].entry == {"points": [29, 91]} and rows[2].number == 3


def test_a_row_of_faint_marks_is_doubtful_with_its_proposal_and_the_rows_below_are_read() -> None:
    light = {"points": [120, 0], "tricks": [None, 0]}
    page = page_for("kozyol", 4)
    marks = sheet(page, [marks_of("kozyol", {"points": [75, 45]}, PLAYERS, 0),
                         marks_of("kozyol", {"points": [29, 91]}, PLAYERS, 2)],
                  faint={key: values for key, values in marks_of("kozyol", light, PLAYERS, 1).items() if values})
    rows = fitting.fit_page(page, marks, PLAYERS, {}, [], 1)
    assert [row.status for row in rows[:4]] == ["certain", "doubtful", "certain", "empty"]
    assert rows[1].entry == light
    assert "Check the card points of Ann and Cid: the marks are unclear." in reasons(rows[1])
    assert rows[2].entry == {"points": [29, 91]}


def test_a_faint_mark_alone_where_no_mark_reads_nothing_is_no_empty_row() -> None:
    page = page_for("barbu", 4)
    marks = sheet(page, [], faint={(0, ("doubled", 0, 1)): (1,)})
    rows = fitting.fit_page(page, marks, PLAYERS, BARBU, [], 1)
    assert rows[0].status == "doubtful"
    assert all(row.status == "empty" for row in rows[1:])


def test_rows_after_a_doubtful_row_with_a_legal_proposal_are_checked_against_it() -> None:
    entries = [{"contract": "no_tricks", "tricks": {A: 3, B: 4, C: 5, D: 1}, "doubles": []},
               {"contract": "no_queens", "queens": {A: 1, B: 0, C: 1, D: 2}, "doubles": []},
               {"contract": "barbu", "king_of_hearts": D, "doubles": [dbl(C, A)]}]

    def blank_units_of_bob(page: Page, marks: Marks) -> None:
        marks[(0, ("units", 1))] = group_marks(page.group(0, ("units", 1)), [PAPER] * 10)

    rows = fit("barbu", entries, options=BARBU, change=blank_units_of_bob)
    assert [row.status for row in rows[:4]] == ["doubtful", "certain", "certain", "empty"]
    assert normalized("barbu", PLAYERS, BARBU, [row.entry for row in rows[:3]]) == normalized(
        "barbu", PLAYERS, BARBU, entries)


def test_a_row_the_rules_refuse_after_a_wrong_proposal_is_doubtful_never_certain() -> None:
    # Hand 1 is Trumps, but its No Tricks bubble is marked darker: the proposal (No Tricks) is legal and wrong.
    # Hand 2, No Tricks marked clearly, is then a contract Ann has played: a doubt, never certain.
    trumps = {"contract": "trumps", "tricks": {A: 6, B: 3, C: 1, D: 3}, "doubles": []}
    no_tricks = {"contract": "no_tricks", "tricks": {A: 3, B: 4, C: 5, D: 1}, "doubles": []}

    def two_contracts(page: Page, marks: Marks) -> None:
        group = page.group(0, ("contract",))
        marks[(0, ("contract",))] = group_marks(group, [0.9 if bubble.value == "no_tricks" else 0.6 if
                                                        bubble.value == "trumps" else PAPER for bubble in group.bubbles])

    first, second, *_ = fit("barbu", [trumps, no_tricks], options=BARBU, change=two_contracts)
    assert (first.status, (first.entry or {})["contract"]) == ("doubtful", "no_tricks")
    assert second.status == "doubtful"
    assert reasons(second)[0] == "Ann has already played No Tricks in this block."
    assert "Hand 1 above is doubtful and this row's check depends on it: confirm that hand first." in reasons(second)


def test_kozyol_and_hearts_rows_after_a_row_without_a_legal_reading_are_checked_without_it() -> None:
    rows = fit("kozyol", [{"points": [119, 1]}, {"points": [75, 45]}, {"points": [60, 60]}])
    assert [row.status for row in rows[:3]] == ["doubtful", "certain", "certain"]
    assert [row.entry for row in rows[1:3]] == [{"points": [75, 45]}, {"points": [60, 60]}]
    bad = {"hearts": dict(zip(HEARTS_PLAYERS, [6, 0, 7, 3, 2, 4, 5, 0])),
           "black_marias": dict(zip(HEARTS_PLAYERS, [1, 0, 0, 1, 0, 0, 0, 0]))}
    good = {"hearts": dict(zip(HEARTS_PLAYERS, [5, 0, 7, 3, 2, 4, 5, 0])), "black_marias": bad["black_marias"]}
    rows = fit("hearts", [bad, good], HEARTS_PLAYERS)
    assert [row.status for row in rows[:2]] == ["doubtful", "certain"] and rows[1].entry == good


def test_a_row_after_a_missing_hand_that_could_end_the_match_waits_for_it() -> None:
    played = [{"points": [80, 40]}] * 4  # Bob and Dee: 8 defeat points of 12; one deal without a trick ends it
    rows = fit("kozyol", [{"points": [119, 1]}, {"points": [75, 45]}], before=played, first=5)
    assert [row.status for row in rows[:2]] == ["doubtful", "doubtful"]
    assert reasons(rows[1]) == ["Hand 5 above is doubtful and this row's check depends on it: confirm that hand first."]
    assert rows[1].entry == {"points": [75, 45]}


def test_a_barbu_row_after_a_row_without_a_legal_reading_waits_for_it() -> None:
    rows = fit("barbu", [{"contract": "dominoes", "order": [A, B, C, D], "doubles": []},
                         {"contract": "no_queens", "queens": {A: 1, B: 0, C: 1, D: 2}, "doubles": []}],
               options=BARBU, change=lambda page, marks: marks.update({(0, ("units", 1)): marks[(0, ("units", 0))]}))
    assert [row.status for row in rows[:2]] == ["doubtful", "doubtful"]
    assert reasons(rows[1]) == ["Hand 1 above is doubtful and this row's check depends on it: confirm that hand first."]
    assert rows[1].entry == {"contract": "no_queens", "queens": {A: 1, B: 0, C: 1, D: 2}, "doubles": []}


def test_a_blurred_card_column_asks_who_took_the_card() -> None:
    entry = {"contract": "barbu", "king_of_hearts": D, "doubles": []}

    def king_twice(page: Page, marks: Marks) -> None:
        marks[(0, ("cards", 1))] = marks[(0, ("cards", 3))]

    row = fit("barbu", [entry], options=BARBU, change=king_twice)[0]
    assert row.status == "doubtful"
    assert "Check who took the king of hearts: the marks are unclear." in reasons(row)


# -- random hands, marked clean, read back the same ----------------------------------------------------------


def paged(entries: list[dict[str, Any]], game: str) -> list[tuple[int, list[dict[str, Any]]]]:
    size = rows_per_page(game)
    return [(start + 1, entries[start:start + size]) for start in range(0, len(entries), size)]


def check_read_back(game: str, players: list[str], options: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """Each page of entries marked clean and read with the pages before it recorded: every row certain, the same."""
    expected = normalized(game, players, options, entries)
    for first, rows in paged(entries, game):
        read = fit(game, rows, players, options, before=entries[:first - 1], first=first)
        assert [row.status for row in read[:len(rows)]] == ["certain"] * len(rows), [r.why for r in read]
        assert all(row.status == "empty" for row in read[len(rows):])
        got = normalized(game, players, options, entries[:first - 1] + [row.entry for row in read[:len(rows)]])
        assert got == expected[:len(got)]


def test_random_barbu_matches_read_back() -> None:
    rng = random.Random(37)
    for _ in range(12):
        replay, entries = barbu_helpers.random_match(rng, honour_obligation=True)
        check_read_back("barbu", PLAYERS, dict(replay.options), entries)


def test_random_kozyol_series_read_back() -> None:
    rng = random.Random(37)
    for _ in range(40):
        replay = GAMES["kozyol"].new_replay(PLAYERS, {})
        entries: list[dict[str, Any]] = []
        while not replay.finished and len(entries) < 30:
            entry, points, tricks = play_deal(rng)
            paper: dict[str, Any] = {"points": points}
            if 0 in points:
                paper["tricks"] = [None if p else min(1, t or 0) for p, t in zip(points, tricks)]
            replay.play(copy.deepcopy(entry))
            entries.append(paper)
        check_read_back("kozyol", PLAYERS, {}, entries)


def test_random_hearts_games_read_back() -> None:
    rng = random.Random(37)
    for count in (6, 7, 8, 9, 10, 11):
        players = [f"P{seat}" for seat in range(count)]
        replay = GAMES["hearts"].new_replay(players, {"target": 300})
        entries: list[dict[str, Any]] = []
        while not replay.finished and len(entries) < 21:
            hearts, marias = random_hand(rng, count)
            entry: dict[str, Any] = {"hearts": dict(zip(players, hearts)), "black_marias": dict(zip(players, marias))}
            if 26 in hearts and 2 in marias and hearts.index(26) == marias.index(2):
                entry["moon"] = rng.choice(["add", "subtract"])
            replay.play(copy.deepcopy(entry))
            entries.append(entry)
        check_read_back("hearts", players, {"target": 300}, entries)


def test_lost_hearts_are_read_from_their_box() -> None:
    entry = {"hearts": dict(zip(HEARTS_PLAYERS, [5, 0, 7, 3, 2, 4, 0, 0])),
             "black_marias": dict(zip(HEARTS_PLAYERS, [1, 0, 0, 0, 0, 0, 0, 0]))}
    marks = marks_of("hearts", entry, HEARTS_PLAYERS, 0)
    assert marks[(0, ("units", LOST))] == (5,) and marks[(0, ("marias", LOST))] == (1,)
    row = fit("hearts", [entry], HEARTS_PLAYERS)[0]
    assert row.status == "certain" and row.entry == entry
