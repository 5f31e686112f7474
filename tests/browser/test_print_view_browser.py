"""On a phone, the print view of a sheet says first that it is for paper, and offers the PDF and
the way back; the printer gets the sheet without that notice."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from helpers.browser import HEARTS, TAP, made, serious


def in_view(page: Any, locator: Any) -> None:
    """Seen on the phone's first screen: inside 390 x 844 without scrolling or zooming out."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    size = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"] + 0.5 and box["y"] + box["height"] <= size["height"], box
    assert page.evaluate("[window.scrollX, window.scrollY, window.visualViewport.scale]") == [0, 0, 1]


def test_the_print_view_on_a_phone_says_it_is_for_paper_and_offers_the_pdf(phone, screenshot):
    page = phone()
    match_id = made(page, "hearts", HEARTS, {}, [])
    page.get_by_role("link", name="Print sheet").tap()
    page.wait_for_url(f"**/m/{match_id}/sheet")
    notice = page.get_by_role("note")
    expect(notice).to_contain_text("This page is for printing.")
    in_view(page, notice)
    pdf = page.get_by_role("link", name="Download PDF")
    in_view(page, pdf)
    assert pdf.get_attribute("href") == f"/api/v1/matches/{match_id}/sheet.pdf"
    back = page.get_by_role("link", name="Back to the match")
    in_view(page, back)
    assert back.get_attribute("href") == f"/m/{match_id}"
    for link in (pdf, back):
        assert link.bounding_box()["height"] >= TAP - 0.5
    assert serious(page) == []
    screenshot(page, "print-view")
    answer = page.context.request.get(pdf.get_attribute("href"))
    assert answer.ok and answer.headers["content-type"] == "application/pdf"

    page.emulate_media(media="print")  # what the printer gets: the sheet, not the notice
    expect(notice).to_be_hidden()
    expect(pdf).to_be_hidden()
    expect(page.get_by_role("heading", name="Cancellation Hearts")).to_be_visible()


def test_a_blank_sheet_on_a_phone_too_and_a_computer_sees_no_notice(phone, browser, live_server):
    page = phone()
    page.goto("/sheets/kozyol")
    in_view(page, page.get_by_role("note"))
    in_view(page, page.get_by_role("link", name="Download PDF"))
    expect(page.get_by_role("link", name="Back to the start")).to_have_attribute("href", "/")
    computer = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server)
    wide = computer.new_page()  # closed with the browser, after the test
    wide.goto("/sheets/kozyol")
    expect(wide.get_by_role("link", name="Download PDF")).to_be_visible()
    expect(wide.get_by_role("note")).to_be_hidden()
