"""Attendance: a member's own phone (their member link opened) answers "I'm in" or "not this time" for them; a
name picked from the club link answers nothing, and an answer that proved nothing neither counts nor changes the
member's own; the admin answers for anyone and marks players present at the door; who is there."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.club_matches import FOUR
from helpers.clubs import admin_post, ahead, club_of, member, member_key
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


NOT_PROVEN = "Saying a name is not enough: open your own member link on this phone first."
NO_LINK = "To answer, open your own member link on this phone"


def pick(phone: FlaskClient, club: str, player: int):
    """Say a name from the club link, as pages did before member links: refused."""
    return phone.post(f"/c/{club}/me", data={"csrf_token": csrf_token(phone, "/clubs/new"), "player": str(player)})


def counted(app: Flask, club: str, evening: int) -> tuple[list[str], list[int]]:
    """Who the evening counts as coming, and the ids the draw would seat."""
    with app.app_context():
        found = clubs.find(club)
        planned = evenings.evening_of(found, evening)
        return [p.name for p in evenings.answers(found, planned).coming], evenings.present_ids(planned)


def say(phone: FlaskClient, club: str, evening: int, coming: str):
    return phone.post(f"/c/{club}/evenings/{evening}/answer",
                      data={"csrf_token": csrf_token(phone, "/clubs/new"), "coming": coming})


def test_the_club_page_shows_the_next_evening_and_a_phone_answers_for_its_player(app: Flask, club: str):
    evening, roster = ids(app, club)
    phone = app.test_client()
    page = seen(phone.get(f"/c/{club}").text)
    assert "Next evening" in page and "from 19:30" in page and "Where: Café du Nord" in page
    assert "Bring cards" in page and NO_LINK in page and "0 players are coming" in page
    assert "I'm in" not in page and f"/c/{club}/me" not in phone.get(f"/c/{club}").text  # no roster to pick from
    key = member_key(app, club, roster["Ann"])
    opened = phone.get(f"/c/{club}/member/{key}")
    assert opened.status_code == 302 and opened.headers["Location"].endswith("#next-evening")
    page = seen(phone.get(f"/c/{club}").text)
    assert "You are Ann." in page and "I'm in" in page and NO_LINK not in page
    assert say(phone, club, evening, "in").status_code == 302
    page = seen(phone.get(f"/c/{club}").text)
    assert "1 player is coming: Ann" in page and "You said you are coming." in page
    assert say(phone, club, evening, "out").status_code == 302
    page = seen(phone.get(f"/c/{club}").text)
    assert "Not this time: Ann" in page and "0 players are coming" in page
    with phone.session_transaction() as session:  # the member's key per club, nothing else of the roster
        assert session["members"] == {club: key} and "me" not in session


def test_a_kept_club_page_still_shows_each_phone_its_own_card(app: Flask, club: str):
    evening, roster = ids(app, club)
    ann, bob = member(app, club, roster["Ann"]), member(app, club, roster["Bob"])
    say(ann, club, evening, "in")
    assert "You are Ann." in seen(ann.get(f"/c/{club}").text)
    bobs = seen(bob.get(f"/c/{club}").text)  # the same club state: the kept page, Bob's own card
    assert "You are Bob." in bobs and "1 player is coming: Ann" in bobs and "You said" not in bobs
    token = re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', bob.get(f"/c/{club}").text)
    assert token and token[0] == csrf_token(bob, "/clubs/new")  # the token on the page is Bob's own


def test_another_phone_cannot_change_a_players_answer_but_the_admin_can(app: Flask, client: FlaskClient, club: str):
    evening, roster = ids(app, club)
    cid = member(app, club, roster["Cid"])
    say(cid, club, evening, "in")
    second = app.test_client()  # a phone that says it is Cid
    assert pick(second, club, roster["Cid"]).status_code == 403
    refused = say(second, club, evening, "out")
    assert refused.status_code == 403 and NOT_PROVEN in seen(refused.text)
    url = f"/api/v1/clubs/{club}/planned-evenings/{evening}/answers"
    unproven = client.post(url, json={"player": roster["Cid"], "coming": False})  # the club link alone
    assert unproven.status_code == 403 and unproven.get_json()["error"]["message"] == (
        "Cid answered from their own member link: only Cid or the club's organiser can change it.")
    assert counted(app, club, evening) == (["Cid"], [roster["Cid"]])
    with app.app_context():
        found = clubs.find(club)
        row = evenings.answer(found, evenings.evening_of(found, evening), roster["Cid"], False, None,
                              proven=True)  # the admin
        assert row.answer == "out" and row.proven
    assert counted(app, club, evening) == ([], [])
    assert say(cid, club, evening, "in").status_code == 302  # Cid's own phone still changes it
    assert counted(app, club, evening) == (["Cid"], [roster["Cid"]])


def test_an_answer_that_proved_nothing_is_kept_but_not_counted(app: Flask, client: FlaskClient, club: str):
    evening, roster = ids(app, club)
    url = f"/api/v1/clubs/{club}/planned-evenings/{evening}/answers"
    first = client.post(url, json={"player": roster["Dee"], "coming": True})  # the club link alone
    assert first.status_code == 200 and first.get_json()["proven"] is False and first.get_json()["answer_key"]
    assert counted(app, club, evening) == ([], [])
    assert "0 players are coming" in seen(app.test_client().get(f"/c/{club}").text)
    other = client.post(url, json={"player": roster["Dee"], "coming": False})  # another client, no key
    assert other.status_code == 403 and "Another phone answered for Dee" in other.get_json()["error"]["message"]
    dee = member(app, club, roster["Dee"])
    assert "You said" not in seen(dee.get(f"/c/{club}").text)  # not Dee's own answer
    assert say(dee, club, evening, "out").status_code == 302  # Dee's own phone replaces it
    assert say(dee, club, evening, "in").status_code == 302
    assert counted(app, club, evening) == (["Dee"], [roster["Dee"]])
    own = client.post(url, json={"coming": False}, headers={"Club-Member-Key": member_key(app, club, roster["Bob"])})
    assert own.status_code == 200 and (own.get_json()["name"], own.get_json()["proven"]) == ("Bob", True)
    assert "Not this time: Bob" in seen(app.test_client().get(f"/c/{club}").text)


def test_an_answer_needs_a_member_link_first_and_a_player_on_the_roster(app: Flask, client: FlaskClient, club: str):
    evening, roster = ids(app, club)
    phone = app.test_client()
    refused = say(phone, club, evening, "in")
    assert refused.status_code == 403 and NOT_PROVEN in seen(refused.text)
    assert pick(phone, club, roster["Ann"]).status_code == 403 and pick(phone, club, 999999).status_code == 403
    member(app, club, roster["Ann"], phone)
    stale = phone.post(f"/c/{club}/evenings/{evening}/answer", data={"coming": "in"})  # no token
    assert stale.status_code == 422
    assert phone.post(f"/c/{club}/evenings/999999/answer",
                      data={"csrf_token": csrf_token(phone, f"/c/{club}"), "coming": "in"}).status_code == 404
    assert client.post(f"/api/v1/clubs/{club}/planned-evenings/{evening}/answers",
                       json={"player": 999999, "coming": True}).status_code == 404


def test_not_me_forgets_who_the_phone_is(app: Flask, club: str):
    evening, roster = ids(app, club)
    for forget in (f"/c/{club}/me/forget",):
        phone = member(app, club, roster["Dee"])
        assert "Not Dee?" in seen(phone.get(f"/c/{club}").text)
        assert f'action="/c/{club}/me/forget"' in phone.get(f"/c/{club}").text
        forgot = phone.post(forget, data={"csrf_token": csrf_token(phone, f"/c/{club}")})
        assert forgot.status_code == 302 and forgot.headers["Location"].endswith("#next-evening")
        page = seen(phone.get(f"/c/{club}").text)
        assert NO_LINK in page and "Not Dee?" not in page
        assert say(phone, club, evening, "in").status_code == 403


def test_the_admin_marks_players_present_at_the_door_with_one_tap_each(app: Flask, client: FlaskClient, club: str):
    evening, roster = ids(app, club)
    phone = member(app, club, roster["Ann"])
    say(phone, club, evening, "in")
    with app.app_context():
        assert evenings.present_ids(evenings.evening_of(clubs.find(club), evening)) == [roster["Ann"]]
    page = f"/c/{club}/admin/evenings/{evening}"
    door = seen(client.get(page).text)
    assert "At the door" in door and "said in" in door and "1 player is here." in door
    token = csrf_token(client, "/clubs/new")
    url = f"{page}/present"
    tapped = client.post(url, data={"csrf_token": token, "player": roster["Bob"], "present": "1", "back": "admin"})
    assert tapped.status_code == 302 and tapped.headers["Location"].endswith(f"{page}#door")
    assert 'aria-pressed="true"><span class="name">Bob' in client.get(page).text
    client.post(url, data={"csrf_token": token, "player": roster["Cid"], "present": "1"})
    with app.app_context():  # those marked at the door join those who said they come
        assert sorted(evenings.present_ids(evenings.evening_of(clubs.find(club), evening))) == sorted(
            [roster["Ann"], roster["Bob"], roster["Cid"]])
    client.post(url, data={"csrf_token": token, "player": roster["Cid"], "present": "0"})
    client.post(url, data={"csrf_token": token, "player": roster["Ann"], "present": "0"})  # said in, not here
    with app.app_context():
        assert evenings.present_ids(evenings.evening_of(clubs.find(club), evening)) == [roster["Bob"]]
    door = seen(client.get(page).text)
    assert "Ann said in · marked not here" in door and "Bob marked here" in door and "1 player is here." in door
    dee = member(app, club, roster["Dee"])  # a member, not the admin
    assert dee.post(url, data={"csrf_token": csrf_token(dee, "/clubs/new"), "player": roster["Dee"],
                               "present": "1"}).status_code == 403


def test_a_merged_players_answer_counts_as_the_player_kept(app: Flask, client: FlaskClient, club: str):
    evening, roster = ids(app, club)
    with app.app_context():
        found = clubs.find(club)
        planned = evenings.evening_of(found, evening)
        evenings.answer(found, planned, roster["Dee"], True, None, proven=True)  # from Dee's own phone
        evenings.answer(found, planned, roster["Bob"], True, None, proven=True)
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
    evening, roster = ids(app, club)
    key = member_key(app, club, roster["Ann"])
    phones = [app.test_client(), app.test_client()]  # Ann's phone and her tablet: one member link
    for phone in phones:
        assert phone.get(f"/c/{club}/member/{key}").status_code == 302
    cards = [phone.get(f"/c/{club}").text for phone in phones]
    tokens = [token.findall(page[page.index('id="next-evening"'):]) for page in cards]
    assert tokens[0] and tokens[1] and set(tokens[0]).isdisjoint(tokens[1])
    for phone, mine in zip(phones, tokens):
        said = phone.post(f"/c/{club}/evenings/{evening}/answer", data={"csrf_token": mine[0], "coming": "in"})
        assert said.status_code == 302, said.text
    assert "You are Ann." in phones[0].get(f"/c/{club}").text


def test_the_kept_evening_card_links_to_the_address_each_phone_used(app, club: str):
    """A phone on the laptop's network address gets calendar links to that address, not to the one another
    phone used first."""
    first = app.test_client().get(f"/c/{club}").text
    assert "webcal://localhost/c/" in first
    other = app.test_client().get(f"/c/{club}", base_url="http://192.168.1.5").text
    assert "webcal://192.168.1.5/c/" in other and "webcal://localhost" not in other
