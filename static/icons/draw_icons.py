"""Draw the home-screen icons: a white spade on the app's green, from the DejaVu Sans that travels with the app.

Run from the repository root with the app's environment (Pillow comes with WeasyPrint):
    .venv/bin/python static/icons/draw_icons.py
"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
FONT = HERE.parent / "fonts" / "DejaVuSans-Bold.ttf"
GREEN, WHITE = (11, 110, 79, 255), (255, 255, 255, 255)
SPADE = "\u2660"


def draw(size: int, glyph_share: float, corner_share: float) -> Image.Image:
    """The spade filling glyph_share of the side, centred on a square with rounded corners (0: full bleed)."""
    scale = 4  # drawn large, then reduced: smooth edges
    side = size * scale
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    pen.rounded_rectangle((0, 0, side - 1, side - 1), radius=int(side * corner_share), fill=GREEN)
    font = ImageFont.truetype(str(FONT), int(side * glyph_share))
    left, top, right, bottom = pen.textbbox((0, 0), SPADE, font=font)
    pen.text(((side - (right - left)) / 2 - left, (side - (bottom - top)) / 2 - top), SPADE, font=font, fill=WHITE)
    return image.resize((size, size), Image.Resampling.LANCZOS)


if __name__ == "__main__":
    draw(192, 0.72, 0.18).save(HERE / "icon-192.png", optimize=True)
    draw(512, 0.72, 0.18).save(HERE / "icon-512.png", optimize=True)
    # Maskable: the phone cuts its own shape; the spade stays inside the central safe circle (80 % of the side).
    draw(512, 0.5, 0).save(HERE / "maskable-512.png", optimize=True)
    # The browser's tab and bookmarks ask /favicon.ico (installable.favicon): the icon at the sizes they show.
    draw(48, 0.78, 0.18).save(HERE / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
