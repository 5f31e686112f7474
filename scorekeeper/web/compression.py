"""Text answers compressed for the phone: HTML, CSS, JavaScript, JSON, SVG, CSV and the calendar feed.

A laptop serving the club has no proxy in front to compress for it, so the app does, with Flask-Compress
(zstd, brotli or gzip, whichever the phone asks for first). PDFs and PNGs are compressed already and
travel as they are; an answer under COMPRESS_MIN_SIZE bytes (a 304, a short refusal) is not worth it.

A compressed answer is another representation of the same resource, so Flask-Compress gives it its own
strong ETag, the app's tag with the encoding after a colon ("ab12:br"). A phone sends that tag back in
If-None-Match; ``sent_tags_as_ours`` takes the suffix off before any view reads the header, so the cheap
checks of the views (the match poll, the sheets, the club's live address) see the app's own tag and
answer 304 without loading anything, compressed or not.
"""

from __future__ import annotations

import re

from flask import Flask, Response, g, request
from flask_compress import Compress

from . import static_files
from .page_cache import PageCache

MIMETYPES = ["text/html", "text/css", "text/javascript", "application/javascript", "application/json",
             "application/manifest+json", "application/problem+json", "image/svg+xml", "text/csv",
             "text/calendar", "text/plain", "application/xml"]
ALGORITHMS = ["zstd", "br", "gzip", "deflate"]  # preferred first, among those the phone accepts alike
# A tag as Flask-Compress changes it: the app's own, then ":" and the encoding, inside the quotes.
ENCODED_TAG = re.compile(r'(W/)?"([^"]*):(?:' + "|".join(ALGORITHMS) + ')"')


class KeptCompressed:
    """Flask-Compress's cache, for the answers that are the same bytes for every phone that asks (a watched
    match's page, the match's state after a change): compressed once per version and encoding, not once
    per phone of the table. An answer a view did not mark (compressed_as) is compressed afresh, as before."""

    def __init__(self, budget: int = 4_000_000) -> None:
        self.kept = PageCache(budget=budget)

    def get(self, key: str) -> bytes | None:
        return None if key.endswith(";") else self.kept.get(key)

    def set(self, key: str, value: bytes) -> None:
        if not key.endswith(";"):
            self.kept.put(key, value)


def compressed_as(key: str) -> None:
    """Say that this answer's body is the same for every phone asking under key (a page and its version)."""
    g.compressed_as = key


def _cache_key(_request: object) -> str:
    return g.get("compressed_as", "")


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_CACHE_BACKEND", KeptCompressed)
    app.config.setdefault("COMPRESS_CACHE_KEY", _cache_key)
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", ALGORITHMS)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)  # about gzip's time, a fifth smaller than gzip on our pages
    Compress(app)
    app.before_request(sent_tags_as_ours)
    app.after_request(static_in_memory)  # registered after Compress: runs before its hook


def static_in_memory(response: Response) -> Response:
    """A static file read into the answer, so it is compressed whole with its length (not streamed in
    chunks) and the file is closed here rather than left to the collector."""
    if request.endpoint in static_files.ENDPOINTS and response.status_code == 200 and response.is_streamed:
        response.direct_passthrough = False
        response.make_sequence()
    return response


def sent_tags_as_ours() -> None:
    """If-None-Match with each compressed representation's tag read as the app's own, before a view reads it."""
    sent = request.environ.get("HTTP_IF_NONE_MATCH")
    if sent and ":" in sent:
        request.environ["HTTP_IF_NONE_MATCH"] = ours(sent)


def ours(header: str) -> str:
    """An If-None-Match header with the encodings taken off its tags.

    >>> ours('"3-7:br", W/"a:gzip", "b:c"')
    '"3-7", W/"a", "b:c"'
    """
    return ENCODED_TAG.sub(lambda found: f'{found.group(1) or ""}"{found.group(2)}"', header)
