"""A refusal shown beside a field goes as soon as that field changes, in every game's hand form, at phone size."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from helpers.browser import HEARTS, made, serious
from helpers.matches import PLAYERS


def scripts_ran(page) -> None:
    """The refused page's own scripts have started (main.js marks the page): a change now is one they see."""
    expect(page.locator("html")).to_have_class(re.compile(r"\bjs\b"))


def test_the_queens_refusal_goes_once_the_queens_are_corrected(phone, tap):
    page = phone()
    match_id = made(page, "barbu", PLAYERS, {"first_declarer": "Ann"}, [])
    page.goto(f"/m/{match_id}/hands/new?variant=no_queens")
    group = page.locator("fieldset.counted .chips.count")
    for seat, count in enumerate([1, 0, 1, 1]):
        tap(group.nth(seat).get_by_role("radio", name=str(count), exact=True))
    tap(page.get_by_role("button", name="Save hand 1"))
    refusal = page.get_by_text("The queens add up to 3; they must add up to 4.")
    expect(refusal).to_be_visible()
    scripts_ran(page)
    # A change elsewhere (a double) leaves the queens' refusal where it is.
    tap(page.locator("fieldset.doubles fieldset.cell").first.locator("label.chip").nth(1))
    expect(refusal).to_be_visible()
    tap(group.nth(3).get_by_role("radio", name="2", exact=True))
    expect(refusal).to_have_count(0)
    expect(page.locator("fieldset.counted .remaining")).to_be_visible()


def test_the_points_refusal_goes_once_the_points_change(phone, tap):
    page = phone()
    match_id = made(page, "kozyol", PLAYERS, {}, [])
    page.goto(f"/m/{match_id}/hands/new")
    tap.type(page.locator("#points"), "130")
    tap(page.get_by_role("button", name="Save deal 1"))
    refusal = page.locator("#err-points")
    expect(refusal).to_be_visible()
    expect(page.locator("#points")).to_have_attribute("aria-describedby", "points-help err-points")
    scripts_ran(page)
    page.locator("#points").fill("45")
    expect(refusal).to_have_count(0)
    expect(page.locator("#points")).to_have_attribute("aria-describedby", "points-help")


def test_the_hearts_refusal_goes_once_a_count_changes(phone, tap):
    page = phone()
    match_id = made(page, "hearts", HEARTS[:7], {}, [])
    page.goto(f"/m/{match_id}/hands/new")
    page.get_by_role("spinbutton", name="Ann", exact=True).fill("20")
    page.get_by_role("spinbutton", name="Bob", exact=True).fill("10")
    tap(page.get_by_role("button", name="Save hand 1"))
    refusal = page.locator("#err-hearts")
    expect(refusal).to_have_text("The hearts add up to 30; at most 26 can be taken.")
    scripts_ran(page)
    page.get_by_role("spinbutton", name="Bob", exact=True).fill("6")
    expect(refusal).to_have_count(0)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_form_with_a_refusal_cleared_passes_axe(phone, tap, scheme):
    page = phone(color_scheme=scheme)
    match_id = made(page, "kozyol", PLAYERS, {}, [])
    page.goto(f"/m/{match_id}/hands/new")
    tap.type(page.locator("#points"), "130")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator("#err-points")).to_be_visible()
    assert serious(page) == []
    scripts_ran(page)
    page.locator("#points").fill("45")
    expect(page.locator("#err-points")).to_have_count(0)
    assert serious(page) == []
