"""Bounded matches and bounded numbers: every way in refuses what no table plays, and nothing stored breaks a page.

Kozyol (eggs for ever) and Hearts (moons taken off the shooter) never have to end, so every game
has a limit on hands (docs/rules.md, "How long a match can last"); every number a match takes has
a range. Recording (API and form), restoring a backup and the pages are checked here; the rules
themselves are pinned in the engine tests.
"""

from __future__ import annotations

import html
import json
import re
from io import BytesIO
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import api_url, create_match, error_of, play, post_hand, read
from helpers.forms import post_form
from helpers.matches import PLAYERS
from scorekeeper.db import db
from scorekeeper.models import Hand, HandChange, Match
from scorekeeper.web.sheets.charts import running_totals_svg

ANN, BOB, CID, DEE = PLAYERS
SIX = [*PLAYERS, "Eve", "Fay"]
EGGS = {"points": [60, 60]}
HUGE = 10 ** 310  # what a probe sent: accepted once, then every page of the match failed
LIMIT_SENTENCE = "This match has reached the limit of 200 hands; no more can be recorded."


def text(answer) -> str:
    return html.unescape(answer.get_data(as_text=True))


def backup(game: str, players: list[str], options: dict[str, Any], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": "scorekeeper-match", "format_version": 1, "game": game, "players": players,
            "options": options, "language": None, "hands": hands}


def restored(client: FlaskClient, document: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/v1/matches/import", json=document)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def joined(client: FlaskClient, made: dict[str, Any]) -> dict[str, Any]:
    """Open the match's edit link on this phone, as a player at the table does."""
    assert client.get(made["edit_url"]).status_code == 302
    return made


# -- a match has a limit on hands ---------------------------------------------------------------


@pytest.fixture
def eggs_for_ever(client: FlaskClient) -> dict[str, Any]:
    """A Kozyol series of 200 deals of eggs, brought back from a backup: nobody loses, it never ends."""
    return joined(client, restored(client, backup("kozyol", PLAYERS, {}, [EGGS] * 200)))


def test_a_series_at_its_limit_takes_no_more_deals_over_the_api(client, eggs_for_ever):
    state = eggs_for_ever
    assert (len(state["hands"]), state["finished"], state["next"], state["max_hands"]) == (200, False, None, 200)
    err = error_of(post_hand(client, state, {"points": [75, 45]}), 409)
    assert err["message"] == LIMIT_SENTENCE
    err = error_of(post_hand(client, state, {"points": [75, 45], "number": 201}), 409)
    assert err["message"] == LIMIT_SENTENCE
    assert len(read(client, state)["hands"]) == 200


def test_a_series_at_its_limit_says_so_in_place_of_the_next_deal(client, eggs_for_ever):
    page = text(client.get(f"/m/{eggs_for_ever['id']}"))
    assert "This match has reached the limit of 200 hands: no more can be entered." in page
    assert "Enter deal" not in page and "Series over" not in page
    assert "This match has reached the limit of 200 hands: no more can be entered." in text(
        client.get(f"/m/{eggs_for_ever['id']}/table"))
    opened = client.get(f"/m/{eggs_for_ever['id']}/hands/new")
    assert opened.status_code == 302
    assert LIMIT_SENTENCE in text(client.get(opened.headers["Location"]))


def test_a_deal_form_sent_at_the_limit_is_refused_with_the_sentence(client, eggs_for_ever):
    answer = post_form(client, f"/m/{eggs_for_ever['id']}/hands/new",
                       {"side": "0", "mode": "points", "points": "75", "number": "201"},
                       token_from=f"/m/{eggs_for_ever['id']}")
    assert answer.status_code in (302, 422)
    shown = text(client.get(answer.headers["Location"])) if answer.status_code == 302 else text(answer)
    assert LIMIT_SENTENCE in shown
    assert len(read(client, eggs_for_ever)["hands"]) == 200


def test_undo_at_the_limit_opens_the_last_deal_again(client, eggs_for_ever):
    answer = client.delete(api_url(eggs_for_ever, "hands", 200), headers={"Authorization": "Bearer "
                                                                          + eggs_for_ever["edit_key"]})
    assert answer.status_code == 200 and answer.get_json()["next"]["number"] == 200
    assert "Enter deal 200" in text(client.get(f"/m/{eggs_for_ever['id']}"))


@pytest.mark.parametrize(("game", "players", "options", "hand", "limit"), [
    pytest.param("kozyol", PLAYERS, {}, EGGS, 200, id="kozyol"),
    pytest.param("hearts", SIX, {"target": 1000}, {"hearts": dict(zip(SIX, [5, 5, 4, 4, 4, 4])),
                                                   "black_marias": dict.fromkeys(SIX, 0)}, 400, id="hearts"),
    pytest.param("barbu", PLAYERS, {"first_declarer": ANN}, {"contract": "barbu", "king_of_hearts": ANN}, 28,
                 id="barbu"),
])
def test_a_backup_with_more_hands_than_the_limit_is_refused_before_any_is_played(client, game, players, options,
                                                                                 hand, limit):
    err = error_of(client.post("/api/v1/matches/import", json=backup(game, players, options, [hand] * (limit + 1))),
                   422)
    title = {"kozyol": "Kozyol", "hearts": "Cancellation Hearts", "barbu": "Barbu"}[game]
    assert err["fields"] == {"hands": f"A match of {title} has at most {limit} hands; this one has {limit + 1}."}


def test_the_probe_backup_of_thirteen_thousand_eggs_is_refused(client):
    body = json.dumps(backup("kozyol", PLAYERS, {}, [EGGS] * 13_000), separators=(",", ":"))
    assert len(body) < 256 * 1024, "it fits in a request"
    err = error_of(client.post("/api/v1/matches/import", data=body, content_type="application/json"), 422)
    assert set(err["fields"]) == {"hands"}
    assert client.get("/").status_code == 200


def test_a_backup_too_long_is_refused_in_the_browser_beside_the_file(client):
    body = json.dumps(backup("kozyol", PLAYERS, {}, [EGGS] * 201)).encode()
    answer = client.post("/import", data={"csrf_token": csrf(client), "document": (BytesIO(body), "backup.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 422
    assert "A match of Kozyol has at most 200 hands; this one has 201." in text(answer)


def csrf(client: FlaskClient) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', client.get("/import").text)
    assert found
    return found.group(1)


# -- every number has a range --------------------------------------------------------------------


def test_domino_scores_beyond_any_table_are_refused_over_the_api(client):
    """The probe's domino_scores: they go down and add up to 65, but no place is worth 10^310."""
    body = {"game": "barbu", "players": PLAYERS, "options": {"domino_scores": [HUGE, 0, 0, 65 - HUGE]}}
    err = error_of(client.post("/api/v1/matches", json=body), 422)
    assert err["fields"] == {"domino_scores": "Enter a number from -130 to 130."}


@pytest.mark.parametrize(("game", "players", "options", "hands", "field", "reason"), [
    pytest.param("barbu", PLAYERS, {"first_declarer": ANN, "domino_scores": [HUGE, 0, 0, 65 - HUGE]}, [],
                 "domino_scores", "Enter a number from -130 to 130.", id="barbu-domino-scores"),
    pytest.param("kozyol", PLAYERS, {"target": HUGE}, [], "target", "Enter a number from 1 to 100.",
                 id="kozyol-target"),
    pytest.param("hearts", SIX, {"target": HUGE}, [], "target",
                 "The target is a whole number of points from 26 to 1000.", id="hearts-target"),
    pytest.param("kozyol", PLAYERS, {}, [{"points": [HUGE, 120 - HUGE]}], "hands.1",
                 "Hand 1 breaks a rule: Enter a number from 0 to 120.", id="kozyol-points"),
    pytest.param("hearts", SIX, {}, [{"hearts": dict(zip(SIX, [HUGE, 26 - HUGE, 0, 0, 0, 0])),
                                      "black_marias": dict.fromkeys(SIX, 0)}], "hands.1",
                 "Hand 1 breaks a rule: Enter a number from 0 to 26.", id="hearts-hearts"),
])
def test_a_hostile_backup_is_refused_with_the_field_named(client, game, players, options, hands, field, reason):
    err = error_of(client.post("/api/v1/matches/import", json=backup(game, players, options, hands)), 422)
    assert err["fields"] == {field: reason}


def test_a_hand_out_of_range_is_refused_over_the_api(client):
    made = create_match(client, "kozyol")
    err = error_of(post_hand(client, made, {"points": [HUGE, 120 - HUGE]}), 422)
    assert err["fields"] == {"points": "Enter a number from 0 to 120."}
    made = create_match(client, "kozyol")
    err = error_of(post_hand(client, made, {"points": [75, 45], "tricks": [HUGE, 3]}), 422)
    assert err["fields"] == {"tricks": "Enter a number from 0 to 9."}


@pytest.mark.parametrize(("url", "fields", "field", "reason"), [
    pytest.param("/new/kozyol", {"target": str(HUGE)}, "target", "Number must be between 1 and 100.", id="kozyol"),
    pytest.param("/new/hearts", {"target": str(HUGE), "moon_points": "26"}, "target",
                 "Number must be between 26 and 1000.", id="hearts"),
])
def test_a_form_refuses_a_number_out_of_range_beside_the_field(client, url, fields, field, reason):
    players = PLAYERS if "kozyol" in url else SIX
    answer = post_form(client, url, {**{f"players-{seat}": name for seat, name in enumerate(players)},
                                     "first_dealer": "0", **fields})
    assert answer.status_code == 422
    assert f'<p class="error" id="err-{field}">{reason}</p>' in text(answer)


# -- nothing stored breaks a page -------------------------------------------------------------------


def written_around_the_app(app: Flask, public_id: str, *, options: dict[str, Any] | None = None,
                           entry: dict[str, Any] | None = None) -> None:
    """Change a stored match directly in the database, as a restore of a damaged file or a stray tool might."""
    with app.app_context():
        match = db.session.scalar(db.select(Match).where(Match.public_id == public_id))
        if options is not None:
            match.options = {**match.options, **options}
        if entry is not None:
            hand = db.session.scalar(db.select(Hand).where(Hand.match_id == match.id, Hand.number == 1))
            hand.entry = entry
            change = db.session.scalar(db.select(HandChange).where(HandChange.match_id == match.id))
            change.after = entry
        match.version += 1  # what a real change does: the pages kept for the old version are stale
        db.session.commit()


PAGES = ["/m/{id}", "/m/{id}/table", "/m/{id}/sheet", "/m/{id}/working/1", "/m/{id}/hands/new",
         "/api/v1/matches/{id}", "/api/v1/matches/{id}/sheet.pdf"]
READABLE = ["/m/{id}/history", "/api/v1/matches/{id}/history", "/api/v1/matches/{id}/export",
            "/m/{id}/export.json"]


@pytest.mark.parametrize("watching", [False, True], ids=["editing phone", "watching phone"])
def test_hostile_options_stored_in_the_database_are_a_clear_message_not_an_error_page(app, client, watching):
    made = joined(client, create_match(client, "barbu", options={"first_declarer": ANN}))
    play(client, made, {"contract": "dominoes", "order": PLAYERS})
    written_around_the_app(app, made["id"], options={"domino_scores": [HUGE, 0, 0, 65 - HUGE]})
    reader = app.test_client() if watching else client
    message = "This match, as stored, breaks a rule: Enter a number from -130 to 130."
    for path in PAGES:
        answer = reader.get(path.format(id=made["id"]))
        if watching and path.endswith("/hands/new"):
            assert answer.status_code == 403, "a watcher is told it cannot enter hands, first"
            continue
        assert answer.status_code == 409, (path, answer.status_code)
        assert message in (answer.get_json()["error"]["message"] if answer.is_json else text(answer)), path
    for path in READABLE:
        assert reader.get(path.format(id=made["id"])).status_code == 200, path
    err = error_of(post_hand(client, made, {"contract": "barbu", "king_of_hearts": ANN}), 409)
    assert err["message"] == message


def test_a_hostile_hand_stored_in_the_database_names_the_hand_and_the_table_can_correct_it(app, client):
    made = joined(client, create_match(client, "kozyol"))
    play(client, made, {"points": [75, 45]}, {"points": [45, 75]})
    written_around_the_app(app, made["id"], entry={"points": [HUGE, 120 - HUGE]})
    message = "Hand 1 of this match, as stored, breaks a rule: Enter a number from 0 to 120."
    for path in PAGES:
        answer = client.get(path.format(id=made["id"]))
        assert answer.status_code == 409, (path, answer.status_code)
        assert message in (answer.get_json()["error"]["message"] if answer.is_json else text(answer)), path
    history = client.get(f"/m/{made['id']}/history")
    assert history.status_code == 200 and str(HUGE) in text(history)
    page = text(client.get(f"/m/{made['id']}"))
    assert f'href="/m/{made["id"]}/hands/1">Correct hand 1</a>' in page
    assert "Correct hand 1" not in text(app.test_client().get(f"/m/{made['id']}")), "a watcher cannot correct"
    form = client.get(f"/m/{made['id']}/hands/1")
    assert form.status_code == 200 and "Correcting deal 1" in text(form)
    answer = post_form(client, f"/m/{made['id']}/hands/1", {"side": "0", "mode": "points", "points": "75"})
    assert answer.status_code == 302
    assert read(client, made)["totals"] == [2, 2]


def test_a_stored_hand_the_rules_now_refuse_is_named_too(app, client):
    """A hand kept from before a rule was pinned (both teams' tricks adding up to 2) stops the replay with a reason."""
    made = joined(client, create_match(client, "kozyol"))
    play(client, made, {"points": [75, 45], "tricks": [5, 3]})
    written_around_the_app(app, made["id"], entry={"points": [75, 45], "tricks": [1, 1]})
    err = error_of(client.get(api_url(made)), 409)
    assert err["message"] == "Hand 1 of this match, as stored, breaks a rule: The tricks add up to 2; a deal has 3 " \
                             "to 9 tricks."


def test_a_chart_of_huge_totals_is_drawn():
    svg = running_totals_svg(["Ann & Cid", "Bob & Dee"], [[0, HUGE, 3], [0, -HUGE, 5]], "totals")
    assert svg.startswith("<svg") and svg.count("<polyline") == 2


@pytest.mark.parametrize("entry", [
    pytest.param([75, 45], id="a list"),
    pytest.param({"points": "lots"}, id="text for points"),
    pytest.param({"points": [75.5, 44.5]}, id="fractions"),
    pytest.param({"cards": [{"A": [1]}, None]}, id="a list for a count"),
    pytest.param({"points": [75, 45], "last_trick": {"name": "Bob"}}, id="an object for a name"),
])
def test_no_stored_shape_makes_a_page_fail(app, client, entry):
    made = joined(client, create_match(client, "kozyol"))
    play(client, made, {"points": [75, 45]})
    written_around_the_app(app, made["id"], entry=entry)
    for path in PAGES:
        answer = client.get(path.format(id=made["id"]))
        assert answer.status_code == 409, (path, answer.status_code)
        shown = answer.get_json()["error"]["message"] if answer.is_json else text(answer)
        assert "Hand 1 of this match, as stored, breaks a rule: " in shown, path
    for path in READABLE:
        assert client.get(path.format(id=made["id"])).status_code == 200, path
