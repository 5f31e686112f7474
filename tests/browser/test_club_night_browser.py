"""The organiser's night on a phone (390x844, touch): ten say "I'm in", a latecomer is tapped at the door and all
eleven are there (one tap more marks a no-show not here); from the evening's page every step of the night is one
tap, the rounds page leads back to the door and on to the results, which lead back; every admin page keeps its
headings within two screens; a seated member reads their seat first on the club page. axe-core on every page."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

from playwright.sync_api import expect

from helpers.browser import check, member_link

SCREEN = 844  # the phone's height, CSS pixels
TWELVE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kay", "Lou"]
SAID_IN = TWELVE[:10]  # Kay comes late, Lou never answers


def api(page: Any, method: str, path: str, data: Any, key: str) -> Any:
    answer = page.context.request.fetch(f"/api/v1{path}", method=method, data=data,
                                        headers={"Authorization": f"Bearer {key}"})
    assert answer.ok, answer.text()
    return answer.json()


def club_night(page: Any, said_in: list[str]) -> tuple[str, str, int, dict[str, int]]:
    """A club of twelve over the API, today's evening, `said_in` answering "I'm in" (through the admin), this
    phone running the club. Returns the club's id, its admin key, the evening's id and the players' ids."""
    made = page.context.request.post("/api/v1/clubs", data={"name": "Les Vendredis"})
    assert made.status == 201, made.text()
    club, key = made.json()["id"], made.json()["admin_key"]
    page.goto(made.json()["admin_url"])
    ids = {name: api(page, "POST", f"/clubs/{club}/players", {"name": name}, key)["id"] for name in TWELVE}
    today = datetime.now(timezone.utc).date().isoformat()
    evening = api(page, "POST", f"/clubs/{club}/planned-evenings", {"day": today}, key)["evenings"][0]["id"]
    for name in said_in:
        api(page, "POST", f"/clubs/{club}/planned-evenings/{evening}/answers", {"player": ids[name], "coming": True},
            key)
    return club, key, evening, ids


def both_schemes(page: Any, name: str, problems: dict[str, list[str]], exempt: dict[str, list[str]]) -> None:
    page.wait_for_load_state("load")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check(page, f"{name}-{scheme}", problems, exempt)
    page.emulate_media(color_scheme="light")


def chip(page: Any, name: str) -> Any:
    return page.locator("#door .seat-chip", has=page.locator(".name", has_text=name))


def test_a_latecomer_at_the_door_joins_those_who_said_im_in_and_every_step_is_one_tap(phone, tap):
    admin = phone()
    club, _key, evening, _ids = club_night(admin, SAID_IN)
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}

    admin.goto(f"/c/{club}/admin")
    tap(admin.get_by_role("link", name="Open the evening"))
    admin.wait_for_url(f"**/admin/evenings/{evening}")
    expect(admin.locator(".door-count").first).to_have_text("10 players are here.")
    tap(admin.get_by_role("navigation", name="The evening, step by step").get_by_role("link", name="At the door"))
    expect(chip(admin, "Ann")).to_contain_text("said in")
    expect(chip(admin, "Kay")).to_have_attribute("aria-pressed", "false")
    tap(chip(admin, "Kay"))  # the latecomer
    expect(chip(admin, "Kay")).to_have_attribute("aria-pressed", "true")
    expect(chip(admin, "Kay")).to_contain_text("marked here")
    expect(admin.locator("#door .door-count")).to_have_text("11 players are here.")
    expect(chip(admin, "Ann")).to_have_attribute("aria-pressed", "true")  # those who said "I'm in" still count
    both_schemes(admin, "evening-door", problems, exempt)

    # The rounds page counts the same eleven, and the door is one tap from it.
    tap(admin.get_by_role("link", name="Draw round 1"))
    admin.wait_for_url("**/rounds#draw-heading")
    expect(admin.get_by_text("11 players are here.")).to_be_visible()
    tap(admin.get_by_role("link", name="At the door"))
    admin.wait_for_url(f"**/admin/evenings/{evening}#door")
    tap(chip(admin, "Jo"))  # said "I'm in", never came
    expect(chip(admin, "Jo")).to_contain_text("said in · marked not here")
    expect(chip(admin, "Jo")).to_have_attribute("aria-pressed", "false")
    expect(admin.locator("#door .door-count")).to_have_text("10 players are here.")

    # Draw and confirm round 1 from the evening's page: two Kozyol tables of the ten, two sit out.
    tap(admin.get_by_role("link", name="Draw round 1"))
    admin.get_by_label("Game at every table").select_option("kozyol")
    tap(admin.get_by_role("button", name="Draw round 1"))
    admin.wait_for_url("**/rounds/new?*seed=*")
    expect(admin.locator("section[aria-labelledby=out-heading] .seat-chip")).to_have_count(2)
    tap(admin.get_by_role("button", name="Confirm round 1"))
    expect(admin.get_by_text("Round 1 confirmed")).to_be_visible()
    both_schemes(admin, "rounds", problems, exempt)

    # The rounds page leads on to the results, which lead back to the evening.
    tap(admin.get_by_role("link", name="Results"))
    admin.wait_for_url("**/results")
    tap(admin.get_by_role("link", name="Back to the evening"))
    admin.wait_for_url(f"**/admin/evenings/{evening}")

    # Every step of the night is one tap from the evening's page.
    steps = admin.get_by_role("navigation", name="The evening, step by step")
    base = f"/c/{club}"
    for name, address in (("At the door", "#door"), ("Draw round 2", f"/admin/evenings/{evening}/rounds#draw-heading"),
                          ("Rounds", f"/admin/evenings/{evening}/rounds"),
                          ("Table cards (PDF)", f"/evenings/{evening}/cards.pdf"),
                          ("Results", f"/evenings/{datetime.now(timezone.utc).date().isoformat()}/results")):
        link = steps.get_by_role("link", name=name, exact=True)
        expect(link).to_have_count(1)
        href = link.get_attribute("href")
        assert href == address if address.startswith("#") else href == base + address, (name, href)
    cards = admin.context.request.get(steps.get_by_role("link", name="Table cards (PDF)").get_attribute("href"))
    assert cards.ok and cards.headers["content-type"].startswith("application/pdf")
    close = steps.get_by_role("button", name="Close the evening")
    expect(close).to_have_count(1)
    both_schemes(admin, "evening-steps", problems, exempt)
    tap(close)  # with two tables playing, closing first names them and asks
    expect(admin.locator("main")).to_contain_text(re.compile("still being played|Evening closed"))
    assert not any(problems.values()), problems


def headings_within_two_screens(page: Any) -> dict[str, float]:
    """Every heading of the page that sits further down than two screens: its text -> its top."""
    far = {}
    for heading in page.locator("main h1, main h2, main h3").all():
        if heading.is_visible():
            top = heading.bounding_box()["y"] + page.evaluate("window.scrollY")
            if top > 2 * SCREEN:
                far[heading.inner_text()] = top
    return far


def test_every_admin_page_keeps_its_sections_within_two_screens(phone, tap):
    admin = phone()
    club, key, evening, _ids = club_night(admin, SAID_IN)
    start = datetime.now(timezone.utc).date() + timedelta(days=7)
    api(admin, "POST", f"/clubs/{club}/planned-evenings", {"day": start.isoformat(), "starts_at": "19:30",
                                                           "place": "Café du Nord", "weeks": 26}, key)
    for name, starts, ends in (("Spring", "2026-03-01", "2026-05-31"), ("Summer", "2026-06-01", "2026-08-31")):
        api(admin, "POST", f"/clubs/{club}/seasons", {"name": name, "starts": starts, "ends": ends}, key)
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    admin.goto(f"/c/{club}/admin")
    draw = admin.get_by_role("link", name="Draw round 1").first
    assert draw.bounding_box()["y"] < SCREEN, "the next round to draw is on the first screen"
    assert headings_within_two_screens(admin) == {}
    both_schemes(admin, "admin", problems, exempt)
    pages = admin.locator(".admin-pages a")
    names = pages.all_inner_texts()
    assert len(names) == 6, names
    for index in range(len(names)):
        admin.goto(f"/c/{club}/admin")
        tap(admin.locator(".admin-pages a").nth(index))
        admin.wait_for_load_state("load")
        assert headings_within_two_screens(admin) == {}, admin.url
        both_schemes(admin, admin.url.rsplit("/", 1)[1], problems, exempt)
    admin.goto(f"/c/{club}/admin/evenings/{evening}")  # the evening's own: its steps, its door, its plan
    assert headings_within_two_screens(admin) == {}
    assert not any(problems.values()), problems


def test_a_seated_member_reads_their_seat_first_on_the_club_page(phone):
    admin = phone()
    club, key, evening, ids = club_night(admin, TWELVE[:8])
    first, second = TWELVE[:4], TWELVE[4:8]
    api(admin, "POST", f"/clubs/{club}/planned-evenings/{evening}/rounds",
        {"tables": [{"game": "kozyol", "seats": [ids[name] for name in table]} for table in (first, second)]}, key)
    member = phone()
    member.goto(member_link(admin, club, ids["Gus"], key))
    member.goto(f"/c/{club}")
    heading = member.get_by_role("heading", level=1)
    seat = member.get_by_role("link", name="Round 1: table 2, seat 3 (Eve deals)")
    expect(seat).to_be_visible()
    top, below = seat.bounding_box()["y"], heading.bounding_box()
    assert below["y"] + below["height"] <= top < SCREEN / 2, (below, top)
    assert member.locator("#next-evening").bounding_box()["y"] > top  # the answer comes after the seat
    first_after = member.evaluate("""() => { const h = document.querySelector("main h1");
        let next = h.nextElementSibling; return next ? next.textContent.trim() : ""; }""")
    assert first_after == "Round 1: table 2, seat 3 (Eve deals)", first_after
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    both_schemes(member, "club-seated", problems, exempt)
    member.goto(f"/c/{club}/evenings/{evening}")  # the evening's own page, as the calendar opens it
    expect(member.get_by_role("button", name="I'm in")).to_have_attribute("aria-pressed", "true")
    both_schemes(member, "evening-for-members", problems, exempt)
    assert not any(problems.values()), problems
