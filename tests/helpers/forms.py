"""Forms posted the way a browser posts them: with the page's CSRF token."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def csrf_token(client: FlaskClient, url: str = "/new/barbu") -> str:
    """The CSRF token a page hands this client (the same for the whole session)."""
    page = client.get(url)
    match = TOKEN.search(page.text)
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def post_form(client: FlaskClient, url: str, data: dict[str, Any], token_from: str | None = None):
    """Post a form the way a browser does: with the page's CSRF token."""
    return client.post(url, data={"csrf_token": csrf_token(client, token_from or url), **data})
