"""Text for an iCalendar feed, escaped as RFC 5545 (section 3.3.11) says and nothing more.

icalendar's own text type first reads a backslash followed by a capital N as a line break, so a place
typed "Salle \\Nord" came out as "Salle", a new line, "ord". Here a backslash is always a backslash.
"""

from __future__ import annotations

from icalendar.prop import vText

ESCAPES = {"\\": "\\\\", ";": "\\;", ",": "\\,", "\n": "\\n"}


def escaped(text: str) -> str:
    r"""The text as an iCalendar TEXT value: backslash, semicolon, comma and line break escaped.

    >>> print(escaped("Salle \\Nord, C:\\Notes; 2nd floor\nBring cards"))
    Salle \\Nord\, C:\\Notes\; 2nd floor\nBring cards
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n")  # a stored text holds none; a feed line never may
    return "".join(ESCAPES.get(char, char) for char in lines)


class Text(vText):
    """A TEXT property value that a calendar reads back exactly as it was given."""

    def to_ical(self) -> bytes:
        return escaped(str(self)).encode(getattr(self, "encoding", "utf-8"))
