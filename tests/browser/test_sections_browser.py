"""The sections that open (optional fields on the hand forms, a change's before and after in the
history) look like something to tap, in light and dark: an outline, a chevron that turns, a
thumb-sized row, and a tap opens them."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from helpers.browser import BARBU, TAP, made, serious

TRUMPS = {"contract": "trumps", "tricks": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}, "trump_suit": "hearts"}

# The contrast of two colours as WCAG computes it, for "rgb(r, g, b)" strings.
CONTRAST = """([a, b]) => {
  const lum = (c) => { const [r, g, bl] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      v = v / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl; };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}"""


def sections(page: Any) -> list[tuple[str, str, str]]:
    """(page, address, summary text) of the sections that open, on the forms and the history."""
    barbu = made(page, "barbu", BARBU, {"first_declarer": "Ann"}, [])
    played = made(page, "barbu", BARBU, {"first_declarer": "Ann"}, [TRUMPS])
    kozyol = made(page, "kozyol", BARBU, {}, [{"points": [75, 45]}])
    return [
        ("barbu-trumps", f"/m/{barbu}/hands/new?variant=trumps", "Trump suit (optional)"),
        ("barbu-dominoes", f"/m/{barbu}/hands/new?variant=dominoes", "Starting rank (optional)"),
        ("kozyol-deal", f"/m/{kozyol}/hands/new", "Trump suit and last trick (optional)"),
        ("barbu-history", f"/m/{played}/history", "After"),
    ]


def summary_looks(summary: Any) -> dict[str, Any]:
    return summary.evaluate("""(el) => {
      const box = el.getBoundingClientRect(), style = getComputedStyle(el), mark = getComputedStyle(el, "::before");
      let back = "rgb(255, 255, 255)";
      for (let node = el; node; node = node.parentElement) {
        const bg = getComputedStyle(node).backgroundColor;
        if (bg && !bg.startsWith("rgba(0, 0, 0, 0)") && bg !== "transparent") { back = bg; break; }
      }
      return {height: box.height, width: box.width, border: parseFloat(style.borderTopWidth),
              borderColor: style.borderTopColor, back, listStyle: style.listStyleType, display: style.display,
              mark: mark.content, markWidth: parseFloat(mark.width), markBorder: parseFloat(mark.borderRightWidth),
              markColor: mark.borderRightColor, turned: mark.transform};
    }""")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_sections_that_open_look_tappable_and_open_on_a_tap(phone, screenshot, scheme):
    page = phone(color_scheme=scheme)
    for name, address, label in sections(page):
        page.goto(address)
        summary = page.locator("summary", has_text=label).first
        details = summary.locator("xpath=..")
        expect(summary).to_be_visible()
        looks = summary_looks(summary)
        assert looks["height"] >= TAP - 0.5, (name, looks)
        # An outline that stands out from the page, as a button's does.
        assert looks["border"] >= 1, (name, looks)
        assert page.evaluate(CONTRAST, [looks["borderColor"], looks["back"]]) >= 3, (name, looks)
        # A marker: the chevron beside the words, drawn and visible against the page.
        assert looks["mark"] not in ("none", "normal") and looks["markWidth"] >= 6 and looks["markBorder"] >= 2, looks
        assert page.evaluate(CONTRAST, [looks["markColor"], looks["back"]]) >= 3, (name, looks)
        content = details.locator(":scope > :not(summary)").first
        if details.evaluate("d => d.open"):
            summary.tap()  # an earlier error keeps a section open: close it first
        expect(content).to_be_hidden()
        summary.tap()
        expect(content).to_be_visible()
        assert details.evaluate("d => d.open")
        # The chevron turns (after its short animation) when the section is open.
        summary.evaluate("""(el, closed) => new Promise((done, fail) => {
          const start = performance.now();
          const look = () => getComputedStyle(el, "::before").transform !== closed ? done()
            : performance.now() - start > 2000 ? fail(new Error("the chevron did not turn")) : requestAnimationFrame(look);
          look();
        })""", looks["turned"])
        if name == "barbu-trumps":
            screenshot(page, f"section-open-{scheme}")
        assert serious(page) == [], name
