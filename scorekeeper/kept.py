"""A bounded cache of one process, read through: the one way the app keeps what it computed.

Every process cache of the app (docs/caches.md lists them all, with their keys and bounds) is a Kept:
a least-recently-used store with a bound (a number of entries, or a total size with ``sizeof``) and
its own lock, since a worker's threads or greenlets share it. ``fetch(key, make)`` answers the kept
value or makes it, keeps it and answers it; two threads that miss together both make it (the make
runs outside the lock, so a slow one never holds the others) and the last one's is kept, which is
right for values that are functions of their key. What a value depends on belongs in its key: a cache
here is never emptied by hand, a change simply makes a new key, and the old entry ages out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar, cast

from cachetools import LRUCache

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
_MISSING = object()


class Kept(Generic[K, V]):
    """A bounded least-recently-used cache with its own lock, read through with fetch().

    >>> kept = Kept[str, int](maxsize=2)
    >>> kept.fetch("a", lambda: 1), kept.fetch("a", lambda: 2), kept.get("b")
    (1, 1, None)
    >>> kept.put("b", 2), kept.put("c", 3), "a" in kept, len(kept)
    (2, 3, False, 2)
    >>> sized = Kept[str, str](maxsize=5, sizeof=len)
    >>> sized.put("x", "toolong"), "x" in sized, sized.fetch("y", lambda: "abc"), sized.size
    ('toolong', False, 'abc', 3)
    """

    def __init__(self, maxsize: int, sizeof: Callable[[V], int] | None = None) -> None:
        self._cache: LRUCache[K, V] = LRUCache(maxsize=maxsize, getsizeof=sizeof)
        self._sizeof = sizeof
        self._lock = threading.Lock()  # cachetools' caches are not thread-safe by themselves

    def __len__(self) -> int:
        return len(self._cache)

    def __iter__(self) -> Iterator[K]:
        """The keys kept now (a copy: the cache may change meanwhile)."""
        with self._lock:
            return iter(list(self._cache))

    def __contains__(self, key: K) -> bool:
        with self._lock:
            return key in self._cache

    @property
    def size(self) -> int:
        """What is kept now: entries, or their total size with sizeof."""
        return int(self._cache.currsize)

    @property
    def maxsize(self) -> int:
        return int(self._cache.maxsize)

    def get(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            return self._cache.get(key, default)

    def put(self, key: K, value: V) -> V:
        """Keep value under key (the least recently used go past the bound; a value larger than it is not kept)."""
        if self._sizeof is None or self._sizeof(value) <= self._cache.maxsize:
            with self._lock:
                self._cache[key] = value
        return value

    def fetch(self, key: K, make: Callable[[], V]) -> V:
        """The value kept under key, or make()'s, kept."""
        with self._lock:
            found = self._cache.get(key, _MISSING)
        if found is not _MISSING:
            return cast(V, found)
        return self.put(key, make())

    def pop(self, key: K) -> V | None:
        with self._lock:
            return self._cache.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
