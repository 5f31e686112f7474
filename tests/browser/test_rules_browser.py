"""The rules at the table: from a match page, one tap opens the rules with that match's own options.

A phone at 390x844 with touch, as everywhere in tests/browser: the link is tapped, the page lands
with the "This match uses" box on screen, and nothing is wider than the phone.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

PHONE_WIDTH = 390
FOUR = ["Ann", "Bob", "Cid", "Dee"]
SEVEN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
# A match of each game with an option away from its default, and how its box words that option.
MATCHES = {
    "barbu": (FOUR, {"first_declarer": "Cid", "domino_scores": [40, 25, 10, -10]},
              "Dominoes scores", "+40 / +25 / +10 / −10"),
    "kozyol": (FOUR, {"target": 20, "eggs_double_next": True}, "Defeat points that end the series", "20"),
    "hearts": (SEVEN, {"target": 300, "moon_points": 52}, "Shooting the moon counts", "52"),
}


def started(page: Any, game: str) -> str:
    """A match started over the API; returns its id (this phone holds no edit key: it watches)."""
    players, options, _, _ = MATCHES[game]
    answer = page.context.request.post("/api/v1/matches", data={"game": game, "players": players, "options": options})
    assert answer.status == 201, answer.text()
    return answer.json()["id"]


def fits_the_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"{page.url} is {width} px wide: it scrolls sideways on a phone"


@pytest.mark.parametrize("game", MATCHES)
def test_a_tap_from_the_match_page_opens_its_rules_with_its_options(phone, screenshot, game):
    page = phone()
    match_id = started(page, game)
    page.goto(f"/m/{match_id}")
    page.get_by_role("link", name="Rules and options of this match").tap()
    page.wait_for_url(f"**/m/{match_id}/rules")
    box = page.locator("section.uses")
    expect(box.get_by_role("heading", name="This match uses:")).to_be_in_viewport()
    expect(box).to_be_in_viewport()
    _, _, label, value = MATCHES[game]
    option = box.locator("dl > div", has=page.get_by_text(label, exact=True))
    expect(option.locator("dd")).to_have_text(value)
    expect(option).to_be_in_viewport()
    fits_the_phone(page)
    screenshot(page, "rules")
    page.get_by_role("link", name="Back to the match").tap()
    page.wait_for_url(f"**/m/{match_id}")


def test_the_new_match_form_opens_the_rules_of_its_game(phone):
    page = phone()
    for game, title in (("barbu", "Barbu"), ("kozyol", "Kozyol"), ("hearts", "Cancellation Hearts")):
        page.goto(f"/new/{game}")
        page.get_by_role("link", name=f"Rules of {title}").tap()
        page.wait_for_url(f"**/rules/{game}")
        expect(page.get_by_role("heading", name=f"Rules of {title}", level=1)).to_be_visible()
        expect(page.locator("section.uses")).to_be_in_viewport()
        fits_the_phone(page)


def test_long_names_keep_the_rules_page_within_the_phone(phone):
    """Names of the longest length the app takes must wrap, not push the page sideways."""
    page = phone()
    longest = ["W" * 40, "Ж" * 40, "M" * 40, "😀" * 40]
    answer = page.context.request.post("/api/v1/matches", data={"game": "barbu", "players": longest,
                                                                "options": {"first_declarer": longest[1]}})
    assert answer.status == 201, answer.text()
    page.goto(f"/m/{answer.json()['id']}/rules")
    expect(page.locator("section.uses")).to_contain_text(longest[1])
    fits_the_phone(page)
