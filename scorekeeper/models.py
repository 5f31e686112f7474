"""Stored matches and hands, and the clubs that play them. Entries are kept as entered; scores are derived by the engine."""

from __future__ import annotations

from datetime import date, datetime, time, timezone

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Time,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .club.engine.base import Digest
from .db import db
from .json_values import JsonObject
from .names import KEY_MAX, NAME_CODE_POINTS


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _sized(length: int) -> String:
    """A string column of length characters; on SQLite, which keeps a text of any length whatever its column
    declares, of no declared length (a table made with a shorter one is not rebuilt to say a longer one)."""
    return String(length).with_variant(String(), "sqlite")


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
    # Who started a club match: "admin" (the club's admin key, a round's tables), "member" (a proven member's
    # phone), None for anyone else with the club link (or a match from before this was kept): the admin may delete it.
    started_by: Mapped[str | None] = mapped_column(String(8), nullable=True, default=None)

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
    # A club that confirms every hand (tournament nights): the seat that said OK to it, and when; None until then.
    confirmed_seat: Mapped[int | None] = mapped_column(nullable=True, default=None)
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, default=None)

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
    # Why an agreed (locked) club match was changed, as its club's admin gave it; "" for every other change.
    reason: Mapped[str] = mapped_column(String(200), default="", server_default="")


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


class StartReceipt(db.Model):  # type: ignore[name-defined]  # mypy cannot see Flask-SQLAlchemy's base
    """A match started under a phone's idempotency key: a repeat of the start answers that match again.

    The key is kept only as a hash (with what it was sent to), unique, so two servers racing with one key
    cannot both start a match; ``fingerprint`` says what the start was. Kept as long as the match.
    """

    __tablename__ = "start_receipts"

    id: Mapped[int] = mapped_column(primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)



class PaperPhoto(db.Model):  # type: ignore[name-defined]  # mypy cannot see Flask-SQLAlchemy's base
    """A photo of one page of a match's paper sheet, as kept after its reading: evidence for a dispute.

    ``jpeg`` is the photo as kept (scorekeeper.paper.photos.intake: metadata stripped, at most a few
    megabytes); ``digest`` the SHA-256 of the photo as sent, so the same photo sent again opens the same
    review. ``rows`` is what was read of each row and ``crops`` the picture of each row a person confirms
    (scorekeeper.paper.service). Kept with the match, deleted with it, a few per match (the oldest go).
    """

    __tablename__ = "paper_photos"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    page: Mapped[int]  # the sheet's page, from 1, as its QR code says
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    jpeg: Mapped[bytes] = mapped_column(LargeBinary)
    digest: Mapped[str] = mapped_column(String(64))
    rows: Mapped[JsonObject] = mapped_column(JSON)
    crops: Mapped[JsonObject] = mapped_column(JSON)

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
    # How many players' "Agreed" lock a finished club match (0: never locked, as before), and whether the next
    # seat confirms each hand as it is recorded.
    agree_to_lock: Mapped[int] = mapped_column(default=0, server_default="0")
    confirm_hands: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")


class ClubPlayer(db.Model):
    """One person on a club's roster. A player merged into another keeps the row (folded None) for history."""

    __tablename__ = "club_players"
    # Names are unique among live players (NULLs never collide: merged players set folded to None).
    __table_args__ = (UniqueConstraint("club_id", "folded", name="uq_club_player_folded"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(_sized(NAME_CODE_POINTS))
    # games.base.same_name(name), the look-alike key: NFKC and case folding can make a name longer ("ß" -> "ss").
    folded: Mapped[str | None] = mapped_column(_sized(KEY_MAX), nullable=True)
    merged_into: Mapped[int | None] = mapped_column(ForeignKey("club_players.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The hash of this member's own link (web/club/members.py): the phone that opened it is this player. None: no link yet.
    member_key_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    # A name typed at a match start by someone who is neither the admin nor a proven member, until the admin keeps it.
    guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")


class Season(db.Model):
    """A named date range of a club, both ends included."""

    __tablename__ = "seasons"

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    starts: Mapped[date] = mapped_column(Date)
    ends: Mapped[date] = mapped_column(Date)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, default=None)
    # A closed season's final tables, champions and evenings' winners as they stood when it closed.
    final: Mapped[JsonObject | None] = mapped_column(JSON(none_as_null=True), nullable=True, default=None)


class Evening(db.Model):
    """A day the club meets: named by the admin ("Friday 5 Dec") or planned ahead (start, place, note).

    Days with matches and no row are evenings too. ``name`` is "" for a planned evening left unnamed.
    """

    __tablename__ = "evenings"
    __table_args__ = (UniqueConstraint("club_id", "day", name="uq_evening_club_day"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    day: Mapped[date] = mapped_column(Date)
    name: Mapped[str] = mapped_column(String(60))
    starts_at: Mapped[time | None] = mapped_column(Time, nullable=True, default=None)  # in the club's time zone
    place: Mapped[str] = mapped_column(String(80), default="", server_default="")
    note: Mapped[str] = mapped_column(String(200), default="", server_default="")
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, default=None)
    # The players' places as they stood when it closed (club/places.py); None while open.
    final: Mapped[JsonObject | None] = mapped_column(JSON(none_as_null=True), nullable=True, default=None)


class Attendance(db.Model):
    """A player's answer for an evening ("in" or "out"), and whether the admin marked them here or not here at the door.

    ``key_hash`` is the hash of the answering phone's key: only that phone (or the admin) changes the answer.
    """

    __tablename__ = "attendances"
    __table_args__ = (UniqueConstraint("evening_id", "player_id", name="uq_attendance_evening_player"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("club_players.id", ondelete="CASCADE"))
    answer: Mapped[str] = mapped_column(String(8), default="in")  # "in" or "out"
    present: Mapped[bool] = mapped_column(Boolean, default=False)
    # Marked not here at the door: not counted as there, whatever the answer said.
    absent: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    key_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    # Whether the answer came from the member's proven phone or the admin: only such an answer counts for the draw.
    proven: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class EveningRound(db.Model):
    """One round of an evening, as confirmed: who sat out, and the seed its seating was drawn with."""

    __tablename__ = "evening_rounds"
    __table_args__ = (UniqueConstraint("evening_id", "number", name="uq_evening_round_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    sat_out: Mapped[list[int]] = mapped_column(JSON, default=list)  # club player ids
    seed: Mapped[int] = mapped_column(BigInteger, default=0)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EveningTable(db.Model):
    """One table of a round: its game, its seats in order (club player ids) and the club match it plays."""

    __tablename__ = "evening_tables"
    __table_args__ = (UniqueConstraint("round_id", "number", name="uq_evening_table_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("evening_rounds.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    game: Mapped[str] = mapped_column(String(16))
    seat_ids: Mapped[list[int]] = mapped_column(JSON)
    # Indexed: every write to a club match asks whether it belongs to a closed evening's table.
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"), nullable=True,
                                                 index=True)
    # How its match ended before its end when a player left (club/rounds.py Ended); None while it plays on.
    ended: Mapped[JsonObject | None] = mapped_column(JSON(none_as_null=True), nullable=True, default=None)


class Agreement(db.Model):
    """A player's "Agreed" to a finished club match, from their own phone: one per seat and one per phone."""

    __tablename__ = "agreements"
    __table_args__ = (UniqueConstraint("match_id", "seat", name="uq_agreement_match_seat"),
                      UniqueConstraint("match_id", "phone", name="uq_agreement_match_phone"))

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]  # 0-based, as in Match.players
    phone: Mapped[str] = mapped_column(String(64))  # a hash of the agreeing phone's own key
    # The proven member who agreed (the club player in that seat); None for an agreement from before members proved it.
    player_id: Mapped[int | None] = mapped_column(ForeignKey("club_players.id", ondelete="SET NULL"), nullable=True,
                                                  default=None)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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
