"""A day is written year-month-day (2026-12-05), exactly, wherever the API or a form takes one.

Python reads more as a day (2026-W01-1 is the Monday of ISO week 1, 2025-12-29; 20260101; a
browser would never send 2026-1-5): a season that starts "2026-W01-1" must be refused, not start
three days early.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from helpers.api import bearer, error_of
from helpers.clubs import admin_post, new_club, reasons
from scorekeeper.club import service as clubs
from scorekeeper.db import db
from scorekeeper.games import InvalidHand
from scorekeeper.models import Evening, Season

API = "/api/v1"
REASON = "Give a day as year-month-day, such as 2026-12-05."
NOT_DAYS = [
    "2026-W01-1", "2026W011", "2026-W01", "20260101", "2026-001", "2026001", "2026-1-05", "2026-01-5", "2026-1-5",
    " 2026-01-01", "2026-01-01 ", "2026-01-01T00:00", "2026-01-01 00:00", "+2026-01-01", "2026.01.01",
    "２０２６-０１-０１", "٢٠٢٦-٠١-٠١", "2026-13-01", "2026-02-30", "0000-01-01", "", "2026-01-01\n",
]


@pytest.fixture
def club(client: FlaskClient) -> dict:
    return client.post(f"{API}/clubs", json={"name": "Sunday table"}).get_json()


def count(app: Flask, model) -> int:
    with app.app_context():
        found = db.session.scalar(select(func.count()).select_from(model))
        db.session.remove()
    return found


@pytest.mark.parametrize("raw", NOT_DAYS)
def test_only_year_month_day_is_a_day(raw: str):
    with pytest.raises(InvalidHand) as refused:
        clubs.as_day(raw, "starts")
    assert refused.value.fields == {"starts": REASON}


@pytest.mark.parametrize("raw", ["2026-12-05", "2024-02-29", "0001-01-01", "9999-12-31"])
def test_a_day_is_read_as_written(raw: str):
    assert clubs.as_day(raw, "day").isoformat() == raw


def test_the_api_refuses_every_other_spelling_of_a_day(app: Flask, client: FlaskClient, club: dict):
    url, key = f"{API}/clubs/{club['id']}", bearer(club["admin_key"])
    for raw in NOT_DAYS:
        for field in ("starts", "ends"):
            season = {"name": "2026", "starts": "2026-01-01", "ends": "2026-12-31", field: raw}
            assert error_of(client.post(f"{url}/seasons", json=season, headers=key), 422)["fields"] == {field: REASON}
        if raw and "\n" not in raw:  # an address cannot end in a space or hold a new line
            evening = client.put(f"{url}/evenings/{quote(raw)}", json={"name": "Friday"}, headers=key)
            assert error_of(evening, 422)["fields"] == {"day": REASON}, raw
            before = client.get(f"{url}/evenings", query_string={"before": raw})
            assert error_of(before, 422)["fields"] == {"before": REASON}, raw
    assert count(app, Season) == 0 and count(app, Evening) == 0


def test_the_admin_forms_refuse_every_other_spelling_of_a_day(app: Flask, client: FlaskClient):
    made = new_club(client)
    for raw in NOT_DAYS:
        if not raw:
            continue
        season = admin_post(client, made, "seasons", "season", {"name": "Autumn", "starts": raw, "ends": "2026-12-31"})
        assert season.status_code == 422 and "starts" in reasons(season.text), raw
        evening = admin_post(client, made, "evenings", "evening", {"day": raw, "name": "Party"})
        assert evening.status_code == 422 and "day" in reasons(evening.text), raw
    assert count(app, Season) == 0 and count(app, Evening) == 0
    assert admin_post(client, made, "seasons", "season", {"name": "Autumn", "starts": "2026-09-01",
                                                          "ends": "2026-12-31"}).status_code == 302
