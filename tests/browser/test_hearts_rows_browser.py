"""A forgotten Hearts row: rows start empty, Save asks once about a row nobody touched, with or without script.

"Took the rest" reads the same on both phones: the player gets what nobody else took, whatever the row said; the
script shows it on the row before Save, and a phone without the script, whose row still says what was typed, is
asked once before it is recorded.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from helpers.browser import made, serious

SEVEN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
QUESTION = "Fay: no hearts? Tap Save again to record none, or type the count."
REST_QUESTION = ("Ann took the rest: 15 ♥ and 2 Q♠, not the 5 ♥ and 0 Q♠ on the row. Tap Save again to record the "
                 "rest, or choose “Nobody: every row typed in”.")


def field(page: Any, name: str) -> Any:
    return page.locator(f'.player-row[data-name="{name}"]').get_by_role("spinbutton", name=name, exact=True)


def hearts_of(page: Any, match_id: str) -> dict[str, int]:
    return page.request.get(f"/api/v1/matches/{match_id}").json()["hands"][-1]["entry"]["hearts"]


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_a_row_nobody_touched_is_asked_about_once(phone, script, tap):
    page = phone(java_script_enabled=script)
    match_id = made(page, "hearts", SEVEN, {"first_dealer": "Ann"}, [])
    page.goto(f"/m/{match_id}/hands/new")
    for name in SEVEN:
        expect(field(page, name)).to_have_value("")  # empty, not 0
    # 21 hearts without Fay: legal for 7 players (a cancelled last trick), but most often a player left out.
    for name, count in {"Ann": 5, "Bob": 0, "Cid": 7, "Dee": 3, "Eve": 2, "Gus": 4}.items():
        tap.type(field(page, name), str(count))
    tap(page.get_by_role("button", name="Save hand 1"))
    question = page.locator(".ask-empty")
    expect(question).to_have_text(QUESTION)
    expect(question).to_be_in_viewport()
    expect(field(page, "Cid")).to_have_value("7")  # what was typed is kept
    assert page.request.get(f"/api/v1/matches/{match_id}").json()["hands"] == []
    if script:  # axe-core runs in the page's script
        assert serious(page) == []
    tap(page.get_by_role("button", name="Save hand 1"))  # asked once: the second Save records none
    expect(page.locator("#saved")).to_contain_text("Hand 1:")
    assert hearts_of(page, match_id) == {"Ann": 5, "Bob": 0, "Cid": 7, "Dee": 3, "Eve": 2, "Fay": 0, "Gus": 4}


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_took_the_rest_wins_over_a_typed_count_on_both_phones(phone, script, tap, screenshot):
    page = phone(java_script_enabled=script)
    match_id = made(page, "hearts", SEVEN, {"first_dealer": "Ann"}, [])
    page.goto(f"/m/{match_id}/hands/new")
    tap.type(field(page, "Ann"), "5")
    for name, count in {"Bob": 4, "Cid": 7}.items():
        tap.type(field(page, name), str(count))
    # Ann's row said 5, then the table says she took the rest: 15 nobody else took, and no question about
    # the rows left empty, which the rest covers.
    tap(page.locator('.player-row[data-name="Ann"]').get_by_role("radio", name="Took the rest"))
    if script:
        expect(field(page, "Ann")).to_have_value("15")  # the row shows the rest before Save
    tap(page.get_by_role("button", name="Save hand 1"))
    if not script:
        question = page.locator(".ask-rest")
        expect(question).to_have_text(REST_QUESTION)
        expect(question).to_be_in_viewport()
        expect(field(page, "Ann")).to_have_value("5")  # what was typed is kept
        screenshot(page, "asked-about-the-rest")
        assert page.request.get(f"/api/v1/matches/{match_id}").json()["hands"] == []
        tap(page.get_by_role("button", name="Save hand 1"))  # asked once: the second Save records the rest
    expect(page.locator("#saved")).to_contain_text("Hand 1:")
    expect(page.locator(".ask-rest")).to_have_count(0)
    assert hearts_of(page, match_id) == {"Ann": 15, "Bob": 4, "Cid": 7, "Dee": 0, "Eve": 0, "Fay": 0, "Gus": 0}


def test_the_question_reads_well_in_the_dark(phone, tap):
    page = phone(color_scheme="dark")
    match_id = made(page, "hearts", SEVEN, {"first_dealer": "Ann"}, [])
    page.goto(f"/m/{match_id}/hands/new")
    for name, count in {"Ann": 5, "Bob": 0, "Cid": 7, "Dee": 3, "Eve": 2, "Gus": 4}.items():
        tap.type(field(page, name), str(count))
    tap(page.get_by_role("button", name="Save hand 1"))
    expect(page.locator(".ask-empty")).to_have_text(QUESTION)
    assert serious(page) == []
    tap.type(field(page, "Fay"), "3")  # typing the count instead takes the question away
    expect(page.locator(".ask-empty")).to_be_hidden()
