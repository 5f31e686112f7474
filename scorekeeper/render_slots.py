"""PDF renders a few at a time: one per worker process, and a bounded number per machine.

A sheet's render is CPU work, from a tenth of a second (a finished Barbu match) to a few seconds
(the longest Hearts game), and WeasyPrint lays out one document at a time per process. Unbounded,
four long downloads at once took every worker, and the pages and polls of every table waited
behind them. Now a render takes turns twice: its worker process's turn (one render at a time),
then one of the machine's render slots (``PDF_RENDERS``, by default one per two cores), which
every worker shares through lock files in the instance folder. A per-process bound alone would
not do: with one request at a time per worker, or one render per worker, every worker could be
rendering at once. A download that gets no turn within ``PDF_RENDER_WAIT`` seconds is refused
with Busy (the views answer 503 with Retry-After); the other requests go on being answered.
A lock file is released by the system when its holder ends, even a worker killed mid-render.

Threads or greenlets. With threads (gthread, the development server) a waiting download holds
its thread and the render runs in it. In a gevent worker every request is a greenlet of one
thread: the waits here are cooperative (gevent patches the semaphore and ``time.sleep`` before
the app is imported), but a render is CPU-bound Python that never yields, and in the hub it
would freeze every other request of the worker for its whole length. There it runs in a real
thread of gevent's pool (``off_the_hub``): the greenlet that asked waits cooperatively, and the
worker's other requests are answered between the render's turns at the interpreter lock. A pool
of render processes would free the worker's interpreter lock as well, but costs a second copy of
WeasyPrint and its fonts per worker, pickling each document and care with gevent's patched pipes;
the machine's slots already keep renders to a share of the cores.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

try:
    import fcntl
except ImportError:  # Windows: the process's own turn only
    fcntl = None  # type: ignore[assignment]

POLL = 0.05  # seconds between two looks at the machine's slots
T = TypeVar("T")


class Busy(Exception):
    """No render could start in time; ask again in retry_after seconds."""

    def __init__(self, retry_after: int):
        super().__init__(f"no render slot free; retry after {retry_after} s")
        self.retry_after = retry_after


def gevent_patched() -> bool:
    """True in a gevent worker: the threading module serves greenlets of one thread."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("threading"))


def os_lock() -> Any:
    """A lock of the operating system's threads, also where gevent patched threading."""
    if gevent_patched():
        from gevent import monkey

        return monkey.get_original("_thread", "allocate_lock")()
    return threading.Lock()


def off_the_hub(work: Callable[[], T]) -> T:
    """work(): in a real thread of gevent's pool in a gevent worker, right here otherwise."""
    if not gevent_patched():
        return work()
    from gevent import get_hub

    return get_hub().threadpool.apply(work)


class RenderSlots:
    """The turns renders take: the process's, then one of the machine's slots, within a wait.

    >>> slots = RenderSlots(None, renders=1, wait=0)
    >>> with slots.turn():
    ...     with slots.turn():
    ...         pass
    Traceback (most recent call last):
    ...
    scorekeeper.render_slots.Busy: no render slot free; retry after 1 s
    """

    def __init__(self, folder: Path | None, renders: int, wait: float):
        self.folder = folder  # where the machine's slots are; None: the process's turn only
        self.renders = max(1, int(renders))
        self.wait = max(0.0, float(wait))
        self.retry_after = max(1, math.ceil(self.wait))
        # Made when the app is, after gevent's patch in a gevent worker: a greenlet waits cooperatively.
        self._process = threading.BoundedSemaphore(1)

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        """Hold a turn to render, or raise Busy when none comes within the wait."""
        deadline = time.monotonic() + self.wait
        if not self._process.acquire(timeout=self.wait):
            raise Busy(self.retry_after)
        try:
            with self._machine_slot(deadline):
                yield
        finally:
            self._process.release()

    @contextlib.contextmanager
    def _machine_slot(self, deadline: float) -> Iterator[None]:
        if fcntl is None or self.folder is None:
            yield
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        while True:
            for slot in range(self.renders):
                held = self._try(self.folder / f"render-{slot}.lock")
                if held is None:
                    continue
                try:
                    yield
                finally:
                    os.close(held)  # closing the file releases its lock
                return
            if time.monotonic() >= deadline:
                raise Busy(self.retry_after)
            time.sleep(POLL)

    @staticmethod
    def _try(path: Path) -> int | None:
        """The open lock file if its lock was free (now held), else None."""
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(handle)
            return None
        return handle
