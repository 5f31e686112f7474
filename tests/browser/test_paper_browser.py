"""A paper sheet read back on a phone: the match's readable sheet printed, filled in pen, photographed, uploaded,
its doubtful row confirmed on the review screen, saved; then the same photo again adds nothing."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import expect

from helpers.browser import BARBU, HEARTS, made, serious, uncovered
from helpers.matches import barbu_entry, hearts_entry
from helpers.paper import marks_of, raster
from helpers.paper_pen import Marks, Styles, fill
from helpers.paper_photos import Camera, photographed
from scorekeeper.games import GAMES
from scorekeeper.paper import layout

DPI = 200
# A table's pen: filled bubbles, crosses and ticks (never a faint pencil mark, which is a doubt of its own), figures
# written in the score boxes, no stray stroke: the one doubt on the sheet is the one each game makes on purpose.
PEN = Styles(weights=(0.6, 0.25, 0.15, 0.0), mixed=0.1, stray=0.0, dot=0.0, corrected=0.0, written=0.8)
# A phone held over the sheet a little askew (any quarter turn, 20 degrees either side), 6.75 MP.
CAMERA = Camera((3000, 2250), (0.75, 0.92), 20.0)
WITHIN_THE_PHONE = "() => document.documentElement.scrollWidth <= window.innerWidth"
SEVERITY = 0.7  # of the tilt, light, shadow, blur, noise and JPEG losses at their worst


@dataclass(frozen=True)
class Sheet:
    """A game's match, the hands its table marks on the first page, and the row it marks doubtfully."""

    game: str
    players: list[str]
    options: dict[str, Any]
    entries: list[dict[str, Any]]
    doubtful: int  # the row (from 0) marked so that the reader cannot be sure of it
    doubt: Callable[[Marks], None]  # how the table marked it
    reason: str  # what the review says about it
    correct: Callable[[Any, Any, Any], None]  # (page, tap, the row's section): the player enters the true values

    @property
    def deals(self) -> bool:
        return self.game == "kozyol"


def barbu_marked_twice(marks: Marks) -> None:
    """Ann's queens of hand 2 (1) marked, and 3 beside it: two marks where one belongs."""
    marks[(1, ("units", 0))] = (1, 3)


def barbu_correct(page: Any, tap: Any, section: Any) -> None:
    """Each player's queens, as the photo shows them."""
    for seat, name in enumerate(BARBU):
        chosen(tap, section, f"r1-queens_{seat}", BARBU_HANDS[1]["queens"][name])


def kozyol_unmarked(marks: Marks) -> None:
    """Deal 2: the second team's units (0 of its 90) left blank."""
    del marks[(1, ("units", 1))]


def kozyol_correct(page: Any, tap: Any, section: Any) -> None:
    """Count the first team's pile by its card points, as the hand page does."""
    chosen(tap, section, "r1-side", 0)
    chosen(tap, section, "r1-mode", "points")
    typed(page, tap, section.get_by_role("spinbutton", name="Card points in the pile"), KOZYOL_DEALS[1]["points"][0])


def hearts_unmarked(marks: Marks) -> None:
    """Hand 2: Cid's units left blank."""
    del marks[(1, ("units", 2))]


def hearts_correct(page: Any, tap: Any, section: Any) -> None:
    entry = HEARTS_HANDS[1]
    for seat, name in enumerate(HEARTS_7):
        typed(page, tap, section.get_by_role("spinbutton", name=f"{name}: hearts"), entry["hearts"][name])
        chosen(tap, section, f"r1-black_marias_{seat}", entry["black_marias"][name])


def chosen(tap: Any, section: Any, field: str, value: Any) -> None:
    """Tap the chip of a value in a row of chips."""
    chip = section.locator(f"fieldset[data-field='{field}'] label.chip").filter(
        has=section.page.locator(f"input[value='{value}']"))
    tap(chip)
    expect(chip.locator("input")).to_be_checked()


def typed(page: Any, tap: Any, field: Any, value: int) -> None:
    """Tap a number field, clear it as a phone's keyboard does, and type the value."""
    tap(field)
    field.fill("")
    page.keyboard.type(str(value))
    expect(field).to_have_value(str(value))


BARBU_HANDS = [barbu_entry(number, BARBU) for number in (1, 2, 3)]  # the first declarer's, with doubles
KOZYOL_DEALS: list[dict[str, Any]] = [{"points": [70, 50]}, {"points": [30, 90]},
                                      {"points": [120, 0], "tricks": [None, 0]}]
HEARTS_7 = HEARTS[:7]
HEARTS_HANDS = [hearts_entry(number, HEARTS_7) for number in (1, 2)]

SHEETS = {
    "barbu": Sheet("barbu", BARBU, {"first_declarer": BARBU[0]}, BARBU_HANDS, 1, barbu_marked_twice,
                   "Check the count of Ann: the marks are unclear.", barbu_correct),
    "kozyol": Sheet("kozyol", BARBU, {}, KOZYOL_DEALS, 1, kozyol_unmarked,
                    "The card points of Bob and Dee lack a mark.", kozyol_correct),
    "hearts": Sheet("hearts", HEARTS_7, {}, HEARTS_HANDS, 1, hearts_unmarked,
                    "The count of Cid has no mark from 0 to 9.", hearts_correct),
}


def engine_totals(sheet: Sheet) -> list[str]:
    """The totals of the sheet's true hands, by the game's own rules, side by side as the match page lists them."""
    game = GAMES[sheet.game]
    replay = game.new_replay(sheet.players, game.parse_options(sheet.players, sheet.options, None))
    for entry in sheet.entries:
        replay.play(copy.deepcopy(entry))
    return [str(total) for total in replay.side_totals()]


def photo_of_sheet(page: Any, sheet: Sheet, path: Path, seed: int) -> Path:
    """The readable sheet as this phone gets it, printed at 200 dpi, marked in pen, photographed on a table."""
    href = page.get_by_role("link", name="Readable sheet (play on paper, read it back)").get_attribute("href")
    answer = page.context.request.get(href)
    assert answer.ok, answer.status
    assert answer.headers["content-type"].startswith("application/pdf")
    printed = raster(answer.body(), DPI)[0]
    layout_page = layout.page_for(sheet.game, len(sheet.players), int(sheet.options.get("moon_points", 26)))
    marks: Marks = {}
    for row, entry in enumerate(sheet.entries):
        marks.update({key: values for key, values in marks_of(sheet.game, entry, sheet.players, row).items() if values})
    sheet.doubt(marks)
    rng = np.random.default_rng(seed)
    filled = fill(printed, layout_page, marks, rng, PEN)
    path.write_bytes(photographed(filled.image, rng, SEVERITY, CAMERA, page=layout_page))
    return path


def uploaded(page: Any, tap: Any, match_id: str, photo: Path) -> None:
    """Match page -> "Read a paper sheet" -> the photo chosen -> read: the review screen."""
    tap(page.get_by_role("link", name="Read a paper sheet"))
    page.wait_for_url(f"**/m/{match_id}/paper")
    page.locator("#photo").set_input_files(str(photo))
    tap(page.get_by_role("button", name="Read the sheet"))
    page.wait_for_url(re.compile(rf"/m/{match_id}/paper/\d+$"))


def hands_of(page: Any, match_id: str) -> int:
    answer = page.context.request.get(f"/api/v1/matches/{match_id}")
    assert answer.ok, answer.status
    return len(answer.json()["hands"])


@pytest.mark.parametrize("game", list(SHEETS))
def test_a_photographed_sheet_is_checked_saved_once_and_totals_as_on_paper(phone, tap, screenshot, tmp_path, game):
    sheet = SHEETS[game]
    page = phone()
    match_id = made(page, sheet.game, sheet.players, sheet.options, [])
    photo = photo_of_sheet(page, sheet, tmp_path / "sheet.jpg", seed=37 + list(SHEETS).index(game))
    hand = "Deal" if sheet.deals else "Hand"

    uploaded(page, tap, match_id, photo)
    expect(page.get_by_role("heading", name="Check the sheet read")).to_be_visible()
    rows = page.locator("section.paper-row")
    expect(rows).to_have_count(1)  # the row marked doubtfully, and only it
    row = rows.first
    expect(row.get_by_role("heading", level=3)).to_have_text(f"{hand} {sheet.doubtful + 1}")
    crop = row.get_by_role("img", name=f"Row of {hand} {sheet.doubtful + 1} on the photo")
    expect(crop).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=crop.element_handle())
    expect(row.locator(".paper-reasons")).to_be_visible()
    expect(row.locator(".paper-reasons")).to_contain_text(sheet.reason)
    certain = [number for number in range(1, len(sheet.entries) + 1) if number != sheet.doubtful + 1]
    expect(page.locator(".paper-certain li strong")).to_have_text([f"{hand} {number}" for number in certain])
    assert page.evaluate(WITHIN_THE_PHONE), "the review is wider than the phone: it scrolls sideways"
    assert serious(page) == []
    screenshot(page, "review")

    sheet.correct(page, tap, row)
    save = page.get_by_role("button", name=f"Save {len(sheet.entries)} {hand.lower()}s")
    expect(save).to_be_visible()
    uncovered(page, save)
    tap(save)
    page.wait_for_url(re.compile(rf"/m/{match_id}(#.*)?$"))
    expect(page.get_by_text("The hands read from paper are saved.")).to_be_visible()
    totals = engine_totals(sheet)
    expect(page.locator(".standings .totals .total")).to_have_text(totals)
    assert hands_of(page, match_id) == len(sheet.entries)

    tap(page.get_by_role("link", name="Edit history"))
    page.wait_for_url(f"**/m/{match_id}/history")
    expect(page.get_by_text("read from paper")).to_have_count(len(sheet.entries))

    # The same photo again: every row already recorded, nothing to save, nothing added.
    page.goto(f"/m/{match_id}")
    uploaded(page, tap, match_id, photo)
    expect(page.locator("section.paper-row")).to_have_count(0)
    expect(page.locator(".paper-recorded li")).to_have_count(len(sheet.entries))
    for item in page.locator(".paper-recorded li").all():
        expect(item).to_contain_text("already recorded")
    expect(page.get_by_text("Every row of this sheet is recorded.")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Save"))).to_have_count(0)
    assert hands_of(page, match_id) == len(sheet.entries)
    tap(page.get_by_role("link", name="Back to the score sheet"))
    page.wait_for_url(re.compile(rf"/m/{match_id}(#.*)?$"))
    expect(page.locator(".standings .totals .total")).to_have_text(totals)
