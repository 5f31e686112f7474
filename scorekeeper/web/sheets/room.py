"""The room a name takes on a sheet, in any script: in the lines of a filled grid and in the cells of a table.

The ink of a name goes as high and as deep as its letters do: a capital's accent, a descender, and in other
scripts marks stacked over a letter or subscripts under it (``ink``). ``Room.of`` makes the lines of a filled
Kozyol or Hearts grid as tall as its names need, never less than the grid's own LINE, and lifts their text so
that the ink clears the rules between the lines (the grid's classes in static/sheet.css); ``in_line``
puts a name in a line without its font changing the line's height. ``name_cell`` gives a table cell that holds
a name more room above or below, and breaks for a script written without spaces.

A letter the sheet's own fonts draw whole (Latin, Greek, Cyrillic, the sheets' symbols) is measured on its
glyph. The other scripts stack their glyphs as they are shaped: SCRIPTS gives the highest and the deepest ink
of a syllable of each (a letter with its subscripts, vowel signs and marks) in its font, measured with HarfBuzz
over every such syllable. docs/layout.md tells how the lines are placed.
"""

from __future__ import annotations

import functools
import io
import math
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

from fontTools.ttLib import TTFont
from markupsafe import Markup

from ...config import ROOT

FONTS = ROOT / "static" / "fonts"
SHEET_FONTS = ("DejaVuSansMono.ttf", "DejaVuSans.ttf")  # Sheet Mono, then Sheet Sans for what it lacks
LINE = 1.164  # the grid's line height (em) for the sheet's own characters (static/sheet.css .grid.lines)
ASCENT, DESCENT = 0.928, 0.236  # Sheet Mono's: a line box centres them in its height
# The rule at a line's foot (0.4 pt) and a hair of paper above and below the ink, in em of the smallest grid type.
RULE, CLEAR = 0.06, 0.05
# static/sheet.css has a class for each line height and lift in these steps, up to these.
ROW_STEP, LIFT_STEP, ROWS, LIFTS = 0.1, 0.05, (1.2, 2.7), (-0.2, 0.1)
# (above, below) the baseline, in em, of each script's syllables in its font (static/sheet-fonts.css).
SCRIPTS: tuple[tuple[tuple[tuple[int, int], ...], tuple[float, float]], ...] = (
    (((0x1780, 0x17FF), (0x19E0, 0x19FF)), (1.55, 0.81)),  # Khmer: a shifter and a vowel over, two subscripts
    (((0x0E80, 0x0EFF),), (1.15, 0.62)),  # Lao: a vowel sign and a tone mark over, a subscript under
    (((0x0E00, 0x0E7F),), (1.12, 0.44)),  # Thai
    (((0x0900, 0x097F), (0x1CD0, 0x1CFF), (0xA8E0, 0xA8FF)), (0.90, 0.40)),  # Devanagari
    (((0x0600, 0x06FF), (0x0750, 0x077F), (0x0870, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)),
     (1.56, 0.86)),  # Arabic, with its vowel marks
    (((0x0590, 0x05FF), (0xFB1D, 0xFB4F)), (0.77, 0.23)),  # Hebrew, with its points
    (((0x1100, 0x11FF), (0x2E80, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF),
      (0xFE30, 0xFE4F), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF)), (0.87, 0.13)),  # Chinese, Japanese, Korean
    (((0x1F000, 0x1FAFF),), (0.89, 0.21)),  # emoji
)
MARKED = (1.10, 0.60)  # a letter with a combining mark over or under it, which Sheet Mono stacks
OTHER = (1.60, 0.90)  # a letter of another script, in whatever font the machine has for it
# How high and how deep a name's ink may go in a cell of a table (its line and padding) before the cell needs more
# room above or below it (name_cell): static/sheet.css gives such a cell more padding there.
CELL = (0.95, 0.30)
# Scripts written without spaces between words, whose words the PDF's line breaking cannot find (it has no dictionary
# of them): Lao, Khmer, Myanmar, Tibetan. A name in them may break between any two of its letters in a cell that
# otherwise breaks only between words (static/sheet.css .unspaced), or it runs out of its cell.
UNSPACED = ((0x0E80, 0x0EFF), (0x1780, 0x17FF), (0x19E0, 0x19FF), (0x1000, 0x109F), (0xA9E0, 0xA9FF), (0xAA60, 0xAA7F),
            (0x0F00, 0x0FFF))


class Room(NamedTuple):
    """A grid's line height and the lift of its text (em; negative lifts it up), in the steps of static/sheet.css."""

    row: float
    lift: float

    @classmethod
    def of(cls, names: Iterable[str]) -> Room:
        """The lines that hold these names (and the sheet's own digits and words) with their ink clear of the rules.

        >>> Room.of(["Ann", "Bob"]), Room.of(["Ģirts", "Bob"]), Room.of(["ស្ត្រី"])
        (Room(row=1.164, lift=-0.1), Room(row=1.2, lift=-0.15), Room(row=2.6, lift=0.0))
        """
        above, below = ink("".join(names) + "Agjpqy0123456789")
        needed = above + below + RULE + 2 * CLEAR
        row = LINE if needed <= LINE else min(round(math.ceil(needed / ROW_STEP - 1e-9) * ROW_STEP, 1), ROWS[1])
        baseline = CLEAR + (row - needed) / 2 + above  # from the line's top: the ink centred between the rules
        lift = min(max(baseline - (row + ASCENT - DESCENT) / 2, LIFTS[0]), LIFTS[1])
        return cls(row, round(round(lift / LIFT_STEP) * LIFT_STEP, 2) + 0.0)

    def classes(self) -> str:
        """The grid's classes for this room, each with its leading space (static/sheet.css .row-N, .lift-N).

        >>> Room(1.164, -0.1).classes(), Room(2.6, 0.05).classes(), Room(1.164, 0.0).classes()
        (' lift-n10', ' row-26 lift-p05', '')
        """
        row = f" row-{round(self.row * 10)}" if self.row > LINE else ""
        lift = f" lift-{'n' if self.lift < 0 else 'p'}{abs(round(self.lift * 100)):02}" if self.lift else ""
        return row + lift


@functools.cache
def _font(name: str) -> TTFont:
    """One of the sheet's own fonts, read once (from memory: its glyphs are read as they are asked for)."""
    return TTFont(io.BytesIO((FONTS / name).read_bytes()), lazy=True)


def drawn(char: str) -> tuple[float, float] | None:
    """(above, below) of the glyph one of the sheet's own fonts draws the character with, or None."""
    for name in SHEET_FONTS:
        font = _font(name)
        glyph_name = font.getBestCmap().get(ord(char))
        if glyph_name is not None:
            glyph, units = font["glyf"][glyph_name], font["head"].unitsPerEm
            return getattr(glyph, "yMax", 0) / units, -getattr(glyph, "yMin", 0) / units
    return None


def ink(text: str) -> tuple[float, float]:
    """How high above and how deep below the baseline the text's ink goes, in em.

    >>> ink("Ag"), ink("ស្រី"), ink("Zoe\\u0301")
    ((0.73, 0.21), (1.55, 0.81), (1.1, 0.6))
    """
    above = below = 0.0
    for char in set(text):
        if char.isspace() or unicodedata.category(char) == "Cf":
            continue
        reach = script(ord(char))
        if reach is None and unicodedata.combining(char):
            reach = MARKED
        reach = reach or drawn(char) or OTHER
        above, below = max(above, reach[0]), max(below, reach[1])
    return round(above, 2), round(below, 2)


def script(code: int) -> tuple[float, float] | None:
    """(above, below) of the script the code point is written in, when it stacks its glyphs (SCRIPTS)."""
    for ranges, reach in SCRIPTS:
        if any(low <= code <= high for low, high in ranges):
            return reach
    return None


def name_cell(name: str) -> str:
    """The classes of a table cell that holds the name, each with its leading space: " reach-up" when its ink goes
    higher than a cell leaves room for, " reach-down" when it goes deeper (CELL), " unspaced" when it is written in
    a script without spaces between words (UNSPACED).

    >>> name_cell("Ģirts Ozoliņš"), name_cell("ສີ່ສຸກ"), name_cell("राहुल")
    ('', ' reach-up reach-down unspaced', ' reach-down')
    """
    above, below = ink(name)
    unspaced = any(low <= ord(char) <= high for char in name for low, high in UNSPACED)
    return (" reach-up" if above > CELL[0] else "") + (" reach-down" if below > CELL[1] else "") + (
        " unspaced" if unspaced else "")


def in_line(name: str) -> Markup:
    """A name as a line prints it: in a span that takes no height of the line (static/sheet.css), so that the line
    keeps the grid's height whatever the font of the name's script.

    >>> in_line("<Ann>")
    Markup('<span class="name">&lt;Ann&gt;</span>')
    """
    return Markup('<span class="name">{}</span>').format(name)
