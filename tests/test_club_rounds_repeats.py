"""How many pairs a round seats together again, and why when they must: on the proposal, the rounds page and the
evening's page, in English, French and Russian (club/repeats.py, templates/club/_round_repeats.html)."""

from __future__ import annotations

from itertools import combinations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.club_nights import PageNight, posted
from helpers.clubs import reasons
from helpers.i18n import seen

EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
MUST = ("They must: these 8 players had already met in 12 of their 28 pairs tonight, and no seating of them at "
        "these tables seats fewer pairs again.")
# What the same sentences read in each language (from the catalogs, the numbers filled in).
WORDS = {
    "fr": ["Tour 2\u00a0: 4\u00a0paires se retrouvent", "C’est inévitable\u00a0: ces 8\u00a0joueurs s’étaient déjà "
           "rencontrés en 12 de leurs 28\u00a0paires ce soir", "Paires qui se retrouvent"],
    "ru": ["Тур 2: 4 пары встречаются снова", "Иначе нельзя: из 28 пар этих игроков (8) сегодня уже встречались 12",
           "Пары, которые встречаются снова"],
}


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> PageNight:
    """Eight at two Barbu tables, round 1 confirmed."""
    made = PageNight(app, client, EIGHT, here=8)
    made.confirm("barbu", 3)
    return made


def pairs_of(page: str, number: int) -> list[set[str]]:
    """The pairs a page names as meeting again in round `number`: [{"Ann", "Bob"}, ...]."""
    text = seen(page).split(f"Round {number}: ", 1)[1].split("(", 1)[1].split(")", 1)[0]
    return [set(pair.split(" & ")) for pair in text.split(", ")]


def met_in_round_one(night: PageNight) -> set[frozenset[str]]:
    names = night.names()
    return {frozenset((names[a], names[b])) for (_n, seats, _e), _m in night.tables() for a, b in combinations(seats, 2)}


def test_the_proposal_says_how_many_pairs_meet_again_and_that_they_must(night: PageNight):
    where, page = night.drawn(night.page("/new?game=barbu"))
    shown = seen(page)
    assert "Round 2: 4 pairs meet again" in shown and MUST in shown
    assert all(frozenset(pair) in met_in_round_one(night) for pair in pairs_of(page, 2))


def test_a_swap_that_seats_more_pairs_again_is_told_how_few_another_seating_would(night: PageNight):
    where, page = night.drawn(night.page("/new?game=barbu"))
    tables = [[int(seat) for seat in posted(page)[f"table-{n}"][0].split(":")[1].split(",")] for n in (1, 2)]
    met = {frozenset(pair) for pair in met_in_round_one(night)}
    names = night.names()
    # Swap the two who met nobody at their new table's other half: one table then holds three of an old table.
    swap = next((a, b) for a in tables[0] for b in tables[1]
                if sum(frozenset((names[b], names[o])) in met for o in tables[0] if o != a) == 2)
    shown = seen(night.client.get(f"{where}&swap={swap[0]}-{swap[1]}").text)
    assert "Round 2: 6 pairs meet again" in shown
    assert "Another seating of them at these tables would seat only 4 pairs again." in shown and MUST not in shown


def test_the_rounds_page_and_the_evenings_page_say_it_for_each_round_after_the_first(night: PageNight):
    _where, page = night.drawn(night.page("/new?game=barbu"))
    done = night.client.post(night.page(), data=posted(page))
    assert done.status_code == 302, reasons(done.text)
    rounds_page = seen(night.client.get(night.page()).text)
    assert "Round 2: 4 pairs meet again" in rounds_page and MUST in rounds_page
    evening = seen(night.client.get(f"/c/{night.club}/admin/evenings/{night.id}").text)
    assert "Pairs meeting again" in evening and "Round 2: 4 pairs meet again" in evening and MUST in evening
    assert "Round 1:" not in evening.split("Pairs meeting again", 1)[1]


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_it_reads_in_french_and_russian(night: PageNight, lang: str):
    _where, page = night.drawn(night.page("/new?game=barbu"))
    assert night.client.post(night.page(), data=posted(page)).status_code == 302
    night.client.get(f"/language/{lang}")
    evening = seen(night.client.get(f"/c/{night.club}/admin/evenings/{night.id}").text)
    for words in WORDS[lang]:
        assert words.replace("\u00a0", " ") in evening, (lang, words)
    assert "meet again" not in evening and "They must" not in evening


def test_an_evening_of_one_round_says_nothing_of_pairs_meeting_again(night: PageNight):
    assert "Pairs meeting again" not in seen(night.client.get(f"/c/{night.club}/admin/evenings/{night.id}").text)
    assert "meet again" not in seen(night.client.get(night.page()).text)


def test_the_first_rounds_proposal_says_nothing_of_pairs_meeting_again(app: Flask, client: FlaskClient):
    fresh = PageNight(app, client, EIGHT, here=8)
    _where, page = fresh.drawn(fresh.page("/new?game=barbu"))
    assert "Table 2 · Barbu" in seen(page) and "together again" not in seen(page) and "meet again" not in seen(page)
