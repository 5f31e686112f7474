"""An early season: with 3 matches needed to be ranked, a player with fewer has a provisional place, marked so on
the club page, the standings PDF, the evening's results page and PDF and in the API; a season nobody qualified in
names its provisional leaders in the hall of fame. A season can be closed before its last day (after a question:
today then becomes its last day) and its name and days changed on its own page, each refusal beside its field."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer, error_of
from helpers.club_matches import FOUR
from helpers.clubs import QUICK, TEAM_1_LOSES, reasons
from helpers.forms import csrf_token
from helpers.i18n import assert_translated, seen
from helpers.openapi import check_answer
from helpers.pdf import save, text
from scorekeeper.club.engine.digest import Played
from scorekeeper.club.engine.standings import Tally, provisional_places, standings

API = "/api/v1"
NOTE = {"en": "* Provisional place: fewer than 3 finished matches so far.",
        "fr": "* Place provisoire : moins de 3 parties terminées pour l’instant.",
        "ru": "* Предварительное место: пока меньше 3 законченных партий."}
MARK = {"en": "provisional", "fr": "provisoire", "ru": "предварительно"}


def today() -> date:
    return datetime.now(timezone.utc).date()


class Early:
    """A club ranking from 3 matches (the default), a season around today, one Kozyol match won by Ann and Cid."""

    def __init__(self, client: FlaskClient, starts: int = -10, ends: int = 60):
        self.client = client
        made = client.post(f"{API}/clubs", json={"name": "Les Dimanches"}).get_json()
        self.id, self.key, self.url = made["id"], bearer(made["admin_key"]), f"{API}/clubs/{made['id']}"
        assert client.get(f"/c/{self.id}/join/{made['admin_key']}").status_code == 302  # this phone runs it
        self.season = client.post(f"{self.url}/seasons", headers=self.key, json={
            "name": "Cup", "starts": (today() + timedelta(days=starts)).isoformat(),
            "ends": (today() + timedelta(days=ends)).isoformat()}).get_json()["id"]
        match = client.post(f"{self.url}/matches", json={"game": "kozyol", "players": FOUR, "options": QUICK}
                            ).get_json()
        assert client.post(f"{API}/matches/{match['id']}/hands", json=TEAM_1_LOSES,
                           headers=bearer(match["edit_key"])).status_code == 201

    def page(self, path: str, lang: str = "en") -> str:
        return self.client.get(path, headers={"Accept-Language": lang}).text


@pytest.fixture
def early(client: FlaskClient) -> Early:
    return Early(client)


# -- the engine -------------------------------------------------------------------------------------------------


def kozyol(seats: list[int], goat: int) -> Played:
    digest: Any = {"game": "kozyol", "seats": seats, "hands": 1, "totals": [0, 2, 0, 2] if goat else [2, 0, 2, 0],
                   "places": [1, 2, 1, 2] if goat else [2, 1, 2, 1], "winners": [0, 2] if goat else [1, 3],
                   "teams": [[0, 2], [1, 3]], "goat": goat, "goat_with_eggs": False,
                   "deals": [{"loser": goat, "eggs": False, "points": [20, 100] if goat else [100, 20]}]}
    return Played("m", date(2027, 1, 1), digest)


@pytest.mark.parametrize("min_matches, played, expected", [
    # nobody ranked yet: every place provisional, a tie sharing it
    (3, [kozyol([1, 2, 3, 4], 1)], {1: (None, 1), 3: (None, 1), 2: (None, 3), 4: (None, 3)}),
    # from one match everyone is ranked: no provisional place
    (1, [kozyol([1, 2, 3, 4], 1)], {1: (1, None), 3: (1, None), 2: (3, None), 4: (3, None)}),
    # ranked players keep their places; the others' provisional places count everyone (5 and 6 won fewer deals)
    (2, [kozyol([1, 2, 3, 4], 1), kozyol([1, 2, 3, 4], 1), kozyol([5, 2, 6, 4], 1)],
     {1: (1, None), 3: (1, None), 5: (None, 3), 6: (None, 3), 2: (3, None), 4: (3, None)}),
])
def test_a_player_not_ranked_yet_has_a_provisional_place(min_matches: int, played: list[Played],
                                                         expected: dict[int, tuple[int | None, int | None]]):
    table = standings("kozyol", played, min_matches)
    assert {row.player: (row.place, row.provisional) for row in table} == expected
    assert all((row.place is None) == (row.provisional is not None) for row in table)
    tally = Tally("kozyol")
    for one in played:
        tally.add(one.digest)
    assert tally.standings(min_matches) == table


def test_provisional_places_count_everyone_ahead_a_tie_sharing_its_place():
    assert provisional_places({}) == {}
    assert provisional_places({9: (1.0,), 8: (1.0,), 7: (1.0,)}) == {9: 1, 8: 1, 7: 1}
    assert provisional_places({1: (0.0, -3.0), 2: (0.0, -1.0), 3: (0.5, 0.0)}) == {1: 1, 2: 2, 3: 3}


# -- the pages, the PDFs and the API ----------------------------------------------------------------------------


def place_cells(page: str) -> dict[str, str]:
    """Each player of the page's first standings table: the place column as read (1*: provisional)."""
    table = page.split('<table class="sheet club-table standings">', 1)[1].split("</table>", 1)[0]
    return {seen(cells[1]): re.sub(r"<[^>]+>", "", cells[0]).strip() for cells in
            (re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in table.split("<tr")[2:])}


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_the_club_page_marks_provisional_places_in_each_language(early: Early, lang: str):
    page = early.page(f"/c/{early.id}?season={early.season}", lang)
    assert place_cells(page) == {"Ann": "1*", "Cid": "1*", "Bob": "3*", "Dee": "3*"}
    assert NOTE[lang] in seen(page)
    assert 'title="' in page.split('class="provisional"', 1)[1][:40]


def test_the_api_gives_provisional_places_beside_the_place(early: Early, document: dict):
    answer = early.client.get(f"{early.url}/standings?season={early.season}")
    check_answer(document, f"{API}/clubs/{{club_id}}/standings", "GET", answer)
    rows = answer.get_json()["games"]["kozyol"]["standings"]
    assert {row["name"]: (row["ranked"], row["place"], row["provisional"]) for row in rows} == {
        "Ann": (False, None, 1), "Cid": (False, None, 1), "Bob": (False, None, 3), "Dee": (False, None, 3)}


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_the_standings_pdf_marks_provisional_places(early: Early, tmp_path: Path, lang: str):
    answer = early.client.get(f"/c/{early.id}/standings.pdf?season={early.season}", headers={"Accept-Language": lang})
    printed = " ".join(text(save(tmp_path, answer.data)).split())
    assert re.search(r"1\* Ann", printed) and re.search(r"3\* Bob", printed), printed
    assert {"en": "their place provisional (*)", "fr": "leur place est provisoire (*)",
            "ru": "место предварительное (*)"}[lang] in printed


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_the_evenings_results_mark_provisional_places(early: Early, tmp_path: Path, document: dict, lang: str):
    day = today().isoformat()
    answer = early.client.get(f"{early.url}/evenings/{day}/results")
    check_answer(document, f"{API}/clubs/{{club_id}}/evenings/{{evening_id}}/results", "GET", answer)
    rows = answer.get_json()["places"]["kozyol"]
    assert {row["name"]: (row["place"], row["provisional"], row["before_provisional"]) for row in rows} == {
        "Ann": (None, 1, None), "Cid": (None, 1, None), "Bob": (None, 3, None), "Dee": (None, 3, None)}
    page = seen(early.page(f"/c/{early.id}/evenings/{day}/results", lang))
    assert re.search(r"1 \* Ann 1 –", page) and re.search(r"3 \* Bob 1 –", page), page
    if lang == "en":
        assert NOTE[lang] in page
    else:
        assert_translated(page, lang, [NOTE[lang]], "results")
    pdf = early.client.get(f"/c/{early.id}/evenings/{day}/results.pdf", headers={"Accept-Language": lang})
    printed = " ".join(text(save(tmp_path, pdf.data)).split())
    assert re.search(r"1\* Ann 1 –", printed) and NOTE[lang] in printed, printed


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_a_season_nobody_qualified_in_names_its_provisional_leaders(early: Early, lang: str):
    closed = early.client.post(f"{early.url}/seasons/{early.season}/close", json={"early": True}, headers=early.key)
    assert closed.status_code == 200, closed.get_json()
    assert closed.get_json()["champions"] == {"kozyol": []}
    assert closed.get_json()["provisional_champions"] == {"kozyol": ["Ann", "Cid"]}
    hall = early.client.get(f"{early.url}/hall-of-fame").get_json()["seasons"]
    assert [(one["champions"], one["provisional_champions"]) for one in hall] == [
        ({"kozyol": []}, {"kozyol": ["Ann", "Cid"]})]
    page = seen(early.page(f"/c/{early.id}", lang))
    colon = " :" if lang == "fr" else ":"  # French sets a no-break space before it
    assert f"Kozyol{colon} Ann, Cid ({MARK[lang]})" in page.replace("Козёл", "Kozyol"), page
    season_page = seen(early.page(f"/c/{early.id}?season={early.season}", lang))
    assert f"Ann, Cid ({MARK[lang]})" in season_page


# -- closing before the last day --------------------------------------------------------------------------------


def close_form(client: FlaskClient, club: str, season: int, early: bool):
    data = {"close-csrf_token": csrf_token(client, "/clubs/new"), **({"close-early": "yes"} if early else {})}
    return client.post(f"/c/{club}/admin/seasons/{season}/close", data=data)


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_closing_before_the_last_day_asks_first(early: Early, lang: str):
    ends = today() + timedelta(days=60)
    page = early.page(f"/c/{early.id}/admin/seasons", lang)
    question = {"en": "Close it before its last day?", "fr": "La clore avant son dernier jour ?",
                "ru": "Закрыть его раньше последнего дня?"}[lang]
    assert question in seen(page) and 'name="close-early"' in page
    refused = close_form(early.client, early.id, early.season, early=False)
    assert refused.status_code == 422
    assert f"Cup runs until {ends.isoformat()}. Closing it today makes today its last day" in seen(refused.text)
    assert early.client.get(f"{early.url}").get_json()["seasons"][0]["closed_at"] is None
    assert close_form(early.client, early.id, early.season, early=True).status_code == 302
    season = early.client.get(f"{early.url}").get_json()["seasons"][0]
    assert season["closed_at"] is not None and season["ends"] == today().isoformat()
    assert "close-early" not in early.page(f"/c/{early.id}/admin/seasons")  # closed: nothing to ask


def test_a_season_that_has_not_started_is_not_closed(client: FlaskClient, document: dict):
    later = Early(client, starts=5, ends=30)
    for body in ({}, {"early": True}):
        answer = client.post(f"{later.url}/seasons/{later.season}/close", json=body, headers=later.key)
        check_answer(document, f"{API}/clubs/{{club_id}}/seasons/{{season_id}}/close", "POST", answer)
        assert error_of(answer, 422)["fields"]["season"] == "This season has not started yet: change its days instead."
    error_of(client.post(f"{later.url}/seasons/{later.season}/close", json={"early": "yes"}, headers=later.key), 422)


# -- a season's days --------------------------------------------------------------------------------------------


def days_form(client: FlaskClient, club: str, season: int, **fields: str):
    data = {"days-csrf_token": csrf_token(client, "/clubs/new"), **{f"days-{k}": v for k, v in fields.items()}}
    return client.post(f"/c/{club}/admin/seasons/{season}", data=data)


def value_of(page: str, field: str) -> str:
    return re.search(rf'<input[^>]*id="days-{field}"[^>]*value="([^"]*)"', page)[1]  # type: ignore[index]


def test_a_seasons_own_page_shows_its_days_and_changes_them(early: Early):
    page = early.page(f"/c/{early.id}/admin/seasons/{early.season}")
    starts, ends = today() - timedelta(days=10), today() + timedelta(days=60)
    assert (value_of(page, "name"), value_of(page, "starts"), value_of(page, "ends")) == (
        "Cup", starts.isoformat(), ends.isoformat())
    assert f"/c/{early.id}/admin/seasons/{early.season}" in early.page(f"/c/{early.id}/admin/seasons")
    done = days_form(early.client, early.id, early.season, name="Spring cup", starts=starts.isoformat(),
                     ends=(today() + timedelta(days=5)).isoformat())
    assert done.status_code == 302
    season = early.client.get(early.url).get_json()["seasons"][0]
    assert (season["name"], season["ends"]) == ("Spring cup", (today() + timedelta(days=5)).isoformat())


@pytest.mark.parametrize("fields, field, reason", [
    ({"name": "Cup", "starts": "2027-05-01", "ends": "2027-04-01"}, "ends",
     "A season ends on or after the day it starts."),
    ({"name": "", "starts": "2027-05-01", "ends": "2027-06-01"}, "name", "Give it a name."),
    ({"name": "Cup", "starts": "2027-02-30", "ends": "2027-06-01"}, "starts", None),
])
def test_a_refused_change_comes_back_with_its_reason_and_what_was_typed(early: Early, fields: dict[str, str],
                                                                          field: str, reason: str | None):
    refused = days_form(early.client, early.id, early.season, **fields)
    assert refused.status_code == 422
    said = reasons(refused.text)
    assert field in said and (reason is None or said[field] == reason)
    assert value_of(refused.text, "name") == fields["name"] and value_of(refused.text, "ends") == fields["ends"]
    assert early.client.get(early.url).get_json()["seasons"][0]["name"] == "Cup"


def test_a_closed_season_keeps_its_days_and_only_the_admin_changes_them(early: Early, app: Flask,
                                                                         document: dict):
    url = f"{API}/clubs/{{club_id}}/seasons/{{season_id}}"
    moved = early.client.put(f"{early.url}/seasons/{early.season}", json={"ends": "2099-12-31"}, headers=early.key)
    check_answer(document, url, "PUT", moved)
    assert moved.status_code == 200 and moved.get_json()["ends"] == "2099-12-31"
    check_answer(document, url, "PUT", bad := early.client.put(
        f"{early.url}/seasons/{early.season}", json={"starts": "2100-01-01"}, headers=early.key))
    assert error_of(bad, 422)["fields"]["ends"] == "A season ends on or after the day it starts."
    error_of(early.client.put(f"{early.url}/seasons/{early.season}", json={"ends": "2099-12-31"}), 401)
    error_of(early.client.put(f"{early.url}/seasons/999999", json={}, headers=early.key), 404)
    assert early.client.post(f"{early.url}/seasons/{early.season}/close", json={"early": True},
                             headers=early.key).status_code == 200
    refused = days_form(early.client, early.id, early.season, name="Cup", starts="2020-01-01",
                        ends=today().isoformat())
    assert refused.status_code == 422
    assert reasons(refused.text)["starts"] == "This season is closed: reopen it to change its days."
    renamed = early.client.put(f"{early.url}/seasons/{early.season}", json={"name": "Cup 2027"}, headers=early.key)
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Cup 2027"
    assert app.test_client().get(f"/c/{early.id}/admin/seasons/{early.season}").status_code == 403


def test_a_season_closed_before_provisional_places_were_kept_names_its_leaders_too(early: Early, app: Flask):
    from scorekeeper.db import db
    from scorekeeper.models import Season

    assert early.client.post(f"{early.url}/seasons/{early.season}/close", json={"early": True},
                             headers=early.key).status_code == 200
    with app.app_context():
        season = db.session.get(Season, early.season)
        final = dict(season.final)
        for row in final["games"]["kozyol"]["standings"]:
            del row["provisional"]  # as a snapshot kept before them
        season.final = final
        db.session.commit()
    hall = early.client.get(f"{early.url}/hall-of-fame").get_json()["seasons"]
    assert hall[0]["provisional_champions"] == {"kozyol": ["Ann", "Cid"]}
    rows = early.client.get(f"{early.url}/standings?season={early.season}").get_json()["games"]["kozyol"]["standings"]
    assert {row["name"]: row["provisional"] for row in rows} == {"Ann": 1, "Cid": 1, "Bob": 3, "Dee": 3}
