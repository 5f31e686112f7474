"""Which host names this server answers to, so that no link it builds (an edit link above all) names another.

TRUSTED_HOSTS (``SCOREKEEPER_TRUSTED_HOSTS="scores.example.org,.club.example.org"``) lists the names
a deployment is reached by; a name starting with a dot also covers its subdomains. Unset, the server
answers to what a laptop on a club's Wi-Fi is reached by, names that nobody can register on the public
internet: an IP address, a name without dots (``localhost``, the machine's own name, a container's), or a
name under .local, .localhost, .lan, .home.arpa or .internal. Any other Host is answered 400 before a
view runs, so no page, API answer or QR code carries a link to it.
"""

from __future__ import annotations

import ipaddress
import re

from flask import Flask, abort, current_app, make_response, render_template, request
from flask_babel import gettext as _
from werkzeug.sansio.utils import host_is_trusted

from ..games.base import N_
from .errors import json_error, wants_json

# A Host header: a name (letters, digits, hyphens, dots; a final dot allowed) or a bracketed IPv6 address,
# then an optional port.
HOST = re.compile(r"(?P<name>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?\.?)(?::(?P<port>[0-9]{1,5}))?")
PRIVATE_SUFFIXES = (".local", ".localhost", ".lan", ".home.arpa", ".internal")
UNKNOWN_HOST = N_("This server does not answer to that address. Open it by the address its organiser gave you.")


def hosts_setting(value: object) -> list[str] | None:
    """The TRUSTED_HOSTS setting as a list: a list as given, or a string of names split on commas or spaces.

    >>> hosts_setting("scores.example.org, .club.example.org")
    ['scores.example.org', '.club.example.org']
    >>> hosts_setting(None), hosts_setting("")
    (None, None)
    """
    if value is None or value == "":
        return None
    names = re.split(r"[\s,]+", value) if isinstance(value, str) else [str(name) for name in value]  # type: ignore[attr-defined]
    return [name.strip().lower() for name in names if name.strip()] or None


def unregistrable(name: str) -> bool:
    """A name no one can hold on the public internet: an IP address, a single label, a private-use suffix.

    >>> [unregistrable(n) for n in ("127.0.0.1", "[::1]", "localhost", "laptop.local", "192.168.1.20")]
    [True, True, True, True, True]
    >>> [unregistrable(n) for n in ("evil.example", "scores.example.org", "evil.local.example.com")]
    [False, False, False]
    """
    name = name.lower().rstrip(".")
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        pass
    return "." not in name or name.endswith(PRIVATE_SUFFIXES)


def trusted(host: str, allowed: list[str] | None) -> bool:
    """Whether a Host header names this server.

    >>> trusted("scores.example.org:443", ["scores.example.org"]), trusted("evil.example", ["scores.example.org"])
    (True, False)
    >>> trusted("a.club.example.org", [".club.example.org"]), trusted("127.0.0.1:5000", None), trusted("evil.example", None)
    (True, True, False)
    >>> trusted("evil.example/x", None), trusted("user@localhost", None), trusted("localhost:99999", None)
    (False, False, False)
    """
    found = HOST.fullmatch(host)
    if found is None or (found["port"] and int(found["port"]) > 65535):
        return False
    if allowed is not None:
        return host_is_trusted(host, allowed)
    return unregistrable(found["name"])


def check_host() -> None:
    """Answer 400 to a request addressed to a name this server does not answer to."""
    host = request.environ.get("HTTP_HOST")
    if host is not None and not trusted(host, current_app.config["ALLOWED_HOSTS"]):
        current_app.logger.warning("refused a request for host %r: not in TRUSTED_HOSTS", host[:200])
        if wants_json():
            abort(make_response(json_error(400, _(UNKNOWN_HOST))))
        abort(make_response(render_template("error.html", status=400, message=_(UNKNOWN_HOST)), 400))


def init_app(app: Flask) -> None:
    # Flask's own TRUSTED_HOSTS check fails before its URL adapter exists, so the error page itself would
    # break; the setting is read here instead, and checked before any view or hook builds a link.
    app.config["ALLOWED_HOSTS"] = hosts_setting(app.config.get("TRUSTED_HOSTS"))
    app.config["TRUSTED_HOSTS"] = None
    app.before_request(check_host)
