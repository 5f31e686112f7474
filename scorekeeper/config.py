"""Configuration: defaults, then instance/config.py, then SCOREKEEPER_* variables, then test overrides."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
SECRET_FILE = "secret_key"
# Rate limits per client address (web/rate_limits/), far above what a real table does: a family makes
# a few matches an evening, a club night a few dozen from one shared address; a club prints a stack
# of blank sheets. The counts are kept in instance/rate-limits.sqlite (web/rate_limits/counts.py), which every
# worker and process of the machine shares; RATELIMIT_STORAGE_URI "redis://host:6379/0" shares them
# between servers too ("memory://": each process counts alone).
RATE_LIMITS: dict[str, Any] = {
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "",  # empty: the machine's file in the instance folder
    # A Redis that does not answer within a second is skipped (and logged), never waited for; the
    # machine's file is given a tenth of a second.
    "RATELIMIT_STORAGE_OPTIONS": {"wrap_exceptions": True, "socket_connect_timeout": 1, "socket_timeout": 1},
    "RATELIMIT_KEY_PREFIX": "scorekeeper",
    "RATELIMIT_SWALLOW_ERRORS": True,  # a shared store that is down must not stop the table
    "RATELIMIT_NEW_MATCHES": "30 per minute; 300 per hour",
    "RATELIMIT_CLUB_MATCHES": "300 per minute; 3000 per hour",  # per club: every table of a big evening at once
    # Per club and address, counted before the club's total: a fifth of it, so that one address cannot spend
    # it. The club's admin and proven members count apart (the admin as much as the club's total, a member as
    # much as one address), so strangers never refuse them (web/rate_limits/club_counts.py).
    "RATELIMIT_CLUB_MATCHES_PER_ADDRESS": "60 per minute; 600 per hour",
    "RATELIMIT_NEW_CLUBS": "10 per minute; 60 per hour",  # a club is made once and played for months
    "RATELIMIT_RESTORES": "10 per minute; 60 per hour",
    "RATELIMIT_PDFS": "30 per minute; 300 per hour",  # per address; a club's per club, a club match's per match
    "RATELIMIT_CLUB_PDFS_PER_ADDRESS": "10 per minute; 100 per hour",  # a club's, per club and address
    # Attendance answers recorded: per address over every club, and per club and address.
    "RATELIMIT_ANSWERS": "60 per minute; 600 per hour",
    "RATELIMIT_CLUB_ANSWERS_PER_ADDRESS": "20 per minute; 200 per hour",
    "RATELIMIT_WRONG_KEYS": "20 per minute; 100 per hour",  # per address; a right key is never counted
    "RATELIMIT_WRONG_KEYS_PER_MATCH": "30 per minute; 150 per hour",
}


# PDF sheets (web/sheets.py, render_slots.py, web/sheet_cache.py): how many render at once on this
# machine, across all workers (one per two cores leaves the others to pages and polls); how long a
# download waits for a turn before the answer is 503; how many bytes of rendered sheets are kept;
# CSS laid out after the sheets' own (pdf.py; none but in tests, which keep no sheets with it).
PDF_SHEETS: dict[str, Any] = {
    "PDF_RENDERS": max(1, (os.cpu_count() or 2) // 2),
    "PDF_RENDER_WAIT": 3,
    "PDF_CACHE_BYTES": 64_000_000,
    "PDF_EXTRA_CSS": "",
}


def instance_path() -> str:
    """The instance folder: SCOREKEEPER_INSTANCE_PATH or instance/ beside the package."""
    return os.environ.get("SCOREKEEPER_INSTANCE_PATH") or str(ROOT / "instance")


class NoSecretKey(RuntimeError):
    """The instance folder cannot hold a new secret key (a full disk, a read-only folder): the app cannot start."""


def stored_secret(folder: Path) -> str:
    """Read the secret key kept in the instance folder, creating it on first start.

    The key file is written whole or not at all: written and synced under another name, then linked into
    place, which fails if another process got there first (its key is then read). A key file left empty by
    an older release that started on a full disk holds no key and is made again; a start that cannot write
    one stops with a sentence instead of running without a key its workers share.
    """
    path = folder / SECRET_FILE
    found = path.read_text().strip() if path.exists() else ""
    if found:
        return found
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f".{SECRET_FILE}.{os.getpid()}"
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists() and not path.read_text().strip():
            path.unlink(missing_ok=True)  # an empty key file: a start on a full disk, before writes were whole
        try:
            os.link(partial, path)
        except FileExistsError:
            pass  # another worker wrote it first: theirs is the key
    except OSError as err:
        raise NoSecretKey(f"cannot write the secret key to {path} ({err.strerror}): free some space in the "
                          "instance folder, or set SCOREKEEPER_SECRET_KEY, and start again") from err
    finally:
        partial.unlink(missing_ok=True)
    return path.read_text().strip()


def configure(app: Flask, test_config: Mapping[str, object] | None) -> None:
    """Load settings in order; the last source wins."""
    folder = Path(app.instance_path)
    folder.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{folder / 'scorekeeper.sqlite'}",
        SESSION_COOKIE_SAMESITE="Lax",
        # Re-sign the cookie only when it changes: a match page view always does (it remembers the
        # match), so the 60 days still run from the last visit, and the polls every few seconds
        # answer without a Set-Cookie.
        SESSION_REFRESH_EACH_REQUEST=False,
        PERMANENT_SESSION_LIFETIME=timedelta(days=60),
        CSRF_TIME_LIMIT=timedelta(hours=24),
        MAX_CONTENT_LENGTH=256 * 1024,
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        # How many proxies in front add X-Forwarded-For (and -Proto): the client's address is the one
        # the nearest of them saw. 0: the connection's own address (no proxy, or one not trusted).
        PROXIES=0,
        # The host names this server answers to (web/hosts.py); None: IP addresses and names no one can
        # register publicly (localhost, laptop.local). A server on the internet lists its own.
        TRUSTED_HOSTS=None,
        # Bytes of pages the workers share in instance/pages (web/page_cache.py): past it the pages read least
        # recently go first; 0 shares none (each worker keeps its own in memory).
        PAGES_CACHE_BYTES=32_000_000,
        # Over https (directly or through a trusted proxy), tell browsers to use nothing else for a year.
        HSTS=True,
        HSTS_MAX_AGE=365 * 24 * 3600,
        **RATE_LIMITS,
        **PDF_SHEETS,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("SCOREKEEPER")
        if "DATABASE_URL" in app.config:
            app.config["SQLALCHEMY_DATABASE_URI"] = app.config["DATABASE_URL"]
    else:
        app.config.from_mapping(test_config)
    if not str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        # A database server restarted (or a connection it dropped) leaves dead connections in each worker's
        # pool: each is tried before use and replaced, instead of answering the next request 500.
        options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        options.setdefault("pool_pre_ping", True)
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    app.json.sort_keys = False  # keep the API's fields in the documented order
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = stored_secret(folder)
