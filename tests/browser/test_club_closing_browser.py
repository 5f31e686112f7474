"""Closing an evening with a table still playing, at phone size (390x844, touch): the organiser is asked first,
the table still playing named; the phone at that table, its deal typed, taps Save after the close and reads
why, what it typed and "Back to the match"; back at the match, the reason is at the top. With JavaScript (the
outbox sends the deal first) and without. axe-core finds nothing serious on the pages touched."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from helpers.browser import check
from helpers.evening_tables import two_tables_on

CLOSED = "The evening of this match (Friday) is closed: only the club's admin can change it."
SCREEN = 844  # the phone's height, in CSS pixels


def type_deal(table: Any, tap: Any, points: str) -> None:
    """Team 1's pile typed in as card points."""
    choice = table.get_by_role("radio", name="Type the points")
    if choice.count():
        tap(choice)
    tap.type(table.get_by_label("Card points in the pile"), points)


@pytest.mark.parametrize("scripts", [True, False], ids=["javascript", "no-javascript"])
def test_closing_asks_and_the_table_keeps_what_it_typed_and_reads_why_at_the_top(phone, tap, screenshot, scripts):
    admin = phone()
    night = two_tables_on(admin)
    playing = night["playing"]
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}

    table = phone(java_script_enabled=scripts)
    table.goto(playing["edit_url"])
    tap(table.get_by_role("link", name="Enter deal 1"))
    type_deal(table, tap, "45")

    admin.goto(f"/c/{night['club']}/evenings/{night['evening']}/results")
    tap(admin.get_by_role("button", name="Close the evening"))
    expect(admin.get_by_role("heading", name="1 match of Friday is still being played.")).to_be_visible()
    names = admin.context.request.get(f"/api/v1/matches/{playing['id']}").json()["players"]
    expect(admin.locator(".still-playing li")).to_contain_text(f"Round 1, table 2: {', '.join(names)}")
    check(admin, "close-question", problems, exempt)
    screenshot(admin, "close-question")
    tap(admin.get_by_role("button", name="Close the evening anyway"))
    expect(admin.get_by_text("Evening closed")).to_be_visible()

    with table.expect_navigation():  # with scripts, the outbox hears the refusal, then the form shows the page
        tap(table.get_by_role("button", name="Save deal 1"))
    expect(table.get_by_role("heading", name=CLOSED)).to_be_visible()
    expect(table.get_by_text("card points: 45 : 75")).to_be_visible()
    back = table.get_by_role("link", name="Back to the match")
    expect(back).to_be_visible()
    if scripts:  # axe-core runs in the page: only where scripts do
        check(table, "refused-deal", problems, exempt)
    screenshot(table, "refused")

    tap(back)
    note = table.locator("#evening-closed")
    expect(note).to_have_text(CLOSED)
    box = note.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SCREEN, box  # read without scrolling
    expect(table.get_by_text("You are watching", exact=False)).to_have_count(0)
    expect(table.get_by_role("link", name="Enter deal 1")).to_have_count(0)
    if scripts:
        check(table, "closed-match", problems, exempt)
    screenshot(table, "closed-match")
    found = {name: lines for name, lines in problems.items() if lines}
    assert not found, "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)


def test_a_deal_kept_offline_and_refused_once_the_evening_closed_is_shown_with_what_it_held(phone, tap):
    admin = phone()
    night = two_tables_on(admin)
    table = phone()
    table.goto(night["playing"]["edit_url"])
    tap(table.get_by_role("link", name="Enter deal 1"))
    save = table.get_by_role("button", name="Save deal 1")
    expect(save).to_be_visible()
    table.wait_for_load_state("load")
    table.context.set_offline(True)  # the Wi-Fi drops: the deal is kept on the phone
    type_deal(table, tap, "45")
    tap(save)
    outbox = table.locator("#outbox")
    expect(outbox).to_contain_text("1 hand waiting to send")

    admin.goto(f"/c/{night['club']}/evenings/{night['evening']}/results")
    tap(admin.get_by_role("button", name="Close the evening"))
    tap(admin.get_by_role("button", name="Close the evening anyway"))
    expect(admin.get_by_text("Evening closed")).to_be_visible()

    table.context.set_offline(False)  # the outbox sends the deal: refused, and shown with what it held
    choice = outbox.locator(".choice")
    expect(choice).to_contain_text(CLOSED, timeout=20_000)
    expect(choice.locator(".side")).to_contain_text("This phone sent")
    expect(choice.locator(".side")).to_contain_text("card points: 45 : 75")
    expect(choice.get_by_role("button", name="Discard")).to_be_visible()
