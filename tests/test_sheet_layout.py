"""Blank sheets keep everything on the paper: long names wrap inside their own column, a row of
lines to write on wraps instead of running off the page, and a header item never splits.

Read back with poppler: pdftotext -bbox gives each word's box, -layout the lines as printed.
"""

from __future__ import annotations

import logging
import re
import shutil

import pytest

from helpers.pdf import Word, pages, poppler, save, squeezed, words
from scorekeeper import pdf

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

MARGIN = 9 / 25.4 * 72  # the sheet's left and right page margin (static/sheet.css @page), in points
SLACK = 1.0  # points: a glyph's side bearing may reach a hair past its box
LETTERS = "ABCDEFGHIJK"
# Eleven names of 40 characters, each of its own letter: with a space, or one long word of capitals.
LONG = [f"{c}{c.lower() * 19} {c}{c.lower() * 18}" if i % 2 else c * 40 for i, c in enumerate(LETTERS)]
TEAM = {"en": "Team", "fr": "Équipe", "ru": "Команда"}


def on_the_paper(width: float, found: list[Word]) -> None:
    """No word reaches into the left or right margin, let alone past the page's edge."""
    outside = [w for w in found if w.x0 < MARGIN - SLACK or w.x1 > width - MARGIN + SLACK]
    assert not outside, [(w.text, round(w.x0), round(w.x1)) for w in outside]


def words_of(name: str, found: list[Word]) -> list[Word]:
    """The words made only of a name's letters, top to bottom, left to right."""
    letters = set(name) - {" "}
    return sorted((w for w in found if set(w.text) <= letters), key=lambda w: (round(w.y0), w.x0))


def test_eleven_long_names_on_a_blank_hearts_sheet_wrap_inside_their_columns(client, tmp_path):
    assert all(len(name) == 40 for name in LONG)
    answer = client.get("/sheets/hearts.pdf", query_string=[("players", name) for name in LONG])
    assert answer.status_code == 200, answer.text[:300]
    path = save(tmp_path, answer.data)
    assert pages(path) == 1
    width, found = words(path)
    on_the_paper(width, found)
    columns = []
    for name in LONG:
        mine = words_of(name, found)
        assert "".join(w.text for w in mine) == name.replace(" ", ""), f"{name} is printed whole"
        columns.append((min(w.x0 for w in mine), max(w.x1 for w in mine)))
    for (_, right), (left, _), name in zip(columns, columns[1:], LONG[1:]):
        assert right <= left + SLACK, f"the name before {name[:5]}... runs into its column"
    # The ranking to fill in: a numbered line per player, every one on the paper.
    ranking = poppler("pdftotext", "-layout", str(path), "-").split("Final ranking", 1)[1]
    numbers = re.findall(r"(?<!\S)(\d+)\.(?!\S)", ranking.split("Each heart")[0])
    assert numbers == [str(n) for n in range(1, len(LONG) + 1)], numbers


@pytest.mark.parametrize("language", list(TEAM))
def test_the_blank_kozyol_header_keeps_each_team_on_one_line(client, tmp_path, language):
    answer = client.get("/sheets/kozyol.pdf", headers={"Accept-Language": language})
    path = save(tmp_path, answer.data)
    assert pages(path) == 1
    page = poppler("pdftotext", "-layout", str(path), "-")
    for team in (1, 2):
        assert re.search(rf"{TEAM[language]} {team} ?:[ ]+&", page), f"team {team}'s label and its two lines:\n{page[:400]}"
    assert not re.search(rf"{TEAM[language]}[ ]*$", page, re.M), "a label split from its number"
    on_the_paper(*words(path))


def test_a_kozyol_sheet_with_long_names_keeps_them_on_the_paper(client, tmp_path):
    names = [LONG[0], LONG[1], "Maximilian-Alexander von Hohenzollern 12", "Ёжик"]
    answer = client.get("/sheets/kozyol.pdf", query_string=[("players", name) for name in names])
    path = save(tmp_path, answer.data)
    assert pages(path) == 1
    on_the_paper(*words(path))
    flat = squeezed(poppler("pdftotext", str(path), "-"))
    for name in names:
        assert squeezed(name) in flat, name


def test_the_sheet_stylesheet_is_read_by_weasyprint_without_a_warning(client, caplog):
    """What only a browser understands (the phone's width query) stays where WeasyPrint skips it."""
    pdf._parsed.clear()
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        assert client.get("/sheets/hearts.pdf").status_code == 200
    assert [record.getMessage() for record in caplog.records] == []
