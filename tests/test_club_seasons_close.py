"""A season closed by the admin keeps its tables, champions and evenings' winners: on its page, its PDF and the
hall of fame; a match corrected later moves nothing, reopening brings the live figures back."""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import format_date

from helpers.api import bearer
from helpers.club_matches import FOUR
from helpers.clubs import QUICK, TEAM_0_LOSES, TEAM_1_LOSES
from helpers.forms import csrf_token
from helpers.i18n import seen
from helpers.pdf import save, text
from scorekeeper.club import seasons, service
from scorekeeper.db import db
from scorekeeper.models import Club, Season
from scorekeeper.refusals import Refusal

API = "/api/v1"


def today() -> Any:
    return datetime.now(timezone.utc).date()


@pytest.fixture
def club(client: FlaskClient) -> dict[str, Any]:
    """A club run from this phone (its admin link opened), ranking from one match."""
    made = client.post(f"{API}/clubs", json={"name": "Les Dimanches"}).get_json()
    assert client.put(f"{API}/clubs/{made['id']}/rules", json={"min_matches": 1},
                      headers=bearer(made["admin_key"])).status_code == 200
    assert client.get(f"/c/{made['id']}/join/{made['admin_key']}").status_code == 302
    return made


def played(client: FlaskClient, club: dict[str, Any], deal: dict[str, Any] = TEAM_1_LOSES) -> dict[str, Any]:
    """A one-deal Kozyol series of Ann, Bob, Cid and Dee: TEAM_1_LOSES, Ann and Cid win (tied first)."""
    match = client.post(f"{API}/clubs/{club['id']}/matches",
                        json={"game": "kozyol", "players": FOUR, "options": QUICK}).get_json()
    assert client.post(f"{API}/matches/{match['id']}/hands", json=deal,
                       headers=bearer(match["edit_key"])).status_code == 201
    return match


def season_of(client: FlaskClient, club: dict[str, Any], name: str = "Autumn", ends: Any = None,
              days: int = 30) -> int:
    ends = ends or today()
    answer = client.post(f"{API}/clubs/{club['id']}/seasons", headers=bearer(club["admin_key"]), json={
        "name": name, "starts": (ends - timedelta(days=days)).isoformat(), "ends": ends.isoformat()})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def found(club: dict[str, Any], season_id: int) -> tuple[Club, Season]:
    return service.must_find(club["id"]), db.session.get(Season, season_id)


def close(client: FlaskClient, club: dict[str, Any], season_id: int, action: str = "close"):
    return client.post(f"/c/{club['id']}/admin/seasons/{season_id}/{action}",
                       data={"close-csrf_token": csrf_token(client, "/clubs/new")})


def correct(client: FlaskClient, match: dict[str, Any], deal: dict[str, Any]) -> None:
    assert client.put(f"{API}/matches/{match['id']}/hands/1", json=deal,
                      headers=bearer(match["edit_key"])).status_code == 200


# -- the store ------------------------------------------------------------------------------------------


def test_closing_keeps_the_table_a_correction_later_does_not_move_it_and_reopening_brings_it_back(
        app: Flask, client: FlaskClient, club: dict[str, Any]):
    match = played(client, club)
    season_id = season_of(client, club)
    with app.app_context():
        seasons.close(*found(club, season_id))
        closed = found(club, season_id)[1]
        assert closed.closed_at is not None and closed.final["version"] == seasons.VERSION
        assert seasons.champions(seasons.final_view(closed)) == {"kozyol": ["Ann", "Cid"]}  # a tie: both
    correct(client, match, TEAM_0_LOSES)  # now Bob and Dee win
    with app.app_context():
        owner, season = found(club, season_id)
        assert seasons.champions(seasons.view(owner, season)) == {"kozyol": ["Ann", "Cid"]}
        assert seasons.champions(seasons.view(owner, None)) == {"kozyol": ["Bob", "Dee"]}  # all time is live
        [evening] = seasons.evening_winners(season)
        assert (evening.day, evening.winners) == (today(), {"kozyol": ["Ann", "Cid"]})
        seasons.reopen(owner, season)
        owner, season = found(club, season_id)
        assert season.closed_at is None and season.final is None
        assert seasons.champions(seasons.view(owner, season)) == {"kozyol": ["Bob", "Dee"]}


def test_the_snapshot_gives_back_the_same_figures(app: Flask, client: FlaskClient, club: dict[str, Any]):
    played(client, club)
    played(client, club, TEAM_0_LOSES)
    season_id = season_of(client, club)
    with app.app_context():
        owner, season = found(club, season_id)
        live = seasons.view(owner, season)
        seasons.close(owner, season)
        kept = seasons.final_view(found(club, season_id)[1])
        assert kept.games == live.games and kept.names == live.names and kept.matches == live.matches == 2


def test_a_season_closes_from_its_last_day_and_only_once(app: Flask, client: FlaskClient, club: dict[str, Any]):
    later = season_of(client, club, "Winter", ends=today() + timedelta(days=1))
    now = season_of(client, club, "Autumn")
    with app.app_context():
        with pytest.raises(Refusal) as refused:
            seasons.close(*found(club, later))  # before its last day: only when asked
        assert refused.value.errors[0][0] == "early"
        with pytest.raises(Refusal):
            seasons.reopen(*found(club, now))  # not closed
        seasons.close(*found(club, now))
        with pytest.raises(Refusal):
            seasons.close(*found(club, now))


def test_the_hall_of_fame_lists_closed_seasons_latest_first(app: Flask, client: FlaskClient, club: dict[str, Any]):
    played(client, club)
    old = season_of(client, club, "Spring", ends=today() - timedelta(days=60))
    now = season_of(client, club, "Autumn")
    open_one = season_of(client, club, "Summer", ends=today() - timedelta(days=10))
    with app.app_context():
        seasons.close(*found(club, old))
        seasons.close(*found(club, now))
        hall = seasons.hall_of_fame(service.must_find(club["id"]))
        assert [(fame.season.id, fame.champions) for fame in hall] == [(now, {"kozyol": ["Ann", "Cid"]}), (old, {})]
        assert open_one not in [fame.season.id for fame in hall]


# -- the pages ------------------------------------------------------------------------------------------


def test_the_admin_closes_a_season_and_its_page_shows_the_champions_and_evenings(client: FlaskClient,
                                                                                 club: dict[str, Any]):
    match = played(client, club)
    season_id = season_of(client, club)
    admin = seen(client.get(f"/c/{club['id']}/admin/seasons").text)
    assert "Close the season" in admin and "Close Autumn" in admin
    answer = close(client, club, season_id)
    assert answer.status_code == 302 and answer.headers["Location"].endswith("#season")
    after = seen(client.get(answer.headers["Location"]).text)
    assert "Autumn is closed: its tables and champions stay as they stand now." in after
    assert "Reopen Autumn" in after
    correct(client, match, TEAM_0_LOSES)
    page = seen(client.get(f"/c/{club['id']}?season={season_id}").text)
    assert "Closed on" in page and "Champions Kozyol : Ann, Cid" in page
    assert "Evenings of the season" in page and "Kozyol: Ann, Cid" in page
    assert "Hall of fame" in page
    every = seen(client.get(f"/c/{club['id']}").text)
    assert "Hall of fame Autumn" in every and "Closed on" not in every
    assert close(client, club, season_id, "reopen").status_code == 302
    reopened = seen(client.get(f"/c/{club['id']}?season={season_id}").text)
    assert "Closed on" not in reopened and "Hall of fame" not in reopened


def test_closing_early_unasked_or_twice_is_refused_on_the_page(client: FlaskClient, club: dict[str, Any]):
    later = season_of(client, club, "Winter", ends=today() + timedelta(days=3))
    refused = close(client, club, later)
    assert refused.status_code == 422
    assert (f"Winter runs until {(today() + timedelta(days=3)).isoformat()}. Closing it today makes today its last "
            "day: confirm to close it early.") in seen(refused.text)
    now = season_of(client, club, "Autumn")
    assert close(client, club, now).status_code == 302
    assert "This season is already closed." in close(client, club, now).text
    assert close(client, club, later, "reopen").status_code == 422


def test_closing_needs_the_admin_and_a_season_of_the_club(app: Flask, client: FlaskClient, club: dict[str, Any]):
    season_id = season_of(client, club)
    assert close(client, club, 999999).status_code == 404
    stranger = app.test_client()
    assert close(stranger, club, season_id).status_code == 403
    other = client.post(f"{API}/clubs", json={"name": "Autre"}).get_json()
    assert client.post(f"/c/{other['id']}/admin/seasons/{season_id}/close",
                       data={"close-csrf_token": csrf_token(client, "/clubs/new")}).status_code == 403
    assert client.post(f"/c/{club['id']}/admin/seasons/{season_id}/close", data={}).status_code == 422  # no token
    with app.app_context():
        assert found(club, season_id)[1].closed_at is None


def test_the_closed_season_is_shown_in_each_language(client: FlaskClient, club: dict[str, Any]):
    played(client, club)
    season_id = season_of(client, club)
    assert close(client, club, season_id).status_code == 302
    for lang, words in (("fr", ["Close le", "Champions", "Palmarès"]), ("ru", ["Закрыт", "Чемпионы", "Зал славы"])):
        page = seen(client.get(f"/c/{club['id']}?season={season_id}", headers={"Accept-Language": lang}).text)
        assert all(word in page for word in words), (lang, page)


def test_the_pdf_of_a_closed_season_is_its_snapshot_dated_today(app: Flask, client: FlaskClient, club: dict[str, Any],
                                                              tmp_path: Path):
    match = played(client, club)
    season_id = season_of(client, club)
    open_pdf = client.get(f"/c/{club['id']}/standings.pdf?season={season_id}")
    assert close(client, club, season_id).status_code == 302
    correct(client, match, TEAM_0_LOSES)
    closed_pdf = client.get(f"/c/{club['id']}/standings.pdf?season={season_id}")
    assert closed_pdf.status_code == 200 and closed_pdf.headers["ETag"] != open_pdf.headers["ETag"]
    if not shutil.which("pdftotext"):
        pytest.skip("poppler is not installed")
    with app.test_request_context():
        printed = format_date(today(), "long")
    sheet = " ".join(text(save(tmp_path, closed_pdf.data)).split())
    assert f"Closed on {printed}" in sheet and f"Printed on {printed}" in sheet
    assert "Champions" in sheet and "Kozyol Ann, Cid" in sheet
    assert "Evenings of the season" in sheet and "Kozyol: Ann, Cid" in sheet
    assert close(client, club, season_id, "reopen").status_code == 302
    live = " ".join(text(save(tmp_path, client.get(f"/c/{club['id']}/standings.pdf?season={season_id}").data,
                              "live.pdf")).split())
    assert "Closed on" not in live and "Champions" not in live
