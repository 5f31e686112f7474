"""Serving: two gunicorn servers on one database agree at once; caches never show stale totals.

The servers are real processes started with the project's gunicorn.conf.py, two workers each,
on 127.0.0.1 and a database of their own (a SQLite file, or in the PostgreSQL run the test
database). State lives only in the database, so whatever one server writes the other reads.
"""

from __future__ import annotations

import html
import json
from typing import Any

from flask import Flask
from sqlalchemy import event

from helpers.api import bearer, create_match
from helpers.matches import PLAYERS
from helpers.servers import TOTALS, Server, joined_cookie
from scorekeeper.match import matches
from scorekeeper.models import Hand, Match
from scorekeeper.web.page_cache import PageCache

ANN, BOB, CID, DEE = PLAYERS
NO_TRICKS = {"contract": "no_tricks", "tricks": {ANN: 4, BOB: 3, CID: 5, DEE: 1}}  # -8 -6 -10 -2
NO_QUEENS = {"contract": "no_queens", "queens": {ANN: 1, BOB: 0, CID: 1, DEE: 2}}  # -6 0 -6 -12
BARBU = {"contract": "barbu", "king_of_hearts": BOB}  # 0 -20 0 0


# -- two servers ---------------------------------------------------------------------------------


def new_match(server: Server) -> tuple[str, str]:
    status, _, body = server.call("POST", "/api/v1/matches",
                                  {"game": "barbu", "players": PLAYERS, "options": {"first_declarer": ANN}})
    assert status == 201, body
    made = json.loads(body)
    return made["id"], made["edit_key"]


def post_hand(server: Server, public_id: str, key: str, entry: dict[str, Any]) -> dict[str, Any]:
    status, _, body = server.call("POST", f"/api/v1/matches/{public_id}/hands", entry, bearer(key))
    assert status == 201, body
    return json.loads(body)


def test_a_hand_written_through_one_server_is_read_through_the_other(servers):
    one, two = servers
    public_id, key = new_match(one)
    written = post_hand(one, public_id, key, NO_TRICKS)
    assert two.state(public_id) == written
    assert two.page_totals(public_id) == written["totals"] == {ANN: -8, BOB: -6, CID: -10, DEE: -2}
    post_hand(two, public_id, key, NO_QUEENS)
    read = one.state(public_id)
    assert [h["contract"] for h in read["hands"]] == ["no_tricks", "no_queens"]
    assert read["totals"] == {ANN: -14, BOB: -6, CID: -16, DEE: -14}


def test_an_etag_from_one_server_holds_on_the_other_until_either_changes_the_match(servers):
    one, two = servers
    public_id, key = new_match(one)
    post_hand(one, public_id, key, NO_TRICKS)
    path = f"/api/v1/matches/{public_id}"
    status, headers, _ = one.call("GET", path)
    etag = headers["ETag"]
    for server in (two, one, two):
        status, headers, body = server.call("GET", path, headers={"If-None-Match": etag})
        assert (status, headers["ETag"], body) == (304, etag, b"")
    post_hand(two, public_id, key, NO_QUEENS)  # a change through the other server
    status, headers, body = one.call("GET", path, headers={"If-None-Match": etag})
    assert status == 200 and headers["ETag"] != etag
    assert json.loads(body)["version"] == 3 and len(json.loads(body)["hands"]) == 2
    status, _, _ = two.call("GET", path, headers={"If-None-Match": headers["ETag"]})
    assert status == 304


def test_totals_are_never_stale_after_record_correct_undo_through_either_server(servers):
    """Each server's workers keep standings and watchers' pages per version: warm them, then change the match."""
    one, two = servers
    public_id, key = new_match(one)
    expected = {ANN: 0, BOB: 0, CID: 0, DEE: 0}
    steps = [
        (one, "POST", "/hands", NO_TRICKS, {ANN: -8, BOB: -6, CID: -10, DEE: -2}),
        (two, "POST", "/hands", NO_QUEENS, {ANN: -14, BOB: -6, CID: -16, DEE: -14}),
        (two, "PUT", "/hands/1", {**NO_TRICKS, "tricks": {ANN: 0, BOB: 13, CID: 0, DEE: 0}},
         {ANN: -6, BOB: -26, CID: -6, DEE: -12}),
        (one, "POST", "/hands", BARBU, {ANN: -6, BOB: -46, CID: -6, DEE: -12}),
        (two, "DELETE", "/hands/3", None, {ANN: -6, BOB: -26, CID: -6, DEE: -12}),
        (one, "PUT", "/hands/2", {**NO_QUEENS, "queens": {ANN: 0, BOB: 0, CID: 0, DEE: 4}},
         {ANN: 0, BOB: -26, CID: 0, DEE: -24}),
    ]
    for writer, method, path, body, totals in steps:
        for _ in range(4):  # every worker of both servers has had a chance to cache the old version
            for server in (one, two):
                assert server.state(public_id)["totals"] == expected
                assert server.page_totals(public_id) == expected
        status, _, answer = writer.call(method, f"/api/v1/matches/{public_id}{path}", body, bearer(key))
        assert status in (200, 201), answer
        assert json.loads(answer)["totals"] == totals
        expected = totals
        for server in (two, one):  # read at once, first through the server that did not write
            assert server.state(public_id)["totals"] == expected
            assert server.page_totals(public_id) == expected


def test_a_phone_that_joined_through_one_server_edits_through_the_other(servers):
    """The session cookie is signed with the shared secret key: any server of the club accepts it."""
    one, two = servers
    public_id, key = new_match(one)
    cookie = joined_cookie(one.port, public_id, key)
    status, _, page = two.call("GET", f"/m/{public_id}", headers={"Cookie": cookie})
    assert status == 200 and f"/m/{public_id}/hands/new".encode() in page
    status, _, page = two.call("GET", f"/m/{public_id}")
    assert status == 200 and f"/m/{public_id}/hands/new".encode() not in page


# -- in one process: what the caches may and may not serve ------------------------------------------


def totals_on(page: str) -> dict[str, int]:
    return {html.unescape(name): int(total) for name, total in TOTALS.findall(page)}


def test_the_api_and_page_follow_every_write_in_one_process(client):
    made = create_match(client, options={"first_declarer": ANN})
    url = f"/api/v1/matches/{made['id']}"
    writes = [
        ("post", "/hands", NO_TRICKS), ("post", "/hands", NO_QUEENS),
        ("put", "/hands/1", {**NO_TRICKS, "tricks": {ANN: 13, BOB: 0, CID: 0, DEE: 0}}),
        ("delete", "/hands/2", None), ("post", "/hands", NO_QUEENS),
    ]
    for method, path, body in writes:
        client.get(f"/m/{made['id']}")  # warm both caches at the old version
        client.get(url)
        answer = getattr(client, method)(url + path, json=body, headers=bearer(made["edit_key"]))
        assert answer.status_code in (200, 201), answer.get_json()
        written = answer.get_json()
        with client.application.app_context():
            replayed = matches.replay(matches.find(made["id"])).summary()["totals"]
        assert client.get(url).get_json()["totals"] == written["totals"] == replayed
        assert totals_on(client.get(f"/m/{made['id']}").text) == replayed


def test_a_poll_answered_304_and_a_kept_page_load_no_match_and_no_hands(app: Flask, client):
    made = create_match(client, options={"first_declarer": ANN})
    client.post(f"/api/v1/matches/{made['id']}/hands", json=NO_TRICKS, headers=bearer(made["edit_key"]))
    etag = client.get(f"/api/v1/matches/{made['id']}").headers["ETag"]
    watcher = app.test_client()
    watcher.get(f"/m/{made['id']}")
    loaded: list[str] = []

    def count(target, context) -> None:  # noqa: ARG001
        loaded.append(type(target).__name__)

    event.listen(Match, "load", count)
    event.listen(Hand, "load", count)
    try:
        assert client.get(f"/api/v1/matches/{made['id']}", headers={"If-None-Match": etag}).status_code == 304
        assert watcher.get(f"/m/{made['id']}").status_code == 200
    finally:
        event.remove(Match, "load", count)
        event.remove(Hand, "load", count)
    assert loaded == []


def test_a_watchers_kept_page_never_reaches_an_editor_and_the_editors_never_reaches_a_watcher(app: Flask, client):
    made = create_match(client, options={"first_declarer": ANN})
    page = f"/m/{made['id']}"
    watcher, editor, late_watcher = app.test_client(), app.test_client(), app.test_client()
    assert "/hands/new" not in watcher.get(page).text  # kept for this version
    editor.get(f"{page}/join?key={made['edit_key']}")
    seen = editor.get(page).text
    assert "/hands/new" in seen and made["edit_key"] in seen and 'name="csrf_token"' in seen
    later = late_watcher.get(page).text
    assert "/hands/new" not in later and made["edit_key"] not in later and "csrf_token" not in later


def test_a_flashed_message_is_shown_once_not_kept_for_others(app: Flask, client):
    made = create_match(client, options={"first_declarer": ANN})
    page = f"/m/{made['id']}"
    phone, other = app.test_client(), app.test_client()
    phone.get(page)
    with phone.session_transaction() as session:
        session["_flashes"] = [("message", "Hand 7 was undone.")]
    assert "Hand 7 was undone." in phone.get(page).text
    assert "Hand 7 was undone." not in phone.get(page).text
    assert "Hand 7 was undone." not in other.get(page).text


def test_kept_pages_stay_within_their_budget():
    cache = PageCache(budget=100)
    for version in range(50):
        cache.put(("match", version), "x" * 30)
    assert cache.size <= 100 and len(cache) == 3
    assert cache.get(("match", 49)) and cache.get(("match", 0)) is None
    cache.put(("huge", 1), "x" * 101)
    assert cache.get(("huge", 1)) is None
