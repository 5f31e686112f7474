"""One address cannot spend a club's budget, and strangers never refuse the club's admin or its proven members.

A club's matches and PDFs count per club (its phones share the address of its Wi-Fi). A stranger's now count
first per club and address, well below the club's total, and a request refused there counts nowhere. The
admin (admin key in the phone or as the API's bearer) and proven members (their member link, kept by the phone
or sent as Club-Member-Key) count in buckets of their own. Attendance answers count per club and address and
per address over every club, once recorded. The limits are set low here; the addresses are the documentation
range (192.0.2.0/24), given to the test client, never contacted.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer, error_of
from helpers.apps import apps
from helpers.clubs import QUICK, ahead, member_key
from helpers.forms import csrf_token
from helpers.matches import PLAYERS
from helpers.openapi import check_answer
from scorekeeper.web.api.openapi import document

LOW = {
    "RATELIMIT_CLUB_MATCHES": "4 per minute",
    "RATELIMIT_CLUB_MATCHES_PER_ADDRESS": "2 per minute",
    "RATELIMIT_PDFS": "3 per minute",
    "RATELIMIT_CLUB_PDFS_PER_ADDRESS": "2 per minute",
    "RATELIMIT_ANSWERS": "3 per minute",
    "RATELIMIT_CLUB_ANSWERS_PER_ADDRESS": "2 per minute",
    "RATELIMIT_NEW_CLUBS": "20 per minute",
    "PDF_CACHE_BYTES": "0",  # every download renders, and so counts
}
TOO_MANY = "Too many requests from this connection in a short time."
MATCHES = "/api/v1/clubs/{club_id}/matches"
ANSWERS = "/api/v1/clubs/{club_id}/planned-evenings/{evening_id}/answers"


@pytest.fixture
def app(database_url: str, tmp_path: Path, monkeypatch) -> Iterator[Flask]:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    with apps(database_url, SECRET_KEY="limits", MIGRATE_ON_START=True, RATELIMIT_ENABLED=True, **LOW) as make:
        yield make()


def phone(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def new_club(client: FlaskClient, *players: str) -> dict[str, Any]:
    """A club made through the API, with these players on its roster; its admin key, and the players' ids."""
    made = client.post("/api/v1/clubs", json={"name": "Les Dimanches"})
    assert made.status_code == 201, made.get_json()
    club = made.get_json()
    club["players"] = {}
    for name in players:
        added = client.post(f"/api/v1/clubs/{club['id']}/players", json={"name": name}, headers=bearer(club["admin_key"]))
        assert added.status_code == 201, added.get_json()
        club["players"][name] = added.get_json()["id"]
    return club


def as_admin(client: FlaskClient, club: dict[str, Any]) -> FlaskClient:
    """The phone opens the club's admin link: it holds the admin key from now on."""
    assert client.get(f"/c/{club['id']}/join/{club['admin_key']}").status_code == 302
    return client


def start(client: FlaskClient, club: dict[str, Any], headers: dict[str, str] | None = None):
    return client.post(f"/api/v1/clubs/{club['id']}/matches", json={"game": "kozyol", "players": PLAYERS,
                                                                     "options": QUICK}, headers=headers or {})


def start_on_the_page(client: FlaskClient, club: dict[str, Any]):
    """The club's new-match form, the players picked from the roster (the token from a page outside these counts)."""
    token = csrf_token(client, "/clubs/new")
    picks = {f"players-{seat}": name for seat, name in enumerate(PLAYERS)}
    return client.post(f"/c/{club['id']}/new/kozyol", data={"csrf_token": token, **picks, "target": "2"})


def retry_after(answer) -> int:
    seconds = int(answer.headers["Retry-After"])
    assert 1 <= seconds <= 60
    return seconds


def refused_json(answer, path: str) -> None:
    """A 429 from the API: Retry-After, and the API's error shape as its OpenAPI document says for path."""
    check_answer(document(), path, "POST", answer)
    error = error_of(answer, 429)
    seconds = retry_after(answer)
    assert error["message"].startswith(TOO_MANY) and str(seconds) in error["message"] and error["fields"] == {}


def refused_page(answer) -> None:
    """A 429 page: Retry-After, and the sentence saying when to try again."""
    assert answer.status_code == 429 and answer.mimetype == "text/html"
    seconds = retry_after(answer)
    assert TOO_MANY in answer.text and f"Please try again in {seconds} seconds." in answer.text


# -- PDFs ------------------------------------------------------------------------------------------------


def tonight_with_a_round(app: Flask, club: dict[str, Any]) -> int:
    """Today's evening, everyone present and round 1 confirmed (one Kozyol table): its id."""
    from scorekeeper.club import evenings, rounds, service as clubs

    with app.app_context():
        found = clubs.find(club["id"])
        evening = evenings.schedule(found, clubs.today(found), "19:30", "", "")[0]
        for player in club["players"].values():
            evenings.mark_present(found, evening, player, True)
        seed, drawn = rounds.propose(found, evening, "kozyol", 4)
        rounds.confirm(found, evening, drawn, seed, number=1)
        return evening.id


def test_a_strangers_pdfs_leave_the_admins_table_cards_alone(app: Flask):
    admin = phone(app, "192.0.2.60")
    club = new_club(admin, *PLAYERS)
    as_admin(admin, club)
    evening = tonight_with_a_round(app, club)
    results = f"/c/{club['id']}/evenings/{evening}/results.pdf"
    stranger = phone(app, "192.0.2.61")
    answers = [stranger.get(results) for _ in range(4)]
    assert [answer.status_code for answer in answers] == [200, 200, 429, 429]  # the address's own 2 a minute
    refused_page(answers[-1])
    # Its refused downloads cost the club nothing: another address has the club's third PDF, then its total is spent.
    other = phone(app, "192.0.2.62")
    assert [other.get(results).status_code for _ in range(2)] == [200, 429]
    # The admin's cards, in the browser and through the API, from any address: never the strangers' count.
    assert admin.get(f"/c/{club['id']}/evenings/{evening}/cards.pdf").status_code == 200
    api = f"/api/v1/clubs/{club['id']}/evenings/{evening}/cards.pdf"
    assert phone(app, "192.0.2.61").get(api, headers=bearer(club["admin_key"])).status_code == 200


# -- club matches ----------------------------------------------------------------------------------------


def test_a_strangers_club_matches_refuse_neither_another_address_nor_the_admin(app: Flask):
    club = new_club(phone(app, "192.0.2.70"), *PLAYERS)
    stranger = phone(app, "192.0.2.71")
    started = [start(stranger, club) for _ in range(4)]
    assert [answer.status_code for answer in started] == [201, 201, 429, 429]  # the address's own 2 a minute
    refused_json(started[-1], MATCHES)
    # Another address starts the club's two matches left: the stranger's refused ones were not counted.
    other = phone(app, "192.0.2.72")
    assert [start(other, club).status_code for _ in range(3)] == [201, 201, 429]
    refused_json(start(other, club), MATCHES)  # the club's total, spent by strangers
    # The admin, even from a stranger's spent address: the club's own bucket, as large as the club's total.
    admin = as_admin(phone(app, "192.0.2.71"), club)
    assert start_on_the_page(admin, club).status_code == 302
    assert [start(stranger, club, bearer(club["admin_key"])).status_code for _ in range(3)] == [201, 201, 201]
    refused_json(start(stranger, club, bearer(club["admin_key"])), MATCHES)  # a leaked admin key is bounded too
    # A wrong admin key proves nothing: the stranger's own count still refuses it.
    refused_json(start(stranger, club, bearer("guess")), MATCHES)


def test_a_stranger_cannot_spend_a_proven_members_budget(app: Flask):
    wifi = "192.0.2.80"  # the club's Wi-Fi: the stranger and the member behind one address
    club = new_club(phone(app, "192.0.2.79"), *PLAYERS)
    key = member_key(app, club["id"], club["players"]["Ann"])
    stranger, another = phone(app, wifi), phone(app, "192.0.2.81")
    assert [start(stranger, club).status_code for _ in range(3)] == [201, 201, 429]
    assert [start(another, club).status_code for _ in range(3)] == [201, 201, 429]  # the club's total is spent
    member = phone(app, wifi)
    assert member.get(f"/c/{club['id']}/member/{key}").status_code == 302  # the member link, kept by this phone
    assert start_on_the_page(member, club).status_code == 302
    api = phone(app, wifi)
    assert start(api, club, {"Club-Member-Key": key}).status_code == 201
    # The member's own bucket (as large as one address's), the page and the API together: a leaked link is bounded.
    refused_json(start(api, club, {"Club-Member-Key": key}), MATCHES)
    refused_page(start_on_the_page(member, club))
    # Another member's bucket is their own.
    assert start(api, club, {"Club-Member-Key": member_key(app, club["id"], club["players"]["Bob"])}).status_code == 201


# -- attendance answers ----------------------------------------------------------------------------------


def planned(client: FlaskClient, club: dict[str, Any]) -> int:
    made = client.post(f"/api/v1/clubs/{club['id']}/planned-evenings", json={"day": ahead(3).isoformat()},
                       headers=bearer(club["admin_key"]))
    assert made.status_code == 201, made.get_json()
    return made.get_json()["evenings"][0]["id"]


def test_attendance_answers_over_the_limit_answer_429_with_retry_after(app: Flask):
    admin = phone(app, "192.0.2.89")
    first, second = new_club(admin, *PLAYERS), new_club(admin, *PLAYERS)
    urls = [f"/api/v1/clubs/{club['id']}/planned-evenings/{planned(admin, club)}/answers" for club in (first, second)]
    stranger = phone(app, "192.0.2.90")
    ann = first["players"]["Ann"]
    for _ in range(3):  # refused answers record nothing, and cost nothing
        error_of(stranger.post(urls[0], json={"player": ann, "coming": "yes"}), 422)
    said = stranger.post(urls[0], json={"player": ann, "coming": True})
    assert said.status_code == 200, said.get_json()
    again = {"player": ann, "coming": False, "answer_key": said.get_json()["answer_key"]}
    assert stranger.post(urls[0], json=again).status_code == 200
    refused_json(stranger.post(urls[0], json=again), ANSWERS)  # 2 a minute per club and address
    # At another club the address has one answer left of its 3 a minute over every club.
    assert stranger.post(urls[1], json={"player": second["players"]["Ann"], "coming": True}).status_code == 200
    refused_json(stranger.post(urls[1], json={"player": second["players"]["Bob"], "coming": True}), ANSWERS)
    # Another address has its own count.
    assert phone(app, "192.0.2.91").post(urls[0], json={"player": first["players"]["Bob"],
                                                        "coming": True}).status_code == 200
    # The admin and a proven member behind the stranger's spent address: their own buckets.
    assert stranger.post(urls[0], json={"player": ann, "coming": True},
                         headers=bearer(first["admin_key"])).status_code == 200
    member = phone(app, "192.0.2.90")
    assert member.get(f"/c/{first['id']}/member/{member_key(app, first['id'], first['players']['Cid'])}").status_code == 302
    evening = urls[0].split("/")[-2]
    token = csrf_token(member, "/clubs/new")
    page = f"/c/{first['id']}/evenings/{evening}/answer"
    assert [member.post(page, data={"csrf_token": token, "coming": coming}).status_code
            for coming in ("in", "out")] == [302, 302]
    refused_page(member.post(page, data={"csrf_token": token, "coming": "in"}))  # the member's own 2 a minute


# -- settings ------------------------------------------------------------------------------------------


def test_a_mistyped_per_address_limit_stops_the_start(database_url: str, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    with apps(database_url, RATELIMIT_ENABLED=True) as make:
        for setting in ("RATELIMIT_CLUB_MATCHES_PER_ADDRESS", "RATELIMIT_CLUB_PDFS_PER_ADDRESS", "RATELIMIT_ANSWERS",
                        "RATELIMIT_CLUB_ANSWERS_PER_ADDRESS"):
            with pytest.raises(ValueError, match="9 a minute"):
                make(**{setting: "9 a minute"})


def test_the_defaults_leave_one_address_well_below_the_clubs_total():
    from limits import parse_many

    from scorekeeper.config import RATE_LIMITS

    def per_minute(setting: str) -> int:
        return next(item.amount for item in parse_many(RATE_LIMITS[setting]) if item.GRANULARITY.name == "minute")

    for total, per_address in (("RATELIMIT_CLUB_MATCHES", "RATELIMIT_CLUB_MATCHES_PER_ADDRESS"),
                               ("RATELIMIT_PDFS", "RATELIMIT_CLUB_PDFS_PER_ADDRESS"),
                               ("RATELIMIT_ANSWERS", "RATELIMIT_CLUB_ANSWERS_PER_ADDRESS")):
        assert 5 <= per_minute(per_address) <= per_minute(total) // 3, per_address
