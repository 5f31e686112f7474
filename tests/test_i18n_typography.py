"""French typography over the whole French catalog: a no-break space before ":", ";", "!" and "?".

French sets a space before those marks, and that space must not break: a line never starts with a colon or
a question mark. Either U+00A0 or the narrow U+202F will do; a normal space, or none after a word, will not.
"""

from __future__ import annotations

import re

from helpers.i18n import catalog

MARKS = ":;!?"
# A mark that ends a phrase: followed by white space, a closing quote or bracket, or the end of the text.
ENDS_PHRASE = r"(?=[\s\u00a0\u202f»”\"’)]|$)"
SPACE_BEFORE = re.compile(rf" [{MARKS}]")
NONE_BEFORE = re.compile(rf"[^\s\u00a0\u202f{MARKS}.…][{MARKS}]{ENDS_PHRASE}")
ENTITY = re.compile(r"&#?\w+;")  # an HTML entity's own semicolon


def texts() -> list[tuple[str, str]]:
    """Every French msgstr of the catalog (each plural form), with its msgid."""
    found = []
    for message in catalog("fr"):
        if not message.id:
            continue  # the catalog's header
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        found += [(msgid, text) for text in strings if text]
    return found


def misplaced(text: str) -> list[str]:
    """Each mark of the text set after a normal space or straight after a word."""
    plain = ENTITY.sub("", text)
    return [plain[max(0, m.start() - 12):m.end() + 1] for m in (*SPACE_BEFORE.finditer(plain),
                                                                  *NONE_BEFORE.finditer(plain))]


def test_the_check_sees_what_french_typography_asks():
    assert misplaced("Équipe 1 : Ann") and misplaced("Équipe 1: Ann") and misplaced("Prêt ?")
    assert misplaced("%(name)s: %(value)s") and misplaced("Encore ?!")
    for right in ("Équipe 1\u00a0: Ann", "Prêt\u202f?", "19:30", "https://exemple.org/?a=1", "&amp; Cie",
                  "{value:,}", "Fin…", "?"):
        assert misplaced(right) == [], right


def test_every_french_text_sets_a_no_break_space_before_its_marks():
    found = {msgid: misplaced(text) for msgid, text in texts() if misplaced(text)}
    assert found == {}, f"{len(found)} French texts need a no-break space (run the catalog's typography script)"
