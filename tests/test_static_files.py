"""Static files under addresses that change with their content, kept a year; older addresses still answer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import create_match
from helpers.static import unbuilt
from scorekeeper.config import ROOT
from scorekeeper.web import static_files

YEAR = "public, max-age=31536000, immutable"


def addresses(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_every_static_address_on_a_page_carries_the_current_build(client: FlaskClient):
    match = create_match(client)
    build = static_files.build_of(ROOT / "static")
    for url in ("/", f"/m/{match['id']}", f"/m/{match['id']}/sheet", "/offline", "/rules/barbu"):
        found = addresses(client.get(url).text)
        assert found, url
        assert all(address.startswith(f"/static/{build}/") for address in found), (url, found)


def test_the_current_builds_files_are_kept_a_year_and_the_older_addresses_are_asked_again(client: FlaskClient):
    page = client.get("/").text
    for address in addresses(page):
        with client.get(address) as answer:
            assert answer.status_code == 200, address
            assert answer.headers["Cache-Control"] == YEAR and "Expires" not in answer.headers, address
            with client.get(unbuilt(address)) as plain:
                assert plain.status_code == 200 and plain.headers["Cache-Control"] == "no-cache", address
                assert plain.data == answer.data
            with client.get(unbuilt(address).replace("/static/", "/static/0123456789ab/")) as older:
                assert older.status_code == 200 and older.headers["Cache-Control"] == "no-cache", address
                assert older.data == answer.data


def test_a_missing_file_is_404_under_every_address(client: FlaskClient, app: Flask):
    for address in (f"{app.static_url_path}/nope.css", "/static/nope.css", "/static/0123456789ab/nope.css",
                    f"{app.static_url_path}/../pyproject.toml"):
        with client.get(address) as answer:
            assert answer.status_code == 404, address
            assert "immutable" not in answer.headers.get("Cache-Control", "")


def test_the_build_changes_with_any_file_its_name_or_its_content_and_with_nothing_else(tmp_path: Path):
    (tmp_path / "js").mkdir()
    (tmp_path / "style.css").write_text("body { color: black }")
    (tmp_path / "js" / "main.js").write_text("export {};")
    first = static_files.build_of(tmp_path)
    assert re.fullmatch(r"[0-9a-f]{12}", first) and static_files.build_of(tmp_path) == first
    (tmp_path / "draw.py").write_text("print('never served')")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert static_files.build_of(tmp_path) == first
    (tmp_path / "js" / "main.js").write_text("export { a };")
    second = static_files.build_of(tmp_path)
    assert second != first
    (tmp_path / "js" / "main.js").rename(tmp_path / "js" / "other.js")
    assert static_files.build_of(tmp_path) not in (first, second)


def test_in_debug_mode_files_are_asked_again_each_time(app: Flask, client: FlaskClient):
    app.debug = True
    try:
        address = addresses(client.get("/").text)[0]
        with client.get(address) as answer:
            assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-cache"
        assert 'var BUILD = "";' in client.get("/sw.js").text  # nor does the service worker keep them first
    finally:
        app.debug = False


def test_the_service_worker_knows_the_build_and_keeps_the_builds_files(client: FlaskClient, app: Flask):
    source = client.get("/sw.js").text
    build = app.static_url_path.rsplit("/", 1)[1]
    assert f'var BUILD = "{build}";' in source
    shell = re.search(r"var SHELL = (\[[^\]]*\])", source)[1]
    assert f"/static/{build}/style.css" in shell and f"/static/{build}/js/main.js" in shell


@pytest.mark.parametrize("address, build", [("/static/3f9c0a1b2d4e/js/main.js", "3f9c0a1b2d4e"),
                                            ("/static/style.css", ""), ("/static/3f9c0a1b2d4/x.js", "")])
def test_the_build_is_read_back_from_an_address(address: str, build: str):
    assert static_files.build_in(address) == build


def stylesheets(client: FlaskClient, html: str) -> dict[str, str]:
    """Each stylesheet a page links, by address, with its text."""
    found = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    texts = {}
    for address in found:
        with client.get(address) as answer:
            assert answer.status_code == 200, address
            texts[address] = answer.get_data(as_text=True)
    return texts


def test_no_screen_page_loads_a_ttf_font_and_the_sheets_fonts_are_small_woff2_shown_at_once(
        client: FlaskClient, app: Flask):
    from helpers.clubs import new_club

    match = create_match(client)
    club = new_club(client)
    pages = ["/", f"/m/{match['id']}", f"/m/{match['id']}/sheet", "/sheets/barbu",
             "/sheets/kozyol", "/sheets/hearts", f"/c/{club}", "/rules/barbu"]
    fonts_seen = set()
    for url in pages:
        answer = client.get(url)
        assert answer.status_code == 200, url
        for address, css in stylesheets(client, answer.text).items():
            assert ".ttf" not in css, (url, address)
            for face in re.findall(r"@font-face\s*{[^}]*}", css):
                assert "font-display: swap" in face and 'format("woff2")' in face, (url, face)
                fonts_seen.update(re.findall(r"url\(([^)]+\.woff2)\)", face))
    assert len(fonts_seen) == 4  # the print views load the four cuts
    base = app.static_folder
    for font in fonts_seen:
        assert Path(base, font).stat().st_size < 24 * 1024, font


def test_the_pdf_still_embeds_the_whole_ttf_fonts(client: FlaskClient, tmp_path: Path):
    import subprocess

    from helpers.pdf import save

    match = create_match(client)
    path = save(tmp_path, client.get(f"/api/v1/matches/{match['id']}/sheet.pdf").data)
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    assert "Sheet-Sans" in fonts and "Sheet-Mono" in fonts  # the TTF files' family names, as sheet-fonts.css gives them


def test_every_static_answer_says_its_build_and_a_file_is_always_sent_whole(client: FlaskClient, app: Flask):
    """The service worker keeps a file under a build's address only from that build (X-Static-Build); a part
    of a file (Range) is never sent, as it would be compressed against a length of the plain bytes."""
    build = app.static_url_path.rsplit("/", 1)[1]
    for address in (f"/static/{build}/style.css", "/static/style.css", "/static/0123456789ab/style.css"):
        with client.get(address, headers={"Range": "bytes=0-99", "Accept-Encoding": "br"}) as answer:
            assert answer.status_code == 200 and answer.headers["X-Static-Build"] == build, address
            assert "Content-Range" not in answer.headers
