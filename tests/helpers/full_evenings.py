"""A full club evening made over the JSON API, the way an organiser's night goes: a season holding today, the
players at the door, a round of tables given by name; then hands entered at its tables.

The API is reached through a `call(method, path, body, key)` that returns the answer's JSON, so a Flask test
client and a browser's request context build the same evening.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from helpers.clubs import QUICK

Call = Callable[[str, str, Any, str | None], Any]
API = "/api/v1"
# Names as long as real ones get, in the three languages of the app.
LONG_NAMES = ["Maximilian Alexandrovich", "Éloïse de la Fontaine", "Александра Константиновна",
              "Jean-Baptiste Lefebvre", "Фёдор Достоевский-Младший", "Bartholomew Winterbottom"]


class FullEvening:
    """A club, its season holding today, today's evening with these players at the door, and round 1's tables."""

    def __init__(self, call: Call, players: list[str], tables: list[tuple[str, list[str]]],
                 name: str = "Les Vendredis", evening: str = "Friday night", season: str = "Winter"):
        self.call = call
        made = call("POST", f"{API}/clubs", {"name": name}, None)
        self.club, self.key = made["id"], made["admin_key"]
        club = f"{API}/clubs/{self.club}"
        call("PUT", f"{club}/rules", {"min_matches": 1, "house_rules": {"kozyol": QUICK}}, self.key)
        today = datetime.now(timezone.utc).date()
        call("POST", f"{club}/seasons", {"name": season, "starts": (today - timedelta(days=30)).isoformat(),
                                         "ends": (today + timedelta(days=30)).isoformat()}, self.key)
        self.ids = {player: call("POST", f"{club}/players", {"name": player}, self.key)["id"] for player in players}
        planned = call("POST", f"{club}/planned-evenings", {"day": today.isoformat(), "name": evening}, self.key)
        self.evening = planned["evenings"][0]["id"]
        for player in self.ids.values():
            call("PUT", f"{club}/planned-evenings/{self.evening}/present/{player}", {"present": True}, self.key)
        self.tables: list[dict[str, Any]] = []
        if tables:
            self.draw(tables)

    def draw(self, tables: list[tuple[str, list[str]]]) -> dict[str, Any]:
        """Confirm the next round with these tables (game, names in seat order); who is left sits out."""
        made = self.call("POST", f"{API}/clubs/{self.club}/planned-evenings/{self.evening}/rounds",
                         {"tables": [{"game": game, "seats": [self.ids[name] for name in names]}
                                     for game, names in tables]}, self.key)
        self.tables = made["tables"]
        return made

    def play(self, table: int, entry: dict[str, Any]) -> Any:
        """Enter a hand at a table of the latest round (numbered from 1), with that table's edit key."""
        match = self.tables[table - 1]["match"]
        return self.call("POST", f"{API}/matches/{match['id']}/hands", entry, match["edit_key"])

    def keys(self) -> list[str]:
        """Every key of the evening: the admin's and each table's edit key."""
        return [self.key, *(table["match"]["edit_key"] for table in self.tables)]

    @property
    def screen(self) -> str:
        return f"/c/{self.club}/evenings/{self.evening}/screen"
