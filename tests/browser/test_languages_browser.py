"""Five languages on a phone of 390 px: the switcher stays one line beside the brand, opens a menu of every
language named in itself, thumb-sized and accessible; a phone that reads French gets the offline page in French.

The app is given Khmer and Lao for the test (helpers.i18n.with_languages: the live server runs in this process),
their pages in whatever their catalogs hold so far (English without one).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from playwright.sync_api import expect

from helpers.browser import TAP, UNCOVERED, check, made, opened, wait_until
from helpers.i18n import with_languages
from helpers.matches import PLAYERS
from scorekeeper.i18n import NAMES

ONE_LINE = """() => {
  const brand = document.querySelector(".top .brand").getBoundingClientRect();
  const summary = document.querySelector("nav.languages summary").getBoundingClientRect();
  return {sameRow: summary.top < brand.bottom && brand.top < summary.bottom, right: summary.right,
          summaryHeight: summary.height, header: document.querySelector("header.top").getBoundingClientRect().height};
}"""


def switcher_fits(page: Any) -> None:
    """The brand and the switcher on one row, the switcher whole on the phone, one line high."""
    found = page.evaluate(ONE_LINE)
    assert found["sameRow"], found
    assert found["right"] <= page.viewport_size["width"], found
    assert found["summaryHeight"] < 2 * TAP, found
    problems: dict[str, list[str]] = {}
    check(page, "languages", problems, {})
    assert problems["languages"] == [], problems


def test_five_languages_fit_a_phone_in_a_menu_named_in_each_language(phone, monkeypatch, screenshot):
    languages = with_languages(monkeypatch)
    assert len(languages) >= 5
    page = phone()
    made(page, "kozyol", PLAYERS, {}, [{"points": [75, 45]}])
    menu = page.locator("nav.languages")
    expect(menu.locator("summary")).to_have_text("English")
    switcher_fits(page)
    menu.locator("summary").tap()
    links = menu.get_by_role("link")
    expect(links).to_have_text([NAMES[code] for code in languages])
    for code in languages:
        link = menu.get_by_role("link", name=NAMES[code], exact=True)
        expect(link).to_have_attribute("lang", code)
        assert link.evaluate(UNCOVERED), f"{code}: cut off or covered"
        box = link.bounding_box()
        assert box and box["height"] >= TAP - 0.5 and box["width"] >= TAP - 0.5, (code, box)
    switcher_fits(page)  # open: axe, thumb-sized targets, nothing wider than the phone
    screenshot(page, "menu-open")
    for code in ("lo", "km", "ru"):
        if not menu.locator("details").evaluate("d => d.open"):
            menu.locator("summary").tap()
        menu.get_by_role("link", name=NAMES[code], exact=True).tap()
        expect(page.locator("html")).to_have_attribute("lang", code)
        expect(menu.locator("summary")).to_have_text(NAMES[code])
        expect(menu.locator(f'a[hreflang="{code}"]')).to_have_attribute("aria-current", "true")
        switcher_fits(page)
    screenshot(page, "russian")


def test_a_phone_that_reads_french_is_told_no_connection_in_french(phone, server_process):
    page = phone(base_url=server_process.url)
    match = page.context.request.post("/api/v1/matches", data={"game": "kozyol", "players": PLAYERS}).json()
    page.goto(f"/language/fr?next=/m/{match['id']}")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    wait_until(page, "() => navigator.serviceWorker.controller !== null", what="no service worker took over the page")
    page.goto("/")  # kept by the worker, in French: the language the phone reads now
    wait_until(page, "() => caches.keys().then((names) => Promise.all(names.filter((n) => /-pages$/.test(n))"
                     ".map((n) => caches.open(n).then((c) => c.keys())))).then((kept) => kept.flat().length > 0)",
               what="the worker kept no page")
    server_process.kill()
    page.goto(f"/m/{match['id']}/history")  # never opened: not kept on the phone
    expect(page.get_by_role("heading", level=1)).to_have_text("Pas de connexion")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    server_process.start()


def test_a_lao_page_says_the_time_of_day_in_lao_where_the_browser_knows_no_lao(browser, live_server, monkeypatch):
    """Chromium has no Lao dates of its own: the page brings its words for the hours (static/js/times.js)."""
    with_languages(monkeypatch)
    page = opened(browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", timezone_id="UTC",
                                      base_url=live_server))
    match = page.context.request.post("/api/v1/matches", data={"game": "kozyol", "players": PLAYERS}).json()
    assert page.context.request.post(f"/api/v1/matches/{match['id']}/hands", data={"points": [75, 45]},
                                     headers={"Authorization": f"Bearer {match['edit_key']}"}).status == 201
    page.goto(f"/language/lo?next=/m/{match['id']}/history")
    at = datetime.fromisoformat(page.locator("time[data-local]").get_attribute("datetime"))
    period = "ກ່ອນທ່ຽງ" if at.hour < 12 else "ຫຼັງທ່ຽງ"
    expect(page.locator("time[data-local]")).to_have_text(re.compile(
        rf"^{at.month}/{at.day}/{at.year}, {(at.hour - 1) % 12 + 1}:{at:%M}:{at:%S}\s{period}$"))
