"""Kozyol in a real browser: deals counted card by card or by points, another phone watching live."""

from __future__ import annotations

from playwright.sync_api import expect

from helpers.matches import PLAYERS


def step(page, tap, rank: str, times: int, button: str = "one more") -> None:
    """Tap a rank's + (or −) as often as there are cards of that rank in the pile."""
    for _ in range(times):
        tap(page.locator(".by-cards .rank", has_text=rank).get_by_role("button", name=button))


def split(page) -> str:
    return " : ".join(page.locator(".split strong").all_inner_texts())


def totals(page) -> list[str]:
    return page.locator(".standings .totals .total").all_inner_texts()


def test_a_kozyol_series_from_a_phone_with_a_watcher(phone, new_match, tap, screenshot, live, second_server, sheet_pdf):
    editor = phone()
    match_id = new_match(editor, "kozyol", PLAYERS, **{"Who deals first": "0"})
    watcher = phone()
    watcher.goto(editor.locator("#watch-link").input_value())
    expect(watcher.get_by_text("You are watching.")).to_be_visible()
    expect(watcher.get_by_role("link", name="Enter deal 1")).to_have_count(0)

    # Deal 1, the typical deal: Ann & Cid's pile counted card by card: A A 10 K K Q J = 45.
    tap.reset()
    tap(editor.get_by_role("link", name="Enter deal 1"))
    expect(editor.get_by_role("radio", name="Ann & Cid")).to_be_checked()
    tap(editor.get_by_role("radio", name="Count the cards"))
    for rank, cards in (("Aces", 2), ("Tens", 1), ("Kings", 2), ("Queens", 1), ("Jacks", 1)):
        step(editor, tap, rank, cards)
    expect(editor.locator(".split .score")).to_have_text("45 : 75")
    expect(editor.locator(".tricks")).to_be_hidden()  # no team without points: no trick question
    screenshot(editor, "deal-entry")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save deal 1")))
    # Enter + count the cards + 7 cards + save.
    tap.report("Kozyol: a deal counted by cards (7 cards that count)", 10,
               "the pile added up in the head (7 card values), then 1 or 2 numbers written")
    expect(editor.locator("#hand-1")).to_contain_text("Ann & Cid lose: 2 defeat points")
    live.wait("new deal", since, watcher, lambda ms: watcher.locator("#hand-1").wait_for(timeout=ms))
    assert totals(watcher) == ["2", "0"]

    # Deal 2, refused, counted by cards as the last deal was: no card that counts in Ann & Cid's
    # pile, 0 : 120; the page asks whether they took a trick, and the server insists on an answer.
    tap(editor.get_by_role("link", name="Enter deal 2"))
    expect(editor.get_by_role("radio", name="Count the cards")).to_be_checked()
    expect(editor.locator(".split .score")).to_have_text("0 : 120")
    question = editor.get_by_role("group", name="Did Ann & Cid take a trick?")
    expect(question).to_be_visible()
    expect(editor.get_by_role("group", name="Did Bob & Dee take a trick?")).to_be_hidden()
    tap(editor.get_by_role("button", name="Save deal 2"))
    expect(editor.locator("#err-tricks")).to_contain_text("Did Ann and Cid take a trick?")
    screenshot(editor, "deal-refused")
    tap(question.get_by_role("radio", name="Yes, a trick or more"))
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save deal 2")))
    expect(editor.locator("#hand-2")).to_contain_text("Ann & Cid lose: 4 defeat points")
    live.wait("new deal after a refusal", since, watcher, lambda ms: watcher.locator("#hand-2").wait_for(timeout=ms))

    # Deal 3 through a second server process: Bob & Dee's pile typed in; 1 point cannot be, 60 is eggs.
    editor.goto(f"{second_server}/m/{match_id}")
    tap(editor.get_by_role("link", name="Enter deal 3"))
    tap(editor.get_by_role("radio", name="Bob & Dee"))
    tap(editor.get_by_role("radio", name="Type the points"))
    tap.type(editor.get_by_label("Card points in the pile"), "1")
    expect(editor.locator(".split .score")).to_have_text("119 : 1")
    tap(editor.get_by_role("button", name="Save deal 3"))
    expect(editor.locator("#err-points")).to_have_text("No set of cards adds up to 1; count the pile again.")
    expect(editor.get_by_label("Card points in the pile")).to_have_value("1")  # what was typed stays
    tap.type(editor.get_by_label("Card points in the pile"), "60")
    expect(editor.locator(".split .score")).to_have_text("60 : 60")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save deal 3")))
    expect(editor.locator("#hand-3")).to_contain_text("Eggs: nobody loses")
    live.wait("new deal, written by another server process", since, watcher,
              lambda ms: watcher.locator("#hand-3").wait_for(timeout=ms))
    assert totals(watcher) == ["6", "0"]

    # Correct deal 1: an ace and a king fewer in the pile, 30 points: now 4 defeat points.
    editor.goto(f"/m/{match_id}")
    tap(editor.locator("#hand-1 .working-link"))
    tap(editor.get_by_role("link", name="Correct deal 1"))
    expect(editor.get_by_role("radio", name="Count the cards")).to_be_checked()  # counted as entered
    step(editor, tap, "Aces", 1, "one less")
    step(editor, tap, "Kings", 1, "one less")
    expect(editor.locator(".split .score")).to_have_text("30 : 90")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save deal 1")))
    expect(editor.locator("#hand-1")).to_contain_text("Ann & Cid lose: 4 defeat points")
    live.wait("corrected deal", since, watcher,
              lambda ms: expect(watcher.locator("#hand-1")).to_contain_text("lose: 4 defeat points", timeout=ms))
    assert totals(watcher) == ["8", "0"]

    # Undo the eggs through the second server process.
    editor.goto(f"{second_server}/m/{match_id}")
    since = live.saved(editor, lambda: tap(editor.locator(".undo-last").get_by_role("button", name="Undo deal 3")))
    expect(editor.get_by_text("Deal 3 was undone.")).to_be_visible()
    live.wait("undone deal, by another server process", since, watcher,
              lambda ms: watcher.locator("#hand-3").wait_for(state="detached", timeout=ms))
    assert totals(watcher) == totals(editor) == ["8", "0"]
    expect(watcher.locator("#next h2")).to_have_text("Deal 3")
    screenshot(editor, "series")
    screenshot(watcher, "watcher")

    assert sheet_pdf(editor).startswith(b"%PDF")
