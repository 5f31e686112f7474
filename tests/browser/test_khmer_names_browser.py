"""Names written without spaces (Khmer, Lao) at phone size: never broken where the browser's dictionary finds a
word, the score sheet's headings one line each, and Barbu's double marks whole letters."""

from __future__ import annotations

from helpers.browser import BROKEN, fonts_drawn, made
from helpers.matches import barbu_entry

# ស្រីពៅ, a Khmer name of several dictionary words run together, a Lao one, and a Latin one.
NAMES = ["\u179f\u17d2\u179a\u17b8\u1796\u17c5", "សុខសំណាងចាន់សុវណ្ណារី", "ບົວສະຫວັນພົມມະຈັນ", "Dee"]
ONE_LINE = """selector => Array.from(document.querySelectorAll(selector)).filter((el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1;
}).map((el) => el.textContent.trim())"""
OFF_SCREEN = """selector => Array.from(document.querySelectorAll(selector)).filter((el) => {
  const r = el.getBoundingClientRect();
  return r.left < -0.5 || r.right > window.innerWidth + 0.5 || el.scrollWidth > el.clientWidth + 1;
}).map((el) => el.textContent.trim())"""


def test_barbu_names_in_khmer_and_lao_stay_whole(phone):
    page = phone()
    match_id = made(page, "barbu", NAMES, {"first_declarer": NAMES[0]}, [barbu_entry(n, NAMES) for n in (1, 2)])
    page.goto(f"/m/{match_id}")
    fonts_drawn(page)
    assert page.evaluate(BROKEN, ".sheet thead th, .totals .name, .roles dd, .owed, .dbl") == []
    assert page.evaluate(OFF_SCREEN, ".totals .name, .roles dd, .owed") == []
    assert page.evaluate(ONE_LINE, ".sheet thead th") == []
    marks = page.locator(".sheet .dbl").all_inner_texts()
    assert marks and set(marks) <= {NAMES[0], "សុខ", "ບົວ", "De"}  # two whole letters of each name doubled


def test_kozyol_seats_in_khmer_and_lao_stay_whole(phone):
    page = phone()
    match_id = made(page, "kozyol", NAMES, {}, [{"points": [75, 45]}])
    page.goto(f"/m/{match_id}")
    fonts_drawn(page)
    assert page.evaluate(BROKEN, ".table-plan .seat, .kozyol .totals .name") == []
    assert page.evaluate(OFF_SCREEN, ".table-plan .seat, .kozyol .totals .name") == []
