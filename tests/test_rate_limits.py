"""Rate limits: one address cannot flood the server with matches, restores, PDFs or edit-key guesses.

The rest of the suite runs with the limits off (conftest.py). Here they are on, set low so that a
test reaches them in a few requests; the addresses are the documentation range (192.0.2.0/24),
given to the test client, never contacted. Over a limit the answer is 429 with Retry-After: the
API's JSON error under /api/, a page with the sentence elsewhere. A right edit key is never refused.
"""

from __future__ import annotations

import io
import json
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.agreements import agreed_by_two, asking_club, finished_match
from helpers.api import api_url, bearer, create_match, error_of
from helpers.apps import apps
from helpers.forms import csrf_token
from helpers.matches import FIRST_HAND, NEW, PLAYERS
from helpers.openapi import check_answer
from helpers.servers import Server, free_port, two_servers
from scorekeeper.web import rate_limits
from scorekeeper.web.api.openapi import document
from scorekeeper.web.rate_limits import counts
from scorekeeper.web.rate_limits.counts import FILE

LOW = {
    "RATELIMIT_NEW_MATCHES": "3 per minute",
    "RATELIMIT_RESTORES": "2 per minute",
    "RATELIMIT_PDFS": "2 per minute",
    "RATELIMIT_WRONG_KEYS": "3 per minute",
    "RATELIMIT_WRONG_KEYS_PER_MATCH": "5 per minute",
    "RATELIMIT_CLUB_MATCHES": "3 per minute",
    "PDF_CACHE_BYTES": "0",  # every download renders, and so counts: a kept sheet does not (test_rate_limits_clubs.py)
}
TOO_MANY = "Too many requests from this connection in a short time."


@pytest.fixture
def limited(database_url: str, tmp_path: Path, monkeypatch) -> Iterator[Callable[..., Flask]]:
    """Make the app with its rate limits on, set low (settings change them), counting where a server does.

    That is the count file in the instance folder, one folder for every app the test makes: the
    workers of one machine.
    """
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    with apps(database_url, SECRET_KEY="limits", MIGRATE_ON_START=True, RATELIMIT_ENABLED=True, **LOW) as make:
        yield make


@pytest.fixture
def app(limited: Callable[..., Flask]) -> Flask:
    return limited()


def from_address(app: Flask, address: str) -> FlaskClient:
    """A client whose requests come from address (another phone, another house)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def retry_after(answer) -> int:
    seconds = int(answer.headers["Retry-After"])
    assert 1 <= seconds <= 60
    return seconds


def refused_page(answer) -> str:
    """A 429 page: Retry-After, and the sentence saying when to try again."""
    assert answer.status_code == 429 and answer.mimetype == "text/html"
    seconds = retry_after(answer)
    assert TOO_MANY in answer.text and f"Please try again in {seconds} seconds." in answer.text
    return answer.text


def refused_json(answer, path: str, method: str = "POST") -> dict:
    """A 429 from the API: Retry-After, the error shape of API.md, as the OpenAPI document says for path."""
    check_answer(document(), path, method, answer)
    error = error_of(answer, 429)
    seconds = retry_after(answer)
    assert error["message"].startswith(TOO_MANY) and str(seconds) in error["message"] and error["fields"] == {}
    return error


def form_match(client: FlaskClient, token: str) -> object:
    names = {f"players-{seat}": name for seat, name in enumerate(PLAYERS)}
    return client.post("/new/barbu", data={"csrf_token": token, **names, "first_declarer": "0"})


# -- making matches ------------------------------------------------------------------------------


def test_making_matches_over_the_limit_answers_429_with_retry_after(app: Flask):
    phone = from_address(app, "192.0.2.1")
    for _ in range(3):
        assert phone.post("/api/v1/matches", json=NEW).status_code == 201
    refused_json(phone.post("/api/v1/matches", json=NEW), "/api/v1/matches")
    # Another address is not held back by the first one's count.
    assert from_address(app, "192.0.2.2").post("/api/v1/matches", json=NEW).status_code == 201


def test_the_refusal_is_said_in_the_phones_language(app: Flask):
    phone = from_address(app, "192.0.2.1")
    for _ in range(3):
        assert phone.post("/api/v1/matches", json=NEW).status_code == 201
    answer = phone.post("/api/v1/matches", json=NEW, headers={"Accept-Language": "ru"})
    assert answer.status_code == 429
    seconds = int(answer.headers["Retry-After"])
    assert answer.get_json()["error"]["message"].startswith("Слишком много запросов")
    assert f"через {seconds} секунд" in answer.get_json()["error"]["message"]
    page = phone.get("/new/barbu", headers={"Accept-Language": "fr"})
    assert page.status_code == 429 and "Trop de demandes depuis cette connexion" in page.text


def test_the_form_and_the_api_share_the_count_and_the_page_says_when_to_try_again(app: Flask):
    phone = from_address(app, "192.0.2.1")
    token = csrf_token(phone)
    assert phone.post("/api/v1/matches", json=NEW).status_code == 201
    for _ in range(2):
        assert form_match(phone, token).status_code == 302
    page = refused_page(form_match(phone, token))
    assert "Back to the start" in page
    refused_page(phone.get("/new/barbu"))  # said before the names are typed in, not after
    assert phone.post("/api/v1/matches", json=NEW).status_code == 429


def test_a_form_sent_back_with_a_mistake_does_not_count(app: Flask):
    phone = from_address(app, "192.0.2.1")
    token = csrf_token(phone)
    for _ in range(6):
        answer = phone.post("/new/barbu", data={"csrf_token": token, "players-0": "Ann"})
        assert answer.status_code == 422
        assert phone.post("/api/v1/matches", json={"game": "barbu", "players": ["Ann"]}).status_code == 422
    assert form_match(phone, token).status_code == 302


def test_restoring_backups_over_the_limit_answers_429(app: Flask):
    phone = from_address(app, "192.0.2.1")
    made = create_match(phone)
    backup = phone.get(api_url(made, "export")).get_json()
    token = csrf_token(phone, "/import")
    for _ in range(2):
        assert phone.post("/api/v1/matches/import", json=backup).status_code == 201
    refused_json(phone.post("/api/v1/matches/import", json=backup), "/api/v1/matches/import")
    upload = {"csrf_token": token,
              "document": (io.BytesIO(json.dumps(backup).encode()), "backup.json")}
    refused_page(phone.post("/import", data=upload, content_type="multipart/form-data"))


def test_pdf_renders_over_the_limit_answer_429_as_a_page_or_as_json_under_the_api(app: Flask):
    phone = from_address(app, "192.0.2.1")
    made = create_match(phone)
    assert phone.get("/sheets/barbu.pdf").status_code == 200
    assert phone.get(api_url(made, "sheet.pdf")).status_code == 200
    refused_page(phone.get("/sheets/kozyol.pdf?players=Ann,Bob,Cid,Dee"))
    refused_json(phone.get(api_url(made, "sheet.pdf")), "/api/v1/matches/{public_id}/sheet.pdf", "GET")
    # The print view in the browser renders no PDF and is not counted.
    assert phone.get("/sheets/barbu").status_code == 200
    assert from_address(app, "192.0.2.2").get("/sheets/barbu.pdf").status_code == 200


# -- wrong edit keys -------------------------------------------------------------------------------


def test_wrong_keys_from_one_address_answer_429_but_its_right_key_still_writes(app: Flask):
    made = create_match(from_address(app, "192.0.2.9"))
    guesser = from_address(app, "192.0.2.1")
    for _ in range(3):
        error_of(guesser.post(api_url(made, "hands"), json=FIRST_HAND, headers=bearer("guess")), 403)
    refused_json(guesser.post(api_url(made, "hands"), json=FIRST_HAND, headers=bearer("guess")),
                 "/api/v1/matches/{public_id}/hands")
    refused_json(guesser.delete(api_url(made, "hands", 1), headers=bearer("guess")),
                 "/api/v1/matches/{public_id}/hands/{number}", "DELETE")
    # A right key is never refused, whoever sends it, and never counted.
    answer = guesser.post(api_url(made, "hands"), json=FIRST_HAND, headers=bearer(made["edit_key"]))
    assert answer.status_code == 201, answer.get_json()
    # Without a key is not a wrong key: still the 401 that says a key is needed.
    error_of(from_address(app, "192.0.2.2").post(api_url(made, "hands"), json=FIRST_HAND), 401)


def test_a_locked_match_refuses_its_right_key_without_counting_it_but_counts_a_wrong_admin_key(app: Flask):
    """A table whose match its players agreed sends its own edit key: 403, the lock's sentence, never 429."""

    table = from_address(app, "192.0.2.30")
    match = finished_match(table, asking_club(app, table))
    agreed_by_two(app, match)
    for _ in range(6):
        refused = table.post(api_url(match, "hands"), json={"points": [60, 60]}, headers=bearer(match["edit_key"]))
        assert "locked" in error_of(refused, 403)["message"]
    guesser = from_address(app, "192.0.2.31")
    for _ in range(3):
        error_of(guesser.post(api_url(match, "hands"), json={"points": [60, 60]},
                              headers={**bearer(match["edit_key"]), "Club-Admin-Key": "guess"}), 403)
    refused_json(guesser.post(api_url(match, "hands"), json={"points": [60, 60]},
                              headers={**bearer(match["edit_key"]), "Club-Admin-Key": "guess"}),
                 "/api/v1/matches/{public_id}/hands")


def test_a_right_key_works_after_many_wrong_ones_from_other_addresses(app: Flask):
    made = create_match(from_address(app, "192.0.2.9"))
    for host in range(10, 15):  # five addresses, one wrong key each: the match's own limit
        error_of(from_address(app, f"192.0.2.{host}").post(api_url(made, "key"), headers=bearer("guess")), 403)
    refused_json(from_address(app, "192.0.2.20").post(api_url(made, "key"), headers=bearer("guess")),
                 "/api/v1/matches/{public_id}/key")
    table = from_address(app, "192.0.2.9")
    answer = table.post(api_url(made, "hands"), json=FIRST_HAND, headers=bearer(made["edit_key"]))
    assert answer.status_code == 201, answer.get_json()
    assert table.get(f"/m/{made['id']}/join?key={made['edit_key']}").status_code == 302
    # Another match is not held back by this one's count.
    other = create_match(table)
    error_of(from_address(app, "192.0.2.20").post(api_url(other, "key"), headers=bearer("guess")), 403)


def test_wrong_edit_links_answer_a_page_with_the_sentence_and_the_watch_link(app: Flask):
    made = create_match(from_address(app, "192.0.2.9"))
    phone = from_address(app, "192.0.2.1")
    for _ in range(3):
        assert phone.get(f"/m/{made['id']}/join?key=guess").status_code == 403
    page = refused_page(phone.get(f"/m/{made['id']}/join?key=guess"))
    assert f'href="/m/{made["id"]}"' in page
    assert phone.get(f"/m/{made['id']}/join?key={made['edit_key']}").status_code == 302


# -- the client's address behind a proxy -----------------------------------------------------------


def test_behind_a_proxy_each_phone_counts_by_the_address_the_proxy_saw(limited: Callable[..., Flask]):
    proxied = limited(PROXIES=1)
    proxy = from_address(proxied, "127.0.0.1")
    for _ in range(3):
        assert proxy.post("/api/v1/matches", json=NEW, headers={"X-Forwarded-For": "192.0.2.1"}).status_code == 201
    refused_json(proxy.post("/api/v1/matches", json=NEW, headers={"X-Forwarded-For": "192.0.2.1"}), "/api/v1/matches")
    assert proxy.post("/api/v1/matches", json=NEW, headers={"X-Forwarded-For": "192.0.2.2"}).status_code == 201


def test_without_the_proxy_setting_a_forged_forwarded_for_header_dodges_nothing(app: Flask):
    phone = from_address(app, "192.0.2.1")
    for n in range(3):
        assert phone.post("/api/v1/matches", json=NEW, headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code == 201
    refused_json(phone.post("/api/v1/matches", json=NEW, headers={"X-Forwarded-For": "198.51.100.9"}),
                 "/api/v1/matches")


# -- the workers of one machine ------------------------------------------------------------------------


def test_apps_sharing_an_instance_folder_count_together_by_default(limited: Callable[..., Flask]):
    """Two workers of one machine, no storage set: what either counts, both do."""
    one, two = from_address(limited(), "192.0.2.1"), from_address(limited(), "192.0.2.1")
    for phone in (one, two, one):
        assert phone.post("/api/v1/matches", json=NEW).status_code == 201
    refused_json(two.post("/api/v1/matches", json=NEW), "/api/v1/matches")
    refused_json(one.post("/api/v1/matches", json=NEW), "/api/v1/matches")
    made = create_match(from_address(one.application, "192.0.2.9"))
    wrong = [phone.post(api_url(made, "hands"), json=FIRST_HAND, headers=bearer("guess")).status_code
             for phone in (two, one, two, one)]
    assert wrong == [403, 403, 403, 429]


def test_memory_named_as_the_store_counts_in_each_process_alone(limited: Callable[..., Flask]):
    one, two = (from_address(limited(RATELIMIT_STORAGE_URI="memory://"), "192.0.2.1") for _ in range(2))
    for _ in range(3):
        assert one.post("/api/v1/matches", json=NEW).status_code == 201
    assert one.post("/api/v1/matches", json=NEW).status_code == 429
    assert two.post("/api/v1/matches", json=NEW).status_code == 201


def test_a_count_file_held_by_another_writer_leaves_the_table_playing(limited: Callable[..., Flask]):
    app = limited()
    phone = from_address(app, "192.0.2.1")
    made = create_match(phone)
    holder = sqlite3.connect(Path(app.instance_path) / FILE, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # as a backup program or a stuck process might
    try:
        for _ in range(4):
            assert phone.post("/api/v1/matches", json=NEW).status_code == 201
            error_of(phone.post(api_url(made, "hands"), json=FIRST_HAND, headers=bearer("guess")), 403)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # Counted again once the file is free: the match made before the lock and these two.
    assert [phone.post("/api/v1/matches", json=NEW).status_code for _ in range(3)] == [201, 201, 429]


# -- a shared store ------------------------------------------------------------------------------------


def test_a_store_that_does_not_answer_leaves_the_table_playing(limited: Callable[..., Flask]):
    unreachable = limited(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}/0")
    phone = from_address(unreachable, "192.0.2.1")
    for _ in range(5):
        made = phone.post("/api/v1/matches", json=NEW)
        assert made.status_code == 201
    error_of(phone.post(api_url(made.get_json(), "hands"), json=FIRST_HAND, headers=bearer("guess")), 403)
    assert phone.get("/sheets/barbu.pdf").status_code == 200


@pytest.fixture(scope="module")
def servers(redis_url: str, tmp_path_factory, database: str) -> Iterator[tuple[Server, Server]]:
    """Two production servers (two workers each) counting in one Redis, under a key prefix of their own."""
    prefix = f"scorekeeper-test-{uuid.uuid4().hex}"
    with two_servers(tmp_path_factory.mktemp("limits-two-servers"), "limits",
                     SCOREKEEPER_RATELIMIT_STORAGE_URI=redis_url, SCOREKEEPER_RATELIMIT_KEY_PREFIX=prefix,
                     **{f"SCOREKEEPER_{name}": value for name, value in LOW.items()}) as pair:
        yield pair


def test_two_servers_share_their_counts_through_redis(servers: tuple[Server, Server]):
    one, two = servers
    made = [one.call("POST", "/api/v1/matches", NEW), two.call("POST", "/api/v1/matches", NEW),
            one.call("POST", "/api/v1/matches", NEW)]
    assert [status for status, _, _ in made] == [201, 201, 201]
    status, headers, body = two.call("POST", "/api/v1/matches", NEW)
    assert status == 429 and 1 <= int(headers["Retry-After"]) <= 60
    assert json.loads(body)["error"]["message"].startswith(TOO_MANY)
    match = json.loads(made[0][2])
    path = f"/api/v1/matches/{match['id']}/hands"
    wrong = [server.call("POST", path, FIRST_HAND, bearer("guess"))[0] for server in (one, two, one, two)]
    assert wrong == [403, 403, 403, 429]
    assert one.call("POST", path, FIRST_HAND, bearer(match["edit_key"]))[0] == 201


def test_a_mistyped_limit_stops_the_start(limited: Callable[..., Flask]):
    with pytest.raises(ValueError, match="30 a minute"):
        limited(RATELIMIT_PDFS="30 a minute")


def test_a_clock_set_back_an_hour_makes_nobody_wait_an_hour(app: Flask, monkeypatch):
    """The window is a minute of the machine's monotonic clock: the wall clock set back an hour after it began
    leaves Retry-After under a minute, and the window ends a minute after it began."""
    phone = from_address(app, "192.0.2.1")
    for _ in range(3):
        assert phone.post("/api/v1/matches", json=NEW).status_code == 201
    wall, steady = time.time(), time.monotonic()
    moved = SimpleNamespace(time=lambda: wall - 3600, monotonic=lambda: steady)
    for module in (counts, rate_limits):
        monkeypatch.setattr(module, "time", moved)
    refused_json(phone.post("/api/v1/matches", json=NEW), "/api/v1/matches")  # Retry-After 1 to 60
    moved.monotonic = lambda: steady + 61
    assert phone.post("/api/v1/matches", json=NEW).status_code == 201


# -- what the limiter costs where no limit applies ----------------------------------------------------


def test_the_limiter_looks_at_limited_requests_only(app: Flask, monkeypatch):
    """The poll, the pages and static files go past the limiter; a PDF or a new match is still counted."""
    from flask_limiter import Limiter

    checked: list[str] = []
    real = Limiter._check_request_limit

    def spy(self, *args, **kwargs):
        from flask import request

        checked.append(request.endpoint)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Limiter, "_check_request_limit", spy)
    phone = from_address(app, "192.0.2.9")
    match = create_match(phone)
    assert checked == ["api.create"]
    checked.clear()
    tag = phone.get(api_url(match)).headers["ETag"]
    assert phone.get(api_url(match), headers={"If-None-Match": tag}).status_code == 304
    assert phone.get(f"/m/{match['id']}").status_code == 200
    with phone.get("/static/style.css") as style:
        assert style.status_code == 200
    assert checked == []
    for _ in range(2):
        assert phone.get(api_url(match, "sheet.pdf")).status_code == 200
    assert phone.get(api_url(match, "sheet.pdf")).status_code == 429  # RATELIMIT_PDFS: 2 per minute
    assert checked == ["sheets.match_pdf"] * 3
