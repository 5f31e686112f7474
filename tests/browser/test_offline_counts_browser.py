"""A hand kept on the phone says what it records, for every contract of every game, as Save said it.

The server is out of reach for the saves only (each one aborted, as a dead server's), so the hand forms of
the other contracts still open; the service worker is kept out, which would answer for the server.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from helpers.browser import made
from helpers.matches import PLAYERS

ANN, BOB, CID, DEE = PLAYERS
SIX = [*PLAYERS, "Eve", "Fay"]
SENT_WITHIN = 20_000  # ms: the outbox sends the hands kept as soon as a page opens with the server back


def saves_fail(page: Any) -> None:
    """Every save of a hand finds no server; the pages still open."""
    def answer(route: Any) -> None:
        if route.request.method == "POST":
            route.abort("connectionrefused")
        else:
            route.continue_()
    page.route(lambda url: "/hands/" in url, answer)


def group(page: Any, name: str) -> Any:
    return page.get_by_role("group", name=name, exact=True)


COUNTS = {"no_tricks": [4, 3, 5, 1], "no_queens": [1, 0, 1, 2], "no_hearts": [4, 3, 5, 1], "trumps": [6, 3, 1, 3]}
CHOSEN = {
    "no_hearts": [("Who took the ace of hearts?", BOB)],
    "no_last_two": [("Who won trick 12?", CID), ("Who won trick 13, the last?", DEE)],
    "barbu": [("Who took the king of hearts?", CID)],
    "dominoes": [("Went out first", BOB), ("Second", ANN), ("Third", CID)],  # Dee, the one left, is filled in
}


def enter(page: Any, contract: str) -> None:
    """One hand of the contract as the table reports it: counts, choices, a double, a trump suit."""
    for seat, number in enumerate(COUNTS.get(contract, [])):
        page.locator("fieldset.counted .chips.count").nth(seat).get_by_role("radio", name=str(number), exact=True).check()
    for question, name in CHOSEN.get(contract, []):
        group(page, question).get_by_label(name, exact=True).check()
    if contract == "barbu":
        page.locator('.cell[data-by="1"][data-target="0"]').get_by_label("Double", exact=True).check()
    if contract == "trumps":
        page.get_by_text("Trump suit (optional)").tap()
        page.get_by_label("♠ Spades").check()


def keep(page: Any, number: int, title: str, contract: str) -> None:
    """Enter a hand of the contract on its form and save it: kept on the phone, as the outbox says."""
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Hand {number}: {title}")
    page.wait_for_load_state("load")
    enter(page, contract)
    page.get_by_role("button", name=f"Save hand {number}").tap()
    expect(page.locator("#outbox")).to_contain_text(f"No connection: Hand {number}: {title} is kept on this phone")


def kept_counts(page: Any) -> Any:
    return page.locator("#outbox .waiting li .counts")


def test_barbu_hands_kept_offline_say_what_they_record_for_every_contract(phone):
    page = phone(service_workers="block")
    match_id = made(page, "barbu", PLAYERS, {"first_declarer": ANN, "enforce_declarer_doubles": False}, [])
    saves_fail(page)
    titles = {"no_tricks": "No Tricks", "no_queens": "No Queens", "no_hearts": "No Hearts", "no_last_two": "No Last Two",
              "barbu": "Barbu", "trumps": "Trumps", "dominoes": "Dominoes"}
    for number, (contract, title) in enumerate(titles.items(), 1):
        page.goto(f"/m/{match_id}/hands/new?variant={contract}")
        keep(page, number, title, contract)
    expect(page.locator("#outbox")).to_contain_text("7 hands waiting to send")
    expect(kept_counts(page)).to_have_text([
        "Ann 4 · Bob 3 · Cid 5 · Dee 1",
        "Ann 1 · Bob 0 · Cid 1 · Dee 2",
        "Ann 4 · Bob 3 · Cid 5 · Dee 1 · ace of hearts: Bob",
        "second-last trick: Cid · last trick: Dee",
        "king of hearts: Cid. Doubles: Bob doubles Ann",
        "Ann 6 · Bob 3 · Cid 1 · Dee 3 · trump suit: ♠ Spades",
        "Went out first: Bob · Second: Ann · Third: Cid · Last: Dee",
    ])

    page.unroute_all()
    page.reload()  # the server answers again: what each hand said it records is what is recorded
    expect(page.locator("#outbox")).to_be_hidden(timeout=SENT_WITHIN)
    recorded = page.context.request.get(f"/api/v1/matches/{match_id}").json()["hands"]
    assert [hand["contract"] for hand in recorded] == list(titles)
    assert recorded[2]["entry"]["ace_of_hearts"] == BOB and recorded[4]["entry"]["king_of_hearts"] == CID
    assert recorded[6]["entry"]["order"] == [BOB, ANN, CID, DEE]


def test_a_kozyol_deal_kept_offline_says_the_trick_question_answered(phone):
    page = phone(service_workers="block")
    match_id = made(page, "kozyol", PLAYERS, {}, [])
    saves_fail(page)
    page.goto(f"/m/{match_id}/hands/new")
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    page.wait_for_load_state("load")
    page.locator("#points").fill("0")
    group(page, "Did Ann & Cid take a trick?").get_by_label("No trick at all").check()
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#outbox")).to_contain_text("No connection: Deal 1 is kept on this phone")
    expect(kept_counts(page)).to_have_text(["Ann & Cid 0 : 120 Bob & Dee · Ann & Cid: No trick at all"])


def test_a_hearts_hand_kept_offline_says_the_moon_chosen(phone, tap):
    page = phone(service_workers="block")
    match_id = made(page, "hearts", SIX, {"first_dealer": ANN}, [])
    saves_fail(page)
    page.goto(f"/m/{match_id}/hands/new")
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 1")
    page.wait_for_load_state("load")
    for name in SIX[1:]:
        tap.type(page.locator(f'.player-row[data-name="{name}"]').get_by_role("spinbutton", name=name, exact=True), "0")
    tap(page.locator(f'.player-row[data-name="{ANN}"]').get_by_role("radio", name="Took the rest"))
    tap(page.get_by_label("Add 26 to everyone else"))
    page.get_by_role("button", name="Save hand 1").tap()
    expect(page.locator("#outbox")).to_contain_text("No connection: Hand 1 is kept on this phone")
    expect(kept_counts(page)).to_have_text(
        ["Ann 26 ♥ 2 Q♠ (the rest) · Bob 0 ♥ · Cid 0 ♥ · Dee 0 ♥ · Eve 0 ♥ · Fay 0 ♥ · moon: Add 26 to everyone else"])
