"""A photo of a match's paper sheet, read for that match: taken in, straightened, each row fitted to the rules.

The one call the pages make (``read_sheet``) and what they keep of it (``ReadRow``, stored with the photo).
The reading is CPU work of a second or two: it takes one of the machine's render turns, as a PDF render
does, and runs off the gevent hub (``render_slots``), so the other phones of the worker are answered
meanwhile; the database connection goes back to the pool before the wait.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any, TypedDict, cast

from flask import current_app
from sqlalchemy import select

from ..db import db
from ..games.base import N_, Reason
from ..json_values import Json, JsonObject
from ..match import matches
from ..models import Match, PaperPhoto
from ..render_slots import off_the_hub
from . import fitting, layout, marks, photos, reader
from .entries import paper_form
from .layout import Identity, Page

OTHER_MATCH = N_("This sheet belongs to another match.")
ROWS_VERSION = 1  # the shape of ReadRow as stored in PaperPhoto.rows
REASON = "reason"  # a reason's value that is a reason itself, as kept: {"reason": text, "params": {...}}
PHOTOS_KEPT = 20  # per match, the newest: a match cannot fill the disk with photos


class ReadRow(TypedDict):
    """One row of the sheet as read and fitted, as the review page shows it and the photo keeps it."""

    row: int  # on the page, from 0
    number: int  # the hand's number in the match
    status: str  # "certain", "doubtful" or "empty"
    entry: JsonObject | None  # the legal entry closest to the marks (an API entry), None when none fits
    reasons: list[str]  # why a person looks at it: English sentences (N_), translated when shown
    params: list[JsonObject]  # the values of each reason's sentence, in the same order
    read: JsonObject  # what was marked, for display
    recorded: bool  # the match held this hand already, the same on paper, when the photo was read


@dataclass(frozen=True)
class SheetRead:
    """A photo read for a match: the photo as kept, the sheet's identity, its rows, and the doubtful rows' crops."""

    jpeg: bytes
    identity: Identity
    rows: list[ReadRow]
    crops: dict[int, bytes]  # by row on the page (from 0): PNG


def digest(data: bytes) -> str:
    """The SHA-256 of a photo as sent: the same photo sent again is known by it.

    >>> digest(b"")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data).hexdigest()


def first_number(game: str, page: int) -> int:
    """The number of the first hand of a page (from 1).

    >>> first_number("barbu", 2), first_number("kozyol", 1)
    (8, 1)
    """
    return (page - 1) * layout.rows_per_page(game) + 1


def read_sheet(match: Match, jpeg_bytes: bytes) -> SheetRead:
    """Read a photo of one of the match's sheets; raise PhotoRefused or Unreadable with the sentence to show."""
    game, players, options = match.game, list(match.players), dict(match.options)
    before = matches.entries_of(match)
    public_id = match.public_id
    db.session.close()  # a reading that waits for its turn holds nothing another request needs

    def layout_for(identity: Identity) -> Page:
        if identity.match != public_id:
            raise reader.Unreadable(OTHER_MATCH)
        moon = options.get("moon_points")
        return layout.page_for(game, len(players), moon if isinstance(moon, int) else 26)

    def work() -> SheetRead:
        kept = photos.intake(jpeg_bytes)
        reading = reader.read(kept, layout_for)
        found = {(group.row, group.key): marks.of_reading(group, reading) for group in reading.page.groups}
        fitted = fitting.fit_page(reading.page, found, players, options, before,
                                  first_number(game, reading.identity.page))
        rows = [stored_row(row) for row in fitted]
        crops = {row["row"]: reader.row_crop(reading, row["row"]) for row in rows if row["status"] == "doubtful"}
        return SheetRead(kept, reading.identity, rows, crops)

    with current_app.extensions["render_slots"].turn():
        return off_the_hub(work)


def stored_row(row: fitting.RowRead) -> ReadRow:
    """A fitted row as JSON to keep: its reasons in English with their values, one set of values per sentence."""
    return ReadRow(row=row.row, number=row.number, status=row.status,
                   entry=_json(row.entry) if row.entry is not None else None, reasons=list(row.reasons),
                   params=[_json(values) for values in row.params], read=_json(row.read), recorded=row.recorded)


def same_on_paper(game: str, stored: JsonObject, read: JsonObject) -> bool:
    """Whether a recorded hand and a row read say the same on paper (notes such as a trump suit are not on it)."""
    try:
        return bool(paper_form(game, stored) == paper_form(game, read))
    except (KeyError, TypeError, IndexError):
        return stored == read


def _json(value: Any) -> Any:
    """A value as plain JSON (tuples as lists, keys as text, a reason named in a reason as REASON and its values)."""
    if isinstance(value, Reason):
        return {REASON: value.text, "params": _json(dict(value.params))}
    if isinstance(value, dict):
        return {str(key): _json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def reason_of(text: str, params: Any) -> Reason:
    """A reason of the reading as kept, again as a Reason to translate (its values' own reasons too)."""
    def value(kept: Any) -> Any:
        if isinstance(kept, dict) and isinstance(kept.get(REASON), str):
            return reason_of(kept[REASON], kept.get("params"))
        return kept

    return Reason(text, {str(key): value(item) for key, item in params.items()} if isinstance(params, dict) else {})


def rows_of(stored: JsonObject) -> list[ReadRow]:
    """The rows a photo keeps (PaperPhoto.rows); none from a shape this release does not know."""
    kept = stored.get("rows")
    if stored.get("version") != ROWS_VERSION or not isinstance(kept, list):
        return []
    return [cast(ReadRow, row) for row in kept if isinstance(row, dict)]


def kept_rows(rows: list[ReadRow]) -> JsonObject:
    """The rows as the photo keeps them, with the version of their shape."""
    return {"version": ROWS_VERSION, "rows": cast(Json, rows)}


def kept_crops(crops: dict[int, bytes]) -> JsonObject:
    """The crops as a JSON object (row -> base64 PNG), as the photo keeps them."""
    return {str(row): base64.b64encode(png).decode("ascii") for row, png in crops.items()}


def crop_of(stored: JsonObject, row: int) -> bytes | None:
    value = stored.get(str(row))
    return base64.b64decode(value) if isinstance(value, str) else None


# -- the photos a match keeps ------------------------------------------------------------------------


def kept_photo(match: Match, data: bytes) -> PaperPhoto:
    """The photo of this match sent before (the same bytes: nothing is read twice), else the photo read now
    and kept with what was read; the oldest photos past PHOTOS_KEPT go."""
    sent = digest(data)
    before = db.session.scalar(select(PaperPhoto).where(PaperPhoto.match_id == match.id, PaperPhoto.digest == sent))
    if before is not None:
        return before
    match_id = match.id
    sheet = read_sheet(match, data)
    photo = PaperPhoto(match_id=match_id, page=sheet.identity.page, jpeg=sheet.jpeg, digest=sent,
                       rows=kept_rows(sheet.rows), crops=kept_crops(sheet.crops))
    db.session.add(photo)
    db.session.flush()
    for gone in db.session.scalars(select(PaperPhoto).where(PaperPhoto.match_id == match_id)
                                   .order_by(PaperPhoto.id.desc()).offset(PHOTOS_KEPT)):
        db.session.delete(gone)
    db.session.commit()
    return photo


def photo_of(match: Match, photo_id: int) -> PaperPhoto | None:
    """The kept photo with this id, if it is of this match."""
    photo = db.session.get(PaperPhoto, photo_id)
    return photo if photo is not None and photo.match_id == match.id else None
