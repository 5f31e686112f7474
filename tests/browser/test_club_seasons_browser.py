"""A season closed on the admin page, its page and the hall of fame on a phone: axe-core finds nothing serious,
thumb-sized targets, nothing wider than the phone."""

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


def test_the_admin_closes_a_season_and_the_club_keeps_its_champions(phone, tap, screenshot):
    admin = phone()
    club = api(admin, "POST", "/clubs", {"name": "Les Dimanches"})
    api(admin, "PUT", f"/clubs/{club['id']}/rules", {"min_matches": 1}, club["admin_key"])
    today = datetime.now(timezone.utc).date()
    season = api(admin, "POST", f"/clubs/{club['id']}/seasons", {
        "name": "Autumn", "starts": (today - timedelta(days=30)).isoformat(), "ends": today.isoformat()},
        club["admin_key"])
    match = api(admin, "POST", f"/clubs/{club['id']}/matches", {"game": "kozyol", "players": FOUR, "options": QUICK})
    api(admin, "POST", f"/matches/{match['id']}/hands", TEAM_1_LOSES, match["edit_key"])
    admin.goto(club["admin_url"])
    admin.goto(f"/c/{club['id']}/admin/seasons")
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    check(admin, "admin-open-season", problems, exempt)
    tap(admin.get_by_text("Close the season"))
    check(admin, "admin-close-asked", problems, exempt)
    tap(admin.get_by_role("button", name="Close Autumn"))
    expect(admin.get_by_role("button", name="Reopen Autumn")).to_be_visible()
    check(admin, "admin-closed", problems, exempt)
    screenshot(admin, "admin-closed")
    for scheme in ("light", "dark"):
        admin.emulate_media(color_scheme=scheme)
        admin.goto(f"/c/{club['id']}?season={season['id']}")
        expect(admin.locator(".season-closed")).to_contain_text("Ann, Cid")
        check(admin, f"closed-season-{scheme}", problems, exempt)
        if scheme == "light":
            screenshot(admin, "closed-season")
        admin.goto(f"/c/{club['id']}")
        expect(admin.locator(".hall-of-fame")).to_contain_text("Autumn")
        check(admin, f"hall-of-fame-{scheme}", problems, exempt)
    screenshot(admin, "hall-of-fame")
    found = {name: lines for name, lines in problems.items() if lines}
    assert not found, "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
