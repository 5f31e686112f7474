"""One player's statistics per game, and two players head to head, from the digests of finished matches.

Only a card game app can give these: Barbu averages per contract as declarer and as defender and the
doubles, Kozyol deals won, eggs and goats with each partner, Hearts hearts, Black Marias and moons.
"""

from __future__ import annotations

from typing import TypedDict, cast

from ...games import GAMES
from .barbu import BarbuStats
from .base import Played, average, seats_of
from .hearts import HeartsStats
from .kozyol import KozyolDigest, KozyolStats, team_of
from .registry import FIGURES

__all__ = ["Facing", "Stats", "average", "head_to_head", "player_stats", "seats_of"]

Stats = BarbuStats | KozyolStats | HeartsStats  # one per game: registry.FIGURES[game].stats


class Facing(TypedDict, total=False):
    """Two players in one game: matches where both sat apart, who finished ahead, level; Kozyol partners too."""

    matches: int
    a_ahead: int
    b_ahead: int
    level: int
    partners: int


def player_stats(game: str, played: list[Played], player: int) -> Stats:
    """One player's statistics in one game over the played matches."""
    return cast(Stats, FIGURES[game].stats(played, player))


def head_to_head(played: list[Played], a: int, b: int) -> dict[str, Facing]:
    """Per game: matches where both sat, who finished ahead (better place) and level; Kozyol partners apart."""
    out: dict[str, Facing] = {game: {"matches": 0, "a_ahead": 0, "b_ahead": 0, "level": 0} for game in GAMES}
    out["kozyol"]["partners"] = 0
    for p in played:
        made = p.digest
        seats = made["seats"]
        if a == b or a not in seats or b not in seats:
            continue
        line = out[made["game"]]
        seat_a, seat_b = seats.index(a), seats.index(b)
        if made["game"] == "kozyol" and team_of(cast(KozyolDigest, made), seat_a) == team_of(
                cast(KozyolDigest, made), seat_b):
            line["partners"] += 1
            continue
        place_a, place_b = made["places"][seat_a], made["places"][seat_b]
        line["matches"] += 1
        line["a_ahead" if place_a < place_b else "b_ahead" if place_b < place_a else "level"] += 1
    return out
