"""The history's dates and times in the phone's own order and time zone, whatever the page's language."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from helpers.browser import opened
from helpers.matches import PLAYERS

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def history_of_one_deal(page, language: str) -> datetime:
    """A Kozyol deal recorded, then the history read in language; the time the server wrote, as a datetime."""
    match = page.context.request.post("/api/v1/matches", data={"game": "kozyol", "players": PLAYERS}).json()
    assert page.context.request.post(f"/api/v1/matches/{match['id']}/hands", data={"points": [75, 45]},
                                     headers={"Authorization": f"Bearer {match['edit_key']}"}).status == 201
    page.goto(f"/language/{language}?next=/m/{match['id']}/history")
    return datetime.fromisoformat(page.locator("time[data-local]").get_attribute("datetime"))


def test_an_en_gb_phone_reads_day_month_year_in_its_own_time_zone(phone):
    page = phone(timezone_id="Asia/Tokyo")  # the phone fixture is en-GB
    at = history_of_one_deal(page, "en").astimezone(ZoneInfo("Asia/Tokyo"))
    expect(page.locator("time[data-local]")).to_have_text(f"{at:%d/%m/%Y}, {at:%H:%M:%S}")


@pytest.mark.parametrize(("locale", "language", "shown"), [
    ("en-US", "fr", r"{month}/{day}/{year}, {hour12}:{minute}:{second}\s(AM|PM)"),
    ("de-DE", "ru", r"{day}\.{month}\.{year}, {hour:02d}:{minute}:{second}"),
    # A Korean phone writes the time of day as a word before the hour: the order stays, the word is the page's.
    ("ko-KR", "en", r"{year}\. {month}\. {day}\. (AM|PM) {hour12}:{minute}:{second}"),
])
def test_the_order_is_the_phones_and_the_words_the_pages(browser, live_server, locale, language, shown):
    page = opened(browser.new_context(**PHONE, locale=locale, timezone_id="UTC", base_url=live_server))
    at = history_of_one_deal(page, language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    pattern = shown.format(month=at.month, day=at.day, year=at.year, hour=at.hour, hour12=(at.hour - 1) % 12 + 1,
                           minute=f"{at:%M}", second=f"{at:%S}")
    expect(page.locator("time[data-local]")).to_have_text(re.compile(f"^{pattern}$"))


@pytest.mark.parametrize(("locale", "clock"), [("en-GB", r"\d{2}:\d{2}"), ("en-US", r"\d{1,2}:\d{2}\s(AM|PM)")])
def test_offline_since_is_the_phones_clock_too(browser, live_server, locale, clock):
    page = opened(browser.new_context(**PHONE, locale=locale, timezone_id="UTC", base_url=live_server))
    match = page.context.request.post("/api/v1/matches", data={"game": "kozyol", "players": PLAYERS}).json()
    page.goto(match["edit_url"])
    page.wait_for_load_state("load")
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    expect(page.locator("#outbox")).to_contain_text(re.compile(f"Offline since {clock}\\."))
