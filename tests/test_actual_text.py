"""A PDF line in a script drawn in reordered glyphs copies out as typed (scorekeeper/actual_text.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from weasyprint import HTML

from helpers.pdf import poppler, save
from scorekeeper import actual_text, pdf  # noqa: F401  (pdf installs the ActualText drawing)
from scorekeeper.config import ROOT

FONTS = (ROOT / "static" / "sheet-fonts.css").read_text().replace("url(fonts/", f"url({ROOT / 'static' / 'fonts'}/")
FAMILIES = "'Sheet Sans', 'Sheet Khmer', 'Sheet Lao', 'Sheet Thai', 'Sheet Devanagari', 'Sheet Hebrew', 'Sheet Arabic'"
# Each of these copied out of WeasyPrint's own drawing in another order or as other syllables: a consonant first
# drawn inside a stacked syllable read as that syllable everywhere ("ឧត្តម" read "ឧត្រស្ត្រម").
LINES = ["ស្ត្រី", "ឧត្តម", "ស៊ីណា", "ស្រីពៅ", "កោះកុង", "ពិន្ទុ", "កាលបរិច្ឆេទ", "ເກືອບ ແກ້ວ", "क्षत्रिय राहुल",
         "Ann, ស្រីពៅ, Bob", "เกี๊ยว"]


def printed(tmp_path: Path, lines: list[str]) -> Path:
    body = "".join(f"<p>{line}</p>" for line in lines)
    document = HTML(string=f"<style>{FONTS} body {{ font-family: {FAMILIES} }}</style>{body}", base_url=str(ROOT))
    return save(tmp_path, document.write_pdf(uncompressed_pdf=True))  # its marked content in plain sight


def test_every_line_reads_back_as_typed(tmp_path):
    path = printed(tmp_path, LINES)
    read = [line for line in poppler("pdftotext", str(path), "-").splitlines() if line.strip()]
    assert read == LINES
    assert path.read_bytes().count(b"/ActualText") == len(LINES)


@pytest.mark.parametrize("line", ["Ann Lee", "Ёжик", "王小明", "דוד כהן", "محمد علي"])
def test_a_line_of_no_reordered_script_is_drawn_as_before(tmp_path, line):
    assert not actual_text.REORDERED.search(line)
    assert b"ActualText" not in Path(printed(tmp_path, [line])).read_bytes()


def test_the_drawing_is_hooked_once():
    from weasyprint.draw import text as drawing

    actual_text.install()
    assert drawing.draw_first_line is actual_text.draw_first_line
