"""A proposal drawn once: kept under everything it was drawn from, so a reload, a swap or its confirmation by seed
does not search again, while a change to who is there, to the season or to tonight's rounds draws afresh; and the
search runs off the gevent hub, so a gevent worker answers its other requests while it draws.

Draws are counted where the store calls the engine (``seating.draw``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.club_nights import NINE, ApiNight
from helpers.clubs import admin_post, new_club

ROOT = Path(__file__).resolve().parents[1]
API = "/api/v1"


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Every search the store asks the seating engine for: (present, games, seed) each."""
    from scorekeeper.club.engine import seating

    made: list[tuple[Any, ...]] = []
    real = seating.draw

    def counted(present, game, history, seed, tonight=(), **kwargs):
        made.append((sorted(present), game, seed))
        return real(present, game, history, seed, tonight, **kwargs)

    monkeypatch.setattr(seating, "draw", counted)
    return made


class Night(ApiNight):
    """The club's evening, each proposal's answer read as JSON."""

    def __init__(self, client: FlaskClient):
        super().__init__(client, "Kept proposals")

    def post(self, tail: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self.client.post(f"{API}/clubs/{self.id}/planned-evenings/{self.evening}/rounds{tail}", json=body,
                                  headers=self.admin)
        assert answer.status_code in (200, 201), answer.get_json()
        return answer.get_json()


@pytest.fixture
def night(client: FlaskClient) -> Night:
    return Night(client)


def seats(state: dict[str, Any]) -> list[list[int]]:
    return [table["seat_ids"] for table in state["tables"]]


def test_a_swap_and_the_confirmation_by_seed_take_the_kept_proposal(night: Night, draws):
    drawn = night.post("/proposal", {"game": "kozyol", "seed": 42})
    assert len(draws) == 1
    assert night.post("/proposal", {"game": "kozyol", "seed": 42}) == drawn
    out, seated = drawn["sat_out"][0], drawn["tables"][1]["seat_ids"][3]
    swapped = night.post("/proposal", {"game": "kozyol", "seed": 42, "swaps": [[out, seated]]})
    assert swapped["sat_out"] == [seated] and swapped["tables"][1]["seat_ids"][3] == out
    assert len(draws) == 1
    made = night.post("", {"game": "kozyol", "seed": 42, "swaps": [[out, seated]], "number": 1})
    assert seats(made) == seats(swapped) and made["sat_out"] == [seated]
    assert len(draws) == 1


def test_another_seed_or_other_games_are_drawn(night: Night, draws):
    night.post("/proposal", {"game": "kozyol", "seed": 1})
    night.post("/proposal", {"game": "kozyol", "seed": 2})
    night.post("/proposal", {"game": "barbu", "seed": 2})
    night.post("/proposal", {"game": ["barbu", "kozyol"], "seed": 2})
    night.post("/proposal", {"game": "kozyol", "seed": 1})
    assert [(game, seed) for _present, game, seed in draws] == [
        ("kozyol", 1), ("kozyol", 2), ("barbu", 2), (["barbu", "kozyol"], 2)]


def test_someone_leaving_or_coming_back_is_drawn_afresh(night: Night, draws):
    drawn = night.post("/proposal", {"game": "kozyol", "seed": 7})
    gone = drawn["tables"][0]["seat_ids"][0]
    night.present(gone, False)
    again = night.post("/proposal", {"game": "kozyol", "seed": 7})
    assert len(draws) == 2 and gone not in draws[1][0] and len(draws[1][0]) == 8
    assert gone not in [seat for table in seats(again) for seat in table] + again["sat_out"]
    night.present(gone, True)
    back = night.post("/proposal", {"game": "kozyol", "seed": 7})
    assert len(draws) == 3 and gone in draws[2][0]
    assert gone in [seat for table in seats(back) for seat in table] + back["sat_out"]


def test_a_confirmed_round_or_another_match_of_the_season_is_drawn_afresh(night: Night, draws, app: Flask):
    from scorekeeper.club import service as clubs

    night.post("/proposal", {"game": "kozyol", "seed": 3})
    night.post("", {"game": "kozyol", "seed": 3, "number": 1})
    assert len(draws) == 1
    night.post("/proposal", {"game": "kozyol", "seed": 3})  # round 2: round 1 is tonight's now
    assert len(draws) == 2
    night.post("/proposal", {"game": "kozyol", "seed": 3})
    assert len(draws) == 2
    with app.app_context():
        clubs.start_match(clubs.must_find(night.id), "barbu", NINE[:4])  # a match of the day, outside the rounds
    night.post("/proposal", {"game": "kozyol", "seed": 3})
    assert len(draws) == 3


def test_the_kept_proposals_are_bounded(night: Night, draws):
    from scorekeeper.club import rounds

    for seed in range(rounds.PROPOSALS_KEPT + 3):
        night.post("/proposal", {"game": "barbu", "seed": seed})
    assert len(rounds._proposals) <= rounds.PROPOSALS_KEPT
    night.post("/proposal", {"game": "barbu", "seed": 0})  # the oldest, left out: drawn again
    night.post("/proposal", {"game": "barbu", "seed": rounds.PROPOSALS_KEPT + 2})  # the newest, kept
    assert [seed for _present, _game, seed in draws].count(0) == 2 and len(draws) == rounds.PROPOSALS_KEPT + 4


def test_the_search_runs_through_the_off_hub_mechanism_once(night: Night, draws, monkeypatch: pytest.MonkeyPatch):
    from scorekeeper.club import rounds

    handed: list[int] = []  # for each piece of work handed over, the searches it made

    def recorded(work):
        before = len(draws)
        try:
            return work()
        finally:
            handed.append(len(draws) - before)

    monkeypatch.setattr(rounds, "off_the_hub", recorded)
    night.post("/proposal", {"game": "hearts", "seed": 11})
    night.post("/proposal", {"game": "hearts", "seed": 11, "swaps": [[night.players["Ann"], night.players["Bob"]]]})
    assert handed.count(1) == 1 and sum(handed) == len(draws) == 1


# -- the admin's pages ----------------------------------------------------------------------------------


@pytest.fixture
def page_club(app: Flask, client: FlaskClient) -> tuple[str, int, dict[str, int]]:
    """A club of nine made on the pages (this phone is its admin), today's evening with everyone there."""
    from scorekeeper.club import evenings, service as clubs

    club_id = new_club(client)
    for name in NINE:
        assert admin_post(client, club_id, "players", "add", {"name": name}).status_code == 302
    with app.app_context():
        club = clubs.find(club_id)
        ids = {player.name: player.id for player in clubs.roster(club)}
        evening = evenings.schedule(club, clubs.today(club), "19:30", "", "")[0]
        for player in ids.values():
            evenings.mark_present(club, evening, player, True)
        return club_id, evening.id, ids


def test_the_proposal_page_shown_again_and_swapped_is_not_searched_again(client: FlaskClient, page_club, draws):
    club_id, evening_id, ids = page_club
    drawn = client.get(f"/c/{club_id}/admin/evenings/{evening_id}/rounds/new?game=kozyol")
    where = drawn.headers["Location"]
    seed = int(parse_qs(urlsplit(where).query)["seed"][0])
    assert client.get(where).status_code == 200 and len(draws) == 1
    assert client.get(where).status_code == 200 and len(draws) == 1  # a reload
    swapped = client.get(f"{where}&a={ids['Ann']}&b={ids['Bob']}")  # the menus' swap
    assert swapped.status_code == 302
    page = client.get(swapped.headers["Location"])
    assert page.status_code == 200 and f"swap={ids['Ann']}-{ids['Bob']}" in swapped.headers["Location"]
    assert [(game, used) for _present, game, used in draws] == [("kozyol", seed)]


# -- under gevent ------------------------------------------------------------------------------------


GEVENT_DRAW = r"""
from gevent import monkey

monkey.patch_all()

import json
import sys

import gevent

from scorekeeper.app import create_app
from scorekeeper.club import evenings, roster, rounds, service as clubs
from scorekeeper.club.engine import seating
from scorekeeper.db import db

app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": sys.argv[1], "MIGRATE_ON_START": False,
                  "RATELIMIT_ENABLED": False})
with app.app_context():
    club, _key = clubs.create("Under gevent")
    for number in range(int(sys.argv[2])):
        roster.add_player(club, f"Player {number}")
    evening = evenings.schedule(club, clubs.today(club), "19:30", "", "")[0]
    for player in clubs.roster(club):
        evenings.mark_present(club, evening, player.id, True)
    public_id, evening_id = club.public_id, evening.id
    db.session.remove()

ticks = [0]
during = []  # the hub's ticks while each search ran
real = seating.draw


def counted(*args, **kwargs):
    before = ticks[0]
    try:
        return real(*args, **kwargs)
    finally:
        during.append(ticks[0] - before)


seating.draw = counted


def ticker():
    while True:
        ticks[0] += 1
        gevent.sleep(0.001)


def propose(seed):
    with app.app_context():
        club = clubs.must_find(public_id)
        drawn = rounds.propose(club, evenings.evening_of(club, evening_id), "barbu", seed)[1]
        db.session.remove()
        return drawn


clock = gevent.spawn(ticker)
alone = gevent.spawn(propose, 5)  # nothing else to do meanwhile but the ticker
alone.join()
taps = [gevent.spawn(propose, 6) for _ in range(2)]  # one admin's two taps at once
gevent.joinall([alone, *taps], raise_error=True)
clock.kill()
print(json.dumps({"during": during, "same": taps[0].value == taps[1].value,
                  "seated": sum(len(table.seats) for table in alone.value.tables) + len(alone.value.sat_out)}))
"""


def test_a_gevent_worker_runs_its_other_greenlets_while_it_draws(database_url: str):
    """In a gevent-patched process the search runs in a thread: the hub's ticker goes on meanwhile (were it on the
    hub, not one tick could come between its start and its end). Two taps at once make one search, the second
    waiting for the first's turn and taking what it drew."""
    done = subprocess.run([sys.executable, "-c", GEVENT_DRAW, database_url, "120"], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(found["during"]) == 2 and found["during"][0] > 0, found
    assert found["same"] and found["seated"] == 120


@pytest.fixture(autouse=True)
def _no_kept_proposals() -> Iterator[None]:
    """Each test starts without proposals kept by another (their clubs differ anyway: this keeps counts plain)."""
    from scorekeeper.club import rounds

    rounds._proposals.clear()
    yield
    rounds._proposals.clear()
