"""A whole club evening on phones (390x844, touch): nine members open their own member links and say "I'm in", the
admin draws two Kozyol tables and a sit-out, each phone sees its own table, both tables play their series through
the deal forms, one table agrees and is locked, a third phone's correction is refused and the admin's is kept with
its reason; the evening's page, its results PDF and the table cards read right; axe-core on the club, rounds and
results pages."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from helpers.browser import check, member_link
from helpers.club_matches import replay_of
from helpers.pdf import pages, save, squeezed, text
from scorekeeper.games import kozyol

NINE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
LOCKED = "Agreed by {first}, {second}: locked. The club's admin can change it."
# Team 1 (seats 1 and 3) counts an empty pile and took no trick: the heaviest defeat a deal gives.
EMPTY_PILE = {"points": [0, kozyol.TOTAL_POINTS], "tricks": [0, None]}


def api(page: Any, method: str, path: str, data: Any, key: str) -> Any:
    answer = page.context.request.fetch(f"/api/v1{path}", method=method, data=data,
                                        headers={"Authorization": f"Bearer {key}"})
    assert answer.ok, answer.text()
    return answer.json()


def series_of(seats: list[str]) -> tuple[int, list[str], list[int]]:
    """How many empty-pile deals the engine's default series takes to make a goat: (deals, winners, seat totals)."""
    replay = replay_of("kozyol", seats, None, [])
    while not replay.finished:
        replay.play(EMPTY_PILE)
    summary = replay.summary()
    return len(replay.hands), summary["winners"], [summary["totals"][seat % kozyol.TEAMS] for seat in range(len(seats))]


def team(seats: list[str], first: int) -> str:
    return f"{seats[first]} & {seats[first + kozyol.TEAMS]}"


def play_empty_pile(page: Any, tap: Any, seats: list[str], number: int) -> None:
    """Enter deal `number` on the deal form: the first team's pile typed in as nothing, and no trick."""
    tap(page.get_by_role("link", name=f"Enter deal {number}"))
    tap(page.get_by_role("radio", name=team(seats, 0)))
    tap(page.get_by_role("radio", name="Type the points"))
    tap.type(page.get_by_label("Card points in the pile"), "0")
    tap(page.get_by_role("group", name=f"Did {team(seats, 0)} take a trick?").get_by_role("radio", name="No trick at all"))
    tap(page.get_by_role("button", name=f"Save deal {number}"))
    defeat = kozyol.DEFEAT["no_trick"]
    expect(page.locator(f"#hand-{number}")).to_contain_text(f"{team(seats, 0)} lose: {defeat} defeat points")


def test_a_club_evening_from_im_in_to_the_agreed_results(phone, tap, tmp_path: Path):
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}

    # 1. The admin's phone: the club, its roster and today's evening over the API; the agreements on the page.
    admin = phone()
    made = admin.context.request.post("/api/v1/clubs", data={"name": "Les Jeudis"})
    assert made.status == 201, made.text()
    club, key = made.json()["id"], made.json()["admin_key"]
    admin.goto(made.json()["admin_url"])
    ids = {name: api(admin, "POST", f"/clubs/{club}/players", {"name": name}, key)["id"] for name in NINE}
    today = datetime.now(timezone.utc).date().isoformat()
    evening = api(admin, "POST", f"/clubs/{club}/planned-evenings", {"day": today}, key)["evenings"][0]["id"]
    admin.goto(f"/c/{club}/admin/settings#agreement")
    settings = admin.locator("#agreement")
    settings.get_by_label("Agreements to lock a match").fill("2")
    tap(settings.get_by_role("button", name="Save"))
    expect(admin.get_by_text("Saved: how the club agrees to its results.")).to_be_visible()

    # 2. Nine phones open the member link the admin made for each, and say they are in.
    phones: dict[str, Any] = {}
    for name in NINE:
        member = phones[name] = phone()
        member.goto(member_link(admin, club, ids[name], key))
        expect(member.locator("#next-evening")).to_contain_text(f"You are {name}.")
        tap(member.get_by_role("button", name="I'm in"))
        expect(member.get_by_role("button", name="I'm in")).to_have_attribute("aria-pressed", "true")
    expect(phones[NINE[-1]].locator("#next-evening")).to_contain_text(f"{len(NINE)} players are coming")
    check(phones[NINE[-1]], "club-coming", problems, exempt)

    # 3. The admin draws round 1, Kozyol at every table: two tables of four and one sitting out; confirms it.
    admin.goto(f"/c/{club}/admin")
    tap(admin.get_by_role("link", name="Draw round 1"))
    admin.wait_for_url("**/rounds#draw-heading")
    admin.get_by_label("Game at every table").select_option("kozyol")
    tap(admin.get_by_role("button", name="Draw round 1"))
    admin.wait_for_url("**/rounds/new?*seed=*")
    expect(admin.get_by_role("heading", name="Table 3 · Kozyol")).to_have_count(0)
    tables = {number: admin.locator(f"section[aria-labelledby=table-{number}] .seat-chip .name").all_inner_texts()
              for number in (1, 2)}
    out = admin.locator("section[aria-labelledby=out-heading] .seat-chip .name").all_inner_texts()
    assert [len(seats) for seats in tables.values()] == [kozyol.SEATS, kozyol.SEATS] and len(out) == 1, (tables, out)
    assert sorted([*tables[1], *tables[2], *out]) == sorted(NINE)
    tap(admin.get_by_role("button", name="Confirm round 1"))
    expect(admin.get_by_text("Round 1 confirmed")).to_be_visible()
    shown = admin.locator("section[aria-labelledby=round-1] .round-tables li")
    expect(shown).to_have_count(2)
    for number, seats in tables.items():
        expect(shown.nth(number - 1)).to_contain_text(f"Table {number} · Kozyol · {', '.join(seats)}")
    expect(admin.locator("section[aria-labelledby=round-1]")).to_contain_text(f"Sitting out: {out[0]}")
    rounds_url = admin.url.split("#")[0]
    assert rounds_url.endswith(f"/evenings/{evening}/rounds"), rounds_url
    check(admin, "rounds", problems, exempt)

    # 4. Every phone sees its own line; the eight seated open their table's match.
    seated = {name: (number, seat) for number, seats in tables.items() for seat, name in enumerate(seats, 1)}
    for name, member in phones.items():
        member.goto(f"/c/{club}")
        if name in seated:
            number, seat = seated[name]
            line = f"Round 1: table {number}, seat {seat} ({tables[number][0]} deals)"
            tap(member.get_by_role("link", name=line))
            member.wait_for_url("**/m/*")
            expect(member.get_by_role("link", name="Enter deal 1")).to_be_visible()
        else:
            expect(member.locator(".round-seat")).to_have_text("You sit out round 1.")
            expect(member.locator("#round .round-tables li")).to_contain_text(
                [f"Table {number} · Kozyol · {', '.join(seats)}" for number, seats in tables.items()])
    opened = {name: phones[name].url.split("#")[0].rsplit("/", 1)[1] for name in seated}
    matches = {number: opened[seats[0]] for number, seats in tables.items()}
    assert {name: opened[name] for name in seated} == {name: matches[seated[name][0]] for name in seated}
    assert matches[1] != matches[2]

    # 5. Each table plays its series to the goat from one seated phone.
    winners: dict[int, list[str]] = {}
    totals: dict[int, list[int]] = {}
    for number, seats in tables.items():
        deals, winners[number], totals[number] = series_of(seats)
        scorer = phones[seats[0]]
        for deal in range(1, deals + 1):
            play_empty_pile(scorer, tap, seats, deal)
        expect(scorer.get_by_role("link", name=f"Enter deal {deals + 1}")).to_have_count(0)

    # 6. Table 1: two players agree on their own phones, the match locks; a third phone's correction is refused;
    # the admin's phone changes the deal, giving a reason the history keeps.
    seats, match = tables[1], matches[1]
    first, second, third = (phones[seats[seat]] for seat in (1, 3, 0))
    locked = LOCKED.format(first=seats[1], second=seats[3])
    third.goto(f"/m/{match}/hands/1")  # opened before the lock
    first.goto(f"/m/{match}")
    tap(first.get_by_role("button", name=f"I am {seats[1]}: Agreed"))
    expect(first.get_by_text("Agreed. Thank you.")).to_be_visible()
    second.goto(f"/m/{match}")
    tap(second.get_by_role("button", name=f"I am {seats[3]}: Agreed"))
    expect(second.get_by_text(locked)).to_be_visible()
    tap(third.get_by_role("radio", name="Type the points"))
    tap.type(third.get_by_label("Card points in the pile"), "20")
    # The outbox sends it, hears the refusal, then lets the form post itself to show the server's page: wait for
    # that page, or the next goto races the form's own navigation (and one of them is aborted).
    with third.expect_navigation():
        tap(third.get_by_role("button", name="Save deal 1"))
    expect(third.get_by_text(locked).first).to_be_visible()
    third.goto(f"/m/{match}")
    expect(third.get_by_role("link", name="Correct deal 1")).to_have_count(0)

    admin.goto(rounds_url)
    tap(admin.locator("section[aria-labelledby=round-1] .round-tables li").first.get_by_role("link"))
    admin.wait_for_url(f"**/m/{match}*")
    expect(admin.get_by_text(locked)).to_be_visible()
    tap(admin.locator("#hand-1 .working-link"))
    tap(admin.get_by_role("link", name="Correct deal 1"))
    tap.type(admin.get_by_label("Reason for the change"), "Trumps were hearts")
    tap(admin.locator("details.notes summary"))
    tap(admin.get_by_role("radio", name="Hearts"))
    tap(admin.get_by_role("button", name="Save deal 1"))
    admin.wait_for_url(f"**/m/{match}*")
    admin.goto(f"/m/{match}/history")
    expect(admin.get_by_text("Reason: Trumps were hearts")).to_be_visible()

    # 7. The evening's results: both tables, each one's winners, the evening's winners; its PDF and the table cards.
    member = phones[out[0]]
    member.goto(f"/c/{club}")
    tap(member.get_by_role("link", name="Results of the evening"))
    expect(member.get_by_role("heading", name="Round 1")).to_be_visible()
    lines = member.locator(".evening-result")
    expect(lines).to_have_count(2)
    for number, seats in tables.items():
        line = lines.nth(number - 1)
        expect(line).to_contain_text(f"Table {number} · Kozyol")
        expect(line.locator(".state.finished")).to_be_visible()
        for name in seats:
            expect(line.get_by_role("rowheader", name=name, exact=name not in winners[number])).to_be_visible()
        for name in winners[number]:
            expect(line.get_by_role("rowheader", name=f"{name} winner")).to_be_visible()
        expect(line.locator("td")).to_have_text([str(total) for total in totals[number]])
    expect(lines.first).to_contain_text("Agreed by its players")
    expect(lines.nth(1)).to_contain_text("Not yet agreed")
    expect(member.locator("section[aria-labelledby=round-1]")).to_contain_text(f"Sitting out: {out[0]}")
    champions = member.locator("section[aria-labelledby=winners-heading] li")
    for name in [*winners[1], *winners[2]]:
        expect(champions).to_contain_text(name)
    check(member, "results", problems, exempt)

    results = member.context.request.get(member.get_by_role("link", name="Download PDF").get_attribute("href"))
    assert results.ok and results.headers["content-type"].startswith("application/pdf"), results.status
    path = save(tmp_path, results.body(), "results.pdf")
    assert pages(path) == 1
    printed = squeezed(text(path))
    for words in ("LesJeudis", "Round1", f"Sittingout:{out[0]}", "Winnersoftheevening"):
        assert words in printed, words
    for number, seats in tables.items():  # a line per table: its number, game and each seat's total
        row = f"{number}Kozyol·" + ",".join(f"{name}{total}" for name, total in zip(seats, totals[number]))
        assert row in printed, (row, printed)
    # The evening's winners, by name (the page's language sorts them).
    assert squeezed(", ".join(sorted([*winners[1], *winners[2]]))) in printed.split("Winnersoftheevening")[1]

    admin.goto(rounds_url)
    cards = admin.context.request.get(admin.get_by_role("link", name="Table cards (PDF)").get_attribute("href"))
    assert cards.ok and cards.headers["content-type"].startswith("application/pdf"), cards.status
    card_text = text(save(tmp_path, cards.body(), "cards.pdf"))
    for number, seats in tables.items():
        assert f"Table {number}" in card_text and "Round 1" in card_text
        assert f"Team 1: {seats[0]} & {seats[2]}" in card_text and f"Team 2: {seats[1]} & {seats[3]}" in card_text
        assert f"{seats[0]} deals first" in card_text

    found = {page: why for page, why in problems.items() if why}
    assert not found, "\n".join(f"{page}: {one}" for page, why in found.items() for one in why)
