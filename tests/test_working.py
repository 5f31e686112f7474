"""Show the working: any hand's scores explained with the real numbers, to anyone at the table."""

from __future__ import annotations

import html
import re

import pytest

from helpers.api import api_url, create_match, play

SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def working(client, made, number: int, lang: str = "en") -> str:
    answer = client.get(f"/m/{made['id']}/working/{number}", headers={"Accept-Language": lang})
    assert answer.status_code == 200
    return text(answer.text)


def test_barbu_shows_raw_scores_each_double_and_the_sum(client):
    made = create_match(client, options={"first_declarer": "Ann"})
    state = play(client, made, {"contract": "trumps", "tricks": {"Ann": 6, "Bob": 3, "Cid": 1, "Dee": 3}, "doubles": [
        {"by": "Bob", "target": "Ann", "redoubled": True}, {"by": "Cid", "target": "Ann", "redoubled": False}]})
    assert state["hands"][0]["settlement"] == [{"by": "Bob", "target": "Ann", "weight": 2, "moved": -30},
                                               {"by": "Cid", "target": "Ann", "weight": 1, "moved": -25}]
    page = working(client, made, 1)
    assert "Ann declared Trumps." in page
    assert "Tricks taken 6 3 1 3" in page and "Raw score 30 15 5 15" in page
    assert "Bob doubled Ann, redoubled: ×2 +30 -30" in page and "Cid doubled Ann +25 -25" in page
    assert "Score of the hand 85 -15 -20 15" in page


@pytest.mark.parametrize("deals, number, sentences", [
    ([{"points": [75, 45]}], 1, ["Card points: Ann & Cid 75, Bob & Dee 45.",
                                 "Bob & Dee lost with 45 card points, 31 or more: a light defeat, 2 defeat points.",
                                 "Bob & Dee take 2 defeat points."]),
    ([{"points": [91, 29]}], 1, ["fewer than 31: 4 defeat points."]),
    ([{"points": [120, 0], "tricks": [9, 0]}], 1, ["Bob & Dee took no trick: 6 defeat points."]),
    ([{"points": [60, 60]}, {"points": [45, 75]}], 2,
     ["The deal before was eggs, so this one counts double: 2 × 2 = 4.", "Ann & Cid take 4 defeat points."]),
    ([{"points": [60, 60]}], 1, ["60 : 60 is eggs: nobody takes defeat points.", "The next deal counts double."]),
])
def test_kozyol_says_why_the_loser_took_its_defeat_points(client, deals, number, sentences):
    made = create_match(client, "kozyol", options={"eggs_double_next": True})
    play(client, made, *deals)
    page = working(client, made, number)
    for sentence in sentences:
        assert sentence in page


def test_hearts_adds_hearts_and_black_marias_and_names_the_moon(client):
    made = create_match(client, "hearts", SIX)
    play(client, made,
         {"hearts": dict(zip(SIX, [5, 4, 3, 6, 8, 0])), "black_marias": dict(zip(SIX, [1, 0, 0, 0, 1, 0]))},
         {"hearts": dict(zip(SIX, [0, 0, 26, 0, 0, 0])), "black_marias": dict(zip(SIX, [0, 0, 2, 0, 0, 0])),
          "moon": "add"})
    first = working(client, made, 1)
    assert "Each heart counts 1, each Black Maria (Q♠) 13." in first
    assert "Ann 5 1 5 × 1 + 1 × 13 = 18 18" in first
    moon = working(client, made, 2)
    assert "Cid took everything and chose to add 26 to everyone else; Cid scores nothing." in moon


def test_anyone_can_read_it_from_the_hand_number_and_a_hand_that_does_not_exist_is_404(app):
    made = create_match(app.test_client(), "kozyol")
    play(app.test_client(), made, {"points": [75, 45]})
    watcher = app.test_client()
    page = watcher.get(f"/m/{made['id']}").text
    assert f'href="/m/{made["id"]}/working/1"' in page
    assert watcher.get(f"/m/{made['id']}/working/2").status_code == 404
    assert watcher.get(api_url(made)).get_json()["hands"][0]["settlement"]["kind"] == "light"


@pytest.mark.parametrize("lang, sentence", [
    ("fr", "Bob et Dee ont perdu avec 45 points de cartes, 31 ou plus : défaite légère, 2 points de pénalité."),
    ("ru", "Bob и Dee проиграли с 45 очками, 31 или больше: лёгкое поражение, 2 штрафных очка."),
])
def test_the_working_reads_in_the_players_language(client, lang, sentence):
    made = create_match(client, "kozyol")
    play(client, made, {"points": [75, 45]})
    assert sentence in working(client, made, 1, lang)
