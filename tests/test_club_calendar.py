"""The club's evenings as an iCalendar feed: one event per evening with a stable UID, a start in the club's
zone with its VTIMEZONE (or all day), place, note, the evening's own page (where a member says "I'm in"); and the
club page's calendar link."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient
from icalendar import Calendar

from helpers.clubs import ahead, member, new_club
from helpers.i18n import seen
from scorekeeper.club import evenings, service as clubs


@pytest.fixture
def club(app: Flask, client: FlaskClient) -> str:
    made = new_club(client, "Les Dimanches")
    with app.app_context():
        found = clubs.find(made)
        clubs.set_time_zone(found, "Europe/Paris")
        evenings.schedule(found, ahead(2), "19:30", "Café du Nord", "Bring cards", name="Cup night")
        evenings.schedule(found, ahead(9), "", "", "")
        evenings.schedule(found, ahead(-30), "20:00", "", "")  # a past evening of the year
        evenings.schedule(found, ahead(-400), "20:00", "", "")  # over a year ago: left out
    return made


def feed(client: FlaskClient, club: str) -> Calendar:
    answer = client.get(f"/c/{club}/evenings.ics")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(answer.data)


def test_each_evening_is_one_event_with_a_stable_uid(app: Flask, client: FlaskClient, club: str):
    events = feed(client, club).events
    assert len(events) == 3
    again = feed(client, club).events
    assert [str(e["uid"]) for e in events] == [str(e["uid"]) for e in again]
    with app.app_context():
        ids = [e.id for e in evenings.planned(clubs.find(club), since=ahead(-366))]
    assert [str(e["uid"]) for e in events] == [f"evening-{i}-{club}@scorekeeper" for i in ids]


@pytest.mark.parametrize("host", ["scoresbox", "laptop.local:8443", "localhost:1", "LOCALHOST", "10.0.0.7:5000"])
def test_an_evenings_uid_is_the_same_whatever_host_the_feed_is_read_at(client: FlaskClient, club: str, host: str):
    plain = [str(e["uid"]) for e in feed(client, club).events]
    answer = client.get(f"/c/{club}/evenings.ics", headers={"Host": host})
    assert answer.status_code == 200
    assert [str(e["uid"]) for e in Calendar.from_ical(answer.data).events] == plain
    assert host.split(":")[0].lower() not in "\n".join(plain)


def test_a_start_is_in_the_clubs_zone_with_a_default_length_and_the_details(client: FlaskClient, club: str):
    calendar = feed(client, club)
    cup = next(e for e in calendar.events if "Cup night" in str(e["summary"]))
    start = cup.decoded("dtstart")
    assert start == datetime.combine(ahead(2), time(19, 30), tzinfo=ZoneInfo("Europe/Paris"))
    assert cup["dtstart"].params["TZID"] == "Europe/Paris"
    assert cup.decoded("duration") == timedelta(hours=3)
    assert str(cup["summary"]) == "Les Dimanches · Cup night"
    assert str(cup["location"]) == "Café du Nord" and str(cup["description"]) == "Bring cards"
    assert re.fullmatch(rf"http://localhost/c/{club}/evenings/\d+", str(cup["url"]))
    assert [str(zone["tzid"]) for zone in calendar.walk("VTIMEZONE")] == ["Europe/Paris"]


def test_an_evening_without_a_time_is_an_all_day_event(client: FlaskClient, club: str):
    plain = next(e for e in feed(client, club).events if e.decoded("dtstart") == ahead(9))
    assert plain.decoded("dtend") == ahead(10) and str(plain["summary"]) == "Les Dimanches"
    assert "location" not in plain and "description" not in plain


def test_a_club_in_utc_gives_utc_times_and_no_time_zone(app: Flask, client: FlaskClient):
    made = new_club(client, "UTC club")
    with app.app_context():
        evenings.schedule(clubs.find(made), ahead(1), "18:00", "", "")
    calendar = feed(client, made)
    (event,) = calendar.events
    assert event.decoded("dtstart") == datetime.combine(ahead(1), time(18), tzinfo=timezone.utc)
    assert event.decoded("dtstart").utcoffset() == timedelta(0) and "TZID" not in event["dtstart"].params
    assert not calendar.walk("VTIMEZONE")


def test_the_feed_needs_only_the_club_link_and_an_unknown_club_is_not_found(app: Flask, client: FlaskClient,
                                                                            club: str):
    assert app.test_client().get(f"/c/{club}/evenings.ics").status_code == 200
    assert client.get("/c/nope/evenings.ics").status_code == 404


def test_the_club_page_offers_to_add_the_evenings_to_a_calendar(client: FlaskClient, club: str):
    page = client.get(f"/c/{club}").text
    assert "Add to my calendar" in seen(page)
    assert f'href="webcal://localhost/c/{club}/evenings.ics"' in page


def test_each_event_opens_the_evenings_own_page_with_when_where_and_who_comes(app: Flask, client: FlaskClient,
                                                                               club: str):
    from scorekeeper.club import roster

    with app.app_context():
        found = clubs.find(club)
        cup = next(e for e in evenings.planned(found) if e.name == "Cup night")
        ann = roster.add_player(found, "Ann")
        evenings.answer(found, cup, ann.id, True, None, proven=True)  # from Ann's own phone
    event = next(e for e in feed(client, club).events if "Cup night" in str(e["summary"]))
    page = app.test_client().get(str(event["url"]).removeprefix("http://localhost"))
    assert page.status_code == 200
    text = seen(page.text)
    for words in ("Cup night", "from 19:30", "Where: Café du Nord", "Bring cards", "1 player is coming: Ann"):
        assert words in text, words


def test_a_coming_evenings_event_opens_its_page_with_im_in_for_the_member(app: Flask, client: FlaskClient, club: str):
    from helpers.forms import csrf_token
    from scorekeeper.club import roster

    with app.app_context():
        bob = roster.add_player(clubs.find(club), "Bob").id
    events = {str(e["summary"]): e for e in feed(client, club).events if e.decoded("dtstart") != ahead(9)}
    cup = str(events["Les Dimanches · Cup night"]["url"]).removeprefix("http://localhost")
    phone = member(app, club, bob)
    page = seen(phone.get(cup).text)
    assert "Cup night" in page and "You are Bob." in page and "I'm in" in page and "Not this time" in page
    assert "Results of" not in page
    said = phone.post(f"{cup}/answer", data={"csrf_token": csrf_token(phone, cup), "coming": "in", "back": "evening"})
    assert said.status_code == 302 and said.headers["Location"] == cup  # back on the evening's own page
    page = seen(phone.get(cup).text)
    assert "1 player is coming: Bob" in page and "You said you are coming." in page
    stranger = seen(app.test_client().get(cup).text)  # the club link alone: how to answer, no buttons
    assert "open your own member link" in stranger and "I'm in" not in stranger
    past = next(e for e in feed(client, club).events if e.decoded("dtstart").date() == ahead(-30))
    over = seen(phone.get(str(past["url"]).removeprefix("http://localhost")).text)
    assert "This evening is over" in over and "I'm in" not in over
