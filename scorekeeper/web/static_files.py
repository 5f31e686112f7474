"""Static files under addresses that change with their content, kept by the phone for a year.

Every address ``url_for("static", ...)`` builds carries the static folder's build, a digest of all its
files: ``/static/3f9c0a1b2d4e/style.css``. A phone keeps such a file for a year without asking again
(``immutable``), and a change to any file makes a new build and so new addresses, which the pages, the
manifest and the service worker's list name from then on. One digest for the folder, not one per file:
the pages' scripts are ES modules that import each other by relative paths ("./outbox/index.js"), which
resolve inside the address of the module that imports them, so every module must share one prefix.

Two older kinds of address still answer, with the file as it is now and ``no-cache`` (the phone asks
again each time, 304 while it is unchanged): ``/static/style.css``, as pages printed before this scheme
and other sites link to it, and an earlier build's ``/static/<old build>/style.css``, which a page kept
by the service worker from before a new version may still ask for. While the app runs in debug mode,
files are edited under a build computed at start, so they are all ``no-cache`` too.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from flask import Flask, Response, current_app, request
from werkzeug.routing import BaseConverter

BUILD_LENGTH = 12  # hex digits of the digest in every address
YEAR = 365 * 24 * 3600
ENDPOINTS = ("static", "static_of_a_build", "static_unversioned")  # every address that serves a static file
SKIPPED = re.compile(r"(^|/)(__pycache__|\.)|\.py$")  # what never travels: the icons' drawing script, caches


def build_of(folder: Path) -> str:
    """The digest of every file a phone may fetch from the static folder, names and contents."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if path.is_file() and not SKIPPED.search(relative):
            digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:BUILD_LENGTH]


def url_path(folder: Path) -> str:
    """The static route's prefix for this folder as it is now: ``/static/<build>``."""
    return f"/static/{build_of(folder)}"


def build_in(address: str) -> str:
    """The build a static address carries, "" for none.

    >>> build_in("/static/3f9c0a1b2d4e/js/main.js"), build_in("/static/style.css")
    ('3f9c0a1b2d4e', '')
    """
    found = re.search(rf"/static/([0-9a-f]{{{BUILD_LENGTH}}})/", address)
    return found.group(1) if found else ""


class BuildConverter(BaseConverter):
    """A build's digest in an address: exactly BUILD_LENGTH lower-case hex digits."""

    regex = f"[0-9a-f]{{{BUILD_LENGTH}}}"


def whole_files() -> None:
    """A static file is always sent whole: a part of it (Range) would be compressed with a length that
    counts the plain bytes. Its files are small, and a phone keeps them."""
    if request.endpoint in ENDPOINTS:
        request.environ.pop("HTTP_RANGE", None)


def init_app(app: Flask) -> None:
    app.before_request(whole_files)
    app.url_map.converters["build"] = BuildConverter
    app.add_url_rule("/static/<build:build>/<path:filename>", endpoint="static_of_a_build",
                     view_func=of_a_build)
    app.add_url_rule("/static/<path:filename>", endpoint="static_unversioned", view_func=unversioned)
    app.after_request(cache_for)


def of_a_build(build: str, filename: str) -> Response:
    """An earlier build's address: the file as it is now, asked again each time."""
    return current_app.send_static_file(filename)


def unversioned(filename: str) -> Response:
    """An address without a build: the file as it is now, asked again each time."""
    return current_app.send_static_file(filename)


def cache_for(response: Response) -> Response:
    """A year for the current build's files, unless in debug mode; no-cache for every other static address.

    Every static answer says which build it comes from (X-Static-Build): the service worker keeps a file
    under a build's address only when that build sent it, so a server still on an older build (another
    machine during a deploy) never fills a newer build's addresses with old files."""
    if request.endpoint not in ENDPOINTS or response.status_code >= 400:
        return response
    response.headers["X-Static-Build"] = build_in(current_app.static_url_path + "/")
    response.headers.pop("Expires", None)  # Cache-Control says it all
    if request.endpoint == "static" and not current_app.debug:
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response
