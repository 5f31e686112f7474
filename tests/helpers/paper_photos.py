"""A filled sheet photographed by a phone on a table: the synthetic photos the reader is measured on.

``photographed`` lays the page on a wooden table and shoots it: the phone tilted up to 15 degrees, turned any way
(upside down too), the page filling 60-95% of the frame, uneven light and a soft shadow across it, a little out of
focus, sensor noise, JPEG at quality 50-90, and on request one corner of the sheet out of the frame. ``severity``
(0-1) scales every distortion; ``Shot`` keeps what was drawn, so a failure can say which distortion it met.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from scorekeeper.paper.layout import MARKER, MARKER_MARGIN, Page

TILT = 15.0  # degrees, at severity 1


@dataclass(frozen=True)
class Camera:
    """The frame, how much of it the page fills (its bounding box), and how far off a quarter turn it may be held."""

    frame: tuple[int, int] = (4000, 3000)  # 12 MP
    fill: tuple[float, float] = (0.6, 0.95)
    turn: float = 180.0  # degrees either side of a quarter turn: 180 is any angle


TWELVE_MP = Camera()
# A smaller photo (4 MP) held within 20 degrees of square to the page, for the suite's speed: the page is then
# 6 to 8 px a millimetre and the QR code's modules (0.6 mm) about 4 px, enough to decode under blur and JPEG. At
# any angle this size would not do: turned 45 degrees, the page has 4.5 px a millimetre, its code's modules 2.7 px.
SMALL = Camera((2400, 1800), (0.7, 0.95), 20.0)


@dataclass
class Shot:
    jpeg: bytes
    corner_out: int | None  # the marker (0-3) pushed out of the frame, if any
    where: np.ndarray  # 3x3: page pixels -> frame pixels
    settings: dict[str, float] = field(default_factory=dict)


def tilted(w: int, h: int, tilt: float, direction: float, focal: float) -> np.ndarray:
    """The page's corners seen by a pinhole camera after its plane turned tilt degrees about an axis in it."""
    axis = np.array([math.cos(direction), math.sin(direction), 0.0])
    turn, _ = cv2.Rodrigues(axis * math.radians(tilt))
    corners = np.array([[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0], [-w / 2, h / 2, 0]])
    seen = corners @ turn.T
    depth = focal + seen[:, 2]
    return np.stack([focal * seen[:, 0] / depth, focal * seen[:, 1] / depth], axis=1)


def placement(page_size: tuple[int, int], camera: Camera, rng: np.random.Generator, severity: float,
              marker_px: float, corner_out: int | None) -> tuple[np.ndarray, dict[str, float]]:
    """The homography from the page's pixels into the frame, and the settings drawn for it.

    With corner_out, drawn again until exactly that marker's centre is out of the frame and the other three are
    inside with half a marker to spare: a page held square to the frame loses two corners together, so the page
    is turned 10 to 35 degrees off a quarter turn first.
    """
    for _ in range(100):
        where, settings = placed(page_size, camera, rng, severity, corner_out is not None)
        if corner_out is None:
            return where, settings
        where, settings["out_by"] = pushed_out(where, page_size, camera.frame, marker_px, corner_out, rng)
        centres = project(where, marker_centres(page_size, marker_px))
        margin = marker_px * math.sqrt(abs(np.linalg.det(where[:2, :2]))) / 2
        fw, fh = camera.frame
        if all((margin <= x < fw - margin and margin <= y < fh - margin) == (marker != corner_out)
               for marker, (x, y) in enumerate(centres)):
            return where, settings
    raise AssertionError("no placement puts exactly one corner out")


def placed(page_size: tuple[int, int], camera: Camera, rng: np.random.Generator, severity: float,
           askew: bool) -> tuple[np.ndarray, dict[str, float]]:
    w, h = page_size
    fw, fh = camera.frame
    tilt = float(rng.uniform(0, TILT * severity))
    direction = float(rng.uniform(0, 2 * math.pi))
    focal = float(rng.uniform(0.9, 1.5)) * math.hypot(w, h)
    off = float(rng.choice([-1, 1]) * rng.uniform(10, 35)) if askew else float(rng.uniform(-camera.turn, camera.turn))
    angle = float(90 * rng.integers(4) + off) % 360
    low, high = camera.fill
    fraction = float(rng.uniform(low, high - 0.1 * askew))
    seen = tilted(w, h, tilt, direction, focal)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    seen = seen @ np.array([[c, s], [-s, c]])
    span = seen.max(axis=0) - seen.min(axis=0)
    scale = fraction / max(span[0] / fw, span[1] / fh)
    seen = (seen - seen.min(axis=0)) * scale
    span = span * scale
    seen += [float(rng.uniform(0, fw - span[0])), float(rng.uniform(0, fh - span[1]))]
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    where = cv2.getPerspectiveTransform(source, seen.astype(np.float32))
    return where, {"tilt": tilt, "rotation": angle, "fill": fraction}


def project(where: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), where).reshape(-1, 2)


def marker_centres(page_size: tuple[int, int], marker_px: float) -> np.ndarray:
    """The four markers' centres on the page, in pixels, marker_px being a marker's side."""
    w, h = page_size
    inset = marker_px * (MARKER_MARGIN + MARKER / 2) / MARKER
    return np.array([[inset, inset], [w - inset, inset], [w - inset, h - inset], [inset, h - inset]], np.float32)


def pushed_out(where: np.ndarray, page_size: tuple[int, int], frame: tuple[int, int], marker_px: float, corner: int,
               rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Move the page so that one marker's centre is beyond the nearest edge of the frame, the others well inside."""
    fw, fh = frame
    centres = project(where, marker_centres(page_size, marker_px))
    x, y = centres[corner]
    edges = {(-1, 0): x, (1, 0): fw - x, (0, -1): y, (0, 1): fh - y}
    (dx, dy), gap = min(edges.items(), key=lambda item: item[1])
    ends = project(where, np.array([[0, 0], [marker_px, 0]], np.float32))
    side = float(np.linalg.norm(ends[1] - ends[0]))
    beyond = float(rng.uniform(0.2, 1.2)) * side
    shift = np.array([[1, 0, dx * (gap + beyond)], [0, 1, dy * (gap + beyond)], [0, 0, 1]])
    moved = shift @ where
    return moved, beyond / side


def table(frame: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A dark wooden table top in grey (float32): grain stretched along one direction, and finer noise."""
    fw, fh = frame
    along = rng.random() < 0.5
    small = rng.normal(0, 1, (8, 160) if along else (160, 8)).astype(np.float32)
    streaks = cv2.resize(small, (fw, fh), interpolation=cv2.INTER_CUBIC)
    fine = cv2.resize(rng.normal(0, 1, (fh // 16, fw // 16)).astype(np.float32), (fw, fh))
    return cv2.addWeighted(streaks, 14.0, fine, 6.0, float(rng.uniform(45, 100)))


def grain(frame: tuple[int, int], rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Sensor noise of sigma grey levels: a random tile repeated (drawing 12 million normals per channel is slow)."""
    fw, fh = frame
    tile = rng.normal(0, sigma, (509, 511)).astype(np.float32)  # sides prime to each other: no visible lattice
    reps = (fh // tile.shape[0] + 2, fw // tile.shape[1] + 2)
    dy, dx = (int(rng.integers(n)) for n in tile.shape)
    return np.tile(tile, reps)[dy:dy + fh, dx:dx + fw]


def light(frame: tuple[int, int], rng: np.random.Generator, severity: float) -> tuple[np.ndarray, dict[str, float]]:
    """How much light reaches each pixel (0-1): a gradient across the frame and a soft shadow band."""
    fw, fh = frame
    sw, sh = fw // 8, fh // 8
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs, ys = xs / sw - 0.5, ys / sh - 0.5
    a = float(rng.uniform(0, 2 * math.pi))
    low = 1.0 - float(rng.uniform(0.1, 0.45)) * severity
    ramp = (xs * math.cos(a) + ys * math.sin(a)) / math.sqrt(0.5) * 0.5 + 0.5
    lit = low + (1.0 - low) * ramp
    settings = {"light_low": low, "shadow": 0.0}
    if rng.random() < 0.6:
        b = float(rng.uniform(0, math.pi))
        offset = float(rng.uniform(-0.4, 0.4))
        width = float(rng.uniform(0.05, 0.25))
        depth = float(rng.uniform(0.2, 0.45)) * severity
        distance = np.abs(xs * math.cos(b) + ys * math.sin(b) - offset)
        band = np.clip((width - distance) / (0.5 * width) + 0.5, 0, 1)
        lit *= 1.0 - depth * band
        settings["shadow"] = depth
    lit = cv2.GaussianBlur(lit, (0, 0), 3)
    return cv2.resize(lit, (fw, fh), interpolation=cv2.INTER_LINEAR), settings


def photographed(image: np.ndarray, rng: np.random.Generator, severity: float = 1.0, camera: Camera = TWELVE_MP,
                 corner_out: int | None = None, page: Page | None = None) -> bytes:
    """The JPEG a phone makes of the page image (grey) lying on a table."""
    return shoot(image, rng, severity, camera, corner_out, page).jpeg


def shoot(image: np.ndarray, rng: np.random.Generator, severity: float = 1.0, camera: Camera = TWELVE_MP,
          corner_out: int | None = None, page: Page | None = None) -> Shot:
    """photographed, and what was drawn for it."""
    h, w = image.shape
    width_mm = page.width if page else 297.0
    marker_px = MARKER * w / width_mm
    frame = camera.frame
    where, settings = placement((w, h), camera, rng, severity, marker_px, corner_out)
    # Shrunk first when the frame holds the page smaller than its raster: a perspective warp samples, it does not
    # average, and a phone's lens averages.
    shrink = math.sqrt(abs(np.linalg.det(where[:2, :2]))) / max(1e-9, float(where[2, 2]))
    source, warp = image, where
    if shrink < 0.8:
        source = cv2.resize(image, (round(w * shrink), round(h * shrink)), interpolation=cv2.INTER_AREA)
        warp = where @ np.diag([w / source.shape[1], h / source.shape[0], 1.0])
    fw, fh = frame
    paper = cv2.warpPerspective(source.astype(np.float32), warp, frame, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    cover = cv2.warpPerspective(np.full(source.shape, 1.0, np.float32), warp, frame, flags=cv2.INTER_LINEAR)
    # OpenCV's own arithmetic throughout: a 12 MP frame in numpy costs seconds, here a tenth of that.
    bare = 1.0 - cover
    scene = cv2.add(paper, cv2.multiply(bare, table(frame, rng)))
    sigma = float(rng.uniform(0, 1.5)) * severity
    if sigma > 0.2:
        scene = cv2.GaussianBlur(scene, (0, 0), sigma)
    lit, shading = light(frame, rng, severity)
    scene = cv2.multiply(scene, lit, scale=float(rng.uniform(0.8, 0.97)))
    paper_tint = [float(rng.uniform(0.86, 0.97)), float(rng.uniform(0.93, 1.0)), 1.0]  # B, G, R: warm indoor light
    wood_tint = [0.55, 0.8, 1.15]
    noise = float(rng.uniform(1.0, 6.0)) * severity
    channels = []
    for channel in range(3):
        tint = cv2.addWeighted(cover, paper_tint[channel], bare, wood_tint[channel], 0.0)
        shade = cv2.multiply(scene, tint)
        channels.append(cv2.add(shade, grain(frame, rng, noise), dtype=cv2.CV_8U))
    quality = int(rng.integers(50, 91))
    ok, jpeg = cv2.imencode(".jpg", cv2.merge(channels), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    settings.update(shading, blur=sigma, noise=noise, quality=quality, frame=float(fw))
    return Shot(jpeg.tobytes(), corner_out, where, settings)
