"""Answers that carry a key or a form are never stored by a cache; a watcher's page and the poll keep theirs."""

from __future__ import annotations

import io
import json
import re
from urllib.parse import urlsplit

import pytest

from helpers.api import bearer, create_match, play
from helpers.matches import PLAYERS

NEW = {"game": "barbu", "players": PLAYERS}
LINK = re.compile(r'(?:href|action)="(/[^"#]*)')
ANN, BOB, CID, DEE = PLAYERS
HAND = {"contract": "no_tricks", "tricks": {ANN: 4, BOB: 3, CID: 5, DEE: 1}}


def no_store(answer) -> bool:
    return "no-store" in answer.headers.get("Cache-Control", "")


def new_club(client) -> dict:
    answer = client.post("/api/v1/clubs", json={"name": "Thursday club"})
    assert answer.status_code == 201
    return answer.get_json()


def test_the_api_answers_that_hand_out_a_key_are_not_stored(client):
    made = client.post("/api/v1/matches", json=NEW)
    assert made.status_code == 201 and no_store(made)
    match = made.get_json()
    rotated = client.post(f"/api/v1/matches/{match['id']}/key", headers=bearer(match["edit_key"]))
    assert rotated.status_code == 200 and no_store(rotated)
    export = client.get(f"/api/v1/matches/{match['id']}/export").get_json()
    restored = client.post("/api/v1/matches/import", json=export)
    assert restored.status_code == 201 and no_store(restored)
    club = client.post("/api/v1/clubs", json={"name": "Thursday club"})
    assert club.status_code == 201 and no_store(club)
    club = club.get_json()
    started = client.post(f"/api/v1/clubs/{club['id']}/matches", json=NEW)
    assert started.status_code == 201 and "edit_key" in started.get_json() and no_store(started)
    club_key = client.post(f"/api/v1/clubs/{club['id']}/key", headers=bearer(club["admin_key"]))
    assert club_key.status_code == 200 and no_store(club_key)


def test_the_poll_and_a_reading_keep_their_caching(client):
    match = create_match(client)
    play(client, match, HAND)
    state = client.get(f"/api/v1/matches/{match['id']}")
    assert state.headers["Cache-Control"] == "no-cache" and state.headers["ETag"]
    poll = client.get(f"/api/v1/matches/{match['id']}", headers={"If-None-Match": state.headers["ETag"]})
    assert poll.status_code == 304 and not no_store(poll)


def test_a_watchers_pages_keep_their_caching(client, app):
    match = create_match(client)
    play(client, match, HAND)
    watcher = app.test_client()
    for url in (f"/m/{match['id']}", f"/m/{match['id']}/table", f"/m/{match['id']}/working/1", f"/m/{match['id']}/history",
                f"/m/{match['id']}/qr/watch.svg", "/rules/barbu"):
        answer = watcher.get(url)
        assert answer.status_code == 200, url
        assert not no_store(answer), url


def crawl(client, start: list[str], limit: int = 150) -> dict[str, object]:
    """Every page reachable by GET from start on this site (PDFs and files not followed)."""
    seen: dict[str, object] = {}
    queue = list(start)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen or "/language/" in url or url.endswith((".pdf", ".svg", ".csv", ".json", ".js", ".css", ".png")):
            continue
        answer = client.get(url)
        seen[url] = answer
        if answer.mimetype == "text/html" and answer.status_code == 200:
            for link in LINK.findall(answer.get_data(as_text=True)):
                path = urlsplit(link.replace("&amp;", "&"))
                if "/join" not in path.path and "/static/" not in path.path:
                    queue.append(path.path + (f"?{path.query}" if path.query else ""))
    return seen


def test_every_page_with_a_form_or_a_key_is_not_stored(client):
    match = create_match(client)
    client.get(f"/m/{match['id']}/join?key={match['edit_key']}")
    play(client, match, HAND)
    club = new_club(client)
    client.get(urlsplit(club["admin_url"]).path)
    pages = crawl(client, ["/", f"/m/{match['id']}", f"/m/{match['id']}/hands/new", f"/m/{match['id']}/hands/1",
                           f"/m/{match['id']}/key", f"/c/{club['id']}", f"/c/{club['id']}/admin", f"/c/{club['id']}/share",
                           f"/c/{club['id']}/admin-link", f"/c/{club['id']}/new/barbu", "/new/barbu", "/new/hearts",
                           "/clubs/new", "/import"])
    with_form = [url for url, answer in pages.items() if answer.status_code == 200 and b"<form" in answer.get_data()]
    assert len(with_form) >= 12
    for url in with_form:
        assert no_store(pages[url]), url
    for url, key in ((f"/m/{match['id']}", match["edit_key"]), (f"/c/{club['id']}/share", club["admin_key"])):
        assert key in pages[url].get_data(as_text=True), url
        assert no_store(pages[url]), url
    assert no_store(pages[f"/c/{club['id']}/admin"])


@pytest.mark.parametrize("url", ["/new/barbu", "/new/kozyol", "/new/hearts", "/clubs/new", "/import"])
def test_a_form_sent_back_with_a_mistake_is_not_stored_either(client, url):
    from helpers.forms import csrf_token

    token = csrf_token(client, url)
    if url == "/import":
        answer = client.post(url, data={"csrf_token": token, "file": (io.BytesIO(json.dumps({"x": 1}).encode()), "m.json")})
    else:
        answer = client.post(url, data={"csrf_token": token})
    assert answer.status_code in (400, 422)
    assert no_store(answer)


def test_the_edit_qr_code_is_not_stored(client):
    match = create_match(client)
    client.get(f"/m/{match['id']}/join?key={match['edit_key']}")
    answer = client.get(f"/m/{match['id']}/qr/edit.svg")
    assert answer.status_code == 200 and no_store(answer)
