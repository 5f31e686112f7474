"""The readable sheet of a match, checked on the real PDF: its pages, its words, and, printed at 150 dpi, its corner
markers, its QR code and its blank bubbles where the layout puts them."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import create_match, post
from helpers.evening_tables import TwoTables
from helpers.i18n import translated
from helpers.matches import barbu_entry, hearts_entry
from helpers.paper import paper_pdf, raster
from helpers.pdf import pages, save, squeezed, text, words
from scorekeeper.paper import layout

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")

DPI = 150
MM = DPI / 25.4  # pixels per millimetre
BARBU = ["Ann", "Bob", "Ёжик", "Dee"]
KOZYOL = ["Ann", "Bob", "Cid", "Козлов"]
HEARTS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
KOZYOL_DEALS = [{"points": [75, 45]}, {"points": [45, 75]}, {"points": [60, 60]}]  # nobody nears the goat


def said(language: str, msgid: str) -> str:
    return msgid if language == "en" else translated(language, msgid)


def started(client: FlaskClient, game: str, players: list[str], language: str, hands: int = 0) -> dict[str, Any]:
    """A match in that language with hands played."""
    options = {"first_declarer": players[0]} if game == "barbu" else {}
    answer = client.post("/api/v1/matches", json={"game": game, "players": players, "options": options,
                                                  "language": language})
    assert answer.status_code == 201, answer.get_json()
    match = answer.get_json()
    for number in range(1, hands + 1):
        if game == "barbu":
            post(client, match, barbu_entry(number, players))
        elif game == "hearts":
            post(client, match, hearts_entry(number, players))
        else:
            post(client, match, KOZYOL_DEALS[(number - 1) % len(KOZYOL_DEALS)])
    return match


def found_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Each ArUco marker found on a page: its four corners in millimetres, clockwise from the top left."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.MARKER_DICTIONARY))
    corners, ids, _rejected = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters()).detectMarkers(image)
    assert ids is not None
    return {int(marker_id): points.reshape(4, 2) / MM for marker_id, points in zip(ids.ravel(), corners, strict=True)}


def expected_corners(marker: layout.Marker) -> np.ndarray:
    x, y, side = marker.x, marker.y, marker.size
    return np.array([(x, y), (x + side, y), (x + side, y + side), (x, y + side)])


def bubble_inside(image: np.ndarray, bubble: layout.Bubble) -> np.ndarray:
    """The pixels of a bubble's inside, well within its outline."""
    radius = layout.BUBBLE / 2 * 0.6 * MM
    rows, cols = np.ogrid[: image.shape[0], : image.shape[1]]
    inside = (cols - bubble.x * MM) ** 2 + (rows - bubble.y * MM) ** 2 <= radius**2
    return image[inside]


@pytest.mark.parametrize(("game", "players", "hands", "count"), [
    ("barbu", BARBU, 3, 4),
    ("kozyol", KOZYOL, 0, 1),
    ("hearts", HEARTS, 7, 2),  # the first page full and the match not over: a second to go on
])
def test_printed_pages_are_found_and_read(client: FlaskClient, tmp_path: Path, game: str, players: list[str],
                                          hands: int, count: int) -> None:
    match = started(client, game, players, "en", hands)
    data = paper_pdf(client, match["id"])
    assert pages(save(tmp_path, data)) == count
    page = layout.page_for(game, len(players))
    images = raster(data, DPI)
    assert len(images) == count
    for number, image in enumerate(images, start=1):
        assert abs(image.shape[0] - layout.HEIGHT * MM) <= 1 and abs(image.shape[1] - layout.WIDTH * MM) <= 1
        found = found_markers(image)
        assert sorted(found) == [0, 1, 2, 3]
        for marker in page.markers:
            assert np.abs(found[marker.id] - expected_corners(marker)).max() < 0.5, (marker, found[marker.id])
        x, y, side = page.qr
        crop = image[int((y - 4) * MM): int((y + side + 4) * MM), int((x - 4) * MM): int((x + side + 4) * MM)]
        payload, _points, _straight = cv2.QRCodeDetector().detectAndDecode(crop)
        assert payload == layout.qr_payload(match["id"], number)
        for group in (page.groups[0], page.groups[-1]):
            for bubble in group.bubbles:
                assert bubble_inside(image, bubble).mean() > 200, (group.key, bubble)
        # the outline prints: a ring darker than the inside just outside it
        bubble = page.groups[0].bubbles[0]
        ring = image[round(bubble.y * MM), round((bubble.x - layout.BUBBLE / 2) * MM) - 1:
                     round((bubble.x - layout.BUBBLE / 2) * MM) + 2]
        assert ring.min() < 200


def test_a_pen_mark_is_far_darker_than_the_printed_bubble(client: FlaskClient) -> None:
    match = started(client, "hearts", HEARTS, "en")
    image = raster(paper_pdf(client, match["id"]), DPI)[0]
    page = layout.page_for("hearts", len(HEARTS))
    blank = [bubble_inside(image, bubble).mean() for group in page.groups for bubble in group.bubbles]
    assert min(blank) > 200
    assert max(blank) - min(blank) < 40  # every bubble prints alike, whatever its label


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
@pytest.mark.parametrize(("game", "players", "legend"), [
    ("barbu", BARBU, "No Last Two"),
    ("kozyol", KOZYOL, "Defeat points"),
    ("hearts", HEARTS, "Lost in a cancelled last trick"),
])
def test_names_and_legend_in_the_match_language(client: FlaskClient, tmp_path: Path, language: str, game: str,
                                                players: list[str], legend: str) -> None:
    match = started(client, game, players, language)
    printed = squeezed(text(save(tmp_path, paper_pdf(client, match["id"]))))
    for name in players:
        assert squeezed(name) in printed
    for word in said(language, legend).split():  # a column's head may wrap: its words, each whole
        assert squeezed(word) in printed
    assert squeezed(said(language, "Readable sheet")) in printed
    if language != "en":
        assert squeezed("Readable sheet") not in printed


@pytest.mark.parametrize("language", ["km", "lo"])
def test_scripts_without_spaces_print_whole(client: FlaskClient, tmp_path: Path, language: str) -> None:
    match = started(client, "hearts", HEARTS, language)
    printed = squeezed(text(save(tmp_path, paper_pdf(client, match["id"]))))
    assert squeezed(said(language, "Readable sheet")) in printed
    assert all(name in printed for name in HEARTS)


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(("game", "players"), [("barbu", BARBU), ("kozyol", KOZYOL), ("hearts", HEARTS)])
def test_no_word_lies_on_a_bubble_a_marker_or_the_code(client: FlaskClient, tmp_path: Path, language: str,
                                                       game: str, players: list[str]) -> None:
    """Every word is a bubble's own label, inside it, or clear of every bubble, marker (and its quiet zone) and
    the QR code."""
    match = started(client, game, players, language)
    _width, found = words(save(tmp_path, paper_pdf(client, match["id"])))
    page = layout.page_for(game, len(players))
    r = layout.BUBBLE / 2
    bubbles = [bubble for group in page.groups for bubble in group.bubbles]
    zones = [(m.x - 2, m.y - 2, m.x + m.size + 2, m.y + m.size + 2) for m in page.markers]
    zones.append((page.qr[0], page.qr[1], page.qr[0] + page.qr[2], page.qr[1] + page.qr[2]))
    zones += [(b.x - r, b.y - r, b.x + r, b.y + r) for b in bubbles]
    labels = 0
    for word in found:
        x0, y0, x1, y1 = (value * 25.4 / 72 for value in (word.x0, word.y0, word.x1, word.y1))
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        if any(abs(centre[0] - b.x) < r / 2 and abs(centre[1] - b.y) < r / 2 for b in bubbles):
            labels += 1
            continue
        for zx0, zy0, zx1, zy1 in zones:
            assert x1 <= zx0 or zx1 <= x0 or y1 <= zy0 or zy1 <= y0, (word, (zx0, zy0, zx1, zy1))
    assert labels == len(bubbles)


def test_barbu_pages_name_each_declarer(client: FlaskClient, tmp_path: Path) -> None:
    match = create_match(client, "barbu", BARBU, {"first_declarer": "Bob"})
    path = save(tmp_path, paper_pdf(client, match["id"]))
    for page, (first, name) in enumerate([(1, "Bob"), (8, "Ёжик"), (15, "Dee"), (22, "Ann")], start=1):
        page_text = squeezed(text(path).split("\f")[page - 1])
        assert squeezed(f"Hands {first}–{first + 6} · {name} declares") in page_text
        assert "AB" in page_text and "CD" in page_text


def test_kozyol_goes_on_to_a_new_page_when_one_is_full(client: FlaskClient, tmp_path: Path) -> None:
    match = started(client, "kozyol", KOZYOL, "en", layout.KOZYOL_ROWS)
    path = save(tmp_path, paper_pdf(client, match["id"]))
    assert pages(path) == 2
    second = text(path).split("\f")[1].split()
    assert str(layout.KOZYOL_ROWS + 1) in second and str(2 * layout.KOZYOL_ROWS) in second


def test_the_sheet_is_kept_until_its_pages_change(client: FlaskClient) -> None:
    match = started(client, "kozyol", KOZYOL, "en")
    url = f"/m/{match['id']}/paper.pdf"
    tag = client.get(url).headers["ETag"]
    post(client, match, KOZYOL_DEALS[0])  # its rows stay empty: the same sheet
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    for number in range(2, layout.KOZYOL_ROWS + 1):
        post(client, match, KOZYOL_DEALS[(number - 1) % len(KOZYOL_DEALS)])
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 200  # a page more to go on
    assert client.get("/m/no-such-match/paper.pdf").status_code == 404


def test_the_match_page_links_the_readable_sheet(client: FlaskClient) -> None:
    match = started(client, "hearts", HEARTS, "en")
    page = client.get(f"/m/{match['id']}")
    assert f"/m/{match['id']}/paper.pdf" in page.text


def test_a_club_evening_links_the_readable_sheet_of_each_table_still_playing(app: Flask, client: FlaskClient) -> None:
    evening = TwoTables(app, client)
    page = evening.admin.get(f"/c/{evening.club}/admin/evenings/{evening.evening}/rounds").text
    assert f"/m/{evening.playing['id']}/paper.pdf" in page
    assert f"/m/{evening.done['id']}/paper.pdf" not in page  # its match is over: nothing left to play on paper
