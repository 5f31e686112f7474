"""A photo of a sheet, read: the page straightened from its corner markers, named by its QR code, every bubble measured."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy
from numpy.typing import NDArray

from scorekeeper.games.base import N_
from scorekeeper.paper import codes, fills, layout
from scorekeeper.paper.layout import Identity, Key, Page

PX_PER_MM = 6.0  # the straightened page: a bubble's inside is about 15 px across
QR_PX_PER_MM = 12.0  # the code alone, finer: a module of the code is about 0.6 mm
DETECT_SIDE = 2000  # px: the long side the markers are looked for at (a marker is then about 70 px)

Image = NDArray[numpy.uint8]
QR_PLACE = Page("", 0, (), (), (), ()).qr  # where every page prints its code, known before the page is
Floats = NDArray[numpy.float32]

NO_CORNERS = N_("Move so all four corners of the sheet are in view.")
NO_CODE = N_("This photo shows no sheet's code: photograph a readable sheet printed from this match.")
NOT_OURS = N_("This code is not a readable sheet's: photograph a sheet printed from this match.")
OLD_LAYOUT = N_("This sheet was printed from an older layout: print the sheet again and copy its rows onto it.")
NOT_A_PHOTO = N_("This file is not a photo the app can read: take the photo again with the phone's camera.")


class Unreadable(Exception):
    """A photo the reader cannot read, with the sentence that says what to do."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


@dataclass
class Reading:
    identity: Identity
    page: Page
    fills: dict[tuple[int, Key], list[float]]  # per (row, group key), per bubble: 0.0 blank ... 1.0 solid ink
    image: Image  # the page straightened, grey, PX_PER_MM px per mm
    spans: dict[tuple[int, Key], list[float]] = field(default_factory=dict)  # mm: each bubble's longest stroke
    beyond: dict[tuple[int, Key], list[float]] = field(default_factory=dict)  # ink on both sides: struck out


def read(jpeg: bytes, layout_for: Callable[[Identity], Page]) -> Reading:
    """Straighten the photographed sheet, identify it from its code and measure every bubble; raise Unreadable."""
    decoded = cv2.imdecode(numpy.frombuffer(jpeg, numpy.uint8), cv2.IMREAD_GRAYSCALE)
    if decoded is None:
        raise Unreadable(NOT_A_PHOTO)
    photo = numpy.asarray(decoded, numpy.uint8)
    to_mm = _to_mm(photo)
    page_image = _warp(photo, to_mm, 0.0, 0.0, layout.WIDTH, layout.HEIGHT, PX_PER_MM)
    identity = _identity(photo, to_mm, page_image)
    page = layout_for(identity)
    measured = fills.measure(page, page_image, PX_PER_MM)
    return Reading(identity, page, measured.fills, page_image, measured.spans, measured.beyond)


def row_crop(reading: Reading, row: int) -> bytes:
    """A PNG of one row's band of the straightened page, with a little margin, for a person to check."""
    band = reading.page.rows[row]
    margin = 1.5
    top = max(0, round((band.top - margin) * PX_PER_MM))
    bottom = min(reading.image.shape[0], round((band.top + band.height + margin) * PX_PER_MM))
    left = round((layout.LEFT - 3.0) * PX_PER_MM)
    right = round((reading.page.width - layout.LEFT + 3.0) * PX_PER_MM)
    ok, png = cv2.imencode(".png", reading.image[top:bottom, left:right])
    assert ok
    return png.tobytes()


def _detector() -> cv2.aruco.ArucoDetector:
    parameters = cv2.aruco.DetectorParameters()
    # A phone's photo: markers from 30 to 150 px, light that changes across the page; wider windows keep a
    # marker in a shadow's edge whole, subpixel corners keep the straightened page within a tenth of a mm.
    parameters.adaptiveThreshWinSizeMin = 5
    parameters.adaptiveThreshWinSizeMax = 65
    parameters.adaptiveThreshWinSizeStep = 12
    parameters.minMarkerPerimeterRate = 0.02
    parameters.polygonalApproxAccuracyRate = 0.04
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    parameters.cornerRefinementWinSize = 4
    parameters.cornerRefinementMinAccuracy = 0.01
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.MARKER_DICTIONARY))
    return cv2.aruco.ArucoDetector(dictionary, parameters)


def _corners(photo: Image) -> dict[int, NDArray[numpy.float64]]:
    """Each corner marker's four corners in the photo's pixels, looked for on a smaller copy (faster, as sure)."""
    scale = min(1.0, DETECT_SIDE / max(photo.shape))
    small = photo if scale == 1.0 else cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    found, ids, _ = _detector().detectMarkers(small)
    best: dict[int, NDArray[numpy.float64]] = {}
    for quad, marker in zip(found, [] if ids is None else ids.ravel(), strict=True):
        points = (quad.reshape(4, 2).astype(numpy.float64) + 0.5) / scale - 0.5
        if int(marker) in layout.MARKER_IDS and (int(marker) not in best
                                                  or cv2.contourArea(points.astype(numpy.float32))
                                                  > cv2.contourArea(best[int(marker)].astype(numpy.float32))):
            best[int(marker)] = points
    return best


def _to_mm(photo: Image) -> NDArray[numpy.float64]:
    """The homography from the photo's pixels to the page's millimetres, from the 16 corners of its markers."""
    corners = _corners(photo)
    if set(corners) != set(layout.MARKER_IDS):
        raise Unreadable(NO_CORNERS)
    source, target = [], []
    for marker in layout.MARKERS:
        x, y, side = marker.x, marker.y, marker.size
        source.append(corners[marker.id])
        target.append([(x, y), (x + side, y), (x + side, y + side), (x, y + side)])
    homography, _ = cv2.findHomography(numpy.concatenate(source), numpy.array(target, numpy.float64).reshape(-1, 2))
    if homography is None:
        raise Unreadable(NO_CORNERS)
    return numpy.asarray(homography, numpy.float64)


def _warp(photo: Image, to_mm: NDArray[numpy.float64], x: float, y: float, width: float, height: float,
          px_per_mm: float) -> Image:
    """The rectangle (x, y, width, height) mm of the page at px_per_mm, from a copy of the photo about as fine."""
    corners = cv2.perspectiveTransform(numpy.array([[[x, y], [x + width, y], [x, y + height]]], numpy.float64),
                                       numpy.linalg.inv(to_mm))[0]
    photo_px_per_mm = min(float(numpy.linalg.norm(corners[1] - corners[0])) / width,
                          float(numpy.linalg.norm(corners[2] - corners[0])) / height)
    shrink = min(1.0, 1.5 * px_per_mm / photo_px_per_mm)  # sampling a much finer photo would alias
    source = photo
    if shrink < 0.75:
        source = numpy.asarray(cv2.resize(photo, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA), numpy.uint8)
    else:
        shrink = 1.0
    from_source = numpy.array([[1 / shrink, 0, 0.5 / shrink - 0.5], [0, 1 / shrink, 0.5 / shrink - 0.5], [0, 0, 1]])
    to_target = numpy.array([[px_per_mm, 0, -x * px_per_mm - 0.5], [0, px_per_mm, -y * px_per_mm - 0.5], [0, 0, 1]])
    size = (round(width * px_per_mm), round(height * px_per_mm))
    warped = cv2.warpPerspective(source, to_target @ to_mm @ from_source, size, flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return numpy.asarray(warped, numpy.uint8)


def _identity(photo: Image, to_mm: NDArray[numpy.float64], page_image: Image) -> Identity:
    """The page's identity from its QR code: where the layout puts it first, then anywhere in the photo."""
    x, y, side = QR_PLACE
    margin = 2.0  # the marker beside the code is 3 mm away
    near = _warp(photo, to_mm, x - margin, y - margin, side + 2 * margin, side + 2 * margin, QR_PX_PER_MM)
    square = (margin * QR_PX_PER_MM, margin * QR_PX_PER_MM, side * QR_PX_PER_MM)
    text = codes.decoded(near, square) or _decoded(page_image)
    if not text:
        scale = min(1.0, DETECT_SIDE / max(photo.shape))
        text = _decoded(numpy.asarray(cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA),
                                      numpy.uint8))
    if not text:
        raise Unreadable(NO_CODE)
    identity = layout.parse_payload(text)
    if identity is None:
        raise Unreadable(NOT_OURS)
    if identity.version != layout.TEMPLATE_VERSION:
        raise Unreadable(OLD_LAYOUT)
    return identity


def _decoded(image: Image) -> str:
    try:
        text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    except cv2.error:
        return ""
    return str(text or "")
