"""Offline at the table, second look: two tabs, a double tap, the match with its kept hands, what waits for
the network, a cleared storage and the language switch, at phone size with the server killed and restarted."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from helpers.browser import made, serious, wait_until
from helpers.matches import PLAYERS

ANN, BOB, CID, DEE = PLAYERS
SENT_WITHIN = 25_000  # ms: the outbox tries again within seconds, or at once when back online


def hands_of(page: Any, match_id: str) -> list[dict[str, Any]]:
    answer = page.context.request.get(f"/api/v1/matches/{match_id}")
    assert answer.status == 200, answer.text()
    return answer.json()["hands"]


def outbox(page: Any) -> Any:
    return page.locator("#outbox")


def enter_deal(page: Any, number: int, points: str) -> None:
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Deal {number}")
    page.locator("#points").fill(points)
    page.get_by_role("button", name=f"Save deal {number}").tap()


def ready(page: Any, within: float = 10) -> None:
    """Wait until the service worker keeps this phone's pages."""
    wait_until(page, "() => navigator.serviceWorker.controller !== null", within=within,
               what="no service worker took over the page")


def kept_on_phone(page: Any, path: str, within: float = 10) -> None:
    wait_until(page, "path => caches.match(new URL(path, location.href).href).then(Boolean)", path, within=within,
               what=f"{path} is not kept on the phone")


def no_serious_findings(page: Any) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert serious(page) == [], scheme
    page.emulate_media(color_scheme="light")


@pytest.mark.parametrize("lock", ["web locks", "a lease in storage"])
def test_two_tabs_send_the_kept_deals_once_each_without_a_conflict(phone, server_process, lock):
    first = phone(base_url=server_process.url, service_workers="block")
    if lock != "web locks":  # a browser without the Web Locks API
        first.context.add_init_script("Object.defineProperty(navigator, 'locks', { value: undefined })")
    match_id = made(first, "kozyol", PLAYERS, {}, [])
    second = first.context.new_page()
    for tab in (first, second):
        tab.goto(f"/m/{match_id}/hands/new")
        tab.wait_for_load_state("load")
    server_process.kill()
    for number, points in enumerate(["75", "90", "30"], 1):
        enter_deal(first, number, points)
    for tab in (first, second):  # the other tab knows of them too, and will try to send them
        expect(outbox(tab)).to_contain_text("3 hands waiting to send")

    server_process.start()  # both tabs try again by themselves: one of them sends, once
    for tab in (first, second):
        expect(outbox(tab)).to_be_hidden(timeout=SENT_WITHIN)
        expect(tab.locator("#outbox .choice")).to_have_count(0)
    assert [hand["entry"]["points"] for hand in hands_of(first, match_id)] == [[75, 45], [90, 30], [30, 90]]


def test_a_deal_recorded_exactly_as_kept_is_said_already_recorded_and_goes_away(phone):
    first, second = phone(), phone()
    match_id = made(first, "kozyol", PLAYERS, {}, [{"points": [60, 60]}])
    second.goto(first.locator("#edit-link").input_value())
    for page in (first, second):
        page.goto(f"/m/{match_id}/hands/new")
        page.wait_for_load_state("load")
        page.context.set_offline(True)
        enter_deal(page, 2, "75")  # both phones entered the same deal
        expect(outbox(page)).to_contain_text("1 hand waiting to send")
    first.context.set_offline(False)
    expect(outbox(first)).to_be_hidden(timeout=SENT_WITHIN)
    second.context.set_offline(False)
    expect(outbox(second)).to_contain_text("Deal 2: already recorded, exactly as this phone sent it.",
                                           timeout=SENT_WITHIN)
    expect(second.locator("#outbox .choice")).to_have_count(0)  # nothing to choose
    no_serious_findings(second)
    expect(outbox(second)).to_be_hidden(timeout=SENT_WITHIN)  # and it goes away by itself
    assert [hand["entry"]["points"] for hand in hands_of(second, match_id)] == [[60, 60], [75, 45]]


def test_a_second_tap_on_save_offline_keeps_nothing_more(phone):
    page = phone()
    match_id = made(page, "kozyol", PLAYERS, {}, [])
    page.goto(f"/m/{match_id}/hands/new")
    page.wait_for_load_state("load")
    page.context.set_offline(True)
    page.locator("#points").fill("75")
    save = page.locator("form[data-outbox] button[type=submit]")
    box = save.bounding_box()
    for _ in range(2):  # a double tap: the same spot twice
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 2")
    save.tap()  # and once more on the fresh form, before anything is entered
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    expect(outbox(page).locator(".waiting li")).to_have_count(1)
    page.context.set_offline(False)
    expect(outbox(page)).to_be_hidden(timeout=SENT_WITHIN)
    assert [hand["entry"]["points"] for hand in hands_of(page, match_id)] == [[75, 45]]


def test_the_match_page_offline_counts_the_kept_hands(phone, server_process, screenshot):
    page = phone(base_url=server_process.url)
    match_id = made(page, "barbu", PLAYERS, {"first_declarer": ANN}, [])
    ready(page)
    page.reload()
    kept_on_phone(page, f"/m/{match_id}/hands/new?variant=no_tricks")
    page.locator("#next").get_by_role("link", name="No Tricks", exact=True).tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 1: No Tricks")
    page.wait_for_load_state("load")
    kept_on_phone(page, f"/m/{match_id}/hands/new?variant=")  # the choice of contract, where a kept hand goes on

    server_process.kill()
    for seat, count in enumerate([4, 3, 5, 1]):
        page.locator("fieldset.counted .chips.count").nth(seat).get_by_role("radio", name=str(count), exact=True).check()
    page.get_by_role("button", name="Save hand 1").tap()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    expect(outbox(page).locator(".waiting li .counts")).to_have_text(["Ann 4 · Bob 3 · Cid 5 · Dee 1"])
    page.wait_for_url(f"**/m/{match_id}/hands/new?variant=")  # on to the next contract's choice, by itself
    expect(page.locator("#outbox .waiting li .counts")).to_have_text(["Ann 4 · Bob 3 · Cid 5 · Dee 1"])
    page.goto(f"/m/{match_id}")  # the page kept on the phone, with the kept hand in it
    kept = page.locator("#kept-hands")
    expect(kept).to_contain_text("Kept on this phone, not in the totals yet")
    expect(kept.locator("li")).to_have_text(["Hand 1: No TricksAnn 4 · Bob 3 · Cid 5 · Dee 1"])
    expect(page.locator("#next h2")).to_have_text("Hand 2 of 28")
    expect(page.locator("#next").get_by_role("link", name="No Tricks", exact=True)).to_be_hidden()
    expect(page.locator("#next").get_by_role("link", name="No Queens", exact=True)).to_be_visible()
    screenshot(page, "kept-hand-on-the-match")
    no_serious_findings(page)

    server_process.start()  # sent: the server's own row replaces the pending one
    expect(page.locator("#hand-1")).to_be_visible(timeout=SENT_WITHIN)
    expect(page.locator("#kept-hands")).to_have_count(0)
    expect(page.locator("#next h2")).to_have_text("Hand 2 of 28")


def test_undo_corrections_and_the_language_say_they_need_the_network(phone):
    page = phone()
    match_id = made(page, "kozyol", PLAYERS, {}, [{"points": [60, 60]}])
    page.goto(f"/m/{match_id}")
    page.wait_for_load_state("load")
    page.context.set_offline(True)
    undo = page.locator("form.undo button").first
    expect(undo).to_be_disabled()
    expect(page.locator("form.undo .needs-network").first).to_have_text("Needs the network")
    correct = page.get_by_role("link", name="Correct deal 1")
    expect(correct).to_have_attribute("aria-disabled", "true")
    languages = page.locator("nav.languages")
    expect(page.get_by_text("The language can be changed once the server answers again.")).to_be_visible()
    languages.locator("summary").tap()  # the menu of languages opens offline too
    expect(languages.get_by_role("link", name="Français")).to_be_disabled()  # no tap leads to "No connection"
    no_serious_findings(page)

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(undo).to_be_enabled()
    expect(page.locator(".needs-network")).to_have_count(0)
    languages.get_by_role("link", name="Français").tap()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.context.set_offline(True)
    expect(page.get_by_text("La langue pourra être changée dès que le serveur répondra de nouveau.")).to_be_visible()
    expect(page.locator("form.undo .needs-network").first).to_have_text("Nécessite le réseau")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    languages.locator("summary").tap()
    languages.get_by_role("link", name="Русский").tap()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.context.set_offline(True)
    expect(page.locator("form.undo .needs-network").first).to_have_text("Нужна сеть")
    expect(page.get_by_text("Язык можно будет сменить, когда сервер снова ответит.")).to_be_visible()
    no_serious_findings(page)
    assert len(hands_of(page, match_id)) == 1


def test_a_cleared_list_of_kept_hands_is_said(phone, server_process):
    page = phone(base_url=server_process.url)
    match_id = made(page, "kozyol", PLAYERS, {}, [])
    ready(page)
    page.goto(f"/m/{match_id}/hands/new")
    page.wait_for_load_state("load")
    server_process.kill()
    enter_deal(page, 1, "75")
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    page.evaluate("localStorage.clear()")  # the site's storage cleared behind the app's back
    page.reload()
    lost = outbox(page).locator(".lost")
    expect(lost).to_contain_text("Hands kept on this phone were lost before they were sent: its storage was cleared.")
    no_serious_findings(page)
    lost.get_by_role("button", name="Understood").tap()
    expect(outbox(page).locator(".lost")).to_have_count(0)
    page.reload()
    expect(outbox(page).locator(".lost")).to_have_count(0)  # said once
    server_process.start()


def test_back_online_the_phone_leaves_the_no_connection_page(phone, server_process):
    page = phone(base_url=server_process.url)
    match_id = made(page, "kozyol", PLAYERS, {}, [])
    ready(page)
    server_process.kill()
    page.goto(f"/m/{match_id}/history")  # never opened: not kept on the phone
    expect(page.get_by_role("heading", level=1)).to_have_text("No connection")
    no_serious_findings(page)
    server_process.start()
    expect(page.get_by_role("heading", level=1)).not_to_have_text("No connection", timeout=SENT_WITHIN)
    expect(page).to_have_url(re.compile(f"/m/{match_id}/history$"))


def test_a_card_is_drawn_again_in_the_language_the_page_is_now_in(phone):
    first, second = phone(), phone()
    match_id = made(first, "kozyol", PLAYERS, {}, [{"points": [60, 60]}])
    second.goto(first.locator("#edit-link").input_value())
    for page, points in ((first, "75"), (second, "100")):
        page.goto(f"/m/{match_id}/hands/new")
        page.wait_for_load_state("load")
        page.context.set_offline(True)
        enter_deal(page, 2, points)
    first.context.set_offline(False)
    expect(outbox(first)).to_be_hidden(timeout=SENT_WITHIN)
    second.context.set_offline(False)
    card = second.locator("#outbox .choice")
    expect(card).to_contain_text("Hand 2 is already recorded.", timeout=SENT_WITHIN)

    second.locator("nav.languages summary").tap()
    second.locator("nav.languages").get_by_role("link", name="Français").tap()
    expect(second.locator("html")).to_have_attribute("lang", "fr")
    expect(card).to_contain_text("La donne 2 est déjà enregistrée.", timeout=SENT_WITHIN)
    expect(card.locator("p").first).to_have_text("Donne 2")
    expect(card).to_contain_text("points de cartes : 100 : 20")
    expect(card).not_to_contain_text("card points")
    expect(card.get_by_role("button", name="Enregistrer comme donne suivante")).to_be_visible()
    no_serious_findings(second)
    assert [hand["entry"]["points"] for hand in hands_of(second, match_id)] == [[60, 60], [75, 45]]
