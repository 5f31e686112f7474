"""Today's evening of a club of eight, made through the API: one round of two quick Kozyol tables, the first
finished and the second still at the table; the admin's phone, and a phone at either table."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clubs import QUICK, TEAM_1_LOSES
from helpers.forms import csrf_token

API = "/api/v1"
EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


class TwoTables:
    """The club (id, admin key), its evening (id, day), the two tables' matches ({"id", "edit_key", ...})."""

    def __init__(self, app: Flask, client: FlaskClient, agree_to_lock: int = 0):
        self.app, self.client = app, client
        made = client.post(f"{API}/clubs", json={"name": "Les Vendredis", "house_rules": {"kozyol": QUICK}})
        assert made.status_code == 201, made.get_json()
        self.club, self.key = made.get_json()["id"], made.get_json()["admin_key"]
        ids = [self.call("post", f"/clubs/{self.club}/players", {"name": name}).get_json()["id"] for name in EIGHT]
        self.day = datetime.now(timezone.utc).date().isoformat()
        planned = self.call("post", f"/clubs/{self.club}/planned-evenings", {"day": self.day, "name": "Friday"})
        self.evening = planned.get_json()["evenings"][0]["id"]
        for player in ids:
            self.call("put", f"/clubs/{self.club}/planned-evenings/{self.evening}/present/{player}", {"present": True})
        drawn = self.call("post", f"/clubs/{self.club}/planned-evenings/{self.evening}/rounds",
                          {"game": "kozyol", "seed": 3})
        self.done, self.playing = [table["match"] for table in drawn.get_json()["tables"]]
        sent = client.post(f"{API}/matches/{self.done['id']}/hands", json=TEAM_1_LOSES,
                           headers=bearer(self.done["edit_key"]))
        assert sent.status_code == 201, sent.get_json()
        if agree_to_lock:
            from scorekeeper.club import agreements, service

            with app.app_context():
                agreements.set_rules(service.find(self.club), agree_to_lock, False)
        self.admin = app.test_client()
        assert self.admin.get(f"/c/{self.club}/join/{self.key}").status_code == 302

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """An admin call to the API; it must succeed."""
        answer = getattr(self.client, method)(f"{API}{path}", json=body, headers=bearer(self.key))
        assert answer.status_code < 300, answer.get_json()
        return answer

    def at_table(self, table: dict[str, Any]) -> FlaskClient:
        """A phone at the table: it opened the match's edit link (it does not run the club)."""
        phone = self.app.test_client()
        assert phone.get(f"/m/{table['id']}/join?key={table['edit_key']}").status_code == 302
        return phone

    def close(self, phone: FlaskClient | None = None, **answer: str):
        """Tap "Close the evening" on the results page (with the question's answer, when given)."""
        phone = phone or self.admin
        return phone.post(f"/c/{self.club}/admin/evenings/{self.evening}/close",
                          data={"csrf_token": csrf_token(phone, "/clubs/new"), **answer})

    def closed_at(self) -> str | None:
        answer = self.client.get(f"{API}/clubs/{self.club}/evenings/{self.evening}/results")
        return answer.get_json()["evening"]["closed_at"]

    def agreed(self, table: dict[str, Any]) -> None:
        """The members in the table's first two seats agree to its finished match (locks it at 2)."""
        from scorekeeper.club import agreements
        from scorekeeper.match import matches

        with self.app.app_context():
            seats = matches.find(table["id"]).seat_ids
            agreements.agree(table["id"], seats[0])
            agreements.agree(table["id"], seats[1])


def two_tables_on(page: Any) -> dict[str, Any]:
    """TwoTables for the browser, through the phone's own API requests; this phone opens the admin link.

    Returns the club's id, its admin key, the evening's id and the two tables' matches (done, playing)."""

    def api(method: str, path: str, data: Any, key: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        answer = page.context.request.fetch(f"{API}{path}", method=method, data=data, headers=headers)
        assert answer.ok, answer.text()
        return answer.json()

    made = api("POST", "/clubs", {"name": "Les Vendredis", "house_rules": {"kozyol": QUICK}})
    club, key = made["id"], made["admin_key"]
    page.goto(made["admin_url"])
    ids = [api("POST", f"/clubs/{club}/players", {"name": name}, key)["id"] for name in EIGHT]
    day = datetime.now(timezone.utc).date().isoformat()
    evening = api("POST", f"/clubs/{club}/planned-evenings", {"day": day, "name": "Friday"}, key)["evenings"][0]["id"]
    for player in ids:
        api("PUT", f"/clubs/{club}/planned-evenings/{evening}/present/{player}", {"present": True}, key)
    drawn = api("POST", f"/clubs/{club}/planned-evenings/{evening}/rounds", {"game": "kozyol", "seed": 3}, key)
    done, playing = [table["match"] for table in drawn["tables"]]
    api("POST", f"/matches/{done['id']}/hands", TEAM_1_LOSES, done["edit_key"])
    return {"club": club, "key": key, "evening": evening, "done": done, "playing": playing}
