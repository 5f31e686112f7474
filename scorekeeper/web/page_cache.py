"""Rendered pages kept per match version, for the phones that only watch.

A watcher's match page depends on the match at one version, the language and the address
asked for, nothing else: every write to a match raises its version, so a kept page can never
show stale totals. A page that carries anything of one phone's own (an edit key, a form token,
a flashed message) must not come from here; the views decide that before asking.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import os
import threading
import time
from collections.abc import Callable, Hashable
from pathlib import Path

from flask import current_app, request

from ..kept import Kept
from .hosts import HOST

BUDGET = 8_000_000  # characters kept per worker process; the oldest pages go first
DEFAULT_PORTS = {"http": "80", "https": "443"}


def kept_address() -> tuple[str, bool]:
    """The address a kept page is filed under, and whether all workers may share it through the instance folder.

    A page shows its own address (the watch link and its QR code), so the address is part of what a page is
    kept by: spelled one way (the name in lower case, no default port), so that `Host: LOCALHOST` and
    `Host: localhost:80` are one page. It is shared only when the server is known by that address: a name
    TRUSTED_HOSTS lists (not one a `.suffix` entry lets in), or with no TRUSTED_HOSTS `localhost` or the
    address the connection came in on; and no port but the default or the one the connection came in on.
    Any other Host, which a phone may make up at will (`:1` ... `:65535`, every single-label name), is
    kept in the worker's bounded memory alone: it never writes to the folder the database shares its disk with.
    """
    scheme, host = request.scheme, request.host.lower()
    found = HOST.fullmatch(host)
    name, port = (found["name"].rstrip("."), found["port"]) if found else (host, None)
    if port == DEFAULT_PORTS.get(scheme):
        port = None
    query = request.query_string.decode("latin-1")
    address = f"{scheme}://{name}{':' + port if port else ''}{request.script_root}{request.path}"
    return address + (f"?{query}" if query else ""), _known(name, port)


def _known(name: str, port: str | None) -> bool:
    """Whether the server is known by this name and port (kept_address)."""
    local = _local_address()
    if port is not None and (local is None or int(port) != local[1]):
        return False
    allowed = current_app.config.get("ALLOWED_HOSTS")
    if allowed:
        return name in allowed
    if name == "localhost":
        return True
    try:
        return local is not None and ipaddress.ip_address(name.strip("[]")) == ipaddress.ip_address(local[0])
    except ValueError:
        return False


def _local_address() -> tuple[str, int] | None:
    """The address and port the connection came in on, where the server says (gunicorn, werkzeug)."""
    connection = request.environ.get("gunicorn.socket") or request.environ.get("werkzeug.socket")
    try:
        found = connection.getsockname() if connection is not None else None
    except OSError:
        return None
    return (str(found[0]), int(found[1])) if isinstance(found, tuple) and len(found) >= 2 else None


def trim_to_budget(folder: Path, budget: int, suffix: str, keep: Path | None = None) -> int:
    """Remove the files ending in suffix used least recently (oldest mtime) until the folder holds at most budget
    bytes of them; keep stays whatever its age. How many were removed. Shared by the kept pages and sheets."""
    kept = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(suffix):
                    with contextlib.suppress(OSError):
                        stat = entry.stat()
                        kept.append((entry.path == str(keep), stat.st_mtime_ns, stat.st_size, entry.path))
    except OSError:
        return 0
    total = removed = 0
    for _keep, _mtime, size, path in sorted(kept, reverse=True):
        total += size
        if total > budget:
            with contextlib.suppress(OSError):
                os.unlink(path)
                removed += 1
    return removed


class PageCache:
    """A least-recently-used store of rendered pages, bounded by their total size.

    >>> cache = PageCache(budget=10)
    >>> cache.put(("m", 1), "abcd"), cache.get(("m", 1)), cache.get(("m", 2))
    ('abcd', 'abcd', None)
    >>> cache.put(("m", 2), "efghijk"), len(cache), cache.get(("m", 1))
    ('efghijk', 1, None)
    """

    def __init__(self, budget: int = BUDGET):
        self._pages: Kept[Hashable, str] = Kept(maxsize=budget, sizeof=len)

    def __len__(self) -> int:
        return len(self._pages)

    @property
    def size(self) -> int:
        """Characters kept now."""
        return self._pages.size

    def get(self, key: Hashable) -> str | None:
        return self._pages.get(key)

    def put(self, key: Hashable, page: str) -> str:
        """Keep page under key (dropping the least recently used beyond the budget); return it."""
        return self._pages.put(key, page)

    def clear(self) -> None:
        self._pages.clear()


class SharedPages(PageCache):
    """Pages kept in this worker's memory and, for every worker of the machine, in files of the instance folder.

    After a result, the first worker asked for the club page draws it and writes it to a file; the other
    workers read that file instead of drawing it again, so a change is drawn once for all of them. A page
    lives in one file per slot (which page: club, language, address, admin or not), holding the version
    it was drawn at (the club's stamp, the day): a new version overwrites the old, so the folder holds
    one file per page shown. While one worker draws a slot's new version the others wait for it a
    moment (WAIT, cooperatively: a gevent worker answers other phones meanwhile), then draw it themselves.
    """

    WAIT = 2.0  # seconds a worker waits for the page another worker is drawing
    STALE = 15.0  # seconds after which a claim is a worker that died while drawing, and is taken over
    FOLDER = "pages"
    SUFFIX = ".page"
    KEEP = 24 * 3600.0  # a page not drawn again for a day is removed (a match long finished, a club gone quiet)
    SWEEP_EVERY = 500  # writes of this process between two looks for such pages

    def __init__(self, budget: int = BUDGET):
        super().__init__(budget)
        self._folders: set[Path] = set()
        self._writes = 0

    def fetch(self, slot: Hashable, version: Hashable, draw: Callable[[], bytes], shared: bool = True) -> bytes:
        """The page of this slot at this version: kept here, kept in the folder, or drawn (once for all workers).

        shared=False (an address the server is not known by: kept_address) keeps it in this worker alone."""
        page = self.get((slot, version))
        if page is not None:
            return page
        if request.query_string or not shared or self.budget_bytes() <= 0:
            # Shared only at the addresses phones keep open: an address with arguments (a season, a player to
            # compare with, or anything at all) is kept in this worker's bounded memory alone, so that no run of
            # made-up addresses can fill the instance folder, where the database lives too.
            return self.put((slot, version), draw())
        folder = Path(current_app.instance_path) / self.FOLDER
        path = folder / f"{hashlib.sha256(repr(slot).encode()).hexdigest()[:40]}{self.SUFFIX}"
        mark = repr(version).encode()
        page = _read(path, mark)
        if page is None:
            page = self._drawn_once(folder, path, mark, draw)
        else:
            with contextlib.suppress(OSError):
                os.utime(path)  # read: the last to go when the folder is trimmed
        self.put((slot, version), page)
        return page

    @staticmethod
    def budget_bytes() -> int:
        """How many bytes of pages the instance folder may hold (PAGES_CACHE_BYTES; 0 shares none)."""
        return int(current_app.config.get("PAGES_CACHE_BYTES", 32_000_000))

    def _drawn_once(self, folder: Path, path: Path, mark: bytes, draw: Callable[[], bytes]) -> bytes:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:  # a full disk or a read-only instance folder: drawn here, not shared
            return draw()
        self._folders.add(folder)
        claim = path.with_suffix(".claim")
        if not _claim(claim, self.STALE):
            deadline = time.monotonic() + self.WAIT
            while time.monotonic() < deadline:
                time.sleep(0.01)  # under gevent, the other phones of this worker are answered meanwhile
                page = _read(path, mark)
                if page is not None:
                    return page
            if not _claim(claim, self.STALE):  # still drawn elsewhere: draw it here too, without writing
                return draw()
        try:
            page = _read(path, mark) or draw()
            temporary = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            try:
                temporary.write_bytes(mark + b"\n" + page)
                os.replace(temporary, path)  # a reader sees the old page or the new one, never half of one
            except OSError:  # a full disk or a read-only folder: the page is still answered, only not shared
                temporary.unlink(missing_ok=True)
        finally:
            claim.unlink(missing_ok=True)
        trim_to_budget(folder, self.budget_bytes(), self.SUFFIX, keep=path)
        self._writes += 1
        if self._writes % self.SWEEP_EVERY == 0:
            sweep(folder, self.KEEP)
        return page

    def clear(self) -> None:
        """Forget every page, those of the folders this process wrote to included."""
        super().clear()
        for folder in self._folders:
            for path in folder.glob("*"):
                path.unlink(missing_ok=True)


def sweep(folder: Path, keep: float) -> int:
    """Remove the pages of the folder not written for `keep` seconds; how many were removed."""
    oldest, removed = time.time() - keep, 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        try:
            if entry.stat().st_mtime < oldest:
                os.unlink(entry.path)
                removed += 1
        except OSError:  # removed meanwhile by another worker's sweep
            pass
    return removed


def _read(path: Path, mark: bytes) -> bytes | None:
    """The page in the file when it holds that version, else None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head, _, page = data.partition(b"\n")
    return page if head == mark else None


def _claim(claim: Path, stale: float) -> bool:
    """Take the slot's claim (a file made only if none exists); a claim left by a dead worker is taken over."""
    try:
        os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        try:
            if time.time() - claim.stat().st_mtime > stale:
                claim.unlink(missing_ok=True)
                return _claim(claim, stale * 2)
        except OSError:
            pass
        return False
    except OSError:
        return True  # no folder to claim in: draw, as a single worker would
