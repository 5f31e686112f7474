"""A club in a real browser: made on one phone, two Kozyol series played from the roster on two phones
(one enters, the other watches live), then the season table and a player's page; axe-core on every club page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from helpers.browser import check, report, uncovered

FOUR = ["Ann", "Bob", "Cid", "Dee"]


def start_series(page: Any, tap: Any, seats: list[str], new: dict[int, str] | None = None,
                 shoot: Any = None) -> str:
    """From the club page: Kozyol, the roster's players tapped in seating order (or a new name typed for a
    seat), a series to one defeat point."""
    tap(page.get_by_role("link", name="Kozyol seats from the roster"))
    chips = page.get_by_role("group", name="Tap the players in seating order")
    for name in seats:
        if name:
            tap(chips.get_by_role("button", name=name, exact=True))
    for seat, name in (new or {}).items():
        tap.type(page.get_by_label(f"Seat {seat + 1}: or a new name"), name)
    page.get_by_label("Defeat points that end the series").fill("1")
    names = [(new or {}).get(seat) or name for seat, name in enumerate(seats + [""] * (len(FOUR) - len(seats)))]
    for seat, name in enumerate(names):  # the seating plan and the dealer menu follow the picks
        expect(page.locator(f'.table-plan [data-seat="{seat}"]')).to_have_text(name)
    expect(page.get_by_label("Who deals first").locator("option").first).to_have_text(f"Seat 1: {names[0]}")
    if shoot:
        shoot(page, "new-match")
    tap(page.get_by_role("button", name="Start the match"))
    page.wait_for_url("**/m/*")
    return page.url.rsplit("/", 1)[1]


def deal_lost_by_first_team(page: Any, tap: Any) -> None:
    """Deal 1: the first team's pile typed in, 45 card points: they lose and the series is over."""
    tap(page.get_by_role("link", name="Enter deal 1"))
    tap(page.get_by_role("radio", name="Type the points"))
    tap.type(page.get_by_label("Card points in the pile"), "45")
    tap(page.get_by_role("button", name="Save deal 1"))


def test_a_club_season_played_on_two_phones(phone, tap, screenshot, live):
    organiser = phone()
    organiser.goto("/")
    tap(organiser.get_by_role("link", name="Start a club"))
    tap.type(organiser.get_by_label("Name of the club"), "Friday Kozyol")
    tap(organiser.get_by_role("button", name="Start the club"))
    expect(organiser.get_by_role("heading", name="Links of Friday Kozyol")).to_be_visible()
    club_link = organiser.locator("#club-link").input_value()
    assert "/join/" in organiser.locator("#admin-link").input_value()
    expect(organiser.get_by_role("img", name="QR code of the admin link")).to_be_visible()
    screenshot(organiser, "links")

    # The roster, and ranked from the first match.
    tap(organiser.get_by_role("link", name="Add players"))
    for name in FOUR:
        tap.type(organiser.get_by_label("New player"), name)
        tap(organiser.get_by_role("button", name="Add to the roster"))
        expect(organiser.get_by_text(f"{name} joined the roster.")).to_be_visible()
    tap.type(organiser.get_by_label("New player"), "ann")
    tap(organiser.get_by_role("button", name="Add to the roster"))
    expect(organiser.locator("#err-name")).to_have_text("The club already has a player of that name.")
    expect(organiser.get_by_label("New player")).to_have_value("ann")
    tap(organiser.get_by_role("link", name="Run the club"))
    tap(organiser.get_by_role("link", name="Settings"))
    organiser.get_by_label("Matches needed to be ranked").fill("1")
    tap(organiser.locator("#ranking").get_by_role("button", name="Save"))
    expect(organiser.get_by_text("Saved: the standings rank players")).to_be_visible()

    # The other phone joins with the club link: a member, who watches.
    member = phone()
    member.goto(club_link)
    expect(member.get_by_role("heading", name="Friday Kozyol")).to_be_visible()
    expect(member.get_by_text("No finished matches yet.")).to_be_visible()
    expect(member.get_by_role("link", name="Run the club")).to_have_count(0)

    # Series 1: seated from the roster in four taps; the member follows it live from the club's evening.
    organiser.goto(club_link)
    tap.reset()
    match_id = start_series(organiser, tap, FOUR)
    report("taps", "Club: a Kozyol series started from the roster", {"taps": tap.count})
    member.goto(club_link)
    tap(member.get_by_role("link", name="Kozyol · Ann, Bob, Cid, Dee"))
    member.wait_for_url(f"**/m/{match_id}")
    expect(member.get_by_text("You are watching.")).to_be_visible()
    since = live.saved(organiser, lambda: deal_lost_by_first_team(organiser, tap))
    expect(organiser.get_by_text("Series over: Ann & Cid are the goat.")).to_be_visible()
    live.wait("club match: the series won", since, member,
              lambda ms: expect(member.get_by_text("Series over: Ann & Cid are the goat.")).to_be_visible(timeout=ms))
    expect(member.get_by_role("link", name="Back to Friday Kozyol")).to_be_visible()

    # Series 2, the other way round: the member enters, with a new name who joins the roster.
    member.goto(club_link)
    second = start_series(member, tap, ["Bob", "Ann", "Dee"], {3: "Eve"}, screenshot)
    organiser.goto(f"/m/{second}")
    since = live.saved(member, lambda: deal_lost_by_first_team(member, tap))
    live.wait("club match: entered by the member", since, organiser,
              lambda ms: expect(organiser.get_by_text("Series over: Bob & Dee are the goat.")).to_be_visible(timeout=ms))

    # The season table, ratings beside the places; then a player's record.
    tap(member.get_by_role("link", name="Back to Friday Kozyol"))
    table = member.get_by_role("region", name="Kozyol")
    expect(table).to_be_visible()
    rows = [" ".join(row.split()) for row in table.locator("tbody tr").all_inner_texts()]
    assert rows[0].startswith("1 Eve 1 0.0 0 0 1 "), rows
    goats = {row.split()[1]: row.split()[4] for row in rows}
    assert goats == {"Ann": "1", "Bob": "1", "Cid": "1", "Dee": "1", "Eve": "0"}, rows
    assert all(len(row.split()) == 8 for row in rows), "a rating beside every place"
    uncovered(member, table.locator("tbody td"))  # every figure and rating on screen, nothing over it
    assert member.evaluate("document.documentElement.scrollWidth") <= member.viewport_size["width"], "no sideways scroll"
    expect(member.get_by_role("region", name="Partnerships")).to_contain_text("Ann & Cid")
    expect(member.get_by_role("heading", name="Evenings")).to_be_visible()
    screenshot(member, "season")
    tap(table.get_by_role("link", name="Ann"))
    expect(member.get_by_role("heading", name="Ann", exact=True)).to_be_visible()
    figures = member.locator(".player-stats .figures")
    expect(figures).to_contain_text("Times goat")
    expect(figures.locator("div", has_text="Deals played")).to_contain_text("2")
    member.get_by_label("Against").select_option(label="Bob")
    tap(member.get_by_role("button", name="Compare"))
    expect(member.locator(".meetings")).to_contain_text("2 matches against each other · Ann ahead 1 · Bob ahead 1")
    member.get_by_label("Against").select_option(label="Eve")
    tap(member.get_by_role("button", name="Compare"))
    expect(member.locator(".meetings")).to_contain_text("partners in 1 match")
    screenshot(member, "player")

    # Every club page: axe-core finds nothing serious, thumb-sized targets, nothing wider than the phone.
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    club = club_link.rsplit("/", 1)[1]
    for scheme in ("light", "dark"):
        for name, page, address in [
            ("new-club", organiser, "/clubs/new"), ("links", organiser, f"/c/{club}/share"),
            ("club", member, f"/c/{club}"), ("admin", organiser, f"/c/{club}/admin"),
            *[(f"admin-{part}", organiser, f"/c/{club}/admin/{part}")
              for part in ("players", "members", "evenings", "seasons", "settings", "rules")],
            ("new-admin-link", organiser, f"/c/{club}/admin-link"),
            ("new-match", member, f"/c/{club}/new/kozyol"), ("hearts-from-club", member, f"/c/{club}/new/hearts"),
            ("player", member, member.url), ("home", organiser, "/"),
        ]:
            page.emulate_media(color_scheme=scheme)
            page.goto(address)
            check(page, f"{name}-{scheme}", problems, exempt)
    organiser.emulate_media(color_scheme="light")
    organiser.goto(f"/c/{club}/admin/seasons")
    organiser.get_by_label("Name of the season").fill("")
    organiser.get_by_label("From", exact=True).fill("2026-09-01")
    organiser.get_by_label("To", exact=True).fill("2026-06-30")
    tap(organiser.get_by_role("button", name="Add the season"))
    organiser.locator("#err-name").wait_for()
    expect(organiser.get_by_label("From", exact=True)).to_have_value("2026-09-01")
    organiser.wait_for_load_state("load")
    check(organiser, "admin-refused", problems, exempt)
    screenshot(organiser, "admin-refused")
    report("touch-target-exemptions", "club pages", exempt)
    found = {name: lines for name, lines in problems.items() if lines}
    assert not found, "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)


def admin_page_of_a_new_club(phone: Any, tap: Any, zone: str, name: str) -> Any:
    """A phone in this time zone starts a club and opens its settings, where the time zone is set."""
    organiser = phone(timezone_id=zone)
    organiser.goto("/clubs/new")
    tap.type(organiser.get_by_label("Name of the club"), name)
    tap(organiser.get_by_role("button", name="Start the club"))
    tap(organiser.get_by_role("link", name="Add players"))
    tap(organiser.get_by_role("link", name="Run the club"))
    tap(organiser.get_by_role("link", name="Settings"))
    return organiser


def test_a_phone_offers_its_own_time_zone_to_the_club_in_one_tap(phone, tap):
    organiser = admin_page_of_a_new_club(phone, tap, "Europe/Paris", "Paris Barbu")
    offer = organiser.get_by_role("button", name="Use this phone's time zone: Europe/Paris")
    expect(organiser.get_by_role("combobox", name="Time zone")).to_have_value("UTC")
    expect(offer).to_be_visible()
    uncovered(organiser, offer)  # on screen, nothing covering it
    tap(offer)
    expect(organiser.get_by_role("combobox", name="Time zone")).to_have_value("Europe/Paris")
    expect(offer).to_be_hidden()
    tap(organiser.locator("#zone").get_by_role("button", name="Save"))
    expect(organiser.get_by_text("Time zone saved")).to_be_visible()
    expect(organiser.get_by_role("combobox", name="Time zone")).to_have_value("Europe/Paris")
    expect(organiser.locator("[data-phone-zone]")).to_be_hidden()  # the club's zone is this phone's now
    organiser.goto(organiser.url.split("/admin")[0])
    expect(organiser.get_by_text("in the club's time zone (Europe/Paris)")).to_be_visible()
    assert tap.count <= 20


def test_a_phone_is_not_offered_its_zone_under_another_name_of_the_same_zone(phone, tap):
    organiser = admin_page_of_a_new_club(phone, tap, "America/Toronto", "Montreal Barbu")
    expect(organiser.get_by_role("button", name="Use this phone's time zone: America/Toronto")).to_be_visible()
    organiser.get_by_role("combobox", name="Time zone").select_option("America/Montreal")  # the same zone
    tap(organiser.locator("#zone").get_by_role("button", name="Save"))
    expect(organiser.get_by_text("Time zone saved")).to_be_visible()
    expect(organiser.locator("[data-phone-zone]")).to_be_hidden()
