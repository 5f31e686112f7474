"""Writes made exactly once: a phone names each write with a key, and a repeat of it is answered again.

A phone that loses the answer to a write (the Wi-Fi dropped, the server restarted) sends it again
under the same key. The first time, the write and its receipt (the key, what the write was, the
answer given) are committed together; any later time, on any server process, the receipt is
found and its answer sent again, and nothing is written. The receipts table's unique
(match, key) constraint and the match version keep two servers racing with one key from both
writing, and a write refused after its first look for the key looks again before it says so.
Only a write that was made leaves a receipt: a refused one (409, 422) can be sent again
and is judged against the match as it then is.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import zlib
from collections.abc import Callable
from typing import Any, NamedTuple

from sqlalchemy import select

from ..db import db
from ..games.base import N_, Replay
from ..models import Match, Receipt, StartReceipt
from ..refusals import refuse

KEY_MAX = 128
KEY = re.compile(rf"[\x21-\x7e]{{1,{KEY_MAX}}}")  # visible ASCII: UUIDs, base64url tokens


class Pending(NamedTuple):
    """A write about to be made under a key: what it is, and the answer it will get."""

    key: str
    fingerprint: str
    status: int
    answer: Callable[[Match, Replay, int], bytes]  # (match, replay after the write, hand number) -> JSON body


class Replayed(Exception):
    """The write was made before under this key: send its answer again."""

    def __init__(self, receipt: Receipt):
        self.status = receipt.status
        self.number = receipt.number
        self.body = zlib.decompress(receipt.body)
        super().__init__(f"replayed write of hand {receipt.number}")

    def json(self) -> Any:
        return json.loads(self.body)


def parse_key(value: str | None, field: str) -> str | None:
    """The key sent, None when none was; a malformed one is refused (422) under field.

    >>> parse_key("0b5e9c1f-2d6a-4c71-9a43-5e0f1b2c3d4e", "Idempotency-Key")
    '0b5e9c1f-2d6a-4c71-9a43-5e0f1b2c3d4e'
    >>> parse_key(None, "Idempotency-Key") is None
    True
    """
    if value is None:
        return None
    if not KEY.fullmatch(value):
        raise refuse(field, N_("An idempotency key is 1 to {limit} visible characters, without spaces."),
                     limit=KEY_MAX)
    return value


def fingerprint(method: str, target: str, content: Any) -> str:
    """What a write is, in 64 hex digits: the same method, address and content give the same print.

    >>> fingerprint("POST", "/x", {"a": 1, "b": [2]}) == fingerprint("POST", "/x", {"b": [2], "a": 1})
    True
    >>> fingerprint("POST", "/x", {"a": 1}) == fingerprint("PUT", "/x", {"a": 1})
    False
    """
    canonical = json.dumps([method, target, content], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def check(match_id: int, pending: Pending | None) -> None:
    """Raise Replayed when this key already wrote to the match, a refusal when it wrote something else."""
    if pending is None:
        return
    receipt = db.session.scalar(select(Receipt).where(Receipt.match_id == match_id, Receipt.key == pending.key))
    if receipt is None:
        return
    if receipt.fingerprint != pending.fingerprint:
        raise refuse("Idempotency-Key", N_("This idempotency key was already used for a different request."))
    raise Replayed(receipt)


def check_again(match_id: int, pending: Pending | None) -> None:
    """Look for the key afresh before a refusal: a copy of this write may have committed since the first look.

    Two tabs of one phone send the same kept hand at once; the copy that looked too early is
    refused by the hand its twin recorded, and is a repeat all the same.
    """
    if pending is None:
        return
    db.session.rollback()
    check(match_id, pending)


def keep(match: Match, pending: Pending | None, played: Replay, number: int) -> None:
    """Add the receipt of the write being committed (after a flush: the answer names the new version)."""
    if pending is None:
        return
    body = pending.answer(match, played, number)
    db.session.add(Receipt(match_id=match.id, key=pending.key, fingerprint=pending.fingerprint, number=number,
                           status=pending.status, body=zlib.compress(body)))


# -- a match started once: the start sent again under its key answers the match it started ------------


class Start(NamedTuple):
    """A match start made under a key: the key's hash (with where it was sent), what the start is, and the
    edit key the match gets, made from the key and the app's secret so that a repeat can answer it again."""

    key_hash: str
    fingerprint: str
    edit_key: str


def start_of(key: str | None, scope: str, fingerprint_of: str, secret: str | bytes) -> Start | None:
    """The start under this key (None without one); scope says where it was sent (casual, or which club)."""
    if key is None:
        return None
    key_hash = hashlib.sha256(f"{scope}\0{key}".encode("utf-8", "surrogatepass")).hexdigest()
    raw = secret.encode() if isinstance(secret, str) else bytes(secret)
    made = hmac.new(raw, b"match-start\0" + key_hash.encode(), hashlib.sha256).digest()[:24]
    return Start(key_hash, fingerprint_of, base64.urlsafe_b64encode(made).decode().rstrip("="))


def started(start: Start | None) -> Match | None:
    """The match this start made before (None for a first start); the key sent for another start is refused."""
    if start is None:
        return None
    receipt = db.session.scalar(select(StartReceipt).where(StartReceipt.key_hash == start.key_hash))
    if receipt is None:
        return None
    if receipt.fingerprint != start.fingerprint:
        raise refuse("Idempotency-Key", N_("This idempotency key was already used for a different request."))
    return db.session.get(Match, receipt.match_id)


def keep_start(start: Start | None, match: Match) -> None:
    """Add the start's receipt to the transaction that starts the match (flushed: it has its id)."""
    if start is not None:
        db.session.add(StartReceipt(key_hash=start.key_hash, fingerprint=start.fingerprint, match_id=match.id))
