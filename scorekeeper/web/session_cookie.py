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
from collections.abc import Mapping
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import Flask, Request, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, session_json_serializer
from itsdangerous import BadData, URLSafeTimedSerializer

NONCE = 12  # bytes, as AES-GCM wants: drawn afresh for every cookie written
SEALED = b"\x01"  # the format's first byte, so a later format can be told apart


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


class SealedSessionInterface(SecureCookieSessionInterface):
    """Flask's cookie session, encrypted; a cookie that cannot be read is an empty session, never an error."""

    salt = "sealed-session"

    def secrets(self, app: Flask) -> list[str | bytes]:
        return [*(app.config["SECRET_KEY_FALLBACKS"] or []), app.secret_key]

    def signed(self, app: Flask, kind: type[URLSafeTimedSerializer], salt: str, serializer: Any) -> URLSafeTimedSerializer:
        signer = {"key_derivation": self.key_derivation, "digest_method": self.digest_method}
        return kind(self.secrets(app), salt=salt, serializer=serializer, signer_kwargs=signer)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        return self.signed(app, SealedSerializer, self.salt, Sealer(self.secrets(app)))

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        sealed = self.get_signing_serializer(app)
        if sealed is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            return self.session_class(sealed.loads(value, max_age=max_age))
        except BadData:
            return self.unsealed(app, value, max_age)

    def unsealed(self, app: Flask, value: str, max_age: int) -> SecureCookieSession:
        """A cookie Flask signed before cookies were sealed: kept, and sealed in this answer."""
        legacy = self.signed(app, URLSafeTimedSerializer, SecureCookieSessionInterface.salt, session_json_serializer)
        try:
            data = legacy.loads(value, max_age=max_age)
        except BadData:
            return self.session_class()
        if not isinstance(data, dict):
            return self.session_class()
        session = self.session_class(data)
        session.modified = True
        return session

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure when the settings say so, or when this phone reached us over https."""
        return super().get_cookie_secure(app) or (has_request_context() and request.is_secure)


def init_app(app: Flask) -> None:
    app.session_interface = SealedSessionInterface()
