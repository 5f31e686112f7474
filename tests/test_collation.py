"""Names in each language's order: "Éloïse" under E, not after "Maximilian"; in Russian, Cyrillic names first.

The roster, the door, the pickers of a new match, the standings' ties and the PDFs all list names so, in the
reader's language; players who share a place are listed by name, not in the order they joined the club.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.clubs import QUICK, TEAM_1_LOSES, club_of
from helpers.i18n import with_languages
from helpers.pdf import save, text
from scorekeeper.collation import by_name, name_key

# In the order they join the club: neither by code point nor by joining is it the order a reader files them in.
JOINED = ["Maximilian", "Zoé", "Éloïse", "ann", "Émile", "Bob", "Яна", "Ёжик", "Ева"]
LATIN = ["ann", "Bob", "Éloïse", "Émile", "Maximilian", "Zoé"]
CYRILLIC = ["Ева", "Ёжик", "Яна"]
FILED = {"en": LATIN + CYRILLIC, "fr": LATIN + CYRILLIC, "ru": CYRILLIC + LATIN}
# One Kozyol match: Maximilian and Éloïse win together (both placed 1st), Zoé and Émile are the goat (both 3rd).
SEATS = ["Maximilian", "Zoé", "Éloïse", "Émile"]
TIED = [["Éloïse", "Maximilian"], ["Émile", "Zoé"]]


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_names_file_by_their_letters_then_accents_then_case(language: str):
    assert by_name(JOINED, language) == FILED[language]
    assert by_name(["Anna", "Ann Lee", "Anne-Marie", "Annette"], language) == ["Ann Lee", "Anna", "Anne-Marie", "Annette"]
    assert by_name(["eloise", "Éloïse", "Eloise", "éloïse"], language) == ["eloise", "Eloise", "éloïse", "Éloïse"]


# Lao and Thai names that start with a vowel written before its consonant (ແ, เ, ไ...) file under that consonant.
LAO = ["ສົມໃຈ", "ແກ້ວ", "ບຸນມີ", "ກອງ", "ເພັດ", "ຄຳ"]
LAO_FILED = ["ກອງ", "ແກ້ວ", "ຄຳ", "ບຸນມີ", "ເພັດ", "ສົມໃຈ"]
THAI = ["สมชาย", "เก่ง", "กมล", "ไชยา", "ชัย", "แดง"]
THAI_FILED = ["กมล", "เก่ง", "ชัย", "ไชยา", "แดง", "สมชาย"]
# Khmer by its consonants, then its vowels and subscripts in code point order; a name's vowel signs are letters.
KHMER = ["សុខា", "កញ្ញា", "ចាន់", "ដារ៉ា", "កិត្តិ", "កា"]
KHMER_FILED = ["កញ្ញា", "កា", "កិត្តិ", "ចាន់", "ដារ៉ា", "សុខា"]


@pytest.mark.parametrize(("names", "filed"), [(LAO, LAO_FILED), (THAI, THAI_FILED), (KHMER, KHMER_FILED)])
def test_lao_thai_and_khmer_names_file_under_their_consonants(names, filed):
    for language in ("en", "lo", "km"):
        assert by_name(names, language) == filed
    assert by_name(["ເກ", "ແກ້ວ", "ກາ"], "lo") == ["ກາ", "ເກ", "ແກ້ວ"]  # the same consonant: then the vowel
    assert by_name(["เก้ง", "เก่ง", "เกง"], "en") == ["เกง", "เก่ง", "เก้ง"]  # tone marks tell apart like accents


def test_khmer_and_lao_readers_find_their_own_script_first():
    names = ["Bob", "ກອງ", "Яна", "សុខា", "Ann"]
    assert by_name(names, "lo") == ["ກອງ", "Ann", "Bob", "Яна", "សុខា"]
    assert by_name(names, "km") == ["សុខា", "Ann", "Bob", "Яна", "ກອງ"]
    assert by_name(names, "fr") == ["Ann", "Bob", "Яна", "ກອງ", "សុខា"]


def test_a_lao_reader_finds_the_roster_and_the_pickers_under_their_consonants(client: FlaskClient, monkeypatch):
    with_languages(monkeypatch)
    club = club_of(client, [*LAO[::-1], "Bob", "Ann"])
    page = client.get(f"/c/{club}", headers={"Accept-Language": "lo-LA,lo;q=0.9"}).text
    assert order(section(page, 'class="roster'), [*LAO, "Ann", "Bob"]) == [*LAO_FILED, "Ann", "Bob"]
    picker = client.get(f"/c/{club}/new/kozyol", headers={"Accept-Language": "lo"}).text
    first_seat = section(picker, 'name="players-0"', "</select>")
    assert re.findall(r'<option value="([^"]+)"', first_seat) == [*LAO_FILED, "Ann", "Bob"]
    english = client.get(f"/c/{club}", headers={"Accept-Language": "en"}).text
    assert order(section(english, 'class="roster'), [*LAO, "Ann", "Bob"]) == ["Ann", "Bob", *LAO_FILED]


def test_russian_keeps_its_own_letters_and_files_yo_with_ye():
    assert by_name(["Йорик", "Иван", "Ёлка", "Елена", "Жанна"], "ru") == ["Елена", "Ёлка", "Жанна", "Иван", "Йорик"]
    assert name_key("Straße") < name_key("Strasser") < name_key("Strauß")


class Club:
    """A club of JOINED with today's evening, everyone at the door, and one finished Kozyol match."""

    def __init__(self, app: Flask, client: FlaskClient):
        from scorekeeper.club import evenings, service as clubs
        from scorekeeper.match import matches

        self.client, self.id = client, club_of(client, JOINED)
        with app.app_context():
            club = clubs.find(self.id)
            clubs.set_rules(club, 1, {"kozyol": QUICK})
            evening = evenings.schedule(club, clubs.today(club), "19:30", "", "")[0]
            self.evening, self.day = evening.id, evening.day.isoformat()
            for player in clubs.roster(club):
                evenings.mark_present(club, evening, player.id, True)
            match, _key = clubs.start_match(club, "kozyol", SEATS, QUICK)
            matches.record(match.public_id, TEAM_1_LOSES)

    def get(self, url: str, language: str):
        answer = self.client.get(url, headers={"Accept-Language": language})
        assert answer.status_code == 200, url
        return answer


@pytest.fixture
def club(app: Flask, client: FlaskClient) -> Club:
    return Club(app, client)


def order(page: str, names: list[str]) -> list[str]:
    """The names in the order they first appear."""
    return sorted(names, key=lambda name: page.index(name))


def section(page: str, start: str, end: str = "</section>") -> str:
    found = page.index(start)
    return page[found:page.index(end, found)]


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_roster_the_door_and_the_pickers_list_names_in_the_readers_order(club: Club, language: str):
    page = club.get(f"/c/{club.id}", language).text
    roster = section(page, 'class="roster')
    assert order(roster, JOINED) == FILED[language]
    door = section(club.get(f"/c/{club.id}/admin/evenings/{club.evening}", language).text, 'id="door"')
    assert order(door, JOINED) == FILED[language]
    picker = club.get(f"/c/{club.id}/new/kozyol", language).text
    first_seat = section(picker, 'name="players-0"', "</select>")
    assert re.findall(r'<option value="([^"]+)"', first_seat) == FILED[language]
    api = club.client.get(f"/api/v1/clubs/{club.id}", headers={"Accept-Language": language}).get_json()
    assert [player["name"] for player in api["players"]] == FILED[language]


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_players_sharing_a_place_are_listed_by_name_on_the_page_and_on_paper(club: Club, language: str,
                                                                             tmp_path: Path):
    page = club.get(f"/c/{club.id}", language).text
    standings = section(page, 'class="sheet club-table standings"', "</table>")
    results = club.get(f"/c/{club.id}/evenings/{club.day}/results", language).text
    places = section(results, 'class="sheet evening-places"', "</table>")
    winners = section(results, 'aria-labelledby="winners-heading"')
    assert order(winners, TIED[0]) == TIED[0]  # the evening's winners, by name too
    paper = text(save(tmp_path, club.get(f"/c/{club.id}/standings.pdf", language).data))
    evening = text(save(tmp_path, club.get(f"/c/{club.id}/evenings/{club.day}/results.pdf", language).data, "e.pdf"))
    for shown in (standings, places, paper, evening.split("Kozyol")[-1].split("Козёл")[-1]):
        for tied in TIED:
            assert order(shown, tied) == tied, shown[:600]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_players_sharing_a_provisional_place_are_listed_by_name(app: Flask, club: Club, language: str):
    from scorekeeper.club import service as clubs

    with app.app_context():
        clubs.set_rules(clubs.find(club.id), 3, {"kozyol": QUICK})  # one match each: nobody is ranked yet
    page = club.get(f"/c/{club.id}", language).text
    standings = section(page, 'class="sheet club-table standings"', "</table>")
    for tied in TIED:
        assert order(standings, tied) == tied
