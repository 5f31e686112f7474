"""Ready for more languages: Khmer and Lao are one line in scorekeeper/i18n.py and their catalogs away.

Their names, the browser's Accept-Language (km-KH, lo-LA), the offline pages, one plural form, the words for the
hours before and after noon, and dates and numbers written the way each language writes them, with Western
digits. The app is given the two languages for a test (helpers.i18n.with_languages): until their catalogs come,
their pages are in English.
"""

from __future__ import annotations

import html
import json
import re
from datetime import date

import pytest
from babel.dates import format_date
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.numbers import format_decimal
from babel.support import Translations
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from helpers.clubs import club_of
from helpers.i18n import COMING, catalog, with_languages
from scorekeeper import i18n
from scorekeeper.web.installable import shell, waiting_sentences

PHONES = [("km-KH", "km"), ("km-KH,km;q=0.9,en-US;q=0.8,en;q=0.7", "km"), ("lo-LA", "lo"), ("lo-LA,lo;q=0.9", "lo"),
          ("th-TH,lo;q=0.8,en;q=0.5", "lo"), ("fr-CA", "fr"), ("de-DE", "en")]


def test_every_language_is_named_in_itself_khmer_and_lao_ahead_of_their_catalogs():
    assert i18n.NAMES["km"] == "ខ្មែរ" and i18n.NAMES["lo"] == "ລາວ"
    assert i18n.LANGUAGE_NAMES == {code: i18n.NAMES[code] for code in i18n.LANGUAGES}
    assert set(COMING) <= set(i18n.NAMES)


@pytest.mark.parametrize(("header", "language"), PHONES)
def test_a_phone_of_the_language_gets_its_pages(client: FlaskClient, monkeypatch, header, language):
    languages = with_languages(monkeypatch)
    page = client.get("/", headers={"Accept-Language": header}).text
    assert f'<html lang="{language}">' in page
    for code in languages:  # the switcher offers each, named in itself
        assert f'hreflang="{code}"' in page and f">{i18n.NAMES[code]}<" in page


def test_the_switcher_chooses_khmer_and_lao_and_the_phone_keeps_the_choice(app: Flask, monkeypatch):
    with_languages(monkeypatch)
    phone = app.test_client()
    for code in COMING:
        assert phone.get(f"/language/{code}?next=/new/kozyol").status_code == 302
        page = phone.get("/new/kozyol", headers={"Accept-Language": "fr"}).text
        assert f'<html lang="{code}">' in page
        assert re.search(rf'lang="{code}"\s+hreflang="{code}" aria-current="true">{i18n.NAMES[code]}<', page)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_match_fixes_its_sheet_in_any_language_of_the_app(client: FlaskClient, language):
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": ["Ann", "Bob", "Cid", "Dee"],
                                                 "language": language})
    assert made.status_code == 201 and made.get_json()["language"] == language


@pytest.mark.parametrize("code", COMING)
def test_one_plural_form_serves_every_count(tmp_path, code):
    """Khmer and Lao have one form for every count: the catalog's nplurals=1, and ngettext reads its only form."""
    assert get_plural(code) == (1, "0")
    messages = Catalog(locale=code)
    messages.add(("%(num)d hand", "%(num)d hands"), ("%(num)d ដៃ",))
    assert messages.num_plurals == 1
    with (tmp_path / "messages.mo").open("wb") as mo:
        write_mo(mo, messages)
    with (tmp_path / "messages.mo").open("rb") as mo:
        translations = Translations(mo)
    assert [translations.ngettext("%(num)d hand", "%(num)d hands", n) % {"num": n} for n in (0, 1, 2, 21)] == [
        "0 ដៃ", "1 ដៃ", "2 ដៃ", "21 ដៃ"]


@pytest.mark.parametrize("code", COMING)
def test_the_outbox_counts_with_the_one_form(app: Flask, monkeypatch, code):
    with_languages(monkeypatch)
    with app.test_request_context(headers={"Accept-Language": code}):
        assert set(waiting_sentences()) == {"other"}  # static/js/outbox/panel.js falls back on it for any count


def test_each_translated_catalog_has_its_languages_plural_forms():
    for code in i18n.LANGUAGES[1:]:
        assert catalog(code).num_plurals == ({"km": 1, "lo": 1, "ru": 3}.get(code, 2))


def test_the_worker_keeps_the_offline_page_in_every_language(app: Flask, client: FlaskClient, monkeypatch):
    languages = with_languages(monkeypatch)
    with app.test_request_context():
        kept = shell()
    assert [url for url in kept if url.startswith("/offline")] == ["/offline", *(f"/offline/{code}" for code in languages)]
    russian = client.get("/offline/ru", headers={"Accept-Language": "fr"}).text
    assert '<html lang="ru">' in russian
    assert catalog("ru")["No connection"].string in russian
    assert '<html lang="lo">' in client.get("/offline/lo").text
    assert client.get("/offline/de").status_code == 404


@pytest.mark.parametrize(("code", "words"), [("en", {"am": "AM", "pm": "PM"}), ("lo", {"am": "ກ່ອນທ່ຽງ", "pm": "ຫຼັງທ່ຽງ"})])
def test_the_page_brings_its_words_for_the_time_of_day(client: FlaskClient, monkeypatch, code, words):
    """A phone's times are written by its script (static/js/times.js), in the words of the page's language: the
    server's, since a browser may know none for Khmer or Lao."""
    with_languages(monkeypatch)
    page = client.get("/", headers={"Accept-Language": code}).text
    found = re.search(r"data-day-periods='([^']*)'", page)
    assert found and json.loads(html.unescape(found[1])) == words


@pytest.mark.parametrize("code", ["en", "fr", "ru", *COMING])
def test_an_evenings_day_and_a_large_figure_are_written_as_the_language_writes_them(app: Flask, client: FlaskClient,
                                                                                   monkeypatch, code):
    from scorekeeper.club import evenings, service as clubs

    with_languages(monkeypatch)
    club = club_of(client, ["Ann", "Bob", "Cid", "Dee"])
    day = date(2027, 3, 4)
    with app.app_context():
        evenings.schedule(clubs.find(club), day, "19:30", "", "")
    page = client.get(f"/c/{club}/evenings/{day.isoformat()}/results", headers={"Accept-Language": code}).text
    assert format_date(day, "full", locale=code) in page  # "ព្រហស្បតិ៍ 4 មីនា 2027", "jeudi 4 mars 2027"
    with app.test_request_context(headers={"Accept-Language": code}):
        written = render_template_string("{{ 1234567|figure }} {{ -12345.67|figure }}")
    assert written == f"{format_decimal(1234567, locale=code)} {format_decimal(-12345.67, '#,##0.0', locale=code)}"
    assert re.fullmatch(r"[0-9\s\u00a0\u202f,.\-−]+", written), "Western digits, in Khmer and Lao too"
