"""Stored matches and hands. Entries are kept as entered; scores are derived by the engine."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import db


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Match(db.Model):
    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    game: Mapped[str] = mapped_column(String(16))
    players: Mapped[list[str]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=1)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    # The language its score sheet is printed in; None: the language of whoever prints it.
    language: Mapped[str | None] = mapped_column(String(8), nullable=True, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)

    # Hands load only when used: a poll (304) or a page served from the standings cache reads
    # the match row alone; replaying, recording and editing load them with one indexed query.
    hands: Mapped[list[Hand]] = relationship(
        back_populates="match", order_by="Hand.number", cascade="all, delete-orphan", lazy="select"
    )

    # Every write to a match (a hand recorded, corrected or undone) touches the match row;
    # SQLAlchemy then checks and raises the version, so two phones cannot both win.
    __mapper_args__ = {"version_id_col": version}


class Hand(db.Model):
    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("match_id", "number", name="uq_hand_match_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int]
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)

    match: Mapped[Match] = relationship(back_populates="hands")


class HandChange(db.Model):
    """One line of a match's edit history: a hand recorded, corrected or undone."""

    __tablename__ = "hand_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    action: Mapped[str] = mapped_column(String(16))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    source: Mapped[str] = mapped_column(String(40), default="")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Receipt(db.Model):
    """A write made under a phone's idempotency key, and what it was answered: a repeat gets the same answer.

    One per key and match (a unique constraint: two servers racing with one key cannot both write);
    kept as long as the match. ``fingerprint`` says what the write was, so a different request
    under a used key is refused instead of being taken for a repeat.
    """

    __tablename__ = "receipts"
    __table_args__ = (UniqueConstraint("match_id", "key", name="uq_receipt_match_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(128))
    fingerprint: Mapped[str] = mapped_column(String(64))
    number: Mapped[int]  # the hand written
    status: Mapped[int]
    body: Mapped[bytes] = mapped_column(LargeBinary)  # the answer's JSON body as sent, zlib-compressed
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
