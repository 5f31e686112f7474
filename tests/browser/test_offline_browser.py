"""When the Wi-Fi drops: hands kept on the phone and sent once, in order; conflicts shown; pages readable offline.

Two ways of losing the server: the phone offline (Playwright's ``set_offline``) and the server itself
killed and started again on the same address (``server_process``), which also cuts off the service
worker, as a dead server or a router that lost its uplink does.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from helpers.browser import made, wait_until
from helpers.matches import PLAYERS

ANN, BOB, CID, DEE = PLAYERS
SENT_WITHIN = 20_000  # ms: the outbox tries again within seconds (backing off), or at once when back online


def hands_of(page: Any, match_id: str) -> list[dict[str, Any]]:
    answer = page.context.request.get(f"/api/v1/matches/{match_id}")
    assert answer.status == 200, answer.text()
    return answer.json()["hands"]


def enter_deal(page: Any, number: int, points: str) -> None:
    """A Kozyol deal: Ann & Cid's pile counted by its points."""
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Deal {number}")
    page.locator("#points").fill(points)
    page.get_by_role("button", name=f"Save deal {number}").tap()


def outbox(page: Any) -> Any:
    return page.locator("#outbox")


def offline(page: Any, there: Any) -> None:
    """Lose the network once the page a tap opened is fully there (its script too: a page still loading
    saves without it). `there` is on the new page only: until it shows, the load state is the old page's."""
    expect(there).to_be_visible()
    page.wait_for_load_state("load")
    page.context.set_offline(True)


def ready(page: Any, within: float = 10) -> None:
    """Wait until the service worker keeps this phone's pages (it takes over after the first page)."""
    wait_until(page, "() => navigator.serviceWorker.controller !== null", within=within,
               what="no service worker took over the page")


def test_three_deals_entered_offline_are_recorded_once_each_in_order(phone, new_match, screenshot):
    page = phone()
    match_id = new_match(page, "kozyol", PLAYERS, **{"Who deals first": "0"})
    page.get_by_role("link", name="Enter deal 1").tap()
    offline(page, page.get_by_role("button", name="Save deal 1"))
    for number, points in enumerate(["75", "90", "30"], 1):
        enter_deal(page, number, points)
        expect(outbox(page)).to_contain_text(f"No connection: Deal {number} is kept on this phone")
    expect(outbox(page)).to_contain_text("3 hands waiting to send")
    expect(outbox(page).locator(".waiting li")).to_have_text([re.compile(f"^Deal {n}") for n in (1, 2, 3)])
    # Each with what it records, not only its name.
    expect(outbox(page).locator(".waiting li .counts")).to_have_text(
        ["Ann & Cid 75 : 45 Bob & Dee", "Ann & Cid 90 : 30 Bob & Dee", "Ann & Cid 30 : 90 Bob & Dee"])
    expect(outbox(page).locator(".offline")).to_have_text(re.compile(r"^Offline since \d\d:\d\d\.$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 4")  # the next deal, ready to enter
    screenshot(page, "three-kept")

    page.context.set_offline(False)  # nobody taps anything: the phone sends them by itself
    expect(outbox(page)).to_be_hidden(timeout=SENT_WITHIN)
    assert [hand["entry"]["points"] for hand in hands_of(page, match_id)] == [[75, 45], [90, 30], [30, 90]]
    history = page.context.request.get(f"/api/v1/matches/{match_id}/history").json()["changes"]
    assert [(change["action"], change["number"]) for change in history] == [("record", 3), ("record", 2), ("record", 1)]
    enter_deal(page, 4, "60")  # online again: a save goes straight through
    page.wait_for_url(f"**/m/{match_id}#saved")
    assert len(hands_of(page, match_id)) == 4


def test_a_save_whose_answer_was_lost_is_not_recorded_twice(phone, server_process):
    """The server commits the deal and dies before answering; started again, it hears the same save once more."""
    page = phone(base_url=server_process.url, service_workers="block")
    match_id = made(page, "kozyol", PLAYERS, {}, [])
    page.goto(f"/m/{match_id}/hands/new")

    def commit_then_die(route: Any) -> None:
        answer = route.fetch()  # the server saves the deal and answers...
        assert answer.status == 201, answer.text()
        server_process.kill()  # ...but dies before the answer reaches the phone
        route.abort("connectionreset")

    page.route("**/hands/new", commit_then_die)
    enter_deal(page, 1, "75")
    expect(outbox(page)).to_contain_text("No connection: Deal 1 is kept on this phone")
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    page.unroute("**/hands/new")
    server_process.start()  # the same address, a new process: nothing of the first one but the database
    expect(outbox(page)).to_be_hidden(timeout=SENT_WITHIN)  # sent again by itself, and answered as saved
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 2")
    page.goto(f"/m/{match_id}")
    expect(page.locator("#hand-1")).to_contain_text("75 : 45")
    expect(page.locator("#hand-2")).to_have_count(0)
    assert len(hands_of(page, match_id)) == 1
    history = page.context.request.get(f"/api/v1/matches/{match_id}/history").json()["changes"]
    assert [change["action"] for change in history] == ["record"]


def test_two_phones_keeping_the_same_deal_one_is_recorded_the_other_shown_beside_it(phone, screenshot):
    first, second = phone(), phone()
    match_id = made(first, "kozyol", PLAYERS, {}, [{"points": [60, 60]}])
    second.goto(first.locator("#edit-link").input_value())
    for page in (first, second):
        page.get_by_role("link", name="Enter deal 2").tap()
        offline(page, page.get_by_role("button", name="Save deal 2"))
    enter_deal(first, 2, "75")
    enter_deal(second, 2, "100")
    for page in (first, second):
        expect(outbox(page)).to_contain_text("1 hand waiting to send")

    first.context.set_offline(False)
    expect(outbox(first)).to_be_hidden(timeout=SENT_WITHIN)
    second.context.set_offline(False)
    choice = outbox(second).locator(".choice")
    expect(choice).to_contain_text("Deal 2", timeout=SENT_WITHIN)
    expect(choice).to_contain_text("Hand 2 is already recorded.")
    expect(choice.locator(".side").nth(0)).to_contain_text("This phone sent")
    expect(choice.locator(".side").nth(0)).to_contain_text("card points: 100 : 20")
    expect(choice.locator(".side").nth(1)).to_contain_text("Recorded")
    expect(choice.locator(".side").nth(1)).to_contain_text("card points: 75 : 45")
    expect(choice.get_by_role("button", name="Discard")).to_be_visible()
    screenshot(second, "conflict")
    assert [hand["entry"]["points"] for hand in hands_of(second, match_id)] == [[60, 60], [75, 45]]

    choice.get_by_role("button", name="Record as the next hand").tap()
    expect(outbox(second)).to_be_hidden(timeout=SENT_WITHIN)
    assert [hand["entry"]["points"] for hand in hands_of(second, match_id)] == [[60, 60], [75, 45], [100, 20]]


def test_a_kept_hand_the_rules_now_refuse_is_shown_with_their_reason(phone):
    page = phone()
    match_id = made(page, "barbu", PLAYERS, {"first_declarer": ANN},
                    [{"contract": "no_tricks", "tricks": {ANN: 4, BOB: 3, CID: 5, DEE: 1}}])
    key = parse_qs(urlsplit(page.locator("#edit-link").input_value()).query)["key"][0]
    page.locator("#next").get_by_role("link", name="Barbu", exact=True).tap()
    offline(page, page.get_by_role("button", name="Save hand 2"))
    page.get_by_role("group", name="Who took the king of hearts?").get_by_role("radio", name=BOB).check()
    page.get_by_role("button", name="Save hand 2").tap()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    # Meanwhile another phone corrects hand 1: it was Ann's Barbu, not her No Tricks.
    other = phone()
    corrected = other.context.request.put(f"/api/v1/matches/{match_id}/hands/1", data={
        "contract": "barbu", "king_of_hearts": CID}, headers={"Authorization": f"Bearer {key}"})
    assert corrected.status == 200, corrected.text()

    page.context.set_offline(False)
    choice = outbox(page).locator(".choice")
    expect(choice).to_contain_text("Hand 2: Barbu", timeout=SENT_WITHIN)
    expect(choice).to_contain_text("Ann has already played Barbu in this block.")
    expect(choice.get_by_role("button", name="Record as the next hand")).to_have_count(0)
    choice.get_by_role("button", name="Discard").tap()
    expect(outbox(page)).to_be_hidden()
    page.reload()
    expect(outbox(page)).to_be_hidden()  # discarded for good
    assert [hand["contract"] for hand in hands_of(page, match_id)] == ["barbu"]


def test_a_reload_while_offline_keeps_the_hands_and_the_match_stays_readable(phone, server_process, screenshot):
    page = phone(base_url=server_process.url)
    match_id = made(page, "kozyol", PLAYERS, {}, [{"points": [60, 60]}])
    ready(page)
    page.reload()  # drawn through the service worker: kept on the phone from now on
    page.get_by_role("link", name="Enter deal 2").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 2")
    page.wait_for_load_state("load")

    server_process.kill()
    enter_deal(page, 2, "75")
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    page.reload()  # the service worker answers with the page it kept; the phone with the hands it kept
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    expect(outbox(page).locator(".waiting li")).to_have_text([re.compile("^Deal 2")])
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 3")

    page.goto(f"/m/{match_id}")  # the match as this phone last saw it, said as such
    expect(outbox(page).locator(".offline")).to_have_text(
        re.compile(r"^Offline since \d\d:\d\d\. The match below is as this phone last saw it\.$"))
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator(".standings .totals .total")).to_have_text(["0", "0"])
    screenshot(page, "offline-match")

    server_process.start()  # back: the kept deal goes, and the live page follows without a reload
    expect(page.locator("#hand-2")).to_contain_text("75 : 45", timeout=SENT_WITHIN)
    expect(outbox(page)).to_be_hidden()
    assert [hand["entry"]["points"] for hand in hands_of(page, match_id)] == [[60, 60], [75, 45]]


def test_the_app_installs_and_keeps_its_pages_yet_works_without_its_script(phone, new_match):
    page = phone()
    new_match(page, "kozyol", PLAYERS, **{"Who deals first": "0"})
    ready(page)
    manifest = page.context.new_cdp_session(page).send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
    parsed = json.loads(manifest["data"])
    assert parsed["display"] == "standalone" and parsed["icons"][-1]["purpose"] == "maskable"
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")

    # Without the script every page works as before: the plain form, the server's redirect, no outbox.
    plain = phone(java_script_enabled=False)
    match_id = made(plain, "kozyol", PLAYERS, {}, [])
    plain.get_by_role("link", name="Enter deal 1").click()
    plain.locator("#points").fill("75")
    plain.get_by_role("button", name="Save deal 1").click()
    plain.wait_for_url(f"**/m/{match_id}#saved")
    expect(plain.locator("#hand-1")).to_contain_text("75 : 45")
    expect(outbox(plain)).to_be_hidden()
    assert len(hands_of(plain, match_id)) == 1


def kept_on_phone(page: Any, path: str, within: float = 10) -> None:
    """Wait until the service worker keeps the page at path (it fetches the next hand's forms ahead)."""
    wait_until(page, "path => caches.match(new URL(path, location.href).href).then(Boolean)", path, within=within,
               what=f"{path} is not kept on the phone")


def test_barbu_hands_of_other_contracts_are_entered_while_the_server_is_down(phone, server_process):
    page = phone(base_url=server_process.url)
    match_id = made(page, "barbu", PLAYERS, {"first_declarer": ANN}, [])
    ready(page)
    page.reload()
    for contract in ("no_tricks", "no_queens"):
        kept_on_phone(page, f"/m/{match_id}/hands/new?variant={contract}")
    page.locator("#next").get_by_role("link", name="No Tricks", exact=True).tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 1: No Tricks")
    page.wait_for_load_state("load")
    kept_on_phone(page, f"/m/{match_id}/hands/new?variant=")  # "Other contract", fetched from the form

    server_process.kill()
    for seat, count in enumerate([4, 3, 5, 1]):
        page.locator("fieldset.counted .chips.count").nth(seat).get_by_role("radio", name=str(count), exact=True).check()
    page.get_by_role("button", name="Save hand 1").tap()
    expect(outbox(page)).to_contain_text("No connection: Hand 1: No Tricks is kept on this phone")
    # The next hand is another contract: the phone shows the choice it kept, without the one just kept.
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 2")
    expect(page.get_by_role("link", name="No Tricks", exact=True)).to_be_hidden()
    page.get_by_role("link", name="No Queens").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 2: No Queens")
    expect(page.locator(".upcoming")).to_be_hidden()  # who declares next is the server's to say
    for seat, count in enumerate([1, 0, 1, 2]):
        page.locator("fieldset.counted .chips.count").nth(seat).get_by_role("radio", name=str(count), exact=True).check()
    page.get_by_role("button", name="Save hand 2").tap()
    expect(outbox(page)).to_contain_text("2 hands waiting to send")
    expect(outbox(page).locator(".waiting li")).to_have_text([re.compile("^Hand 1: No Tricks"),
                                                              re.compile("^Hand 2: No Queens")])

    server_process.start()
    expect(outbox(page)).to_be_hidden(timeout=SENT_WITHIN)
    assert [hand["contract"] for hand in hands_of(page, match_id)] == ["no_tricks", "no_queens"]
