"""Long names on paper, whole: the dealer columns of the Kozyol and Hearts sheets, the players' headings of the
Barbu and Hearts sheets and the season's standings, read back with poppler.

A name is printed whole (pdftotext finds each of its words as one word, or its pieces broken after a hyphen) and
inside its own column (its words' boxes end before the next column begins), in English and in Russian.
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
from helpers.matches import barbu_entry, hearts_entry
from helpers.pdf import Word, save, sheet_pdf, words
from scorekeeper.web.sheets import hearts as hearts_sheet

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
SHEET_CSS = Path(__file__).resolve().parents[1] / "static" / "sheet.css"

LONG = ["Fyodor Dostoyevsky-Karamazov", "Александровна Константинопольская", "Maximiliana Ekaterina",
        "Bartholomew Abernathy"]
# A word of 35 letters: wider than a Barbu player's column in the headings' type.
HEADS = ["Fyodor Dostoyevsky-Karamazov", "Александровна Константинопольская", "Ann Wolfeschlegelsteinhausenbergerdorff",
         "Bartholomew Abernathy"]
SLACK = 0.5  # points
LINE = 12  # points between two lines of a heading, at most


def said(language: str, msgid: str) -> str:
    return msgid if language == "en" else translated(language, msgid)


def heading(found: list[Word], text: str) -> Word:
    return next(word for word in found if word.text == text)


def same_line(found: list[Word], first: Word) -> list[Word]:
    return sorted((word for word in found if abs(word.y0 - first.y0) < 2), key=lambda word: word.x0)


def whole(name: str, shown: list[str]) -> list[str]:
    """What of the name's words is not printed whole (broken only after a hyphen), and any piece of a word."""
    pieces = {piece for part in name.split() for piece in (part, *re.split(r"(?<=-)", part))}
    missing = [part for part in name.split() if part not in shown and not set(re.split(r"(?<=-)", part)) <= set(shown)]
    return missing + [f"piece {text!r}" for text in shown if text not in pieces]


def columns(found: list[Word], first: str, last: str) -> list[tuple[float, float, Word]]:
    """Each player's column, left and right, found from the subheading under his name ("hand · Σ"), which is
    centred in it (and in the headings' row: its height depends on the name); and the subheading's first word."""
    bottom = heading(found, "#").y1 + 2  # the grid's heading "# Dealer" sits at the foot of the headings' row
    firsts = sorted((word for word in found if word.text == first and word.y1 <= bottom), key=lambda word: word.x0)
    centres = [(word.x0 + min((end.x1 for end in same_line(found, word) if end.text == last and end.x0 >= word.x0),
                              default=word.x1)) / 2 for word in firsts]
    span = centres[1] - centres[0]
    return [(centre - span / 2, centre + span / 2, word) for centre, word in zip(centres, firsts)]


def heading_words(found: list[Word], left: float, right: float, under: Word) -> list[Word]:
    """The words of a column's heading: the lines right above its subheading, by their middles inside the column."""
    above = sorted((word for word in found if left <= (word.x0 + word.x1) / 2 <= right and word.y1 <= under.y0 + SLACK
                    and word.y0 < under.y0 - 1), key=lambda word: -word.y0)
    taken: list[Word] = []
    for word in above:
        if (taken[-1].y0 if taken else under.y0) - word.y0 > LINE:
            break
        taken.append(word)
    return taken


def headings_whole(found: list[Word], players: list[str], sub: str, letters: str = "") -> None:
    """Each player's name above his column, whole, every word of it inside the column."""
    words_of_sub = sub.split()
    for (left, right, under), name, letter in zip(columns(found, words_of_sub[0], words_of_sub[-1]), players,
                                                  letters or [""] * len(players)):
        mine = heading_words(found, left, right, under)
        assert all(left - SLACK <= word.x0 and word.x1 <= right + SLACK for word in mine), \
            [(word.text, round(word.x0), round(word.x1), round(left), round(right)) for word in mine]
        assert whole(name, [word.text for word in mine if word.text != letter]) == [], (name, [w.text for w in mine])


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


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_dealer_column_of_a_hearts_sheet_prints_each_name_whole(client: FlaskClient, tmp_path: Path,
                                                                     language: str):
    players = [*HEADS, "Maximiliana Ekaterina", "Bob"]
    match = create_match(client, "hearts", players)
    play(client, match, *[hearts_entry(number, players) for number in range(1, len(players) + 1)])
    client.get(f"/language/{language}")
    _width, found = words(save(tmp_path, sheet_pdf(client, match)))
    ways = {"←", "→"}  # the pass, as every language's sheet prints it
    top = heading(found, said(language, "hand · Σ").split()[0]).y1  # the rows are under the players' headings
    dealers = []
    for number in map(str, range(1, len(players) + 1)):
        row = next(same_line(found, word) for word in found if word.text == number and word.y0 > top and any(
            other.text in ways for other in same_line(found, word)))  # the hand's row: its passing direction too
        way = next(word for word in row if word.text in ways)
        lead = [word for word in row if word.x0 < way.x0][1:]
        assert lead and lead[-1].x1 < way.x0, [(word.text, word.x1, way.x0) for word in lead]
        dealers.append(" ".join(word.text for word in lead))
    assert sorted(dealers) == sorted(players)
    headings_whole(found, players, said(language, "hand · Σ"))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_players_headings_of_a_barbu_sheet_print_each_name_whole(client: FlaskClient, tmp_path: Path,
                                                                     language: str):
    match = create_match(client, "barbu", HEADS, {"first_declarer": HEADS[0]})
    play(client, match, *[barbu_entry(number, HEADS) for number in (1, 2)])
    client.get(f"/language/{language}")
    _width, found = words(save(tmp_path, sheet_pdf(client, match)))
    headings_whole(found, HEADS, said(language, "raw · score · Σ · doubles"), letters="ABCD")


def test_the_stylesheet_sizes_a_wide_hearts_dealer_column_as_the_sheet_does():
    """The grid's width and type for each number of players and dealer column (the player headings' type follows)."""
    css = SHEET_CSS.read_text()
    for dealer in hearts_sheet.DEALER_WIDTHS[1:]:
        lead = re.search(rf"\.hearts-lines\.dealer-{dealer} \.c-lead {{ width: ([\d.]+)ch; }}", css)
        assert lead and float(lead[1]) == hearts_sheet.lead_width(dealer)
        for seats in hearts_sheet.TYPE:
            rule = re.search(rf"\.hearts-lines\.seats-{seats}\.dealer-{dealer} {{ width: ([\d.]+)ch; font-size: ([\d.]+)pt;",
                             css)
            base = re.search(rf"\.hearts-lines\.seats-{seats} {{ width: ([\d.]+)ch;", css)
            assert rule and base, (seats, dealer)
            assert float(rule[1]) == float(base[1]) + hearts_sheet.lead_width(dealer) - hearts_sheet.LEAD
            assert float(rule[2]) == hearts_sheet.grid_type(seats, dealer)
