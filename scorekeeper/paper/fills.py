"""How dark each bubble of a straightened page is, on one scale whatever the light.

The page is divided by its own paper level (a closing wider than any mark, so a shadow or a lamp's gradient
cancels out); the printed bubble's label and outline are taken off, pixel by pixel (what unmarked bubbles with
the same label show on this page); the rest is divided by how dark the printed corner markers are (so a grey
photo and a crisp one agree). Besides its darkness, each bubble says how far the stroke through its middle
reaches: a tick or a cross in pencil is light but long, a pen's dot dark but short.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import cv2
import numpy
from numpy.typing import NDArray

from scorekeeper.paper import layout
from scorekeeper.paper.layout import Key, Page

DISK = 0.75  # of a bubble's radius: the inside measured, clear of its printed outline
PAPER_WINDOW = 6.0  # mm: wider than a bubble, so the paper level passes over every mark
SHIFT = 1.0  # mm: how far a bubble may sit from where the markers put it (a sheet not quite flat)
BAND = 60.0  # mm: a row's bubbles are aligned in bands this wide
NEAR = 1e-4  # of a ring's response per px of shift: between shifts that fit alike, the smaller
STROKE = 0.12  # of the printed black, above the printed bubble: a pixel a hand's stroke went through
GAP = (1.95, 2.2)  # mm from a bubble's centre: clear of its outline (1.7), of a fill (1.9) and of the next (2.5)
GAP_HEIGHT = 1.6  # mm: a cross's arms leave the bubble above and below this
CORE = 0.7  # of the measured disk's radius: a hand's mark on the bubble goes through this middle
SQRT2 = float(numpy.sqrt(2.0))

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


@dataclass
class Measured:
    """Each bubble of each group (row, key), in the group's order: how dark, and how far its mark reaches."""

    fills: dict[tuple[int, Key], list[float]]  # darkness less the printed bubble's, over the printed black's, 0 to 1
    spans: dict[tuple[int, Key], list[float]]  # mm: the longest stroke inside the bubble (0: nothing there)
    beyond: dict[tuple[int, Key], list[float]]  # ink in the gaps on both sides of the bubble: a mark struck out


def measure(page: Page, page_image: Image, scale: float) -> Measured:
    """Each bubble's darkness, less its printed label's, over the printed black's, 0 to 1; and its mark's reach.

    An unmarked bubble: most bubbles with the same label are, so a low percentile of theirs, pixel by pixel, is
    its print at this photo's focus. What is left once that is taken off is what a hand put there: a pencil's
    line through the bubble is long, a dot from a pen resting is not, however dark each is.
    """
    darkness = _darkness(page_image, scale)
    patches = _patches(page, darkness, scale)
    by_label: dict[str, list[Floats]] = defaultdict(list)
    for group, found in zip(page.groups, patches, strict=True):
        for bubble, patch in zip(group.bubbles, found, strict=True):
            by_label[bubble.label].append(patch)
    everything = [patch for found in by_label.values() for patch in found]
    side = 2 * _radius(scale) + 1
    fallback = (numpy.percentile(numpy.stack(everything), 20, axis=0) if everything
                else numpy.zeros((side, side), numpy.float32))
    printed: dict[str, Floats] = {
        label: numpy.percentile(numpy.stack(found), 30, axis=0) if len(found) >= 3 else fallback
        for label, found in by_label.items()}
    ink = _ink(page_image, scale)
    inside = _disk_mask(scale)
    core = _disk_mask(scale, CORE)
    gaps = _gaps(scale)
    out = Measured({}, {}, {})
    for group, found in zip(page.groups, patches, strict=True):
        values, reaches, sides = [], [], []
        for bubble, patch in zip(group.bubbles, found, strict=True):
            left = (patch - printed[bubble.label]) / max(ink - float(printed[bubble.label][inside].mean()), 0.1)
            values.append(round(min(1.0, max(0.0, float(left[inside].mean()))), 3))
            reaches.append(round(_reach(left, inside, core) / scale, 2))
            sides.append(round(max(0.0, min(float(left[gap].mean()) for gap in gaps)), 3))
        out.fills[(group.row, group.key)] = values
        out.spans[(group.row, group.key)] = reaches
        out.beyond[(group.row, group.key)] = sides
    return out


def _reach(left: Floats, inside: NDArray[numpy.bool_], core: NDArray[numpy.bool_]) -> float:
    """px: how far the largest stroke through the middle of the bubble reaches, along its longest direction.

    A stroke that only grazes the bubble's edge (the tail of a tick on the bubble next to it) does not count.
    """
    smooth = cv2.blur(left, (3, 3))
    # Half the stroke's own darkness: a dark dot's blurred rim is not the dot, and a pencil line is as long at
    # half its grey as at all of it.
    level = max(STROKE, 0.5 * float(numpy.percentile(smooth[inside], 98)))
    marked = ((smooth >= level) & inside).astype(numpy.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(marked, connectivity=8)
    through = [k for k in range(1, count) if core[labels == k].any()]
    if not through:
        return 0.0
    largest = max(through, key=lambda k: int(stats[k, cv2.CC_STAT_AREA]))
    ys, xs = numpy.nonzero(labels == largest)
    return float(max(numpy.ptp(xs), numpy.ptp(ys), numpy.ptp(xs + ys) / SQRT2, numpy.ptp(xs - ys) / SQRT2)) + 1.0


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


def _radius(scale: float) -> int:
    """px: half a patch's side, from the bubble's centre to the far side of the gaps beside it."""
    return int(numpy.ceil(GAP[1] * scale))


def _gaps(scale: float) -> tuple[NDArray[numpy.bool_], NDArray[numpy.bool_]]:
    """The pixels of a patch in the gap left and right of its bubble, between its outline and the next one's."""
    reach = _radius(scale)
    dy, dx = numpy.mgrid[-reach:reach + 1, -reach:reach + 1] / scale
    side = (numpy.abs(dy) <= GAP_HEIGHT / 2) & (numpy.abs(dx) >= GAP[0]) & (numpy.abs(dx) <= GAP[1])
    return numpy.asarray(side & (dx < 0)), numpy.asarray(side & (dx > 0))


def _disk_mask(scale: float, share: float = 1.0) -> NDArray[numpy.bool_]:
    """The pixels of a patch (_patches) inside the measured disk, or inside that share of its radius."""
    reach = _radius(scale)
    dy, dx = numpy.mgrid[-reach:reach + 1, -reach:reach + 1]
    radius = layout.BUBBLE / 2 * DISK * scale * share
    return numpy.asarray(dx * dx + dy * dy <= radius * radius)


def _patches(page: Page, darkness: Floats, scale: float) -> list[list[Floats]]:
    """The square around each bubble of each group, each band of a row moved onto its printed outlines."""
    response = _ring_response(darkness, scale)
    height, width = darkness.shape
    reach = int(SHIFT * scale)
    centres: dict[tuple[int, int], list[tuple[int, int, float, float]]] = defaultdict(list)
    for g, group in enumerate(page.groups):
        for b, bubble in enumerate(group.bubbles):
            centres[(group.row, int(bubble.x // BAND))].append((g, b, bubble.x * scale - 0.5,
                                                                bubble.y * scale - 0.5))
    side = _radius(scale)
    square = numpy.arange(-side, side + 1)
    patches: list[list[Floats]] = [[numpy.zeros((0, 0), numpy.float32)] * len(group.bubbles) for group in page.groups]
    offsets = numpy.arange(-reach, reach + 1)
    for band in centres.values():
        xs = numpy.array([round(x) for _, _, x, _ in band])
        ys = numpy.array([round(y) for _, _, _, y in band])
        rows = numpy.clip(ys[None, None, :] + offsets[:, None, None], 0, height - 1)
        columns = numpy.clip(xs[None, None, :] + offsets[None, :, None], 0, width - 1)
        # The median bubble's response: a filled bubble answers the ring against it, and a band where a table
        # filled a few would otherwise be pulled off its printed outlines; the nearest shift wins a tie.
        scores = numpy.median(response[rows, columns], axis=2) - NEAR * numpy.hypot(*numpy.meshgrid(offsets, offsets))
        i, j = numpy.unravel_index(int(numpy.argmax(scores)), scores.shape)
        shift_y, shift_x = int(offsets[i]), int(offsets[j])
        for (g, b, _, _), x, y in zip(band, xs, ys, strict=True):
            ys_ = numpy.clip(y + shift_y + square, 0, height - 1)
            xs_ = numpy.clip(x + shift_x + square, 0, width - 1)
            patches[g][b] = darkness[numpy.ix_(ys_, xs_)]
    return patches
