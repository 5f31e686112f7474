"""The match page's score sheet of a Hearts game for seven players on a phone: one scroll area (sideways only),
one line per hand, the hand numbers and the names in view while it scrolls, nothing under the total row."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from helpers.browser import UNCOVERED, made, scrolled_to_end, serious
from helpers.matches import hearts_entry

SEVEN = ["Ann", "Bartholomew", "Cid", "Dee", "Evangeline", "Fay", "Gus"]
WIDTH = 390


def seven_player_game(page: Any, hands: int = 13) -> str:
    return made(page, "hearts", SEVEN, {"target": 500}, [hearts_entry(n, SEVEN) for n in range(1, hands + 1)])


def names_in_view(page: Any) -> list[str]:
    return page.locator(".hearts-sheet thead th").evaluate_all(
        "cells => cells.filter(c => { const r = c.getBoundingClientRect(); "
        "return r.left >= 0 && r.right <= window.innerWidth && c.textContent.trim() !== '#'; })"
        ".map(c => c.textContent.trim())")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_seven_players_scroll_sideways_only_one_line_a_hand(phone, scheme):
    page = phone(color_scheme=scheme)
    page.goto(f"/m/{seven_player_game(page)}")
    sheet = page.locator(".scroll[role=region]")
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, "only the sheet scrolls, not the page"
    assert sheet.evaluate("el => el.scrollHeight <= el.clientHeight + 1"), "the sheet scrolls inside the page"
    # One line a hand: the number, the pass and every player's score and running total sit on one line.
    lines = page.locator(".hearts-sheet tbody tr").evaluate_all("""rows => rows.map(row => {
        const middle = (el) => { const r = el.getBoundingClientRect(); return r.top + r.height / 2; };
        const parts = [...row.querySelectorAll('.working-link, .pass, td strong, td small.running')];
        const lineHeight = parseFloat(getComputedStyle(row.querySelector('td strong')).lineHeight);
        return parts.every(el => Math.abs(middle(el) - middle(parts[0])) < lineHeight / 2); })""")
    assert lines == [True] * 13, lines
    expect(page.locator("#hand-1 .pass")).to_have_accessible_name("passed left")
    sheet.evaluate("el => el.scrollIntoView({block: 'start'})")
    assert len(names_in_view(page)) >= 4, names_in_view(page)
    # Swiped to the far right: the last players and the hand numbers are in view, uncovered.
    scrolled_to_end(sheet)
    assert "Gus" in names_in_view(page)
    for locator in (page.locator("#hand-1 .working-link"), page.locator("#hand-13 .working-link"),
                    page.locator("#hand-13 td").last.locator("strong"), page.locator(".hearts-sheet tfoot th").last):
        assert locator.evaluate(UNCOVERED), f"{locator.inner_text()!r} is out of view or covered"
    # Nothing is drawn under the total row: every hand's figures are uncovered wherever the page stands.
    for number in (1, 7, 13):
        cell = page.locator(f"#hand-{number} td").last.locator("strong")
        cell.evaluate("el => el.scrollIntoView({block: 'end', inline: 'nearest'})")
        assert cell.evaluate(UNCOVERED), f"hand {number} is covered"
    assert serious(page) == []


def test_the_hearts_and_black_marias_of_a_hand_are_read_out_and_one_tap_away(phone):
    page = phone()
    match_id = made(page, "hearts", SEVEN, {}, [hearts_entry(1, SEVEN)])
    page.goto(f"/m/{match_id}")
    taken = hearts_entry(1, SEVEN)["hearts"]
    for seat, name in enumerate(SEVEN):
        said = page.locator("#hand-1 td").nth(seat + 1).locator(".taken")
        expect(said).to_have_text(f"{taken[name]}♥" + (" 1Q♠" if hearts_entry(1, SEVEN)["black_marias"][name] else ""))
    page.locator("#hand-1 .working-link").tap()
    expect(page.locator("main")).to_contain_text(f"{taken['Bartholomew']}")
    expect(page.locator("main")).to_contain_text("♥")
