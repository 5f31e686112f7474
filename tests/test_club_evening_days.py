"""A round's matches belong to the planned evening they were drawn for, whatever the clock says: a round confirmed
after midnight, or drawn the day before (cards printed early), is still that evening's, in the club's list of
evenings, in the evening's results (its winners and places) and after the club's time zone changes. A match of no
round keeps the day it was started on."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask import Flask
from flask.testing import FlaskClient

from helpers.clock import matches_started_at
from helpers.clubs import QUICK, TEAM_1_LOSES, new_club
from scorekeeper.club import evenings, rounds, service as clubs
from scorekeeper.match import matches

EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
PARIS = ZoneInfo("Europe/Paris")
THURSDAY = date(2027, 10, 14)
API = "/api/v1/clubs"


def at(day: int, hour: int, minute: int) -> datetime:
    """A moment of October 2027 in Paris, where the club plays."""
    return datetime(2027, 10, day, hour, minute, tzinfo=PARIS)


def club_with_evening(app: Flask, client: FlaskClient) -> str:
    """Eight players, all of them at Thursday's evening; Kozyol played to one deal; placed from one match."""
    club = new_club(client)
    with app.app_context():
        found = clubs.find(club)
        clubs.set_rules(found, 1, {"kozyol": QUICK}, "Europe/Paris")
        for name in EIGHT:
            clubs.add_player(found, name)
        evening = evenings.schedule(found, THURSDAY, "20:00", "", "", name="Thursday")[0]
        for player in clubs.roster(found):
            evenings.mark_present(found, evening, player.id, True)
    return club


def play_round(app: Flask, club: str, moment: datetime, seed: int) -> None:
    """Draw and confirm the evening's next round at this moment; each table then plays its one deal."""
    with app.app_context():
        found = clubs.find(club)
        evening = evenings.planned(found, since=date(2027, 1, 1))[0]
        with matches_started_at(moment):
            _seed, drawn = rounds.propose(found, evening, "kozyol", seed)
            rounds.confirm(found, evening, drawn, seed)
        for _table, match in rounds.rounds_of(evening)[-1][1]:
            matches.record(match.public_id, TEAM_1_LOSES)


def evenings_listed(client: FlaskClient, club: str) -> dict[str, int]:
    answer = client.get(f"{API}/{club}/evenings")
    assert answer.status_code == 200
    return {evening["day"]: len(evening["matches"]) for evening in answer.get_json()["evenings"]}


def results(client: FlaskClient, club: str, day: str) -> Any:
    return client.get(f"{API}/{club}/evenings/{day}/results")


def test_a_round_confirmed_after_midnight_is_still_the_evenings(app: Flask, client: FlaskClient):
    club = club_with_evening(app, client)
    play_round(app, club, at(14, 22, 30), 1)
    play_round(app, club, at(15, 0, 20), 2)
    assert evenings_listed(client, club) == {"2027-10-14": 4}
    answer = results(client, club, "2027-10-14")
    assert answer.status_code == 200
    made = answer.get_json()
    assert [one["number"] for one in made["rounds"]] == [1, 2]
    assert {row["name"]: row["matches"] for row in made["places"]["kozyol"]} == dict.fromkeys(EIGHT, 2)
    assert results(client, club, "2027-10-15").status_code == 404  # no evening of its own
    page = client.get(f"/c/{club}/evenings/2027-10-14/results").text
    assert "Round 2" in page and "Other matches of the day" not in page
    assert client.get(f"/c/{club}/evenings/2027-10-15/results").status_code == 404  # no winners of its own


def test_a_round_drawn_the_day_before_is_the_planned_evenings(app: Flask, client: FlaskClient):
    club = club_with_evening(app, client)
    play_round(app, club, at(13, 23, 0), 1)  # the cards printed the evening before
    play_round(app, club, at(14, 21, 0), 2)
    assert evenings_listed(client, club) == {"2027-10-14": 4}
    made = results(client, club, "2027-10-14").get_json()
    assert [one["number"] for one in made["rounds"]] == [1, 2]
    assert {row["name"]: row["matches"] for row in made["places"]["kozyol"]} == dict.fromkeys(EIGHT, 2)
    assert results(client, club, "2027-10-13").status_code == 404


def test_a_new_time_zone_leaves_a_round_on_its_evening_and_moves_a_match_of_no_round(app: Flask,
                                                                                       client: FlaskClient):
    club = club_with_evening(app, client)
    play_round(app, club, at(14, 23, 30), 1)
    with app.app_context():
        found = clubs.find(club)
        with matches_started_at(at(14, 23, 45)):  # a casual table of four, started from the club page
            casual, _key = clubs.start_match(found, "kozyol", EIGHT[:4], QUICK)
        matches.record(casual.public_id, TEAM_1_LOSES)
    assert evenings_listed(client, club) == {"2027-10-14": 3}
    with app.app_context():
        clubs.set_time_zone(clubs.find(club), "Asia/Tokyo")  # 23:45 in Paris is 06:45 the next day there
    assert evenings_listed(client, club) == {"2027-10-15": 1, "2027-10-14": 2}
