"""The phone's session cookie, sealed: signed as Flask signs it, and encrypted, so that it shows no key.

The cookie holds the edit keys and admin keys this phone opened. Flask's own cookie is signed but
readable (base64 of JSON); here its JSON is compressed and encrypted with AES-GCM under a key derived
from SECRET_KEY (and each of SECRET_KEY_FALLBACKS, for reading), then signed as before. Rotating a
match's or a club's key still revokes every phone, since the stored hash no longer matches what the
cookie holds. A cookie written before it was sealed is read once and sealed in the answer.

Behind a trusted proxy that says the phone connected over https, the cookie is marked Secure.
"""

from __future__ import annotations

import functools
import os
import zlib
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import Flask, Request, Response, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, session_json_serializer
from itsdangerous import BadData, URLSafeTimedSerializer

NONCE = 12  # bytes, as AES-GCM wants: drawn afresh for every cookie written
# A cookie signed "in the future" by up to this much is read: the server's clock stepped back (an NTP step on
# a laptop at a club night) or another server's clock runs ahead. Only a holder of the secret key can sign
# one, so the bound guards against nothing but a clock gone far wrong.
SKEW = 24 * 3600
SEALED = b"\x01"  # the format's first byte, so a later format can be told apart
# Headers of the requests a page makes in the background: its live redraw (static/js/live.js) and the
# service worker fetching the pages the phone will want next (static/sw.js).
BACKGROUND = ("X-Live-Redraw", "X-Kept-Ahead")


def in_background() -> bool:
    """Whether this request was made in the background, not by the phone's reader: it is no visit.

    It never writes the session. It carries the cookie as it was when it left, and its answer may arrive after
    the phone went on: a cookie sent back with it would undo what came between (a key opened, a language
    chosen), and a message flashed for the page the phone is about to show would be taken by a page drawn for
    no one (the worker fetching ahead the page a phone opened before the worker ran, while a form is sent).
    """
    return has_request_context() and any(header in request.headers for header in BACKGROUND)


@functools.lru_cache(maxsize=8)
def cipher(secret: bytes) -> AESGCM:
    """The AES-256-GCM key of one secret, derived with HKDF so the signing key is never reused as is."""
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"scorekeeper session cookie").derive(secret)
    return AESGCM(key)


def as_bytes(secret: str | bytes) -> bytes:
    return secret.encode("utf-8") if isinstance(secret, str) else secret


class Sealer:
    """A serializer for itsdangerous: session JSON in, sealed bytes out, and back."""

    def __init__(self, secrets: list[str | bytes]):
        self.ciphers = [cipher(as_bytes(secret)) for secret in reversed(secrets)]  # the current key first

    def dumps(self, data: Mapping[str, object]) -> bytes:
        plain = zlib.compress(session_json_serializer.dumps(data).encode("utf-8"), 9)
        nonce = os.urandom(NONCE)
        return SEALED + nonce + self.ciphers[0].encrypt(nonce, plain, SEALED)

    def loads(self, sealed: bytes) -> dict[str, object]:
        if sealed[:1] != SEALED or len(sealed) <= 1 + NONCE:
            raise ValueError("not a sealed session")
        nonce, body = sealed[1:1 + NONCE], sealed[1 + NONCE:]
        for each in self.ciphers:
            try:
                plain = each.decrypt(nonce, body, SEALED)
            except InvalidTag:
                continue
            return session_json_serializer.loads(zlib.decompress(plain).decode("utf-8"))
        raise ValueError("sealed with another key")


class SealedSerializer(URLSafeTimedSerializer):
    """itsdangerous' signed, timed, URL-safe token of sealed bytes, as text for the cookie."""

    def dumps(self, obj: Any, salt: str | bytes | None = None) -> str:  # type: ignore[override]
        token = super().dumps(obj, salt)
        return token.decode("ascii") if isinstance(token, bytes) else token


class LazySession(SecureCookieSession):
    """A session whose cookie is opened (checked and decrypted) only when a view first reads or writes it.

    Flask opens the session of every request before the view runs. Most requests never look at it: the
    poll every few seconds, static files, the API with its bearer keys. They now cost no decryption, and
    an answer whose session was never opened sets no cookie (``SealedSessionInterface.save_session``).
    """

    def __init__(self, opener: Callable[[], tuple[dict[str, Any], bool]] | None = None) -> None:
        super().__init__()
        self.opener = opener  # None once opened: what the cookie held, and whether it must be written again

    @property
    def opened(self) -> bool:
        return self.opener is None

    def open(self) -> None:
        if self.opener is not None:
            opener, self.opener = self.opener, None
            data, rewrite = opener()
            dict.update(self, data)
            if rewrite:
                self.modified = True


def _opening(name: str) -> Callable[..., Any]:
    method = getattr(SecureCookieSession, name)

    @functools.wraps(method)
    def opened_first(self: LazySession, *args: Any, **kwargs: Any) -> Any:
        self.open()
        return method(self, *args, **kwargs)

    return opened_first


for _name in ("__getitem__", "__setitem__", "__delitem__", "__contains__", "__iter__", "__len__", "__repr__",
              "__eq__", "__ne__", "__or__", "__ior__", "get", "setdefault", "pop", "popitem", "update", "clear",
              "copy", "keys", "values", "items"):
    setattr(LazySession, _name, _opening(_name))


class SealedSessionInterface(SecureCookieSessionInterface):
    """Flask's cookie session, encrypted; a cookie that cannot be read is an empty session, never an error.

    The cookie is opened when the view first uses the session (LazySession), not for every request."""

    salt = "sealed-session"
    session_class = LazySession

    def secrets(self, app: Flask) -> list[str | bytes]:
        return [*(app.config["SECRET_KEY_FALLBACKS"] or []), app.secret_key]

    def signed(self, app: Flask, kind: type[URLSafeTimedSerializer], salt: str, serializer: Any) -> URLSafeTimedSerializer:
        signer = {"key_derivation": self.key_derivation, "digest_method": self.digest_method}
        return kind(self.secrets(app), salt=salt, serializer=serializer, signer_kwargs=signer)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        return sealing(self, tuple(self.secrets(app)))

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not app.secret_key:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            session = LazySession()
            session.open()
            return session
        return LazySession(lambda: self.read(app, value))

    def read(self, app: Flask, value: str) -> tuple[dict[str, Any], bool]:
        """What the cookie holds, and whether to write it again (sealed now); nothing for a cookie not ours.

        Its age is judged here, not by itsdangerous, which refuses a cookie signed a second "in the future":
        after the server's clock stepped back, every phone would lose its session, and with the next cookie
        written its edit keys for good. A cookie older than the session's lifetime is empty, as before."""
        sealed = self.get_signing_serializer(app)
        assert sealed is not None  # a secret key: open_session checked
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed_at = sealed.loads(value, return_timestamp=True)
        except BadData:
            return self.unsealed(app, value, max_age)
        age = (datetime.now(timezone.utc) - signed_at).total_seconds()
        return (data, False) if -SKEW <= age <= max_age else ({}, False)

    def unsealed(self, app: Flask, value: str, max_age: int) -> tuple[dict[str, Any], bool]:
        """A cookie Flask signed before cookies were sealed: kept, and sealed in this answer."""
        legacy = self.signed(app, URLSafeTimedSerializer, SecureCookieSessionInterface.salt, session_json_serializer)
        try:
            data, signed_at = legacy.loads(value, return_timestamp=True)
        except BadData:
            return {}, False
        age = (datetime.now(timezone.utc) - signed_at).total_seconds()
        if not isinstance(data, dict) or not -SKEW <= age <= max_age:
            return {}, False
        return data, True

    def save_session(self, app: Flask, session: SecureCookieSession, response: Response) -> None:
        """As Flask saves it; a session never opened, or opened by a request made in the background
        (in_background), is left as the phone has it (no cookie, no Vary)."""
        if (isinstance(session, LazySession) and not session.opened) or in_background():
            return
        super().save_session(app, session, response)

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure when the settings say so, or when this phone reached us over https."""
        return super().get_cookie_secure(app) or (has_request_context() and request.is_secure)


@functools.lru_cache(maxsize=8)
def sealing(interface: SealedSessionInterface, secrets: tuple[str | bytes, ...]) -> URLSafeTimedSerializer:
    """The signing and sealing serializer of these secrets, made once: making one seals a test value."""
    signer = {"key_derivation": interface.key_derivation, "digest_method": interface.digest_method}
    return SealedSerializer(list(secrets), salt=interface.salt, serializer=Sealer(list(secrets)), signer_kwargs=signer)


def init_app(app: Flask) -> None:
    app.session_interface = SealedSessionInterface()
    app.add_template_global(in_background)
