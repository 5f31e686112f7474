"""An iCalendar feed read by the letter of RFC 5545: lines unfolded, then each TEXT value unescaped.

Written apart from the icalendar package the app writes with, so a test reads what a calendar reads."""

from __future__ import annotations

import re

UNESCAPE = {"\\": "\\", ";": ";", ",": ",", "n": "\n", "N": "\n"}
NAME = re.compile(r"([A-Za-z0-9-]+)((?:;[^:;]+)*):(.*)")  # a content line: name, parameters, value


def unfolded(feed: bytes) -> list[str]:
    """The content lines of a feed: every line break followed by a space or a tab taken out (section 3.1)."""
    text = feed.decode("utf-8")
    assert "\n" not in text.replace("\r\n", ""), "a line ends without CRLF"
    return [line for line in re.sub(r"\r\n[ \t]", "", text).split("\r\n") if line]


def unescaped(value: str) -> str:
    """A TEXT value as written (section 3.3.11): a backslash escapes one of \\ ; , n N, and nothing else."""
    out, at = [], 0
    while at < len(value):
        char = value[at]
        if char == "\\":
            follows = value[at + 1:at + 2]
            assert follows in UNESCAPE, f"a lone backslash in {value!r}"
            out.append(UNESCAPE[follows])
            at += 2
            continue
        out.append(char)
        at += 1
    return "".join(out)


def events(feed: bytes) -> tuple[dict[str, str], list[dict[str, str]]]:
    """The calendar's own properties and each event's, name -> raw value (as written, still escaped)."""
    calendar: dict[str, str] = {}
    found: list[dict[str, str]] = []
    stack: list[str] = []
    for line in unfolded(feed):
        name, _params, value = NAME.fullmatch(line).groups()  # type: ignore[union-attr]
        if name in ("BEGIN", "END"):
            stack = [*stack, value] if name == "BEGIN" else stack[:-1]
            if name == "BEGIN" and value == "VEVENT":
                found.append({})
            continue
        if stack == ["VCALENDAR"]:
            calendar[name] = value
        elif stack[-1:] == ["VEVENT"]:
            found[-1][name] = value
    return calendar, found
