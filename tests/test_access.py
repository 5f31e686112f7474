"""Access without accounts: edit keys, join and watch links, CSRF, security headers, escaping."""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
import subprocess
from datetime import datetime, timedelta
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, select, text
from wtforms.csrf.session import SessionCSRF

from helpers.api import bearer, create_match
from helpers.forms import TOKEN, csrf_token, post_form
from helpers.matches import PLAYERS
from scorekeeper.db import db
from scorekeeper.games import GAMES
from scorekeeper.models import Match

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
HOSTILE = {
    "barbu": [SCRIPT, IMG, "Bob & 'Co'", "</td><b>Dee"],
    "kozyol": [SCRIPT, IMG, "Bob & 'Co'", "</td><b>Dee"],
    "hearts": [SCRIPT, IMG, "Bob & 'Co'", "</td><b>Dee", "{{ 7 * 7 }}", "Fay"],
}
ENTRIES = {
    "barbu": lambda p: {"contract": "no_tricks", "tricks": {p[0]: 4, p[1]: 3, p[2]: 5, p[3]: 1},
                        "doubles": [{"by": p[1], "target": p[0], "redoubled": True}]},
    "kozyol": lambda p: {"points": [75, 45], "last_trick": p[1]},
    "hearts": lambda p: {"hearts": dict(zip(p, [5, 4, 3, 6, 8, 0])), "black_marias": dict(zip(p, [1, 0, 0, 0, 1, 0]))},
}
SAFE_REFERRER_POLICIES = {"no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"}


# -- helpers -------------------------------------------------------------------------------


def new(client: FlaskClient, game: str = "barbu", players: list[str] | None = None) -> dict[str, Any]:
    """A match over the API; in Barbu the first player declares first, so ENTRIES' double is legal."""
    players = players or PLAYERS
    return create_match(client, game, players, {"first_declarer": players[0]} if game == "barbu" else None)


def join(client: FlaskClient, made: dict[str, Any]) -> None:
    """Open the edit link on this phone."""
    answer = client.get(made["edit_url"])
    assert answer.status_code == 302, answer.text


def hands_url(made: dict[str, Any]) -> str:
    return f"/api/v1/matches/{made['id']}/hands"


def can_enter_hands(client: FlaskClient, match_id: str) -> bool:
    status = client.get(f"/m/{match_id}/hands/new").status_code
    assert status in (200, 403)
    return status == 200


def all_rows_as_text(app: Flask) -> str:
    """Every value of every row of every table of the database, as one string."""
    with app.app_context():
        chunks = []
        for table in inspect(db.engine).get_table_names():
            for row in db.session.execute(text(f'SELECT * FROM "{table}"')):
                chunks.extend(str(value) for value in row)
        return "\n".join(chunks)


def directives(policy: str) -> dict[str, list[str]]:
    """A Content-Security-Policy as {directive: [sources]}."""
    found: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            found[words[0].lower()] = words[1:]
    return found


def assert_secure(response, where: str) -> None:
    headers = response.headers
    assert headers.get("X-Content-Type-Options") == "nosniff", where
    assert headers.get("Referrer-Policy") in SAFE_REFERRER_POLICIES, where
    policy = headers.get("Content-Security-Policy", "")
    assert policy, where
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, where
    csp = directives(policy)
    script = csp.get("script-src", csp.get("default-src"))
    assert script and all(source in ("'self'", "'none'") for source in script), where
    assert csp.get("object-src") == ["'none'"], where
    assert csp.get("frame-ancestors") == ["'none'"] or headers.get("X-Frame-Options") == "DENY", where
    assert headers.get("X-Frame-Options") in ("DENY", "SAMEORIGIN"), where


# -- edit keys -------------------------------------------------------------------------------


def test_edit_keys_carry_at_least_128_random_bits(client):
    keys = [new(client)["edit_key"] for _ in range(40)]
    assert len(set(keys)) == len(keys)
    for key in keys:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", key)
        assert len(base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))) * 8 >= 128
    # Random, not a counter or a time stamp: every position takes many values across the keys.
    for position in range(len(keys[0])):
        assert len({key[position] for key in keys}) >= 10
    ids = [new(client)["id"] for _ in range(10)]
    assert all(len(base64.urlsafe_b64decode(pid + "=" * (-len(pid) % 4))) * 8 >= 128 for pid in ids)


def test_only_a_hash_of_the_key_is_stored(app, client):
    made = new(client)
    key = made["edit_key"]
    client.post(hands_url(made), json=ENTRIES["barbu"](PLAYERS), headers=bearer(key))
    join(client, made)
    stored = all_rows_as_text(app)
    assert made["id"] in stored  # the dump does see the match
    assert key not in stored
    with app.app_context():
        stored_hash = db.session.scalar(select(Match.edit_key_hash).where(Match.public_id == made["id"]))
    assert stored_hash != key and len(stored_hash) == 64
    # Neither the key nor its hash leaves through the read API, the history or the backup.
    for url in (f"/api/v1/matches/{made['id']}", f"/api/v1/matches/{made['id']}/history",
                f"/api/v1/matches/{made['id']}/export", f"/m/{made['id']}/export.json"):
        body = client.get(url).get_data(as_text=True)
        assert key not in body and stored_hash not in body, url


def test_writes_need_the_key(client):
    made = new(client)
    entry = ENTRIES["barbu"](PLAYERS)
    assert client.post(hands_url(made), json=entry).status_code == 401
    assert client.post(hands_url(made), json=entry, headers=bearer("x" * 32)).status_code == 403
    assert client.post(hands_url(made), json=entry, headers={"Authorization": made["edit_key"]}).status_code == 401
    assert client.post(hands_url(made), json=entry, headers=bearer(made["edit_key"])).status_code == 201
    for method, url in (("put", f"{hands_url(made)}/1"), ("delete", f"{hands_url(made)}/1"),
                        ("post", f"/api/v1/matches/{made['id']}/key")):
        answer = getattr(client, method)(url, json=entry, headers=bearer(made["edit_key"][:-1]))
        assert answer.status_code == 403 and answer.get_json()["error"]["message"]


def test_rotating_the_key_over_the_api_cuts_off_old_links_and_keys(client):
    made = new(client)
    old_key, old_link = made["edit_key"], made["edit_url"]
    phone = client.application.test_client()
    join(phone, made)
    assert can_enter_hands(phone, made["id"])

    rotated = client.post(f"/api/v1/matches/{made['id']}/key", headers=bearer(old_key))
    assert rotated.status_code == 200
    new_key = rotated.get_json()["edit_key"]
    assert new_key != old_key and len(new_key) >= len(old_key)

    entry = ENTRIES["barbu"](PLAYERS)
    assert client.post(hands_url(made), json=entry, headers=bearer(old_key)).status_code == 403
    assert client.post(f"/api/v1/matches/{made['id']}/key", headers=bearer(old_key)).status_code == 403
    assert client.application.test_client().get(old_link).status_code == 403
    assert not can_enter_hands(phone, made["id"])  # a phone that joined with the old link is cut off
    assert client.post(hands_url(made), json=entry, headers=bearer(new_key)).status_code == 201
    join(phone, {"edit_url": rotated.get_json()["edit_url"]})
    assert can_enter_hands(phone, made["id"])


def test_rotating_the_key_in_the_browser_keeps_this_phone_and_cuts_off_the_others(client):
    made = new(client)
    mine, theirs = client.application.test_client(), client.application.test_client()
    join(mine, made)
    join(theirs, made)
    page = mine.get(f"/m/{made['id']}").text
    assert f'action="/m/{made["id"]}/key"' in page

    asked = post_form(mine, f"/m/{made['id']}/key", {}, token_from=f"/m/{made['id']}")
    assert asked.status_code == 302, "one tap asks first"
    confirm = mine.get(asked.headers["Location"]).text
    assert "loses access" in confirm and can_enter_hands(theirs, made["id"])
    answer = post_form(mine, f"/m/{made['id']}/key", {"confirm": "yes"}, token_from=f"/m/{made['id']}/key")
    assert answer.status_code == 302
    assert "Old edit links no longer work" in mine.get(answer.headers["Location"]).text
    assert can_enter_hands(mine, made["id"])
    assert not can_enter_hands(theirs, made["id"])
    assert client.application.test_client().get(made["edit_url"]).status_code == 403
    assert client.post(hands_url(made), json=ENTRIES["barbu"](PLAYERS),
                       headers=bearer(made["edit_key"])).status_code == 403
    # The new link shown on this phone's page works on a third phone.
    new_link = html.unescape(re.search(r'id="edit-link"[^>]*value="([^"]+)"', mine.get(f"/m/{made['id']}").text)[1])
    assert new_link != made["edit_url"]
    third = client.application.test_client()
    join(third, {"edit_url": new_link})
    assert can_enter_hands(third, made["id"])


def test_rotating_needs_the_key_and_a_csrf_token(client):
    made = new(client)
    watcher = client.application.test_client()
    assert watcher.post(f"/m/{made['id']}/key", data={"csrf_token": csrf_token(watcher)}).status_code == 403
    join(client, made)
    answer = client.post(f"/m/{made['id']}/key", data={})
    assert answer.status_code == 302
    assert "open too long" in client.get(answer.headers["Location"]).text
    # Nothing changed: the old key still writes.
    assert client.post(hands_url(made), json=ENTRIES["barbu"](PLAYERS),
                       headers=bearer(made["edit_key"])).status_code == 201


# -- join and watch links ------------------------------------------------------------------


def test_the_edit_link_keeps_the_key_on_the_phone_and_drops_it_from_the_address(client):
    made = new(client)
    assert f"key={made['edit_key']}" in made["edit_url"]
    answer = client.get(made["edit_url"])
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/m/{made['id']}"
    assert made["edit_key"] not in answer.headers["Location"]
    with client.session_transaction() as session:
        assert session["keys"][made["id"]] == made["edit_key"]
    page = client.get(answer.headers["Location"])
    assert page.status_code == 200
    assert f"/m/{made['id']}/hands/new" in page.text
    assert can_enter_hands(client, made["id"])


def test_a_wrong_or_missing_key_in_the_link_is_refused_and_stores_nothing(client):
    made = new(client)
    for url in (f"/m/{made['id']}/join", f"/m/{made['id']}/join?key=", f"/m/{made['id']}/join?key=nope",
                f"/m/{made['id']}/join?key={made['edit_key']}x"):
        assert client.get(url).status_code == 403, url
    with client.session_transaction() as session:
        assert made["id"] not in session.get("keys", {})
    assert client.get(f"/m/unknown/join?key={made['edit_key']}").status_code == 404


def test_the_watch_link_is_read_only(client):
    made = new(client)
    client.post(hands_url(made), json=ENTRIES["barbu"](PLAYERS), headers=bearer(made["edit_key"]))
    watcher = client.application.test_client()
    page = watcher.get(f"/m/{made['id']}")
    assert page.status_code == 200
    assert made["edit_key"] not in page.text
    assert "/hands/new" not in page.text and "/undo" not in page.text and 'id="edit-link"' not in page.text
    assert "You are watching" in page.text
    token = csrf_token(watcher)
    for url in (f"/m/{made['id']}/hands/new", f"/m/{made['id']}/hands/1", f"/m/{made['id']}/hands/new?variant=no_queens"):
        assert watcher.get(url).status_code == 403, url
        assert watcher.post(url, data={"csrf_token": token}).status_code == 403, url
    assert watcher.post(f"/m/{made['id']}/hands/1/undo", data={"csrf_token": token}).status_code == 403
    assert watcher.post(f"/m/{made['id']}/key", data={"csrf_token": token}).status_code == 403
    assert watcher.get(f"/m/{made['id']}/qr/edit.svg").status_code == 403
    assert len(watcher.get(f"/api/v1/matches/{made['id']}").get_json()["hands"]) == 1


def test_reading_needs_the_exact_id(client):
    made = new(client)
    pid = made["id"]
    for wrong in (pid[:-1], pid + "x", pid.upper() if pid.upper() != pid else pid.lower(), "1", "%25", "..%2F"):
        assert client.get(f"/api/v1/matches/{wrong}").status_code == 404, wrong
        assert client.get(f"/m/{wrong}").status_code == 404, wrong
    assert client.get("/api/v1/matches/1").get_json()["error"]["message"]


# -- no listing of other people's matches ----------------------------------------------------


def test_there_is_no_list_of_matches_in_the_api(client):
    made = new(client)
    answer = client.get("/api/v1/matches")
    assert answer.status_code == 405
    assert answer.mimetype == "application/json" and answer.get_json()["error"]["message"]
    for url in ("/api/v1/", "/api/v1/matches/", "/api/v1/matches?all=1"):
        answer = client.get(url)
        assert answer.status_code in (404, 405), url
        assert made["id"] not in answer.get_data(as_text=True)


def test_the_home_page_shows_only_this_phones_matches(client):
    theirs = client.application.test_client()
    made = new(theirs, players=["Ada", "Ben", "Cal", "Dot"])
    answer = post_form(client, "/new/barbu", {f"players-{seat}": name for seat, name in enumerate(PLAYERS)})
    assert answer.status_code == 302
    mine = answer.headers["Location"].rsplit("/", 1)[1]
    home = client.get("/").text
    assert mine in home
    assert made["id"] not in home and "Ada" not in home
    # A fresh phone sees nobody's matches.
    fresh = client.application.test_client().get("/").text
    assert mine not in fresh and made["id"] not in fresh and "Ann" not in fresh


def test_no_page_without_a_match_id_shows_any_match(app, client):
    made = new(client)
    stranger = app.test_client()
    checked = 0
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static" or not set(rule.arguments) <= {"game"}:
            continue
        for game in (GAMES if "game" in rule.arguments else [None]):
            url = rule.build({"game": game} if game else {})[1]
            answer = stranger.get(url)
            assert answer.status_code != 500, url
            assert made["id"].encode() not in answer.get_data(), url  # a PDF, an icon or a page
            answer.close()
            checked += 1
    assert checked >= 3


# -- CSRF ----------------------------------------------------------------------------------


@pytest.fixture
def clock(monkeypatch) -> list[datetime]:
    """Stop the time WTForms' session CSRF reads; move it by changing clock[0]."""
    now = [datetime(2026, 12, 31, 19, 0, 0)]
    monkeypatch.setattr(SessionCSRF, "now", lambda self: now[0])
    return now


def new_match_data() -> dict[str, str]:
    return {f"players-{seat}": name for seat, name in enumerate(PLAYERS)}


def test_the_csrf_token_lasts_a_whole_evening(client, clock):
    assert client.application.config["CSRF_TIME_LIMIT"] >= timedelta(hours=12)
    token = csrf_token(client)
    clock[0] += timedelta(hours=13)
    answer = client.post("/new/barbu", data={"csrf_token": token, **new_match_data()})
    assert answer.status_code == 302, answer.text
    # The undo button of a match page opened at the start of the evening still works late at night.
    made = new(client)
    join(client, made)
    client.post(hands_url(made), json=ENTRIES["barbu"](PLAYERS), headers=bearer(made["edit_key"]))
    page_token = TOKEN.search(client.get(f"/m/{made['id']}").text)[1]
    clock[0] += timedelta(hours=13)
    client.post(f"/m/{made['id']}/hands/1/undo", data={"csrf_token": page_token})
    assert client.get(f"/api/v1/matches/{made['id']}").get_json()["hands"] == []


def test_a_token_from_a_day_ago_is_refused_with_the_reason(client, clock):
    token = csrf_token(client)
    clock[0] += timedelta(hours=30)
    answer = client.post("/new/barbu", data={"csrf_token": token, **new_match_data()})
    assert answer.status_code == 422
    assert "open too long" in answer.text
    assert TOKEN.search(answer.text)[1] != token  # a fresh token to send it again
    assert client.post("/new/barbu", data={"csrf_token": TOKEN.search(answer.text)[1],
                                           **new_match_data()}).status_code == 302


@pytest.mark.parametrize("token", [None, "", "garbage", "20991231235959##" + "0" * 40, "##", "x##y"])
def test_a_missing_or_forged_token_is_refused(client, token):
    csrf_token(client)  # the session has a CSRF secret, as after opening any page
    data = new_match_data() if token is None else {"csrf_token": token, **new_match_data()}
    answer = client.post("/new/barbu", data=data)
    assert answer.status_code == 422
    assert "open too long" in answer.text
    fresh = client.application.test_client()
    assert fresh.post("/new/barbu", data=data).status_code == 422
    assert client.get("/").text.count("/m/") == 0  # nothing was created


def test_a_token_of_another_phone_is_refused(client):
    other = client.application.test_client()
    answer = client.post("/new/barbu", data={"csrf_token": csrf_token(other), **new_match_data()})
    assert answer.status_code == 422


def test_an_import_and_an_undo_without_a_token_do_nothing(client):
    made = new(client)
    join(client, made)
    client.post(hands_url(made), json=ENTRIES["barbu"](PLAYERS), headers=bearer(made["edit_key"]))
    client.post(f"/m/{made['id']}/hands/1/undo", data={})
    assert len(client.get(f"/api/v1/matches/{made['id']}").get_json()["hands"]) == 1
    document = client.get(f"/m/{made['id']}/export.json").data
    answer = client.post("/import", data={"document": (BytesIO(document), "backup.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 422 and "open too long" in answer.text


# -- security headers ----------------------------------------------------------------------


def sheet_games() -> list[str]:
    return [game for game in GAMES if (TEMPLATES / "games" / game / "sheet.html").exists()]


def test_security_headers_on_pages_api_errors_static_files_and_pdfs(app, client):
    @app.get("/_crash")
    def crash():
        raise RuntimeError("boom")

    @app.get("/api/v1/_crash")
    def api_crash():
        raise RuntimeError("boom")

    made = new(client)
    pid = made["id"]
    client.post(hands_url(made), json=ENTRIES["barbu"](PLAYERS), headers=bearer(made["edit_key"]))
    join(client, made)
    etag = client.get(f"/api/v1/matches/{pid}").headers["ETag"]
    answers = {
        "home": client.get("/"),
        "new match": client.get("/new/barbu"),
        "refused form": client.post("/new/barbu", data={}),
        "match": client.get(f"/m/{pid}"),
        "hand form": client.get(f"/m/{pid}/hands/new?variant=no_queens"),
        "contract choice": client.get(f"/m/{pid}/hands/new"),
        "history": client.get(f"/m/{pid}/history"),
        "import": client.get("/import"),
        "backup": client.get(f"/m/{pid}/export.json"),
        "join redirect": client.get(made["edit_url"]),
        "api state": client.get(f"/api/v1/matches/{pid}"),
        "api 304": client.get(f"/api/v1/matches/{pid}", headers={"If-None-Match": etag}),
        "api created": client.post("/api/v1/matches", json={"game": "barbu", "players": PLAYERS}),
        "api 400": client.post("/api/v1/matches", data="not json", content_type="application/json"),
        "api 415": client.post("/api/v1/matches", data="{}", content_type="text/plain"),
        "api 401": client.post(hands_url(made), json={}),
        "api 404": client.get("/api/v1/matches/nope"),
        "api 405": client.get("/api/v1/matches"),
        "api 422": client.post("/api/v1/matches", json={"game": "chess"}),
        "page 404": client.get("/m/nope"),
        "page 403": client.application.test_client().get(f"/m/{pid}/hands/new"),
        "page 405": client.post("/"),
        "page 500": client.get("/_crash"),
        "api 500": client.get("/api/v1/_crash"),
        "style sheet": client.get("/static/style.css"),
        "script": client.get("/static/js/main.js"),
        "missing static file": client.get("/static/nope.js"),
    }
    for game in sheet_games():
        made = create_match(client, game=game, players=[*PLAYERS, "Eve", "Fay"][:GAMES[game].min_players])
        answers[f"{game} sheet pdf"] = client.get(f"/api/v1/matches/{made['id']}/sheet.pdf")
        answers[f"{game} blank pdf"] = client.get(f"/sheets/{game}.pdf")
    assert answers["api 304"].status_code == 304
    assert answers["page 500"].status_code == 500 and "boom" not in answers["page 500"].text
    assert answers["api 500"].get_json()["error"]["message"]
    for name, answer in answers.items():
        assert answer.status_code != 500 or name.endswith("500"), name
        assert_secure(answer, name)
        answer.close()  # static files are streamed from an open file
    pdfs = [answer for name, answer in answers.items() if name.endswith("pdf")]
    assert pdfs and all(answer.status_code == 200 and answer.data.startswith(b"%PDF") for answer in pdfs)


# Templates only ever laid out as PDF by WeasyPrint, never sent to a browser (no Content-Security-Policy applies):
# the readable sheet places each bubble, marker and box at the millimetre its layout gives, with a style attribute.
PDF_ONLY = {"sheets/paper.html"}


def test_the_pdf_only_templates_are_never_sent_as_a_page():
    for name in PDF_ONLY:
        users = [path for path in ROOT.joinpath("scorekeeper").rglob("*.py") if f'"{name}"' in path.read_text()]
        assert users, name
        for path in users:  # each hands it to sheets.printed, which lays it out as PDF, never render_template
            source = path.read_text()
            assert not re.search(rf'render_template\(\s*"{re.escape(name)}"', source), path
            assert re.search(rf'\(\s*"{re.escape(name)}",', source) and "sheets.printed(" in source, path


def test_templates_have_no_inline_script_handler_or_style():
    templates = sorted(TEMPLATES.rglob("*.html"))
    assert len(templates) > 10
    for path in templates:
        source = path.read_text()
        name = str(path.relative_to(TEMPLATES))
        if name in PDF_ONLY:
            assert "<script" not in source.lower() and "javascript:" not in source.lower(), name
            continue
        for attributes, body in re.findall(r"<script\b([^>]*)>(.*?)</script\s*>", source, flags=re.S | re.I):
            assert "src=" in attributes and not body.strip(), f"inline script in {name}"
        assert len(re.findall(r"<script\b", source, flags=re.I)) == len(
            re.findall(r"<script\b[^>]*>.*?</script\s*>", source, flags=re.S | re.I)), name
        assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", source, flags=re.S | re.I), f"event handler in {name}"
        assert not re.search(r"<[a-z][^>]*\sstyle\s*=", source, flags=re.S | re.I), f"style attribute in {name}"
        assert not re.search(r"<style\b", source, flags=re.I), f"style element in {name}"
        assert "javascript:" not in source.lower(), name


def test_the_policy_itself(client):
    csp = directives(client.get("/").headers["Content-Security-Policy"])
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"]
    assert csp["base-uri"] == ["'none'"]
    assert csp["form-action"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"]


# -- escaping ------------------------------------------------------------------------------


def hostile_match(client: FlaskClient, game: str) -> dict[str, Any]:
    """A match of hostile names with one hand, joined by this phone."""
    made = new(client, game, HOSTILE[game])
    answer = client.post(hands_url(made), json=ENTRIES[game](HOSTILE[game]), headers=bearer(made["edit_key"]))
    assert answer.status_code == 201, answer.get_json()
    assert client.post(hands_url(made), json={"nonsense": SCRIPT, "last_trick": IMG, "contract": IMG},
                       headers=bearer(made["edit_key"])).status_code == 422
    join(client, made)
    return made


def assert_escaped(body: str, where: str) -> None:
    assert SCRIPT not in body, where
    assert "<img src=x" not in body, where
    assert "<b>Dee" not in body, where


def page_urls(app: Flask, made: dict[str, Any], game: str) -> list[str]:
    """Every page of a match: each GET route filled in with this match, plus the hand forms."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint in ("static", "pages.join") or "public_id" not in rule.arguments:
            continue
        if rule.rule.startswith("/c/"):  # a club's page: its public_id is a club's id
            continue
        if "photo_id" in rule.arguments:  # a photo of a paper sheet read back: tests/test_paper_web.py, hostile names too
            continue
        values = {"public_id": made["id"], "number": 1, "game": game, "kind": "watch"}
        url = rule.build({name: values[name] for name in rule.arguments})[1]
        urls.append(url)
    if game == "barbu":
        urls.extend(f"/m/{made['id']}/hands/new?variant={contract}" for contract in
                    ("no_queens", "no_hearts", "no_last_two", "barbu", "trumps", "dominoes"))
        urls.append(f"/m/{made['id']}/hands/1?variant=")
    return urls


@pytest.mark.parametrize("game", list(GAMES))
def test_hostile_player_names_are_escaped_on_every_page(app, client, game):
    made = hostile_match(client, game)
    seen = 0
    for url in ["/", *page_urls(app, made, game)]:
        answer = client.get(url)
        assert answer.status_code in (200, 302), (url, answer.status_code)
        if answer.mimetype == "text/html":
            assert_escaped(answer.text, url)
            seen += html.escape(SCRIPT, quote=False) in answer.text
        elif answer.mimetype == "application/json":
            assert json.dumps(answer.get_json())  # well-formed
    assert seen >= 4
    page = client.get(f"/m/{made['id']}").text
    assert "{{ 7 * 7 }}" in page or game != "hearts"


@pytest.mark.parametrize("game", list(GAMES))
def test_hostile_names_come_back_unchanged_as_json(client, game):
    made = hostile_match(client, game)
    for url in (f"/api/v1/matches/{made['id']}", f"/api/v1/matches/{made['id']}/export", f"/m/{made['id']}/export.json"):
        answer = client.get(url)
        assert answer.mimetype == "application/json", url
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.get_json()["players"] == HOSTILE[game], url
    history = client.get(f"/api/v1/matches/{made['id']}/history").get_json()["changes"]
    assert history[0]["after"] == client.get(f"/api/v1/matches/{made['id']}").get_json()["hands"][0]["entry"]


def test_hostile_names_typed_into_the_new_match_form_are_escaped_when_it_comes_back(client):
    names = [SCRIPT, IMG, IMG, "</td><b>Dee"]  # the same name twice: the form comes back
    answer = post_form(client, "/new/barbu", {f"players-{seat}": name for seat, name in enumerate(names)})
    assert answer.status_code == 422
    assert_escaped(answer.text, "new match")
    assert html.escape(IMG) in answer.text or html.escape(IMG).replace("&quot;", "&#34;") in answer.text


def test_hostile_names_on_a_blank_sheet_are_escaped(client):
    names = ",".join(HOSTILE["barbu"])
    answer = client.get("/sheets/barbu", query_string={"players": names})
    assert answer.status_code == 200
    assert_escaped(answer.text, "blank sheet")


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
@pytest.mark.parametrize("game", sheet_games())
def test_hostile_names_are_printed_as_text_on_the_pdf(client, game, tmp_path):
    made = hostile_match(client, game)
    answer = client.get(f"/api/v1/matches/{made['id']}/sheet.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    (tmp_path / "sheet.pdf").write_bytes(answer.data)
    printed = subprocess.run(["pdftotext", "-raw", str(tmp_path / "sheet.pdf"), "-"], capture_output=True,
                             text=True, check=True).stdout
    squeezed = "".join(printed.split())
    # Markup in a name would have become an element and vanished from the page; as text it is printed.
    assert "<script>alert(1)</script>" in squeezed
    assert "<imgsrc=xonerror=alert(1)>" in squeezed
