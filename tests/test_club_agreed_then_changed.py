"""Agreed, then changed: the organiser corrects a deal of a match its players agreed. The match stays agreed and
locked, marked as changed after agreement: its page, its sheet (PDF), the evening's results (page and PDF) and
the API say which hand, by the club's organiser, when and why; the API's edit history keeps the reason."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clubs import TEAM_0_LOSES
from helpers.evening_tables import TwoTables
from helpers.i18n import seen, translated
from helpers.openapi import check_answer
from helpers.pdf import save, sheet_pdf, squeezed, text

REASON = "Teams swapped on the sheet"
CHANGED = re.compile(r"Changed by the club's organiser on \d{1,2} \w{3} \d{4} \d\d:\d\d, after its players agreed: "
                     rf"Deal 1 corrected\. Reason: {REASON}")  # Kozyol says deal, as its edit history does
MATCH = "/api/v1/matches/{public_id}"


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> TwoTables:
    made = TwoTables(app, client, agree_to_lock=2)
    made.agreed(made.done)
    return made


def change(night: TwoTables, reason: str = REASON):
    """The organiser corrects deal 1 of the agreed match, over the API with the club's admin key."""
    return night.client.put(f"/api/v1/matches/{night.done['id']}/hands/1?reason={reason}", json=TEAM_0_LOSES,
                            headers={**bearer(night.done["edit_key"]), "Club-Admin-Key": night.key})


def results_line(night: TwoTables) -> dict[str, Any]:
    answer = night.client.get(f"/api/v1/clubs/{night.club}/evenings/{night.evening}/results")
    return answer.get_json()["rounds"][0]["tables"][0]


def test_before_any_change_an_agreed_match_says_nothing_changed(night: TwoTables, document: dict[str, Any]):
    read = night.client.get(f"/api/v1/matches/{night.done['id']}/agreements")
    check_answer(document, f"{MATCH}/agreements", "GET", read)
    assert read.get_json()["locked"] and read.get_json()["changed_after_agreement"] == []
    assert results_line(night)["changed_after_agreement"] == []
    page = seen(night.client.get(f"/c/{night.club}/evenings/{night.evening}/results").text)
    assert "Agreed by its players" in page and "then changed" not in page


def test_the_api_says_it_was_changed_after_agreement_by_the_organiser_why_and_when(
        night: TwoTables, document: dict[str, Any]):
    assert change(night).status_code == 200
    read = night.client.get(f"/api/v1/matches/{night.done['id']}/agreements")
    check_answer(document, f"{MATCH}/agreements", "GET", read)
    body = read.get_json()
    assert body["locked"] and len(body["agreed_by"]) == 2  # still agreed and locked: its players are not asked again
    [changed] = body["changed_after_agreement"]
    assert (changed["number"], changed["action"], changed["reason"], changed["by"]) == (1, "correct", REASON,
                                                                                        "club_admin")
    assert changed["at"] >= max(one["at"] for one in body["agreed_by"])
    state = night.client.get(f"/api/v1/matches/{night.done['id']}").get_json()
    assert state["agreement"]["changed_after_agreement"] == [changed]
    results = night.client.get(f"/api/v1/clubs/{night.club}/evenings/{night.evening}/results")
    check_answer(document, "/api/v1/clubs/{club_id}/evenings/{evening_id}/results", "get", results)
    line = results.get_json()["rounds"][0]["tables"][0]
    assert line["agreed"] is True and line["changed_after_agreement"] == [changed]


def test_the_api_history_keeps_the_admins_reason(night: TwoTables, document: dict[str, Any]):
    assert change(night).status_code == 200
    answer = night.client.get(f"/api/v1/matches/{night.done['id']}/history")
    check_answer(document, f"{MATCH}/history", "GET", answer)
    changes = answer.get_json()["changes"]
    assert [(one["action"], one["reason"]) for one in changes] == [("correct", REASON), ("record", "")]
    html = night.client.get(f"/m/{night.done['id']}/history").text
    assert f"Reason: {REASON}" in seen(html)  # the same reason as the page shows


def test_the_match_page_and_the_results_page_say_it(night: TwoTables):
    for page in (f"/m/{night.done['id']}", f"/c/{night.club}/evenings/{night.evening}/results"):
        assert "then changed" not in seen(night.client.get(page).text)  # kept as they were before the change
    assert change(night).status_code == 200
    page = seen(night.client.get(f"/m/{night.done['id']}").text)
    assert "locked" in page and CHANGED.search(page)
    results = seen(night.client.get(f"/c/{night.club}/evenings/{night.evening}/results").text)
    assert "Agreed by its players, then changed by the club's organiser" in results and CHANGED.search(results)
    assert results.count("Agreed by its players") == 1


def test_the_sheet_header_reads_the_agreed_time_apart_from_started(night: TwoTables, tmp_path):
    printed = text(save(tmp_path, sheet_pdf(night.client, night.done)))
    assert re.search(r"Agreed by \S+, \S+ on \d{1,2} \w{3} \d{4} \d\d:\d\d", " ".join(printed.split()))
    assert not re.search(r"\d\d:\d\dStarted", squeezed(printed))  # not "04:32Started"
    agreed = next(line for line in printed.splitlines() if "Agreed by" in line)
    assert "Started" not in agreed  # each on a line of its own


def test_the_sheet_and_the_results_pdf_say_it(night: TwoTables, tmp_path):
    assert change(night).status_code == 200
    printed = text(save(tmp_path, sheet_pdf(night.client, night.done)))
    flat = " ".join(printed.split())
    assert CHANGED.search(flat), flat[:600]
    assert re.search(r"Agreed by \S+, \S+ on \d{1,2} \w{3} \d{4} \d\d:\d\d", flat)
    results = night.client.get(f"/c/{night.club}/evenings/{night.day}/results.pdf")
    assert results.status_code == 200
    flat = " ".join(text(save(tmp_path, results.data, "results.pdf")).split())
    assert "then changed by the club's organiser" in flat and REASON in flat


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_changed_after_agreement_in_french_and_russian(night: TwoTables, lang: str):
    assert change(night).status_code == 200
    reader = night.app.test_client()
    reader.get(f"/language/{lang}")
    results = seen(reader.get(f"/c/{night.club}/evenings/{night.evening}/results").text)
    assert translated(lang, "Agreed by its players, then changed by the club's organiser") in results
    sentence = translated(lang, "Changed by the club's organiser on %(when)s, after its players agreed: %(what)s.")
    before, after = sentence.split("%(when)s")
    deal = translated(lang, "Deal %(n)s corrected").replace("%(n)s", "1")
    assert before in results and after.replace("%(what)s", deal) in results
    assert "after its players agreed" not in results
