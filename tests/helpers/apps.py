"""Apps made by a test with settings of its own, on the test's database, disposed of afterwards."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask

from scorekeeper.app import create_app
from scorekeeper.db import db


@contextlib.contextmanager
def apps(database_url: str, **base: Any) -> Iterator[Callable[..., Flask]]:
    """make(**settings): an app on database_url with base and then settings over the test defaults."""
    made: list[Flask] = []

    def make(**settings: Any) -> Flask:
        made.append(create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": database_url,
                                "RATELIMIT_ENABLED": False, **base, **settings}))
        return made[-1]

    try:
        yield make
    finally:
        for app in made:
            with app.app_context():
                db.session.remove()
                db.engine.dispose()
