"""Text answers travel compressed when the phone accepts it, and the cheap 304s hold with compressed tags."""

from __future__ import annotations

import gzip

import brotli
import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import api_url, create_match, post_hand
from helpers.clubs import new_club
from helpers.matches import FIRST_HAND
from scorekeeper.web import compression


def texts(client: FlaskClient) -> dict[str, str]:
    """An address of each kind of text answer a phone downloads."""
    match = create_match(client)
    club = new_club(client)
    return {"match page": f"/m/{match['id']}", "home page": "/", "club page": f"/c/{club}",
            "style sheet": "/static/style.css", "module": "/static/js/outbox/index.js",
            "API answer": api_url(match), "OpenAPI document": "/api/v1/openapi.json",
            "QR code": f"/m/{match['id']}/qr/watch.svg", "service worker": "/sw.js"}


@pytest.mark.parametrize("encoding, unpack", [("gzip", gzip.decompress), ("br", brotli.decompress)])
def test_every_kind_of_text_answer_is_compressed_as_the_phone_asks_and_unpacks_to_the_same(
        client: FlaskClient, encoding: str, unpack):
    for kind, url in texts(client).items():
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": encoding})
        assert plain.status_code == packed.status_code == 200, (kind, url, plain.status_code, packed.status_code)
        assert "Content-Encoding" not in plain.headers, kind
        assert packed.headers["Content-Encoding"] == encoding, (kind, packed.headers)
        assert "Accept-Encoding" in packed.headers["Vary"], kind
        assert unpack(packed.data) == plain.data, kind
        assert len(packed.data) < len(plain.data), kind
        plain.close(), packed.close()


def test_the_best_encoding_the_phone_accepts_is_chosen(client: FlaskClient):
    with client.get("/static/style.css", headers={"Accept-Encoding": "gzip, deflate, br, zstd"}) as answer:
        assert answer.headers["Content-Encoding"] == "zstd"
    with client.get("/static/style.css", headers={"Accept-Encoding": "gzip;q=1, br;q=0.5"}) as answer:
        assert answer.headers["Content-Encoding"] == "gzip"


def test_pdfs_images_and_short_answers_travel_as_they_are(client: FlaskClient):
    match = create_match(client)
    for url in (api_url(match, "sheet.pdf"), "/static/icons/icon-192.png", "/favicon.ico", "/healthz"):
        answer = client.get(url, headers={"Accept-Encoding": "gzip, br"})
        assert "Content-Encoding" not in answer.headers, (url, answer.status_code)
        answer.close()


def test_the_poll_answers_304_to_the_tag_of_a_compressed_answer_without_loading_the_match(
        app: Flask, client: FlaskClient, monkeypatch):
    from scorekeeper.web.api import matches as api

    match = create_match(client)
    assert post_hand(client, match, {**FIRST_HAND, "doubles": []}).status_code == 201
    first = client.get(api_url(match), headers={"Accept-Encoding": "br"})
    assert first.headers["Content-Encoding"] == "br" and first.headers["ETag"].endswith(':br"')

    def no_load(public_id):
        raise AssertionError("a 304 needs the version only")

    monkeypatch.setattr(api, "match_or_404", no_load)
    again = client.get(api_url(match), headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    monkeypatch.undo()
    second = {"contract": "no_last_two", "second_last": "Cid", "last": "Dee", "doubles": []}
    assert post_hand(client, match, second).status_code == 201
    changed = client.get(api_url(match), headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]


def test_a_sheet_asked_again_with_its_tag_is_304(client: FlaskClient):
    match = create_match(client)
    sheet = client.get(api_url(match, "sheet.pdf"), headers={"Accept-Encoding": "br"})
    again = client.get(api_url(match, "sheet.pdf"), headers={"Accept-Encoding": "br", "If-None-Match": sheet.headers["ETag"]})
    assert again.status_code == 304


def test_a_static_file_asked_again_with_its_compressed_tag_is_304(client: FlaskClient):
    with client.get("/static/style.css", headers={"Accept-Encoding": "gzip"}) as first:
        tag = first.headers["ETag"]
    with client.get("/static/style.css", headers={"Accept-Encoding": "gzip", "If-None-Match": tag}) as again:
        assert again.status_code == 304


def test_only_the_encodings_are_taken_off_the_tags_sent_back():
    assert compression.ours('"3-7:zstd", W/"a:gzip", "b:c", "d:deflate"') == '"3-7", W/"a", "b:c", "d"'
    assert compression.ours('"no-colon"') == '"no-colon"'


def test_the_favicon_is_the_apps_icon(client: FlaskClient):
    with client.get("/favicon.ico") as answer:
        answer.make_sequence()
    assert answer.status_code == 200 and answer.mimetype == "image/vnd.microsoft.icon"
    assert answer.data[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
    assert int.from_bytes(answer.data[4:6], "little") == 3  # 16, 32 and 48 pixels
    assert "max-age=" in answer.headers["Cache-Control"]
