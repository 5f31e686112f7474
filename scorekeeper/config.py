"""Configuration: defaults, then instance/config.py, then SCOREKEEPER_* variables, then test overrides."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
SECRET_FILE = "secret_key"


def instance_path() -> str:
    """The instance folder: SCOREKEEPER_INSTANCE_PATH or instance/ beside the package."""
    return os.environ.get("SCOREKEEPER_INSTANCE_PATH") or str(ROOT / "instance")


def stored_secret(folder: Path) -> str:
    """Read the secret key kept in the instance folder, creating it on first start."""
    path = folder / SECRET_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
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
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("SCOREKEEPER")
        if "DATABASE_URL" in app.config:
            app.config["SQLALCHEMY_DATABASE_URI"] = app.config["DATABASE_URL"]
    else:
        app.config.from_mapping(test_config)
    app.json.sort_keys = False  # keep the API's fields in the documented order
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = stored_secret(folder)
