"""A round of a club evening at phone size (390x844, touch): nine at the door, the admin draws two Kozyol tables
and one sit-out, swaps two people with two taps, confirms; a member's phone (their member link opened) sees its
table and seat and opens its match to enter a deal. axe-core in light and dark mode on every page of the round."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from playwright.sync_api import expect

from helpers.browser import check, member_link

NINE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def api(page: Any, method: str, path: str, data: Any, key: str) -> Any:
    answer = page.context.request.fetch(path, method=method, data=data, headers={"Authorization": f"Bearer {key}"})
    assert answer.ok, answer.text()
    return answer.json()


def evening_of_nine(page: Any) -> tuple[str, str, int, dict[str, int]]:
    """A club of nine made over the API, today's evening with everyone at the door; this phone runs the club.

    Returns the club's id, its admin key, the evening's id and the players' ids by name."""
    made = page.context.request.post("/api/v1/clubs", data={"name": "Les Vendredis"})
    assert made.status == 201, made.text()
    club, key = made.json()["id"], made.json()["admin_key"]
    page.goto(made.json()["admin_url"])
    ids = {name: api(page, "POST", f"/api/v1/clubs/{club}/players", {"name": name}, key)["id"] for name in NINE}
    today = datetime.now(timezone.utc).date().isoformat()
    evening = api(page, "POST", f"/api/v1/clubs/{club}/planned-evenings", {"day": today}, key)["evenings"][0]["id"]
    for player in ids.values():
        api(page, "PUT", f"/api/v1/clubs/{club}/planned-evenings/{evening}/present/{player}", {"present": True}, key)
    return club, key, evening, ids


def checked_in_both_schemes(page: Any, name: str, problems: dict[str, list[str]], exempt: dict[str, list[str]]) -> None:
    page.wait_for_load_state("load")  # its style sheets applied
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check(page, f"{name}-{scheme}", problems, exempt)
    page.emulate_media(color_scheme="light")


def test_the_admin_draws_swaps_and_confirms_and_a_member_opens_their_seat(phone, screenshot):
    admin = phone()
    club, key, _evening, ids = evening_of_nine(admin)
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}

    admin.goto(f"/c/{club}/admin")
    admin.get_by_role("link", name="Draw round 1").tap()
    admin.wait_for_url("**/rounds#draw-heading")
    checked_in_both_schemes(admin, "rounds", problems, exempt)
    admin.get_by_label("Game at every table").select_option("kozyol")
    admin.get_by_role("button", name="Draw round 1").tap()
    admin.wait_for_url("**/rounds/new?*seed=*")
    expect(admin.get_by_role("heading", name="Table 1 · Kozyol")).to_be_visible()
    expect(admin.get_by_role("heading", name="Table 2 · Kozyol")).to_be_visible()
    expect(admin.get_by_role("heading", name="Table 3 · Kozyol")).to_have_count(0)
    sitting_out = admin.locator("section[aria-labelledby=out-heading] .seat-chip .name")
    expect(sitting_out).to_have_count(1)
    checked_in_both_schemes(admin, "proposal", problems, exempt)
    screenshot(admin, "proposal")

    out = sitting_out.inner_text()
    first_seat = admin.locator("section[aria-labelledby=table-1] .seat-chip .name").first
    seated = first_seat.inner_text()
    first_seat.tap()
    expect(admin.locator("section[aria-labelledby=table-1] .seat-chip").first).to_have_attribute("aria-pressed", "true")
    admin.locator("section[aria-labelledby=out-heading] .seat-chip .name").tap()
    expect(admin.locator("section[aria-labelledby=table-1] .seat-chip .name").first).to_have_text(out)
    expect(admin.locator("section[aria-labelledby=out-heading] .seat-chip .name")).to_have_text(seated)
    admin.reload()  # the proposal lives in its address
    expect(admin.locator("section[aria-labelledby=table-1] .seat-chip .name").first).to_have_text(out)

    table_two = admin.locator("section[aria-labelledby=table-2] .seat-chip .name")
    member_name, dealer = table_two.nth(1).inner_text(), table_two.nth(0).inner_text()
    admin.get_by_role("button", name="Confirm round 1").tap()
    expect(admin.get_by_text("Round 1 confirmed")).to_be_visible()
    expect(admin.get_by_role("link", name="Draw round 2")).to_have_count(0)  # the link is on the admin page
    expect(admin.get_by_role("heading", name="Draw round 2")).to_be_visible()
    checked_in_both_schemes(admin, "rounds-confirmed", problems, exempt)

    member = phone()
    member.goto(member_link(admin, club, ids[member_name], key))
    expect(member.locator("#next-evening")).to_contain_text(f"You are {member_name}.")
    seat = member.get_by_role("link", name=f"Round 1: table 2, seat 2 ({dealer} deals)")
    expect(seat).to_be_visible()
    expect(member.locator("#round .round-tables li")).to_have_count(2)
    checked_in_both_schemes(member, "club-round", problems, exempt)
    screenshot(member, "club-round")
    seat.tap()
    member.wait_for_url("**/m/*")
    expect(member.locator("form[method=post]").first).to_be_visible()  # the deal's form: this phone enters hands
    assert not any(problems.values()), problems
