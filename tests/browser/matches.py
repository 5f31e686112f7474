"""Matches made over the API for the browser tests: quicker than tapping every hand in."""

from __future__ import annotations

from typing import Any


def made(page: Any, game: str, players: list[str], options: dict[str, Any], hands: list[dict[str, Any]]) -> str:
    """A match made over the API with a few hands, opened on this phone with its edit link."""
    answer = page.context.request.post("/api/v1/matches", data={"game": game, "players": players, "options": options})
    assert answer.status == 201, answer.text()
    match = answer.json()
    for hand in hands:
        sent = page.context.request.post(f"/api/v1/matches/{match['id']}/hands", data=hand,
                                         headers={"Authorization": f"Bearer {match['edit_key']}"})
        assert sent.status == 201, sent.text()
    page.goto(match["edit_url"])
    return match["id"]
