"""Each hand confirmed by the next seat, as on a tournament night (a club's option).

After a hand of a club match that confirms every hand, the match page shows the hand's scores with an OK
for the seat after its dealer (its declarer in Barbu), tapped on that member's own phone (their member
link and the edit link) and nowhere else; the OK is kept with the hand, a correction that changes the
hand clears it, and the printed sheet names the hands without one.
"""

from __future__ import annotations

import html

from flask import Flask
from flask.testing import FlaskClient

from helpers.agreements import FLASH, asking_club, club_match, member_phone, phone, token
from helpers.api import bearer, error_of
from helpers.club_matches import FOUR
from helpers.clubs import member_key
from helpers.openapi import check_answer
from helpers.pdf import save, sheet_pdf, text
from scorekeeper.club import agreements
from scorekeeper.match import matches

CONFIRM = "/api/v1/matches/{public_id}/hands/{number}/confirmation"
OPTIONS = {"target": 12, "first_dealer": "Ann"}
EGGS, LOST = {"points": [60, 60]}, {"points": [100, 20]}


def confirmed(app: Flask, public_id: str) -> list[int | None]:
    with app.app_context():
        return [hand.confirmed_seat for hand in matches.find(public_id).hands]


def test_the_next_seat_confirms_each_hand_on_the_match_page(app: Flask, client: FlaskClient, tmp_path):
    club = asking_club(app, client, agree_to_lock=0, confirm_hands=True)
    match = club_match(client, club, EGGS, LOST, options=OPTIONS)
    bob = member_phone(app, club, match, 1)
    page = html.unescape(bob.get(f"/m/{match['id']}").text)
    assert "Hand 1: check the scores" in page and "Next seat (Bob): OK" in page  # Ann dealt the first deal
    assert "1 hand waits" not in page and "2 hands wait for their OK." in page
    watcher = app.test_client().get(f"/m/{match['id']}").text
    assert "Waiting for the OK of the next seat, Bob" in watcher and "Next seat (Bob): OK" not in watcher
    ann, table = member_phone(app, club, match, 0), phone(app, match)  # another seat, and the edit link alone
    for other in (ann, table):
        page = html.unescape(other.get(f"/m/{match['id']}").text)
        assert "Waiting for the OK of the next seat, Bob, from their own phone." in page
        assert "Next seat (Bob): OK" not in page
        refused = other.post(f"/m/{match['id']}/hands/1/ok", data={"csrf_token": token(other, match)})
        assert refused.status_code == 302 and [html.unescape(one) for one in FLASH.findall(
            other.get(refused.headers["Location"]).text)] == [
            "Hand 1 is confirmed by the next seat, Bob, from Bob's own phone (member link)."]
    assert confirmed(app, match["id"]) == [None, None]
    assert bob.post(f"/m/{match['id']}/hands/1/ok", data={"csrf_token": token(bob, match)}).status_code == 302
    assert confirmed(app, match["id"]) == [1, None]
    page = html.unescape(bob.get(f"/m/{match['id']}").text)
    assert "Hand 1 confirmed by Bob." in page and "Waiting for the OK of the next seat, Cid" in page  # Bob dealt
    assert "Next seat (Cid): OK" in html.unescape(member_phone(app, club, match, 2).get(f"/m/{match['id']}").text)
    printed = " ".join(text(save(tmp_path, sheet_pdf(client, match))).split())
    assert "Not confirmed by the next seat: hands 2" in printed


def test_a_correction_that_changes_a_hand_clears_its_confirmation(app: Flask, client: FlaskClient):
    club = asking_club(app, client, agree_to_lock=0, confirm_hands=True)
    match = club_match(client, club, EGGS, EGGS, options=OPTIONS)
    with app.app_context():
        agreements.confirm(match["id"], 1, match["seat_ids"][1])
        agreements.confirm(match["id"], 2, match["seat_ids"][2])
        matches.correct(match["id"], 1, EGGS)  # the same figures: still confirmed
        assert [hand.confirmed_seat for hand in matches.find(match["id"]).hands] == [1, 2]
        matches.correct(match["id"], 1, {"points": [70, 50]})
    assert confirmed(app, match["id"]) == [None, 2]


def test_the_api_confirms_a_hand(app: Flask, client: FlaskClient, document):
    club = asking_club(app, client, agree_to_lock=0, confirm_hands=True)
    match = club_match(client, club, EGGS, options=OPTIONS)
    url = f"/api/v1/matches/{match['id']}/hands/1/confirmation"
    ann, bob = (member_key(app, club["id"], player) for player in match["seat_ids"][:2])
    for sent in ({}, {"Club-Member-Key": ann}):  # the edit key alone, or another seat's member
        refused = client.post(url, headers={**bearer(match["edit_key"]), **sent})
        check_answer(document, CONFIRM, "POST", refused)
        assert error_of(refused, 403)["message"] == (
            "Hand 1 is confirmed by the next seat, Bob, from Bob's own phone (member link).")
    answer = client.post(url, headers={**bearer(match["edit_key"]), "Club-Member-Key": bob})
    check_answer(document, CONFIRM, "POST", answer)
    assert answer.status_code == 200 and answer.get_json()["name"] == "Bob"
    error_of(client.post(url, headers={"Club-Member-Key": bob}), 401)
    missing = client.post(f"/api/v1/matches/{match['id']}/hands/9/confirmation",
                          headers={**bearer(match["edit_key"]), "Club-Member-Key": bob})
    check_answer(document, CONFIRM, "POST", missing)
    error_of(missing, 404)
    other = club_match(client, asking_club(app, client), EGGS, options=OPTIONS)
    refused = client.post(f"/api/v1/matches/{other['id']}/hands/1/confirmation", headers=bearer(other["edit_key"]))
    check_answer(document, CONFIRM, "POST", refused)
    assert error_of(refused, 422)["message"] == "This club does not confirm every hand."


def test_the_next_seat_is_the_one_after_the_declarer_or_the_dealer(app: Flask):
    from types import SimpleNamespace

    match = SimpleNamespace(players=FOUR)
    assert agreements.next_seat(match, {"declarer": "Dee", "dealer": "Cid"}) == 0  # Barbu: after the declarer
    assert agreements.next_seat(match, {"dealer": "Bob"}) == 2  # Kozyol and Hearts: after the dealer
