"""Barbu in a real browser: a phone enters hands through the forms, another phone watches live."""

from __future__ import annotations

import re

from playwright.sync_api import expect

ANN, BOB, CID, DEE = PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def counts(page, tap, field: str, taken: dict[str, int]) -> None:
    """Tap the count of each player given; the page fills in the last one."""
    for name, count in taken.items():
        tap(player(page, name).get_by_role("radio", name=str(count), exact=True))


def player(page, name: str):
    """A player's row of counts (named "Dee ✓" once the page filled it in)."""
    return page.locator("fieldset.counted").get_by_role("group", name=re.compile(rf"^{name}\b"))


def double(page, tap, by: str, target: str, choice: str = "Double") -> None:
    cell = page.locator(".doubler", has_text=f"{by} doubles").get_by_role("group", name=re.compile(f"^{target}"))
    tap(cell.get_by_role("radio", name=choice, exact=True))


def hand_row(page, number: int) -> list[str]:
    """The bold hand scores of one row of the score sheet, seat by seat."""
    return page.locator(f"#hand-{number} td strong").all_inner_texts()


def totals(page) -> list[str]:
    return [text.split()[-1] for text in page.locator(".standings .totals li").all_inner_texts()]


def test_a_barbu_match_from_a_phone_with_a_watcher(phone, new_match, tap, screenshot, live, second_server, sheet_pdf):
    editor = phone()
    match_id = new_match(editor, "barbu", PLAYERS, **{"Who declares first": "0"})
    expect(editor.locator("#next dd").first).to_have_text(ANN)  # declares first
    screenshot(editor, "match-new")

    # Whoever scans the watch link follows the match; it reads, it cannot write.
    watcher = phone()
    watcher.goto(editor.locator("#watch-link").input_value())
    expect(watcher.get_by_text("You are watching.")).to_be_visible()
    expect(watcher.get_by_role("link", name="No Tricks")).to_have_count(0)

    # Hand 1, the typical hand: No Tricks, two doubles of the declarer, counted from the match page.
    tap.reset()
    tap(editor.locator("#next").get_by_role("link", name="No Tricks", exact=True))
    counts(editor, tap, "tricks", {ANN: 2, BOB: 5, CID: 6})
    expect(player(editor, DEE)).to_have_class(re.compile(r"\bauto\b"))  # filled in: the 0 left
    expect(player(editor, DEE).get_by_role("radio", name="0", exact=True)).to_be_checked()
    expect(player(editor, DEE).locator(".filled-note")).to_have_text("Dee: 0, the rest")  # said, not assumed
    expect(editor.locator(".save-summary")).to_have_text("Save records: Ann 2 · Bob 5 · Cid 6 · Dee 0")
    expect(editor.locator("output.remaining")).to_have_text("13 tricks: all counted")
    double(editor, tap, BOB, ANN)
    double(editor, tap, DEE, ANN)
    screenshot(editor, "hand-entry")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save hand 1")))
    # Contract + three counts (the fourth is filled in) + two doubles + save.
    tap.report("Barbu: No Tricks with two doubles", 7,
               "4 raw scores, 2 settlements of a doubled pair, 4 hand scores and 4 running totals written")
    # Raw -4 -10 -12 0; Bob doubled Ann (±6), Dee doubled Ann (∓4).
    expect(editor.locator("#hand-1")).to_be_visible()
    assert hand_row(editor, 1) == ["-2", "-16", "-12", "4"]
    live.wait("new hand", since, watcher, lambda ms: watcher.locator("#hand-1").wait_for(timeout=ms))
    assert hand_row(watcher, 1) == ["-2", "-16", "-12", "4"]

    # Hand 2, refused: Trumps, the tricks do not add up; the counter says so, then the server.
    tap(editor.locator("#next").get_by_role("link", name="Trumps", exact=True))
    counts(editor, tap, "tricks", {ANN: 4, BOB: 3, CID: 3})
    expect(editor.locator("output.remaining")).to_have_text("13 tricks: all counted")
    counts(editor, tap, "tricks", {DEE: 2})
    expect(editor.locator("output.remaining")).to_have_text("13 tricks: 1 left")
    tap(editor.get_by_role("button", name="Save hand 2"))
    expect(editor.locator("#err-tricks")).to_have_text("The tricks add up to 12; they must add up to 13.")
    expect(player(editor, DEE).get_by_role("radio", name="2", exact=True)).to_be_checked()  # what was entered stays
    screenshot(editor, "hand-refused")
    counts(editor, tap, "tricks", {DEE: 3})
    expect(editor.locator("output.remaining")).to_have_text("13 tricks: all counted")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save hand 2")))
    expect(editor.locator("#hand-2")).to_be_visible()
    live.wait("new hand after a refusal", since, watcher, lambda ms: watcher.locator("#hand-2").wait_for(timeout=ms))

    # Hand 3 through a second server process (docs/rules.md 1.7, example 1): the watcher still sees it.
    editor.goto(f"{second_server}/m/{match_id}")
    tap(editor.locator("#next").get_by_role("link", name="No Queens", exact=True))
    counts(editor, tap, "queens", {ANN: 1, BOB: 0, CID: 1})
    # Bob's 0 was already shown; tapping it still counts as entered, so Dee gets the other 2.
    expect(player(editor, DEE).get_by_role("radio", name="2", exact=True)).to_be_checked()
    for target in (ANN, CID, DEE):
        double(editor, tap, BOB, target)
    double(editor, tap, CID, ANN, "Ann redoubles")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save hand 3")))
    expect(editor.locator("#hand-3")).to_be_visible()
    assert hand_row(editor, 3) == ["-12", "24", "-12", "-24"]
    live.wait("new hand, written by another server process", since, watcher,
              lambda ms: watcher.locator("#hand-3").wait_for(timeout=ms))
    assert totals(watcher) == ["6", "23", "-9", "-5"]

    # Correct hand 1: Bob took 4 tricks, Cid 7; everything after it is recomputed.
    editor.goto(f"/m/{match_id}")
    tap(editor.locator("#hand-1 .working-link"))
    tap(editor.get_by_role("link", name="Correct hand 1"))
    expect(editor.get_by_role("heading", level=1)).to_have_text("Correcting hand 1: No Tricks")
    counts(editor, tap, "tricks", {BOB: 4, CID: 7})
    expect(editor.locator("output.remaining")).to_have_text("13 tricks: all counted")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save hand 1")))
    expect(editor.locator("#hand-1")).to_be_visible()
    assert hand_row(editor, 1) == ["-4", "-12", "-14", "4"]
    live.wait("corrected hand", since, watcher,
              lambda ms: expect(watcher.locator("#hand-1 td strong").first).to_have_text("-4", timeout=ms))
    assert totals(watcher) == ["4", "27", "-11", "-5"]

    # Undo the last hand, again through the second server process.
    editor.goto(f"{second_server}/m/{match_id}")
    since = live.saved(editor, lambda: tap(editor.locator(".undo-last").get_by_role("button", name="Undo hand 3")))
    expect(editor.get_by_text("Hand 3 was undone.")).to_be_visible()
    live.wait("undone hand, by another server process", since, watcher,
              lambda ms: watcher.locator("#hand-3").wait_for(state="detached", timeout=ms))
    # Hands 1 (corrected) and 2 (Trumps 4 3 3 3, no doubles: +20 +15 +15 +15).
    assert totals(watcher) == totals(editor) == ["16", "3", "1", "19"]
    expect(watcher.locator("#next")).to_contain_text("Hand 3 of 28")
    screenshot(editor, "match-after-undo")
    screenshot(watcher, "watcher")

    # The PDF score sheet, from the match page's link.
    assert sheet_pdf(editor).startswith(b"%PDF")
