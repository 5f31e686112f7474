"""Every key page in a phone-sized browser, light and dark: axe-core finds nothing serious, every
control is a thumb-sized target, nothing is wider than the phone."""

from __future__ import annotations

from typing import Any

import pytest

from helpers.browser import BARBU, HEARTS, check, made, report

DARK_SCREENSHOTS = {"barbu-match", "barbu-no-queens", "kozyol-match", "kozyol-deal", "hearts-match", "hearts-hand",
                    "barbu-rules"}


def key_pages(page: Any) -> list[tuple[str, str]]:
    """(name, address) of every page a player meets, with matches that have hands on them."""
    barbu = made(page, "barbu", BARBU, {"first_declarer": "Ann"}, [
        {"contract": "no_tricks", "tricks": {"Ann": 2, "Bob": 5, "Cid": 6, "Dee": 0},
         "doubles": [{"by": "Bob", "target": "Ann"}, {"by": "Dee", "target": "Ann", "redoubled": True}]},
        {"contract": "trumps", "tricks": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}, "trump_suit": "hearts"},
    ])
    kozyol = made(page, "kozyol", BARBU, {"target": 12}, [{"points": [75, 45]}, {"points": [60, 60]}])
    hearts = made(page, "hearts", HEARTS, {}, [
        {"hearts": dict(zip(HEARTS, [5, 0, 7, 3, 2, 4, 5, 0])),
         "black_marias": dict(zip(HEARTS, [1, 0, 0, 1, 0, 0, 0, 0]))},
        {"hearts": dict(zip(HEARTS, [0, 26, 0, 0, 0, 0, 0, 0])),
         "black_marias": dict(zip(HEARTS, [0, 2, 0, 0, 0, 0, 0, 0])), "moon": "add"},
    ])
    return [
        ("home", "/"),
        ("import", "/import"),
        *[(f"new-{game}", f"/new/{game}") for game in ("barbu", "kozyol", "hearts")],
        ("barbu-match", f"/m/{barbu}"),
        ("barbu-contracts", f"/m/{barbu}/hands/new"),
        ("barbu-no-queens", f"/m/{barbu}/hands/new?variant=no_queens"),
        ("barbu-no-hearts", f"/m/{barbu}/hands/new?variant=no_hearts"),
        ("barbu-dominoes", f"/m/{barbu}/hands/new?variant=dominoes"),
        ("barbu-table", f"/m/{barbu}/table"),
        ("barbu-history", f"/m/{barbu}/history"),
        ("kozyol-match", f"/m/{kozyol}"),
        ("kozyol-deal", f"/m/{kozyol}/hands/new"),
        ("kozyol-table", f"/m/{kozyol}/table"),
        ("hearts-match", f"/m/{hearts}"),
        ("hearts-hand", f"/m/{hearts}/hands/new"),
        ("hearts-table", f"/m/{hearts}/table"),
        *[(f"rules-{game}", f"/rules/{game}") for game in ("barbu", "kozyol", "hearts")],
        ("barbu-rules", f"/m/{barbu}/rules"),
        ("kozyol-rules", f"/m/{kozyol}/rules"),
        ("hearts-rules", f"/m/{hearts}/rules"),
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_key_page_is_accessible_at_phone_size(phone, screenshot, scheme):
    page = phone(color_scheme=scheme)
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    pages = key_pages(page)
    for name, address in pages:
        page.goto(address)
        check(page, name, problems, exempt)
        if scheme == "dark" and name in DARK_SCREENSHOTS:
            screenshot(page, name)
    # A refused hand: the sentences beside the fields must be readable and read out too.
    page.goto(dict(pages)["barbu-no-queens"])
    for group in page.locator("fieldset.counted .chips.count").all():  # every player: none (0 queens in all)
        group.get_by_role("radio", name="0", exact=True).tap()
    page.get_by_role("button", name="Save hand 3").tap()
    page.locator("#err-queens").wait_for()
    page.wait_for_load_state("load")  # the stylesheet too: sizes measured before it arrives are the browser's own
    check(page, "barbu-refused", problems, exempt)
    screenshot(page, "barbu-refused")
    # A phone that only watches (no edit key) sees other things: contracts as tags, a note.
    watcher = phone(color_scheme=scheme)
    for name in ("barbu-match", "kozyol-match", "hearts-match", "kozyol-rules"):
        watcher.goto(dict(pages)[name])
        check(watcher, f"{name}-watching", problems, exempt)
    report("touch-target-exemptions", scheme, exempt)
    found = {name: lines for name, lines in problems.items() if lines}
    assert not found, "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
