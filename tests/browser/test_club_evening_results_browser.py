"""An evening's results at phone size (390x844, touch): two rounds of Kozyol tables, one still playing; anyone
with the club link reads them, the admin closes the evening, asked first about the table still playing;
axe-core in light and dark mode finds nothing serious, targets are thumb-sized and nothing is wider than the
phone."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from playwright.sync_api import expect

from helpers.browser import check
from helpers.clubs import QUICK, TEAM_1_LOSES

EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def api(page: Any, method: str, path: str, data: Any, key: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    answer = page.context.request.fetch(f"/api/v1{path}", method=method, data=data, headers=headers)
    assert answer.ok, answer.text()
    return answer.json()


def evening_of_eight(page: Any) -> tuple[str, int]:
    """A club of eight over the API, today's evening, two rounds of two tables; the last table still playing."""
    made = api(page, "POST", "/clubs", {"name": "Les Vendredis", "house_rules": {"kozyol": QUICK}})
    club, key = made["id"], made["admin_key"]
    page.goto(made["admin_url"])
    api(page, "PUT", f"/clubs/{club}/rules", {"min_matches": 1}, key)
    ids = [api(page, "POST", f"/clubs/{club}/players", {"name": name}, key)["id"] for name in EIGHT]
    today = datetime.now(timezone.utc).date().isoformat()
    evening = api(page, "POST", f"/clubs/{club}/planned-evenings", {"day": today, "name": "Friday"}, key)
    evening_id = evening["evenings"][0]["id"]
    for player in ids:
        api(page, "PUT", f"/clubs/{club}/planned-evenings/{evening_id}/present/{player}", {"present": True}, key)
    for number in (1, 2):
        made_round = api(page, "POST", f"/clubs/{club}/planned-evenings/{evening_id}/rounds",
                         {"game": "kozyol", "seed": number}, key)
        for at, table in enumerate(made_round["tables"]):
            if (number, at) != (2, 1):
                api(page, "POST", f"/matches/{table['match']['id']}/hands", TEAM_1_LOSES, table["match"]["edit_key"])
    return club, evening_id


def test_a_member_reads_the_results_and_the_admin_closes_the_evening(phone, tap, screenshot):
    admin = phone()
    club, evening = evening_of_eight(admin)
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    member = phone()
    member.goto(f"/c/{club}")
    tap(member.get_by_role("link", name="Results of the evening"))
    expect(member.get_by_role("heading", name="Results of Friday")).to_be_visible()
    expect(member.get_by_text("Still at the table")).to_be_visible()
    expect(member.get_by_role("button", name="Close the evening")).to_have_count(0)
    for scheme in ("light", "dark"):
        member.emulate_media(color_scheme=scheme)
        member.reload()
        member.wait_for_load_state("load")
        check(member, f"results-{scheme}", problems, exempt)
    screenshot(member, "results")

    admin.goto(f"/c/{club}/evenings/{evening}/results")
    check(admin, "results-admin", problems, exempt)
    tap(admin.get_by_role("button", name="Close the evening"))
    expect(admin.get_by_role("heading", name="1 match of Friday is still being played.")).to_be_visible()
    check(admin, "results-close-question", problems, exempt)
    tap(admin.get_by_role("button", name="Close the evening anyway"))
    expect(admin.get_by_text("Evening closed")).to_be_visible()
    expect(admin.get_by_role("button", name="Reopen the evening")).to_be_visible()
    check(admin, "results-closed", problems, exempt)
    screenshot(admin, "closed")
    found = {name: lines for name, lines in problems.items() if lines}
    assert not found, "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
