"""Security headers on every answer: no inline scripts, no sniffing, no framing, no leaking links.

Over https (directly, or behind a trusted proxy that says so: PROXIES), answers also send
Strict-Transport-Security unless HSTS is turned off, so a phone never falls back to plain http.

An answer that carries a key or a form's token (an edit or admin link, the API's edit_key, any page
with a form) is sent with Cache-Control: no-store, so no browser cache, proxy or back button keeps it.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, g, request

from ..kept import Kept

POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    # Edit links carry a key: never send the address of a page to another site.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}

# What shows that an answer may hold a secret: a form (its CSRF token, or what was typed into it), an edit
# or admin key in JSON.
SECRETS = (b"<form", b'name="csrf_token"', b'"edit_key"', b'"admin_key"')
SCANNED = frozenset({"text/html", "application/json"})


def mark_private() -> None:
    """Say that this answer shows a key (an edit link, an admin page): it is sent with no-store."""
    g.private = True


def holds_secret(response: Response) -> bool:
    if g.get("private"):
        return True
    if response.mimetype not in SCANNED or response.direct_passthrough or response.is_streamed:
        return False
    body = response.get_data()
    # A kept page is the same bytes object view after view, and a bytes object keeps its hash: its scan
    # is remembered by the hash, the length and both ends (a page of forty kilobytes, five scans a view).
    return _scanned.fetch((hash(body), len(body), body[:64], body[-64:]),
                          lambda: any(mark in body for mark in SECRETS))


_scanned: Kept[tuple[int, int, bytes, bytes], bool] = Kept(1024)  # what the scan found in the latest bodies


def secure(response: Response) -> Response:
    # One pass over the headers already set (a view may have chosen its own), not one per name.
    present = {name.lower() for name in response.headers.keys()}
    for name, value in HEADERS.items():
        if name.lower() not in present:
            response.headers.add(name, value)
    if holds_secret(response) and "no-store" not in response.headers.get("Cache-Control", ""):
        response.headers["Cache-Control"] = "no-store"
    if request.is_secure and current_app.config["HSTS"]:
        response.headers["Strict-Transport-Security"] = f"max-age={int(current_app.config['HSTS_MAX_AGE'])}"
    return response


def init_app(app: Flask) -> None:
    app.after_request(secure)
