"""Whole sentences, never pieces: what a player reads is one text of the catalog with its values in place.

Khmer and Lao put the words of a sentence in another order than English, French or Russian: a sentence made of
a translated piece, a colon and another piece cannot be translated. Each sentence here is read on the page, the
sheet or the form the way a player reads it, in every language of the app.
"""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from helpers.api import create_match, play
from helpers.i18n import seen, squeeze, with_languages
from helpers.matches import PLAYERS

KOZYOL = ["Ёжик", "Козлов", "Ann", "Bob"]
# Eggs, then Козлов & Bob take no trick twice: the goat with eggs at 12.
GOAT_WITH_EGGS = ({"points": [60, 60]}, {"points": [120, 0], "tricks": [9, 0]}, {"points": [120, 0], "tricks": [9, 0]})
REDOUBLED = {"contract": "no_queens", "queens": dict(zip(PLAYERS, [1, 0, 1, 2])),
             "doubles": [{"by": "Bob", "target": "Ann", "redoubled": True}]}


def read(client: FlaskClient, url: str, language: str) -> str:
    answer = client.get(url, headers={"Accept-Language": language})
    assert answer.status_code == 200, (url, answer.status_code)
    return answer.text


def said(page: str, css: str) -> str:
    """The text of the page's first element of that class, its inline elements (a name, a gloss) read as written."""
    found = re.search(rf'<(\w+) class="{css}">(.*?)</\1>', page, re.S)
    assert found, css
    return squeeze(html.unescape(re.sub(r"<[^>]+>", "", found[2])))


def goat_sheet(client: FlaskClient) -> str:
    match = create_match(client, "kozyol", KOZYOL)
    play(client, match, *GOAT_WITH_EGGS)
    return f"/m/{match['id']}/sheet"


@pytest.mark.parametrize(("language", "goat", "rule"), [
    ("en", "The goat: Козлов & Bob, with eggs. Winners: Ёжик & Ann",
     "the goat at 12 defeat points, after eggs the next deal counts double"),
    ("fr", "Le bouc : Козлов & Bob, avec les œufs. Gagnants : Ёжик & Ann",
     "bouc à 12 points de pénalité, après les œufs, la donne suivante compte double"),
    ("ru", "Козлы: Козлов & Bob, с яйцами. Победители: Ёжик & Ann",
     "козлы — при 12 штрафных очках, после яиц следующая раздача идёт в двойном размере"),
])
def test_the_kozyol_sheet_says_the_goat_in_one_sentence(client, language, goat, rule):
    match = create_match(client, "kozyol", KOZYOL, {"eggs_double_next": True})
    play(client, match, *GOAT_WITH_EGGS[:2])  # the no trick after eggs counts double: 12
    sheet = read(client, f"/m/{match['id']}/sheet", language)
    assert said(sheet, "result") == goat
    page = seen(sheet)
    assert rule in page
    assert re.search(r"(Team|Équipe|Команда) 1 ?: Ёжик & Ann", page)
    assert ("Козёл" in page) is (language == "ru") and "козёл" not in page


def test_a_sheet_in_a_language_without_the_russian_words_prints_its_own_alone(client, monkeypatch):
    """The game's Russian words are on a Russian sheet only: every other language says the game in its own words."""
    with_languages(monkeypatch)
    url = goat_sheet(client)
    for language in ("en", "fr", "km", "lo"):
        page = read(client, url, language)
        assert f'<html lang="{language}">' in page and 'lang="ru"' not in page
        result = said(page, "result")  # in the words of the language's catalog
        assert "Козлов & Bob" in result and not re.search(r"[а-яё]", result.replace("Козлов", "").replace("Ёжик", ""), re.I)
        assert "козёл" not in page and "яйца" not in page


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["Hands 1–7 · Ann declares", "Raw: the contract's score; score: after doubles; Σ: running total.",
            "Contracts: I No Tricks, II No Queens, III No Hearts, IV No Last Two, V Barbu, VI Trumps, VII Dominoes."]),
    ("fr", ["Donnes 1–7 · Ann déclare", "Brut : score du contrat ; score : après les contres ; Σ : cumul.",
            "Contrats : I Pas de plis, II Pas de dames, III Pas de cœurs, IV Pas de deux derniers, V Barbu, VI Atout, "
            "VII Réussite."]),
    ("ru", ["Раздачи 1–7 · Ann заказывает", "Очки — за контракт; итог — с учётом контр; Σ — нарастающий итог.",
            "Контракты: I Без взяток, II Без дам"]),
])
def test_the_barbu_sheet_names_its_contracts_in_a_legend_of_whole_sentences(client, language, words):
    match = create_match(client, "barbu", PLAYERS, {"first_declarer": "Ann"})
    play(client, match, REDOUBLED)
    page = seen(read(client, f"/m/{match['id']}/sheet", language))
    for said in words:
        assert said in page, (said, page[page.find("Raw") if "Raw" in page else 0:][:800])
    assert "(A)" in page and re.search(r"\bII\b", page)  # the first hand's line: its numeral, the doubles


@pytest.mark.parametrize(("language", "title", "heading"), [
    ("en", "Bob doubled Ann, redoubled", "Hand 2: No Tricks"),
    ("fr", "Bob a contré Ann, surcontré", "Donne 2 : Pas de plis"),
    ("ru", "Bob: контра игроку Ann, реконтра", "Раздача 2: Без взяток"),
])
def test_a_redouble_and_a_hand_with_its_contract_are_said_whole(client, language, title, heading):
    match = create_match(client, "barbu", PLAYERS, {"first_declarer": "Ann"})
    play(client, match, REDOUBLED)
    client.get(match["edit_url"].split("localhost", 1)[1])
    sheet = read(client, f"/m/{match['id']}", language)
    assert f'title="{title}"' in html.unescape(sheet)
    form = read(client, f"/m/{match['id']}/hands/new?variant=no_tricks", language)
    assert re.search(rf"<h1>{re.escape(heading)}</h1>", html.unescape(form).replace("\u00a0", " "))
    label = re.search(r'data-label="([^"]*)"', form)[1]  # how the phone's outbox names the hand it keeps
    assert html.unescape(label).replace("\u00a0", " ") == heading.replace(" 2", " {n}")


@pytest.mark.parametrize(("language", "sentences"), [
    ("en", {"label-doubles": "Save records: {counts}. Doubles: {doubles}", "count": "{name} {count}"}),
    ("fr", {"label-doubles": "Enregistrer inscrira : {counts}. Contres : {doubles}", "count": "{name} {count}"}),
    ("ru", {"label-doubles": "Будет записано: {counts}. Контры: {doubles}", "count": "{name} {count}"}),
])
def test_the_barbu_form_brings_its_script_whole_sentences(client, language, sentences):
    """What Save records is one sentence of the page's, the script filling in its values (static/js/steppers.js)."""
    match = create_match(client, "barbu", PLAYERS, {"first_declarer": "Ann"})
    client.get(match["edit_url"].split("localhost", 1)[1])
    form = html.unescape(read(client, f"/m/{match['id']}/hands/new?variant=no_tricks", language)).replace("\u00a0", " ")
    for name, sentence in sentences.items():
        assert f'data-{name}="{sentence}"' in form


@pytest.mark.parametrize(("language", "rows"), [
    ("en", ["{name} {hearts} ♥", "{name} {hearts} ♥ {marias} Q♠ (the rest)"]),
    ("fr", ["{name} {hearts} ♥", "{name} {hearts} ♥ {marias} D♠ (le reste)"]),
    ("ru", ["{name} {hearts} ♥", "{name} {hearts} ♥ {marias} Д♠ (остаток)"]),
])
def test_the_hearts_form_says_each_row_in_the_pages_words(client, language, rows):
    match = create_match(client, "hearts", ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"])
    client.get(match["edit_url"].split("localhost", 1)[1])
    form = html.unescape(read(client, f"/m/{match['id']}/hands/new", language))
    said = dict(re.findall(r'data-(row[\w-]*)="([^"]*)"', form))
    assert said["row"] == rows[0] and said["row-marias-rest"] == rows[1]


@pytest.mark.parametrize(("language", "named", "rank"), [
    ("en", "{seat}: {name}", "Aces (11)"), ("fr", "{seat} : {name}", "As (11)"), ("ru", "{seat}: {name}", "Тузы (11)"),
])
def test_a_seat_with_its_name_and_a_rank_with_its_points_are_the_pages_sentences(client, language, named, rank):
    form = html.unescape(read(client, "/new/kozyol", language)).replace("\u00a0", " ")
    assert f'data-seat-named="{named}"' in form
    match = create_match(client, "kozyol", KOZYOL)
    client.get(match["edit_url"].split("localhost", 1)[1])
    assert rank in seen(read(client, f"/m/{match['id']}/hands/new", language))


@pytest.mark.parametrize(("language", "goat"), [
    ("en", "The goat with eggs: Козлов · Bob"), ("fr", "Le bouc avec les œufs : Козлов · Bob"),
    ("ru", "Козлы с яйцами: Козлов · Bob"),
])
def test_the_table_view_says_the_goat_with_eggs_in_one_sentence(client, language, goat):
    match = create_match(client, "kozyol", KOZYOL)
    play(client, match, *GOAT_WITH_EGGS)
    assert goat in seen(read(client, f"/m/{match['id']}/table", language))


@pytest.mark.parametrize(("language", "deal"), [
    ("en", "6 players: 17 cards each, 2 left over for the first trick"),
    ("fr", "6 joueurs : 17 cartes à chacun, 2 en reste pour le premier pli"),
    ("ru", "6 игроков: по 17 карт, 2 в остатке — их забирает первая взятка"),
])
def test_the_hearts_sheet_says_the_deal_in_one_sentence(client, language, deal):
    assert deal in seen(read(client, "/sheets/hearts?seats=6", language))
