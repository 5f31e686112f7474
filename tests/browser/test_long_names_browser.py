"""Long names at phone size, in English and in Russian: never cut, by their box, the screen's edge or an ellipsis.

Kozyol's seats around the table, the teams' totals, the split under a deal beside Save, the seats of a new
match as they are typed, and the club's standings (its "Place" heading); Barbu's and Hearts' totals, the roles
of the next hand, the doubles owed, the score sheet's headings, a hand's form down to what Save records, and
the Hearts sheet to print (its dealers and headings): each name wraps between its words (or after a hyphen) and
shrinks for a long word, and stays on the screen.
"""

from __future__ import annotations

from typing import Any

import pytest

from helpers.browser import BROKEN, fonts_drawn, made
from helpers.clubs import QUICK, TEAM_1_LOSES
from helpers.matches import barbu_entry, hearts_entry

LONG = ["Fyodor Dostoyevsky-Karamazov", "Александровна Константинопольская", "Maximiliana Ekaterina",
        "Bartholomew Abernathy"]
# Each name's box: its whole text inside it, the box on the screen, and nothing that would hide a part of it.
CUT = """([selector, onScreen]) => Array.from(document.querySelectorAll(selector)).flatMap((el) => {
  const r = el.getBoundingClientRect(), s = getComputedStyle(el), name = el.textContent.trim().slice(0, 40);
  const found = [];
  if (r.width === 0) { return [`${name}: not shown`]; }
  if (el.scrollWidth > el.clientWidth + 1) { found.push(`${name}: ${el.scrollWidth}px of text in ${el.clientWidth}px`); }
  if (onScreen && (r.left < -0.5 || r.right > window.innerWidth + 0.5)) {
    found.push(`${name}: ${Math.round(r.left)}..${Math.round(r.right)} on a ${window.innerWidth}px screen`);
  }
  if (s.textOverflow === "ellipsis" || (s.overflowX !== "visible" && el.scrollWidth > el.clientWidth)) {
    found.push(`${name}: cut by ${s.textOverflow} / overflow ${s.overflowX}`);
  }
  return found;
})"""
KOZYOL = ".table-plan .seat, .kozyol .totals .name, .kozyol-deal .split .team-0, .kozyol-deal .split .team-1"


def cut(page: Any, selector: str, on_screen: bool = True) -> list[str]:
    """What of the names under selector is cut: by its box, the screen or an ellipsis, or inside a word."""
    assert page.locator(selector).count() > 0, selector
    fonts_drawn(page)
    return page.evaluate(CUT, [selector, on_screen]) + [f"broken word: {word}" for word in page.evaluate(BROKEN, selector)]


def in_language(page: Any, language: str, path: str) -> None:
    page.goto(f"/language/{language}?next={path}")
    page.wait_for_url(f"**{path}")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_kozyol_names_are_never_cut_at_the_table(phone, screenshot, language: str):
    page = phone()
    match_id = made(page, "kozyol", LONG, {}, [{"points": [75, 45]}, {"points": [30, 90]}])
    in_language(page, language, f"/m/{match_id}")
    assert cut(page, ".table-plan .seat, .kozyol .totals .name, .running-totals .name") == []
    in_language(page, language, f"/m/{match_id}/hands/new")
    page.locator(".kozyol-deal .save-bar").scroll_into_view_if_needed()
    assert cut(page, ".kozyol-deal .split .team-0, .kozyol-deal .split .team-1") == []
    assert page.locator(".kozyol-deal .split").evaluate("el => el.getBoundingClientRect().right") <= 390
    screenshot(page, "deal")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_seats_of_a_new_kozyol_match_show_long_names_whole_as_they_are_typed(phone, language: str):
    page = phone()
    in_language(page, language, "/new/kozyol")
    for seat, name in enumerate(LONG):
        page.locator(f"#players-{seat}").fill(name)
    for name in LONG:
        page.locator(".table-plan .seat", has_text=name).wait_for()
    assert cut(page, ".table-plan .seat") == []


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_standings_show_their_headings_and_long_names_whole(phone, language: str):
    page = phone()
    club = page.context.request.post("/api/v1/clubs", data={"name": "Les Dimanches"}).json()
    admin = {"Authorization": f"Bearer {club['admin_key']}"}
    assert page.context.request.put(f"/api/v1/clubs/{club['id']}/rules", data={"min_matches": 1}, headers=admin).ok
    match = page.context.request.post(f"/api/v1/clubs/{club['id']}/matches",
                                      data={"game": "kozyol", "players": LONG, "options": QUICK}).json()
    assert page.context.request.post(f"/api/v1/matches/{match['id']}/hands", data=TEAM_1_LOSES,
                                     headers={"Authorization": f"Bearer {match['edit_key']}"}).ok
    in_language(page, language, f"/c/{club['id']}")
    standings = ".club-table.standings"
    assert cut(page, f"{standings} thead th.place, {standings} thead th.who, {standings} td.who a") == []
    assert cut(page, f"{standings} thead th", on_screen=False) == []  # the figures' columns scroll sideways


# Barbu's and Hearts' match page: the totals, the next hand's roles, the doubles owed and the line under the
# hand just saved. On the score sheet: a declarer's block (Barbu), the players' headings (Hearts: the sheet scrolls
# sideways, so on the screen or not; Barbu's four columns fit the phone, a name whole in the totals above them).
MATCH = ".totals .name, .roles dd, .owed, .running-totals .name, #saved a"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_barbu_names_are_never_cut_at_the_table(phone, tap, screenshot, language: str):
    page = phone()
    match_id = made(page, "barbu", LONG, {"first_declarer": LONG[0]}, [barbu_entry(n, LONG) for n in (1, 2)])
    in_language(page, language, f"/m/{match_id}")
    assert cut(page, MATCH) == []
    assert cut(page, ".sheet .block th") == []
    screenshot(page, "match")
    in_language(page, language, f"/m/{match_id}/hands/new?variant=barbu")
    tap(page.locator(".chips[data-field=king_of_hearts] .chip", has_text=LONG[1]))
    for cell in page.locator(".doubles .cell").all()[:2]:
        tap(cell.locator(".chip").nth(1))  # a double of each of the first two: Save's summary names who and whom
    page.locator(".save-bar .save-summary").filter(has_text=LONG[3]).wait_for()
    assert cut(page, ".doubler .who, .cell legend, .chips .chip span, .save-bar .save-summary") == []
    screenshot(page, "hand")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_hearts_names_are_never_cut_at_the_table(phone, screenshot, language: str):
    page = phone()
    players = [*LONG, "Ann", "Bob"]
    match_id = made(page, "hearts", players, {}, [hearts_entry(n, players) for n in (1, 2)])
    in_language(page, language, f"/m/{match_id}")
    assert cut(page, MATCH) == []
    assert cut(page, ".hearts-sheet thead th", on_screen=False) == []
    screenshot(page, "match")
    in_language(page, language, f"/m/{match_id}/hands/new")
    for seat in range(len(players)):
        page.locator(f"#hearts_{seat}").fill(str(4 + seat % 2))
    page.locator(".save-bar .save-summary").filter(has_text=LONG[1]).wait_for()
    assert cut(page, ".player-row .stepper label, .save-bar .left, .save-bar .save-summary, .upcoming") == []
    screenshot(page, "hand")
    # The printable sheet as the phone shows it: the dealers' column and the players' headings (it scrolls).
    in_language(page, language, f"/m/{match_id}/sheet")
    assert cut(page, ".hearts-lines td.lead, .hearts-lines th.player", on_screen=False) == []
