"""A club evening made through the API (a club of nine, today's evening planned, everyone at the door), or on the
admin's phone, its rounds drawn and confirmed through the pages."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer

API = "/api/v1"
NINE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
ROUNDS = API + "/clubs/{club_id}/planned-evenings/{evening_id}/rounds"


class ApiNight:
    """A club of nine over the API, today's evening planned and everyone at the door."""

    def __init__(self, client: FlaskClient, name: str = "Sunday table"):
        made = client.post(f"{API}/clubs", json={"name": name}).get_json()
        self.client, self.id, self.key = client, made["id"], made["admin_key"]
        self.players: dict[str, int] = {}
        for player in NINE:
            added = client.post(f"{API}/clubs/{self.id}/players", json={"name": player}, headers=self.admin)
            assert added.status_code == 201
            self.players[player] = added.get_json()["id"]
        today = datetime.now(timezone.utc).date().isoformat()
        planned = client.post(f"{API}/clubs/{self.id}/planned-evenings", json={"day": today}, headers=self.admin)
        assert planned.status_code == 201, planned.get_json()
        self.evening = planned.get_json()["evenings"][0]["id"]
        for player_id in self.players.values():
            self.present(player_id, True)

    @property
    def admin(self) -> dict[str, str]:
        return bearer(self.key)

    def present(self, player: int, here: bool) -> None:
        marked = self.client.put(f"{API}/clubs/{self.id}/planned-evenings/{self.evening}/present/{player}",
                                 json={"present": here}, headers=self.admin)
        assert marked.status_code == 200, marked.get_json()

    def url(self, tail: str = "") -> str:
        return ROUNDS.format(club_id=self.id, evening_id=self.evening) + tail


class PageNight:
    """A club on the admin's phone: these players on its roster, today's evening planned, the first `here` of them
    marked here at the door; rounds drawn and confirmed through the pages."""

    def __init__(self, app: Flask, client: FlaskClient, names: list[str], here: int | None = None):
        from helpers.clubs import club_of
        from scorekeeper.club import evenings, service as clubs

        self.app, self.client = app, client
        self.club = club_of(client, names)
        with app.app_context():
            club = clubs.find(self.club)
            self.ids = {player.name: player.id for player in clubs.roster(club)}
            self.id = evenings.schedule(club, clubs.today(club), "19:30", "", "")[0].id
        for name in names[:here]:
            self.mark(name, True)

    def mark(self, name: str, here: bool) -> None:
        """The door marks a player here, or not here."""
        from scorekeeper.club import evenings, service as clubs

        with self.app.app_context():
            club = clubs.find(self.club)
            evenings.mark_present(club, evenings.evening_of(club, self.id), self.ids[name], here)

    def names(self) -> dict[int, str]:
        return {player: name for name, player in self.ids.items()}

    def page(self, path: str = "") -> str:
        return f"/c/{self.club}/admin/evenings/{self.id}/rounds{path}"

    def drawn(self, address: str) -> tuple[str, str]:
        """A proposal drawn on the admin's phone from this address: where it settles (its seed in it), its page."""
        drawn = self.client.get(address)
        if drawn.status_code == 200:  # the address held a seed already
            return address, drawn.text
        assert drawn.status_code == 302, drawn.text
        page = self.client.get(drawn.headers["Location"])
        assert page.status_code == 200, page.text
        return drawn.headers["Location"], page.text

    def confirm(self, game: str = "kozyol", seed: int = 1) -> list[tuple[Any, Any]]:
        """Draw the next round with this seed and confirm it as proposed; its tables and their matches."""
        _where, page = self.drawn(self.page(f"/new?game={game}&seed={seed}"))
        done = self.client.post(self.page(), data=posted(page))
        assert done.status_code == 302, done.text
        return self.tables()

    def tables(self) -> list[tuple[Any, Any]]:
        """The latest round's tables and their matches, as stored (seats, match id, ended)."""
        from scorekeeper.club import evenings, rounds, service as clubs

        with self.app.app_context():
            club = clubs.find(self.club)
            _made, tables = rounds.latest(evenings.evening_of(club, self.id))
            return [((table.number, list(table.seat_ids), table.ended), match.public_id if match else None)
                    for table, match in tables]


def posted(page: str) -> dict[str, list[str]]:
    """The confirmation form's fields as a proposal's page holds them."""
    form = page.rsplit('<form method="post"', 1)[1].split("</form>", 1)[0]
    fields: dict[str, list[str]] = {}
    for tag in re.findall(r"<input [^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag)[1], re.search(r'value="([^"]*)"', tag)[1]
        fields.setdefault(name, []).append(value)
    return fields
