"""Results the table agrees: "Agreed" from each member's phone, the lock it makes, and the admin's changes with a reason.

Store side and pages, on both databases: a finished club match is agreed by the members who sat at it,
each in their own seat from their own phone (their member link opened; the edit link says nobody), once
each; a change before the lock clears the agreements, a locked match refuses any write without the
club's admin key (403 with one sentence) and takes the admin's with a reason, which the history shows;
the printed sheet says who agreed and when, in the club's time zone.
"""

from __future__ import annotations

import datetime
import html

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.agreements import (
    FLASH,
    admin_phone,
    agree,
    agreed_by_two,
    asking_club,
    club_match,
    finished_match,
    member_phone,
    phone,
    token,
)
from helpers.clubs import TEAM_0_LOSES, TEAM_1_LOSES
from helpers.pdf import save, sheet_pdf, text
from scorekeeper.club import agreements
from scorekeeper.db import db
from scorekeeper.match import matches
from scorekeeper.models import Agreement, HandChange
from scorekeeper.refusals import Refusal

LOCKED = "Agreed by Ann, Bob: locked. The club's admin can change it."


def flashed(client: FlaskClient, answer) -> list[str]:
    """The flashes of the page an answer sent the phone back to."""
    return [html.unescape(one) for one in FLASH.findall(client.get(answer.headers["Location"]).text)]


def newcomer(app: Flask, club: dict) -> int:
    """A member of the roster who sat at none of the club's matches."""
    from scorekeeper.club import roster, service

    with app.app_context():
        return roster.add_player(service.find(club["id"]), "Eve").id


def agreed_by(app: Flask, public_id: str) -> list[str]:
    with app.app_context():
        return [one.name for one in agreements.agreements(matches.find(public_id))]


def correct(client: FlaskClient, public_id: str, points: int, **extra: str):
    """Correct deal 1 on its form: team 0's card points."""
    return client.post(f"/m/{public_id}/hands/1", data={"csrf_token": token(client, {}), "side": "0", "mode": "points",
                                                        "points": str(points), **extra})


# -- the store side ----------------------------------------------------------------------------------------


def test_two_agreements_lock_a_finished_match_and_a_second_tap_changes_nothing(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    ann, bob = match["seat_ids"][:2]
    with app.app_context():
        version = matches.find(match["id"]).version
        _made, standing = agreements.agree(match["id"], ann, "Ann")
        assert [one.name for one in standing.agreed] == ["Ann"] and not standing.locked
        agreements.agree(match["id"], ann, "Ann", 0)  # the same member again: nothing new
        assert len(db.session.query(Agreement).all()) == 1
        assert agreements.agreed_seat(matches.find(match["id"]), ann) == 0
        with pytest.raises(agreements.NotTheirs, match="You sat as Bob: agree in your own seat."):
            agreements.agree(match["id"], bob, "Bob", 0)  # not in Ann's seat
        with pytest.raises(agreements.NotTheirs, match="You sat as Ann: agree in your own seat."):
            agreements.agree(match["id"], ann, "Ann", 1)  # nor Ann in a second one
        _made, standing = agreements.agree(match["id"], bob, "Bob")
        assert standing.locked and agreements.is_locked(matches.find(match["id"]))
        assert matches.find(match["id"]).version == version + 2  # pages, polls and sheets see each agreement
        with pytest.raises(agreements.Locked, match=LOCKED):
            matches.correct(match["id"], 1, TEAM_0_LOSES)
        with pytest.raises(agreements.Locked):
            matches.undo(match["id"], 1)


def test_an_unfinished_match_or_a_club_that_asks_nothing_cannot_be_agreed(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    playing = club_match(client, club)
    silent = finished_match(client, asking_club(app, client, agree_to_lock=0))
    with app.app_context():
        with pytest.raises(matches.Conflict, match="A match can be agreed once it is finished."):
            agreements.agree(playing["id"], playing["seat_ids"][0])
        with pytest.raises(Refusal, match="This club does not ask its players to agree to a match."):
            agreements.agree(silent["id"], silent["seat_ids"][0])
    done = finished_match(client, club)
    with app.app_context():
        for seat in (-1, 4, "0", True, 1.0):
            with pytest.raises(Refusal, match="Choose your seat"):
                agreements.agree(done["id"], done["seat_ids"][0], "Ann", seat)
        assert agreements.agreements(matches.find(done["id"])) == []


def test_only_a_proven_member_who_sat_at_the_match_agrees_and_in_a_seat_nobody_agreed_in(app: Flask,
                                                                                        client: FlaskClient):
    from scorekeeper.club import roster, service

    club = asking_club(app, client)
    match = finished_match(client, club)
    eve = newcomer(app, club)
    with app.app_context():
        with pytest.raises(agreements.NotTheirs, match="Agree from your own phone"):
            agreements.agree(match["id"], None)  # nobody proved who they are
        with pytest.raises(agreements.NotTheirs, match="Eve did not play this match"):
            agreements.agree(match["id"], eve, "Eve")
        db.session.add(Agreement(match_id=matches.find(match["id"]).id, seat=0, phone="0" * 64))  # from before
        db.session.commit()
        with pytest.raises(matches.Conflict, match="Ann has already agreed, from another phone."):
            agreements.agree(match["id"], match["seat_ids"][0], "Ann")
        roster.merge_players(service.find(club["id"]), eve, match["seat_ids"][1])  # Bob was Eve entered twice
        _made, standing = agreements.agree(match["id"], eve, "Eve")
        assert [(one.seat, one.name) for one in standing.agreed] == [(0, "Ann"), (1, "Bob")]


def test_a_change_before_the_lock_clears_the_agreements(app: Flask, client: FlaskClient):
    club = asking_club(app, client, agree_to_lock=3)
    match = finished_match(client, club)
    agreed_by_two(app, match)
    with app.app_context():
        matches.correct(match["id"], 1, TEAM_0_LOSES)  # two of three: not locked, but they agreed to other figures
        assert agreements.agreements(matches.find(match["id"])) == []


def test_the_admin_changes_a_locked_match_with_a_reason_the_history_keeps(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    agreed_by_two(app, match)
    with app.app_context():
        wrong = matches.Authority("not-the-key", "typo")
        with pytest.raises(agreements.Locked):
            matches.correct(match["id"], 1, TEAM_0_LOSES, authority=wrong)
        with pytest.raises(Refusal, match="Say why this agreed match is changed"):
            matches.correct(match["id"], 1, TEAM_0_LOSES, authority=matches.Authority(club["admin_key"], "  "))
        with pytest.raises(Refusal, match="at most 200 characters"):
            matches.correct(match["id"], 1, TEAM_0_LOSES, authority=matches.Authority(club["admin_key"], "x" * 201))
        matches.correct(match["id"], 1, TEAM_0_LOSES, authority=matches.Authority(club["admin_key"], "Points swapped"))
        change = db.session.query(HandChange).order_by(HandChange.id.desc()).first()
        assert (change.action, change.reason) == ("correct", "Points swapped")
        assert agreements.is_locked(matches.find(match["id"]))  # the admin's change keeps the lock


def test_the_count_of_matches_not_yet_agreed(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    first, second = finished_match(client, club), finished_match(client, club)
    club_match(client, club)  # still played: not counted
    with app.app_context():
        from scorekeeper.club import service

        assert agreements.not_agreed_count(service.find(club["id"])) == 2
        agreements.agree(first["id"], first["seat_ids"][0])
        agreements.agree(first["id"], first["seat_ids"][1])
        assert agreements.not_agreed_count(service.find(club["id"])) == 1
        assert second  # still waiting


# -- in the browser ----------------------------------------------------------------------------------------


def test_two_phones_agree_and_a_third_is_refused_with_the_sentence(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    ann, bob, cid = (member_phone(app, club, match, seat) for seat in range(3))
    page = ann.get(f"/m/{match['id']}").text
    assert "I am Ann: Agreed" in page and "2 more Agreed lock the match." in page
    assert "I am Bob: Agreed" not in page  # one button, the member's own
    assert agree(ann, match, 0).status_code == 302
    assert "Agreed. Thank you." in ann.get(f"/m/{match['id']}").text
    taken = agree(bob, match, 0)  # Bob's phone, in Ann's seat
    assert flashed(bob, taken) == ["You sat as Bob: agree in your own seat."]
    page = bob.get(f"/m/{match['id']}").text
    assert "I am Bob: Agreed" in page and "I am Ann: Agreed" not in page
    agree(bob, match, 1)
    assert agreed_by(app, match["id"]) == ["Ann", "Bob"]
    page = cid.get(f"/m/{match['id']}").text
    assert LOCKED in html.unescape(page) and f"/m/{match['id']}/hands/1\"" not in page  # no correct link, no undo
    refused = correct(cid, match["id"], 20)
    assert refused.status_code == 403 and LOCKED in html.unescape(refused.text)
    assert cid.get(f"/m/{match['id']}/hands/1").status_code == 403
    undo = cid.post(f"/m/{match['id']}/hands/1/undo", data={"csrf_token": token(cid, match)})
    assert undo.status_code == 403 and LOCKED in html.unescape(undo.text)
    assert agreed_by(app, match["id"]) == ["Ann", "Bob"]


def test_the_admin_phone_changes_a_hand_with_a_reason_and_the_history_shows_it(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    agreed_by_two(app, match)
    admin = admin_phone(app, match, club)
    form = admin.get(f"/m/{match['id']}/hands/1")
    assert form.status_code == 200 and 'name="reason"' in form.text and "required" in form.text
    missing = correct(admin, match["id"], 20)
    assert missing.status_code == 422 and "Say why this agreed match is changed" in missing.text
    assert correct(admin, match["id"], 20, reason="Teams were swapped").status_code == 302
    history = admin.get(f"/m/{match['id']}/history").text
    assert "Reason: Teams were swapped" in history
    assert agreed_by(app, match["id"]) == ["Ann", "Bob"]


def test_a_phone_with_only_the_edit_link_agrees_for_nobody(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    table = phone(app, match)
    page = html.unescape(table.get(f"/m/{match['id']}").text)
    assert "I am " not in page and "Each player agrees from their own phone" in page
    refused = agree(table, match, 0)
    assert refused.status_code == 302 and flashed(table, refused) == [
        "Agree from your own phone: open the member link the club's organiser gave you, then tap Agreed. An edit "
        "link does not say who you are."]
    eve = member_phone(app, club, None, newcomer(app, club))  # a member, but not of this table
    assert eve.get(f"/m/{match['id']}/join?key={match['edit_key']}").status_code == 302
    page = html.unescape(eve.get(f"/m/{match['id']}").text)
    assert "I am " not in page and "Eve did not play this match: only its players agree to it." in page
    assert flashed(eve, agree(eve, match, 0)) == ["Eve did not play this match: only its players agree to it."]
    ann = member_phone(app, club, None, match["seat_ids"][0])  # Ann's own phone, without the edit link
    assert agree(ann, match, 0).status_code == 403
    assert agreed_by(app, match["id"]) == []


def test_a_change_before_the_lock_says_it_clears_every_agreed(app: Flask, client: FlaskClient):
    club = asking_club(app, client, agree_to_lock=3)
    match = finished_match(client, club)
    ann = member_phone(app, club, match, 0)
    agree(ann, match, 0)
    page = ann.get(f"/m/{match['id']}").text
    assert "Changing a hand before then clears every Agreed" in page and "This phone agreed as Ann." in page
    assert correct(ann, match["id"], 20).status_code == 302
    assert agreed_by(app, match["id"]) == []


def test_a_club_that_asks_nothing_shows_nothing(app: Flask, client: FlaskClient):
    match = finished_match(client, asking_club(app, client, agree_to_lock=0))
    page = phone(app, match).get(f"/m/{match['id']}").text
    assert "Agreed" not in page


def test_the_sheet_says_who_agreed_and_when_in_the_club_time_zone(app: Flask, client: FlaskClient, tmp_path):
    club = asking_club(app, client)
    match = finished_match(client, club)
    with app.app_context():
        from scorekeeper.club import service

        service.set_time_zone(service.find(club["id"]), "Europe/Moscow")
        agreements.agree(match["id"], match["seat_ids"][0])
        agreements.agree(match["id"], match["seat_ids"][1])
        at = datetime.datetime(2026, 12, 3, 18, 40, tzinfo=datetime.timezone.utc)  # 21:40 in Moscow
        for row in db.session.query(Agreement).all():
            row.at = at
        matches.find(match["id"]).updated_at = at  # a new version: the sheet is printed again
        db.session.commit()
    printed = " ".join(text(save(tmp_path, sheet_pdf(client, match))).split())
    assert "Agreed by Ann, Bob on 3 Dec 2026 21:40" in printed


def test_flashes_are_read_from_the_page(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = club_match(client, club)
    ann = member_phone(app, club, match, 0)
    agree(ann, match, 0)
    assert FLASH.findall(ann.get(f"/m/{match['id']}").text) == ["A match can be agreed once it is finished."]
    assert TEAM_1_LOSES


# -- the club's settings ------------------------------------------------------------------------------------


def test_the_admin_sets_how_many_agreements_lock_a_match(app: Flask, client: FlaskClient):
    from helpers.clubs import admin_post, new_club
    from scorekeeper.club import service

    club = new_club(client)
    page = client.get(f"/c/{club}/admin/settings").text
    assert "Agreements to lock a match" in page and 'value="0"' in page  # the club's own value: nothing asked yet
    with app.app_context():
        assert service.find(club).agree_to_lock == 0 and not service.find(club).confirm_hands
    for junk in ("-1", "12", "two", ""):
        refused = admin_post(client, club, "agreements", "agreement", {"agree_to_lock": junk})
        assert refused.status_code == 422 and f'value="{junk}"' in refused.text
    saved = admin_post(client, club, "agreements", "agreement", {"agree_to_lock": "3", "confirm_hands": "y"})
    assert saved.status_code == 302
    with app.app_context():
        assert (service.find(club).agree_to_lock, service.find(club).confirm_hands) == (3, True)
    assert "Now: 3 players' Agreed lock a match." in html.unescape(client.get(f"/c/{club}/admin/settings").text)
    member = app.test_client()
    assert admin_post(member, club, "agreements", "agreement", {"agree_to_lock": "1"}).status_code == 403


def test_the_club_page_counts_and_marks_the_matches_not_yet_agreed(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    first, _second = finished_match(client, club), finished_match(client, club)
    page = client.get(f"/c/{club['id']}").text
    assert "2 finished matches not yet agreed by their players." in page and page.count("Not yet agreed") == 2
    with app.app_context():
        agreements.agree(first["id"], first["seat_ids"][0])
        agreements.agree(first["id"], first["seat_ids"][1])
    page = client.get(f"/c/{club['id']}").text
    assert "1 finished match not yet agreed by its players." in page and page.count("Not yet agreed") == 1
    quiet = asking_club(app, client, agree_to_lock=0)
    finished_match(client, quiet)
    assert "not yet agreed" not in client.get(f"/c/{quiet['id']}").text.lower()


def test_the_admin_puts_back_an_undone_hand_of_a_locked_match_with_a_reason(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    agreed_by_two(app, match)
    admin = admin_phone(app, match, club)
    undone = admin.post(f"/m/{match['id']}/hands/1/undo", data={"csrf_token": token(admin, match),
                                                                  "reason": "Entered at the wrong table"})
    assert undone.status_code == 302
    history = admin.get(f"/m/{match['id']}/history").text
    put_back = history[history.index('class="put-back"'):]
    assert 'name="reason"' in put_back[:put_back.index("</form>")]  # the history's put-back asks why too
    without = admin.post(f"/m/{match['id']}/hands/1/back", data={"csrf_token": token(admin, match)})
    assert without.status_code == 302 and "Say why this agreed match is changed" in admin.get(
        f"/m/{match['id']}/history").text
    back = admin.post(f"/m/{match['id']}/hands/1/back", data={"csrf_token": token(admin, match),
                                                              "reason": "It was the right table after all"})
    assert back.status_code == 302
    history = admin.get(f"/m/{match['id']}/history").text
    assert "Reason: Entered at the wrong table" in history and "Reason: It was the right table after all" in history
