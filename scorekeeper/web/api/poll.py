"""The poll answered 304 before Flask sees it: what a phone watching a match asks every few seconds.

Every phone at a table asks ``GET /api/v1/matches/<id>`` with the tag of the state it shows, and almost
always nothing changed. Answering that through Flask (a request context, the URL map, a dozen hooks, a
response object) cost several times the one indexed read it needs. This WSGI layer sits under the
proxy fix (so it sees the phone's scheme) and answers a poll whose tag is still current with the same
304 the view gives: the tag, the security headers, Vary and, over https, HSTS. Anything else goes on to
the app unchanged: another address, a query string, no If-None-Match, a stale tag, a host this server
does not answer to (the app answers that 400), or any error on the way (the app answers for itself).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.http import parse_etags

from ...db import db
from ...match import matches
from .. import compression, headers, hosts
from .matches import version_tag

PATH = re.compile(r"/api/v1/matches/([A-Za-z0-9_-]{1,64})")
Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class Poll:
    """A WSGI layer around the app that answers a current poll 304 with one indexed read."""

    def __init__(self, app: Flask, inner: Wsgi) -> None:
        self.app, self.inner = app, inner
        self.engine: Any = None
        self.allowed = app.config["ALLOWED_HOSTS"]
        hsts = f"max-age={int(app.config['HSTS_MAX_AGE'])}" if app.config["HSTS"] else None
        self.plain = [*headers.HEADERS.items(), ("Vary", "Accept-Encoding")]
        self.secure = [*self.plain, *([("Strict-Transport-Security", hsts)] if hsts else [])]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        tag = self.current(environ)
        if tag is None:
            return self.inner(environ, start_response)
        sent = self.secure if environ.get("wsgi.url_scheme") == "https" else self.plain
        start_response("304 NOT MODIFIED", [("ETag", f'"{tag}"'), *sent])
        return []

    def current(self, environ: dict[str, Any]) -> str | None:
        """The match's tag when this is a poll of it that already holds it, else None."""
        sent = environ.get("HTTP_IF_NONE_MATCH")
        if not sent or environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return None
        found = PATH.fullmatch(environ.get("PATH_INFO", ""))
        host = environ.get("HTTP_HOST")
        if found is None or (host is not None and not hosts.trusted(host, self.allowed)):
            return None
        try:
            if self.engine is None:
                with self.app.app_context():
                    self.engine = db.engine
            peeked = matches.peek_in(self.engine, found[1])
        except Exception:  # noqa: BLE001 (the app's own path answers, and logs, whatever went wrong)
            return None
        if peeked is None:
            return None
        tag = version_tag(found[1], peeked.version)
        return tag if parse_etags(compression.ours(sent)).contains_weak(tag) else None


def init_app(app: Flask) -> None:
    """Put the poll under the layers added later (the proxy fix): call before rate_limits.init_app."""
    app.wsgi_app = Poll(app, app.wsgi_app)  # type: ignore[method-assign]
