"""A phone's photo of a sheet, taken in: bounded, turned upright, stripped of its metadata, kept as a JPEG."""

from __future__ import annotations

import io
import warnings

import numpy
from PIL import Image, ImageOps, UnidentifiedImageError

from scorekeeper.games.base import N_

MAX_UPLOAD = 15 * 1024 * 1024  # bytes
MAX_PIXELS = 40_000_000  # a phone's largest photo is about 50 MP; its usual one 12
LONG_SIDE = 4000  # px: the reader needs about 8 px per mm of the sheet, a whole A4 page is 297 mm long
QUALITY = 85
FORMATS = {"JPEG", "PNG", "WEBP", "HEIF"}  # HEIF only when a Pillow plugin for it is installed

# Pillow refuses a decompression bomb from twice this many pixels on its own; a photo is never near that.
Image.MAX_IMAGE_PIXELS = min(Image.MAX_IMAGE_PIXELS or MAX_PIXELS, MAX_PIXELS)

TOO_LARGE = N_("This photo is too large: take it again at the camera's usual size.")
NOT_A_PHOTO = N_("This file is not a photo the app can read: take the photo again with the phone's camera.")
BROKEN = N_("This photo arrived incomplete: send it again.")


class PhotoRefused(Exception):
    """A photo the app does not keep, with the sentence that says why."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


def intake(data: bytes) -> bytes:
    """Return the photo as a JPEG of at most LONG_SIDE px, upright, with no metadata; raise PhotoRefused."""
    if len(data) > MAX_UPLOAD:
        raise PhotoRefused(TOO_LARGE)
    image = _opened(data)
    if not _complete(data, str(image.format)):
        raise PhotoRefused(BROKEN)
    try:
        # A JPEG decodes straight at a fraction of its size when that still leaves LONG_SIDE px: much faster.
        image.draft("RGB", (LONG_SIDE, LONG_SIDE))
        image.load()
        upright = ImageOps.exif_transpose(image)
    except (OSError, SyntaxError, ValueError) as error:
        raise PhotoRefused(BROKEN) from error
    upright.thumbnail((LONG_SIDE, LONG_SIDE), Image.Resampling.LANCZOS, reducing_gap=3.0)
    clean = _plain(upright)
    out = io.BytesIO()
    clean.save(out, "JPEG", quality=QUALITY)
    return out.getvalue()


def _opened(data: bytes) -> Image.Image:
    """Open the photo reading its header only, refusing other formats and too many pixels before decoding."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise PhotoRefused(TOO_LARGE) from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise PhotoRefused(NOT_A_PHOTO) from error
    if image.format not in FORMATS:
        raise PhotoRefused(NOT_A_PHOTO)
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise PhotoRefused(TOO_LARGE)
    if width < 1 or height < 1:
        raise PhotoRefused(NOT_A_PHOTO)
    return image


def _complete(data: bytes, kind: str) -> bool:
    """Whether the file ends as its format says: Pillow fills a cut picture with grey when a library (WeasyPrint)
    has set its process-wide LOAD_TRUNCATED_IMAGES."""
    if kind == "JPEG":  # the end of image after the last scan; 0xFF inside a scan is always followed by 0x00
        return data.rfind(b"\xff\xd9") > data.rfind(b"\xff\xda")
    if kind == "PNG":
        return b"IEND" in data[-32:]
    if kind == "WEBP":
        return len(data) >= 8 + int.from_bytes(data[4:8], "little")
    return True


def _plain(image: Image.Image) -> Image.Image:
    """The pixels alone in RGB: a new image carries no EXIF, GPS, ICC profile, comment or XMP of the original."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        image = flat
    elif image.mode.startswith(("I", "F")):  # 16-bit or float greys: scale down to 8 bits
        greys = numpy.asarray(image, dtype=numpy.float64)
        if greys.max(initial=0) > 255:
            greys = greys / 256
        image = Image.fromarray(greys.clip(0, 255).astype(numpy.uint8))
    rgb = image.convert("RGB")
    clean = Image.new("RGB", rgb.size)
    clean.paste(rgb)
    return clean
