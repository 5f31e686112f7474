"""A page read the way a player reads it, and the catalogs it must come from."""

from __future__ import annotations

import html
import re
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from scorekeeper.config import ROOT

BRACES = re.compile(r"\{(\w*)\}")
PERCENT = re.compile(r"%\((\w+)\)[sd]")


def seen(page: str) -> str:
    """What a player reads or hears: the text, and the labels, titles and alt texts of the page.

    Stored entries shown as JSON (the edit history) are data with English keys, not text.
    """
    labels = re.findall(r'\s(?:aria-label|title|alt)="([^"]*)"', page)
    body = re.sub(r"<(script|style|pre)\b.*?</\1>", " ", page, flags=re.S)  # <pre>: an entry's JSON, data
    return squeeze(html.unescape(re.sub(r"<[^>]+>", " ", body) + " " + " ".join(labels)))


def squeeze(value: str) -> str:
    return re.sub(r"\s+", " ", value.replace("\u00a0", " ")).strip()


def catalog(lang: str) -> Catalog:
    with (ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=lang)


def translated(lang: str, msgid: str) -> str:
    return squeeze(catalog(lang)[msgid].string)


def forms(message: Any) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]


def english_sentences(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """English texts of the catalog that a page in lang must not show: those translated differently."""
    found = []
    for message in catalog(lang):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if not message.id or any(english in forms(message) for english in ids):
            continue
        for english in ids:
            pieces = [p.strip(" .,:;") for p in squeeze(PERCENT.sub("\0", BRACES.sub("\0", english))).split("\0")]
            for piece in pieces:
                # A single word between placeholders may be a French word too ("points"); a whole label may not.
                if len(piece) >= 4 and re.search(r"[a-z]{3}", piece) and (len(pieces) == 1 or " " in piece):
                    found.append((piece, re.compile(rf"(?<![\w’']){re.escape(piece)}(?![\w’'])")))
    return found


def assert_translated(text: str, lang: str, words: list[str], where: str) -> None:
    """The page shows the given words and no English sentence of the catalog."""
    for word in words:
        assert squeeze(word).casefold() in text.casefold(), f"{where} in {lang}: no {word!r} in {text[:3000]!r}"
    leaks = [piece for piece, pattern in english_sentences(lang) if pattern.search(text)]
    assert not leaks, f"{where} in {lang} shows English: {leaks}"


COMING = ("km", "lo")  # Khmer and Lao: named in scorekeeper/i18n.py ahead of their catalogs


def with_languages(monkeypatch: Any, codes: tuple[str, ...] = COMING) -> tuple[str, ...]:
    """The app offering more languages for one test, as adding them to LANGUAGES in scorekeeper/i18n.py does (the
    switcher, Accept-Language, the offline pages, collation, dates): without a catalog, their pages are in English.
    Returns LANGUAGES as it then is."""
    from scorekeeper import i18n

    languages = (*i18n.LANGUAGES, *(code for code in codes if code not in i18n.LANGUAGES))
    monkeypatch.setattr(i18n, "LANGUAGES", languages)
    for code in codes:
        monkeypatch.setitem(i18n.LANGUAGE_NAMES, code, i18n.NAMES[code])
    return languages
