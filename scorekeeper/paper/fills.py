"""How dark each bubble of a straightened page is, on one scale whatever the light.

The page is divided by its own paper level (a closing wider than any mark, so a shadow or a lamp's gradient
cancels out); the printed bubble's label and outline are taken off (the darkness that unmarked bubbles with
the same label show on this page); the rest is divided by how dark the printed corner markers are (so a grey
photo and a crisp one agree).
"""

from __future__ import annotations

from collections import defaultdict

import cv2
import numpy
from numpy.typing import NDArray

from scorekeeper.paper import layout
from scorekeeper.paper.layout import Key, Page

DISK = 0.75  # of a bubble's radius: the inside measured, clear of its printed outline
PAPER_WINDOW = 6.0  # mm: wider than a bubble, so the paper level passes over every mark
SHIFT = 1.0  # mm: how far a bubble may sit from where the markers put it (a sheet not quite flat)
BAND = 60.0  # mm: a row's bubbles are aligned in bands this wide

Image = NDArray[numpy.uint8]
Floats = NDArray[numpy.float32]


def _darkness(page_image: Image, scale: float) -> Floats:
    """How much darker than the paper around it each pixel is, 0 (paper) to 1 (black)."""
    small = cv2.resize(page_image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    side = int(PAPER_WINDOW * scale * 0.25) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    paper = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)
    paper = cv2.GaussianBlur(paper, (0, 0), 1.0)  # only the blocks of the closing: a shadow's edge stays sharp
    paper = cv2.resize(paper, (page_image.shape[1], page_image.shape[0]), interpolation=cv2.INTER_LINEAR)
    ratio = page_image.astype(numpy.float32) / numpy.maximum(paper.astype(numpy.float32), 1.0)
    return numpy.asarray(numpy.clip(1.0 - ratio, 0.0, 1.0), numpy.float32)


def _ink(page_image: Image, scale: float) -> float:
    """How dark printed black is on this photo, from the corner markers against their white quiet zone."""
    levels = []
    for marker in layout.MARKERS:
        left, top = round(marker.x * scale), round(marker.y * scale)
        side, zone = round(marker.size * scale), round(2.0 * scale)
        inside = page_image[top:top + side, left:left + side]
        around = page_image[max(0, top - zone):top + side + zone, max(0, left - zone):left + side + zone]
        paper, black = float(numpy.percentile(around, 97)), float(numpy.percentile(inside, 5))
        levels.append(1.0 - black / max(paper, 1.0))
    return max(0.3, float(numpy.median(levels)))


def measure(page: Page, page_image: Image, scale: float) -> dict[tuple[int, Key], list[float]]:
    """Each bubble's darkness, less its printed label's, over the printed black's, 0 to 1."""
    darkness = _darkness(page_image, scale)
    means = _inside_means(page, darkness, scale)
    by_label: dict[str, list[float]] = defaultdict(list)
    for group, values in zip(page.groups, means, strict=True):
        for bubble, value in zip(group.bubbles, values, strict=True):
            by_label[bubble.label].append(value)
    # An unmarked bubble: most bubbles with the same label are, so a low percentile of theirs is its print.
    everything = [value for values in by_label.values() for value in values]
    fallback = float(numpy.percentile(everything, 20)) if everything else 0.0
    printed = {label: float(numpy.percentile(values, 30)) if len(values) >= 3 else fallback
               for label, values in by_label.items()}
    ink = _ink(page_image, scale)
    fills: dict[tuple[int, Key], list[float]] = {}
    for group, values in zip(page.groups, means, strict=True):
        fills[(group.row, group.key)] = [
            round(min(1.0, max(0.0, (value - printed[bubble.label]) / max(ink - printed[bubble.label], 0.1))), 3)
            for bubble, value in zip(group.bubbles, values, strict=True)]
    return fills


def _disk(radius: float) -> tuple[NDArray[numpy.intp], NDArray[numpy.intp]]:
    reach = int(numpy.ceil(radius))
    dy, dx = numpy.mgrid[-reach:reach + 1, -reach:reach + 1]
    inside = dx * dx + dy * dy <= radius * radius
    return dy[inside], dx[inside]


def _ring_response(darkness: Floats, scale: float) -> Floats:
    """How much each pixel looks like the centre of a printed empty bubble: a dark ring, light inside and out."""
    radius = layout.BUBBLE / 2 * scale
    reach = int(numpy.ceil(radius + 0.8 * scale))
    dy, dx = numpy.mgrid[-reach:reach + 1, -reach:reach + 1]
    distance = numpy.hypot(dx, dy)
    ring = (numpy.abs(distance - radius) <= 0.3 * scale).astype(numpy.float32)
    ring /= ring.sum()
    kernel = ring - (distance <= radius * 0.5).astype(numpy.float32) / float((distance <= radius * 0.5).sum())
    return numpy.asarray(cv2.filter2D(darkness, cv2.CV_32F, kernel), numpy.float32)


def _inside_means(page: Page, darkness: Floats, scale: float) -> list[list[float]]:
    """The mean darkness inside each bubble of each group, each band of a row moved onto its printed outlines."""
    response = _ring_response(darkness, scale)
    height, width = darkness.shape
    reach = int(SHIFT * scale)
    centres: dict[tuple[int, int], list[tuple[int, int, float, float]]] = defaultdict(list)
    for g, group in enumerate(page.groups):
        for b, bubble in enumerate(group.bubbles):
            centres[(group.row, int(bubble.x // BAND))].append((g, b, bubble.x * scale - 0.5,
                                                                bubble.y * scale - 0.5))
    disk_y, disk_x = _disk(layout.BUBBLE / 2 * DISK * scale)
    means = [[0.0] * len(group.bubbles) for group in page.groups]
    offsets = numpy.arange(-reach, reach + 1)
    for band in centres.values():
        xs = numpy.array([round(x) for _, _, x, _ in band])
        ys = numpy.array([round(y) for _, _, _, y in band])
        rows = numpy.clip(ys[None, None, :] + offsets[:, None, None], 0, height - 1)
        columns = numpy.clip(xs[None, None, :] + offsets[None, :, None], 0, width - 1)
        scores = response[rows, columns].sum(axis=2)
        i, j = numpy.unravel_index(int(numpy.argmax(scores)), scores.shape)
        shift_y, shift_x = int(offsets[i]), int(offsets[j])
        for (g, b, _, _), x, y in zip(band, xs, ys, strict=True):
            pixels = darkness[numpy.clip(y + shift_y + disk_y, 0, height - 1), numpy.clip(x + shift_x + disk_x, 0, width - 1)]
            means[g][b] = float(pixels.mean())
    return means
