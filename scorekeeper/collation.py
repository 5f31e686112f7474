"""Names in the order a reader of each language files them: "Éloïse" under E, "Ёжик" under Е.

A sort key after the Unicode Collation Algorithm's three levels, for the app's languages, in the
standard library alone (docs/layout.md says why not ICU): first the letters without their accents
and case, then the accents, then the case, then the name as written. A letter that is a letter of its
own in the language (Russian "й") keeps its place; one that is not (French "é", Russian "ё") files with
its base letter. Russian files Cyrillic names before Latin ones, English and French the other way; Khmer and Lao
file their own script first. In Khmer, Lao and Thai the vowel signs are letters (a name's vowels decide after its
consonants, in code point order), the tone marks count as accents, and a vowel written before its consonant (Lao
"ແກ້ວ", Thai "เก่ง") files after it, as the Unicode Collation Algorithm's logical order exception has it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from itertools import groupby
from typing import TypeVar

T = TypeVar("T")

# Letters that Unicode does not decompose, filed as the letters a reader takes them for.
EXPANSIONS = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
              "ŀ": "l", "ħ": "h"}
# Letters with a mark that are letters of their own in the language, kept whole before the marks go.
OWN_LETTERS = {"ru": {"й"}}
# Scripts filed first, per language (their first letter decides); the rest follow in code point order.
FIRST_SCRIPT = {"ru": ("\u0400", "\u052f"), "lo": ("\u0e80", "\u0eff"), "km": ("\u1780", "\u17ff")}
# Scripts whose vowel signs and subscripts are letters of the name, not accents on it: Thai, Lao, Khmer.
SPELLED_WITH_SIGNS = (("\u0e00", "\u0e7f"), ("\u0e80", "\u0eff"), ("\u1780", "\u17ff"))
# Their tone marks and silencing marks, which (like an accent) tell apart names with the same letters.
TONE_MARKS = frozenset("\u0e47\u0e48\u0e49\u0e4a\u0e4b\u0e4c\u0ec8\u0ec9\u0eca\u0ecb\u0ecc")
# Thai and Lao vowels written before the consonant they are said after: a name files under that consonant.
PREPOSED = frozenset("\u0e40\u0e41\u0e42\u0e43\u0e44\u0ec0\u0ec1\u0ec2\u0ec3\u0ec4")


def spoken_order(name: str) -> str:
    """The name with each Thai or Lao vowel written before its consonant moved after it, the order it is filed in.

    >>> [hex(ord(char)) for char in spoken_order("ແກ້ວ")], spoken_order("ສົມໃຈ") == "ສົມຈໃ", spoken_order("Ann")
    (['0xe81', '0xec1', '0xec9', '0xea7'], True, 'Ann')
    >>> spoken_order("ไชยา") == "ชไยา"
    True
    """
    chars, at = list(name), 0
    while at < len(chars) - 1:
        if chars[at] in PREPOSED and unicodedata.category(chars[at + 1]) == "Lo" and \
                ord(chars[at]) >> 7 == ord(chars[at + 1]) >> 7:  # a consonant of the same script
            chars[at], chars[at + 1] = chars[at + 1], chars[at]
            at += 1  # the vowel stays after its consonant
        at += 1
    return "".join(chars)


def sign(char: str) -> bool:
    """A vowel sign or subscript of a script spelled with them: a letter of the name, not an accent on it.

    >>> sign("\u17b6"), sign("\u0eb8"), sign("\u0ec9"), sign("\u0301")
    (True, True, False, False)
    """
    return (unicodedata.category(char)[0] == "M" and char not in TONE_MARKS
            and any(low <= char <= high for low, high in SPELLED_WITH_SIGNS))


def base_letters(name: str, language: str = "en") -> str:
    """The name as its letters alone, no accents, no case; a space for each run of spaces and punctuation,
    so that a name's words file word by word ("Ann Lee" before "Anna").

    >>> base_letters("Éloïse"), base_letters("Ёжик", "ru"), base_letters("Йорик", "ru"), base_letters("Straße")
    ('eloise', 'ежик', 'йорик', 'strasse')
    >>> base_letters(" Anne-Marie  O'Neil")
    'anne marie o neil'
    >>> base_letters("សុខា", "km") == "សុខា", base_letters("ແກ້ວ", "lo") == "ກແວ"
    (True, True)
    """
    kept = OWN_LETTERS.get(language, set())
    letters = []
    for char in spoken_order(unicodedata.normalize("NFC", name).casefold()):
        if char in kept:
            letters.append(char)
            continue
        for part in unicodedata.normalize("NFKD", char):
            if unicodedata.category(part)[0] in "LN" or sign(part):
                letters.append(EXPANSIONS.get(part, part))
            elif not unicodedata.combining(part) and part not in TONE_MARKS and letters and letters[-1] != " ":
                letters.append(" ")
    return "".join(letters).rstrip()


def accents(name: str) -> str:
    """The marks of the name in order, tone marks too: a name without any files before the same letters with some."""
    return "".join(part for part in unicodedata.normalize("NFKD", spoken_order(name.casefold()))
                   if (unicodedata.combining(part) or part in TONE_MARKS) and not sign(part))


def name_key(name: str, language: str = "en") -> tuple[int, str, str, str, str]:
    """What a name sorts by in the language: script, letters, accents, case (lower first), the name itself.

    >>> sorted(["Maximilian", "Éloïse", "zoé", "Emile", "eloise", "Zoe"], key=name_key)
    ['eloise', 'Éloïse', 'Emile', 'Maximilian', 'Zoe', 'zoé']
    >>> sorted(["Bob", "Яна", "Ёжик", "Ann", "Ева"], key=lambda name: name_key(name, "ru"))
    ['Ева', 'Ёжик', 'Яна', 'Ann', 'Bob']
    >>> sorted(["Bob", "Яна", "Ann"], key=lambda name: name_key(name, "fr"))
    ['Ann', 'Bob', 'Яна']
    """
    letters = base_letters(name, language)
    low, high = FIRST_SCRIPT.get(language, ("", ""))
    later = int(not (letters and low <= letters[0] <= high)) if low else 0
    case = "".join("1" if char.isupper() else "0" for char in name if char.isalpha())
    return later, letters, accents(name), case, name


def by_name(items: Iterable[T], language: str = "en", name: Callable[[T], str] = str) -> list[T]:
    """The items in the order of their names in the language.

    >>> by_name(["Zoé", "Éloïse", "Maximilian"], "fr")
    ['Éloïse', 'Maximilian', 'Zoé']
    """
    return sorted(items, key=lambda item: name_key(name(item), language))


def ties_by_name(rows: Iterable[T], language: str, name: Callable[[T], str],
                 place: Callable[[T], object]) -> list[T]:
    """Rows of a table in their order, those next to each other that share a place (not None) by their names.

    >>> rows = [(1, "Zoé"), (2, "Zoe"), (2, "Éloïse"), (2, "Ann"), (None, "Bob"), (None, "Ada")]
    >>> ties_by_name(rows, "fr", name=lambda row: row[1], place=lambda row: row[0])
    [(1, 'Zoé'), (2, 'Ann'), (2, 'Éloïse'), (2, 'Zoe'), (None, 'Bob'), (None, 'Ada')]
    """
    out: list[T] = []
    for shared, group in groupby(rows, key=place):
        tied = list(group)
        out += tied if shared is None else by_name(tied, language, name)
    return out
