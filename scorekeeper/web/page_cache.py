"""Rendered pages kept per match version, for the phones that only watch.

A watcher's match page depends on the match at one version, the language and the address
asked for, nothing else: every write to a match raises its version, so a kept page can never
show stale totals. A page that carries anything of one phone's own (an edit key, a form token,
a flashed message) must not come from here; the views decide that before asking.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable

from cachetools import LRUCache

BUDGET = 8_000_000  # characters kept per worker process; the oldest pages go first


class PageCache:
    """A least-recently-used store of rendered pages, bounded by their total size.

    >>> cache = PageCache(budget=10)
    >>> cache.put(("m", 1), "abcd"), cache.get(("m", 1)), cache.get(("m", 2))
    ('abcd', 'abcd', None)
    >>> cache.put(("m", 2), "efghijk"), len(cache), cache.get(("m", 1))
    ('efghijk', 1, None)
    """

    def __init__(self, budget: int = BUDGET):
        self._pages: LRUCache[Hashable, str] = LRUCache(maxsize=budget, getsizeof=len)
        self._lock = threading.Lock()  # cachetools' caches are not thread-safe by themselves

    def __len__(self) -> int:
        return len(self._pages)

    @property
    def size(self) -> int:
        """Characters kept now."""
        return int(self._pages.currsize)

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            return self._pages.get(key)

    def put(self, key: Hashable, page: str) -> str:
        """Keep page under key (dropping the least recently used beyond the budget); return it."""
        if len(page) <= self._pages.maxsize:
            with self._lock:
                self._pages[key] = page
        return page

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
