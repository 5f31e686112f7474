"""At the table on a phone: seats in order, the working of a hand, undo taken back, links replaced with a word."""

from __future__ import annotations

import statistics
from typing import Any

from playwright.sync_api import expect

from helpers.browser import report
from helpers.matches import PLAYERS

# A hand's median taps in the whole games below, as they were before the Save bar and the landing's totals
# (measured on the same walks): no change may make a typical hand cost more taps.
BARBU_MEDIAN, KOZYOL_MEDIAN, HEARTS_MEDIAN = 5, 5, 5


def enter_deal(page, tap, number: int, points: str) -> None:
    tap(page.get_by_role("link", name=f"Enter deal {number}"))
    tap.type(page.locator("#points"), points)
    tap(page.get_by_role("button", name=f"Save deal {number}"))
    page.wait_for_url("**/m/*")


def typical_hands(name: str, per_hand: list[int], most: float) -> None:
    """Report the taps each hand of a whole game took (from the hand's first tap to Save) and their median."""
    median = statistics.median(per_hand)
    report("taps", name, {"median": median, "at_most": most, "per_hand": per_hand})
    assert median <= most, f"{name}: a hand's median is {median} taps, more than {most}"


def test_an_empty_seat_between_names_is_refused_beside_the_names(phone):
    page = phone()
    page.goto("/new/barbu")
    for seat, name in enumerate(["Ann", "", "Cid", "Dee", "Eve"][:4]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Start the match").tap()
    reason = page.locator("#err-players")
    expect(reason).to_have_text("Seat 2 has no name, but seat 3 has one: fill the seats in order round the table.")
    expect(reason).to_be_in_viewport()
    expect(page.locator("#players-2")).to_have_value("Cid")


def test_the_working_of_a_deal_undo_taken_back_and_a_new_link_asked_first(phone, new_match, tap, screenshot):
    editor = phone()
    match_id = new_match(editor, "kozyol", PLAYERS, **{"Who deals first": "0"})
    other = phone()
    other.goto(editor.locator("#edit-link").input_value())
    enter_deal(editor, tap, 1, "45")

    # Tap the deal's number: how it was scored, in words and numbers.
    number = editor.locator("#hand-1 a.working-link")
    box = number.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box
    tap(number)
    expect(editor.get_by_role("heading", level=1)).to_have_text("How deal 1 was scored")
    expect(editor.get_by_text("Ann & Cid lost with 45 card points, 31 or more: a light defeat, 2 defeat points."))\
        .to_be_visible()
    screenshot(editor, "working")
    tap(editor.get_by_role("link", name="Back to the score sheet"))

    # Undo is one tap; putting the deal back is one more.
    tap(editor.locator(".undo-last").get_by_role("button", name="Undo deal 1"))
    expect(editor.get_by_text("Deal 1 undone.")).to_be_visible()
    tap(editor.get_by_role("button", name="Put deal 1 back"))
    expect(editor.get_by_text("Deal 1 is back.")).to_be_visible()
    expect(editor.locator("#hand-1")).to_contain_text("45 : 75")

    # A new edit link is made only once confirmed; the other phone is then told why it cannot enter deals.
    tap(editor.get_by_role("button", name="New edit link…"))
    expect(editor.get_by_text("Every other phone that entered hands with the current edit link loses access"))\
        .to_be_visible()
    tap(editor.get_by_role("button", name="Yes, make a new edit link"))
    expect(editor.get_by_text("New edit link made. Old edit links no longer work.")).to_be_visible()
    other.goto(f"/m/{match_id}/hands/new")
    expect(other.get_by_text("The edit link this phone opened has been replaced by a newer one")).to_be_visible()
    tap(other.get_by_role("link", name="Watch the match"))
    expect(other.locator("#hand-1")).to_contain_text("45 : 75")


def test_a_count_that_does_not_add_up_is_refused_not_filled_in(phone, new_match, tap):
    page = phone()
    match_id = new_match(page, "barbu", PLAYERS, **{"Who declares first": "0"})
    tap(page.locator("#next").get_by_role("link", name="No Queens", exact=True))
    group = page.locator("fieldset.counted .chips.count")
    for seat, count in enumerate([1, 0, 1, 1]):  # every player tapped: 3 queens, one short
        tap(group.nth(seat).get_by_role("radio", name=str(count), exact=True))
    expect(group.nth(1).get_by_role("radio", name="0", exact=True)).to_be_checked()
    expect(page.locator(".filled-note:not(:empty)")).to_have_count(0)
    expect(page.locator(".save-summary")).to_have_text("Save records: Ann 1 · Bob 0 · Cid 1 · Dee 1")
    tap(page.get_by_role("button", name="Save hand 1"))
    expect(page.get_by_text("The queens add up to 3; they must add up to 4.")).to_be_visible()
    assert page.request.get(f"/api/v1/matches/{match_id}").json()["hands"] == []


def landed_on_the_next_hand(page, start: Any, saved: str) -> None:
    """After Save the phone shows the totals, the hand just saved and the next hand's start, with no scrolling.

    The test never scrolls the match page: the next tap goes where the phone landed, which is checked to be
    on screen first (a tap on an element off screen would scroll to it, and that is what must not be needed).
    """
    expect(page.locator("#saved")).to_contain_text(saved)
    expect(page.locator("#saved")).to_be_in_viewport()
    expect(page.locator("#saved .running-totals")).to_be_in_viewport(ratio=1)
    expect(start).to_be_in_viewport()


def test_a_whole_kozyol_series_without_scrolling_back(phone, new_match, tap):
    page = phone()
    new_match(page, "kozyol", PLAYERS, **{"Who deals first": "0"})
    # 45 (Ann & Cid lose 2), 75 (Bob & Dee lose 2), 60 (eggs), then Ann & Cid lose 4 twice (doubled after eggs).
    points = ["45", "75", "60", "20", "25", "20"]
    per_hand = []
    for number, deal in enumerate(points, 1):
        if number > 1:
            landed_on_the_next_hand(page, page.get_by_role("link", name=f"Enter deal {number}"), f"Deal {number - 1}:")
        enter_deal(page, tap, number, deal)
        per_hand.append(tap.reset())
        if page.locator(".result.goat").count():
            break
    expect(page.locator(".result.goat")).to_contain_text("Series over")
    expect(page.locator(".result.goat")).to_be_in_viewport()
    typical_hands("Kozyol: a whole series by points from the landings", per_hand, KOZYOL_MEDIAN)


def test_a_whole_barbu_match_without_scrolling_back(phone, new_match, tap):
    barbu = phone()
    new_match(barbu, "barbu", PLAYERS, **{"Who declares first": "0"})
    counted = {"No Tricks": [4, 3, 5], "No Queens": [1, 0, 2], "No Hearts": [4, 3, 2], "Trumps": [6, 3, 1]}
    chosen = {"Barbu": ["Who took the king of hearts?"],
              "No Last Two": ["Who won trick 12?", "Who won trick 13, the last?"],
              "Dominoes": ["Went out first", "Second", "Third"]}  # the last place is the one player left
    contracts = ["No Tricks", "No Queens", "No Hearts", "Trumps", "Barbu", "No Last Two", "Dominoes"]
    number, per_hand = 0, []
    for block in range(len(PLAYERS)):
        for contract in contracts:
            number += 1
            start = barbu.locator("#next").get_by_role("link", name=contract, exact=True)
            if number > 1:
                landed_on_the_next_hand(barbu, start, f"Hand {number - 1},")
            tap(start)
            if contract in counted:
                groups = barbu.locator("fieldset.counted .chips.count")
                for seat, count in enumerate(counted[contract]):
                    tap(groups.nth(seat).get_by_role("radio", name=str(count), exact=True))
            for seat, legend in enumerate(chosen.get(contract, [])):
                tap(barbu.locator("fieldset.chips", has=barbu.locator("legend", has_text=legend))
                    .get_by_role("radio", name=PLAYERS[(seat + block) % len(PLAYERS)], exact=True))
            if contract == "No Hearts":
                tap(barbu.locator("fieldset.chips", has=barbu.locator("legend", has_text="ace of hearts"))
                    .get_by_role("radio", name="Ann", exact=True))
            tap(barbu.get_by_role("button", name=f"Save hand {number}"))
            barbu.wait_for_url("**/m/*")
            per_hand.append(tap.reset())
    assert number == 28
    typical_hands("Barbu: a whole match from the landings (no doubles)", per_hand, BARBU_MEDIAN)
    result = barbu.locator(".standings .result")
    expect(result).to_contain_text("Winner")
    expect(result).to_be_in_viewport()


def test_a_whole_hearts_game_without_scrolling_back(phone, new_match, tap):
    page = phone()
    six = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    new_match(page, "hearts", six, **{"Who deals first": "0"})
    number, per_hand = 0, []
    while not page.locator(".standings .result").count():
        number += 1
        start = page.get_by_role("link", name=f"Enter hand {number}")
        if number > 1:
            landed_on_the_next_hand(page, start, f"Hand {number - 1}:")
        tap(start)
        # Bob took 6 hearts, Ann took the rest: 20 hearts and both Black Marias.
        tap.type(page.locator('.player-row[data-name="Bob"]').get_by_role("spinbutton", name="Bob", exact=True), "6")
        tap(page.locator('.player-row[data-name="Ann"]').get_by_role("radio", name="Took the rest"))
        tap(page.get_by_role("button", name=f"Save hand {number}"))
        page.wait_for_url("**/m/*")
        per_hand.append(tap.reset())
        assert number < 10, "the game should be over by now"
    expect(page.locator(".standings .result")).to_contain_text("Winner")
    expect(page.locator(".standings .result")).to_be_in_viewport()
    typical_hands("Hearts: a whole game for 6 from the landings", per_hand, HEARTS_MEDIAN)


def test_dominoes_put_each_player_in_one_place_and_say_who_is_left(phone, new_match, tap):
    page = phone()
    new_match(page, "barbu", PLAYERS, **{"Who declares first": "0"})
    tap(page.locator("#next").get_by_role("link", name="Dominoes", exact=True))

    def place(legend: str) -> Any:
        return page.locator("fieldset.chips", has=page.locator("legend", has_text=legend))

    tap(place("Went out first").get_by_role("radio", name="Ann", exact=True))
    tap(place("Second").get_by_role("radio", name="Bob", exact=True))
    for taken in ("Ann", "Bob"):  # a player already placed cannot be put in a second place
        expect(place("Third").get_by_role("radio", name=taken, exact=True)).to_be_disabled()
        expect(place("Last").get_by_role("radio", name=taken, exact=True)).to_be_disabled()
    expect(place("Last").get_by_role("radio", name="Dee", exact=True)).not_to_be_checked()  # nothing assumed yet
    tap(place("Third").get_by_role("radio", name="Cid", exact=True))
    expect(place("Last").get_by_role("radio", name="Dee", exact=True)).to_be_checked()
    expect(place("Last").locator(".filled-note")).to_have_text("Last: Dee, the one left")
    # Changing a place moves the one left with it.
    tap(place("Second").get_by_role("radio", name="Dee", exact=True))
    expect(place("Last").get_by_role("radio", name="Bob", exact=True)).to_be_checked()
    expect(place("Last").locator(".filled-note")).to_have_text("Last: Bob, the one left")
    tap(page.get_by_role("button", name="Save hand 1"))
    page.wait_for_url("**/m/*")
    order = page.request.get(f"/api/v1/matches/{page.url.rsplit('/', 1)[-1]}").json()["hands"][0]["entry"]["order"]
    assert order == ["Ann", "Dee", "Cid", "Bob"]


def test_hearts_save_says_what_it_records_and_who_takes_the_rest(phone, new_match, tap):
    page = phone()
    six = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    new_match(page, "hearts", six, **{"Who deals first": "0"})
    tap(page.get_by_role("link", name="Enter hand 1"))
    summary = page.locator(".save-summary")
    expect(summary).to_have_text("Save records: Ann – ♥ · Bob – ♥ · Cid – ♥ · Dee – ♥ · Eve – ♥ · Fay – ♥")
    tap.type(page.locator('.player-row[data-name="Bob"]').get_by_role("spinbutton", name="Bob", exact=True), "6")
    tap(page.locator('.player-row[data-name="Cid"]').get_by_role("radio", name="Took the rest"))
    expect(page.locator('.player-row[data-name="Cid"] .rest-note')).to_have_text("Gets the rest: 20 ♥, 2 Q♠")
    expect(summary).to_have_text("Save records: Ann 0 ♥ · Bob 6 ♥ · Cid 20 ♥ 2 Q♠ (the rest) · Dee 0 ♥ · Eve 0 ♥ · Fay 0 ♥")
    expect(summary).to_be_visible()
