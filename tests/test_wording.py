"""Words that read right: a doubled deal's sum written out, Kozyol's history in deals, a Russian agreement that fits
any player.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.agreements import asking_club, finished_match, member_phone
from helpers.api import create_match, play
from helpers.i18n import catalog, seen
from helpers.matches import PLAYERS

# Eggs, then a deal lost with 45 card points: 2 defeat points, doubled after the eggs.
EGGS_THEN_LOST = ({"points": [60, 60]}, {"points": [75, 45]})
DOUBLED = {"en": "Bob & Dee lose: 2 × 2 = 4 defeat points", "fr": "Bob & Dee perdent : 2 × 2 = 4 points de pénalité",
           "ru": "Bob & Dee проигрывают: 2 × 2 = 4 штрафных очка"}


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_a_deal_doubled_after_eggs_shows_its_sum_not_a_times_two_beside_the_total(client: FlaskClient, language: str):
    match = create_match(client, "kozyol", PLAYERS, {"eggs_double_next": True})
    play(client, match, *EGGS_THEN_LOST)
    client.get(f"/language/{language}")
    page = seen(client.get(f"/m/{match['id']}").text).replace(" и ", " & ").replace(" et ", " & ")
    assert DOUBLED[language] in page, page[page.find("Bob"):][:300]
    assert not re.search(r"×\s?2(?!\s=)", page.split(DOUBLED[language])[1][:40])


def test_kozyols_history_says_deal_as_its_other_screens_do_and_barbus_says_hand(client: FlaskClient):
    kozyol = create_match(client, "kozyol", PLAYERS)
    play(client, kozyol, *EGGS_THEN_LOST)
    page = seen(client.get(f"/m/{kozyol['id']}/history").text)
    assert "Deal 1 recorded" in page and "Deal 2 recorded" in page
    assert not re.search(r"\bHand\b", page), page
    barbu = create_match(client, "barbu", PLAYERS, {"first_declarer": PLAYERS[0]})
    play(client, barbu, {"contract": "no_queens", "queens": dict(zip(PLAYERS, [1, 1, 1, 1]))})
    assert "Hand 1 recorded" in seen(client.get(f"/m/{barbu['id']}/history").text)


GENDERED = re.compile(r"\b(согласен|согласна|согласился|согласилась|согласных)\b", re.I)


def test_russian_agreement_words_fit_any_player(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    ann = member_phone(app, club, match, 0)
    ann.get("/language/ru")
    page = seen(ann.get(f"/m/{match['id']}").text)
    assert "Я — Ann: подтверждаю" in page and not GENDERED.search(page)
    said = [(message.id, message.string) for message in catalog("ru") if message.id]
    assert [msgid for msgid, text in said if GENDERED.search(" ".join(text) if isinstance(text, tuple) else text)] == []
