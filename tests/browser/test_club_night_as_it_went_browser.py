"""The club evening as it went wrong, played again on phones (390x844, touch): nine members say "I'm in", one
latecomer is marked at the door and nobody who answered is dropped; round 1 is drawn from the evening's page, two
Kozyol tables and two sitting out, each seated member reading their seat first; two more come after the draw and
are seated with the sit-outs at a new table, tables 1 and 2 left as they are; table 1 plays to the end through the
deal forms, two of its players agree and the organiser then changes a deal, which its page, the results and the
sheet say; closing with tables still playing asks and names them, and a phone at table 2 reads why at the top.
axe-core on the door, the rounds, the closing question and the results."""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from helpers.browser import check, member_link
from helpers.pdf import poppler, save, text
from scorekeeper.games import kozyol

SCREEN = 844  # the phone's height, CSS pixels
ROSTER = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kay", "Lou"]
SAID_IN, AT_THE_DOOR, AFTER_THE_DRAW = ROSTER[:9], "Jo", ["Kay", "Lou"]
NIGHT = "Kozyol night"
REASON = "Trumps were hearts"
LOCKED = "Agreed by {first}, {second}: locked. The club's admin can change it."
CHANGED = re.compile(r"Changed by the club's organiser on \d{1,2} \w{3} \d{4} \d\d:\d\d, after its players agreed: "
                     rf"Deal 1 corrected\. Reason: {REASON}")
CLOSED = f"The evening of this match ({NIGHT}) is closed: only the club's admin can change it."
ROUND_1 = "section[aria-labelledby=round-1] .round-tables li"


def api(page: Any, method: str, path: str, data: Any, key: str) -> Any:
    answer = page.context.request.fetch(f"/api/v1{path}", method=method, data=data,
                                        headers={"Authorization": f"Bearer {key}"})
    assert answer.ok, answer.text()
    return answer.json()


def go(page: Any, tap: Any, locator: Any) -> None:
    """Tap what takes the phone to another page (a link, or a form's button), and wait for that page."""
    with page.expect_navigation():
        tap(locator)


def pdf_of(page: Any, link: Any) -> bytes:
    """The PDF behind a link. The machine renders one at a time (its render slots are shared by every process that
    uses the instance folder): while they are all taken the answer is 503 "try again in N seconds", and the phone
    asks again when Retry-After says, as its reader would, for up to a minute."""
    href, deadline = link.get_attribute("href"), time.monotonic() + 60
    answer = page.context.request.get(href)
    while answer.status == 503 and time.monotonic() < deadline:
        print(f"\n[busy] {href}: every render slot taken, asked again in {answer.headers.get('retry-after')} s")
        page.wait_for_timeout(int(answer.headers.get("retry-after", "1")) * 1000)
        answer = page.context.request.get(href)
    assert answer.ok and answer.headers["content-type"].startswith("application/pdf"), (href, answer.status)
    return answer.body()


def chip(page: Any, name: str) -> Any:
    return page.locator("#door .seat-chip", has=page.locator(".name", has_text=re.compile(f"^{name}$")))


def at_the_door(admin: Any, tap: Any, name: str, here: int) -> None:
    """From the rounds page, the door: one tap marks the player here; everyone counted stays, then back."""
    go(admin, tap, admin.locator("main").get_by_role("link", name="At the door", exact=True))
    expect(chip(admin, name)).to_have_attribute("aria-pressed", "false")
    go(admin, tap, chip(admin, name))
    expect(chip(admin, name)).to_contain_text("marked here")
    expect(chip(admin, name)).to_have_attribute("aria-pressed", "true")
    expect(admin.locator("#door .door-count")).to_have_text(f"{here} players are here.")
    for said in SAID_IN:
        expect(chip(admin, said)).to_have_attribute("aria-pressed", "true")
    go(admin, tap, admin.get_by_role("navigation", name="The evening, step by step").get_by_role("link", name="Rounds"))
    expect(admin.get_by_role("heading", name=f"Rounds of {NIGHT}")).to_be_visible()
    expect(admin.get_by_text(f"{here} players are here.", exact=True)).to_be_visible()


def seat_first(member: Any, club: str, line: str) -> None:
    """The member's club page: their seat is the first thing under the heading, in the top half of the screen."""
    member.goto(f"/c/{club}")
    seat = member.get_by_role("link", name=line)
    expect(seat).to_be_visible()
    first = member.evaluate("""() => { const next = document.querySelector("main h1").nextElementSibling;
        return next ? next.textContent.trim() : ""; }""")
    assert first == line, first
    box = seat.bounding_box()
    assert box is not None and box["y"] < SCREEN / 2, box


def seat_line(number: int, seats: list[str], name: str) -> str:
    return f"Round 1: table {number}, seat {seats.index(name) + 1} ({seats[0]} deals)"


def team(seats: list[str], first: int) -> str:
    return f"{seats[first]} & {seats[first + kozyol.TEAMS]}"


def play_empty_pile(page: Any, tap: Any, seats: list[str], number: int) -> None:
    """Enter deal `number` on the deal form: the first team's pile typed in as nothing, and no trick."""
    go(page, tap, page.get_by_role("link", name=f"Enter deal {number}"))
    tap(page.get_by_role("radio", name=team(seats, 0)))
    tap(page.get_by_role("radio", name="Type the points"))
    tap.type(page.get_by_label("Card points in the pile"), "0")
    tap(page.get_by_role("group", name=f"Did {team(seats, 0)} take a trick?").get_by_role("radio", name="No trick at all"))
    go(page, tap, page.get_by_role("button", name=f"Save deal {number}"))
    expect(page.locator(f"#hand-{number}")).to_contain_text(f"{team(seats, 0)} lose: {kozyol.DEFEAT['no_trick']} "
                                                            "defeat points")


def table_seats(admin: Any, number: int) -> list[str]:
    return admin.locator(f"section[aria-labelledby=table-{number}] .seat-chip .name").all_inner_texts()


def open_seat(member: Any, tap: Any, club: str, line: str) -> str:
    """The member taps their seat on the club page and opens their table's match; returns its id."""
    member.goto(f"/c/{club}")
    go(member, tap, member.get_by_role("link", name=line))
    member.wait_for_url("**/m/*")
    return member.url.split("#")[0].rsplit("/", 1)[1]


def test_the_evening_as_it_went_wrong_goes_right(phone, tap, tmp_path: Path):
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}

    # 1. The club, its roster and tonight's evening over the API; two agreements lock a match (the settings page).
    admin = phone()
    made = admin.context.request.post("/api/v1/clubs", data={"name": "Les Jeudis"})
    assert made.status == 201, made.text()
    club, key = made.json()["id"], made.json()["admin_key"]
    admin.goto(made.json()["admin_url"])
    ids = {name: api(admin, "POST", f"/clubs/{club}/players", {"name": name}, key)["id"] for name in ROSTER}
    today = datetime.now(timezone.utc).date().isoformat()
    evening = api(admin, "POST", f"/clubs/{club}/planned-evenings", {"day": today, "name": NIGHT},
                  key)["evenings"][0]["id"]
    admin.goto(f"/c/{club}/admin/settings#agreement")
    settings = admin.locator("#agreement")
    settings.get_by_label("Agreements to lock a match").fill("2")
    go(admin, tap, settings.get_by_role("button", name="Save"))
    expect(admin.get_by_text("Saved: how the club agrees to its results.")).to_be_visible()

    phones: dict[str, Any] = {}
    for name in SAID_IN:  # nine open their member links and say they are in
        member = phones[name] = phone()
        member.goto(member_link(admin, club, ids[name], key))
        expect(member.locator("#next-evening")).to_contain_text(f"You are {name}.")
        go(member, tap, member.get_by_role("button", name="I'm in"))
        expect(member.get_by_role("button", name="I'm in")).to_have_attribute("aria-pressed", "true")
    expect(phones[SAID_IN[-1]].locator("#next-evening")).to_contain_text("9 players are coming")

    # 2. At the door: a tenth is marked here; the nine who said "I'm in" stay; the evening and the rounds agree.
    admin.goto(f"/c/{club}/admin")
    go(admin, tap, admin.get_by_role("link", name="Open the evening"))
    expect(admin.get_by_role("heading", level=1, name=NIGHT)).to_be_visible()
    expect(admin.locator(".door-count").first).to_have_text("9 players are here.")
    steps = admin.get_by_role("navigation", name="The evening, step by step")
    tap(steps.get_by_role("link", name="At the door"))
    go(admin, tap, chip(admin, AT_THE_DOOR))
    expect(chip(admin, AT_THE_DOOR)).to_contain_text("marked here")
    expect(chip(admin, AT_THE_DOOR)).to_have_attribute("aria-pressed", "true")
    for name in SAID_IN:
        expect(chip(admin, name)).to_contain_text("said in")
        expect(chip(admin, name)).to_have_attribute("aria-pressed", "true")
    expect(admin.locator(".door-count").first).to_have_text("10 players are here.")
    expect(admin.locator("#door .door-count")).to_have_text("10 players are here.")
    check(admin, "door", problems, exempt)

    # 3. One tap from the evening to the draw: Kozyol at every table, two tables of four, two sit out; confirmed.
    go(admin, tap, steps.get_by_role("link", name="Draw round 1"))
    expect(admin.get_by_role("heading", name="Draw round 1")).to_be_visible()
    expect(admin.get_by_text("10 players are here.", exact=True)).to_be_visible()
    admin.get_by_label("Game at every table").select_option("kozyol")
    go(admin, tap, admin.get_by_role("button", name="Draw round 1"))
    admin.wait_for_url("**/rounds/new?*seed=*")
    expect(admin.get_by_role("heading", name="Round 1: the proposal")).to_be_visible()
    expect(admin.get_by_role("heading", name="Table 3 · Kozyol")).to_have_count(0)
    tables = {number: table_seats(admin, number) for number in (1, 2)}
    out = admin.locator("section[aria-labelledby=out-heading] .seat-chip .name").all_inner_texts()
    assert [len(seats) for seats in tables.values()] == [kozyol.SEATS] * 2 and len(out) == 2, (tables, out)
    assert sorted([*tables[1], *tables[2], *out]) == sorted([*SAID_IN, AT_THE_DOOR])
    go(admin, tap, admin.get_by_role("button", name="Confirm round 1"))
    expect(admin.get_by_text("Round 1 confirmed")).to_be_visible()
    drawn = [f"Table {number} · Kozyol · {', '.join(seats)}" for number, seats in tables.items()]
    expect(admin.locator(ROUND_1)).to_contain_text(drawn)
    check(admin, "rounds", problems, exempt)

    phones[AT_THE_DOOR] = phone()
    phones[AT_THE_DOOR].goto(member_link(admin, club, ids[AT_THE_DOOR], key))
    expect(phones[AT_THE_DOOR].get_by_text(f"This phone is {AT_THE_DOOR} at Les Jeudis.")).to_be_visible()
    for number, seats in tables.items():
        for name in seats:
            seat_first(phones[name], club, seat_line(number, seats, name))
    for name in out:
        phones[name].goto(f"/c/{club}")
        expect(phones[name].locator(".round-seat")).to_have_text("You sit out round 1.")

    # 4. After the draw: one more is too few for a table; with a second, the free four get table 3, 1 and 2 unmoved.
    at_the_door(admin, tap, AFTER_THE_DRAW[0], 11)
    free = admin.locator("#free")
    expect(free).to_contain_text("Free now (3):")
    for name in [*out, AFTER_THE_DRAW[0]]:
        expect(free).to_contain_text(name)
    expect(free.get_by_text("Too few for a new table: they play in the next round.")).to_be_visible()
    expect(free.get_by_role("link", name="Seat them at a new table")).to_have_count(0)
    at_the_door(admin, tap, AFTER_THE_DRAW[1], 12)
    expect(admin.locator("#free")).to_contain_text("Free now (4):")
    go(admin, tap, admin.get_by_role("link", name="Seat them at a new table"))
    admin.wait_for_url("**/rounds/1/more?*seed=*")
    expect(admin.get_by_role("heading", name="Round 1: a new table")).to_be_visible()
    expect(admin.get_by_text("Tables 1, 2 play on as they are: only those who are free are seated here.")).to_be_visible()
    expect(admin.get_by_role("heading", name="Table 1 · Kozyol")).to_have_count(0)
    tables[3] = table_seats(admin, 3)
    assert sorted(tables[3]) == sorted([*out, *AFTER_THE_DRAW]), tables[3]
    go(admin, tap, admin.get_by_role("button", name="Add this table to round 1"))
    expect(admin.get_by_text("Round 1 has a new table: it can start.")).to_be_visible()
    expect(admin.locator(ROUND_1)).to_have_count(3)
    expect(admin.locator(ROUND_1)).to_contain_text(
        [*drawn, f"Table 3 · Kozyol · {', '.join(tables[3])}"])  # tables 1 and 2 as they were drawn
    for name in AFTER_THE_DRAW:
        phones[name] = phone()
        phones[name].goto(member_link(admin, club, ids[name], key))
    for name in tables[3]:
        seat_first(phones[name], club, seat_line(3, tables[3], name))

    # 5. Table 1 plays to the end on one phone and table 2 a deal; two of table 1 agree; the organiser changes it.
    first = tables[1]
    match = open_seat(phones[first[0]], tap, club, seat_line(1, first, first[0]))
    expect(phones[first[0]].get_by_role("link", name="Enter deal 1")).to_be_visible()
    for deal in (1, 2):
        play_empty_pile(phones[first[0]], tap, first, deal)
    expect(phones[first[0]].get_by_role("link", name="Enter deal 3")).to_have_count(0)  # the goat: it is over
    second = tables[2]
    at_table_2 = phones[second[1]]
    playing = open_seat(at_table_2, tap, club, seat_line(2, second, second[1]))
    expect(at_table_2.get_by_role("link", name="Enter deal 1")).to_be_visible()
    play_empty_pile(at_table_2, tap, second, 1)
    locked = LOCKED.format(first=first[1], second=first[3])
    for seat in (1, 3):  # each from their own seat on the club page
        member = phones[first[seat]]
        assert open_seat(member, tap, club, seat_line(1, first, first[seat])) == match
        go(member, tap, member.get_by_role("button", name=f"I am {first[seat]}: Agreed"))
    expect(phones[first[3]].get_by_text(locked)).to_be_visible()

    admin.goto(f"/c/{club}/admin/evenings/{evening}/rounds")
    go(admin, tap, admin.locator(ROUND_1).get_by_role("link", name=re.compile(r"^Table 1 ·")))
    expect(admin.get_by_text(locked)).to_be_visible()
    go(admin, tap, admin.locator("#hand-1 .working-link"))
    go(admin, tap, admin.get_by_role("link", name="Correct deal 1"))
    tap.type(admin.get_by_label("Reason for the change"), REASON)
    tap(admin.locator("details.notes summary"))
    tap(admin.get_by_role("radio", name="Hearts"))
    go(admin, tap, admin.get_by_role("button", name="Save deal 1"))
    admin.wait_for_url(f"**/m/{match}*")
    expect(admin.get_by_text(CHANGED)).to_be_visible()
    expect(admin.get_by_text(locked)).to_be_visible()  # still agreed and locked
    sheet = pdf_of(admin, admin.get_by_role("link", name="Sheet as PDF"))
    printed = " ".join(text(save(tmp_path, sheet, "sheet.pdf")).split())
    assert CHANGED.search(printed) and f"Agreed by {first[1]}, {first[3]}" in printed, printed[:800]

    admin.goto(f"/c/{club}/evenings/{today}/results")
    expect(admin.get_by_role("heading", name=f"Results of {NIGHT}")).to_be_visible()
    lines = admin.locator(".evening-result")
    expect(lines).to_have_count(3)
    expect(lines.first).to_contain_text("Agreed by its players, then changed by the club's organiser")
    expect(lines.first).to_contain_text(CHANGED)
    results = pdf_of(admin, admin.get_by_role("link", name="Download PDF"))
    # Its tables flow in two columns: read in the columns' order, not line by line across the page.
    printed = " ".join(poppler("pdftotext", str(save(tmp_path, results, "results.pdf")), "-").split())
    assert "Agreed by its players, then changed by the club's organiser" in printed, printed[:800]
    assert CHANGED.search(printed), printed[:800]

    # 6. Closing with tables 2 and 3 still playing asks first and names them; closed anyway.
    go(admin, tap, admin.get_by_role("link", name="Back to the evening"))
    go(admin, tap, steps.get_by_role("button", name="Close the evening"))
    expect(admin.get_by_role("heading", name=f"2 matches of {NIGHT} are still being played.")).to_be_visible()
    expect(admin.locator(".still-playing li")).to_contain_text(
        [f"Round 1, table {number}: {', '.join(tables[number])} · {hands}"
         for number, hands in ((2, "1 hand played"), (3, "0 hands played"))])
    check(admin, "closing-question", problems, exempt)
    go(admin, tap, admin.get_by_role("button", name="Close the evening anyway"))
    expect(admin.get_by_text("Evening closed: its matches now change only from the club's admin.")).to_be_visible()
    expect(admin.get_by_role("heading", name=f"Results of {NIGHT}")).to_be_visible()
    check(admin, "results", problems, exempt)

    # A phone at table 2, its edit key in hand, reads why at the top: not "You are watching".
    at_table_2.goto(f"/m/{playing}")
    note = at_table_2.locator("#evening-closed")
    expect(note).to_have_text(CLOSED)
    box = note.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SCREEN, box
    expect(at_table_2.get_by_text("You are watching", exact=False)).to_have_count(0)
    expect(at_table_2.get_by_role("link", name="Enter deal 2")).to_have_count(0)

    # 7. axe-core and the thumb-sized targets on the door, the rounds, the closing question and the results.
    found = {page: why for page, why in problems.items() if why}
    assert not found, "\n".join(f"{page}: {one}" for page, why in found.items() for one in why)
