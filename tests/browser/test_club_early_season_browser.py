"""An early season on a phone (390x844, touch): provisional places marked on the club page and the evening's
results, a season closed before its last day only after its question, its days changed on its own page with the
reason beside the field; axe-core finds nothing serious, targets are thumb-sized, nothing is wider than the phone."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from playwright.sync_api import expect

from helpers.browser import check
from helpers.club_matches import FOUR
from helpers.clubs import QUICK, TEAM_1_LOSES


def api(page: Any, method: str, path: str, data: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    answer = page.context.request.fetch(f"/api/v1{path}", method=method, data=data, headers=headers)
    assert answer.status < 300, answer.text()
    return answer.json()


def test_an_early_season_shows_provisional_places_and_closes_early_after_its_question(phone, tap, screenshot):
    admin = phone()
    club = api(admin, "POST", "/clubs", {"name": "Les Dimanches"})  # ranked from 3 matches
    today = datetime.now(timezone.utc).date()
    api(admin, "POST", f"/clubs/{club['id']}/seasons", {
        "name": "Cup", "starts": (today - timedelta(days=3)).isoformat(),
        "ends": (today + timedelta(days=40)).isoformat()}, club["admin_key"])
    match = api(admin, "POST", f"/clubs/{club['id']}/matches", {"game": "kozyol", "players": FOUR, "options": QUICK})
    api(admin, "POST", f"/matches/{match['id']}/hands", TEAM_1_LOSES, match["edit_key"])
    admin.goto(club["admin_url"])
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}

    admin.goto(f"/c/{club['id']}")
    expect(admin.locator("table.standings td.place").first).to_have_text("1*")
    expect(admin.get_by_text("* Provisional place: fewer than 3 finished matches so far.")).to_be_visible()
    check(admin, "club-provisional", problems, exempt)
    admin.goto(f"/c/{club['id']}/evenings/{today.isoformat()}/results")
    expect(admin.locator("table.evening-places td").first).to_have_text("1*")
    check(admin, "results-provisional", problems, exempt)

    admin.goto(f"/c/{club['id']}/admin/seasons")
    tap(admin.get_by_text("Close the season"))
    expect(admin.get_by_text("Close it before its last day?")).to_be_visible()
    check(admin, "close-asked", problems, exempt)
    tap(admin.get_by_role("button", name="Close Cup"))
    expect(admin.get_by_role("alert")).to_contain_text("Closing it today makes today its last day")
    check(admin, "close-refused", problems, exempt)
    tap(admin.get_by_label("Yes, close it today"))
    tap(admin.get_by_role("button", name="Close Cup"))
    expect(admin.get_by_role("button", name="Reopen Cup")).to_be_visible()
    screenshot(admin, "closed-early")

    tap(admin.get_by_role("link", name="Change the name or days of Cup"))
    admin.get_by_label("From").fill((today - timedelta(days=30)).isoformat())
    tap(admin.get_by_role("button", name="Save"))
    expect(admin.locator("#err-starts")).to_have_text("This season is closed: reopen it to change its days.")
    expect(admin.get_by_label("From")).to_have_value((today - timedelta(days=30)).isoformat())
    check(admin, "days-refused", problems, exempt)
    screenshot(admin, "days-refused")

    admin.goto(f"/c/{club['id']}")
    expect(admin.locator(".hall-of-fame")).to_contain_text("Ann, Cid (provisional)")
    check(admin, "hall-provisional", problems, exempt)
    found = {name: lines for name, lines in problems.items() if lines}
    assert not found, "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
