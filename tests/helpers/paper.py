"""Readable sheets drawn and photographed in memory: a page from the layout, marked with a pen, seen by a phone."""

from __future__ import annotations

import math
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy
import segno
from flask.testing import FlaskClient
from numpy.typing import NDArray

from scorekeeper.paper import layout
from scorekeeper.paper.layout import Key, Page, Value

DRAWN_PX_PER_MM = 8.0
PEN = 45  # the grey of a dark ballpoint in a photo's grey copy
Picture = NDArray[numpy.uint8]


def _px(mm: float) -> int:
    return round(mm * DRAWN_PX_PER_MM)


def drawn_page(page: Page, payload: str, marks: dict[tuple[int, Key, Value], str] | None = None) -> Picture:
    """The page at 8 px/mm as the template prints it (markers, code, bubbles), with marks as a table pens them.

    marks: (row, group key, value) -> "solid", "cross", "tick", "light", "dot" (a pen's dot in the bubble),
    "struck" (filled and scribbled out) or "stray" (a dot beside the bubble).
    """
    picture = numpy.full((_px(page.height), _px(page.width)), 255, numpy.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.MARKER_DICTIONARY))
    for marker in page.markers:
        drawn = cv2.aruco.generateImageMarker(dictionary, marker.id, _px(marker.size))
        picture[_px(marker.y):_px(marker.y) + drawn.shape[0], _px(marker.x):_px(marker.x) + drawn.shape[1]] = drawn
    x, y, side = page.qr
    matrix = numpy.array(segno.make(payload, error="m", micro=False).matrix, numpy.uint8)
    modules = numpy.pad(matrix, 4)  # the quiet zone
    code = numpy.where(modules > 0, 0, 255).astype(numpy.uint8)
    code = numpy.asarray(cv2.resize(code, (_px(side), _px(side)), interpolation=cv2.INTER_NEAREST), numpy.uint8)
    picture[_px(y):_px(y) + code.shape[0], _px(x):_px(x) + code.shape[1]] = code
    for row in page.rows:
        cv2.line(picture, (_px(layout.LEFT), _px(row.top)), (_px(page.width - layout.LEFT), _px(row.top)), 0, 1)
        cv2.putText(picture, str(row.index + 1), (_px(layout.LEFT + 1), _px(row.top + 6)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6, 0, 1, cv2.LINE_AA)
    for group in page.groups:
        for bubble in group.bubbles:
            centre = (_px(bubble.x), _px(bubble.y))
            cv2.circle(picture, centre, _px(layout.BUBBLE / 2), 0, 2, cv2.LINE_AA)
            scale = 0.26 if len(bubble.label) <= 2 else 0.19
            (width, height), _ = cv2.getTextSize(bubble.label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
            cv2.putText(picture, bubble.label, (centre[0] - width // 2, centre[1] + height // 2),
                        cv2.FONT_HERSHEY_SIMPLEX, scale, 90, 1, cv2.LINE_AA)
    for (index, key, value), style in (marks or {}).items():
        bubble = next(b for b in page.group(index, key).bubbles if b.value == value)
        pen(picture, bubble.x, bubble.y, style)
    return picture


def pen(picture: Picture, x: float, y: float, style: str) -> None:
    """One mark of a pen, centred on (x, y) mm: a bubble's radius is 1.6 mm, a ballpoint's line about 0.5 mm."""
    centre = (_px(x), _px(y))
    r = layout.BUBBLE / 2
    line = _px(0.5)
    if style == "solid":
        cv2.circle(picture, centre, _px(r * 0.95), PEN, -1, cv2.LINE_AA)
    elif style == "light":  # a pencil pressed lightly: the whole bubble, barely grey, over what is printed there
        cover = numpy.zeros_like(picture)
        cv2.circle(cover, centre, _px(r * 0.9), 255, -1, cv2.LINE_AA)
        picture[:] = (picture * (1.0 - cover / 255.0 * (1.0 - 195 / 255.0))).astype(numpy.uint8)
    elif style == "cross":
        for sign in (1, -1):
            cv2.line(picture, (_px(x - r * 0.9), _px(y - sign * r * 0.9)), (_px(x + r * 0.9), _px(y + sign * r * 0.9)),
                     PEN, line, cv2.LINE_AA)
    elif style == "tick":
        low = (_px(x - r * 0.1), _px(y + r * 0.7))
        cv2.line(picture, (_px(x - r * 0.8), _px(y)), low, PEN, line, cv2.LINE_AA)
        cv2.line(picture, low, (_px(x + r * 1.1), _px(y - r * 1.2)), PEN, line, cv2.LINE_AA)
    elif style == "dot":  # the pen rested on the bubble: as dark as ink, but no line across it
        cv2.circle(picture, (_px(x + r * 0.3), _px(y - r * 0.2)), _px(0.4), PEN, -1, cv2.LINE_AA)
    elif style == "struck":  # filled, then scribbled out: a zigzag wider than the bubble
        cv2.circle(picture, centre, _px(r * 0.95), PEN, -1, cv2.LINE_AA)
        turns = [(_px(x - 1.5 * r + 3 * r * k / 7), _px(y + (r if k % 2 else -r))) for k in range(8)]
        cv2.polylines(picture, [numpy.array(turns, numpy.int32)], False, PEN, line, cv2.LINE_AA)
    elif style == "stray":  # a dot of the pen beside the bubble, not in it
        cv2.circle(picture, (_px(x + r * 1.3), _px(y - r * 1.1)), _px(0.4), PEN, -1, cv2.LINE_AA)
    else:
        raise ValueError(style)


def photographed(picture: Picture, size: tuple[int, int] = (2400, 1800), tilt: float = 8.0, turn: float = 5.0,
                 light: float = 0.35, noise: float = 4.0, quality: int = 80, seed: int = 1,
                 cut: int | None = None, shadow: float = 0.0, blur: float = 0.8) -> bytes:
    """The page seen by a phone: turned, in perspective, lit unevenly, noisy, JPEG-compressed; cut hides a corner.

    tilt (degrees) leans the page away from the camera; light is how much darker one side is than the other;
    cut, a marker id, moves the frame so that corner of the page is outside the photo; shadow darkens the
    lower left part of the photo by that much, behind a soft edge (a hand or a phone over the sheet).
    """
    random = numpy.random.default_rng(seed)
    width, height = size
    page_h, page_w = picture.shape
    corners = numpy.array([[-page_w, -page_h], [page_w, -page_h], [page_w, page_h], [-page_w, page_h]], float) / 2
    corners[:2, 0] *= 1 - math.tan(math.radians(tilt)) * 0.5  # the far (top) edge looks shorter
    angle = math.radians(turn)
    rotation = numpy.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    placed = corners @ rotation.T
    placed *= 0.9 * min(width / numpy.ptp(placed[:, 0]), height / numpy.ptp(placed[:, 1]))
    placed += random.normal(0, 0.005 * width, placed.shape)
    placed += (width / 2, height / 2)
    if cut is not None:
        corner = placed[cut]
        placed[:, 0] += 1.03 * width - corner[0] if corner[0] > width / 2 else -0.03 * width - corner[0]
    transform = cv2.getPerspectiveTransform(
        numpy.array([[0, 0], [page_w, 0], [page_w, page_h], [0, page_h]], numpy.float32), placed.astype(numpy.float32))
    photo = cv2.warpPerspective(picture, transform, (width, height), flags=cv2.INTER_AREA, borderValue=(70,))
    seen = numpy.asarray(cv2.GaussianBlur(photo, (0, 0), blur), numpy.float32)
    across = numpy.linspace(1.0, 1.0 - light, width, dtype=numpy.float32)[None, :]
    down = numpy.linspace(1.0 - light / 3, 1.0, height, dtype=numpy.float32)[:, None]
    shade = numpy.ones((height, width), numpy.float32)
    cv2.fillPoly(shade, [numpy.array([[0, height // 3], [width // 2, height], [0, height]], numpy.int32)], 1.0 - shadow)
    soft = numpy.asarray(cv2.GaussianBlur(shade, (0, 0), width / 200), numpy.float32)
    seen = seen * across * down * soft * 0.9 + random.normal(0, noise, seen.shape).astype(numpy.float32)
    colour = cv2.cvtColor(numpy.clip(seen, 0, 255).astype(numpy.uint8), cv2.COLOR_GRAY2BGR)
    ok, jpeg = cv2.imencode(".jpg", colour, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return jpeg.tobytes()


def paper_pdf(client: FlaskClient, public_id: str) -> bytes:
    """The readable sheet of a match, as anyone with its watch link gets it."""
    answer = client.get(f"/m/{public_id}/paper.pdf")
    assert answer.status_code == 200, answer.text[:300]
    assert answer.mimetype == "application/pdf"
    assert answer.data.startswith(b"%PDF-")
    return answer.data


def raster(pdf_bytes: bytes, dpi: int) -> list[Picture]:
    """Each page of a PDF in shades of grey at dpi, as poppler's pdftoppm prints it, the first page first."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "sheet.pdf"
        source.write_bytes(pdf_bytes)
        subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-png", str(source), str(Path(folder) / "page")],
                       check=True, capture_output=True, timeout=120)
        files = sorted(Path(folder).glob("page-*.png"), key=lambda path: int(path.stem.rsplit("-", 1)[1]))
        return [numpy.asarray(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE), numpy.uint8) for path in files]


# -- what a table marks for a hand (the fitting reads it back) -------------------------------------------------

BARBU_COUNTED = {"no_tricks": "tricks", "trumps": "tricks", "no_queens": "queens", "no_hearts": "hearts"}
BARBU_CARD_FIELDS = {"ace": "ace_of_hearts", "12": "second_last", "13": "last", "king": "king_of_hearts"}


def _count(seat: int, count: int, tens: tuple[int, ...]) -> dict[Key, tuple[Value, ...]]:
    """tens + units for a count: the largest tens bubble not above it, then its units."""
    ten = max((t for t in tens if t <= count), default=0)
    return {("tens", seat): (ten,) if ten else (), ("units", seat): (count - ten,)}


def marks_of(game: str, entry: dict, players: list[str], row: int) -> dict[tuple[int, Key], tuple[Value, ...]]:
    """The bubbles a table marks in a row for an API entry: (row, group key) -> the values marked (none: blank)."""
    chosen: dict[Key, tuple[Value, ...]] = {}
    if game == "barbu":
        contract = entry["contract"]
        chosen[("contract",)] = (contract,)
        if contract in BARBU_COUNTED:
            for seat, name in enumerate(players):
                chosen.update(_count(seat, entry[BARBU_COUNTED[contract]][name], (10,)))
        if contract == "dominoes":
            for seat, name in enumerate(players):
                chosen.update(_count(seat, entry["order"].index(name) + 1, (10,)))
        for seat, name in enumerate(players):
            cards = tuple(card for card, field in BARBU_CARD_FIELDS.items() if entry.get(field) == name)
            if cards:
                chosen[("cards", seat)] = cards
        for double in entry.get("doubles", []):
            by, target = players.index(double["by"]), players.index(double["target"])
            pair = (min(by, target), max(by, target))
            chosen[("doubled", *pair)] = (by,)
            if double.get("redoubled"):
                chosen[("redoubled", *pair)] = ("R",)
    elif game == "kozyol":
        tricks = entry.get("tricks") or [None, None]
        for team, points in enumerate(entry["points"]):
            if points >= 100:
                chosen[("hundreds", team)] = (100,)
            chosen[("tens", team)] = (points % 100 // 10,)
            chosen[("units", team)] = (points % 10,)
            if tricks[team] == 0:
                chosen[("no_trick", team)] = ("none",)
    else:
        hearts, marias = entry["hearts"], entry["black_marias"]
        for seat, name in enumerate(players):
            chosen.update(_count(seat, hearts[name], (10, 20)))
            if marias[name]:
                chosen[("marias", seat)] = (marias[name],)
        lost = 26 - sum(hearts.values())
        if lost:
            chosen.update(_count(layout.LOST, lost, (10, 20)))
        if 2 - sum(marias.values()):
            chosen[("marias", layout.LOST)] = (2 - sum(marias.values()),)
        if entry.get("moon"):
            chosen[("moon",)] = (entry["moon"],)
    return {(row, key): values for key, values in chosen.items()}
