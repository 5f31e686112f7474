"""A phone in any language: the catalog's words a page must show, the language switcher, names drawn whole on one
line, and a whole Barbu match tapped through the pages without reading a word of them."""

from __future__ import annotations

import re
from functools import cache
from gettext import c2py
from typing import Any

from babel.messages.catalog import Catalog

from helpers.barbu import dbl, reference_raw, reference_settle
from helpers.browser import fonts_drawn
from helpers.i18n import catalog, english_sentences, forms, seen, squeeze
from helpers.matches import PLAYERS
from scorekeeper.games import barbu

# The tables of the phone tests in Khmer and in Lao, and one where both scripts sit together.
KHMER = ["សុខា", "ស្រីពៅ", "វណ្ណា", "ដារ៉ា"]
LAO = ["ແກ້ວ", "ຄຳ", "ບຸນມີ", "ນ້ອຍ"]
MIXED = ["សុខា", "ស្រីពៅ", "ແກ້ວ", "ຄຳ"]
# The phone's own setting (its Accept-Language and navigator.language) for each language.
LOCALES = {"km": "km-KH", "lo": "lo-LA"}
PHONE_WIDTH = 390  # CSS pixels: the phone of the browser tests


@cache
def words(lang: str) -> Catalog:
    return catalog(lang)


def said(lang: str, msgid: str, number: int | None = None, /, **values: Any) -> str:
    """What a page in lang shows for msgid filled in (a plural's id is its singular, its form chosen by number)."""
    catalog = words(lang)
    message = catalog.get(msgid)
    assert message is not None, f"{msgid!r} is not in the {lang} catalog"
    text = forms(message)[0 if number is None else c2py(catalog.plural_expr)(number)]
    assert text, f"{msgid!r} has no {lang} translation"
    # As Playwright reads a page: a zero-width space (a Khmer or Lao word break) is no character.
    return squeeze(text % values if values else text).replace("\u200b", "")


@cache
def english(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    return english_sentences(lang)


def english_shown(page: Any, lang: str) -> list[str]:
    """The catalog's English texts that the page shows (or reads out) where lang has words of its own."""
    text = seen(page.content())
    return [piece for piece, pattern in english(lang) if piece in text and pattern.search(text)]


def switched(page: Any, tap: Any, lang: str) -> None:
    """Choose the language from the page's own menu, as a player does; the page comes back in it."""
    tap(page.locator("nav.languages summary"))
    tap(page.locator(f'nav.languages a[hreflang="{lang}"]'))
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def wider_than_the_phone(page: Any) -> int:
    """How many CSS pixels the page reaches past the phone's right edge (0: it does not scroll sideways)."""
    return max(0, page.evaluate("document.documentElement.scrollWidth") - PHONE_WIDTH)


# Each element holding a name: its text on more than one line (the rectangles the text is drawn in, taken
# together, taller than one of them), cut by its box or an ellipsis, or reaching past the screen's sides.
NOT_WHOLE = """selector => Array.from(document.querySelectorAll(selector)).flatMap((el) => {
  const name = el.textContent.trim(), range = document.createRange();
  range.selectNodeContents(el);
  const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
  if (!rects.length) { return [`${name}: not shown`]; }
  const found = [], box = el.getBoundingClientRect();
  const top = Math.min(...rects.map((r) => r.top)), bottom = Math.max(...rects.map((r) => r.bottom));
  const line = Math.max(...rects.map((r) => r.height));
  if (bottom - top > 1.5 * line) {
    found.push(`${name}: ${Math.round(bottom - top)}px high, a line is ${Math.round(line)}px`);
  }
  if (el.scrollWidth > el.clientWidth + 1) {
    found.push(`${name}: ${el.scrollWidth}px of text in ${el.clientWidth}px`);
  }
  if (box.left < -0.5 || box.right > window.innerWidth + 0.5) {
    found.push(`${name}: ${Math.round(box.left)}..${Math.round(box.right)} on a ${window.innerWidth}px screen`);
  }
  return found;
})"""


def not_whole(page: Any, selector: str) -> list[str]:
    """The names under selector not drawn whole on one line (after the page's fonts have arrived)."""
    assert page.locator(selector).count() > 0, selector
    fonts_drawn(page)
    return page.evaluate(NOT_WHOLE, selector)


# Each of the names as it is drawn inside the elements' text, wherever a line holds several (a line may wrap
# between words, as Khmer and Lao break lines, but never inside a name).
SPLIT = """([selector, names]) => {
  const split = [];
  document.querySelectorAll(selector).forEach((el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      for (const name of names) {
        for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + name.length);
          const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
          const top = Math.min(...rects.map((r) => r.top)), bottom = Math.max(...rects.map((r) => r.bottom));
          if (rects.length && bottom - top > 1.5 * Math.max(...rects.map((r) => r.height))) {
            split.push(`${name} in "${el.textContent.trim().slice(0, 60)}"`);
          }
        }
      }
    }
  });
  return split;
}"""


def split(page: Any, selector: str, names: list[str]) -> list[str]:
    """The names drawn over two lines inside the text of the elements under selector."""
    assert page.locator(selector).count() > 0, selector
    return page.evaluate(SPLIT, [selector, names])


# Each element holding a name, brought to the middle of the screen as a reader scrolls to it: whether its middle is
# on the screen and a tap there lands on it (a chip's name: on its chip, whose radio lies over it).
COVERED = """selector => Array.from(document.querySelectorAll(selector)).filter((el) => {
  const target = el.closest("label") || el;
  target.scrollIntoView({block: "center", inline: "nearest"});
  const r = target.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.width === 0 || r.left < 0 || r.right > window.innerWidth || y < 0 || y > window.innerHeight) { return true; }
  const hit = document.elementFromPoint(x, y);
  return hit === null || !(hit === target || target.contains(hit));
}).map((el) => el.textContent.trim())"""


def covered(page: Any, selector: str) -> list[str]:
    """The names under selector that are off the screen's sides or covered where a reader looks for them."""
    return page.evaluate(COVERED, selector)


# -- a whole Barbu match, tapped ------------------------------------------------------------------------------

# What each contract's form is given, the same in every block: the counts of the first three seats (the page fills
# in the fourth), and for a choice of players, seat k names the player k seats on from the declarer. The declarer
# is doubled by everyone in the block's last hands, as the rules then oblige (the form ticks those doubles itself).
COUNTS = {"no_tricks": [4, 3, 5], "no_queens": [1, 0, 2], "no_hearts": [4, 3, 2], "trumps": [6, 3, 1]}
CHOSEN = {"barbu": ["king_of_hearts"], "no_last_two": ["second_last", "last"],
          "dominoes": ["place_0", "place_1", "place_2"]}  # the last place is the one player left
DOUBLED = barbu.CONTRACTS[-barbu.DOUBLES_OWED:]


def barbu_hand(block: int, contract: str) -> dict[str, Any]:
    """The hand tapped in for a contract in a declarer's block, the seats' players named Ann to Dee."""
    seats = PLAYERS[block:] + PLAYERS[:block]
    doubles = [dbl(by, seats[0]) for by in seats[1:]] if contract in DOUBLED else []
    if contract in COUNTS:
        counts = COUNTS[contract] + [barbu.COUNT_TOTALS[barbu.COUNTED[contract]] - sum(COUNTS[contract])]
        hand: dict[str, Any] = {barbu.COUNTED[contract]: dict(zip(PLAYERS, counts)), "doubles": doubles}
        return {**hand, "ace_of_hearts": PLAYERS[0]} if contract == "no_hearts" else hand
    if contract == "dominoes":
        return {"order": seats, "doubles": doubles}
    return {**dict(zip(CHOSEN[contract], seats)), "doubles": doubles}


def barbu_match() -> list[tuple[int, str, dict[str, Any]]]:
    """Every hand of a match whose first declarer sits in seat 0: (number, contract, hand)."""
    return [(block * barbu.HANDS_PER_DECLARER + index + 1, contract, barbu_hand(block, contract))
            for block in range(barbu.SEATS) for index, contract in enumerate(barbu.CONTRACTS)]


def barbu_totals() -> list[int]:
    """Each seat's total after the whole match, from the rules restated."""
    totals = [0] * barbu.SEATS
    for _number, contract, hand in barbu_match():
        scores = reference_settle(reference_raw(contract, hand, list(barbu.DOMINO_SCORES)), hand["doubles"])
        totals = [total + scores[name] for total, name in zip(totals, PLAYERS)]
    return totals


def enter_barbu_hand(page: Any, tap: Any, contract: str, hand: dict[str, Any], players: list[str]) -> None:
    """Tap a hand into its contract's form (the players are seated as Ann to Dee are in `hand`); Save is left."""
    seat_of = dict(zip(PLAYERS, players))
    if contract in COUNTS:
        groups = page.locator("fieldset.counted .chips.count")
        for seat, count in enumerate(COUNTS[contract]):
            tap(groups.nth(seat).get_by_role("radio", name=str(count), exact=True))
    if contract == "dominoes":
        chosen = dict(zip(CHOSEN[contract], hand["order"]))
    elif contract == "no_hearts":
        chosen = {"ace_of_hearts": hand["ace_of_hearts"]}
    else:
        chosen = {field: hand[field] for field in CHOSEN.get(contract, [])}
    for field, name in chosen.items():
        tap(page.locator(f'.chips[data-field="{field}"]').get_by_role("radio", name=seat_of[name], exact=True))
    for double in hand["doubles"]:
        by, target = PLAYERS.index(double["by"]), PLAYERS.index(double["target"])
        chip = page.locator(f'.doubles .cell[data-by="{by}"][data-target="{target}"] label.chip',
                            has=page.locator('input[value="double"]'))
        if not chip.locator("input").is_checked():
            tap(chip)
