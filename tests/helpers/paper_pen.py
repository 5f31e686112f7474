"""A printed readable sheet filled in as a table fills it, for the synthetic photos (helpers/paper_photos.py).

``fill`` marks bubbles on a page rastered at some dpi the way a pen does (a blob that misses the bubble a little, a
cross, a tick, a pencil's light mark) and adds what a real table leaves besides: a stray stroke between bubbles, a
dot on a bubble of another row, a mark filled then scribbled out next to the right one, figures written in the
boxes. It says which rows it made doubtful on purpose, so that a test can tell a doubt the sheet's rules allow from
one the reader should not have had.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from scorekeeper.paper.layout import Box, Bubble, Group, Key, Page, Value

MM_PER_INCH = 25.4
Marks = dict[tuple[int, Key], Sequence[Value]]
STYLES = ("fill", "cross", "tick", "light")


@dataclass(frozen=True)
class Styles:
    """How often each kind of mark and of noise appears: weights of a row's mark style, chances per row or box."""

    weights: tuple[float, ...] = (0.55, 0.2, 0.15, 0.1)  # fill, cross, tick, light, as STYLES
    mixed: float = 0.1  # a mark in another style than its row's
    stray: float = 0.15  # a short stroke between bubbles
    dot: float = 0.02  # a dot on another bubble of a one-mark group (a doubt allowed)
    corrected: float = 0.03  # a wrong bubble filled and scribbled out, the right one marked (a doubt allowed)
    written: float = 0.8  # figures written in a box


TABLE = Styles()  # a table as it is
CLEAN = Styles(weights=(1.0, 0.0, 0.0, 0.0), mixed=0.0, stray=0.0, dot=0.0, corrected=0.0, written=0.0)


@dataclass
class Filled:
    """A filled page, each row's mark style, and the rows made doubtful on purpose (row -> what was done)."""

    image: np.ndarray
    styles: dict[int, str] = field(default_factory=dict)
    doubts: dict[int, list[str]] = field(default_factory=dict)
    noise: dict[int, list[str]] = field(default_factory=dict)  # what else the row got (stray strokes...)
    shapes: dict[tuple[int, Key, Value], str] = field(default_factory=dict)  # each marked bubble's mark


def px(mm: float, dpi: float) -> float:
    return mm * dpi / MM_PER_INCH


class Pen:
    """Ink laid on a grey page: each stroke darkens what is under it, as ink over print does."""

    SHIFT = 4  # cv2's fixed-point bits: strokes placed to 1/16 px

    def __init__(self, image: np.ndarray, dpi: float, rng: np.random.Generator) -> None:
        self.image = image.astype(np.float32)
        self.dpi = dpi
        self.rng = rng

    def point(self, x: float, y: float) -> tuple[int, int]:
        scale = 1 << self.SHIFT
        return round(px(x, self.dpi) * scale), round(px(y, self.dpi) * scale)

    def lay(self, draw: Callable[[np.ndarray, tuple[int, int]], None], ink: float, grain: float = 0.0,
            near: tuple[float, float] = (0.0, 0.0), reach: float = 8.0) -> None:
        """Draw a coverage mask with draw(mask) around near (mm) and darken the page to ink (0 black) under it."""
        h, w = self.image.shape
        x0, y0 = (max(0, int(px(c - reach, self.dpi))) for c in near)
        x1, y1 = min(w, int(px(near[0] + reach, self.dpi)) + 1), min(h, int(px(near[1] + reach, self.dpi)) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        draw(mask, (x0 << self.SHIFT, y0 << self.SHIFT))
        cover = mask.astype(np.float32) / 255.0
        if grain:
            cover *= 1.0 - grain * self.rng.random(cover.shape, dtype=np.float32)
        patch = self.image[y0:y1, x0:x1]
        patch *= 1.0 - cover * (1.0 - ink / 255.0)

    def stroke(self, points: Sequence[tuple[float, float]], width: float, ink: float, grain: float = 0.0) -> None:
        """A pen line through points (mm), width in mm."""
        thickness = max(1, round(px(width, self.dpi)))
        cx, cy = np.mean(points, axis=0)

        def draw(mask: np.ndarray, origin: tuple[int, int]) -> None:
            line = np.array([[x - origin[0], y - origin[1]] for x, y in (self.point(*p) for p in points)], np.int32)
            cv2.polylines(mask, [line], False, 255, thickness, cv2.LINE_AA, self.SHIFT)

        reach = max(math.dist(p, (cx, cy)) for p in points) + width + 1.0
        self.lay(draw, ink, grain, (cx, cy), reach)

    def blob(self, x: float, y: float, radius: float, ink: float, grain: float = 0.0) -> None:
        """A filled, uneven blob around (x, y) mm: a bubble blacked in by hand."""
        count = int(self.rng.integers(14, 22))
        angles = np.linspace(0, 2 * np.pi, count, endpoint=False)
        wobble = np.zeros(count)
        for k in (2, 3, 5):
            wobble += self.rng.uniform(0, 0.08) * np.cos(k * angles + self.rng.uniform(0, 2 * np.pi))
        radii = radius * (1.0 + wobble)
        outline = [(x + r * math.cos(a), y + r * math.sin(a)) for a, r in zip(angles, radii, strict=True)]

        def draw(mask: np.ndarray, origin: tuple[int, int]) -> None:
            poly = np.array([[px_ - origin[0], py_ - origin[1]] for px_, py_ in (self.point(*p) for p in outline)],
                            np.int32)
            cv2.fillPoly(mask, [poly], 255, cv2.LINE_AA, self.SHIFT)

        self.lay(draw, ink, grain, (x, y), radius * 1.3 + 1.0)


@dataclass(frozen=True)
class Hand:
    """The writer of a row: pen or pencil, ink, line width, how far marks stray from the centre."""

    ink: float
    width: float  # mm
    grain: float
    slack: float  # mm off the bubble's centre


def hand_for(style: str, rng: np.random.Generator) -> Hand:
    if style == "light":
        return Hand(float(rng.uniform(120, 165)), float(rng.uniform(0.22, 0.32)), 0.45, 0.35)
    return Hand(float(rng.uniform(15, 80)), float(rng.uniform(0.3, 0.5)), 0.1, 0.3)


def mark(pen: Pen, bubble: Bubble, style: str, hand: Hand, size: float, rng: np.random.Generator) -> str:
    """One mark on a bubble of diameter size (mm) in the style given; return its shape ("pencil tick"...)."""
    r = size / 2
    x = bubble.x + float(rng.uniform(-hand.slack, hand.slack))
    y = bubble.y + float(rng.uniform(-hand.slack, hand.slack))
    shape = style if style != "light" else str(rng.choice(["fill", "cross", "tick"], p=[0.5, 0.3, 0.2]))
    if shape == "fill":
        pen.blob(x, y, r * float(rng.uniform(0.7, 1.1)), hand.ink, hand.grain)
    elif shape == "cross":
        for base in (45, 135):
            a = math.radians(base + rng.uniform(-15, 15))
            arm = r * float(rng.uniform(0.9, 1.4))
            pen.stroke([(x - arm * math.cos(a), y - arm * math.sin(a)), (x + arm * math.cos(a), y + arm * math.sin(a))],
                       hand.width, hand.ink, hand.grain)
    else:
        s = r * float(rng.uniform(0.9, 1.3))
        pen.stroke([(x - 0.7 * s, y - 0.05 * s), (x - 0.15 * s, y + 0.6 * s), (x + 0.9 * s, y - 0.9 * s)],
                   hand.width, hand.ink, hand.grain)
    return shape if style != "light" else f"pencil {shape}"


def scribble(pen: Pen, x: float, y: float, half: float, hand: Hand, rng: np.random.Generator) -> None:
    """A mark struck out: a dense zigzag over (x, y), wider than the bubble."""
    turns = int(rng.integers(5, 9))
    points = [(x - half + 2 * half * k / turns + float(rng.uniform(-0.2, 0.2)),
               y + (half if k % 2 else -half) * float(rng.uniform(0.7, 1.1))) for k in range(turns + 1)]
    pen.stroke(points, hand.width * 1.2, hand.ink)


def written(pen: Pen, box: Box, rng: np.random.Generator) -> None:
    """Figures written by hand in a box (never read): a number in a script face, slanted and off-centre."""
    text = str(int(rng.integers(-250, 400)))
    thickness = max(1, round(px(0.35, pen.dpi)))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 1.0, thickness)
    scale = min(0.5 * px(box.height, pen.dpi) / th, 0.8 * px(box.width, pen.dpi) / tw) * float(rng.uniform(0.7, 1.0))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, thickness)
    ink = float(rng.uniform(20, 90))
    left = px(box.x, pen.dpi) + float(rng.uniform(0.05, 0.3)) * max(1.0, px(box.width, pen.dpi) - tw)
    base = px(box.y + box.height, pen.dpi) - float(rng.uniform(0.15, 0.3)) * px(box.height, pen.dpi)
    x0, y0, x1, y1 = int(left) - 4, int(base - th) - 8, int(left + tw) + 8, int(base) + 8
    h, w = pen.image.shape
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.putText(mask, text, (int(left) - x0, int(base) - y0), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, 255, thickness,
                cv2.LINE_AA)
    # Clipped to the box: a figure running over into the bubbles next to it would be a stray mark, not a figure.
    bx0, by0 = int(px(box.x, pen.dpi)) - x0, int(px(box.y, pen.dpi)) - y0
    bx1, by1 = int(px(box.x + box.width, pen.dpi)) - x0, int(px(box.y + box.height, pen.dpi)) - y0
    clip = np.zeros_like(mask)
    clip[max(0, by0):max(0, by1), max(0, bx0):max(0, bx1)] = 1
    mask *= clip
    slant = np.array([[1, -0.25, 0.25 * mask.shape[0]], [0, 1, 0]], np.float32)
    slanted = cv2.warpAffine(mask, slant, (mask.shape[1], mask.shape[0])) * clip
    cover = slanted.astype(np.float32) / 255.0
    pen.image[y0:y1, x0:x1] *= 1.0 - cover * (1.0 - ink / 255.0)


def clear_of(page: Page, x: float, y: float, room: float) -> bool:
    """No bubble and no box within room mm of (x, y)."""
    for group in page.groups:
        for bubble in group.bubbles:
            if math.dist((bubble.x, bubble.y), (x, y)) < room:
                return False
    return all(not (box.x - room < x < box.x + box.width + room and box.y - room < y < box.y + box.height + room)
               for box in page.boxes)


def stray(pen: Pen, page: Page, row: int, size: float, hand: Hand, rng: np.random.Generator) -> bool:
    """A short stroke in the row's band, clear of every bubble (a pen rested, a slip): never a mark."""
    band = page.rows[row]
    length = float(rng.uniform(1.0, 3.0))
    for _ in range(40):
        x = float(rng.uniform(12, page.width - 12))
        y = float(rng.uniform(band.top + 0.5, band.top + band.height - 0.5))
        a = float(rng.uniform(0, math.pi))
        end = (x + length * math.cos(a), y + length * math.sin(a))
        room = size / 2 + length + 1.2
        if clear_of(page, (x + end[0]) / 2, (y + end[1]) / 2, room) and clear_of_markers(page, x, y):
            pen.stroke([(x, y), end], hand.width, hand.ink)
            return True
    return False


def clear_of_markers(page: Page, x: float, y: float) -> bool:
    qx, qy, qs = page.qr
    if qx - 3 < x < qx + qs + 3 and qy - 3 < y < qy + qs + 3:
        return False
    return all(not (m.x - 3 < x < m.x + m.size + 3 and m.y - 3 < y < m.y + m.size + 3) for m in page.markers)


def one_mark(group: Group) -> bool:
    """A group that takes exactly one mark and has no reading for none: a second mark there is a doubt."""
    return group.default is None and not group.many and len(group.bubbles) > 1


def fill(page_image: np.ndarray, page: Page, marks: Marks, rng: np.random.Generator, styles: Styles = TABLE,
         size: float = 3.2) -> Filled:
    """Mark each value of marks on its bubble as a table would, with the noise styles asks for.

    page_image is the printed page in grey at the dpi its width says; size is a bubble's diameter in mm.
    """
    dpi = page_image.shape[1] * MM_PER_INCH / page.width
    pen = Pen(page_image, dpi, rng)
    done = Filled(page_image)
    rows = sorted({row for row, _ in marks})
    for row in rows:
        style = str(rng.choice(STYLES, p=np.array(styles.weights) / sum(styles.weights)))
        done.styles[row] = style
        writer = hand_for(style, rng)
        for (mark_row, key), values in marks.items():
            if mark_row != row:
                continue
            group = page.group(row, key)
            for value in values:
                own = style if rng.random() >= styles.mixed else str(rng.choice(STYLES[:3]))
                bubble = next(b for b in group.bubbles if b.value == value)
                hand = writer if own == style else hand_for(own, rng)
                done.shapes[(row, key, value)] = mark(pen, bubble, own, hand, size, rng)
        hand = hand_for("fill", rng)
        if rng.random() < styles.stray and stray(pen, page, row, size, hand, rng):
            done.noise.setdefault(row, []).append("stray stroke")
        candidates = one_mark_groups(page, marks, row)
        if candidates and rng.random() < styles.corrected:
            group = candidates[int(rng.integers(len(candidates)))]
            wrong = other_bubble(group, marks[(row, group.key)], rng)
            mark(pen, wrong, "fill", hand, size, rng)
            scribble(pen, wrong.x, wrong.y, size * 0.75, hand, rng)
            done.shapes[(row, group.key, wrong.value)] = "struck out"
            done.doubts.setdefault(row, []).append(f"corrected {group.key}: {wrong.value} struck out")
        if rng.random() < styles.dot:
            # The pen touches a bubble of any filled row, this one or another: a second mark in a one-mark group.
            other = rows[int(rng.integers(len(rows)))]
            if targets := one_mark_groups(page, marks, other):
                group = targets[int(rng.integers(len(targets)))]
                wrong = other_bubble(group, marks[(other, group.key)], rng)
                pen.blob(wrong.x + float(rng.uniform(-0.4, 0.4)), wrong.y + float(rng.uniform(-0.4, 0.4)),
                         size * float(rng.uniform(0.08, 0.15)), hand.ink)
                done.doubts.setdefault(other, []).append(f"dot on {group.key} {wrong.value}")
                done.shapes[(other, group.key, wrong.value)] = "dot"
        for box in page.boxes:
            if box.row == row and rng.random() < styles.written:
                written(pen, box, rng)
    done.image = np.clip(pen.image, 0, 255).astype(np.uint8)
    return done


def one_mark_groups(page: Page, marks: Marks, row: int) -> list[Group]:
    """The row's one-mark groups that hold a mark: where a second mark can only be a doubt."""
    return [page.group(row, key) for (mark_row, key), values in marks.items()
            if mark_row == row and len(values) == 1 and one_mark(page.group(row, key))]


def other_bubble(group: Group, values: Iterable[Value], rng: np.random.Generator) -> Bubble:
    others = [b for b in group.bubbles if b.value not in set(values)]
    return others[int(rng.integers(len(others)))]


def bubble_px(bubble: Bubble, dpi: float) -> tuple[float, float]:
    """Where a bubble's centre falls on a page rastered at dpi."""
    return px(bubble.x, dpi), px(bubble.y, dpi)


