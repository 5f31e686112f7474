"""Slow phones: a request's body is read whole before its view runs.

A phone on a poor line may take seconds to send a hand. The production server's gevent worker
waits for it without holding anything up (gunicorn.conf.py), but a view that looked the match up
first would hold a database connection all that time: a few dozen such phones on one worker
would take every connection of its pool, and the other phones' pages would wait for one. Read
first, the body costs the worker only the bytes it keeps (at most MAX_CONTENT_LENGTH).
"""

from __future__ import annotations

from flask import Flask, request


def read_body_first() -> None:
    """Read the body now; the form, files and JSON are then parsed from the bytes kept."""
    if request.content_length or request.headers.get("Transfer-Encoding"):
        request.get_data(cache=True)


def init_app(app: Flask) -> None:
    app.before_request(read_body_first)
