"""Evenings with each match's state and winners, club pages and the standings PDF dated, and the PDF saved
under the club's name, season and date (an ASCII name for old browsers, the real one as filename*)."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient
from flask_babel import format_date

from helpers.api import bearer
from helpers.club_matches import FOUR
from helpers.clubs import admin_post, new_club, reasons
from helpers.forms import csrf_token
from helpers.i18n import seen
from helpers.pdf import save, text


def started(client: FlaskClient, club: str, *points: list[int]) -> str:
    """A Kozyol series of the four to one defeat point, with these deals recorded."""
    data = {"csrf_token": csrf_token(client, "/clubs/new"), "target": "1", "first_dealer": "0",
            **{f"players-{seat}": name for seat, name in enumerate(FOUR)}}
    answer = client.post(f"/c/{club}/new/kozyol", data=data)
    assert answer.status_code == 302, reasons(answer.text)
    public_id = answer.headers["Location"].rsplit("/", 1)[1]
    with client.session_transaction() as session:
        key = session["keys"][public_id]
    for deal in points:
        assert client.post(f"/api/v1/matches/{public_id}/hands", json={"points": deal}, headers=bearer(key)
                           ).status_code == 201
    return public_id


@pytest.fixture
def club(client: FlaskClient) -> str:
    made = new_club(client, "Клуб «Пятница»")
    for name in FOUR:
        assert admin_post(client, made, "players", "add", {"name": name}).status_code == 302
    return made


def today() -> str:
    return datetime.now(timezone.utc).date().isoformat()


def test_an_evening_shows_each_match_finished_or_in_progress_and_its_winners(client: FlaskClient, club: str):
    started(client, club, [75, 45])  # Bob and Dee take 45: Ann and Cid win
    started(client, club)
    evening = seen(client.get(f"/c/{club}").text)
    assert "Kozyol · Ann, Bob, Cid, Dee Finished Winners: Ann, Cid" in evening
    assert "Kozyol · Ann, Bob, Cid, Dee In progress" in evening


def test_club_pages_and_the_pdf_carry_the_day_they_are_printed(app, client: FlaskClient, club: str, tmp_path: Path):
    started(client, club, [75, 45])
    with app.test_request_context():
        printed = format_date(datetime.now(timezone.utc).date(), "long")
    assert f"Printed on {printed}" in seen(client.get(f"/c/{club}").text)
    player = client.get(f"/c/{club}").text.split(f"/c/{club}/players/", 1)[1].split('"')[0]
    assert f"Printed on {printed}" in seen(client.get(f"/c/{club}/players/{player}").text)
    if shutil.which("pdftotext"):
        assert f"Printed on {printed}" in text(save(tmp_path, client.get(f"/c/{club}/standings.pdf").data))


def test_the_pdf_is_saved_under_the_club_the_season_and_the_day(client: FlaskClient, club: str):
    started(client, club, [75, 45])
    answer = client.get(f"/c/{club}/standings.pdf")
    kind, plain, real = answer.headers["Content-Disposition"].split("; ")
    assert (kind, plain) == ("inline", f'filename="club-All-time-{today()}.pdf"')  # no Latin letter in its name
    assert unquote(real.removeprefix("filename*=UTF-8''")) == f"Клуб «Пятница» – All time – {today()}.pdf"
    assert admin_post(client, club, "seasons", "season", {"name": "Été 2026", "starts": "2026-01-01",
                                                          "ends": "2026-12-31"}).status_code == 302
    season = client.get(f"/c/{club}").text.split('<option value="', 2)[2].split('"')[0]
    named = client.get(f"/c/{club}/standings.pdf?season={season}").headers["Content-Disposition"]
    assert f'filename="club-Ete-2026-{today()}.pdf"' in named
    assert named.endswith(f"%20%E2%80%93%20%C3%89t%C3%A9%202026%20%E2%80%93%20{today()}.pdf")
