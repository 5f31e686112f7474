"""Marks and names: the redouble mark in the legend, long names kept whole, the working's columns alike."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from helpers.browser import BROKEN, made, serious
from helpers.matches import barbu_entry

LONG = ["Bartholomew", "Dee", "Cid", "Maximiliana Ekaterina"]
NAMES = (".totals .name, .roles dd, .owed, .sheet thead th, .sheet .block th, #saved, .running-totals, "
         ".doubler .who, .cell legend, .chips legend, .stepper label")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_long_names_stay_whole_and_the_redouble_mark_is_explained(phone, scheme):
    page = phone(color_scheme=scheme)
    match_id = made(page, "barbu", LONG, {"first_declarer": "Bartholomew"}, [barbu_entry(n, LONG) for n in (1, 2)])
    page.goto(f"/m/{match_id}")
    assert page.evaluate(BROKEN, NAMES) == []
    # A name cut short by its column is whole in its text and its title.
    header = page.locator(".sheet thead th", has_text="Bartholomew")
    expect(header).to_have_attribute("title", "Bartholomew")
    expect(page.locator(".legend")).to_contain_text("double underline: redoubled")
    assert page.locator(".sheet .dbl.redoubled").count() > 0  # the mark the legend explains is on the sheet
    assert serious(page) == []
    page.goto(f"/m/{match_id}/hands/new?variant=no_hearts")
    assert page.evaluate(BROKEN, NAMES) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_player_column_of_the_working_is_aligned_alike(phone, scheme):
    page = phone(color_scheme=scheme)
    match_id = made(page, "barbu", LONG, {"first_declarer": "Bartholomew"}, [barbu_entry(1, LONG)])
    page.goto(f"/m/{match_id}/working/1")
    aligned = page.locator(".working-table").evaluate("""t => Array.from(t.rows).map((row) =>
        Array.from(row.cells).slice(1).map((cell) => getComputedStyle(cell).textAlign))""")
    assert {align for row in aligned for align in row} == {"right"}, aligned
    assert page.evaluate(BROKEN, ".working-table thead th") == []
    assert serious(page) == []
