"""Evenings planned ahead: scheduled (weekly too), changed and deleted from the admin page and the club's store,
refused with a reason beside the field; named evenings and the list of evenings keep working."""

from __future__ import annotations

from datetime import time

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.club_matches import FOUR
from helpers.clubs import admin_post, ahead, club_of, new_club, reasons
from helpers.forms import csrf_token
from helpers.i18n import seen
from scorekeeper.club import evenings, service as clubs
from scorekeeper.db import db
from scorekeeper.match import matches
from scorekeeper.models import EveningRound
from scorekeeper.refusals import Refusal


@pytest.fixture
def club(client: FlaskClient) -> str:
    made = club_of(client, FOUR)
    return made


def plan(client: FlaskClient, club: str, **fields: object):
    return admin_post(client, club, "planned", "plan", {"weeks": "1", **fields})


# -- the club's store ---------------------------------------------------------------------------------


def test_a_weekly_plan_makes_one_evening_a_week_and_bumps_the_club(app: Flask, club: str):
    with app.app_context():
        found = clubs.find(club)
        version = found.version
        made = evenings.schedule(found, ahead(3).isoformat(), "19:30", " Café du Nord ", "Bring cards", weeks=4)
        assert [e.day for e in made] == [ahead(3 + 7 * week) for week in range(4)]
        assert {(e.starts_at, e.place, e.note, e.name) for e in made} == {(time(19, 30), "Café du Nord", "Bring cards", "")}
        assert found.version > version
        assert [e.id for e in evenings.planned(found)] == [e.id for e in made]
        assert evenings.next_evening(found).id == made[0].id
        assert evenings.evening_of(found, str(made[1].id)).day == ahead(10)


def test_a_day_that_has_an_evening_gets_the_new_plan_and_keeps_its_name(app: Flask, club: str):
    with app.app_context():
        found = clubs.find(club)
        clubs.name_evening(found, ahead(2), "Anna's birthday")
        (evening,) = evenings.schedule(found, ahead(2), "20:00", "Anna's", "")
        assert (evening.name, evening.starts_at, evening.place) == ("Anna's birthday", time(20), "Anna's")
        assert len(evenings.planned(found)) == 1


@pytest.mark.parametrize(("fields", "field", "reason"), [
    ({"day": "5 Dec"}, "day", "Give a day as year-month-day, such as 2026-12-05."),
    ({"starts_at": "7pm"}, "starts_at", "Give a time as hours and minutes, such as 19:30."),
    ({"starts_at": "24:00"}, "starts_at", "Give a time as hours and minutes, such as 19:30."),
    ({"place": "x" * 81}, "place", "Write at most 80 characters."),
    ({"note": "x" * 201}, "note", "Write at most 200 characters."),
    ({"note": "a\x00b"}, "note", "Text cannot contain control characters."),
    ({"note": "a\u2028b"}, "note", "Text cannot contain control characters."),
    ({"place": "Caf\u2029é"}, "place", "Text cannot contain control characters."),
    ({"weeks": 0}, "weeks", "Enter a number from 1 to 26."),
    ({"weeks": 27}, "weeks", "Enter a number from 1 to 26."),
    ({"weeks": True}, "weeks", "Enter a number from 1 to 26."),
    ({"name": "x" * 61}, "name", "A name can have at most 60 characters."),
])
def test_a_bad_plan_is_refused_with_its_field(app: Flask, club: str, fields: dict, field: str, reason: str):
    with app.app_context():
        given = {"day": ahead(1).isoformat(), "starts_at": "19:30", "place": "", "note": "", **fields}
        with pytest.raises(Refusal) as refused:
            evenings.schedule(clubs.find(club), **given)
        assert refused.value.fields == {field: reason}
        assert evenings.planned(clubs.find(club)) == []


def test_an_evening_is_changed_and_moved_but_not_onto_another(app: Flask, club: str):
    with app.app_context():
        found = clubs.find(club)
        first, second = evenings.schedule(found, ahead(1), "19:00", "Here", "", weeks=2)
        changed = evenings.update(found, first.id, starts_at="", place="There", note="Late start")
        assert (changed.starts_at, changed.place, changed.note, changed.day) == (None, "There", "Late start", ahead(1))
        with pytest.raises(Refusal) as refused:
            evenings.update(found, first.id, day=second.day)
        assert refused.value.fields == {"day": "The club already has an evening on that day."}
        assert evenings.update(found, first.id, day=ahead(2)).day == ahead(2)


def test_deleting_takes_the_evening_and_its_answers_but_a_played_evening_stays(app: Flask, club: str):
    with app.app_context():
        found = clubs.find(club)
        gone, kept = evenings.schedule(found, ahead(1), "", "", "", weeks=2)
        evenings.answer(found, gone, clubs.roster(found)[0].id, True, "phone")
        evenings.delete(found, gone.id)
        assert [e.id for e in evenings.planned(found)] == [kept.id]
        db.session.add(EveningRound(evening_id=kept.id, number=1, sat_out=[], seed=1))
        db.session.commit()
        with pytest.raises(Refusal) as refused:
            evenings.delete(found, kept.id)
        assert "has been played" in refused.value.fields["evening"]
        with pytest.raises(Refusal):
            evenings.update(found, kept.id, day=ahead(30))
        assert evenings.update(found, kept.id, place="Upstairs").place == "Upstairs"


def test_another_clubs_evening_or_an_unknown_one_is_not_found(app: Flask, client: FlaskClient, club: str):
    other = new_club(client, "Other")
    with app.app_context():
        (theirs,) = evenings.schedule(clubs.find(other), ahead(1), "", "", "")
        for wrong in (theirs.id, 0, "x", None, 2**40):
            with pytest.raises(matches.NotFound):
                evenings.evening_of(clubs.find(club), wrong)


def test_the_next_evening_is_the_first_from_today_in_the_clubs_time_zone(app: Flask, club: str):
    with app.app_context():
        found = clubs.find(club)
        evenings.schedule(found, ahead(-1), "", "", "")
        assert evenings.next_evening(found) is None
        (today,) = evenings.schedule(found, clubs.today(found), "23:00", "", "")
        evenings.schedule(found, ahead(5), "", "", "")
        assert evenings.next_evening(found).id == today.id


def test_an_unnamed_planned_evening_keeps_the_evening_list_and_naming_working(app: Flask, client: FlaskClient,
                                                                              club: str):
    with app.app_context():
        found = clubs.find(club)
        (evening,) = evenings.schedule(found, clubs.today(found), "19:00", "Here", "")
        clubs.start_match(found, "kozyol", FOUR, {"target": 1})
        assert clubs.evenings(found)[0][1] is None  # unnamed: no name, as a day without a row
        clubs.name_evening(found, clubs.today(found), "Friday")
        assert clubs.evenings(found)[0][1] == "Friday"
        clubs.name_evening(found, clubs.today(found), "")  # the name goes, the plan stays
        assert evenings.evening_of(found, evening.id).place == "Here"
    listed = client.get(f"/api/v1/clubs/{club}/evenings").get_json()
    assert listed["evenings"][0]["name"] is None


# -- the admin page ----------------------------------------------------------------------------------------


def test_the_admin_plans_evenings_from_the_admin_page_and_sees_them_listed(client: FlaskClient, club: str):
    answer = plan(client, club, day=ahead(4).isoformat(), starts_at="19:30", place="Café du Nord",
                  note="Bring cards", weeks="3")
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/admin/evenings#planned")
    page = seen(client.get(f"/c/{club}/admin/evenings").text)
    assert "3 evenings planned." in page
    assert page.count("19:30 · Café du Nord") == 3
    hub = seen(client.get(f"/c/{club}/admin").text)  # the next one, one tap from running the club
    assert "Next evening" in hub and "Open the evening" in hub and "from 19:30" in hub


def test_a_refused_plan_comes_back_with_the_reason_beside_the_field_and_the_input_kept(client: FlaskClient,
                                                                                      club: str):
    answer = plan(client, club, day=ahead(4).isoformat(), starts_at="7pm", place="Café")
    assert answer.status_code == 422
    assert reasons(answer.text) == {"starts_at": "Give a time as hours and minutes, such as 19:30."}
    assert 'value="7pm"' in answer.text and 'value="Café"' in answer.text
    too_many = plan(client, club, day=ahead(4).isoformat(), weeks="27")
    assert too_many.status_code == 422 and "weeks" in reasons(too_many.text)


def test_the_admin_changes_and_deletes_an_evening_on_its_page(app: Flask, client: FlaskClient, club: str):
    plan(client, club, day=ahead(4).isoformat(), starts_at="19:30", place="Café")
    with app.app_context():
        evening_id = evenings.next_evening(clubs.find(club)).id
    url = f"/c/{club}/admin/evenings/{evening_id}"
    page = client.get(url)
    assert page.status_code == 200 and 'value="19:30"' in page.text
    token = csrf_token(client, url)
    refused = client.post(url, data={"plan-csrf_token": token, "plan-day": ahead(4).isoformat(),
                                     "plan-starts_at": "19:30", "plan-place": "x" * 81})
    assert refused.status_code == 422 and reasons(refused.text) == {"place": "Write at most 80 characters."}
    saved = client.post(url, data={"plan-csrf_token": token, "plan-day": ahead(5).isoformat(),
                                   "plan-starts_at": "20:00", "plan-place": "Upstairs", "plan-note": "",
                                   "plan-name": "Cup night"})
    assert saved.status_code == 302
    assert "Evening saved." in seen(client.get(url).text)
    with app.app_context():
        evening = evenings.evening_of(clubs.find(club), evening_id)
        assert (evening.day, evening.starts_at, evening.place, evening.name) == (ahead(5), time(20), "Upstairs",
                                                                              "Cup night")
    gone = client.post(f"{url}/delete", data={"csrf_token": token})
    assert gone.status_code == 302 and gone.headers["Location"].endswith("/admin/evenings#planned")
    assert "Evening deleted." in seen(client.get(f"/c/{club}/admin/evenings").text)
    assert client.get(url).status_code == 404


def test_a_member_cannot_plan_or_open_an_evenings_admin_page(app: Flask, client: FlaskClient, club: str):
    plan(client, club, day=ahead(4).isoformat())
    with app.app_context():
        evening_id = evenings.next_evening(clubs.find(club)).id
    member = app.test_client()
    assert member.get(f"/c/{club}/admin/evenings/{evening_id}").status_code == 403
    token = csrf_token(member, "/clubs/new")
    assert member.post(f"/c/{club}/admin/planned", data={"plan-csrf_token": token}).status_code == 403
    assert member.post(f"/c/{club}/admin/evenings/{evening_id}/delete", data={"csrf_token": token}).status_code == 403
