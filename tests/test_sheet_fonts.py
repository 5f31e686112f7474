"""Every PDF prints a name in any script with a font of the app's own, on a machine without a font of its own; the
names keep off the rules and inside their cells; and a sheet kept is printed again once the machine's fonts change.

The documents come from helpers/scripts.py, printed in a process whose fontconfig sees no folder of fonts (the
app's run command installs none), and are read back with poppler: pdffonts for the fonts embedded, pdftotext for
the text and its boxes, pdftoppm for the pictures compared by helpers/pictures.py.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from helpers.pdf import Word, poppler, squeezed, words
from helpers.pictures import DPI, crossings
from helpers.scripts import LAO_LONG, NAMES, on_a_bare_machine
from scorekeeper import pdf, system_fonts
from scorekeeper.web.sheets import room
from scorekeeper.web.sheets.cache import SheetCache

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")

STATIC = Path(__file__).resolve().parent.parent / "static"
BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
MM = 72 / 25.4  # points


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    """The folder of PDFs printed on a machine without fonts, and the names each holds."""
    folder = tmp_path_factory.mktemp("bare-machine")
    return folder, on_a_bare_machine(folder)


def embedded(path: Path) -> list[tuple[str, bool]]:
    """(font name without its subset prefix, embedded?) for each font pdffonts lists."""
    rows = poppler("pdffonts", str(path)).splitlines()[2:]
    return [(row.split()[0].split("+", 1)[-1], row.split()[-5] == "yes") for row in rows]


def read_back(path: Path) -> str:
    """The PDF's text without white space or the marks pdftotext puts around right-to-left runs."""
    return squeezed(BIDI_CONTROLS.sub("", poppler("pdftotext", str(path), "-")))


def family(name: str) -> str:
    return next((script for script, (written, _fonts) in NAMES.items() if written == name), "")


def test_every_script_prints_in_a_font_of_the_app_on_a_machine_without_fonts(bare):
    folder, printed = bare
    documents = {name: names for name, names in printed.items() if not name.startswith("picture-")}
    assert len(documents) == 24, sorted(documents)  # 8 of Kozyol and of Barbu, 5 of Hearts, 3 of a club
    for document, names in documents.items():
        path = folder / document
        fonts = embedded(path)
        assert fonts and all(whole for _font, whole in fonts), (document, fonts)
        assert all(font.startswith("Sheet-") for font, _whole in fonts), (document, fonts)
        text = read_back(path)
        for name in names:
            if family(name):
                wanted = NAMES[family(name)][1]
                assert any(font.startswith(wanted) for font, _whole in fonts), (document, name, wanted, fonts)
            assert squeezed(name) in text, (document, name)


def test_an_emoji_prints_at_the_size_of_its_line(bare):
    """Each emoji as wide as a letter or two of the line it is in, never the 100 points of a colour emoji font."""
    folder, _printed = bare
    for document in ("hearts-2.pdf", "hearts-2-blank.pdf", "cards.pdf", "results.pdf"):
        _width, found = words(folder / document)
        for at, word in enumerate(found):
            if word.text.rstrip(",") == "😀🃏" and found[at - 1].text == "Ann":
                size = found[at - 1].y1 - found[at - 1].y0  # a line of "Ann" is about 1.16 of its type
                assert 1.5 * size <= word.x1 - word.x0 <= 3.2 * size, (document, word, found[at - 1])
                break
        else:
            pytest.fail(f"no emoji after Ann in {document}")


@pytest.mark.parametrize("game", ["kozyol", "hearts", "barbu"])
@pytest.mark.parametrize("script", ["khmer", "lao"])
@pytest.mark.parametrize("kind", ["filled", "blank"])
def test_no_ink_of_a_name_falls_on_a_rule(bare, game, script, kind):
    """Khmer subscripts and Lao marks (and Latin descenders and accents) keep off the rules between rows and cells."""
    folder, _printed = bare
    stem = f"picture-{game}-{script}-{kind}"
    found = crossings(folder / f"{stem}-text.pdf", folder / f"{stem}-rules.pdf")
    assert not found, f"{stem}: text on a rule (page, pixels, box at {DPI} dpi): {found}"


def columns(found: list[Word], first: str, last: str) -> list[tuple[float, float]]:
    """The left and right of each column of a row of headings that start with first and end with last."""
    starts = sorted((word for word in found if word.text == first), key=lambda word: word.x0)
    ends = sorted((word for word in found if word.text == last), key=lambda word: word.x0)
    return [(start.x0, end.x1) for start, end in zip(starts, ends, strict=True)]


def test_a_lao_name_breaks_inside_its_cell(bare):
    """Lao has no spaces between words for the PDF to break at: a long name breaks between its letters, inside a
    blank Hearts sheet's column of 29 mm, and inside the Player column of an evening's places, and reads back whole."""
    folder, _printed = bare
    lao = set(LAO_LONG)
    width, found = words(folder / "hearts-8-blank.pdf")
    pieces = [word for word in found if set(word.text) <= lao]
    labels = columns(found, "hand", "Σ")  # each player's "hand · Σ", centred in a column as wide as the next's
    step = labels[1][0] - labels[0][0]
    middle = (labels[0][0] + labels[0][1]) / 2
    assert 25 * MM < step < 30 * MM, step / MM
    assert len(pieces) > 1 and all(middle - step / 2 <= piece.x0 and piece.x1 <= middle + step / 2 for piece in pieces)
    assert "".join(piece.text for piece in sorted(pieces, key=lambda piece: piece.y0)) == LAO_LONG
    for document in ("results.pdf", "standings.pdf"):
        width, found = words(folder / document)
        pieces = [word for word in found if set(word.text) <= lao and len(word.text) > 3]
        assert pieces and all(0 < piece.x0 and piece.x1 < width for piece in pieces), document
    _width, found = words(folder / "results.pdf")
    players = sorted((word for word in found if word.text == "Player"), key=lambda word: (word.y0, word.x0))[0]
    matches = min((word for word in found if word.text == "Matches" and word.y0 == players.y0),
                  key=lambda word: word.x0)
    placed = [word for word in found if set(word.text) <= lao and word.y0 > players.y0 and word.x0 < matches.x0]
    assert len(placed) > 1 and all(players.x0 - 1 <= piece.x0 and piece.x1 <= matches.x0 for piece in placed), placed


def test_kept_sheets_follow_the_machines_fonts(tmp_path, monkeypatch):
    """A font installed on the machine is a new digest, looked at once CHECK_EVERY has passed: a kept sheet's
    tag changes with it, and the PDF module lays out with a new font configuration."""
    folder = tmp_path / "fonts"
    folder.mkdir()
    monkeypatch.setattr(system_fonts, "configured", lambda: ([str(folder)], []))
    monkeypatch.setattr(system_fonts, "_seen", None)
    clock = [1000.0]
    monkeypatch.setattr(system_fonts, "monotonic", lambda: clock[0])
    cache = SheetCache(tmp_path / "sheets", budget=1000)
    before, fonts = cache.tag("match", "abc", 1, "en"), pdf.font_config()
    (folder / "new").mkdir()
    (folder / "new" / "NotoSansKhmer-Regular.ttf").write_bytes((STATIC / "fonts" / "NotoSansKhmer-Regular.ttf").read_bytes())
    assert cache.tag("match", "abc", 1, "en") == before and pdf.font_config() is fonts  # not looked at again yet
    clock[0] += system_fonts.CHECK_EVERY
    after = cache.tag("match", "abc", 1, "en")
    assert after != before and pdf.font_config() is not fonts
    assert cache.tag("match", "abc", 1, "en") == after  # and then kept under the new tag


def test_the_digest_covers_the_folders_fontconfig_reads(tmp_path, monkeypatch):
    """The folders come from fontconfig's own configuration; a font added in a folder inside one changes the digest."""
    fonts = tmp_path / "fonts"
    (fonts / "truetype").mkdir(parents=True)
    config = tmp_path / "fonts.conf"
    config.write_text(f'<?xml version="1.0"?>\n<fontconfig><dir>{fonts}</dir>'
                      f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>\n")
    monkeypatch.setenv("FONTCONFIG_FILE", str(config))
    assert system_fonts.configured() == ([str(fonts)], [str(config)])
    before = system_fonts.look()
    (fonts / "truetype" / "noto").mkdir()
    (fonts / "truetype" / "noto" / "NotoSansLao-Regular.ttf").write_bytes(b"")
    assert system_fonts.look() != before


def test_each_family_claims_only_characters_its_font_draws():
    """A unicode-range is the charset fontconfig gives the font: a character in it that the font lacks would print
    as a box instead of going to the next family. Every font of static/fonts is named in its LICENSE."""
    rules = re.findall(r"@font-face\s*{([^}]*)}", (STATIC / "sheet-fonts.css").read_text(encoding="utf-8"))
    license_text = (STATIC / "fonts" / "LICENSE").read_text(encoding="utf-8")
    assert len(rules) == 18
    for rule in rules:
        font = STATIC / re.search(r"url\(([^)]+)\)", rule)[1]
        assert font.name in license_text, font.name
        ranges = re.search(r"unicode-range:([^;]+);", rule)
        if ranges is None:
            continue
        drawn = set(TTFont(font).getBestCmap())
        for low, high in re.findall(r"U\+([0-9A-F]+)(?:-([0-9A-F]+))?", ranges[1]):
            missing = set(range(int(low, 16), int(high or low, 16) + 1)) - drawn
            assert not missing, (font.name, low, high, sorted(hex(code) for code in missing)[:5])
    on_disk = {path.name for path in (STATIC / "fonts").glob("*.ttf")}
    assert on_disk == {STATIC.joinpath(re.search(r"url\(([^)]+)\)", rule)[1]).name for rule in rules}


def test_the_rules_gradients_give_their_stops_in_percent():
    """WeasyPrint 70 writes a gradient's stops back into the parsed stylesheet, which every PDF shares, once
    computed in points: a stop in a unit of the type (ch, em) would keep the first sheet's points in the next
    sheet, in another type, and draw its rules as wide bands (the picture test above printed just that)."""
    css = (STATIC / "sheet.css").read_text(encoding="utf-8")
    gradients = re.findall(r"(?:repeating-)?(?:linear|radial)-gradient\(((?:[^()]|\([^()]*\))*)\)", css)
    assert gradients
    for gradient in gradients:
        assert not re.search(r"\d(ch|em|ex|rem|cap|ic|lh)\b", gradient), gradient


def test_every_room_a_grid_may_take_has_its_classes_in_the_stylesheet():
    """room.Room gives a grid's line height and lift in steps, each a class of static/sheet.css."""
    css = (STATIC / "sheet.css").read_text(encoding="utf-8")
    rows = [room.LINE, *(step / 10 for step in range(round(room.ROWS[0] * 10), round(room.ROWS[1] * 10) + 1))]
    low, high = (round(bound / room.LIFT_STEP) for bound in room.LIFTS)
    lifts = [step * room.LIFT_STEP for step in range(low, high + 1)]
    for row in rows:
        for lift in lifts:
            for name in room.Room(row, round(lift, 2)).classes().split():
                assert f".grid.lines.{name} {{" in css, name
    for names in (["Ann"], ["ស្ត្រី", "Ǚ"], ["ສີ່", "Ģirts"], ["محمّد"], ["Ա" * 3], ["Zoe\u0301"]):
        made = room.Room.of(names)
        assert room.ROWS[0] <= made.row <= room.ROWS[1] or made.row == room.LINE, (names, made)
        assert room.LIFTS[0] <= made.lift <= room.LIFTS[1], (names, made)
