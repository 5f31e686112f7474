"""A sheet's QR code read from the straightened page, where the layout says it is.

OpenCV's QR decoder finds a code and reads a crisp one, but a phone's photo (blur, JPEG, a shadow) often
defeats it. The page is already straight, so the code's modules sit on a square grid, where the layout printed
it: the grid is read there module by module (its size is the one whose three finder patterns come out right;
failing that, the code's extent is looked for) and drawn again crisp for the decoder, which then only has to
undo the code's own error correction.
"""

from __future__ import annotations

import functools

import cv2
import numpy
import segno
from numpy.typing import NDArray

from scorekeeper.paper import layout

Image = NDArray[numpy.uint8]
Floats = NDArray[numpy.float32]
VERSIONS = range(1, 11)  # a code of up to 57 by 57 modules: the sheet's holds some 30 characters
FINDER = numpy.pad(numpy.pad(numpy.ones((3, 3), bool), 1), 1, constant_values=True)  # 7 by 7, dark ring and core
QUIET = 4  # modules of white drawn round the redrawn code
DRAWN = 8  # px per module of the redrawn code
SHARPEN = 2.5  # how much of its difference from its blurred self each pixel gains
LOCAL = 7  # modules: a module is dark against the mean of this square of modules around it


@functools.lru_cache(maxsize=256)
def printed_matrix(payload: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of the QR code to print for payload (error correction M): the first of segno's choice of
    mask and the seven others that this reader's decoder reads, crisp and blurred.

    The decoder reads nothing of a few codes however crisp (one of 400 codes of random match ids, with the
    mask segno chose; with any other it read), and a sheet whose code no photo can read is no readable sheet.
    Any mask makes a valid code of the same text.
    """
    made = segno.make(payload, error="m", micro=False, boost_error=False)
    for mask in (made.mask, *(m for m in range(8) if m != made.mask)):
        code = segno.make(payload, error="m", micro=False, boost_error=False, mask=mask)
        modules = numpy.array(code.matrix, bool)
        crisp = _drawn(modules)
        blurred = numpy.asarray(cv2.GaussianBlur(crisp, (0, 0), DRAWN / 3), numpy.uint8)
        if _opencv(crisp) == payload and _opencv(blurred) == payload:
            return tuple(tuple(bool(cell) for cell in row) for row in modules)
    return tuple(tuple(bool(cell) for cell in row) for row in numpy.array(made.matrix, bool))


def decoded(image: Image, square: tuple[float, float, float] | None = None) -> str:
    """The text of the QR code in image (the code upright, alone but for a margin), or "".

    square, when known (left, top and side in px of the code's printed square, its quiet zone of
    layout.QR_BORDER modules included), places the grid where it was printed; else it is looked for.
    """
    placed = _placed(image, square) if square is not None else []
    for attempt in [*placed, *_redrawn(image), image]:
        if text := _opencv(attempt):
            return text
    return ""


def _placed(image: Image, square: tuple[float, float, float]) -> list[Image]:
    """The code drawn again from the grid where the layout printed it, for each size of code whose finder
    patterns come out right: each module against the modules around it (a shadow's edge across the code
    cancels), a little either side of that, and against the whole code."""
    level = _level(image)
    left, top, side = square
    drawn: list[Image] = []
    for version in VERSIONS:
        modules = 17 + 4 * version
        step = side / (modules + 2 * layout.QR_BORDER)
        if step < 2.0:
            break
        start, end = layout.QR_BORDER * step, (layout.QR_BORDER + modules) * step
        samples = _samples(level, (round(top + start), round(left + start), round(top + end), round(left + end)),
                           modules)
        local = cv2.blur(samples, (LOCAL, LOCAL), borderType=cv2.BORDER_REFLECT)
        grids = [samples < local + shift for shift in (0.0, -0.06, 0.06)] + [samples < _middle(samples)]
        drawn += [_drawn(grid) for grid in grids if _finders(grid) >= 0.9]
    return drawn


def _finders(grid: NDArray[numpy.bool_]) -> float:
    """How much of the three finder patterns a grid of modules has right."""
    return float(numpy.mean([grid[:7, :7] == FINDER, grid[:7, -7:] == FINDER, grid[-7:, :7] == FINDER]))


def _opencv(image: Image) -> str:
    try:
        text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    except cv2.error:
        return ""
    return str(text or "")


def _level(image: Image) -> Floats:
    """Each pixel over the paper around it, 0 (black) to 1 (paper): a gradient of light across the code cancels."""
    side = max(3, (min(image.shape) // 4) | 1)
    paper = cv2.dilate(image, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))
    paper = cv2.GaussianBlur(paper, (0, 0), side / 2).astype(numpy.float32)
    return numpy.asarray(numpy.clip(image.astype(numpy.float32) / numpy.maximum(paper, 1.0), 0.0, 1.0), numpy.float32)


def _extent(level: Floats) -> tuple[int, int, int, int] | None:
    """The code's dark square (top, left, bottom, right), past specks of noise."""
    _, binary = cv2.threshold((level * 255).astype(numpy.uint8), 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    opened = cv2.morphologyEx(binary, cv2.MORPH_OPEN, numpy.ones((3, 3), numpy.uint8))
    rows = numpy.flatnonzero(opened.sum(axis=1) >= 3)
    columns = numpy.flatnonzero(opened.sum(axis=0) >= 3)
    if len(rows) < 21 or len(columns) < 21:
        return None
    return int(rows[0]), int(columns[0]), int(rows[-1]) + 1, int(columns[-1]) + 1


def _samples(level: Floats, extent: tuple[int, int, int, int], modules: int) -> Floats:
    """The level at each module's centre, sharpened first: blur greys a lone light module between dark ones."""
    top, left, bottom, right = extent
    step = min(bottom - top, right - left) / modules
    sharp = level + SHARPEN * (level - cv2.GaussianBlur(level, (0, 0), step / 2))
    sharp = cv2.GaussianBlur(sharp, (0, 0), step / 6)
    rows = (top + (numpy.arange(modules) + 0.5) * (bottom - top) / modules).astype(int)
    columns = (left + (numpy.arange(modules) + 0.5) * (right - left) / modules).astype(int)
    return numpy.asarray(sharp[rows[:, None], columns[None, :]], numpy.float32)


def _redrawn(image: Image) -> list[Image]:
    """The code drawn again module by module, crisp, with its quiet zone, at a few thresholds; [] if no grid fits."""
    level = _level(image)
    extent = _extent(level)
    if extent is None:
        return []
    best: tuple[float, Floats] | None = None
    for version in VERSIONS:
        modules = 17 + 4 * version
        if min(extent[2] - extent[0], extent[3] - extent[1]) / modules < 2.0:
            break
        samples = _samples(level, extent, modules)
        fit = _finders(samples < _middle(samples))
        if best is None or fit > best[0]:
            best = (fit, samples)
    if best is None or best[0] < 0.9:
        return []
    middle = _middle(best[1])
    return [_drawn(best[1] < middle + shift) for shift in (0.0, -0.08, 0.08)]


def _middle(samples: Floats) -> float:
    return float(numpy.percentile(samples, 5) + numpy.percentile(samples, 95)) / 2


def _drawn(grid: NDArray[numpy.bool_]) -> Image:
    picture = numpy.where(numpy.pad(grid, QUIET), 0, 255).astype(numpy.uint8)
    return numpy.asarray(cv2.resize(picture, None, fx=DRAWN, fy=DRAWN, interpolation=cv2.INTER_NEAREST), numpy.uint8)
