"""A hand's form on one screen: Save always in view with what it records, doubles included, and quiet chips.

The heights of the typical forms (Barbu with doubles and long names, Hearts for 7) go to
artifacts/forms.json, with whether Save was on screen once the hand was filled in.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from helpers.browser import made, report, serious

LONG = ["Bartholomew", "Bob", "Cid", "Dee Anne-Marie"]
SEVEN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
# Whether an element lies wholly on the phone's screen where the page now is (the test never scrolls).
ON_SCREEN = """el => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth; }"""


def measured(page: Any, name: str, save: Any) -> dict[str, Any]:
    """The form's height and whether Save is on screen, read where the last tap left the page."""
    figures = {"form_height": round(page.locator("form").first.evaluate("f => f.getBoundingClientRect().height")),
               "save_on_screen": save.evaluate(ON_SCREEN)}
    report("forms", name, figures)
    return figures


def cell(page: Any, by: str, target: str) -> Any:
    return page.locator(".doubler", has_text=f"{by} doubles").get_by_role("group", name=re.compile(f"^{target}"))


def test_a_barbu_hand_with_doubles_and_long_names_keeps_save_in_view(phone, tap):
    page = phone()
    match_id = made(page, "barbu", LONG, {"first_declarer": "Bartholomew"}, [])
    page.goto(f"/m/{match_id}/hands/new?variant=no_tricks")
    # As at the table: the doubles are called before the cards are played, the tricks counted after.
    tap.reset()
    tap(cell(page, "Bob", "Bartholomew").get_by_role("radio", name="Double", exact=True))
    tap(cell(page, "Cid", "Dee Anne-Marie").get_by_role("radio", name="Double", exact=True))
    tap(cell(page, "Dee Anne-Marie", "Bartholomew").get_by_role("radio", name="Bartholomew redoubles", exact=True))
    groups = page.locator("fieldset.counted .chips.count")
    for seat, count in enumerate([2, 5, 6]):
        tap(groups.nth(seat).get_by_role("radio", name=str(count), exact=True))
    save = page.get_by_role("button", name="Save hand 1")
    figures = measured(page, "Barbu: No Tricks, 3 doubles, long names", save)
    assert figures["save_on_screen"], figures
    # What Save records, the doubles with it, beside the button.
    summary = page.locator(".save-bar .save-summary")
    expect(summary).to_have_text("Save records: Bartholomew 2 · Bob 5 · Cid 6 · Dee Anne-Marie 0. Doubles: "
                                 "Bob doubles Bartholomew; Cid doubles Dee Anne-Marie; "
                                 "Dee Anne-Marie doubles Bartholomew, redoubled")
    assert summary.evaluate(ON_SCREEN)
    # "No double" chosen is the quietest chip of its row, not the boldest thing on the form.
    quiet = cell(page, "Cid", "Bartholomew").locator("input:checked + span")
    chosen = cell(page, "Cid", "Dee Anne-Marie").locator("input:checked + span")
    assert quiet.evaluate("s => getComputedStyle(s).fontWeight") == "400"
    assert quiet.evaluate("s => getComputedStyle(s).backgroundColor") != chosen.evaluate(
        "s => getComputedStyle(s).backgroundColor")
    assert serious(page) == []
    tap(save)
    expect(page.locator("#saved")).to_contain_text("Hand 1, No Tricks")
    tap.report("Barbu: No Tricks from its form (3 doubles, 3 counts, the fourth filled in)", 7,
               "4 raw scores, 3 settlements, 4 hand scores and 4 running totals written")


def test_a_hearts_hand_for_seven_keeps_save_in_view(phone, tap):
    page = phone()
    match_id = made(page, "hearts", SEVEN, {"first_dealer": "Ann"}, [])
    page.goto(f"/m/{match_id}/hands/new")
    tap.reset()
    for name, count in {"Bob": 4, "Cid": 7, "Dee": 3, "Eve": 2, "Fay": 4}.items():
        tap.type(page.locator(f'.player-row[data-name="{name}"]').get_by_role("spinbutton", name=name, exact=True),
                 str(count))
    tap(page.locator('.player-row[data-name="Dee"]').get_by_role("radio", name="1", exact=True))
    tap(page.locator('.player-row[data-name="Gus"]').get_by_role("radio", name="Took the rest"))
    save = page.get_by_role("button", name="Save hand 1")
    figures = measured(page, "Hearts: a hand for 7 players", save)
    assert figures["save_on_screen"], figures
    expect(page.locator(".save-bar .save-summary")).to_contain_text("Gus 6 ♥ 1 Q♠ (the rest)")
    assert serious(page) == []
    tap(save)
    expect(page.locator("#saved")).to_contain_text("Hand 1:")
    # Five fields of one digit (tap, digit), one Black Maria, took the rest, save: as before rows started empty.
    tap.report("Hearts: a hand for 7 players from its form (5 hearts typed, 1 Black Maria, the rest)", 13,
               "7 hand scores and 7 running totals written")


def test_a_kozyol_deal_counted_by_cards_keeps_save_in_view(phone, tap):
    """The longest typical Kozyol form: the pile counted card by card, every rank's stepper shown."""
    page = phone()
    match_id = made(page, "kozyol", ["Ann", "Bob", "Cid", "Dee Anne-Marie"], {"first_dealer": "Ann"}, [])
    page.goto(f"/m/{match_id}/hands/new")
    page.get_by_role("radio", name="Count the cards").check()
    for rank, cards in (("Aces", 2), ("Tens", 1), ("Kings", 2), ("Queens", 1), ("Jacks", 1)):
        for _ in range(cards):
            tap(page.locator(".by-cards .rank", has_text=rank).get_by_role("button", name="one more"))
    expect(page.locator(".split .score")).to_have_text("45 : 75")
    save = page.get_by_role("button", name="Save deal 1")
    figures = measured(page, "Kozyol: a deal counted by cards", save)
    assert figures["save_on_screen"], figures
    assert serious(page) == []
    tap(save)
    expect(page.locator("#hand-1")).to_contain_text("lose: 2 defeat points")
