"""Every language of the app: complete catalogs, every page and sheet in each language, the API's errors.

The catalogs of every language in LANGUAGES are checked against a fresh extraction (nothing missing,
nothing fuzzy or empty, the same placeholders, each plural with its language's number of forms: three
in Russian, one in Khmer and Lao). Pages are read the way a player reads them: the
text and the labels a screen reader speaks; a page in French or Russian must hold the game's own
words and no English sentence of the catalog. Sheets are checked in the PDF text with poppler.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import ngettext

from helpers.api import bearer, create_match
from helpers.forms import post_form
from helpers.i18n import BRACES, PERCENT, assert_translated, catalog, forms, seen, squeeze, translated
from scorekeeper.config import ROOT
from scorekeeper.games import GAMES, barbu
from scorekeeper.i18n import LANGUAGES, compile_catalogs
from scorekeeper.web.games.barbu import counter_texts

TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")  # every catalog: a language added is checked too
REGIONS = {"fr": "FR", "ru": "RU", "km": "KH", "lo": "LA"}  # how a phone of the language says it (Accept-Language)
EXTRACT = ["extract", "-F", "babel.cfg", "-k", "N_", "-k", "_l", "-k", "lazy_gettext"]

BARBU = ["Ann", "Bob", "Ёжик", "Козлов"]
KOZYOL = ["Ёжик", "Козлов", "Ann", "Bob"]
HEARTS = ["Ann", "Bob", "Cid", "Dee", "Ёжик", "Козлов"]
BARBU_HANDS = [
    {"contract": "no_tricks", "tricks": {"Ann": 3, "Bob": 4, "Ёжик": 5, "Козлов": 1},
     "doubles": [{"by": "Bob", "target": "Ann"}, {"by": "Ёжик", "target": "Ann", "redoubled": True}]},
    {"contract": "no_queens", "queens": {"Ann": 1, "Bob": 0, "Ёжик": 1, "Козлов": 2}},
    {"contract": "trumps", "tricks": {"Ann": 6, "Bob": 3, "Ёжик": 1, "Козлов": 3}, "trump_suit": "hearts"},
]
KOZYOL_DEALS = [{"points": [60, 60]}, {"points": [75, 45]}, {"points": [120, 0], "tricks": [9, 0]},
                {"points": [29, 91], "last_trick": "Bob"}]
HEARTS_HANDS = [{"hearts": dict(zip(HEARTS, [5, 0, 7, 3, 2, 4])), "black_marias": dict(zip(HEARTS, [1, 0, 0, 1, 0, 0]))}]
MATCHES = {"barbu": (BARBU, {"first_declarer": "Ann"}, BARBU_HANDS), "kozyol": (KOZYOL, None, KOZYOL_DEALS),
           "hearts": (HEARTS, None, HEARTS_HANDS)}

# Words players use at the table, per language and page: the page must show them.
WORDS: dict[str, dict[str, list[str]]] = {
    "home": {"fr": ["Commencer une partie", "Dame de pique à deux jeux", "Feuilles de marque vierges", "4 joueurs"],
             "ru": ["Начать партию", "Козёл", "Черви на две колоды", "Барбу", "4 игрока", "от 6 до 11 игроков"]},
    "new/barbu": {"fr": ["Premier déclarant", "Points de la réussite", "Langue de la feuille imprimée"],
                  "ru": ["Кто заказывает первым", "Очки за домино", "Язык печатного бланка"]},
    "new/kozyol": {"fr": ["bouc", "Points de pénalité qui finissent la partie", "œufs"],
                   "ru": ["козлы", "Штрафные очки до конца партии", "После яиц"]},
    "new/hearts": {"fr": ["Le grand chelem vaut", "Premier donneur"], "ru": ["«Луна» стоит", "Кто сдаёт первым"]},
    "match/barbu": {"fr": ["Pas de plis", "Pas de dames", "Atout", "Contrats restants", "Déclarant", "Donneur", "Coupe",
                           "Feuille de marque", "Contres encore dus"],
                    "ru": ["Без взяток", "Без дам", "Козыри", "Оставшиеся контракты", "Заказывает", "Сдаёт",
                           "Снимает", "Запись счёта", "Контры, которые ещё должны"]},
    "match/kozyol": {"fr": ["Kozyol", "Œufs : personne ne perd", "perdent : 6 points de pénalité", "dernier pli : Bob"],
                     "ru": ["Козёл", "Яйца: никто не проиграл", "проигрывают: 2 штрафных очка",
                            "проигрывают: 6 штрафных очков", "последняя взятка: Bob"]},
    "match/hearts": {"fr": ["Dame de pique à deux jeux", "dames de pique", "Passe de 3 cartes"],
                     "ru": ["Черви на две колоды", "пиковые дамы", "Передать 3 карты"]},
    "hand/kozyol": {"fr": ["De quelle équipe comptez-vous les plis ?", "Couleur d’atout et dernier pli", "As"],
                    "ru": ["Чьи взятки вы считаете?", "Козырь и последняя взятка", "Ни одной взятки", "Тузы", "♠ Пики"]},
    "hand/hearts": {"fr": ["dames de pique", "Grand chelem", "17 cartes à chacun, 2 en reste"],
                    "ru": ["пиковые дамы", "Выстрел в луну", "по 17 карт, 2 в остатке"]},
    "hand/barbu": {"fr": ["Contres", "Contre", "Enregistrer la donne 1"], "ru": ["Контры", "Контра", "Записать раздачу 1"]},
    "choose": {"fr": ["Quel contrat ?", "Pas de deux derniers", "Réussite"],
               "ru": ["Какой контракт?", "Без двух последних", "Домино"]},
    "table": {"fr": ["Déclarant", "Pas de cœurs"], "ru": ["Заказывает", "Без червей"]},
    "history": {"fr": ["Historique des saisies", "Donne 1 enregistrée"], "ru": ["История записей", "Раздача 1 записана"]},
    "import": {"fr": ["Restaurer une partie depuis une sauvegarde"], "ru": ["Восстановить партию из резервной копии"]},
    "404": {"fr": ["Cette partie ou cette donne n’existe pas."], "ru": ["Такой партии или раздачи нет."]},
    "403": {"fr": ["Seuls les téléphones qui ont ouvert le lien de saisie"],
            "ru": ["Записывать раздачи могут только телефоны"]},
}
CONTRACT_WORDS = {
    "no_tricks": {"fr": ["Pas de plis", "13 plis : encore 13 plis"], "ru": ["Без взяток", "13 взяток: ещё 13 взяток"]},
    "no_queens": {"fr": ["Pas de dames", "4 dames : encore 4 dames"], "ru": ["Без дам", "4 дамы: ещё 4 дамы"]},
    "no_hearts": {"fr": ["Pas de cœurs", "Qui a pris l’as de cœur ?"], "ru": ["Без червей", "У кого туз червей?"]},
    "no_last_two": {"fr": ["Pas de deux derniers", "Qui a fait le 12e pli ?"],
                    "ru": ["Без двух последних", "Кто взял 12-ю взятку?"]},
    "barbu": {"fr": ["Barbu", "Qui a pris le roi de cœur ?"], "ru": ["Барбу", "У кого король червей?"]},
    "trumps": {"fr": ["Atout", "Couleur d’atout (facultatif)", "♥ Cœur"], "ru": ["Козыри", "Козырная масть", "♥ Черви"]},
    "dominoes": {"fr": ["Réussite", "Premier sorti", "Carte de départ"], "ru": ["Домино", "Первое место", "Начальная карта"]},
}


# -- catalogs ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Catalog:
    """A fresh extraction of every string, as the README says to make one."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *EXTRACT, "-o", str(pot), "."],
                   cwd=ROOT, check=True, capture_output=True)
    with pot.open("rb") as source:
        return read_po(source)


def test_extraction_finds_engine_form_template_and_plural_strings(extracted):
    ids = {message.id for message in extracted}
    assert "{name} has already played {contract} in this block." in ids  # N_ in the engine
    assert "No Queens" in ids and "Dominoes" in ids  # contract names, N_
    assert "Who declares first" in ids  # _l on a form
    assert "That edit key does not belong to this match." in ids  # web/errors.py, N_
    assert ("%(num)d hand", "%(num)d hands") in ids  # ngettext in a template
    assert ("%(total)d tricks: %(num)d left", "%(total)d tricks: %(num)d left") in ids  # ngettext in Python


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_translates_every_extracted_string(extracted, lang):
    translated = {message.id: message for message in catalog(lang) if message.id}
    missing = [message.id for message in extracted if message.id and message.id not in translated]
    assert not missing, f"{lang}: not in the catalog (run pybabel update, then translate): {missing}"
    empty = [m.id for m in translated.values() if not all(forms(m))]
    assert not empty, f"{lang}: empty translations: {empty}"
    fuzzy = [m.id for m in catalog(lang) if m.fuzzy]
    assert not fuzzy, f"{lang}: fuzzy entries (check and clear the flag): {fuzzy}"


def test_committed_template_matches_a_fresh_extraction(extracted):
    with (ROOT / "translations" / "messages.pot").open("rb") as source:
        committed = {message.id for message in read_po(source) if message.id}
    assert committed == {message.id for message in extracted if message.id}, "re-run pybabel extract"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_every_placeholder(lang):
    for message in catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = forms(message)
        for n, text in enumerate(texts):
            english = ids[min(n, len(ids) - 1)]
            for pattern in (BRACES, PERCENT):
                found = set(pattern.findall(text))
                if len(ids) > 1 and len(texts) == 1:
                    # A language with one form (Khmer, Lao) says every count with it: it may name what either
                    # English form names, and names what both do.
                    singular, plural = (set(pattern.findall(form)) for form in ids)
                    assert singular & plural <= found <= singular | plural, (lang, ids, text)
                else:
                    assert found == set(pattern.findall(english)), (lang, english, text)
            # Templates always %-format (newstyle gettext), the engine's reasons str.format: both must work.
            assert text % {name: 1 for name in PERCENT.findall(text)}
            if BRACES.search(english):
                assert text.format(**{name: "x" for name in BRACES.findall(english)})


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_plural_has_its_languages_number_of_forms(lang):
    translations = catalog(lang)
    assert translations.num_plurals >= 1 and f"nplurals={translations.num_plurals}" in translations.plural_forms
    assert all(len(m.string) == translations.num_plurals for m in translations if isinstance(m.id, tuple))


def test_plural_forms_russian_three_french_two():
    russian, french = catalog("ru"), catalog("fr")
    assert russian.num_plurals == 3 and "nplurals=3" in russian.plural_forms
    assert french.num_plurals == 2
    plurals = [m for m in russian if isinstance(m.id, tuple)]
    assert len(plurals) >= 10
    assert all(len(m.string) == 3 for m in plurals)
    assert all(len(m.string) == 2 for m in french if isinstance(m.id, tuple))


@pytest.mark.parametrize(("count", "hands", "points"), [
    (1, "1 раздача", "1 штрафное очко"), (2, "2 раздачи", "2 штрафных очка"), (5, "5 раздач", "5 штрафных очков"),
    (11, "11 раздач", "11 штрафных очков"), (21, "21 раздача", "21 штрафное очко"), (24, "24 раздачи", "24 штрафных очка"),
])
def test_russian_counts_take_the_right_form(app: Flask, count, hands, points):
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        assert ngettext("%(num)d hand", "%(num)d hands", count) == hands
        assert ngettext("%(team)s lose: %(num)d defeat point", "%(team)s lose: %(num)d defeat points", count,
                        team="Ann и Cid") == f"Ann и Cid проигрывают: {points}"


def test_compiling_is_idempotent_and_follows_the_po(tmp_path):
    folder = tmp_path / "translations"
    shutil.copytree(ROOT / "translations", folder, ignore=shutil.ignore_patterns("*.mo"))
    assert len(compile_catalogs(folder)) == len(TRANSLATED)
    assert compile_catalogs(folder) == []
    po = folder / "ru" / "LC_MESSAGES" / "messages.po"
    po.touch()
    mo = po.with_suffix(".mo")
    po_time = po.stat().st_mtime
    os.utime(mo, (po_time - 10, po_time - 10))
    assert compile_catalogs(folder) == [mo]


# -- the Barbu counter: plurals done on the server --------------------------------------------------------


def test_counter_sentences_are_plural_correct_in_russian(app):
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        tricks, queens = counter_texts("tricks", 4), counter_texts("queens", 4)
    assert tricks[12] == "13 взяток: ещё 1 взятка"
    assert tricks[11] == "13 взяток: ещё 2 взятки"
    assert tricks[8] == "13 взяток: ещё 5 взяток"
    assert tricks[13] == "13 взяток: все подсчитаны"
    assert tricks[14] == "13 взяток: 1 лишняя" and tricks[16] == "13 взяток: 3 лишние" and tricks[20] == "13 взяток: 7 лишних"
    assert queens[0] == "4 дамы: ещё 4 дамы" and queens[3] == "4 дамы: ещё 1 дама"
    assert len(tricks) == 53 and len(queens) == 17


def test_counter_is_in_the_page_for_the_script(client, lang_client):
    made = create_match(client, "barbu", BARBU, {"first_declarer": "Ann"})
    russian = lang_client("ru", made)
    page = russian.get(f"/m/{made['id']}/hands/new?variant=no_tricks").text
    counter = json.loads(html.unescape(re.search(r"data-counter='([^']*)'", page).group(1)))
    assert counter["11"] == "13 взяток: ещё 2 взятки" and counter["13"] == "13 взяток: все подсчитаны"
    assert "13 взяток: ещё 13 взяток" in seen(page)


# -- pages in each language --------------------------------------------------------------------------------


@pytest.fixture
def lang_client(app: Flask):
    """A new phone that chose lang with the switcher (and joined the match's edit link, when given)."""

    def make(lang: str, match: dict[str, Any] | None = None) -> FlaskClient:
        phone = app.test_client()
        answer = phone.get(f"/language/{lang}?next=/")
        assert answer.status_code == 302
        if match is not None:
            assert phone.get(match["edit_url"].split("localhost", 1)[1]).status_code == 302
        return phone

    return make


def played(client: FlaskClient, game: str, language: str | None = None) -> dict[str, Any]:
    """A match of game with a few hands recorded through the API."""
    players, options, hands = MATCHES[game]
    body: dict[str, Any] = {"game": game, "players": players}
    if options:
        body["options"] = options
    if language:
        body["language"] = language
    made = client.post("/api/v1/matches", json=body)
    assert made.status_code == 201, made.get_json()
    made = made.get_json()
    for hand in hands:
        answer = client.post(f"/api/v1/matches/{made['id']}/hands", json=hand, headers=bearer(made["edit_key"]))
        assert answer.status_code == 201, answer.get_json()
    return made


def pages(client: FlaskClient) -> dict[str, tuple[str, int, dict[str, Any] | None]]:
    """Every kind of page: name -> (address, status, match whose edit link the phone joins)."""
    matches = {game: played(client, game) for game in MATCHES}
    fresh = create_match(client, "barbu", BARBU, {"first_declarer": "Ann"})
    found = {
        "home": ("/", 200, None),
        **{f"new/{game}": (f"/new/{game}", 200, None) for game in MATCHES},
        **{f"match/{game}": (f"/m/{made['id']}", 200, made) for game, made in matches.items()},
        "hand/kozyol": (f"/m/{matches['kozyol']['id']}/hands/new", 200, matches["kozyol"]),
        "hand/hearts": (f"/m/{matches['hearts']['id']}/hands/new", 200, matches["hearts"]),
        "hand/barbu": (f"/m/{fresh['id']}/hands/new?variant=no_queens", 200, fresh),
        "choose": (f"/m/{fresh['id']}/hands/new", 200, fresh),
        "table": (f"/m/{matches['barbu']['id']}/table", 200, None),
        "history": (f"/m/{matches['barbu']['id']}/history", 200, None),
        "import": ("/import", 200, None),
        "404": ("/m/no-such-match", 404, None),
        "403": (f"/m/{matches['hearts']['id']}/hands/new", 403, None),
    }
    for contract in barbu.CONTRACTS:
        found[f"contract/{contract}"] = (f"/m/{fresh['id']}/hands/new?variant={contract}", 200, fresh)
    for game, made in matches.items():
        found[f"edit/{game}"] = (f"/m/{made['id']}/hands/1", 200, made)
    return found


def expected_words(name: str, lang: str) -> list[str]:
    if name.startswith("contract/"):
        return CONTRACT_WORDS[name.split("/")[1]].get(lang, [])
    if name.startswith("edit/"):
        if name == "edit/barbu":
            return {"fr": ["Correction de la donne 1", "Pas de plis"], "ru": ["Исправление раздачи 1", "Без взяток"]}.get(lang, [])
        return {"fr": ["Correction de la donne 1"], "ru": ["Исправление раздачи 1"]}.get(lang, [])
    return WORDS[name].get(lang, [])  # a language without its words here is still checked for English left over


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_page_in_the_language_chosen_with_the_switcher(client, lang_client, lang):
    for name, (url, status, match) in pages(client).items():
        phone = lang_client(lang, match)
        # The switcher wins over the browser's preference.
        answer = phone.get(url, headers={"Accept-Language": "en"})
        assert answer.status_code == status, (name, answer.status_code)
        assert f'<html lang="{lang}">' in answer.text, name
        assert_translated(seen(answer.text), lang, expected_words(name, lang), name)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_page_follows_the_browser_language(client, app, lang):
    header = f"{lang}-{REGIONS.get(lang, lang.upper())},{lang};q=0.9,en;q=0.5"
    for name, (url, status, match) in pages(client).items():
        phone = app.test_client()
        if match is not None:
            phone.get(match["edit_url"].split("localhost", 1)[1])
        answer = phone.get(url, headers={"Accept-Language": header})
        assert answer.status_code == status, name
        assert_translated(seen(answer.text), lang, expected_words(name, lang), name)


def test_english_pages_stay_english(client, app):
    phone = app.test_client()
    page = seen(phone.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}).text)
    assert "Start a match" in page and "Cancellation Hearts" in page
    made = create_match(client, "barbu", BARBU, {"first_declarer": "Ann"})
    phone.get(made["edit_url"].split("localhost", 1)[1])
    assert "13 tricks: 2 left" in seen(post_form(phone, f"/m/{made['id']}/hands/new?variant=no_tricks", {
        "variant": "no_tricks", "number": "1", "tricks_0": "3", "tricks_1": "4", "tricks_2": "4", "tricks_3": "0"}).text)


def test_the_switcher_is_remembered_across_requests(app):
    phone = app.test_client()
    answer = phone.get("/language/ru?next=/new/kozyol")
    assert answer.status_code == 302 and answer.headers["Location"] == "/new/kozyol"
    assert "Expires=" in answer.headers["Set-Cookie"], "the phone keeps its choice after the browser closes"
    for url in ("/", "/new/kozyol", "/import", "/"):
        page = phone.get(url, headers={"Accept-Language": "fr"}).text
        assert '<html lang="ru">' in page and "Scorekeeper" in page
    phone.get("/language/en")
    assert "Start a match" in seen(phone.get("/", headers={"Accept-Language": "ru"}).text)
    phone.get("/language/xx")  # an unknown code changes nothing
    assert '<html lang="en">' in phone.get("/").text


def test_a_live_redraw_in_flight_does_not_undo_a_language_chosen_meanwhile(client, app):
    made = create_match(client, "barbu", BARBU, {"first_declarer": "Ann"})
    phone = app.test_client()
    phone.get(made["edit_url"].split("localhost", 1)[1])
    phone.get(f"/m/{made['id']}")  # the visit that makes the page's form token
    redraw = phone.get(f"/m/{made['id']}", headers={"Accept": "text/html", "X-Live-Redraw": "1"})
    assert redraw.status_code == 200 and "Set-Cookie" not in redraw.headers, "a redraw would send back an old session"
    ahead = phone.get(f"/m/{made['id']}", headers={"Accept": "text/html", "X-Kept-Ahead": "1"})  # the worker
    assert ahead.status_code == 200 and "Set-Cookie" not in ahead.headers, "a page fetched ahead is no visit"
    visit = phone.get(f"/m/{made['id']}")
    assert "Set-Cookie" in visit.headers, "a visit still puts the match on top of the phone's list"


def test_switcher_links_every_language_and_marks_the_current_one(app):
    phone = app.test_client()
    page = phone.get("/new/hearts", headers={"Accept-Language": "fr"}).text
    for code in LANGUAGES:
        assert f'href="/language/{code}?next=/new/hearts"' in page
    assert re.search(r'lang="fr"\s+hreflang="fr" aria-current="true">Français<', page)


def test_barbu_warnings_are_translated_on_the_match_page(client, lang_client):
    made = create_match(client, "barbu", BARBU, {"first_declarer": "Ann", "enforce_declarer_doubles": False})
    plain = {"no_tricks": {"tricks": {"Ann": 3, "Bob": 4, "Ёжик": 5, "Козлов": 1}},
             "no_queens": {"queens": {"Ann": 1, "Bob": 0, "Ёжик": 1, "Козлов": 2}},
             "no_hearts": {"hearts": {"Ann": 4, "Bob": 5, "Ёжик": 2, "Козлов": 2}, "ace_of_hearts": "Ann"},
             "no_last_two": {"second_last": "Bob", "last": "Ann"}, "barbu": {"king_of_hearts": "Bob"},
             "trumps": {"tricks": {"Ann": 6, "Bob": 3, "Ёжик": 1, "Козлов": 3}}}
    for contract, cards in plain.items():
        answer = client.post(f"/api/v1/matches/{made['id']}/hands", json={"contract": contract, **cards},
                             headers=bearer(made["edit_key"]))
        assert answer.status_code == 201
    assert answer.get_json()["hands"][-1]["warnings"], "a compulsory double was missing"
    page = seen(lang_client("ru", made).get(f"/m/{made['id']}").text)
    assert "Игрок Bob обязан дать контру заказывающему (Ann)" in page
    assert "must double the declarer" not in page


# -- the API's errors follow Accept-Language ----------------------------------------------------------------


@pytest.mark.parametrize(("lang", "unknown", "no_key", "engine", "field", "next_hand"), [
    ("fr", "Cette partie ou cette donne n’existe pas.", "Il faut pour cela la clé de saisie de la partie.",
     "Les plis font 12 en tout ; il en faut 13.", "Choisissez l’un des sept contrats.", "La prochaine donne est la donne 1."),
    ("ru", "Такой партии или раздачи нет.", "Для этого нужен ключ записи партии.",
     "Всего взяток — 12, а должно быть 13.", "Выберите один из семи контрактов.", "Следующая раздача — 1-я."),
])
def test_api_error_messages_follow_accept_language(client, lang, unknown, no_key, engine, field, next_hand):
    header = {"Accept-Language": f"{lang};q=1.0, en;q=0.5"}
    made = create_match(client, "barbu", BARBU, {"first_declarer": "Ann"})
    hands = f"/api/v1/matches/{made['id']}/hands"

    def message(answer, status: int) -> dict[str, Any]:
        assert answer.status_code == status
        return answer.get_json()["error"]

    assert squeeze(message(client.get("/api/v1/matches/nope", headers=header), 404)["message"]) == unknown
    assert squeeze(message(client.post(hands, json={}, headers=header), 401)["message"]) == no_key
    wrong = message(client.post(hands, json={}, headers={**header, **bearer("nope")}), 403)["message"]
    assert squeeze(wrong) == translated(lang, "That edit key does not belong to this match.")
    unread = message(client.post(hands, data="{", content_type="application/json",
                                 headers={**header, **bearer(made["edit_key"])}), 400)["message"]
    assert squeeze(unread) == translated(lang, "That request could not be read.")
    short = {"contract": "no_tricks", "tricks": {"Ann": 3, "Bob": 4, "Ёжик": 5, "Козлов": 0}}
    refused = message(client.post(hands, json=short, headers={**header, **bearer(made["edit_key"])}), 422)
    assert squeeze(refused["message"]) == engine and squeeze(refused["fields"]["tricks"]) == engine
    refused = message(client.post(hands, json={"contract": "slam"}, headers={**header, **bearer(made["edit_key"])}), 422)
    assert squeeze(refused["fields"]["contract"]) == field
    early = message(client.post(hands, json={"number": 5, **short}, headers={**header, **bearer(made["edit_key"])}), 409)
    assert squeeze(early["message"]) == next_hand


def test_nested_reasons_and_contract_names_are_translated(client):
    made = create_match(client, "barbu", BARBU, {"first_declarer": "Ann"})
    key = bearer(made["edit_key"])
    hand = {"contract": "no_queens", "queens": {"Ann": 1, "Bob": 0, "Ёжик": 1, "Козлов": 2}}
    assert client.post(f"/api/v1/matches/{made['id']}/hands", json=hand, headers=key).status_code == 201
    again = client.post(f"/api/v1/matches/{made['id']}/hands", json=hand, headers={**key, "Accept-Language": "fr"})
    assert squeeze(again.get_json()["error"]["message"]) == "Ann a déjà joué Pas de dames dans ce bloc."
    document = client.get(f"/api/v1/matches/{made['id']}/export").get_json()
    document["hands"].append({"contract": "barbu", "king_of_hearts": "Nobody"})
    restored = client.post("/api/v1/matches/import", json=document, headers={"Accept-Language": "ru"})
    assert restored.status_code == 422
    assert squeeze(restored.get_json()["error"]["message"]) == "Раздача 2 нарушает правило: Выберите одного из игроков."


def test_form_refusals_are_translated(client, lang_client):
    made = create_match(client, "barbu", BARBU, {"first_declarer": "Ann"})
    phone = lang_client("fr", made)
    counts = {"tricks_0": "3", "tricks_1": "4", "tricks_2": "5", "tricks_3": "0"}
    answer = post_form(phone, f"/m/{made['id']}/hands/new?variant=no_tricks", {"variant": "no_tricks", "number": "1",
                                                                                **counts})
    assert answer.status_code == 422
    page = seen(answer.text)
    assert "Les plis font 12 en tout ; il en faut 13." in page and "13 plis : encore 1 pli" in page


# -- the sheet language of a match ---------------------------------------------------------------------------


def test_a_match_can_fix_its_sheet_language_over_the_api(client):
    made = client.post("/api/v1/matches", json={"game": "kozyol", "players": KOZYOL, "language": "ru"}).get_json()
    assert made["language"] == "ru"
    assert client.get(f"/api/v1/matches/{made['id']}").get_json()["language"] == "ru"
    assert create_match(client, "hearts", HEARTS)["language"] is None
    for wrong in ("de", 7, ["ru"], {"ru": 1}):
        answer = client.post("/api/v1/matches", json={"game": "kozyol", "players": KOZYOL, "language": wrong},
                             headers={"Accept-Language": "fr"})
        assert answer.status_code == 422, wrong
        assert answer.get_json()["error"]["fields"]["language"].startswith("Choisissez l’une des langues")
    exported = client.get(f"/api/v1/matches/{made['id']}/export").get_json()
    assert exported["language"] == "ru"
    restored = client.post("/api/v1/matches/import", json=exported)
    assert restored.status_code == 201 and restored.get_json()["language"] == "ru"


@pytest.mark.parametrize("game", list(MATCHES))
def test_the_new_match_form_sets_the_sheet_language(client, game):
    players = MATCHES[game][0]
    fields = {f"players-{seat}": name for seat, name in enumerate(players)}
    extra = {"barbu": {"domino_scores": "45,20,5,-5"}, "kozyol": {"target": "12", "first_dealer": "0"},
             "hearts": {"target": "150", "moon_points": "26", "first_dealer": "0"}}[game]
    form = client.get(f"/new/{game}").text
    assert 'id="language" name="language"' in form and '<option selected value="">' in form
    assert '<option lang="ru" value="ru">Русский</option>' in form
    answer = post_form(client, f"/new/{game}", {**fields, **extra, "language": "fr"})
    assert answer.status_code == 302, seen(answer.text)
    public_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/v1/matches/{public_id}").get_json()["language"] == "fr"
    answer = post_form(client, f"/new/{game}", {**fields, **extra})
    assert client.get(f"/api/v1/matches/{answer.headers['Location'].rsplit('/', 1)[1]}").get_json()["language"] is None
    refused = post_form(client, f"/new/{game}", {**fields, **extra, "language": "de"})
    assert refused.status_code == 422 and 'id="err-language"' in refused.text


# -- PDF sheets in each language -----------------------------------------------------------------------------


needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

SHEET_WORDS = {
    "barbu": {"en": ["No Tricks", "No Queens", "Trumps", "Standings after hand 3"],
              "fr": ["Pas de plis", "Pas de dames", "Atout", "Classement après la donne 3", "Ann déclare", "surcontré"],
              "ru": ["Без взяток", "Без дам", "Козыри", "Положение после раздачи 3", "Ann заказывает", "реконтра"]},
    "kozyol": {"en": ["Defeat points", "eggs", "the first team to 12 defeat points is the goat"],
               "fr": ["Points de pénalité", "œufs", "la première équipe à 12 points de pénalité est le bouc"],
               "ru": ["Штрафные очки", "яйца", "козлы", "первой набравшая 12 штрафных очков", "последняя взятка"]},
    "hearts": {"en": ["6 players", "17 cards each, 2 left over for the first trick", "Black Maria"],
               "fr": ["6 joueurs", "17 cartes à chacun, 2 en reste pour le premier pli", "dame de pique"],
               "ru": ["6 игроков", "по 17 карт, 2 в остатке", "пиковая дама", "черва"]},
}


def pdf_text(tmp_path: Path, data: bytes) -> str:
    assert data.startswith(b"%PDF-")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    return squeeze(subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True,
                                  timeout=60).stdout)


@needs_poppler
@pytest.mark.parametrize("game", list(MATCHES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_match_sheet_pdf_in_the_reader_language(client, tmp_path, game, lang):
    made = played(client, game)
    answer = client.get(f"/api/v1/matches/{made['id']}/sheet.pdf", headers={"Accept-Language": lang})
    assert answer.status_code == 200
    text = pdf_text(tmp_path, answer.data)
    names = "".join(text.split())
    for player in MATCHES[game][0]:
        assert player in names, f"{player} missing from the {lang} {game} sheet"
    if lang == "en":
        for word in SHEET_WORDS[game]["en"]:
            assert word in text, (game, word)
        return
    if lang == "ru":
        assert len(re.findall(r"[А-Яа-яЁё]", text)) > 100, "a Russian sheet is written in Cyrillic"
    assert_translated(text, lang, SHEET_WORDS[game].get(lang, []), f"{game} sheet")


@needs_poppler
@pytest.mark.parametrize("game", list(MATCHES))
@pytest.mark.parametrize("lang", TRANSLATED)
def test_blank_sheet_pdf_in_each_language(client, tmp_path, game, lang):
    answer = client.get(f"/sheets/{game}.pdf", headers={"Accept-Language": lang})
    assert answer.status_code == 200
    text = pdf_text(tmp_path, answer.data)
    title = translated(lang, GAMES[game].title)  # "Dame de pique à deux jeux", "Козёл"
    assert_translated(text, lang, [title], f"blank {game} sheet")


@needs_poppler
def test_the_match_language_wins_over_the_reader(client, tmp_path):
    fixed = played(client, "kozyol", language="ru")
    answer = client.get(f"/api/v1/matches/{fixed['id']}/sheet.pdf", headers={"Accept-Language": "fr"})
    text = pdf_text(tmp_path, answer.data)
    assert "Штрафные очки" in text and "Points de pénalité" not in text
    assert text.count("Козёл") == 1, "in Russian the game's own words need no gloss"
    view = client.get(f"/m/{fixed['id']}/sheet", headers={"Accept-Language": "fr"}).text
    assert '<html lang="ru">' in view and "Штрафные очки" in view
    english = played(client, "barbu", language="en")
    text = pdf_text(tmp_path, client.get(f"/api/v1/matches/{english['id']}/sheet.pdf",
                                         headers={"Accept-Language": "ru"}).data)
    assert "No Tricks" in text and "Без взяток" not in text
    # The reader's own pages stay in the reader's language.
    assert '<html lang="fr">' in client.get(f"/m/{fixed['id']}", headers={"Accept-Language": "fr"}).text


def test_the_sheet_command_prints_in_the_match_language(app, client, runner, tmp_path):
    fixed = played(client, "barbu", language="fr")
    out = tmp_path / "fixed.pdf"
    result = runner.invoke(args=["sheet", fixed["id"], "-o", str(out)])
    assert result.exit_code == 0, result.output
    if shutil.which("pdftotext"):
        assert "Pas de plis" in pdf_text(tmp_path, out.read_bytes())
