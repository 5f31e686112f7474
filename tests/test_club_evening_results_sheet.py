"""An evening's results on paper, read across the table: a small evening in large type, a player's place on a row of
its own under the headings Place, Player, Matches and Before (never "–. Name 2 (–)" run together), in every language.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.clubs import QUICK, TEAM_1_LOSES, club_of
from helpers.i18n import translated
from helpers.pdf import save, text, words

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
LARGE = 11.0  # points: the height pdftotext gives a word set in 9.5 pt or more (7 pt gives about 8)


def said(language: str, msgid: str) -> str:
    return msgid if language == "en" else translated(language, msgid)


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_a_small_evenings_places_print_large_a_player_to_a_row(app: Flask, client: FlaskClient, tmp_path: Path,
                                                                  language: str):
    from scorekeeper.club import evenings, rounds, service as clubs
    from scorekeeper.match import matches

    public_id = club_of(client, EIGHT)
    with app.app_context():
        club = clubs.find(public_id)
        clubs.set_rules(club, 3, {"kozyol": QUICK})  # nobody placed yet: every place is a dash
        evening = evenings.schedule(club, clubs.today(club), "19:30", "", "")[0]
        for player in clubs.roster(club):
            evenings.mark_present(club, evening, player.id, True)
        _seed, drawn = rounds.propose(club, evening, "kozyol", 1)
        rounds.confirm(club, evening, drawn, 1)
        for _table, match in rounds.rounds_of(evening)[-1][1]:
            matches.record(match.public_id, TEAM_1_LOSES)
        day = evening.day.isoformat()
    answer = client.get(f"/c/{public_id}/evenings/{day}/results.pdf", headers={"Accept-Language": language})
    path = save(tmp_path, answer.data)
    printed = text(path)
    lines = printed.splitlines()
    headings = next(at for at, line in enumerate(lines)
                    if all(said(language, heading) in line for heading in ("Place", "Player", "Matches", "Before")))
    rows = [line for line in lines[headings:] if any(re.search(rf"\b{name}\b", line) for name in EIGHT)]
    assert len(rows) == 4 and all(sum(bool(re.search(rf"\b{name}\b", row)) for name in EIGHT) == 2 for row in rows)
    assert "–." not in printed  # a place not yet earned is a dash, not a dash and a full stop
    _width, found = words(path)
    heading = next(word for word in found if word.text == said(language, "Player"))
    named = [word for word in found if word.text in EIGHT and word.y0 > heading.y0]
    assert len(named) == len(EIGHT) and min(word.y1 - word.y0 for word in named) >= LARGE
