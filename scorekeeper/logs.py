"""Logs that hold no key: gunicorn's access and error logs, the app's logger and the dev server's.

Loaded by the gunicorn master (``logger_class`` in gunicorn.conf.py), so it imports only the
standard library and gunicorn.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from gunicorn import glogging

if TYPE_CHECKING:
    from flask import Flask

REDACTED = "[redacted]"
SCHEME = re.compile(r"\A(\S+)(\s+)\S")  # a scheme, then its credentials
TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])")  # secrets.token_urlsafe(24)
HEX = re.compile(r"[0-9a-fA-F]{32}")
SECRET_HEADERS = ("authorization", "proxy-authorization", "cookie", "set-cookie", "club-member-key", "club-admin-key")


def spelled(word: str) -> str:
    """A pattern for word in either case, any of its characters percent-encoded, once or again (%256B)."""
    def one(char: str) -> str:
        codes = "|".join(sorted({f"{ord(char.lower()):02x}", f"{ord(char.upper()):02x}"}))
        return f"(?:{re.escape(char)}|%(?:25)*(?:{codes}))"
    return "".join(one(char) for char in word)


# Where a key travels: the edit link's ?key= (any parameter whose name holds "key", = as %3D too);
# the admin link's segment after /join/ and a member link's after /member/ (slashes doubled or encoded);
# a Bearer credential. Only the secret part is replaced.
RULES = [re.compile(pattern, re.IGNORECASE) for pattern in (
    spelled("key") + r"[^\s\"'&#=?/]{0,64}?(?:=|%(?:25)*3d)(?P<secret>[^\s\"'&#<>\\\x00-\x1f\x7f]+)",
    spelled("join") + r"(?:/|%(?:25)*2f)+(?P<secret>[^\s\"'/?#\\\x00-\x1f\x7f]+)",
    spelled("member") + r"(?:/|%(?:25)*2f)+(?P<secret>[^\s\"'/?#\\\x00-\x1f\x7f]+)",
    spelled("bearer") + r"(?:\s|\+|%(?:25)*20)+(?P<secret>[^\s\"',;\\\x00-\x1f\x7f]+)",
)]


def hide(found: re.Match[str]) -> str:
    return found.group(0)[:found.start("secret") - found.start()] + REDACTED


def redact(text: str) -> str:
    """Text with every key taken out, the rest as it was.

    >>> redact('"GET /m/AbC/join?key=s3cret HTTP/1.1" 302')
    '"GET /m/AbC/join?key=[redacted] HTTP/1.1" 302'
    >>> redact("GET /c/AbC/join/s3cret/x")
    'GET /c/AbC/join/[redacted]/x'
    >>> redact("GET /c/AbC/member/s3cret HTTP/1.1")
    'GET /c/AbC/member/[redacted] HTTP/1.1'
    """
    for rule in RULES:
        text = rule.sub(hide, text)
    return without_tokens(text)


def without_tokens(text: str) -> str:
    """Text without the 32 characters of any key the app made, wherever it stands (also as %-decoded)."""
    views, decoded = [text], text
    while "%" in decoded and (decoded := unquote(decoded)) != views[-1]:
        views.append(decoded)
    for view in views:
        for token in set(TOKEN.findall(view)):
            if not HEX.fullmatch(token):  # a digest, not a key
                text = text.replace(token, REDACTED)
    return text


def redact_header(name: str, value: str) -> str:
    """A header's value with its secret taken out: credentials after the scheme, every cookie's value."""
    if name in ("club-member-key", "club-admin-key"):
        return REDACTED if value.strip() else value
    if name.endswith("authorization"):
        scheme = SCHEME.match(value)
        if scheme:
            return scheme.group(1) + scheme.group(2) + REDACTED
        return REDACTED if value.strip() else value
    if name == "cookie":
        return "; ".join(part.strip().split("=", 1)[0] + "=" + REDACTED for part in value.split(";") if part.strip())
    if name == "set-cookie":
        pair, sep, attributes = value.partition(";")
        return pair.split("=", 1)[0] + "=" + REDACTED + sep + redact(attributes)
    return redact(value)


def redact_atom(name: str, value: Any) -> Any:
    """An access log atom without a key: %(r)s, %(U)s, %(q)s, %(f)s, %({header}i)s, %({header}o)s, %({var}e)s."""
    if value is None or isinstance(value, int | float):
        return value
    text = value if isinstance(value, str) else str(value)
    header = name[1:-2] if name[:1] == "{" and name[-2:] in ("}i", "}o") else None
    if name[:1] == "{" and name.endswith("}e") and name.startswith("{http_"):
        header = name[6:-2].replace("_", "-")
    return redact_header(header, text) if header in SECRET_HEADERS else redact(text)


class RedactedAtoms(glogging.SafeAtoms):
    """gunicorn's atoms, each redacted as the access log format asks for it."""

    def __getitem__(self, name: str) -> Any:
        return redact_atom(name.lower(), super().__getitem__(name))


class Redacting(logging.Filter):
    """Takes every key out of a record's message and traceback before any handler writes it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError, KeyError):  # arguments that do not fit: the message as written
            message = str(record.msg)
        record.msg, record.args = redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text, record.exc_info = redact(record.exc_text), None
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def install(logger: logging.Logger) -> None:
    """Redact every record of this logger (once, however often it is set up)."""
    if not any(isinstance(kept, Redacting) for kept in logger.filters):
        logger.addFilter(Redacting())


class Logger(glogging.Logger):
    """gunicorn's logger (``logger_class``): an access log and an error log without keys."""

    atoms_wrapper_class = RedactedAtoms

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        install(self.error_log)
        install(self.access_log)


def init_app(app: Flask) -> None:
    """Redact the app's own log and the request lines of the dev server (``flask run``)."""
    install(app.logger)
    install(logging.getLogger("werkzeug"))
