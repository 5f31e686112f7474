"""Names in any script a phone can type print on the PDF sheets, as the same text, never as boxes.

The sheets' own words come from Sheet Sans; a name in another script from the family of static/sheet-fonts.css made
for it, a font of the app's own, here on a machine that has fonts for these scripts too (tests/test_sheet_fonts.py
prints them where it has none). Emoji are the exception: where the machine has a colour emoji font, fontconfig gives
it to them, and it prints at the size of the text as the app's does. Each sheet is read back with poppler: pdffonts
says which fonts are embedded, pdftotext gives the names back as typed and where.
"""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from helpers.api import create_match, post
from helpers.matches import barbu_entry, hearts_entry
from helpers.pdf import poppler, save, words

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

# A name per script, with the language fontconfig knows it by. Devanagari: a name without
# conjuncts or reordered vowel signs, since WeasyPrint writes one text per glyph for a whole PDF
# and a conjunct copies out of it in pieces (it prints whole; see test_devanagari_conjuncts_print).
NAMES = {
    "zh-cn": "王小明",
    "ja": "山田さくら",
    "ko": "김민준",
    "ar": "محمد علي",
    "ur": "عائشہ بیگم",  # Urdu's ہ and ے: letters an Arabic-only font may lack
    "he": "דוד כהן",
    "hi": "राहुल",
    "th": "สมชาย ใจดี",
    "el": "Γιώργος",
    "ru": "Ёжик Козлов",
    "und-zsye": "Ann 😀🃏",  # fontconfig's language for emoji
}
# The family that prints each (pdffonts: Sheet-Arabic...); emoji's, or the machine's colour emoji font.
FAMILIES = {"zh-cn": "Sheet-CJK", "ja": "Sheet-CJK", "ko": "Sheet-CJK", "ar": "Sheet-Arabic", "ur": "Sheet-Arabic",
            "he": "Sheet-Hebrew", "hi": "Sheet-Devanagari", "th": "Sheet-Thai", "el": "Sheet-Sans", "ru": "Sheet-Sans",
            "und-zsye": ("Sheet-Emoji", "Noto-Color-Emoji")}
BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
FONTS = Path(__file__).resolve().parent.parent / "static" / "fonts"


def embedded_fonts(path: Path) -> list[tuple[str, bool]]:
    """(font name without the subset prefix, embedded?) for each font pdffonts lists."""
    rows = poppler("pdffonts", str(path)).splitlines()[2:]
    return [(row.split()[0].split("+", 1)[-1], row.split()[-5] == "yes") for row in rows]


def printed_text(path: Path) -> str:
    """The PDF's text without white space or the marks pdftotext puts around right-to-left runs."""
    return re.sub(r"\s+", "", BIDI_CONTROLS.sub("", poppler("pdftotext", str(path), "-")))


def boxes(caplog: pytest.LogCaptureFixture) -> str:
    """The characters WeasyPrint said it drew as .notdef (an empty box) because no font had them."""
    said = (record.getMessage() for record in caplog.records)
    return "".join(sorted({message.split('"')[1] for message in said if ".notdef" in message}))


def render(client, sheet: str, names: list[str]) -> bytes:
    """A blank sheet with the names, or a match's sheet after a first hand."""
    if sheet.startswith("blank"):
        answer = client.get(f"/sheets/{sheet.split()[1]}.pdf", query_string=[("players", n) for n in names])
    else:
        game = sheet.split()[1]
        match = create_match(client, game, names, {"first_declarer": names[0]} if game == "barbu" else {})
        post(client, match, barbu_entry(1, names) if game == "barbu"
             else hearts_entry(1, names) if game == "hearts" else {"points": [75, 45], "trump_suit": "hearts"})
        answer = client.get(f"/api/v1/matches/{match['id']}/sheet.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf", answer.text[:300]
    return answer.data


@pytest.mark.parametrize(("sheet", "languages"), [
    ("blank hearts", list(NAMES)),
    ("filled hearts", list(NAMES)),
    ("blank barbu", ["zh-cn", "ur", "th", "und-zsye"]),
    ("filled barbu", ["ko", "he", "hi", "el"]),
    ("blank kozyol", ["ja", "ar", "ru", "und-zsye"]),
    ("filled kozyol", ["zh-cn", "th", "he", "ko"]),
])
def test_names_in_every_script_print_with_an_embedded_font_that_has_them(client, tmp_path, caplog, sheet, languages):
    names = [NAMES[language] for language in languages]
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        path = save(tmp_path, render(client, sheet, names))
    assert not boxes(caplog), f"printed as boxes: {boxes(caplog)}"
    fonts = embedded_fonts(path)
    assert fonts and all(embedded for _, embedded in fonts), fonts
    for language in languages:
        assert any(font.startswith(FAMILIES[language]) for font, _ in fonts), (
            f"no font for {language} ({NAMES[language]}) among {[font for font, _ in fonts]}")
    text = printed_text(path)
    for name in names:
        assert re.sub(r"\s+", "", name) in text, name
    if "und-zsye" in languages:  # an emoji as wide as a letter or two of its line, whichever font prints it
        _width, found = words(path)
        emoji = next(at for at, word in enumerate(found) if word.text == "😀🃏" and found[at - 1].text == "Ann")
        size = found[emoji - 1].y1 - found[emoji - 1].y0
        assert 1.5 * size <= found[emoji].x1 - found[emoji].x0 <= 3.2 * size, (found[emoji - 1], found[emoji])


def test_devanagari_conjuncts_print(client, tmp_path, caplog):
    """Conjuncts and vowel signs written before their consonant print whole, in a Devanagari font."""
    names = ["राहुल शर्मा", "अमित कुमार", "प्रिया", "क्षितिज"]
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        path = save(tmp_path, render(client, "blank barbu", names))
    assert not boxes(caplog), f"printed as boxes: {boxes(caplog)}"
    assert any(font.startswith("Sheet-Devanagari") for font, _ in embedded_fonts(path))


def test_the_bundled_font_leaves_arabic_and_hebrew_to_a_font_made_for_them():
    """One font shapes a whole name: the bundled DejaVu had part of Arabic, and an Urdu name took
    its ہ from another font, which broke the joins between the letters."""
    for path in FONTS.glob("DejaVu*.ttf"):
        covered = TTFont(path).getBestCmap()
        assert "Ё" in map(chr, covered) and "♠" in map(chr, covered), path.name
        foreign = [hex(code) for code in covered
                   if (0x0590 <= code <= 0x08FF or 0xFB1D <= code <= 0xFEFF) and not 0xFE00 <= code <= 0xFE2F]
        assert not foreign, f"{path.name} still has {foreign[:5]}"
