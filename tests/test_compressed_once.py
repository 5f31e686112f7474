"""What every phone of a table asks alike (the watched page, the state after a change) is compressed once."""

from __future__ import annotations

import json

import brotli
import flask_compress.flask_compress as compressing
from flask.testing import FlaskClient

from helpers.api import api_url, create_match, post_hand
from helpers.matches import FIRST_HAND, PLAYERS, barbu_entry

BR = {"Accept-Encoding": "br"}


def counting(monkeypatch) -> list[int]:
    made: list[int] = []
    real = compressing._compress_data
    monkeypatch.setattr(compressing, "_compress_data", lambda app, data, algorithm: (
        made.append(len(data)), real(app, data, algorithm))[1])
    return made


def test_the_watched_page_is_compressed_once_per_version_for_every_watcher(client: FlaskClient, monkeypatch):
    match = create_match(client, "barbu", PLAYERS, {"first_declarer": PLAYERS[0]})
    assert post_hand(client, match, barbu_entry(1, PLAYERS)).status_code == 201
    phones = [client.application.test_client() for _ in range(4)]  # watchers: no key
    plain = phones[0].get(f"/m/{match['id']}").text
    made = counting(monkeypatch)
    answers = [phone.get(f"/m/{match['id']}", headers=BR) for phone in phones]
    assert len(made) == 1
    assert {brotli.decompress(answer.data).decode() for answer in answers} == {plain}
    assert all(answer.headers["Content-Encoding"] == "br" for answer in answers)
    assert post_hand(client, match, barbu_entry(2, PLAYERS)).status_code == 201  # a new version: once again
    phones[0].get(f"/m/{match['id']}", headers=BR)
    phones[1].get(f"/m/{match['id']}", headers=BR)
    assert len(made) == 2


def test_the_state_after_a_change_is_compressed_once_for_every_phone(client: FlaskClient, monkeypatch):
    match = create_match(client)
    post_hand(client, match, FIRST_HAND)
    plain = client.get(api_url(match)).get_json()
    made = counting(monkeypatch)
    answers = [client.get(api_url(match), headers=BR) for _ in range(3)]
    assert len(made) == 1 and all(answer.status_code == 200 for answer in answers)
    assert {json.dumps(json.loads(brotli.decompress(answer.data)), sort_keys=True) for answer in answers} \
        == {json.dumps(plain, sort_keys=True)}


def test_a_phones_own_page_is_compressed_for_it_alone(client: FlaskClient, monkeypatch):
    """The editing phone's page carries its own token: never taken from another phone's compressed bytes."""
    match = create_match(client)
    editor = client.application.test_client()
    editor.get(match["edit_url"])
    made = counting(monkeypatch)
    first = editor.get(f"/m/{match['id']}", headers=BR)
    second = editor.get(f"/m/{match['id']}", headers=BR)
    assert len(made) == 2 and first.status_code == second.status_code == 200
