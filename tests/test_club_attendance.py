"""Attendance: a member says who they are from the club link and answers "I'm in" or "not this time"; only that
phone (or the admin) changes the answer; the admin marks players present at the door; who is there."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.club_matches import FOUR
from helpers.clubs import admin_post, ahead, club_of
from helpers.forms import csrf_token
from helpers.i18n import seen
from scorekeeper.club import evenings, service as clubs
from scorekeeper.refusals import Refusal


@pytest.fixture
def club(client: FlaskClient) -> str:
    made = club_of(client, FOUR)
    assert admin_post(client, made, "planned", "plan", {"day": ahead(2).isoformat(), "starts_at": "19:30",
                                                        "place": "Café du Nord", "note": "Bring cards",
                                                        "weeks": "1"}).status_code == 302
    return made


def ids(app: Flask, club: str) -> tuple[int, dict[str, int]]:
    """The next evening's id, and the roster's ids by name."""
    with app.app_context():
        found = clubs.find(club)
        return evenings.next_evening(found).id, {p.name: p.id for p in clubs.roster(found)}


def pick(phone: FlaskClient, club: str, player: int):
    return phone.post(f"/c/{club}/me", data={"csrf_token": csrf_token(phone, f"/c/{club}"), "player": str(player)})


def say(phone: FlaskClient, club: str, evening: int, coming: str):
    return phone.post(f"/c/{club}/evenings/{evening}/answer",
                      data={"csrf_token": csrf_token(phone, f"/c/{club}"), "coming": coming})


def test_the_club_page_shows_the_next_evening_and_a_phone_answers_for_its_player(app: Flask, club: str):
    evening, roster = ids(app, club)
    phone = app.test_client()
    page = seen(phone.get(f"/c/{club}").text)
    assert "Next evening" in page and "from 19:30" in page and "Where: Café du Nord" in page
    assert "Bring cards" in page and "Who are you?" in page and "0 players are coming" in page
    picked = pick(phone, club, roster["Ann"])
    assert picked.status_code == 302 and picked.headers["Location"].endswith("#next-evening")
    page = seen(phone.get(f"/c/{club}").text)
    assert "You are Ann." in page and "I'm in" in page and "Who are you?" not in page
    assert say(phone, club, evening, "in").status_code == 302
    page = seen(phone.get(f"/c/{club}").text)
    assert "1 player is coming: Ann" in page and "You said you are coming." in page
    assert say(phone, club, evening, "out").status_code == 302
    page = seen(phone.get(f"/c/{club}").text)
    assert "Not this time: Ann" in page and "0 players are coming" in page
    with phone.session_transaction() as session:  # one player id per club, nothing else of the roster
        assert session["me"] == {club: roster["Ann"]}


def test_a_kept_club_page_still_shows_each_phone_its_own_card(app: Flask, club: str):
    evening, roster = ids(app, club)
    ann, bob = app.test_client(), app.test_client()
    pick(ann, club, roster["Ann"])
    pick(bob, club, roster["Bob"])
    say(ann, club, evening, "in")
    assert "You are Ann." in seen(ann.get(f"/c/{club}").text)
    bobs = seen(bob.get(f"/c/{club}").text)  # the same club state: the kept page, Bob's own card
    assert "You are Bob." in bobs and "1 player is coming: Ann" in bobs and "You said" not in bobs
    token = re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', bob.get(f"/c/{club}").text)
    assert token and token[0] == csrf_token(bob, "/clubs/new")  # the token on the page is Bob's own


def test_another_phone_cannot_change_a_players_answer_but_the_admin_can(app: Flask, client: FlaskClient, club: str):
    evening, roster = ids(app, club)
    first, second = app.test_client(), app.test_client()
    pick(first, club, roster["Cid"])
    say(first, club, evening, "in")
    pick(second, club, roster["Cid"])
    refused = say(second, club, evening, "out")
    assert refused.status_code == 403
    assert "Another phone answered for Cid: only that phone or the club's organiser can change it." in seen(refused.text)
    with app.app_context():
        found = clubs.find(club)
        row = evenings.answer(found, evenings.evening_of(found, evening), roster["Cid"], False, None)  # the admin
        assert row.answer == "out"
    assert say(first, club, evening, "in").status_code == 302  # the first phone still holds it


def test_an_answer_needs_a_name_first_and_a_player_on_the_roster(app: Flask, club: str):
    evening, _roster = ids(app, club)
    phone = app.test_client()
    assert say(phone, club, evening, "in").status_code == 422
    assert pick(phone, club, 999999).status_code == 422
    assert phone.post(f"/c/{club}/evenings/999999/answer",
                      data={"csrf_token": csrf_token(phone, f"/c/{club}"), "coming": "in"}).status_code == 404


def test_not_me_forgets_who_the_phone_is(app: Flask, club: str):
    _evening, roster = ids(app, club)
    phone = app.test_client()
    pick(phone, club, roster["Dee"])
    assert "Not Dee?" in seen(phone.get(f"/c/{club}").text)
    phone.post(f"/c/{club}/me/forget", data={"csrf_token": csrf_token(phone, f"/c/{club}")})
    assert "Who are you?" in seen(phone.get(f"/c/{club}").text)


def test_the_admin_marks_players_present_at_the_door_with_one_tap_each(app: Flask, client: FlaskClient, club: str):
    evening, roster = ids(app, club)
    phone = app.test_client()
    pick(phone, club, roster["Ann"])
    say(phone, club, evening, "in")
    with app.app_context():
        assert evenings.present_ids(evenings.evening_of(clubs.find(club), evening)) == [roster["Ann"]]
    admin = seen(client.get(f"/c/{club}/admin").text)
    assert "At the door" in admin and "said in" in admin
    token = csrf_token(client, "/clubs/new")
    url = f"/c/{club}/admin/evenings/{evening}/present"
    tapped = client.post(url, data={"csrf_token": token, "player": roster["Bob"], "present": "1", "back": "admin"})
    assert tapped.status_code == 302 and tapped.headers["Location"].endswith("#door")
    assert 'aria-pressed="true"><span class="name">Bob' in client.get(f"/c/{club}/admin").text
    client.post(url, data={"csrf_token": token, "player": roster["Cid"], "present": "1"})
    with app.app_context():  # once someone is marked present, only those marked count
        assert sorted(evenings.present_ids(evenings.evening_of(clubs.find(club), evening))) == sorted(
            [roster["Bob"], roster["Cid"]])
    client.post(url, data={"csrf_token": token, "player": roster["Cid"], "present": "0"})
    with app.app_context():
        assert evenings.present_ids(evenings.evening_of(clubs.find(club), evening)) == [roster["Bob"]]
    member = app.test_client()
    assert member.post(url, data={"csrf_token": csrf_token(member, "/clubs/new"), "player": roster["Dee"],
                                  "present": "1"}).status_code == 403


def test_a_merged_players_answer_counts_as_the_player_kept(app: Flask, client: FlaskClient, club: str):
    evening, roster = ids(app, club)
    with app.app_context():
        found = clubs.find(club)
        planned = evenings.evening_of(found, evening)
        evenings.answer(found, planned, roster["Dee"], True, "dee's phone")
        evenings.answer(found, planned, roster["Bob"], True, "bob's phone")
        clubs.merge_players(found, roster["Bob"], roster["Dee"])
        assert evenings.present_ids(planned) == [roster["Bob"]]
        assert [p.name for p in evenings.answers(found, planned).coming] == ["Bob"]


def test_answers_are_refused_for_a_past_evening_and_for_a_value_not_true_or_false(app: Flask, club: str):
    with app.app_context():
        found = clubs.find(club)
        (past,) = evenings.schedule(found, ahead(-3), "", "", "")
        player = clubs.roster(found)[0].id
        with pytest.raises(Refusal) as refused:
            evenings.answer(found, past, player, True, "key")
        assert "over" in refused.value.fields["coming"]
        with pytest.raises(Refusal):
            evenings.answer(found, evenings.next_evening(found), player, "yes", "key")
        with pytest.raises(Refusal):
            evenings.mark_present(found, past, player, 1)
        assert evenings.mark_present(found, past, player, True).present  # the door works on any day


def test_the_kept_evening_card_carries_each_phones_own_token_and_its_form_takes_it(app, club: str):
    """The card is kept per club state and player, but every phone's forms hold that phone's CSRF token."""
    token = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
    phones = [app.test_client(), app.test_client()]
    cards = [phone.get(f"/c/{club}").text for phone in phones]
    tokens = [token.findall(page[page.index('id="next-evening"'):]) for page in cards]
    assert tokens[0] and tokens[1] and set(tokens[0]).isdisjoint(tokens[1])
    with app.app_context():
        ann = next(player.id for player in clubs.roster(clubs.find(club)) if player.name == "Ann")
    for phone, mine in zip(phones, tokens):
        picked = phone.post(f"/c/{club}/me", data={"csrf_token": mine[0], "player": str(ann)})
        assert picked.status_code == 302, picked.text
    assert "You are Ann." in phones[0].get(f"/c/{club}").text


def test_the_kept_evening_card_links_to_the_address_each_phone_used(app, club: str):
    """A phone on the laptop's network address gets calendar links to that address, not to the one another
    phone used first."""
    first = app.test_client().get(f"/c/{club}").text
    assert "webcal://localhost/c/" in first
    other = app.test_client().get(f"/c/{club}", base_url="http://192.168.1.5").text
    assert "webcal://192.168.1.5/c/" in other and "webcal://localhost" not in other
