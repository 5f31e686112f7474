"""A club made and run the way a phone does it, and the quick Kozyol series its tests play."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from helpers.forms import csrf_token

QUICK = {"target": 2}  # a Kozyol series that one deal ends
TEAM_1_LOSES, TEAM_0_LOSES = {"points": [100, 20]}, {"points": [20, 100]}
ERROR = re.compile(r'<p class="error" id="err-([\w-]+)">([^<]*)</p>')


def reasons(page: str) -> dict[str, str]:
    """The reasons shown beside fields: field -> sentence."""
    return dict(ERROR.findall(page))


def new_club(client: FlaskClient, name: str = "Les Dimanches") -> str:
    """Start a club on the page; this phone keeps its admin key. Returns the club's public id."""
    answer = client.post("/clubs/new", data={"csrf_token": csrf_token(client, "/clubs/new"), "name": name})
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"].split("/")[2]


def admin_post(client: FlaskClient, club: str, action: str, form: str, data: dict[str, Any]):
    """Send one of the admin page's forms (its fields are named after the form: add-name)."""
    fields = {f"{form}-{name}": value for name, value in data.items()}
    return client.post(f"/c/{club}/admin/{action}", data={f"{form}-csrf_token": csrf_token(client, "/clubs/new"),
                                                           **fields})


def ahead(days: int) -> date:
    """The day this many days from today (UTC): an evening planned ahead."""
    return datetime.now(timezone.utc).date() + timedelta(days=days)


def club_of(client: FlaskClient, names: list[str]) -> str:
    """A club started on the page with these players on its roster; this phone keeps its admin key."""
    made = new_club(client)
    for name in names:
        assert admin_post(client, made, "players", "add", {"name": name}).status_code == 302
    return made


def member_key(app: Flask, club: str, player_id: int) -> str:
    """A member link's key for this club player, as the admin makes it (a new one replaces the old)."""
    from scorekeeper.club import roster, service

    with app.app_context():
        return roster.issue_member_key(service.find(club), player_id)[1]


def member(app: Flask, club: str, player_id: int, phone: FlaskClient | None = None) -> FlaskClient:
    """A member's own phone (a new one unless given): it opened the member link the admin made for them."""
    own = phone or app.test_client()
    opened = own.get(f"/c/{club}/member/{member_key(app, club, player_id)}")
    assert opened.status_code == 302 and opened.headers["Location"].endswith(f"/c/{club}#next-evening"), opened.text
    return own
