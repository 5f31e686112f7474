"""The rules in the app: a page per game and per match, in each language, with the engine's numbers.

The expected numbers are worked out here from the engine's constants, not read back from the
pages' own tables; a match's page must show the options that match chose, and change with them.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import bearer, create_match
from helpers.i18n import assert_translated, seen
from helpers.matches import PLAYERS
from scorekeeper.games import barbu, hearts, kozyol
from scorekeeper.games.base import NAME_MAX

HEARTS_PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
LANGUAGES = ("en", "fr", "ru")
# Words a player of each game reads on its rules page, per language.
WORDS = {
    "barbu": {"en": ["Rules of Barbu", "Compulsory doubles", "What the app checks"],
              "fr": ["Règles du jeu", "Contres obligatoires", "Pas de deux derniers", "Ce que l’application vérifie"],
              "ru": ["Правила игры «Барбу»", "Обязательные контры", "Без двух последних", "Что проверяет приложение"]},
    "kozyol": {"en": ["Rules of Kozyol", "Who wins a deal", "The goat"],
               "fr": ["Kozyol", "Qui gagne une donne", "Le bouc", "œufs"],
               "ru": ["Правила игры «Козёл»", "Кто выигрывает раздачу", "Козлы", "яйца"]},
    "hearts": {"en": ["Rules of Cancellation Hearts", "Shooting the moon", "Black Maria"],
               "fr": ["Dame de pique à deux jeux", "Le grand chelem", "Dame de pique"],
               "ru": ["Черви на две колоды", "Выстрел в луну", "Пиковая дама"]},
}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def plain(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


def rows(page: str) -> list[list[str]]:
    """Every table row of a page, as the text of its cells."""
    return [[plain(cell) for cell in re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", page, re.S)]


def uses(page: str) -> dict[str, str]:
    """The options box: each option as the page names it, and its value in words."""
    box = re.search(r'<section class="uses"(.*?)</section>', page, re.S)
    assert box, "no options box on the page"
    return {plain(dt): plain(dd) for dt, dd in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", box.group(1), re.S)}


def read(client: FlaskClient, url: str, lang: str = "en") -> str:
    answer = client.get(url, headers={"Accept-Language": lang})
    assert answer.status_code == 200, (url, answer.status_code)
    assert f'<html lang="{lang}">' in answer.text
    return answer.text


def raw_sum(contract: str) -> int:
    """What a whole hand of a contract adds up to, from the rules' own table."""
    return {
        "no_tricks": barbu.PER_TRICK["no_tricks"] * barbu.CARDS_PER_HAND,
        "no_queens": barbu.PER_QUEEN * barbu.QUEENS,
        "no_hearts": barbu.PER_HEART * (barbu.CARDS_PER_HAND - 1) + barbu.ACE_OF_HEARTS,
        "no_last_two": barbu.SECOND_LAST_TRICK + barbu.LAST_TRICK,
        "barbu": barbu.KING_OF_HEARTS,
        "trumps": barbu.PER_TRICK["trumps"] * barbu.CARDS_PER_HAND,
        "dominoes": sum(barbu.DOMINO_SCORES),
    }[contract]


# -- a page per game, in each language ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_barbu_page_has_the_engines_numbers(client, lang):
    page = read(client, "/rules/barbu", lang)
    text = seen(page)
    if lang != "en":
        assert_translated(text, lang, WORDS["barbu"][lang], "rules/barbu")
    totals = [cells[2] for cells in rows(page) if len(cells) == 3][1:]  # the contracts table, under its header
    assert totals == [signed(raw_sum(contract)) for contract in barbu.CONTRACTS]
    scores = {"no_tricks": barbu.PER_TRICK["no_tricks"], "no_queens": barbu.PER_QUEEN,
              "no_hearts": barbu.ACE_OF_HEARTS, "no_last_two": barbu.LAST_TRICK, "barbu": barbu.KING_OF_HEARTS,
              "trumps": barbu.PER_TRICK["trumps"]}
    for value in [*scores.values(), *barbu.DOMINO_SCORES]:
        assert signed(value) in text, value
    for number in (barbu.HANDS, barbu.HANDS_PER_DECLARER, barbu.DOUBLES_OWED, barbu.CARDS_PER_HAND, NAME_MAX):
        assert re.search(rf"(?<![\d−+]){number}(?!\d)", text), number
    negative = sum(raw_sum(c) for c in barbu.CONTRACTS if c not in barbu.POSITIVE)
    assert signed(negative) in text and signed(-negative) in text


def test_the_barbu_contract_table_rows(client):
    """Each contract's row: its title, what one player scores, and what the hand adds up to."""
    table = {cells[0]: cells[1:] for cells in rows(read(client, "/rules/barbu")) if len(cells) == 3}
    assert table["No Tricks"] == [f"{signed(barbu.PER_TRICK['no_tricks'])} for each trick taken",
                                  signed(raw_sum("no_tricks"))]
    assert table["No Hearts"][1] == signed(raw_sum("no_hearts"))
    assert signed(barbu.ACE_OF_HEARTS) in table["No Hearts"][0]
    assert table["No Last Two"][1] == signed(barbu.SECOND_LAST_TRICK + barbu.LAST_TRICK)
    assert table["Dominoes"] == [
        "by the order of going out, first to last: " + ", ".join(signed(v) for v in barbu.DOMINO_SCORES),
        signed(sum(barbu.DOMINO_SCORES))]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_kozyol_page_has_the_engines_numbers(client, lang):
    page = read(client, "/rules/kozyol", lang)
    text = seen(page)
    if lang != "en":
        assert_translated(text, lang, WORDS["kozyol"][lang], "rules/kozyol")
    values = [cells[-1] for cells in rows(page) if len(cells) == 2]
    for value in kozyol.CARD_VALUES.values():
        assert str(value) in values
    for points in kozyol.DEFEAT.values():
        assert str(points) in values
    eggs = kozyol.TOTAL_POINTS // 2
    assert f"{eggs} : {eggs}" in text
    for number in (kozyol.TOTAL_POINTS, eggs + 1, kozyol.LIGHT_DEFEAT_FROM, kozyol.DEFAULT_TARGET,
                   *kozyol.TARGET_RANGE, kozyol.TRICKS_PER_DEAL, kozyol.TOTAL_POINTS - 1, NAME_MAX):
        assert re.search(rf"(?<!\d){number}(?!\d)", text), number


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hearts_page_has_the_engines_numbers(client, lang):
    page = read(client, "/rules/hearts", lang)
    text = seen(page)
    if lang != "en":
        assert_translated(text, lang, WORDS["hearts"][lang], "rules/hearts")
    deal_rows = [cells for cells in rows(page) if len(cells) == 3 and cells[0].isdigit()]
    # docs/rules.md 3.1: players, cards each, left over
    assert deal_rows == [["6", "17", "2"], ["7", "14", "6"], ["8", "13", "0"], ["9", "11", "5"], ["10", "10", "4"],
                         ["11", "9", "5"]]
    assert [int(cells[0]) for cells in deal_rows] == list(range(hearts.MIN_PLAYERS, hearts.MAX_PLAYERS + 1))
    for number in (hearts.TARGET, hearts.TARGET_MIN, hearts.TARGET_MAX, *hearts.MOON_POINTS, hearts.HEARTS,
                   hearts.BLACK_MARIA, hearts.CARDS, hearts.CARDS_PASSED, NAME_MAX):
        assert re.search(rf"(?<!\d){number}(?!\d)", text), number


def test_every_limit_of_a_game_is_a_row_of_its_page(client):
    """Players, names and each game's own limits, worded with the engine's numbers."""
    expected = {
        "barbu": {"Players": f"exactly {barbu.SEATS}", "Letters or signs in a player's name": f"1 to {NAME_MAX}",
                  "Hands in a match": f"exactly {barbu.HANDS}",
                  "Queens taken by one player": f"0 to {barbu.QUEENS}, all players together {barbu.QUEENS}"},
        "kozyol": {"Defeat points that end the series": "{} to {}".format(*kozyol.TARGET_RANGE),
                   "Tricks of one team": f"0 to {kozyol.TRICKS_PER_DEAL}, both teams together "
                                         f"{kozyol.FEWEST_TRICKS} to {kozyol.TRICKS_PER_DEAL}",
                   "Deals in a series": f"at most {kozyol.MAX_DEALS}: no real table plays that long "
                                        "(a moon or eggs can make a game endless)",
                   "Card points of one team": f"0 to {kozyol.TOTAL_POINTS}, both teams together "
                                              f"{kozyol.TOTAL_POINTS}; never 1 or {kozyol.TOTAL_POINTS - 1}"},
        "hearts": {"Players": f"{hearts.MIN_PLAYERS} to {hearts.MAX_PLAYERS}",
                   "Game ends when a player reaches": f"{hearts.TARGET_MIN} to {hearts.TARGET_MAX}",
                   "Shooting the moon counts": "{} or {}".format(*hearts.MOON_POINTS),
                   "Black Marias taken by one player": f"0 to {hearts.BLACK_MARIAS}, all players together at most "
                                                       f"{hearts.BLACK_MARIAS}",
                   "Hands in a game": f"at most {hearts.MAX_HANDS}: no real table plays that long "
                                      "(a moon or eggs can make a game endless)"},
    }
    for game, limits in expected.items():
        table = {cells[0]: cells[1] for cells in rows(read(client, f"/rules/{game}")) if len(cells) == 2}
        for what, allowed in limits.items():
            assert table.get(what) == allowed, (game, what, table.get(what))


def test_a_new_limit_is_one_more_line_in_its_games_list(client, monkeypatch):
    """A limit the engine starts to enforce (here a made-up cap on hands) shows once added to LIMITS."""
    from scorekeeper.web.rules import rulebook

    capped = rulebook.limit("Hands in a match", rulebook.BETWEEN, low=1, high=barbu.HANDS * 2)
    monkeypatch.setitem(rulebook.LIMITS, "hearts", [*rulebook.LIMITS["hearts"], capped])
    table = {cells[0]: cells[1] for cells in rows(read(client, "/rules/hearts")) if len(cells) == 2}
    assert table["Hands in a match"] == f"1 to {barbu.HANDS * 2}"
    french = {cells[0]: cells[1] for cells in rows(read(client, "/rules/hearts", "fr")) if len(cells) == 2}
    assert french["Donnes dans une partie"] == f"de 1 à {barbu.HANDS * 2}"


def test_a_page_for_no_match_says_what_a_match_gets_by_default(client):
    assert uses(read(client, "/rules/kozyol")) == {
        "Defeat points that end the series": str(kozyol.DEFAULT_TARGET),
        "After eggs": "the next deal counts as usual",
        "Defeat points for 0 card points with a trick": str(kozyol.DEFEAT["heavy"]),
        "Who deals first": "the player in the first seat",
    }
    assert uses(read(client, "/rules/barbu"))["Dominoes scores"] == " / ".join(map(signed, barbu.DOMINO_SCORES))
    assert uses(read(client, "/rules/hearts"))["Shooting the moon counts"] == str(hearts.MOON_POINTS[0])


def test_an_unknown_game_or_match_is_a_plain_404_page(client):
    for url in ("/rules/poker", "/rules/", "/rules/BARBU", "/m/no-such-match/rules", "/m/%00/rules",
                "/m/" + "x" * 500 + "/rules", "/rules/barbu%2F..", "/rules/%ff"):
        answer = client.get(url)
        assert answer.status_code == 404, url
        assert answer.mimetype == "text/html" and "Back to the start" in answer.text, url
    assert "There is no such game." in client.get("/rules/poker").text


# -- a match's own rules --------------------------------------------------------------------------------


def match_rules(client: FlaskClient, game: str, players: list[str], options: dict[str, Any],
                lang: str = "en") -> tuple[dict[str, Any], str]:
    made = create_match(client, game, players, options)
    return made, read(client, f"/m/{made['id']}/rules", lang)


def test_a_barbu_match_shows_the_options_it_uses(client):
    _, usual = match_rules(client, "barbu", PLAYERS, {"first_declarer": "Cid"})
    _, house = match_rules(client, "barbu", PLAYERS, {"first_declarer": "Bob", "domino_scores": [40, 25, 10, -10],
                                                      "enforce_declarer_doubles": False})
    assert uses(usual) == {"Who declares first": "Cid", "Dominoes scores": "+45 / +20 / +5 / −5",
                           "A hand missing a compulsory double": "is refused"}
    assert uses(house) == {"Who declares first": "Bob", "Dominoes scores": "+40 / +25 / +10 / −10",
                           "A hand missing a compulsory double": "is recorded, with a warning beside it"}
    # The passages that depend on an option show this match's value.
    dominoes = {cells[0]: cells[1:] for cells in rows(house) if len(cells) == 3}["Dominoes"]
    assert dominoes == ["by the order of going out, first to last: +40, +25, +10, −10", "+65"]
    assert "In this match a hand missing a compulsory double is recorded" in seen(house)
    assert "In this match a hand missing a compulsory double is refused." in seen(usual)
    # Who declares, deals and cuts: from the match's first declarer, by the engine's schedule.
    schedule = [cells for cells in rows(house) if len(cells) == 4 and "–" in cells[0]]
    assert schedule[0] == ["1–7", "Bob", "Ann", "Dee"] and schedule[-1] == ["22–28", "Ann", "Dee", "Cid"]


def test_a_kozyol_match_shows_the_options_it_uses(client):
    _, usual = match_rules(client, "kozyol", PLAYERS, {})
    _, house = match_rules(client, "kozyol", PLAYERS, {"target": 20, "eggs_double_next": True,
                                                       "six_for_zero_points": True, "first_dealer": "Dee"})
    assert uses(usual) == {"Defeat points that end the series": "12", "After eggs": "the next deal counts as usual",
                           "Defeat points for 0 card points with a trick": "4", "Who deals first": "Ann"}
    assert uses(house) == {"Defeat points that end the series": "20", "After eggs": "the next deal counts double",
                           "Defeat points for 0 card points with a trick": "6", "Who deals first": "Dee"}
    assert "As soon as a team has 20 or more, the series is over" in seen(house)
    assert "As soon as a team has 12 or more" in seen(usual)
    assert "In this match the deal after eggs counts double (× 2)" in seen(house)
    assert "In this match: Ann & Cid against Bob & Dee." in seen(house)
    defeats = {cells[0]: cells[1] for cells in rows(house) if len(cells) == 2 and "card points" in cells[0]}
    assert defeats["0 card points, or no trick at all"] == "6"
    assert "0 card points, or no trick at all" not in seen(usual)


def test_a_hearts_match_shows_the_options_it_uses(client):
    _, usual = match_rules(client, "hearts", HEARTS_PLAYERS, {})
    _, house = match_rules(client, "hearts", HEARTS_PLAYERS, {"target": 300, "moon_points": 52, "first_dealer": "Eve"})
    assert uses(usual) == {"Game ends when a player reaches": "150", "Shooting the moon counts": "26",
                           "Who deals first": "Ann"}
    assert uses(house) == {"Game ends when a player reaches": "300", "Shooting the moon counts": "52",
                           "Who deals first": "Eve"}
    assert "take 52 off their own score, or add 52 to everyone else's" in seen(house)
    assert "reaches or passes 300" in seen(house) and "reaches or passes 150" in seen(usual)
    here = next(cells for cells in rows(house) if cells and cells[0].startswith("7 "))
    assert here == ["7 this match", "14", "6"]


@pytest.mark.parametrize(("lang", "words"), [
    ("fr", ["Cette partie se joue avec", "Points de la réussite", "+40 / +25 / +10 / −10", "est enregistrée"]),
    ("ru", ["В этой партии", "Очки за домино", "+40 / +25 / +10 / −10", "записывается с предупреждением"]),
])
def test_a_matchs_options_in_french_and_russian(client, lang, words):
    _, page = match_rules(client, "barbu", PLAYERS, {"domino_scores": [40, 25, 10, -10],
                                                     "enforce_declarer_doubles": False}, lang)
    assert_translated(seen(page), lang, words, f"match rules in {lang}")


@pytest.mark.parametrize(("game", "players"), [("kozyol", PLAYERS), ("hearts", HEARTS_PLAYERS)])
@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_every_match_rules_page_is_translated(client, game, players, lang):
    _, page = match_rules(client, game, players, {}, lang)
    assert_translated(seen(page), lang, WORDS[game][lang], f"{game} match rules in {lang}")


def test_a_watcher_reads_the_rules_of_a_match_too(app):
    made = create_match(app.test_client(), "hearts", HEARTS_PLAYERS, {"moon_points": 52})
    watcher = app.test_client()
    page = read(watcher, f"/m/{made['id']}/rules")
    assert uses(page)["Shooting the moon counts"] == "52"
    assert f'href="/m/{made["id"]}"' in page


def test_a_restored_match_from_before_an_option_existed_plays_it_at_its_default(app, client):
    """The rules page fills in an option a stored match lacks, as the engine does."""
    from scorekeeper.db import db
    from scorekeeper.models import Match

    made = create_match(client, "kozyol", PLAYERS, {"target": 16})
    with app.app_context():
        match = db.session.scalar(db.select(Match).filter_by(public_id=made["id"]))
        match.options = {"target": 16, "first_dealer": "Ann"}
        db.session.commit()
    assert uses(read(client, f"/m/{made['id']}/rules"))["After eggs"] == "the next deal counts as usual"


# -- the links ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["barbu", "kozyol", "hearts"])
def test_the_new_match_form_links_its_games_rules(client, game):
    page = read(client, f"/new/{game}")
    assert f'href="/rules/{game}"' in page
    others = {"barbu", "kozyol", "hearts"} - {game}
    assert not any(f'href="/rules/{other}"' in page for other in others)
    assert client.get(f"/rules/{game}").status_code == 200


@pytest.mark.parametrize(("game", "players"), [("barbu", PLAYERS), ("kozyol", PLAYERS), ("hearts", HEARTS_PLAYERS)])
def test_match_pages_link_the_rules_of_the_match(app, game, players):
    editor = app.test_client()
    made = create_match(editor, game, players)
    assert editor.get(made["edit_url"].split("localhost", 1)[1]).status_code == 302
    link = f'href="/m/{made["id"]}/rules"'
    watcher = app.test_client()
    for phone in (editor, watcher):
        assert link in read(phone, f"/m/{made['id']}")
        assert link in read(phone, f"/m/{made['id']}/table")
    # A hand recorded changes nothing of the link, and the page it opens says the match's own options.
    body = {"barbu": {"contract": "barbu", "king_of_hearts": players[1]}, "kozyol": {"points": [75, 45]},
            "hearts": {"hearts": {**dict.fromkeys(players, 0), players[0]: 26},
                       "black_marias": dict.fromkeys(players, 0)}}[game]
    assert editor.post(f"/api/v1/matches/{made['id']}/hands", json=body,
                       headers=bearer(made["edit_key"])).status_code == 201
    assert link in read(watcher, f"/m/{made['id']}")
    assert "This match uses:" in seen(read(watcher, f"/m/{made['id']}/rules"))
