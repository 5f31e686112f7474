"""Capability links: an unguessable public id, and a key of which only the hash is stored.

A match's edit link and a club's admin link are the same idea: whoever holds the link may write.
Both are made, stored and checked here.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
KEY_BYTES = 24  # 192 random bits: the API promises at least 128


def new_public_id() -> str:
    """An unguessable id for a link: 16 random bytes, URL-safe, never starting with "-".

    An id that starts with "-" reads as an option on a command line (`flask sheet -Yx…`),
    so such draws (one in 64) are drawn again, which costs the id less than 0.03 of its 128 bits.
    """
    while (public_id := secrets.token_urlsafe(16)).startswith("-"):
        pass
    return public_id


def new_key() -> str:
    """A new secret key for a link, URL-safe."""
    return secrets.token_urlsafe(KEY_BYTES)


def hash_key(key: str) -> str:
    """What is stored of a key.

    >>> hash_key("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def key_matches(stored_hash: str, key: str | None) -> bool:
    """Compare a key with the stored hash in constant time.

    >>> key_matches(hash_key("abc"), "abc"), key_matches(hash_key("abc"), "abd"), key_matches(hash_key(""), "")
    (True, False, False)
    """
    return bool(key) and hmac.compare_digest(hash_key(key), stored_hash)


def is_public_id(value: Any) -> bool:
    """Whether a value has the shape of a public id (anything else names no match and no club).

    >>> is_public_id("Ab_9-"), is_public_id("a/b"), is_public_id(None), is_public_id("x" * 65)
    (True, False, False, False)
    """
    return isinstance(value, str) and PUBLIC_ID.fullmatch(value) is not None
