"""Names in the spellings that test one spelling, the letters a reader counts and the sentences that refuse them.

Each pair is one name typed two ways that a player cannot tell apart; the escapes say which is which.
"""

from __future__ import annotations

import unicodedata

from scorekeeper.games.base import NAME_MAX

# (spelt one way, spelt the other, what differs)
LOOK_ALIKE = [
    ("Zo\u00e9", "Zoe\u0301", "é composed and decomposed (NFC)"),
    ("\ufb01ona", "Fiona", "the ﬁ ligature and case (NFKC, case folding)"),
    ("\u0e84\u0eb3", "\u0e84\u0ecd\u0eb2", "Lao AM and NIGGAHITA + AA (NFKC)"),
    ("\u17a7\u178f\u17d2\u178f\u1798", "\u17a7\u178f\u17d2\u178a\u1798", "Khmer subscript TA and subscript DA"),
    ("\u179f\u17d2\u179a\u17b8\u1796\u17c5", "\u179f\u17b8\u17d2\u179a\u1796\u17c5",
     "Khmer subscript RO before and after its vowel"),
    ("\u179f\u17d2\u178f\u17d2\u179a\u17b8", "\u179f\u17d2\u179a\u17d2\u178f\u17b8",
     "Khmer subscript RO after and before another subscript"),
    ("Ann Lee", "ANN\u00a0\u00a0lee", "case, a no-break space, two spaces"),
    ("Ann\u200dLee", "AnnLee", "a joiner that shows nothing"),
]
SREYPOV = "\u179f\u17d2\u179a\u17b8\u1796\u17c5"  # ស្រីពៅ: two letters, six code points
KHMER_LETTER = "\u179f\u17d2\u178f\u17d2\u179a\u17b8"  # ស្ត្រី: one letter, six code points
DECOMPOSED = "Zoe\u0301"

TOO_LONG = f"A name can have at most {NAME_MAX} letters or signs; a letter with its marks counts as one."
LED_BY_A_MARK = "A name cannot start with an accent or a vowel sign: it goes on a letter."
SAME_NAME = "Two players have the same name; names must differ."


def khmer_name(letters: int) -> str:
    """A name of that many Khmer letters, three code points a letter: ស្រីពៅ over and over (ស្រី at the end when odd)."""
    return SREYPOV * (letters // 2) + SREYPOV[:4] * (letters % 2)


def nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)
