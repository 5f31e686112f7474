"""A filled sheet's grid rows as lines of fixed-width fields, printed in the sheet's monospace font.

WeasyPrint spends a sheet's render on boxes: each table cell, each line inside one and each
inline element is laid out and drawn on its own. A row of a grid written as one line of text
(fields padded to their width) prints every number where paper has it for a fraction of that
cost: bench/pdf_sheet.py measures it. The rules between columns and rows are backgrounds under
the lines, not characters (``pdftotext -layout`` reads a line with rule characters as several).
The header above the lines stays a table whose columns are as wide as the fields
(static/sheet.css), so that names in any script keep their own fonts and wrap inside their
column; names never go into a line.

Widths count display columns, as a terminal does: a wide character (Chinese, Japanese, Korean)
takes two, a letter with its marks (a Khmer syllable with its subscripts) one. A name above its
column is never cut inside a word: it wraps between its words (or after a hyphen), and a word wider
than the column prints in smaller type (``head_type``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import NotRequired, TypedDict

from markupsafe import Markup, escape

from ...names import letters

GAP = " "  # between two fields; the stylesheet draws the column's rule under it
# A name inside a longer text is set apart as its own direction (first strong isolate ... pop):
# an Arabic or Hebrew name keeps its place among the numbers around it.
ISOLATE, POP = "\u2068", "\u2069"
NBSP, EM_SPACE = "\u00a0", "\u2003"
SUIT_CLASSES = {"♠": "suit-spades", "♥": "suit-hearts", "♦": "suit-diamonds", "♣": "suit-clubs"}
# The sizes of the grid (static/sheet.css .grid.lines): its monospace type, a character's advance in it, and a
# header cell's padding on both sides (points). A name above a column is bold sans in HEAD_TYPE points, a letter of
# it at most LETTER em wide, near enough (DejaVu Sans Bold: Cyrillic .73, Latin capitals .76); a name whose longest
# word would not fit takes the largest of HEAD_SIZES that it fits (.grid.lines th.type-N, N in tenths of a point).
GRID_TYPE, MONO, PADDING = 8.5, 0.602, 4.6
HEAD_TYPE, LETTER = 7.5, 0.75
HEAD_SIZES = (7.0, 6.5, 6.0, 5.5, 5.0, 4.5, 4.0, 3.5, 3.0, 2.5)


def width(text: str) -> int:
    """Display columns the text takes in a monospace font: one per letter with its marks (names.letters), two for
    a wide one, none for a mark or a format character on its own.

    >>> width("Ann"), width("王小明"), width("é"), width("e\u0301"), width("ស្រីពៅ"), width("👩\u200d👩\u200d👧")
    (3, 6, 1, 1, 2, 2)
    """
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(letter[0]) in "WF"
               else 0 if unicodedata.category(letter[0]) in ("Mn", "Me", "Cf") else 1 for letter in letters(text))


def longest_word(name: str) -> int:
    """Display columns of the name's longest word: a line breaks between words and after a hyphen.

    >>> longest_word("Fyodor Dostoyevsky-Karamazov"), longest_word("王小明 Li"), longest_word("")
    (12, 6, 0)
    """
    return max((width(word) for word in re.split(r"\s+|(?<=-)", name)), default=0)


def head_type(name: str, room: float) -> str:
    """The class that prints a name above a column with room points inside it in smaller type, so that its longest
    word fits whole; "" when it fits as it is. (The smallest type for a word wider still.)

    >>> head_type("Maximiliana Ekaterina", 73.7), head_type("Константинопольская", 73.7), head_type("Q" * 40, 50)
    ('', ' type-50', ' type-25')
    """
    longest = longest_word(name) * LETTER
    if longest * HEAD_TYPE <= room:
        return ""
    size = next((size for size in HEAD_SIZES if longest * size <= room), HEAD_SIZES[-1])
    return f" type-{round(size * 10)}"


def narrowest(names: Iterable[str], widths: Sequence[int]) -> int:
    """The first of widths that holds every name whole (the last for a name wider still).

    >>> narrowest(["Ann", "Bob"], (12, 20, 40)), narrowest(["Fyodor Dostoyevsky-Karamazov"], (12, 20, 33, 40))
    (12, 33)
    """
    longest = max((width(name) for name in names), default=0)
    return next((size for size in widths if size >= longest), widths[-1])


def fit(text: str, size: int, align: str = "<") -> str:
    """The text padded with spaces to size columns: "<" left, ">" right, "^" centred. Never cut.

    >>> fit("-6", 4, ">"), fit("王", 4), fit("ab", 5, "^"), fit("toolong", 3)
    ('  -6', '王  ', ' ab  ', 'toolong')
    """
    room = max(size - width(text), 0)
    left = {"<": 0, ">": room, "^": room // 2}[align]
    return " " * left + text + " " * (room - left)


def number(value: int | None, size: int) -> str:
    """A whole number right-aligned in size columns; nothing for None.

    >>> number(-12, 4), number(None, 3)
    (' -12', '   ')
    """
    return fit("" if value is None else str(value), size, ">")


def isolated(name: str) -> str:
    return f"{ISOLATE}{name}{POP}"


def places(ranking: list[tuple[int, str, int]], winners: list[str]) -> tuple[str, str]:
    """A ranking as two runs of text, the winners' (printed bold) and the others': one text box each.

    Place, name and total stay together; the places are an em space apart.

    >>> lead, rest = places([(1, "Ann", 9), (1, "Bob", 9), (3, "Cid", 2)], ["Ann", "Bob"])
    >>> lead.replace(ISOLATE, "").replace(POP, "").replace(NBSP, "_"), rest.replace(EM_SPACE, "|")
    ('1._Ann_9\u20031._Bob_9', '|3.\xa0\u2068Cid\u2069\xa02')
    """
    texts = [(name in winners, f"{place}.{NBSP}{isolated(name)}{NBSP}{total}") for place, name, total in ranking]
    lead = EM_SPACE.join(text for won, text in texts if won)
    rest = EM_SPACE.join(text for won, text in texts if not won)
    return lead, (EM_SPACE if lead and rest else "") + rest


def marked(text: str, size: int, css: str, align: str = ">") -> Markup:
    """The text padded to size columns like fit, itself (not its padding) in a span of the given class.

    >>> marked("152", 5, "over")
    Markup('  <span class="over">152</span>')
    """
    padded = fit(text, size, align)
    start = padded.index(text) if text else len(padded)
    return Markup("{}<span class=\"{}\">{}</span>{}").format(
        padded[:start], css, text, padded[start + len(text):])


def line(fields: Iterable[str]) -> Markup:
    """Fields joined by a space, escaped for the page (a field made by marked stays as it is);
    a suit symbol keeps its colour.

    Spaces at the end go: they would only be drawn, and cost as much as any other character.

    >>> line(["  1 Trumps ♥", " <b>  "])
    Markup('  1 Trumps <span class="suit-hearts">♥</span>  &lt;b&gt;')
    """
    text = str(Markup(GAP).join(escape(field) for field in fields).rstrip())
    for symbol, css in SUIT_CLASSES.items():
        text = text.replace(symbol, f'<span class="{css}">{symbol}</span>')
    return Markup(text)  # noqa: S704 - escaped above; only the suit spans are added


class Block(TypedDict):
    """A block of rows, one table row of the sheet: the rows' leads (number, dealer) and the rest, as lines."""

    lead: Markup
    lines: Markup
    write: NotRequired[bool]  # empty rows to write in, taller


def in_blocks(rows: Sequence[tuple[str, str]], size: int) -> list[Block]:
    """Rows of (lead, rest) in blocks of size, each block's leads and rests joined into lines.

    A block is one table row: a long sheet goes on to the next page between two blocks.

    >>> [block["lead"] for block in in_blocks([("1", "a"), ("2", "b"), ("3", "<c>")], 2)]
    [Markup('1\\n2'), Markup('3')]
    """
    return [{"lead": Markup("\n").join(lead for lead, _rest in rows[start:start + size]),
             "lines": Markup("\n").join(rest for _lead, rest in rows[start:start + size])}
            for start in range(0, len(rows), size)]
