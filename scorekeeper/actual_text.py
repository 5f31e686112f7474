"""A PDF line in Khmer, Lao, Thai or an Indic script copies out as it was typed.

A PDF reader turns glyphs back into text through each font's one glyph-to-text table. WeasyPrint fills it
from the first cluster a glyph was drawn in, which is right for Latin, Greek, Cyrillic and CJK (one glyph, one
character) but not for scripts whose syllables are drawn in glyphs of another order and number: a Khmer
consonant first drawn at the end of "ស្ត្រី" then reads as that whole syllable wherever it appears, and a
vowel drawn before its consonant reads before it. ("ឧត្តម" copied out of a sheet read "ឧត្រស្ត្រម".)

PDF's own answer is marked content with an ActualText: the reader takes the line's text as written instead of
its glyphs. install() wraps WeasyPrint's drawing of each line whose text holds such a script in one, leaving
every other line's bytes as they were. It hooks weasyprint.draw.text.draw_first_line, the one function that
draws a line of text (in HTML and in SVG), and checks at install that it is still there to hook: a WeasyPrint
that draws otherwise fails the sheets' read-back tests rather than printing in silence.
"""

from __future__ import annotations

import re
from typing import Any

import pydyf
from weasyprint.draw import text as drawing

# Scripts whose syllables are drawn in glyphs of another order or number than their characters: Indic
# (Devanagari to Sinhala), Thai and Lao, Tibetan, Myanmar, Khmer and its symbols, Tai Tham, Balinese to Javanese.
REORDERED = re.compile("[\u0900-\u0dff\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff"
                       "\u1a20-\u1aaf\u1b00-\u1b7f\ua980-\ua9df]")
# Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms). A reader puts a line's
# right-to-left runs in reading order itself, and turns an ActualText's round again: a line that holds one keeps
# its glyphs' own text (a Khmer name beside a Hebrew one on a line copies out in glyph order).
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")

_drawn = drawing.draw_first_line


def draw_first_line(stream: Any, textbox: Any, *args: Any, **kwargs: Any) -> Any:
    """WeasyPrint's drawing of a line, inside an ActualText of its text when a script of REORDERED is in it (and no
    right-to-left one)."""
    text = textbox.text
    if not REORDERED.search(text) or RIGHT_TO_LEFT.search(text):
        return _drawn(stream, textbox, *args, **kwargs)
    stream.begin_marked_content("Span", pydyf.Dictionary({"ActualText": pydyf.String(text)}))
    try:
        return _drawn(stream, textbox, *args, **kwargs)
    finally:
        stream.end_marked_content()


def install() -> None:
    """Draw every line through draw_first_line above (once; later calls change nothing)."""
    if not callable(getattr(drawing, "draw_first_line", None)) or not hasattr(drawing, "draw_text"):
        raise RuntimeError("WeasyPrint no longer draws a line with weasyprint.draw.text.draw_first_line")
    drawing.draw_first_line = draw_first_line
