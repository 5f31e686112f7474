"""A round's readable sheets, printed from the table cards: every table's readable sheet in one PDF, in the order of
the cards, each page with its own match's names and QR code; for the club's admin only, linked beside the cards."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import cv2
import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.clubs import admin_post, new_club
from helpers.paper import paper_pdf, raster
from helpers.pdf import pages, poppler, save
from scorekeeper.paper import layout

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")

FOURTEEN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max", "Ned"]
GAMES = ["barbu", "kozyol", "hearts"]  # a round may mix games: each table prints its own game's sheet
DPI = 150
MM = DPI / 25.4


class Round:
    """A club of fourteen with today's evening, everyone present, and round 1 confirmed: a table of each game."""

    def __init__(self, app: Flask, client: FlaskClient):
        from scorekeeper.club import evenings, rounds, service as clubs

        self.app, self.client = app, client
        self.club = new_club(client, "Les Dimanches")
        for name in FOURTEEN:
            assert admin_post(client, self.club, "players", "add", {"name": name}).status_code == 302
        with app.app_context():
            club = clubs.find(self.club)
            evening = evenings.schedule(club, clubs.today(club), "19:30", "", "", name="Soirée d'hiver")[0]
            self.id = evening.id
            for player in clubs.roster(club):
                evenings.mark_present(club, evening, player.id, True)
            _seed, drawn = rounds.propose(club, evening, GAMES, 4)
            rounds.confirm(club, evening, drawn, 4, number=1)
            # the tables in the order of their cards: (match id, names in seat order)
            self.tables = [(match.public_id, list(match.players)) for _table, match in rounds.rounds_of(evening)[0][1]]

    def url(self, query: str = "") -> str:
        return f"/c/{self.club}/evenings/{self.id}/cards/paper.pdf{query}"


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> Round:
    return Round(app, client)


def page_text(path: Path, page: int) -> str:
    return poppler("pdftotext", "-layout", "-f", str(page), "-l", str(page), str(path), "-")


def qr_on(image, page: layout.Page) -> str:
    """The payload of the QR code printed where the layout puts it."""
    x, y, side = page.qr
    crop = image[int((y - 4) * MM): int((y + side + 4) * MM), int((x - 4) * MM): int((x + side + 4) * MM)]
    return cv2.QRCodeDetector().detectAndDecode(crop)[0]


def test_every_tables_readable_sheet_in_the_order_of_the_cards_each_page_its_own_match(night: Round, tmp_path: Path):
    answer = night.client.get(night.url())
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert "no-store" in answer.headers["Cache-Control"]  # the admin's, as the cards are
    assert 'filename="Les-Dimanches-Soiree-d-hiver-Round-1-Readable-sheets.pdf"' in answer.headers["Content-Disposition"]
    path = save(tmp_path, answer.data)
    own = [pages(save(tmp_path, paper_pdf(night.client, match), f"{match}.pdf")) for match, _names in night.tables]
    assert own[GAMES.index("barbu")] == 4  # a whole Barbu match, one page per declarer: several pages per table
    assert pages(path) == sum(own)
    images = raster(answer.data, DPI)
    number = 0
    for (match, names), count in zip(night.tables, own, strict=True):
        others = [name for _match, seated in night.tables if seated != names for name in seated]
        for page in range(1, count + 1):
            number += 1
            words = page_text(path, number)
            assert f"Page {page} of {count}" in words, words
            assert all(re.search(rf"\b{name}\b", words) for name in names), (names, words)
            assert not any(re.search(rf"\b{name}\b", words) for name in others), (others, words)
            game = GAMES[[seated for _match, seated in night.tables].index(names)]
            assert qr_on(images[number - 1], layout.page_for(game, len(names))) == layout.qr_payload(match, page)
    assert number == len(images)


def test_any_round_by_number_and_none_that_is_not(night: Round):
    assert night.client.get(night.url("?round=1")).status_code == 200
    for junk in ("?round=2", "?round=x"):
        assert night.client.get(night.url(junk)).status_code == 404, junk


def test_only_the_admin_gets_them_as_the_table_cards(night: Round, app: Flask):
    stranger = app.test_client()
    refused = stranger.get(night.url())
    assert refused.status_code == 403 and refused.mimetype == "text/html"
    assert stranger.get(f"/c/{night.club}/evenings/{night.id}/cards.pdf").status_code == 403
    member = app.test_client()
    assert member.get(f"/c/{night.club}").status_code == 200  # opened the club link only
    assert member.get(night.url()).status_code == 403


def test_linked_beside_the_table_cards_for_the_admin(night: Round):
    evening = night.client.get(f"/c/{night.club}/admin/evenings/{night.id}").text
    assert f'href="/c/{night.club}/evenings/{night.id}/cards.pdf"' in evening
    assert f'href="/c/{night.club}/evenings/{night.id}/cards/paper.pdf"' in evening
    assert "Readable sheets (PDF)" in evening
    rounds = night.client.get(f"/c/{night.club}/admin/evenings/{night.id}/rounds").text
    assert f'href="/c/{night.club}/evenings/{night.id}/cards/paper.pdf?round=1"' in rounds
    assert "Readable sheets (PDF)" in rounds
