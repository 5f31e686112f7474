"""The club's new sentences in French and Russian: an evening with a match finished and one at the table, a
player's best and worst contract, the roster's merge, its undoing and a refused removal, the seating chips."""

from __future__ import annotations

import random

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.club_matches import FOUR, random_match
from helpers.clubs import admin_post, new_club
from helpers.forms import csrf_token
from helpers.i18n import assert_translated, seen

WORDS = {
    "club": {"fr": ["Terminée", "En cours", "Gagnant", "Imprimé le"], "ru": ["Окончена", "Идёт", "Победитель",
                                                                          "Напечатано"]},
    "player": {"fr": ["Meilleur contrat comme défenseur", "par donne"],
               "ru": ["Лучший контракт, защищаясь", "за раздачу"]},
    "admin": {"fr": ["devient", "Entrées fusionnées", "Annuler", "Retirer de la liste",
                     "Zed a joué au club, et un joueur qui a des parties reste dans la liste"],
              "ru": ["становится", "Объединённые записи", "Отменить", "Убрать из списка",
                     "Zed уже играл(а) в клубе, а игрок с матчами остаётся в списке"]},
    "new": {"fr": ["Touchez les joueurs dans l'ordre des places"], "ru": ["Нажимайте на игроков в порядке мест"]},
}


def ids(app: Flask, club: str) -> dict[str, int]:
    from scorekeeper.club import service as clubs

    with app.app_context():
        return {player.name: player.id for player in clubs.roster(clubs.find(club))}


def a_club_night(app: Flask, client: FlaskClient) -> str:
    """A finished Barbu match, a Kozyol series at the table, Annie merged into Ann, Zed seated once."""
    from scorekeeper.club import service as clubs

    club = new_club(client)
    for name in [*FOUR, "Annie", "Zed"]:
        assert admin_post(client, club, "players", "add", {"name": name}).status_code == 302
    replay, entries = random_match(random.Random(3), "barbu")
    with app.app_context():
        match, key = clubs.start_match(clubs.find(club), "barbu", list(replay.players), dict(replay.options))
        public_id = match.public_id
    for entry in entries:
        assert client.post(f"/api/v1/matches/{public_id}/hands", json=entry, headers=bearer(key)).status_code == 201
    data = {"csrf_token": csrf_token(client, "/clubs/new"), "target": "1", "first_dealer": "0",
            **{f"players-{seat}": name for seat, name in enumerate(["Zed", "Bob", "Cid", "Dee"])}}
    assert client.post(f"/c/{club}/new/kozyol", data=data).status_code == 302
    player = ids(app, club)
    assert admin_post(client, club, "merge", "merge", {"gone": player["Annie"], "keep": player["Ann"]}).status_code == 302
    return club


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_club_at_phone_size_in_french_and_russian(app: Flask, client: FlaskClient, lang: str):
    club = a_club_night(app, client)
    player = ids(app, club)
    client.get(f"/language/{lang}")
    refused = admin_post(client, club, "remove", "remove", {"player": player["Zed"]})
    assert refused.status_code == 422
    for name, text in (("club", client.get(f"/c/{club}").text),
                       ("player", client.get(f"/c/{club}/players/{player['Ann']}").text),
                       ("admin", refused.text), ("new", client.get(f"/c/{club}/new/kozyol").text)):
        assert f'<html lang="{lang}">' in text
        assert_translated(seen(text), lang, WORDS[name][lang], name)
