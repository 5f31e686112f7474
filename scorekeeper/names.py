"""A player's name: given once, kept in one spelling, counted and cut in the letters a reader sees.

A letter here is what Unicode calls an extended grapheme cluster: a base and everything drawn with it, so
"é" typed as e + accent, a Khmer syllable with its subscripts and vowels ("ស្រី") and an emoji sequence are
one letter each. The standard library cannot find them (unicodedata has no grapheme data); the `regex`
package's ``\\X`` follows Unicode's own rules, kept up with each Unicode version. The engines stay on the
standard library: they compare names (games.base.same_name) and never count or cut them.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import regex

from .games.base import N_, NAME_MAX, player_list, same_name, typeable
from .refusals import refuse

# A name's characters as stored (code points), marks and joiners included: a bound against a name of a few
# letters piled with thousands of marks, far above any real name of NAME_MAX letters (a Khmer syllable holds
# five or six). The look-alike key (club_players.folded) has four times the room: NFKC spells some signs out.
NAME_CODE_POINTS = 200
KEY_MAX = 4 * NAME_CODE_POINTS
LETTER = regex.compile(r"\X")
# Khmer, Lao, Thai and Myanmar mark a word break with it: nothing a name needs, dropped wherever it is.
ZERO_WIDTH_SPACE = "\u200b"
ELLIPSIS = "…"


def letters(text: str) -> list[str]:
    """The letters of the text as a reader sees them (extended grapheme clusters).

    >>> letters("Zoe\\u0301"), len(letters("ស្រីពៅ")), len(letters("👩‍👩‍👧 Ann"))
    (['Z', 'o', 'e\\u0301'], 2, 5)
    """
    return LETTER.findall(text)


def clip(text: str, limit: int) -> str:
    """The text cut to at most limit letters, its last an ellipsis when it is cut; never cut inside a letter.

    >>> clip("Dee " + "Q" * 36, 19), clip("ស្រីពៅ", 2), clip("ស្រីពៅ ស្រីពៅ", 2)
    ('Dee QQQQQQQQQQQQQQ…', 'ស្រីពៅ', 'ស្រី…')
    """
    found = letters(text)
    return text if len(found) <= limit else "".join(found[:limit - 1]).rstrip() + ELLIPSIS


def initials(name: str, count: int) -> str:
    """The first count letters of a name (a syllable of Khmer is one, with its subscripts and vowels).

    >>> initials("Ann", 2), initials("ស្រីពៅ", 1), initials("e\\u0301mile", 1)
    ('An', 'ស្រី', 'e\\u0301')
    """
    return "".join(letters(name)[:count])


def trimmed(text: str) -> str:
    """The text without the spaces and joiners at its ends (a joiner joins only between two characters)."""
    while (shorter := text.strip().strip("\u200c\u200d")) != text:
        text = shorter
    return text


def cleaned(raw: str) -> str:
    """A name as typed, made the spelling it is kept in: zero-width spaces dropped, trimmed, in NFC.

    >>> cleaned(" \\u200dស្រី\\u200bពៅ\\u200c "), cleaned("Zoe\\u0301") == "Zo\\u00e9"
    ('ស្រីពៅ', True)
    """
    return unicodedata.normalize("NFC", trimmed(raw.replace(ZERO_WIDTH_SPACE, "")))


def check(name: str) -> None:
    """Refuse a name (cleaned) no one could read or type back: empty, too long, invisible, or led by a mark."""
    if not name:
        raise refuse("players", N_("Every player needs a name."))
    if len(letters(name)) > NAME_MAX:
        raise refuse("players", N_("A name can have at most {limit} letters or signs; a letter with its marks "
                                   "counts as one."), limit=NAME_MAX)
    if len(name) > NAME_CODE_POINTS or len(same_name(name)) > KEY_MAX:
        raise refuse("players", N_("This name piles too many marks or joiners on its letters; write it more simply."))
    if not all(typeable(char) for char in name):
        raise refuse("players", N_("Names cannot contain control characters."))
    if unicodedata.category(name[0]).startswith("M"):
        raise refuse("players", N_("A name cannot start with an accent or a vowel sign: it goes on a letter."))
    if not same_name(name):
        raise refuse("players", N_("Every player needs a name."))  # only characters that show nothing


def parse_players(raw: Any, min_players: int, max_players: int) -> list[str]:
    """Players' names as given for a match or a roster: cleaned, checked, no two that look alike (same_name)."""
    names = [cleaned(name) for name in player_list(raw, min_players, max_players)]
    for name in names:
        check(name)
    if len({same_name(name) for name in names}) != len(names):
        raise refuse("players", N_("Two players have the same name; names must differ."))
    return names
