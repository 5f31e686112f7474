"""The round being played at phone size (390x844, touch): three latecomers come after round 1 is drawn and the
admin seats them with the sit-out at a new table, nobody playing moving; then a player leaves a table and the
table's match ends there. axe-core in light and dark mode on each page."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from playwright.sync_api import expect

from helpers.browser import check

NINE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
LATE = ["Zed", "Yan", "Xia"]


def api(page: Any, method: str, path: str, data: Any, key: str) -> Any:
    answer = page.context.request.fetch(path, method=method, data=data, headers={"Authorization": f"Bearer {key}"})
    assert answer.ok, answer.text()
    return answer.json()


def checked(page: Any, name: str, problems: dict[str, list[str]], exempt: dict[str, list[str]]) -> None:
    page.wait_for_load_state("load")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check(page, f"{name}-{scheme}", problems, exempt)
    page.emulate_media(color_scheme="light")


def test_latecomers_get_a_new_table_and_a_leaver_ends_a_match(phone, screenshot):
    admin = phone()
    made = admin.context.request.post("/api/v1/clubs", data={"name": "Les Vendredis"})
    club, key = made.json()["id"], made.json()["admin_key"]
    admin.goto(made.json()["admin_url"])
    ids = {name: api(admin, "POST", f"/api/v1/clubs/{club}/players", {"name": name}, key)["id"] for name in NINE + LATE}
    today = datetime.now(timezone.utc).date().isoformat()
    evening = api(admin, "POST", f"/api/v1/clubs/{club}/planned-evenings", {"day": today}, key)["evenings"][0]["id"]
    door = f"/api/v1/clubs/{club}/planned-evenings/{evening}/present"
    for name in NINE:
        api(admin, "PUT", f"{door}/{ids[name]}", {"present": True}, key)
    api(admin, "POST", f"/api/v1/clubs/{club}/planned-evenings/{evening}/rounds", {"game": "kozyol", "seed": 5}, key)
    for name in LATE:
        api(admin, "PUT", f"{door}/{ids[name]}", {"present": True}, key)
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}

    admin.goto(f"/c/{club}/admin/evenings/{evening}/rounds")
    expect(admin.get_by_text("Free now (4):")).to_be_visible()
    checked(admin, "rounds-free", problems, exempt)
    admin.get_by_role("link", name="Seat them at a new table").tap()
    admin.wait_for_url("**/rounds/1/more?*seed=*")
    expect(admin.get_by_role("heading", name="Round 1: a new table")).to_be_visible()
    expect(admin.get_by_role("heading", name="Table 3 · Kozyol")).to_be_visible()
    expect(admin.get_by_role("heading", name="Table 1 · Kozyol")).to_have_count(0)
    checked(admin, "new-table", problems, exempt)
    screenshot(admin, "new-table")
    admin.get_by_role("button", name="Add this table to round 1").tap()
    expect(admin.get_by_text("Round 1 has a new table: it can start.")).to_be_visible()
    expect(admin.get_by_role("link", name="Table 3 · Kozyol", exact=False)).to_be_visible()

    admin.locator(".round-tables li").first.get_by_role("link", name="A player leaves this table").tap()
    expect(admin.get_by_role("heading", name="A player leaves table 1")).to_be_visible()
    expect(admin.get_by_text("The others start a new match without them.")).to_have_count(0)
    checked(admin, "leave", problems, exempt)
    screenshot(admin, "leave")
    leaver = admin.locator("fieldset.chips .chip span").first.inner_text()
    admin.locator("fieldset.chips .chip").first.tap()
    admin.get_by_text("End the match here.", exact=False).tap()
    admin.get_by_role("button", name="Confirm").tap()
    expect(admin.get_by_text("The match ended here: it counts for nobody.")).to_be_visible()
    expect(admin.get_by_text(f"{leaver} left: the match ended here and counts for nobody.")).to_be_visible()
    checked(admin, "rounds-ended", problems, exempt)
    assert not any(problems.values()), problems
