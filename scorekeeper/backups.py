"""A whole server's backup, taken while phones write, and its restore.

A backup is a folder: the database as one consistent copy (SQLite's online backup, page by page under
its own locks, so a hand acknowledged before it began is in it and nothing is half written; pg_dump's
one snapshot for PostgreSQL), the secret key (without it every phone's cookie, and the edit and admin
keys it holds, is unreadable after a restore), the instance's config.py if there is one, and a
manifest with each file's SHA-256. It is written under another name and renamed when whole, so a
backup folder that exists is complete. What the instance folder also holds is left out on purpose: the
kept sheets and pages are drawn again, and the rate-limit counts start afresh.

A restore checks the manifest and every file before it changes anything, then puts the database back
(the same online copy into SQLite's file; pg_restore --clean for PostgreSQL), the secret key and
config.py (each file it replaces kept beside it as ``<name>.before-restore``). Stop the server first.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

FORMAT, VERSION = "scorekeeper-backup", 1
MANIFEST = "manifest.json"
SQLITE_COPY, POSTGRES_COPY = "database.sqlite", "database.pgdump"
SECRET, CONFIG = "secret_key", "config.py"


FULL = ("No backup was written: {into} has no space left, and nothing was left behind there; free some space "
        "there or back up onto another disk, then run the backup again.")
NO_SPACE = "No space left on device"  # how pg_dump says it (strerror of ENOSPC)


class BackupError(Exception):
    """A backup that cannot be taken, or a folder that is not a whole backup of this app."""


def no_space(err: BaseException) -> bool:
    """Whether a backup failed because its disk is full: the file system's, SQLite's or pg_dump's way of saying so."""
    if isinstance(err, OSError):
        return err.errno in (errno.ENOSPC, errno.EDQUOT)
    if isinstance(err, sqlite3.Error):
        return getattr(err, "sqlite_errorname", "") == "SQLITE_FULL"
    return isinstance(err, BackupError) and NO_SPACE in str(err)


def digest(path: Path) -> str:
    found = hashlib.sha256()
    with path.open("rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            found.update(block)
    return found.hexdigest()


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite database URL, None for another database."""
    parsed = make_url(url)
    return Path(parsed.database) if parsed.get_backend_name() == "sqlite" and parsed.database else None


def libpq_url(url: str) -> str:
    """A PostgreSQL URL as pg_dump and pg_restore read it (no +driver)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def take(database_url: str, instance: Path, secret_key: str, revision: str | None, into: Path) -> Path:
    """Write a whole backup folder under into; returns its path."""
    made = datetime.now(timezone.utc)
    final = into / f"scorekeeper-backup-{made:%Y%m%dT%H%M%SZ}"
    partial = into / f".{final.name}.part"
    if final.exists():
        raise BackupError(f"{final} exists already")
    shutil.rmtree(partial, ignore_errors=True)
    made_into = not into.exists()
    try:
        partial.mkdir(parents=True)
        source = sqlite_path(database_url)
        if source is not None:
            copy_sqlite(source, partial / SQLITE_COPY)
            kind = "sqlite"
        else:
            dumped = subprocess.run(["pg_dump", "--format=custom", "--no-owner", f"--file={partial / POSTGRES_COPY}",
                                     libpq_url(database_url)], capture_output=True, text=True, check=False)
            if dumped.returncode != 0:
                raise BackupError(f"pg_dump failed: {dumped.stderr.strip()}")
            kind = "postgresql"
        (partial / SECRET).write_text(secret_key)
        os.chmod(partial / SECRET, 0o600)
        if (instance / CONFIG).is_file():
            shutil.copy2(instance / CONFIG, partial / CONFIG)
        files = {path.name: digest(path) for path in sorted(partial.iterdir())}
        manifest = {"format": FORMAT, "version": VERSION, "made": made.isoformat(timespec="seconds"),
                    "database": kind, "revision": revision, "files": files}
        (partial / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        for path in partial.iterdir():
            with path.open("rb") as written:
                os.fsync(written.fileno())
        partial.rename(final)
    except BaseException as err:
        shutil.rmtree(partial, ignore_errors=True)
        if made_into:
            with contextlib.suppress(OSError):
                into.rmdir()
        if no_space(err):
            raise BackupError(FULL.format(into=into)) from err
        raise
    return final


def copy_sqlite(source: Path, target: Path) -> None:
    """SQLite's online backup of source into target: one consistent copy while other connections write."""
    if not source.exists():
        raise BackupError(f"no database at {source}")
    with sqlite3.connect(source) as reading, sqlite3.connect(target) as writing:
        reading.execute("PRAGMA busy_timeout=10000")
        reading.backup(writing, pages=4096)
        writing.execute("PRAGMA journal_mode=DELETE")  # the copy is one file, nothing beside it
    reading.close()
    writing.close()


def checked(folder: Path) -> dict[str, Any]:
    """The manifest of a whole backup folder; BackupError names what is wrong with any other."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError) as err:
        raise BackupError(f"{folder} is not a backup of this app: no readable {MANIFEST}") from err
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{folder} is not a backup of this app")
    if manifest.get("version") != VERSION:
        raise BackupError(f"{folder} is a backup of another release's format ({manifest.get('version')})")
    files = manifest.get("files")
    if not isinstance(files, dict) or SECRET not in files or not ({SQLITE_COPY, POSTGRES_COPY} & files.keys()):
        raise BackupError(f"{folder} lacks its database or its secret key")
    for name, expected in files.items():
        path = folder / name
        if Path(name).name != name or not path.is_file() or digest(path) != expected:
            raise BackupError(f"{path} is missing or damaged (its checksum differs)")
    return manifest


def restore(folder: Path, database_url: str, instance: Path) -> dict[str, Any]:
    """Put a backup back: the database, the secret key, config.py; returns its manifest."""
    manifest = checked(folder)
    target = sqlite_path(database_url)
    if manifest["database"] == "sqlite" and target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(folder / SQLITE_COPY) as reading, sqlite3.connect(target) as writing:
            writing.execute("PRAGMA busy_timeout=10000")
            reading.backup(writing)
        reading.close()
        writing.close()
    elif manifest["database"] == "postgresql" and target is None:
        restored = subprocess.run(["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
                                   f"--dbname={libpq_url(database_url)}", str(folder / POSTGRES_COPY)],
                                  capture_output=True, text=True, check=False)
        if restored.returncode != 0:
            raise BackupError(f"pg_restore failed: {restored.stderr.strip()}")
    else:
        raise BackupError(f"a {manifest['database']} backup restores into a {manifest['database']} database: "
                          "set SCOREKEEPER_DATABASE_URL to one")
    instance.mkdir(parents=True, exist_ok=True)
    for name in (SECRET, CONFIG):
        if name in manifest["files"]:
            put_back(folder / name, instance / name)
    return manifest


def put_back(source: Path, target: Path) -> None:
    """Copy a file into place whole (written beside, then renamed), keeping the one it replaces."""
    if target.exists() and target.read_bytes() != source.read_bytes():
        shutil.copy2(target, target.with_name(f"{target.name}.before-restore"))
    partial = target.with_name(f".{target.name}.restoring")
    shutil.copy2(source, partial)
    os.replace(partial, target)
