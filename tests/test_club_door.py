"""Who is at an evening: everyone who said "I'm in" and everyone marked here at the door, minus those marked not
here; the door list shows both, the evening's page, its rounds page, the draw and the API count the same players,
in every language; and from the evening's page every step of the night is one tap."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clubs import new_club
from helpers.forms import csrf_token
from helpers.i18n import seen

API = "/api/v1"
TWELVE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kay", "Lou"]


class Door:
    """A club of twelve run from this client, today's evening planned, the first ten having said "I'm in"."""

    def __init__(self, app: Flask, client: FlaskClient, said_in: int = 10):
        from scorekeeper.club import evenings, roster, service as clubs

        self.client = client
        self.club = new_club(client)
        with app.app_context():
            found = clubs.find(self.club)
            self.ids = {name: roster.add_player(found, name).id for name in TWELVE}
            (evening,) = evenings.schedule(found, datetime.now(timezone.utc).date(), "19:30", "", "")
            self.evening = evening.id
            for name in TWELVE[:said_in]:  # each from their own phone, or through the admin: proven
                evenings.answer(found, evening, self.ids[name], True, None, proven=True)
        self.page = f"/c/{self.club}/admin/evenings/{self.evening}"

    def tap(self, name: str, here: bool) -> None:
        """One tap on a player at the door."""
        tapped = self.client.post(f"{self.page}/present", data={
            "csrf_token": csrf_token(self.client, self.page), "player": self.ids[name], "present": "1" if here else "0"})
        assert tapped.status_code == 302 and tapped.headers["Location"].endswith(f"{self.page}#door")

    def seen(self, url: str) -> str:
        answer = self.client.get(url)
        assert answer.status_code == 200, url
        return seen(answer.text)


@pytest.fixture
def door(app: Flask, client: FlaskClient) -> Door:
    return Door(app, client)


def test_a_latecomer_at_the_door_joins_those_who_said_im_in(app: Flask, door: Door):
    from scorekeeper.club import evenings, service as clubs

    door.tap("Kay", True)
    with app.app_context():
        here = evenings.present_ids(evenings.evening_of(clubs.find(door.club), door.evening))
    assert sorted(here) == sorted(door.ids[name] for name in [*TWELVE[:10], "Kay"])
    page = door.seen(door.page)
    assert page.count("11 players are here.") == 2  # under the evening's name and at the door
    assert "Ann said in" in page and "Kay marked here" in page and "Lou Change the plan" in page  # Lou: no word
    rounds = door.seen(f"{door.page}/rounds")
    assert "11 players are here." in rounds
    drawn = door.client.get(f"{door.page}/rounds/new?game=kozyol&seed=7")
    assert drawn.status_code == 200 and "Table 2 · Kozyol" in seen(drawn.text) and "are here" not in seen(drawn.text)


def test_a_player_who_said_im_in_and_never_came_is_marked_not_here(app: Flask, door: Door):
    door.tap("Kay", True)
    door.tap("Jo", False)
    door.tap("Kay", False)  # tapped by mistake: not here either
    page = door.seen(door.page)
    assert page.count("9 players are here.") == 2
    assert "Jo said in · marked not here" in page and "Kay marked not here" in page
    planned = door.client.get(f"{API}/clubs/{door.club}/planned-evenings/{door.evening}").get_json()
    assert [p["name"] for p in planned["here"]] == TWELVE[:9]
    assert [p["name"] for p in planned["absent"]] == ["Jo", "Kay"] and planned["present"] == []
    assert [p["name"] for p in planned["coming"]] == TWELVE[:10]  # what they said stays what they said
    door.tap("Jo", True)  # came after all
    assert door.seen(door.page).count("10 players are here.") == 2


def test_the_api_marks_a_player_here_or_not_here(app: Flask, client: FlaskClient, door: Door):
    from scorekeeper.club import service as clubs

    with app.app_context():
        key = clubs.rotate_key(door.club)
    url = f"{API}/clubs/{door.club}/planned-evenings/{door.evening}/present"
    marked = client.put(f"{url}/{door.ids['Ann']}", json={"present": False}, headers=bearer(key))
    assert marked.status_code == 200
    assert (marked.get_json()["present"], marked.get_json()["absent"], marked.get_json()["coming"]) == (False, True,
                                                                                                        True)
    assert client.put(f"{url}/{door.ids['Lou']}", json={"present": True}, headers=bearer(key)).get_json()["absent"] \
        is False
    here = client.get(f"{API}/clubs/{door.club}/planned-evenings/{door.evening}").get_json()["here"]
    assert [p["name"] for p in here] == [*TWELVE[1:10], "Lou"]


@pytest.mark.parametrize(("lang", "counts"), [
    ("en", {1: "1 player is here.", 2: "2 players are here.", 5: "5 players are here."}),
    ("fr", {1: "1 joueur est là.", 2: "2 joueurs sont là.", 5: "5 joueurs sont là."}),
    ("ru", {1: "1 игрок здесь.", 2: "2 игрока здесь.", 5: "5 игроков здесь.", 12: "12 игроков здесь."}),
])
def test_the_count_at_the_door_and_the_draw_refused_read_right_in_every_language(app: Flask, client: FlaskClient,
                                                                              lang: str, counts: dict[int, str]):
    door = Door(app, client, said_in=0)
    client.get(f"/language/{lang}")
    marked = 0
    for count, sentence in counts.items():
        for name in TWELVE[marked:count]:
            door.tap(name, True)
        marked = count
        assert door.seen(door.page).count(sentence) == 2, (lang, sentence)
        assert sentence in door.seen(f"{door.page}/rounds")
    door = Door(app, client, said_in=1)
    refused = seen(client.get(f"{door.page}/rounds/new?game=kozyol&seed=1").text)
    assert {"en": "These tables need at least 4 players; players here: 1.",
            "fr": "Ces tables demandent au moins 4 joueurs ; joueurs présents : 1.",
            "ru": "Для этих столов нужно игроков: не меньше 4, а здесь 1."}[lang] in refused


def test_every_step_of_the_night_is_one_tap_from_the_evenings_page(door: Door):
    day = datetime.now(timezone.utc).date().isoformat()
    page = door.client.get(door.page).text
    rounds, results = f"{door.page}/rounds", f"/c/{door.club}/evenings/{day}/results"
    for address in ('href="#door"', f'href="{rounds}#draw-heading"', f'href="{rounds}"', f'href="{results}"',
                    f'action="/c/{door.club}/admin/evenings/{day}/close"'):
        assert address in page, address
    assert "Draw round 1" in seen(page) and "Table cards (PDF)" not in seen(page)  # no round yet
    drawn = door.client.get(f"{rounds}/new?game=kozyol&seed=3")
    form = {"csrf_token": csrf_token(door.client, door.page), "seed": "3", "number": "1", "game": "kozyol"}
    confirmed = door.client.post(rounds, data={**form, **tables_of(drawn.text)})
    assert confirmed.status_code == 302, seen(confirmed.text)
    page = door.client.get(door.page).text
    assert f'href="/c/{door.club}/evenings/{door.evening}/cards.pdf"' in page and "Draw round 2" in seen(page)
    shown = door.client.get(rounds).text  # the rounds page: the door and the results one tap away
    assert f'href="{door.page}#door"' in shown and f'href="{results}"' in shown
    assert f'href="{door.page}"' in door.client.get(results).text  # and back from the results


def tables_of(page: str) -> dict[str, str]:
    """The tables a proposal page would confirm, as its form sends them."""
    return dict(re.findall(r'name="(table-\d+)" value="([^"]+)"', page))
