"""The evening on a big screen (/c/<club>/evenings/<id>/screen): its round, every table with its players, hands
and totals, who sits out, the evening's winners and the season's top places; nothing to tap and no key; public;
redrawn from the club's live address, which moves with a hand at any table; linked from the evening page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clubs import TEAM_0_LOSES, TEAM_1_LOSES
from helpers.full_evenings import LONG_NAMES, FullEvening
from helpers.i18n import assert_translated, seen
from helpers.matches import barbu_entry, hearts_entry

FOURTEEN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", *LONG_NAMES]
HEARTS = FOURTEEN[8:]


def caller(client: FlaskClient):
    def call(method: str, path: str, body: Any, key: str | None) -> Any:
        answer = client.open(path, method=method, json=body, headers=bearer(key) if key else {})
        assert answer.status_code in (200, 201), (path, answer.get_json())
        return answer.get_json()
    return call


def evening_of(client: FlaskClient, tables: list[tuple[str, list[str]]] | None = None) -> FullEvening:
    """Fourteen at the door (six with long names) and a round of Kozyol, Barbu and Hearts; Ivy sits out."""
    tables = [("kozyol", FOURTEEN[:4]), ("barbu", FOURTEEN[4:8]), ("hearts", HEARTS[:5] + ["Ivy"])] \
        if tables is None else tables
    return FullEvening(caller(client), [*FOURTEEN, "Ivy", "Jon"], tables)


@pytest.fixture
def night(client: FlaskClient) -> FullEvening:
    made = evening_of(client, [("kozyol", FOURTEEN[:4]), ("barbu", FOURTEEN[4:8]), ("hearts", HEARTS)])
    made.play(1, TEAM_1_LOSES)  # Kozyol: one deal ends the series; Bob and Dee are the goat
    for number in (1, 2):
        made.play(2, barbu_entry(number, FOURTEEN[4:8]))
    made.play(3, hearts_entry(1, HEARTS))
    return made


TAPPABLE = re.compile(r"<(a|button|input|select|textarea|form|summary)\b|tabindex=", re.I)


def test_the_screen_shows_the_round_every_table_the_winners_and_the_season(app: Flask, client: FlaskClient,
                                                                            night: FullEvening):
    answer = app.test_client().get(night.screen)  # a TV that holds no key
    assert answer.status_code == 200
    page, text = answer.text, seen(answer.text)
    assert "Round 1 · Friday night" in text and "Les Vendredis" in text
    assert "Table 1 · Kozyol" in text and "Table 2 · Barbu" in text and "Table 3 · Cancellation Hearts" in text
    assert "Sitting out: Ivy, Jon" in text
    assert "1 hand played · Finished" in text and "2 hands played · In progress" in text
    assert "1 hand played · In progress" in text
    assert all(name in text for name in FOURTEEN)
    cards = re.findall(r"<article .*?</article>", page, re.S)
    assert len(cards) == 3
    kozyol = seen(cards[0])
    assert "Ann · Cid 0" in kozyol and "Bob · Dee 4" in kozyol  # defeat points: the fewest lead
    assert re.search(r'<li class="leads"><span class="name">Ann · Cid</span>', cards[0])
    barbu = [(name, int(total.replace("−", "-"))) for name, total in
             re.findall(r'<span class="name">([^<]*)</span> <span class="total">([^<]*)</span>', cards[1])]
    state = client.get(f"/api/v1/matches/{night.tables[1]['match']['id']}").get_json()
    assert barbu == [(name, state["totals"][name]) for name in FOURTEEN[4:8]]  # the match's own totals
    best = max(total for _name, total in barbu)
    assert re.findall(r'<li class="leads"><span class="name">([^<]*)', cards[1]) == \
        [name for name, total in barbu if total == best]
    assert "Winners of the evening Kozyol Ann, Cid" in text
    assert "Top places of Winter Kozyol 1 Ann 1 Cid 3 Bob" in text
    assert not TAPPABLE.search(page.split("<body", 1)[1])
    assert not any(key in page for key in night.keys())


def test_the_screen_is_redrawn_from_the_club_live_address_which_a_hand_at_any_table_moves(client: FlaskClient,
                                                                                          night: FullEvening):
    page = client.get(night.screen).text
    live, etag = re.search(r'<body data-live="([^"]+)" data-etag="([^"]+)"', page).groups()
    assert live == f"/c/{night.club}/live"  # the club page's live address, which the phones poll
    assert 'src="/static/' in page and "js/screen.js" in page
    etag = etag.replace("&#34;", '"')
    assert client.get(live, headers={"If-None-Match": etag}).status_code == 304
    night.play(2, barbu_entry(3, FOURTEEN[4:8]))
    moved = client.get(live, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    again = client.get(night.screen, headers={"X-Live-Redraw": "1"}).text
    assert "3 hands played · In progress" in seen(again)
    assert moved.headers["ETag"] == re.search(r'data-etag="([^"]+)"', again)[1].replace("&#34;", '"')


def test_before_the_first_round_the_screen_says_where_the_tables_will_be(client: FlaskClient):
    night = evening_of(client, [])
    text = seen(client.get(night.screen).text)
    assert "The tables show here once the first round is drawn." in text
    assert "No match has finished yet." in text and "No finished matches in this season yet." in text
    assert "Round" not in text


def test_a_tie_of_many_winners_names_the_first_and_counts_the_rest(client: FlaskClient):
    night = evening_of(client, [("kozyol", FOURTEEN[:4]), ("kozyol", FOURTEEN[4:8]), ("kozyol", FOURTEEN[8:12])])
    for table in (1, 2, 3):
        night.play(table, TEAM_0_LOSES)
    text = seen(client.get(night.screen).text)
    assert "Winners of the evening Kozyol Bob, Dee, Fay, Hal and 2 more" in text


def test_a_closed_evening_says_so(client: FlaskClient, night: FullEvening):
    night.call("POST", f"/api/v1/clubs/{night.club}/evenings/{night.evening}/close", None, night.key)
    text = seen(client.get(night.screen).text)
    assert "This evening is closed." in text and "Table 3 · Cancellation Hearts" in text


def test_an_unknown_evening_or_club_is_404(app: Flask, client: FlaskClient, night: FullEvening):
    other = evening_of(app.test_client(), [])
    assert client.get(f"/c/{night.club}/evenings/{other.evening}/screen").status_code == 404
    assert client.get(f"/c/{night.club}/evenings/99999/screen").status_code == 404
    assert client.get(f"/c/no-such-club/evenings/{night.evening}/screen").status_code == 404


def test_the_evening_page_links_its_screen(client: FlaskClient, night: FullEvening):
    client.get(f"/c/{night.club}/join/{night.key}")  # this phone runs the club
    page = client.get(f"/c/{night.club}/admin/evenings/{night.evening}").text
    assert f'href="{night.screen}"' in page and "Show the evening on a big screen" in page


WORDS = {"fr": ["Tour 1", "Table 1 · Kozyol", "1 donne jouée · Terminée", "Gagnants de la soirée",
                "Premières places de Winter", "Sur la touche : Ivy, Jon"],
         "ru": ["Тур 1", "Стол 1 · Козёл", "1 раздача сыграна · Окончена", "Победители вечера",
                "Лучшие места: Winter", "Отдыхают: Ivy, Jon"]}


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_screen_speaks_the_language_of_its_browser(app: Flask, night: FullEvening, lang: str):
    answer = app.test_client().get(night.screen, headers={"Accept-Language": lang})
    assert f'<html lang="{lang}">' in answer.text
    assert_translated(seen(answer.text), lang, WORDS[lang], "screen")
