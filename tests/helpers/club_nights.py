"""A club evening made through the API: a club of nine, today's evening planned, everyone at the door."""

from __future__ import annotations

from datetime import datetime, timezone

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
