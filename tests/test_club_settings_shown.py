"""The admin's settings show the club's current values: a field never shows a suggestion in place of what the club has
(0 agreements to lock a match shows 0), and a refused form shows what was typed."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.clubs import admin_post, new_club, reasons
from scorekeeper.club import agreements, service as clubs

INPUT = re.compile(r"<input\b[^>]*>", re.S)


def value_of(page: str, field: str) -> str | None:
    """The value an input of the page shows (its id), or "checked"/"" for a checkbox."""
    for tag in INPUT.findall(page):
        if f'id="{field}"' in tag:
            if 'type="checkbox"' in tag:
                return "checked" if re.search(r"\schecked\b", tag) else ""
            found = re.search(r'\svalue="([^"]*)"', tag)
            return found[1] if found else None
    raise AssertionError(f"no field {field}")


@pytest.mark.parametrize("asked", [0, 1, 3])
def test_the_agreements_field_shows_the_clubs_number_zero_included(app: Flask, client: FlaskClient, asked: int):
    club = new_club(client)
    with app.app_context():
        agreements.set_rules(clubs.find(club), asked, asked == 3)
    page = client.get(f"/c/{club}/admin/settings").text
    assert value_of(page, "agreement-agree_to_lock") == str(asked)
    assert value_of(page, "agreement-confirm_hands") == ("checked" if asked == 3 else "")


def test_every_setting_shows_the_clubs_value_even_beside_another_form_refused(app: Flask, client: FlaskClient):
    club = new_club(client)
    with app.app_context():
        found = clubs.find(club)
        clubs.set_rules(found, 4, {"kozyol": {"target": 7}})
        agreements.set_rules(found, 0, False)
    refused = admin_post(client, club, "ranking", "ranking", {"min_matches": "0"})
    assert refused.status_code == 422 and reasons(refused.text).get("min_matches")
    for page in (client.get(f"/c/{club}/admin/settings").text, refused.text):
        assert value_of(page, "agreement-agree_to_lock") == "0"
    assert value_of(client.get(f"/c/{club}/admin/settings").text, "ranking-min_matches") == "4"
    assert value_of(client.get(f"/c/{club}/admin/rules").text, "kozyol-target") == "7"


def test_a_refused_number_of_agreements_comes_back_as_typed_with_its_reason(client: FlaskClient):
    club = new_club(client)
    refused = admin_post(client, club, "agreements", "agreement", {"agree_to_lock": "99"})
    assert refused.status_code == 422
    assert value_of(refused.text, "agreement-agree_to_lock") == "99"
    assert "agree_to_lock" in reasons(refused.text)
