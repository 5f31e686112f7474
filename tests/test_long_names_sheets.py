"""Long names on paper, whole: the Kozyol sheet's dealer column and the season's standings, read back with poppler.

A name is printed whole (pdftotext finds each of its words as one word) and inside its own column (its words'
boxes end before the next column begins), in English and in Russian.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from helpers.api import bearer, create_match, play
from helpers.clubs import QUICK, TEAM_1_LOSES
from helpers.i18n import translated
from helpers.pdf import Word, save, sheet_pdf, words

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

LONG = ["Fyodor Dostoyevsky-Karamazov", "Александровна Константинопольская", "Maximiliana Ekaterina",
        "Bartholomew Abernathy"]
SLACK = 0.5  # points


def said(language: str, msgid: str) -> str:
    return msgid if language == "en" else translated(language, msgid)


def heading(found: list[Word], text: str) -> Word:
    return next(word for word in found if word.text == text)


def same_line(found: list[Word], first: Word) -> list[Word]:
    return sorted((word for word in found if abs(word.y0 - first.y0) < 2), key=lambda word: word.x0)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_dealer_column_of_a_kozyol_sheet_prints_each_name_whole(client: FlaskClient, tmp_path: Path,
                                                                     language: str):
    match = create_match(client, "kozyol", LONG)
    play(client, match, {"points": [75, 45]}, {"points": [30, 90]}, {"points": [100, 20]}, {"points": [45, 75]})
    client.get(f"/language/{language}")
    _width, found = words(save(tmp_path, sheet_pdf(client, match)))
    column_ends = heading(found, said(language, "Trumps")).x0  # the next column's heading, centred in it
    dealers = []
    for number in "1234":
        first = min((word for word in found if word.text == number and word.x1 < column_ends
                     and len(same_line(found, word)) > 2), key=lambda word: word.y0)  # the deal's row: its figures too
        lead = [word for word in same_line(found, first) if word.x0 < column_ends]
        assert all(word.x1 <= column_ends + SLACK for word in lead), [(w.text, w.x1, column_ends) for w in lead]
        dealers.append(" ".join(word.text for word in lead[1:]))
    assert sorted(dealers) == sorted(LONG)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_season_standings_print_each_long_name_whole_in_its_column(client: FlaskClient, tmp_path: Path,
                                                                       language: str):
    club = client.post("/api/v1/clubs", json={"name": "Les Dimanches"}).get_json()
    assert client.put(f"/api/v1/clubs/{club['id']}/rules", json={"min_matches": 1},
                      headers=bearer(club["admin_key"])).status_code == 200
    match = client.post(f"/api/v1/clubs/{club['id']}/matches",
                        json={"game": "kozyol", "players": LONG, "options": QUICK}).get_json()
    assert client.post(f"/api/v1/matches/{match['id']}/hands", json=TEAM_1_LOSES,
                       headers=bearer(match["edit_key"])).status_code == 201
    answer = client.get(f"/c/{club['id']}/standings.pdf", headers={"Accept-Language": language})
    _width, found = words(save(tmp_path, answer.data))
    player = heading(found, said(language, "Player"))
    column_ends = heading(found, said(language, "Matches").split()[0]).x0
    table = [word for word in found if word.y0 > player.y1 and word.x0 >= player.x0 - SLACK and word.x1 <= column_ends]
    shown = {word.text for word in table}
    for name in LONG:
        for part in name.split():  # whole, or broken only after a hyphen
            whole = part in shown or all(piece in shown for piece in re.split(r"(?<=-)", part))
            assert whole, f"{part!r} of {name!r} is not printed whole in the player column: {sorted(shown)}"
