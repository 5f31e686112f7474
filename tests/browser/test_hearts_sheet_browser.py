"""The printable Hearts sheet on a phone's screen: one scroll area, a line per hand, and the hand numbers
and the players' names in view while it scrolls sideways. The PDF is the same template, untouched."""

from __future__ import annotations

from typing import Any

import pytest

from helpers.browser import UNCOVERED, made, report, serious
from helpers.matches import hearts_entry

SEVEN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
HANDS = 13

# What scrolls: the elements that do, and the page itself when it is wider or taller than the screen.
SCROLL_AREAS = """() => {
  const scrolls = (overflow, inner, outer) => /(auto|scroll)/.test(overflow) && inner > outer + 1;
  const found = [...document.querySelectorAll("body, body *")].filter((el) => {
    const style = getComputedStyle(el);
    return scrolls(style.overflowX, el.scrollWidth, el.clientWidth) || scrolls(style.overflowY, el.scrollHeight, el.clientHeight);
  }).map((el) => el.tagName.toLowerCase());
  const page = document.documentElement;
  if (page.scrollWidth > visualViewport.width + 1 || page.scrollHeight > visualViewport.height + 1) { found.push("page"); }
  return found;
}"""

# Players whose name is wholly on screen and not under the pinned hand numbers.
NAMES_IN_VIEW = """() => {
  const lead = document.querySelector(".hearts-lines th.lead").getBoundingClientRect();
  return [...document.querySelectorAll(".hearts-lines th.player")].filter((th) => {
    const r = th.getBoundingClientRect();
    return r.left >= Math.max(0, lead.right) - 1 && r.right <= visualViewport.width + 1 && r.top >= 0
      && r.bottom <= visualViewport.height;
  }).map((th) => th.firstChild.textContent.trim());
}"""

# Each block of hands: the lines it holds and the lines its height makes (a wrapped line makes more).
LINES = """() => [...document.querySelectorAll(".hearts-lines tr.hands")].map((row) => {
  const cell = row.querySelector("td[colspan]");
  const height = parseFloat(getComputedStyle(cell).lineHeight);
  return [cell.textContent.split("\\n").length, Math.round(cell.getBoundingClientRect().height / height)];
})"""


def seven_player_sheet(page: Any, hands: int = HANDS) -> None:
    match_id = made(page, "hearts", SEVEN, {"target": 1000}, [hearts_entry(n, SEVEN) for n in range(1, hands + 1)])
    page.goto(f"/m/{match_id}/sheet")


def test_the_seven_player_sheet_scrolls_once_with_numbers_and_names_in_view(phone, screenshot):
    page = phone()
    seven_player_sheet(page)
    areas = page.evaluate(SCROLL_AREAS)
    assert len(areas) == 1, f"one scroll area, not {areas}"
    for held, shown in page.evaluate(LINES):
        assert shown == held, f"a block of {held} hands takes {shown} lines"
    at_start = page.evaluate(NAMES_IN_VIEW)
    # Sideways to the last player, then down to the total: the numbers stay at the left, the names on top.
    scroller = page.locator("body")
    scroller.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    last = page.locator(".hearts-lines th.player").last
    assert last.evaluate(UNCOVERED), "Gus is in view"
    for lead in page.locator(".hearts-lines tr.hands td.lead").all():
        assert lead.evaluate(UNCOVERED), f"{lead.inner_text()!r} scrolled away"
    scroller.evaluate("el => { el.scrollTop = el.scrollHeight; }")
    total = page.locator(".hearts-lines .final td.lead")
    assert total.evaluate(UNCOVERED), "the total's label is in view"
    names = page.evaluate(NAMES_IN_VIEW)
    assert "Gus" in names, "the names stay on top while the hands scroll under them"
    screenshot(page, "hearts-sheet-scrolled")
    report("sheet", "Hearts, 7 players, print view at 390 px", {
        "names in view at the start": at_start, "names in view at the far right and bottom": names,
        "scroll areas": areas, "lines per hand": 1})


def test_a_long_game_keeps_the_names_on_top_down_to_the_total(phone):
    page = phone()
    seven_player_sheet(page, hands=40)
    scroller = page.locator("body")
    assert scroller.evaluate("el => el.scrollHeight > el.clientHeight"), "40 hands are taller than the phone"
    scroller.evaluate("el => { el.scrollLeft = el.scrollWidth; el.scrollTop = el.scrollHeight; }")
    assert page.locator(".hearts-lines .final td.lead").evaluate(UNCOVERED), "the total's label is in view"
    for name in page.locator(".hearts-lines th.player").all()[-2:]:
        assert name.evaluate(UNCOVERED), f"{name.inner_text()!r} scrolled away"
    assert page.evaluate(SCROLL_AREAS) == ["body"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_seven_player_sheet_passes_axe(phone, scheme):
    page = phone(color_scheme=scheme)
    seven_player_sheet(page)
    page.locator("body").evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    assert serious(page) == []
