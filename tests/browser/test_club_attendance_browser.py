"""Attendance on a phone (390x844, touch): the admin makes a member's own link on the roster, the member opens
it once on their phone and taps "I'm in", the club page shows them coming (a phone that opened no member link
cannot answer); the admin marks a player present at the door with one tap; axe-core in light and dark mode on
the club page, the member link, the admin page and the evening's own page."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from playwright.sync_api import expect

from helpers.browser import check
from helpers.club_matches import FOUR


def test_a_member_says_im_in_and_the_admin_marks_someone_present(phone, tap):
    admin = phone()
    made = admin.context.request.post("/api/v1/clubs", data={"name": "Les Dimanches"})
    club, key = made.json()["id"], made.json()["admin_key"]
    bearer = {"Authorization": f"Bearer {key}"}
    for name in FOUR:
        assert admin.context.request.post(f"/api/v1/clubs/{club}/players", data={"name": name}, headers=bearer).ok
    day = (datetime.now(timezone.utc).date() + timedelta(days=2)).isoformat()
    planned = admin.context.request.post(f"/api/v1/clubs/{club}/planned-evenings", headers=bearer, data={
        "day": day, "starts_at": "19:30", "place": "Café du Nord", "note": "Bring a pen"})
    assert planned.status == 201, planned.text()
    admin.goto(made.json()["admin_url"])
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    admin.goto(f"/c/{club}/admin/members")
    tap(admin.locator("#members").get_by_role("button", name="Member link for Cid"))
    expect(admin.get_by_role("heading", name="Member link of Cid")).to_be_visible()
    link = admin.locator("#member-link").input_value()
    for scheme in ("light", "dark"):
        admin.emulate_media(color_scheme=scheme)
        check(admin, f"member-link-{scheme}", problems, exempt)

    member = phone()
    member.goto(f"/c/{club}")
    card = member.locator("#next-evening")
    expect(card).to_contain_text("from 19:30")
    expect(card).to_contain_text("Café du Nord")
    expect(card).to_contain_text("open your own member link on this phone")  # a name alone answers nothing
    expect(member.get_by_role("button", name="I'm in")).to_have_count(0)
    member.goto(link)
    expect(member.get_by_text("This phone is Cid at Les Dimanches.")).to_be_visible()
    expect(card).to_contain_text("You are Cid.")
    tap(member.get_by_role("button", name="I'm in"))
    expect(card).to_contain_text("1 player is coming: Cid")
    expect(member.get_by_role("button", name="I'm in")).to_have_attribute("aria-pressed", "true")
    for scheme in ("light", "dark"):
        member.emulate_media(color_scheme=scheme)
        member.goto(f"/c/{club}")
        check(member, f"club-evening-{scheme}", problems, exempt)

    admin.goto(f"/c/{club}/admin")  # loaded again: the page was open before the answer
    tap(admin.get_by_role("link", name="Open the evening"))
    door = admin.locator("#door")
    expect(door).to_contain_text("said in")
    bob = door.get_by_role("button", name="Bob")
    expect(bob).to_have_attribute("aria-pressed", "false")
    tap(bob)
    expect(admin.locator("#door").get_by_role("button", name="Bob")).to_have_attribute("aria-pressed", "true")
    for scheme in ("light", "dark"):
        admin.emulate_media(color_scheme=scheme)
        admin.goto(f"/c/{club}/admin")
        check(admin, f"admin-{scheme}", problems, exempt)
        admin.goto(f"/c/{club}/admin/evenings/{planned.json()['evenings'][0]['id']}")
        check(admin, f"evening-page-{scheme}", problems, exempt)
    assert not any(problems.values()), problems
    read = admin.context.request.get(f"/api/v1/clubs/{club}/planned-evenings").json()["evenings"][0]
    assert [p["name"] for p in read["present"]] == ["Bob"]  # marked at the door
    assert [p["name"] for p in read["coming"]] == ["Cid"]  # said "I'm in"
    assert [p["name"] for p in read["here"]] == ["Bob", "Cid"]  # both are there
