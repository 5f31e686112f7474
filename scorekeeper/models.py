"""Stored matches and hands. Entries are kept as entered; scores are derived by the engine."""

from __future__ import annotations

from datetime import date, datetime, timezone

from sqlalchemy import JSON, BigInteger, Date, DateTime, ForeignKey, Index, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .club.engine.base import Digest
from .db import db
from .json_values import JsonObject


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Match(db.Model):
    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    game: Mapped[str] = mapped_column(String(16))
    players: Mapped[list[str]] = mapped_column(JSON)
    options: Mapped[JsonObject] = mapped_column(JSON)  # the game's options as its engine checked them
    version: Mapped[int] = mapped_column(default=1)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    # The language its score sheet is printed in; None: the language of whoever prints it.
    language: Mapped[str | None] = mapped_column(String(8), nullable=True, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    # A match started from a club: the club, and the club player in each seat (None for a casual match).
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id", name="fk_matches_club_id"), nullable=True,
                                                index=True, default=None)
    seat_ids: Mapped[list[int] | None] = mapped_column(JSON(none_as_null=True), nullable=True, default=None)

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
    entry: Mapped[JsonObject] = mapped_column(JSON)  # the hand as its engine normalized it
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
    before: Mapped[JsonObject | None] = mapped_column(JSON, nullable=True)  # the entry before, after
    after: Mapped[JsonObject | None] = mapped_column(JSON, nullable=True)
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


# -- the club: a roster across matches, evenings, seasons, and one result row per club match ------


class Club(db.Model):
    """A circle that plays together: its roster, house rules and seasons; reached by a capability link."""

    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(60))
    admin_key_hash: Mapped[str] = mapped_column(String(64))
    # The default options of each game for the club's new matches: {"barbu": {...}, "kozyol": {...}, ...}.
    house_rules: Mapped[dict[str, JsonObject]] = mapped_column(JSON, default=dict)
    min_matches: Mapped[int] = mapped_column(default=3)  # matches a player needs to be ranked
    # Raised by every edit of the roster, rules or seasons: cached standings name the version they were made at.
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Where the club plays (an IANA name such as "America/Montreal"): a match's evening is its start's day
    # there. None: UTC, as for every club made before clubs had a time zone.
    time_zone: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ClubPlayer(db.Model):
    """One person on a club's roster. A player merged into another keeps the row (folded None) for history."""

    __tablename__ = "club_players"
    # Names are unique among live players (NULLs never collide: merged players set folded to None).
    __table_args__ = (UniqueConstraint("club_id", "folded", name="uq_club_player_folded"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    # games.base.same_name(name): case folding can make a name longer ("ß" -> "ss"), hence the room.
    folded: Mapped[str | None] = mapped_column(String(160), nullable=True)
    merged_into: Mapped[int | None] = mapped_column(ForeignKey("club_players.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Season(db.Model):
    """A named date range of a club, both ends included."""

    __tablename__ = "seasons"

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    starts: Mapped[date] = mapped_column(Date)
    ends: Mapped[date] = mapped_column(Date)


class Evening(db.Model):
    """The name the admin gave a day's matches ("Friday 5 Dec"); days without one are evenings too."""

    __tablename__ = "evenings"
    __table_args__ = (UniqueConstraint("club_id", "day", name="uq_evening_club_day"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    day: Mapped[date] = mapped_column(Date)
    name: Mapped[str] = mapped_column(String(60))


class ClubResult(db.Model):
    """What the club keeps of one of its matches, written with every write to it.

    ``digest`` is the finished match's digest (scorekeeper.club.engine.digest), None while it is being
    played; ``version`` is the match's version, so that the sum over a club changes with every write.
    """

    __tablename__ = "club_results"
    # A club's results of a season are one range read of the first index,
    # and its latest write one lookup of the second.
    __table_args__ = (Index("ix_club_results_club_day", "club_id", "day"),
                      Index("ix_club_results_club_changed", "club_id", "changed"))

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True,
                                          autoincrement=False)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))
    day: Mapped[date] = mapped_column(Date)
    version: Mapped[int]
    changed: Mapped[int] = mapped_column(BigInteger, default=0)  # the club's write number of the last write
    digest: Mapped[Digest | None] = mapped_column(JSON(none_as_null=True), nullable=True)
