"""The evening on a big screen, on a TV-sized browser (1920x1080, no touch): a full evening (22 and 23 at the door,
four and five tables of Kozyol, Barbu and Hearts, long names, in English, French and Russian) fits the screen
with no text under 32 px and nothing to scroll or tap; a hand entered at a table shows without a reload, through
the club's live address that the phones poll; axe-core finds nothing serious in light and dark mode. Ten tables
do not fit: they show in pages that each fit, taking turns."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from helpers.browser import opened, serious
from helpers.clubs import TEAM_0_LOSES, TEAM_1_LOSES
from helpers.full_evenings import LONG_NAMES, FullEvening
from helpers.matches import barbu_entry, hearts_entry

TV = {"viewport": {"width": 1920, "height": 1080}, "device_scale_factor": 1, "is_mobile": False, "has_touch": False}
WIDE, HIGH, SMALLEST = 1920, 1080, 32  # CSS pixels: the screen, and the least type read at five metres
SHORT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Léa", "Noé", "Zoé",
         "Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Илья", "Кира", "Лев", "Мила",
         "Ольга", "Пётр", "Рита", "Семён", "Таня", "Умар", "Фима", "Юля"]
PLAYERS = [*LONG_NAMES, *SHORT]

# Every piece of text on the page that is smaller than SMALLEST (hidden ones too: a page of tables taking its
# turn); every shown text cut off by the screen or by a box that clips it; anything a hand or a key could reach.
SMALL_TEXT = """(smallest) => {
  const found = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, size = parseFloat(getComputedStyle(node.parentElement).fontSize);
    if (node.textContent.trim() && size < smallest) { found.push(`${size}px: ${node.textContent.trim().slice(0, 40)}`); }
  }
  return found;
}"""
CUT_TEXT = """() => {
  const found = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1
    && r.bottom <= box.bottom + 1;
  const screen = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  while (walker.nextNode()) {
    const node = walker.currentNode, range = document.createRange();
    if (!node.textContent.trim()) { continue; }
    range.selectNodeContents(node);
    const line = parseFloat(getComputedStyle(node.parentElement).lineHeight);
    for (const glyphs of range.getClientRects()) {  // each line of the text: its line box, not its glyphs' overhang
      const over = Math.max((glyphs.height - line) / 2, 0);
      const r = { left: glyphs.left, right: glyphs.right, top: glyphs.top + over, bottom: glyphs.bottom - over };
      let clip = node.parentElement, cut = !inside(r, screen);
      for (; clip && !cut; clip = clip.parentElement) {
        if (getComputedStyle(clip).overflow !== "visible") { cut = !inside(r, clip.getBoundingClientRect()); }
      }
      if (cut) { found.push(node.textContent.trim().slice(0, 40)); break; }
    }
  }
  return found;
}"""
TAPPABLE = "a[href], button, input, select, textarea, summary, [tabindex], [contenteditable]"


@pytest.fixture
def tv(browser: Any, live_server: str) -> Iterator[Callable[..., Any]]:
    """A TV's browser: 1920x1080, a mouse at most, no touch; in the given language."""

    def open_tv(locale: str = "en-GB") -> Any:
        return opened(browser.new_context(**TV, locale=locale, base_url=live_server))

    yield open_tv
    browser.close()


def caller(page: Any) -> Callable[..., Any]:
    def call(method: str, path: str, body: Any, key: str | None) -> Any:
        answer = page.context.request.fetch(path, method=method, data=body,
                                            headers={"Authorization": f"Bearer {key}"} if key else {})
        assert answer.ok, answer.text()
        return answer.json()
    return call


def seated(shape: list[tuple[str, int]]) -> list[tuple[str, list[str]]]:
    """Tables of these games and sizes, seated from PLAYERS in order (the long names first)."""
    tables, at = [], 0
    for game, size in shape:
        tables.append((game, PLAYERS[at:at + size]))
        at += size
    return tables


def fits(page: Any) -> None:
    """Nothing scrolls, no text is small or cut off, and nothing can be tapped or typed into."""
    assert page.evaluate("document.documentElement.scrollHeight") <= HIGH
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDE
    assert page.evaluate(SMALL_TEXT, SMALLEST) == []
    assert page.evaluate(CUT_TEXT) == []
    assert page.locator(TAPPABLE).count() == 0


EVENINGS = {  # language: the round's tables (game, players), and who else is at the door
    "en-GB": ([("kozyol", 4), ("kozyol", 4), ("barbu", 4), ("barbu", 4), ("hearts", 6)], 1),
    "fr-FR": ([("kozyol", 4), ("barbu", 4), ("hearts", 8), ("kozyol", 4)], 2),
    "ru-RU": ([("kozyol", 4), ("barbu", 4), ("kozyol", 4), ("barbu", 4), ("hearts", 7)], 0),
}
HANDS = {"en-GB": "3 hands played", "fr-FR": "3 donnes jouées", "ru-RU": "3 раздачи сыграны"}


@pytest.mark.parametrize("locale", list(EVENINGS))
def test_a_full_evening_fits_the_screen_and_follows_a_hand_at_a_table(tv, screenshot, locale: str):
    screen = tv(locale)
    shape, out = EVENINGS[locale]
    tables = seated(shape)
    seats = sum(size for _game, size in shape)
    night = FullEvening(caller(screen), PLAYERS[:seats + out], tables)
    barbu = next(at for at, (game, _names) in enumerate(tables, 1) if game == "barbu")
    for at, (game, names) in enumerate(tables, 1):
        if game == "kozyol":
            night.play(at, TEAM_1_LOSES if at % 2 else TEAM_0_LOSES)  # a quick series: the table has finished
        else:
            for number in (1, 2):
                night.play(at, barbu_entry(number, names) if game == "barbu" else hearts_entry(number, names))
    asked: list[str] = []
    screen.on("request", lambda request: asked.append(request.url))
    screen.goto(night.screen)
    screen.wait_for_load_state("load")
    cards = screen.locator("[data-screen-table]")
    expect(cards).to_have_count(len(tables))
    for card in cards.all():
        expect(card).to_be_visible()  # every table at once: no pages taking turns
    expect(screen.locator("[data-screen-pages]")).to_be_hidden()
    for extra in screen.locator("[data-screen-extra]").all():
        expect(extra).to_be_visible()  # the side gave nothing up
    expect(screen.locator(".screen-places li")).not_to_have_count(0)
    fits(screen)
    for scheme in ("light", "dark"):
        screen.emulate_media(color_scheme=scheme)
        assert serious(screen) == [], scheme
    screenshot(screen, "full-evening")

    screen.evaluate("window.stayed = true")  # gone with a reload
    night.play(barbu, barbu_entry(3, tables[barbu - 1][1]))
    expect(cards.nth(barbu - 1)).to_contain_text(HANDS[locale])
    assert screen.evaluate("window.stayed") is True
    assert any(url.endswith(f"/c/{night.club}/live") for url in asked)  # the club's live address, as the phones
    fits(screen)


def test_ten_tables_take_turns_in_pages_that_each_fit(tv, screenshot):
    screen = tv()
    screen.clock.install()
    tables = seated([("barbu", 4)] * 6 + [("kozyol", 4)] * 4)
    night = FullEvening(caller(screen), PLAYERS, tables)
    shown = len(tables)
    screen.goto(night.screen)
    screen.wait_for_load_state("load")
    pages = screen.locator("[data-screen-pages]")
    expect(pages).to_be_visible()
    first = screen.locator("[data-screen-table]:visible").count()
    assert 0 < first < shown
    expect(pages).to_have_text(f"Tables 1–{first} of {shown}")
    fits(screen)
    screenshot(screen, "page-1")
    seen = set(screen.locator("[data-screen-table]:visible h2").all_inner_texts())
    for _turn in range(shown):
        before = pages.inner_text()
        screen.clock.fast_forward(int(screen.locator("[data-screen]").get_attribute("data-turn")))
        expect(pages).not_to_have_text(before)  # the next page's turn
        fits(screen)
        seen |= set(screen.locator("[data-screen-table]:visible h2").all_inner_texts())
        if len(seen) == shown:
            break
    assert len(seen) == shown  # every table had its turn
    assert serious(screen) == []
