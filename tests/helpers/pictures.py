"""Where the ink of a PDF's text falls on its rules: the document printed twice, drawn by poppler and compared.

A test prints a document once with TEXT_ONLY and once with RULES_ONLY as the app's PDF_EXTRA_CSS: the first
has the text and no background or border, the second the backgrounds and borders (the grid's rules are
backgrounds) and no text. Both are drawn in grey at 150 dpi (pdftoppm); a pixel at least half black in the
first (INK) that is anything but white paper or a shade in the second (RULE) is text on a rule.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from PIL import Image, ImageChops

TEXT_ONLY = ("* { background: none !important; border-color: transparent !important; }"
             " @page { @bottom-right { content: none } }")
# overflow: WeasyPrint 70 paints a clipped cell's backgrounds after the text before it, with that text's transparency
# still set, so that they would not show; unclipped, they are painted first. The text is invisible either way.
RULES_ONLY = ("* { color: transparent !important; overflow: visible !important; }"
              " @page { @bottom-right { content: none } }")
DPI = 150
INK, RULE = 128, 235  # grey levels: text at least half black; a rule of #bbb covering a third of a pixel, or more


def drawn(path: Path) -> list[Image.Image]:
    """The PDF's pages drawn in grey at DPI."""
    stem = path.with_suffix("")
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", str(path), str(stem)], check=True, timeout=120)
    return [Image.open(page).convert("L") for page in sorted(path.parent.glob(f"{stem.name}-*.png"))]


def crossings(text: Path, rules: Path) -> list[tuple[int, int, tuple[int, int, int, int]]]:
    """(page, pixels, their box in pixels) for each page where text printed by text falls on a rule of rules."""
    found = []
    text_pages, rule_pages = drawn(text), drawn(rules)
    assert len(text_pages) == len(rule_pages), (text.name, len(text_pages), len(rule_pages))
    for number, (inked, ruled) in enumerate(zip(text_pages, rule_pages, strict=True), start=1):
        both = ImageChops.multiply(inked.point(lambda grey: 255 if grey < INK else 0),
                                   ruled.point(lambda grey: 255 if grey < RULE else 0))
        pixels = both.histogram()[255]
        if pixels:
            found.append((number, pixels, both.getbbox()))
    return found
