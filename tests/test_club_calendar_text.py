"""The calendar feed's texts: a club's name, an evening's name, place and note come back from the feed exactly as
typed, escaped as RFC 5545 says (a backslash stays a backslash, "\\N" included), read by a parser of the RFC's own."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.clubs import ahead, new_club
from helpers.ical import events, unescaped, unfolded
from scorekeeper.club import evenings, service as clubs
from scorekeeper.web.club.ical_text import escaped

PLACE = "Salle \\Nord, C:\\Notes"
TEXTS = [
    PLACE,
    "\\N\\n\\\\N\\,\\;",
    "Bring cards; chips, and \\Napkins",
    "Line one\nLine two\n\\Nthree",
    "Кафе «Север», зал №2; вход со двора \\ Nord",
    "émoji 🂡🂱 at the edge " + "x" * 50 + "\\N" * 10,
    "," * 40 + ";" * 40 + "\\" * 40,
]


def feed_of(client: FlaskClient, club: str) -> bytes:
    answer = client.get(f"/c/{club}/evenings.ics")
    assert answer.status_code == 200
    return answer.data


def test_a_backslash_before_a_capital_n_stays_a_backslash(app: Flask, client: FlaskClient):
    club = new_club(client, "Club \\Nord")
    with app.app_context():
        evenings.schedule(clubs.find(club), ahead(3), "19:30", PLACE, "C:\\Notes\\New", name="Soirée \\N1")
    lines = unfolded(feed_of(client, club))
    assert "LOCATION:Salle \\\\Nord\\, C:\\\\Notes" in lines
    assert "DESCRIPTION:C:\\\\Notes\\\\New" in lines
    assert "SUMMARY:Club \\\\Nord · Soirée \\\\N1" in lines
    assert "X-WR-CALNAME:Club \\\\Nord" in lines


@pytest.mark.parametrize("text", TEXTS)
def test_every_text_comes_back_from_the_feed_exactly(app: Flask, client: FlaskClient, text: str):
    name = text.replace("\n", " ")[:60].strip()  # a club's name is one line of at most 60 characters
    club = new_club(client, name)
    with app.app_context():
        found = clubs.find(club)
        evenings.schedule(found, ahead(1), "20:00", text.replace("\n", " ")[:80].strip(), text[:200],
                          name=name[:60])
        evening = evenings.planned(found)[0]
        place, note, called = evening.place, evening.note, evening.name
    calendar, (event,) = events(feed_of(client, club))
    assert unescaped(calendar["X-WR-CALNAME"]) == name
    assert unescaped(event["SUMMARY"]) == f"{name} · {called}"
    assert unescaped(event["LOCATION"]) == place
    assert unescaped(event["DESCRIPTION"]) == note


def test_feed_lines_are_folded_within_75_octets_and_never_inside_a_character(app: Flask, client: FlaskClient):
    club = new_club(client, "Я" * 60)
    with app.app_context():
        evenings.schedule(clubs.find(club), ahead(1), "20:00", "Ж" * 80, "\\N🂡" * 60)
    for line in feed_of(client, club).split(b"\r\n"):
        assert len(line) <= 75
        line.decode("utf-8")  # no character cut in two


@pytest.mark.parametrize("text", TEXTS)
def test_escaping_and_unescaping_give_the_text_back(text: str):
    assert unescaped(escaped(text)) == text
