"""A club that asks its players to agree to a match, a finished match of it, and the phones at its table.

A member's own phone opened the member link the admin made for them; any other phone only the edit link.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.club_matches import FOUR
from helpers.clubs import QUICK, TEAM_1_LOSES, member
from helpers.forms import csrf_token

API = "/api/v1"
FLASH = re.compile(r'<p class="flash[^"]*"[^>]*>([^<]*)</p>')


def asking_club(app: Flask, client: FlaskClient, agree_to_lock: int = 2, confirm_hands: bool = False
                ) -> dict[str, Any]:
    """A club made through the API (this client keeps nothing), set to ask for that many agreements."""
    from scorekeeper.club import agreements, service

    made = client.post(f"{API}/clubs", json={"name": "Sunday table"})
    assert made.status_code == 201, made.get_json()
    club = made.get_json()
    with app.app_context():
        agreements.set_rules(service.find(club["id"]), agree_to_lock, confirm_hands)
    return club


def club_match(client: FlaskClient, club: dict[str, Any], *deals: dict[str, Any],
               options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Kozyol match of the club (quick unless told: one lost deal ends it), with these deals played through the API."""
    answer = client.post(f"{API}/clubs/{club['id']}/matches", json={"game": "kozyol", "players": FOUR,
                                                                    "options": options or QUICK})
    assert answer.status_code == 201, answer.get_json()
    match = answer.get_json()
    for deal in deals:
        sent = client.post(f"{API}/matches/{match['id']}/hands", json=deal, headers=bearer(match["edit_key"]))
        assert sent.status_code == 201, sent.get_json()
    return match


def finished_match(client: FlaskClient, club: dict[str, Any]) -> dict[str, Any]:
    return club_match(client, club, TEAM_1_LOSES)


def phone(app: Flask, match: dict[str, Any]) -> FlaskClient:
    """Another phone at the table: it opened the match's edit link."""
    other = app.test_client()
    assert other.get(f"/m/{match['id']}/join?key={match['edit_key']}").status_code == 302
    return other


def member_phone(app: Flask, club: dict[str, Any] | str, match: dict[str, Any] | None, who: int) -> FlaskClient:
    """A member's own phone: it opened the member link the admin made for them, then the match's edit link.

    who: the member's seat at the match; without a match, their club player id.
    """
    own = member(app, club if isinstance(club, str) else club["id"], match["seat_ids"][who] if match else who)
    if match is not None:
        assert own.get(f"/m/{match['id']}/join?key={match['edit_key']}").status_code == 302
    return own


def admin_phone(app: Flask, match: dict[str, Any], club: dict[str, Any]) -> FlaskClient:
    """The club's admin at the table: it opened the club's admin link and the match's edit link."""
    admin = phone(app, match)
    assert admin.get(f"/c/{club['id']}/join/{club['admin_key']}").status_code == 302
    return admin


def token(client: FlaskClient, match: dict[str, Any]) -> str:
    return csrf_token(client, "/clubs/new")  # one token for the whole session


def agree(client: FlaskClient, match: dict[str, Any], seat: int):
    """Tap "I am <seat>: Agreed" on the match page."""
    return client.post(f"/m/{match['id']}/agree", data={"csrf_token": token(client, match), "seat": seat})


def agreed_by_two(app: Flask, match: dict[str, Any]) -> None:
    """The members in the first two seats agree to the finished match (locks it at 2)."""
    from scorekeeper.club import agreements

    with app.app_context():
        agreements.agree(match["id"], match["seat_ids"][0])
        agreements.agree(match["id"], match["seat_ids"][1])
