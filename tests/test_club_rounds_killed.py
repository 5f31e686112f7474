"""Confirming a round is all or nothing, even for a server killed halfway: no match is left outside a round,
and confirming again makes the round once. On both databases."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from helpers.api import bearer

API = "/api/v1"
EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
# A server process confirming the round, killed (SIGKILL: nothing of it runs after) as it starts the second table.
KILLED_HALFWAY = """
import json, os, signal, sys
from scorekeeper.app import create_app
from scorekeeper.club import evenings, rounds, service

app = create_app(json.loads(sys.argv[1]))
with app.app_context():
    club = service.find(sys.argv[2])
    evening = evenings.evening_of(club, int(sys.argv[3]))
    seed, drawn = rounds.propose(club, evening, "kozyol", 7)
    started, real = [], service.start_match

    def dying(*args, **kwargs):
        started.append(True)
        if len(started) == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)

    service.start_match = dying
    rounds.confirm(club, evening, drawn, seed)
"""


def club_matches(app: Flask, club: str) -> int:
    from scorekeeper.club import service
    from scorekeeper.db import db
    from scorekeeper.models import Match

    with app.app_context():
        db.session.expire_all()
        return db.session.scalar(select(func.count(Match.id)).where(Match.club_id == service.find(club).id))


def test_a_server_killed_while_confirming_a_round_leaves_no_match_and_the_round_is_made_once_again(
        app: Flask, client: FlaskClient, database_url: str):
    from scorekeeper.club import evenings, rounds, service

    made = client.post(f"{API}/clubs", json={"name": "Thursday"}).get_json()
    for name in EIGHT:
        client.post(f"{API}/clubs/{made['id']}/players", json={"name": name}, headers=bearer(made["admin_key"]))
    with app.app_context():
        club = service.find(made["id"])
        evening = evenings.schedule(club, service.today(club), "19:30", "", "")[0]
        for player in service.roster(club):
            evenings.mark_present(club, evening, player.id, True)
        evening_id = evening.id
    config = {"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": database_url,
              "MIGRATE_ON_START": False, "RATELIMIT_ENABLED": False}
    killed = subprocess.run([sys.executable, "-c", KILLED_HALFWAY, json.dumps(config), made["id"], str(evening_id)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    assert club_matches(app, made["id"]) == 0  # the first table's match went with the rest
    with app.app_context():
        club = service.find(made["id"])
        evening = evenings.evening_of(club, evening_id)
        assert rounds.rounds_of(evening) == []
        seed, drawn = rounds.propose(club, evening, "kozyol", 7)
        rounds.confirm(club, evening, drawn, seed)
        (_round, tables), = rounds.rounds_of(evening)
        assert len(tables) == 2 and all(match is not None for _table, match in tables)
    assert club_matches(app, made["id"]) == 2
