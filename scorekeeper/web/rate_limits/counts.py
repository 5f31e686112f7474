"""Rate-limit hits counted in one SQLite file, which every worker and process of the machine shares.

A storage of the ``limits`` library, scheme ``sqlite:///path``, for the fixed windows that Flask-Limiter
counts in: one row per key, (key, count, started, ends). A hit is one UPSERT in a transaction of its own, so
two workers counting at once never lose a hit, and a key whose window has passed starts again at 1.

The windows are measured on the machine's monotonic clock (time.monotonic: on Linux CLOCK_MONOTONIC, one
clock for every process of the machine, counting from its start), never on the wall clock: set back an hour
(a clock corrected by NTP or by hand), the wall clock kept a minute's window open for 61 minutes, and set
forward it ended every window at once. The monotonic clock starts again when the machine does, so a window
that "started" later than now was counted before a restart, and counts for nothing. The limits library
reads a window's end as a wall-clock time: get_expiry gives it as now on the wall clock plus what is left.

The file is in WAL mode and never synced to disk (a crash of the system may lose or spoil the counts,
one of a worker never does); a hit waits at most ``BUSY_TIMEOUT`` for another process's write, and
otherwise fails with StorageError, as an unreachable Redis does. The statements are short because they
block a gevent worker while they run: the sqlite3 module does not yield to greenlets.

A deleted or replaced file is noticed on the next hit and made again (the counts start afresh); a file
that is not a database any more is deleted and made again. Each process deletes the rows of passed
windows at most once every ``SWEEP_EVERY`` seconds. Nothing but counts is kept in the file.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from pathlib import Path

from limits.errors import ConfigurationError
from limits.storage import Storage

SCHEME = "sqlite"
FILE = "rate-limits.sqlite"  # in the instance folder, unless RATELIMIT_STORAGE_URI says otherwise
BUSY_TIMEOUT = 0.1  # seconds
SWEEP_EVERY = 60.0  # seconds
UNREADABLE = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB"})

SCHEMA = ("CREATE TABLE IF NOT EXISTS windows (key TEXT PRIMARY KEY, count INTEGER NOT NULL, started REAL NOT NULL,"
          " ends REAL NOT NULL) WITHOUT ROWID")
FORMER = "DROP TABLE IF EXISTS hits"  # the wall-clock counts of releases before: they start afresh
OPEN = "started <= :now AND ends > :now"  # on the monotonic clock; started after now: before the machine restarted
INCR = f"""INSERT INTO windows (key, count, started, ends) VALUES (:key, :amount, :now, :now + :expiry)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN {OPEN} THEN count + excluded.count ELSE excluded.count END,
    started = CASE WHEN {OPEN} THEN started ELSE excluded.started END,
    ends = CASE WHEN {OPEN} THEN ends ELSE excluded.ends END
RETURNING count"""


def uri_for(setting: str, instance: Path) -> str:
    """The storage URI to use: the setting, a relative SQLite path in the instance folder, or the default file.

    >>> uri_for("", Path("/srv/instance")), uri_for("sqlite:///counts.db", Path("/srv/instance"))
    ('sqlite:////srv/instance/rate-limits.sqlite', 'sqlite:////srv/instance/counts.db')
    >>> uri_for("redis://localhost:6379/0", Path("/srv/instance"))
    'redis://localhost:6379/0'
    """
    if not setting:
        return f"{SCHEME}:///{instance / FILE}"
    prefix = f"{SCHEME}:///"
    if setting.startswith(prefix) and not Path(setting.removeprefix(prefix)).is_absolute():
        return f"{prefix}{instance / setting.removeprefix(prefix)}"
    return setting


class HitCounts(Storage):
    """Counts per key and window in a SQLite file, through one connection per process."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = True, **options: float | str | bool):
        path = uri.removeprefix(f"{SCHEME}:///")
        if path == uri or not path:
            raise ConfigurationError(f"a SQLite rate-limit storage needs a file: {SCHEME}:///path, not {uri}")
        self.path = Path(path)
        self.lock = threading.Lock()
        self.connection: sqlite3.Connection | None = None
        self.opened = (0, 0)  # (process, file) the connection belongs to
        self.left: list[sqlite3.Connection] = []
        self.swept = 0.0
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> tuple[type[Exception], ...]:
        return sqlite3.Error, OSError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count amount hits on key; a new window lasts expiry seconds. The count in the window."""
        now = time.monotonic()
        [(count,)] = self.run(INCR, key=key, amount=amount, now=now, expiry=expiry)
        if now - self.swept > SWEEP_EVERY:
            self.swept = now
            with contextlib.suppress(sqlite3.Error):  # the hit is counted; the rows go next time
                self.run(f"DELETE FROM windows WHERE NOT ({OPEN})", now=now)
        return count

    def get(self, key: str) -> int:
        rows = self.run(f"SELECT count FROM windows WHERE key = :key AND {OPEN}", key=key, now=time.monotonic())
        return rows[0][0] if rows else 0

    def get_expiry(self, key: str) -> float:
        """When key's window ends, as a time.time() (now plus what is left of it); now when it has none."""
        now = time.monotonic()
        rows = self.run(f"SELECT ends FROM windows WHERE key = :key AND {OPEN}", key=key, now=now)
        return time.time() + (rows[0][0] - now if rows else 0.0)

    def clear(self, key: str) -> None:
        self.run("DELETE FROM windows WHERE key = :key", key=key)

    def reset(self) -> int | None:
        """Forget every count; how many keys were counting."""
        return len(self.run("DELETE FROM windows RETURNING key"))

    def check(self) -> bool:
        try:
            return self.run("SELECT 1") == [(1,)]
        except (sqlite3.Error, OSError):
            return False

    def run(self, sql: str, **params: object) -> list[tuple]:
        """One statement, in a transaction of its own; its rows."""
        with self.lock:
            try:
                return self.connect().execute(sql, params).fetchall()
            except sqlite3.DatabaseError as err:
                if getattr(err, "sqlite_errorname", "") in UNREADABLE:
                    self.remove_file()
                raise

    def connect(self) -> sqlite3.Connection:
        """This process's connection to the file at self.path, opened again when that is another file."""
        try:
            current = (os.getpid(), os.stat(self.path).st_ino)
        except FileNotFoundError:
            current = (os.getpid(), 0)
        if self.connection is not None and self.opened == current:
            return self.connection
        if self.connection is not None:
            # Not closed: closing would checkpoint into the old file and delete the -wal file at the
            # path, which may be the new file's now, or a parent process's after a fork.
            self.left.append(self.connection)
            self.connection = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
        try:
            connection.execute("PRAGMA page_size = 1024")  # a new file's: a hit writes one small page
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = OFF")
            connection.execute(SCHEMA)
            connection.execute(FORMER)
            self.opened = (os.getpid(), os.stat(self.path).st_ino)
        except BaseException:
            connection.close()
            raise
        self.connection = connection
        return connection

    def remove_file(self) -> None:
        """Delete a file that is not a database, so that the next hit makes a new one."""
        for name in (self.path.name, f"{self.path.name}-wal", f"{self.path.name}-shm"):
            (self.path.parent / name).unlink(missing_ok=True)
