"""After each save, one screen: the running totals, the hand just saved and the next hand's controls.

The phone lands where the server sends it after a save (``#saved``). Each landing of a Barbu match,
a Kozyol series with eggs and Hearts games for 6, 7 and 11 players is opened exactly there and read
without scrolling; the figures (landings with something off screen) go to artifacts/landings.json.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from helpers.browser import made, report, serious
from helpers.matches import PLAYERS, barbu_entry, hearts_entry

# Whether every element the selector finds lies wholly inside the phone's screen (and one at least is found).
IN_VIEW = """selector => {
  const found = Array.from(document.querySelectorAll(selector)).filter((el) => el.getClientRects().length);
  return found.length > 0 && found.every((el) => { const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth; });
}"""
# What the table reads after a save: the totals, the hand just saved, the next hand's controls.
TOTALS = "#saved .running-totals"
SAVED = "#saved > p:first-child"
CONTROLS = {"barbu": "#next .choices .button", "kozyol": "#next a.button.primary", "hearts": "#next a.button.primary"}
ELEVEN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit"]
# Eggs (60 : 60) twice, so the "counts double" warning shows, then light defeats; no series ends before 9 deals.
KOZYOL = [[45, 75], [60, 60], [60, 60], [75, 45], [45, 75], [60, 60], [75, 45], [45, 75], [60, 60]]


def off_screen(page: Any, game: str) -> list[str]:
    """What the landing leaves off the phone's screen, read where the phone landed."""
    parts = {"totals": TOTALS, "saved": SAVED, "controls": CONTROLS[game]}
    return [name for name, selector in parts.items() if not page.evaluate(IN_VIEW, selector)]


def landings(page: Any, game: str, players: list[str], options: dict[str, Any], entries: list[dict[str, Any]],
             name: str) -> dict[str, Any]:
    """Open the landing after each of the hands (all but the last, which lands on the result)."""
    answer = page.context.request.post("/api/v1/matches", data={"game": game, "players": players, "options": options})
    match = answer.json()
    page.goto(match["edit_url"])
    missed: dict[int, list[str]] = {}
    for number, entry in enumerate(entries, 1):
        sent = page.context.request.post(f"/api/v1/matches/{match['id']}/hands", data=entry,
                                         headers={"Authorization": f"Bearer {match['edit_key']}"})
        assert sent.status == 201, sent.text()
        page.goto("about:blank")  # a new page load, as after a save's redirect, not a jump within the page
        page.goto(f"/m/{match['id']}#saved")
        if page.locator("#next").count() == 0:
            break
        if found := off_screen(page, game):
            missed[number] = found
    figures = {"landings": len(entries), "totals_off_screen": sum("totals" in m for m in missed.values()),
               "anything_off_screen": len(missed), "which": {str(k): v for k, v in missed.items()}}
    report("landings", name, figures)
    return figures


@pytest.mark.parametrize(("game", "players", "options", "entries"), [
    pytest.param("barbu", PLAYERS, {"first_declarer": "Ann"}, [barbu_entry(n, PLAYERS) for n in range(1, 28)],
                 id="barbu-4"),
    pytest.param("kozyol", PLAYERS, {"target": 30, "eggs_double_next": True},
                 [{"points": points} for points in KOZYOL], id="kozyol-4"),
    pytest.param("hearts", PLAYERS[:4] + ["Eve", "Fay"], {"target": 1000},
                 [hearts_entry(n, PLAYERS + ["Eve", "Fay"]) for n in range(1, 14)], id="hearts-6"),
    pytest.param("hearts", ELEVEN[:7], {"target": 1000}, [hearts_entry(n, ELEVEN[:7]) for n in range(1, 14)],
                 id="hearts-7"),
    pytest.param("hearts", ELEVEN, {"target": 1000}, [hearts_entry(n, ELEVEN) for n in range(1, 14)],
                 id="hearts-11"),
])
def test_every_landing_shows_the_totals_the_hand_saved_and_the_next_controls(phone, game, players, options,
                                                                             entries):
    page = phone()
    figures = landings(page, game, players, options, entries, f"{game}, {len(players)} players")
    assert figures["anything_off_screen"] == 0, figures["which"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_undo_is_out_of_the_way_of_the_next_hand_and_the_landing_reads_well(phone, scheme, tap):
    page = phone(color_scheme=scheme)
    match_id = made(page, "barbu", PLAYERS, {"first_declarer": "Ann"}, [barbu_entry(n, PLAYERS) for n in (1, 2)])
    page.goto(f"/m/{match_id}#saved")
    landing = page.locator("#saved")
    expect(landing.get_by_role("link", name="Correct hand 2")).to_be_in_viewport()
    expect(landing.locator(".running-totals")).to_have_text("Totals: Ann -8 · Bob -6 · Cid -20 · Dee -16")
    # Nothing beside Correct or among the contracts undoes the hand: undo sits under the score sheet.
    expect(landing.get_by_role("button", name="Undo hand 2")).to_have_count(0)
    expect(page.locator("#next").get_by_role("button", name="Undo hand 2")).to_have_count(0)
    undo = page.locator(".undo-last").get_by_role("button", name="Undo hand 2")
    expect(undo).not_to_be_in_viewport()
    assert serious(page) == []
    tap(undo)
    expect(page.get_by_text("Hand 2 undone.")).to_be_visible()
    expect(page.locator("#hand-2")).to_have_count(0)


@pytest.mark.parametrize(("language", "totals", "question"), [
    ("fr", "Totaux :", "Fay : aucun cœur ?"),
    ("ru", "Итоги:", "Fay: ни одной червы?"),
])
def test_the_landing_and_the_forms_speak_the_pages_language(phone, tap, language, totals, question):
    page = phone()
    seven = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
    match_id = made(page, "hearts", seven, {"target": 1000}, [hearts_entry(1, seven)])
    page.goto(f"/language/{language}?next=/m/{match_id}")
    expect(page.locator("#saved .running-totals")).to_contain_text(totals)
    page.goto(f"/m/{match_id}/hands/new")
    for name, count in {"Ann": 5, "Bob": 0, "Cid": 7, "Dee": 3, "Eve": 2, "Gus": 4}.items():
        tap.type(page.locator(f'.player-row[data-name="{name}"] input[type=number]'), str(count))
    tap(page.locator(".save-bar button[type=submit]"))
    expect(page.locator(".ask-empty")).to_contain_text(question)
    expect(page.locator(".save-bar .save-summary")).not_to_be_empty()
