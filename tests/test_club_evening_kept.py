"""A closed evening's places stay as they were when it closed: a table's correction of an earlier evening's match
(still open) does not move them, on the page, the PDF or the API. Only the club's admin changing one of the closed
evening's own matches takes them again, and its page says which match and when; reopening follows the matches."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clock import matches_started_at
from helpers.club_matches import FOUR
from helpers.clubs import QUICK, TEAM_0_LOSES, TEAM_1_LOSES
from helpers.i18n import assert_translated, seen
from helpers.pdf import save, text

API = "/api/v1"
FIRST, SECOND = "2027-03-01", "2027-03-08"


class Two:
    """Two evenings of one Kozyol match of Ann, Bob, Cid and Dee each, placed from one match, in no season.

    Evening 1: Ann and Cid win; evening 2: Bob and Dee win. After evening 2 everyone has one goat in two
    matches: all four share first place. Evening 1 corrected the other way, Bob and Dee lead and Ann and Cid
    fall to third."""

    def __init__(self, client: FlaskClient):
        self.client = client
        made = client.post(f"{API}/clubs", json={"name": "Les Dimanches"}).get_json()
        self.id, self.admin = made["id"], bearer(made["admin_key"])
        assert client.put(f"{API}/clubs/{self.id}/rules", json={"min_matches": 1}, headers=self.admin).status_code == 200
        assert client.get(f"/c/{self.id}/join/{made['admin_key']}").status_code == 302  # this phone runs the club
        self.first = self.played(datetime(2027, 3, 1, 20, 0, tzinfo=timezone.utc), TEAM_1_LOSES)
        self.second = self.played(datetime(2027, 3, 8, 20, 0, tzinfo=timezone.utc), TEAM_0_LOSES)
        self.admin_key = made["admin_key"]

    def played(self, moment: datetime, deal: dict[str, Any]) -> dict[str, Any]:
        with matches_started_at(moment):
            match = self.client.post(f"{API}/clubs/{self.id}/matches",
                                     json={"game": "kozyol", "players": FOUR, "options": QUICK}).get_json()
        assert self.client.post(f"{API}/matches/{match['id']}/hands", json=deal,
                                headers=bearer(match["edit_key"])).status_code == 201
        return match

    def places(self, day: str = SECOND) -> dict[str, int]:
        answer = self.client.get(f"{API}/clubs/{self.id}/evenings/{day}/results")
        assert answer.status_code == 200
        return {row["name"]: row["place"] for row in answer.get_json()["places"]["kozyol"]}

    def results(self, day: str = SECOND) -> dict[str, Any]:
        return self.client.get(f"{API}/clubs/{self.id}/evenings/{day}/results").get_json()

    def close(self, day: str = SECOND, method: str = "post") -> None:
        answer = getattr(self.client, method)(f"{API}/clubs/{self.id}/evenings/{day}/close", headers=self.admin)
        assert answer.status_code == 200, answer.get_json()

    def correct(self, match: dict[str, Any], deal: dict[str, Any], admin: bool = False) -> int:
        headers = {**bearer(match["edit_key"]), **({"Club-Admin-Key": self.admin_key} if admin else {})}
        return self.client.put(f"{API}/matches/{match['id']}/hands/1?reason=Misread", json=deal,
                               headers=headers).status_code


@pytest.fixture
def two(client: FlaskClient) -> Two:
    return Two(client)


ALL_FIRST = dict.fromkeys(FOUR, 1)
MOVED = {"Bob": 1, "Dee": 1, "Ann": 3, "Cid": 3}


def test_a_correction_at_an_earlier_evening_leaves_a_closed_evenings_places_as_they_were(two: Two, tmp_path: Path):
    assert two.places() == ALL_FIRST
    two.close()
    assert two.correct(two.first, TEAM_0_LOSES) == 200  # evening 1 is open: its table corrects it
    assert two.places(FIRST) == {"Bob": 1, "Dee": 1, "Ann": 3, "Cid": 3}  # evening 1 follows its matches
    assert two.places() == ALL_FIRST and two.results()["changed_after_close"] == []
    page = two.client.get(f"/c/{two.id}/evenings/{SECOND}/results").text
    rows = [seen(row) for row in page.split('<table class="sheet evening-places"', 1)[1].split("</table>")[0]
            .split("<tr>")[2:]]
    assert sorted(rows) == ["1 Ann 2 1", "1 Bob 2 3", "1 Cid 2 1", "1 Dee 2 3"]  # place, name, matches, before
    assert "changed a match of this evening after it closed" not in seen(page)
    printed = " ".join(text(save(tmp_path, two.client.get(f"/c/{two.id}/evenings/{SECOND}/results.pdf").data)).split())
    assert sorted(re.findall(r"(\d) (Ann|Bob|Cid|Dee) 2 (\d)", printed)) == [
        ("1", "Ann", "1"), ("1", "Bob", "3"), ("1", "Cid", "1"), ("1", "Dee", "3")]


def test_the_admin_changing_one_of_its_own_matches_takes_its_places_again_and_says_so(two: Two):
    two.close()
    assert two.correct(two.first, TEAM_0_LOSES) == 200
    assert two.correct(two.second, TEAM_1_LOSES) == 403  # the closed evening's table may not
    assert two.places() == ALL_FIRST
    assert two.correct(two.second, TEAM_0_LOSES, admin=True) == 200  # the same figures again: the admin's change
    assert two.places() == MOVED  # taken again now, with evening 1 as its table corrected it
    changed = two.results()["changed_after_close"]
    assert [(one["round"], one["table"], one["game"], one["match"]["id"]) for one in changed] == [
        (None, None, "kozyol", two.second["id"])]
    datetime.fromisoformat(changed[0]["at"])
    page = seen(two.client.get(f"/c/{two.id}/evenings/{SECOND}/results").text)
    assert "The club's admin changed a match of this evening after it closed, so its places were taken again" in page
    assert "Kozyol, a match of the day, changed on" in page
    assert two.correct(two.first, TEAM_1_LOSES) == 200  # evening 1 moves again: evening 2 stays as taken
    assert two.places() == MOVED


def test_reopening_follows_the_matches_and_closing_again_keeps_them_anew(two: Two):
    two.close()
    assert two.correct(two.first, TEAM_0_LOSES) == 200
    two.close(method="delete")
    assert two.places() == MOVED and two.results()["changed_after_close"] == []
    two.close()
    assert two.correct(two.first, TEAM_1_LOSES) == 200
    assert two.places() == MOVED


@pytest.mark.parametrize("lang, words", [
    ("fr", ["L’admin du club a modifié une partie de cette soirée après sa clôture", "une partie du jour, modifiée le"]),
    ("ru", ["Администратор клуба изменил партию этого вечера после его закрытия", "партия этого дня: изменена"])])
def test_the_page_says_so_in_each_language(two: Two, app: Flask, lang: str, words: list[str]):
    two.close()
    assert two.correct(two.second, TEAM_0_LOSES, admin=True) == 200
    phone = app.test_client()
    phone.get(f"/language/{lang}")
    assert_translated(seen(phone.get(f"/c/{two.id}/evenings/{SECOND}/results").text), lang, words, "results")


def test_a_club_moved_to_another_server_keeps_its_closed_evenings_places(two: Two):
    two.close()
    assert two.correct(two.first, TEAM_0_LOSES) == 200
    document = two.client.get(f"{API}/clubs/{two.id}/export", headers=two.admin).get_json()
    imported = two.client.post(f"{API}/club-imports", json=document)
    assert imported.status_code == 201, imported.get_json()
    moved = imported.get_json()["id"]
    answer = two.client.get(f"{API}/clubs/{moved}/evenings/{SECOND}/results").get_json()
    assert {row["name"]: row["place"] for row in answer["places"]["kozyol"]} == ALL_FIRST
    assert answer["evening"]["closed_at"] is not None
    again = two.client.get(f"{API}/clubs/{moved}/evenings/{FIRST}/results").get_json()
    assert {row["name"]: row["place"] for row in again["places"]["kozyol"]} == MOVED
