"""What a kept page or a kept compressed answer shows is in its key.

A club match's watched page and its state show what its club decides: how many agreements lock it, whether
its evening is closed, the club's name and house rules. None of these raises the match's version, so a
page or a compressed answer kept by the match's version alone went on showing the club as it was. After
any run of club-level changes, a kept page must equal a page drawn afresh, and a compressed state the plain one.
"""

from __future__ import annotations

import gzip
import json
import random
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.clubs import TEAM_0_LOSES
from helpers.matches import PLAYERS
from scorekeeper.club import agreements, evening_results, evenings, service as clubs
from scorekeeper.match import matches
from scorekeeper.web.match import pages as match_pages

LANGUAGES = ["en", "fr", "ru"]


def club_match(app: Flask) -> tuple[str, str]:
    """A club with an evening today and a finished Kozyol series of that day: the club's and the match's ids."""
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        evenings.schedule(club, clubs.today(club), "19:30", "", "")
        match, _key = clubs.start_match(club, "kozyol", PLAYERS, {"target": 2})
        matches.record(match.public_id, TEAM_0_LOSES)
        return club.public_id, match.public_id


def change(app: Flask, public_id: str, rng: random.Random) -> str:
    """One club-level change, at random; what it was."""
    with app.app_context():
        club = clubs.find(public_id)
        what = rng.choice(["agreements", "close", "reopen", "rules"])
        if what == "agreements":
            agreements.set_rules(club, rng.randint(0, 4), rng.choice([False, True]))
        elif what == "close":
            (evening,) = evenings.planned(club, since=clubs.today(club))
            if evening.closed_at is None:
                evening_results.close_evening(club, evening)
        elif what == "reopen":
            (evening,) = evenings.planned(club, since=clubs.today(club))
            if evening.closed_at is not None:
                evening_results.reopen_evening(club, evening)
        else:
            clubs.set_rules(club, rng.randint(1, 5), rng.choice([{}, {"kozyol": {"target": rng.choice([2, 3])}}]))
        return what


def page(client: FlaskClient, public_id: str, language: str) -> str:
    answer = client.get(f"/m/{public_id}", headers={"Accept-Language": language})
    assert answer.status_code == 200
    return re.sub(r"\d+ ms", "", answer.text)


def drawn_afresh(client: FlaskClient, public_id: str, language: str) -> str:
    """The page drawn now; then every language's page kept again, as it is now, for the next change to age."""
    match_pages.WATCHED.clear()  # this worker's pages and the folder's
    fresh = page(client, public_id, language)
    for other in LANGUAGES:
        page(client, public_id, other)
    return fresh


@pytest.mark.parametrize("seed", range(6))
def test_a_kept_page_of_a_club_match_equals_one_drawn_afresh_after_club_changes(app: Flask, seed: int):
    rng = random.Random(seed)
    public_id, match_id = club_match(app)
    watcher = app.test_client()
    for language in LANGUAGES:
        page(watcher, match_id, language)  # kept
    done = []
    for _ in range(5):
        done.append(change(app, public_id, rng))
        language = rng.choice(LANGUAGES)
        kept = page(watcher, match_id, language)
        assert kept == drawn_afresh(watcher, match_id, language), done


def test_the_closed_note_reaches_a_watcher_of_a_kept_page(app: Flask):
    public_id, match_id = club_match(app)
    watcher = app.test_client()
    assert 'id="evening-closed"' not in page(watcher, match_id, "en")
    with app.app_context():
        club = clubs.find(public_id)
        (evening,) = evenings.planned(club, since=clubs.today(club))
        evening_results.close_evening(club, evening)
    assert 'id="evening-closed"' in page(watcher, match_id, "en")


@pytest.mark.parametrize("seed", range(4))
def test_a_kept_compressed_state_equals_the_plain_one_after_club_changes(app: Flask, seed: int):
    rng = random.Random(seed)
    public_id, match_id = club_match(app)
    phone = app.test_client()
    for _ in range(6):
        zipped = phone.get(f"/api/v1/matches/{match_id}", headers={"Accept-Encoding": "gzip"})
        assert zipped.status_code == 200
        body = gzip.decompress(zipped.data) if zipped.headers.get("Content-Encoding") == "gzip" else zipped.data
        plain = phone.get(f"/api/v1/matches/{match_id}", headers={"Accept-Encoding": "identity"})
        assert json.loads(body) == plain.get_json()
        change(app, public_id, rng)
