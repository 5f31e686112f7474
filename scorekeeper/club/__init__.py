"""The club, pure Python: standings, statistics and ratings over finished matches (no web, no database).

Everything reads digests (digest.py): what one finished match left behind, as plain JSON-able data.
"""

from .digest import Played, digest, in_order
from .ratings import Rating, ratings
from .standings import Partnership, Standing, partnerships, standings
from .stats import head_to_head, player_stats

__all__ = [
    "Partnership", "Played", "Rating", "Standing", "digest", "head_to_head", "in_order", "partnerships",
    "player_stats", "ratings", "standings",
]
