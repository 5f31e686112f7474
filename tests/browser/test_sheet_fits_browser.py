"""The score sheet on the entering phone: every player's figures in sight and uncovered.

Four Barbu players and both Kozyol teams fit a 390 px phone without sideways scrolling, even with a
40-character name; nothing (Correct, Undo) sits over a player's column. A Hearts sheet of 11 players
may scroll sideways, but says so, and keeps the hand numbers and the names in view while it does.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from helpers.browser import BARBU, UNCOVERED, made, scrolled_to_end, uncovered

LONG = "Dee " + "Q" * 36  # 40 characters, the longest name a seat takes
HEARTS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim"]
WIDTH = 390


def no_sideways_scrolling(page: Any) -> None:
    # Measured once the page's fonts are in and its long names fitted (main.js, on the next frames).
    page.evaluate("() => document.fonts.ready.then(() => new Promise((done) => "
                  "requestAnimationFrame(() => requestAnimationFrame(done))))")
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= WIDTH, f"the page is {page_width} px wide"
    sheet = page.locator(".scroll[role=region]").first
    assert sheet.evaluate("el => el.scrollWidth <= el.clientWidth"), "the score sheet scrolls sideways"


def barbu_hands() -> list[dict[str, Any]]:
    """Ann's block so far: doubles on most hands, so the cells carry their marks and three-digit scores."""
    return [
        {"contract": "no_tricks", "tricks": {"Ann": 2, "Bob": 5, "Cid": 6, LONG: 0},
         "doubles": [{"by": "Bob", "target": "Ann"}, {"by": LONG, "target": "Ann", "redoubled": True},
                     {"by": "Cid", "target": LONG}]},
        {"contract": "barbu", "king_of_hearts": LONG,
         "doubles": [{"by": "Bob", "target": "Ann"}, {"by": "Cid", "target": LONG, "redoubled": True},
                     {"by": "Bob", "target": LONG}]},
        {"contract": "no_queens", "queens": {"Ann": 0, "Bob": 1, "Cid": 0, LONG: 3},
         "doubles": [{"by": "Cid", "target": "Ann"}, {"by": LONG, "target": "Bob"}]},
    ]


def test_four_barbu_players_fit_and_nothing_covers_the_last_one(phone, screenshot):
    editor = phone()
    match_id = made(editor, "barbu", ["Ann", "Bob", "Cid", LONG], {"first_declarer": "Ann"}, barbu_hands())
    editor.goto(f"/m/{match_id}#hand-1")
    no_sideways_scrolling(editor)
    uncovered(editor, editor.locator(".sheet thead th"))
    # The last player's column, every figure of it: score, raw score, running total.
    for number in (1, 2, 3):
        uncovered(editor, editor.locator(f"#hand-{number} td").last.locator("strong, small"))
    assert editor.locator("#hand-3 td").last.locator("strong").inner_text() != ""
    # Correct is beside the hand just saved, Undo under the sheet: neither in the sheet's columns.
    assert editor.locator(".sheet .hand-actions, .sheet button, .sheet form").count() == 0
    expect(editor.locator("#saved").get_by_role("link", name="Correct hand 3")).to_be_visible()
    expect(editor.locator(".undo-last").get_by_role("button", name="Undo hand 3")).to_be_visible()
    screenshot(editor, "barbu-sheet")


def test_any_hand_is_corrected_from_its_number(phone, tap):
    editor = phone()
    match_id = made(editor, "barbu", BARBU, {"first_declarer": "Ann"}, [
        {"contract": "no_tricks", "tricks": {"Ann": 2, "Bob": 5, "Cid": 6, "Dee": 0}},
        {"contract": "trumps", "tricks": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}},
    ])
    editor.goto(f"/m/{match_id}")
    tap(editor.locator("#hand-1 .working-link"))
    expect(editor.get_by_role("heading", level=1)).to_have_text("How hand 1 was scored")
    expect(editor.get_by_role("button", name="Undo hand 1")).to_have_count(0)  # only the last hand is undone
    tap(editor.get_by_role("link", name="Correct hand 1"))
    expect(editor.get_by_role("heading", level=1)).to_have_text("Correcting hand 1: No Tricks")
    # A watcher reads the working but is offered neither.
    watcher = phone()
    watcher.goto(f"/m/{match_id}/working/2")
    expect(watcher.get_by_role("heading", level=1)).to_have_text("How hand 2 was scored")
    expect(watcher.get_by_role("link", name="Correct hand 2")).to_have_count(0)
    expect(watcher.get_by_role("button", name="Undo hand 2")).to_have_count(0)


def test_both_kozyol_teams_fit_with_a_forty_character_name(phone, screenshot):
    editor = phone()
    match_id = made(editor, "kozyol", ["Ann", "Bob", "Cid", LONG], {"target": 12},
                    [{"points": [75, 45]}, {"points": [30, 90]}, {"points": [60, 60]}])
    editor.goto(f"/m/{match_id}")
    no_sideways_scrolling(editor)
    uncovered(editor, editor.locator(".sheet thead th"))
    for number in (1, 2, 3):
        uncovered(editor, editor.locator(f"#hand-{number} td").last.locator("strong, small, span"))
    screenshot(editor, "kozyol-sheet")


def test_a_wide_hearts_sheet_says_it_scrolls_and_keeps_numbers_and_names_in_view(phone, screenshot):
    editor = phone()
    hands = [{"hearts": dict(zip(HEARTS, [5, 0, 7, 3, 2, 4, 5, 0, 0, 0, 0])),
              "black_marias": dict(zip(HEARTS, [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]))},
             {"hearts": dict(zip(HEARTS, [0, 6, 7, 3, 2, 4, 0, 0, 0, 0, 4])),
              "black_marias": dict(zip(HEARTS, [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]))}]
    match_id = made(editor, "hearts", HEARTS, {}, hands)
    editor.goto(f"/m/{match_id}")
    assert editor.evaluate("document.documentElement.scrollWidth") <= WIDTH, "only the sheet scrolls, not the page"
    sheet = editor.locator(".scroll[role=region]")
    assert sheet.evaluate("el => el.scrollWidth > el.clientWidth"), "11 players do not fit 390 px"
    hint = editor.locator("[data-scroll-hint]")
    expect(hint).to_be_visible()
    expect(hint).to_have_text("Swipe the sheet sideways to see every player →")
    # Swipe to the far right: the last player's name and figures come into view, the hand numbers stay.
    sheet.evaluate("el => el.scrollIntoView({block: 'start'})")
    scrolled_to_end(sheet)
    for locator in (editor.locator(".sheet thead th").last, editor.locator("#hand-2 td").last.locator("strong"),
                    editor.locator("#hand-1 .working-link"), editor.locator("#hand-2 .working-link")):
        assert locator.evaluate(UNCOVERED), f"{locator.inner_text()!r} is out of view or covered"
    screenshot(editor, "hearts-sheet-scrolled")
    # On a screen wide enough for the whole sheet there is nothing to swipe, and no hint.
    small = phone()
    small.set_viewport_size({"width": 1200, "height": 844})
    small.goto(f"/m/{match_id}")
    expect(small.locator("[data-scroll-hint]")).to_be_hidden()
