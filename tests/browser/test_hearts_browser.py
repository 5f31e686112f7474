"""Cancellation Hearts in a real browser: a hand for 8 players on one form, another phone watching live."""

from __future__ import annotations

from playwright.sync_api import expect

from helpers.browser import HEARTS


def row(page, name: str):
    return page.locator(f'.player-row[data-name="{name}"]')


def hearts(page, tap, taken: dict[str, int]) -> None:
    """Type each player's hearts: tap the field, then the digits (the field selects its 0)."""
    for name, count in taken.items():
        tap.type(row(page, name).get_by_role("spinbutton", name=name, exact=True), str(count))


def marias(page, tap, name: str, count: int) -> None:
    tap(row(page, name).get_by_role("radio", name=str(count), exact=True))


def took_the_rest(page, tap, name: str) -> None:
    tap(row(page, name).get_by_role("radio", name="Took the rest"))


def totals(page) -> list[str]:
    return page.locator(".standings .totals .total").all_inner_texts()


def test_a_hearts_game_for_eight_from_a_phone_with_a_watcher(phone, new_match, tap, screenshot, live, second_server,
                                                             sheet_pdf):
    editor = phone()
    match_id = new_match(editor, "hearts", HEARTS, **{"Who deals first": "0"})
    watcher = phone()
    watcher.goto(editor.locator("#watch-link").input_value())
    expect(watcher.get_by_text("You are watching.")).to_be_visible()

    # Hand 1, the typical hand (docs/rules.md section 3.3 example): hearts 5 0 7 3 2 4 5 0, Black Marias
    # with Ann and Dee. Ann takes the rest (5 hearts and the other Black Maria); zeros stay as shown.
    tap.reset()
    tap(editor.get_by_role("link", name="Enter hand 1"))
    expect(editor.locator(".hearts-left")).to_have_text("Hearts left: 26")
    took_the_rest(editor, tap, "Ann")
    hearts(editor, tap, {"Cid": 7, "Dee": 3, "Eve": 2, "Fay": 4, "Gus": 5})
    marias(editor, tap, "Dee", 1)
    expect(row(editor, "Ann").locator(".rest-note")).to_have_text("Gets the rest: 5 ♥, 1 Q♠")
    expect(editor.locator(".hearts-left")).to_have_text("Hearts left: 0")
    expect(editor.locator(".marias-left")).to_have_text("Black Marias left: 0")
    expect(editor.locator("fieldset.moon")).to_be_hidden()  # nobody took everything
    screenshot(editor, "hand-entry")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save hand 1")))
    # Enter + took the rest + 5 fields of one digit (tap, digit) + one Black Maria + save.
    tap.report("Hearts: a hand for 8 players (5 hearts typed, 2 Black Marias)", 14,
               "8 hand scores (hearts + 13 per Black Maria) and 8 running totals written")
    expect(editor.locator("#hand-1")).to_be_visible()
    assert totals(editor) == ["18", "0", "7", "16", "2", "4", "5", "0"]
    live.wait("new hand", since, watcher, lambda ms: watcher.locator("#hand-1").wait_for(timeout=ms))
    assert totals(watcher) == ["18", "0", "7", "16", "2", "4", "5", "0"]

    # Hand 2, refused: 30 hearts typed; the counter says so, then the server, beside the hearts.
    tap(editor.get_by_role("link", name="Enter hand 2"))
    hearts(editor, tap, {"Ann": 20, "Bob": 10})
    expect(editor.locator(".hearts-left")).to_have_text("Hearts: 4 too many")
    tap(editor.get_by_role("button", name="Save hand 2"))
    expect(editor.locator("#err-hearts")).to_have_text("The hearts add up to 30; at most 26 can be taken.")
    expect(row(editor, "Ann").get_by_role("spinbutton", name="Ann", exact=True)).to_have_value("20")
    screenshot(editor, "hand-refused")

    # Then Bob took everything: the moon choice appears, and he adds 26 to everyone else.
    hearts(editor, tap, {"Ann": 0, "Bob": 0})
    took_the_rest(editor, tap, "Bob")
    expect(row(editor, "Bob").locator(".rest-note")).to_have_text("Gets the rest: 26 ♥, 2 Q♠")
    moon = editor.get_by_role("group", name="Shooting the moon")
    expect(moon).to_be_visible()
    expect(moon).to_contain_text("Bob took everything: which way do the points go?")
    tap(moon.get_by_role("radio", name="Add 26 to everyone else"))
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save hand 2")))
    expect(editor.locator("#hand-2")).to_contain_text("shot the moon")
    assert totals(editor) == ["44", "0", "33", "42", "28", "30", "31", "26"]
    live.wait("new hand after a refusal", since, watcher, lambda ms: watcher.locator("#hand-2").wait_for(timeout=ms))

    # Hand 3 through a second server process: Hal takes the rest, Bob a Black Maria.
    editor.goto(f"{second_server}/m/{match_id}")
    tap(editor.get_by_role("link", name="Enter hand 3"))
    took_the_rest(editor, tap, "Hal")
    hearts(editor, tap, {"Ann": 3, "Bob": 4})
    marias(editor, tap, "Bob", 1)
    expect(row(editor, "Hal").locator(".rest-note")).to_have_text("Gets the rest: 19 ♥, 1 Q♠")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save hand 3")))
    expect(editor.locator("#hand-3")).to_be_visible()
    live.wait("new hand, written by another server process", since, watcher,
              lambda ms: watcher.locator("#hand-3").wait_for(timeout=ms))
    assert totals(watcher) == ["47", "17", "33", "42", "28", "30", "31", "58"]

    # Correct hand 1: Gus took 4 hearts, Hal 1.
    editor.goto(f"/m/{match_id}")
    tap(editor.locator("#hand-1 .working-link"))
    tap(editor.get_by_role("link", name="Correct hand 1"))
    expect(editor.get_by_role("heading", level=1)).to_contain_text("Correcting hand 1")
    expect(row(editor, "Gus").get_by_role("spinbutton", name="Gus", exact=True)).to_have_value("5")
    hearts(editor, tap, {"Gus": 4, "Hal": 1})
    expect(editor.locator(".hearts-left")).to_have_text("Hearts left: 0")
    since = live.saved(editor, lambda: tap(editor.get_by_role("button", name="Save hand 1")))
    expect(editor.locator("#hand-1")).to_be_visible()
    live.wait("corrected hand", since, watcher,
              lambda ms: expect(watcher.locator(".standings .totals .total").last).to_have_text("59", timeout=ms))
    assert totals(watcher) == ["47", "17", "33", "42", "28", "30", "30", "59"]

    # Undo hand 3 through the second server process.
    editor.goto(f"{second_server}/m/{match_id}")
    since = live.saved(editor, lambda: tap(editor.locator(".undo-last").get_by_role("button", name="Undo hand 3")))
    expect(editor.get_by_text("Hand 3 was undone.")).to_be_visible()
    live.wait("undone hand, by another server process", since, watcher,
              lambda ms: watcher.locator("#hand-3").wait_for(state="detached", timeout=ms))
    assert totals(watcher) == totals(editor) == ["44", "0", "33", "42", "28", "30", "30", "27"]
    screenshot(editor, "game")
    screenshot(watcher, "watcher")
    assert sheet_pdf(editor).startswith(b"%PDF")


def test_a_moon_choice_goes_with_the_moon(phone, new_match, tap):
    """Bob took everything and the table chose; then Ann's 6 hearts are typed: no moon, so no choice is sent."""
    editor = phone()
    new_match(editor, "hearts", HEARTS[:6])
    tap(editor.get_by_role("link", name="Enter hand 1"))
    took_the_rest(editor, tap, "Bob")
    moon = editor.get_by_role("group", name="Shooting the moon")
    tap(moon.get_by_role("radio", name="Subtract 26 from the shooter"))
    hearts(editor, tap, {"Ann": 6})
    expect(editor.locator("fieldset.moon")).to_be_hidden()
    expect(row(editor, "Bob").locator(".rest-note")).to_have_text("Gets the rest: 20 ♥, 2 Q♠")
    tap(editor.get_by_role("button", name="Save hand 1"))
    expect(editor.locator("#hand-1")).to_be_visible()
    assert totals(editor) == ["6", "46", "0", "0", "0", "0"]
