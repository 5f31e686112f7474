"""On the home screen and off the network: the manifest, its icons, the service worker and the offline page."""

from __future__ import annotations

import html
import json
import re
import struct
from pathlib import Path

import pytest

from helpers.api import create_match
from helpers.static import unbuilt

STATIC = Path(__file__).resolve().parents[1] / "static"


def waiting(page: str) -> dict[str, str]:
    """The outbox's sentences per count, as the page hands them to the script."""
    found = re.search(r"data-waiting='([^']*)'", page)
    assert found, "no sentences for the outbox"
    return json.loads(html.unescape(found[1]))


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_makes_a_full_screen_app_with_its_icons(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    manifest = answer.get_json()
    assert manifest["name"] == "Scorekeeper" and manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "/"
    sizes = {}
    for icon in manifest["icons"]:
        served = client.get(icon["src"])
        served.close()
        assert served.status_code == 200 and served.mimetype == "image/png"
        width, height = png_size(STATIC / unbuilt(icon["src"]).removeprefix("/static/"))
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes == {"any": {192, 512}, "maskable": {512}}


def test_the_manifest_speaks_the_readers_language(client):
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": "fr"}).get_json()
    assert manifest["lang"] == "fr" and "Kozyol" in manifest["description"]
    assert manifest["description"] != client.get("/manifest.webmanifest").get_json()["description"]


def test_the_service_worker_is_served_from_the_root_and_never_kept_stale(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert b"self.registration.scope" in answer.data


@pytest.mark.parametrize("path", ["/", "/new/kozyol", "/offline"])
def test_every_page_names_its_manifest_and_worker_and_hides_the_outbox_until_the_script_fills_it(client, path):
    page = client.get(path).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-worker="/sw.js" defer></script>' in page
    assert '<section id="outbox" class="outbox" hidden' in page


def test_the_offline_page_says_what_still_works(client):
    page = client.get("/offline")
    assert page.status_code == 200
    assert "No connection" in page.text and "kept on the phone until the server answers" in page.text


def test_the_outbox_counts_in_the_readers_plural_forms(client):
    made = create_match(client, "kozyol")
    english = waiting(client.get(f"/m/{made['id']}").text)
    assert english == {"other": "{n} hands waiting to send", "one": "{n} hand waiting to send"}
    russian = waiting(client.get(f"/m/{made['id']}", headers={"Accept-Language": "ru"}).text)
    assert russian == {"many": "{n} раздач ждут отправки", "one": "{n} раздача ждёт отправки",
                       "few": "{n} раздачи ждут отправки"}
