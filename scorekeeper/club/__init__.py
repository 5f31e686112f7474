"""The club, pure Python: standings, statistics and ratings over finished matches (no web, no database).

Everything reads digests (digest.py): what one finished match left behind, as plain JSON-able data.
"""

from .digest import Played, digest, in_order

__all__ = ["Played", "digest", "in_order"]
