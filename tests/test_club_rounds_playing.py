"""The round being played, on the admin's phone: latecomers seated at a new table without moving anyone who plays,
and a player who leaves mid-match, with a clear choice for the table (club/playing.py, web/club/playing.py)."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.club_nights import PageNight, posted
from helpers.clubs import member, reasons
from helpers.forms import csrf_token
from helpers.i18n import seen

NINE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
LATE = ["Zed", "Yan", "Xia"]


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> PageNight:
    """Nine here of twelve, round 1 of Kozyol confirmed: two tables, one sitting out."""
    made = PageNight(app, client, NINE + LATE, here=9)
    made.confirm("kozyol", 5)
    return made


def sitting_out(night: PageNight) -> str:
    from scorekeeper.club import evenings, rounds, service as clubs

    with night.app.app_context():
        club = clubs.find(night.club)
        made, _tables = rounds.latest(evenings.evening_of(club, night.id))
        return night.names()[made.sat_out[0]]


def leave_page(night: PageNight, table: int) -> str:
    return night.page(f"/1/tables/{table}/leave")


def test_latecomers_after_round_one_get_a_new_table_and_nobody_playing_moves(night: PageNight, app: Flask):
    before = night.tables()
    out = sitting_out(night)
    page = seen(night.client.get(night.page()).text)
    assert f"Free now: {out}." in page and "Too few for a new table: they play in the next round." in page
    assert "Seat them at a new table" not in page
    for name in LATE:
        night.mark(name, True)
    page = night.client.get(night.page()).text
    assert "Free now (4):" in seen(page) and "Seat them at a new table" in seen(page)
    more = re.search(r'href="([^"]+/rounds/1/more[^"]*)"', page)[1].replace("&amp;", "&")
    _where, proposal = night.drawn(more)
    shown = seen(proposal)
    assert "Round 1: a new table" in shown and "Tables 1, 2 play on as they are" in shown
    assert "Table 3 · Kozyol" in shown and "Table 1 ·" not in shown and "Add this table to round 1" in shown
    table = posted(proposal)["table-1"][0]
    assert sorted(int(seat) for seat in table.split(":")[1].split(",")) == sorted(
        night.ids[name] for name in [out, *LATE])
    done = night.client.post(night.page("/1/tables"), data=posted(proposal))
    assert done.status_code == 302, reasons(done.text)
    after = night.tables()
    assert after[:2] == before and after[2][0][0] == 3  # tables 1 and 2, their seats and matches, as they were
    rounds_page = seen(night.client.get(done.headers["Location"]).text)
    assert "Round 1 has a new table: it can start." in rounds_page and "Table 3 · Kozyol" in rounds_page
    assert "Free now" not in rounds_page and "Sitting out" not in rounds_page
    zed = member(app, night.club, night.ids["Zed"])
    seat = after[2][0][1].index(night.ids["Zed"]) + 1
    assert f"Round 1: table 3, seat {seat}" in seen(zed.get(f"/c/{night.club}").text)
    again = night.client.post(night.page("/1/tables"), data=posted(proposal))
    assert again.status_code == 422 and "Only players who are free can be seated at a new table." in seen(again.text)


def test_a_new_table_is_refused_once_a_later_round_is_drawn(night: PageNight):
    for name in LATE:
        night.mark(name, True)
    _where, proposal = night.drawn(night.page("/1/more?game=kozyol"))
    night.confirm("kozyol", 9)  # round 2, with everyone
    late = night.client.post(night.page("/1/tables"), data=posted(proposal))
    assert late.status_code == 409 and "already confirmed" in seen(late.text)
    old_link = night.client.get(night.page("/1/more?game=kozyol"))
    assert old_link.status_code == 302 and old_link.headers["Location"].endswith(night.page())


def test_a_player_leaving_ends_the_match_for_nobody_and_its_table_takes_no_more_hands(night: PageNight, app: Flask):
    (table, match), _other = night.tables()
    leaver = night.names()[table[1][0]]
    form = night.client.get(leave_page(night, 1)).text
    shown = seen(form)
    assert "A player leaves table 1" in shown and "End the match here." in shown
    assert "Someone free takes the seat, and the table starts a new match." in shown
    assert "The others start a new match without them." not in shown  # Kozyol seats four, no fewer
    done = night.client.post(leave_page(night, 1), data={"csrf_token": csrf_token(night.client, leave_page(night, 1)),
                                                         "player": str(table[1][0]), "then": "ended"})
    assert done.status_code == 302, reasons(done.text)
    page = seen(night.client.get(night.page()).text)
    assert "The match ended here: it counts for nobody." in page
    assert f"{leaver} left: the match ended here and counts for nobody." in page and "Ended" in page
    assert "8 players are here." in page
    free = page.split("Free now (4):", 1)[1]
    assert all(night.names()[seat] in free for seat in table[1][1:])
    ended = night.tables()[0][0][2]
    assert ended["left"] == table[1][0] and ended["then"] == "ended" and ended["hands"] == 0
    with night.client.session_transaction() as session:
        key = session["keys"][match]
    phone = app.test_client()
    refused = phone.post(f"/api/v1/matches/{match}/hands", json={"points": [75, 45]}, headers=bearer(key))
    assert refused.status_code == 403 and "ended when a player left" in refused.get_json()["error"]["message"]
    assert night.client.get(leave_page(night, 1)).status_code == 302  # ended: nothing more to choose
    listed = night.client.get(f"/api/v1/clubs/{night.club}/planned-evenings/{night.id}/rounds").get_json()
    shown = listed["rounds"][0]["tables"]
    assert shown[0]["ended"]["then"] == "ended" and shown[0]["ended"]["left"] == table[1][0] and shown[1]["ended"] is None


def test_a_phone_at_a_table_that_ended_reads_why_at_the_top_and_is_offered_no_next_deal(night: PageNight, app: Flask):
    (table, match), _other = night.tables()
    with night.client.session_transaction() as session:
        key = session["keys"][match]
    phone = app.test_client()  # a phone at the table: it opened the match's edit link, it does not run the club
    assert phone.get(f"/m/{match}/join?key={key}").status_code == 302
    assert f"/m/{match}/hands/new" in phone.get(f"/m/{match}").text
    done = night.client.post(leave_page(night, 1), data={"csrf_token": csrf_token(night.client, leave_page(night, 1)),
                                                         "player": str(table[1][0]), "then": "ended"})
    assert done.status_code == 302, reasons(done.text)
    page = phone.get(f"/m/{match}").text
    ended = "This table's match ended when a player left: it counts for nobody, and only the club's admin can change it."
    assert seen(page).count(ended) == 2  # at the top, and where the next deal's button was
    assert page.index('id="evening-closed"') < page.index('id="standings"')
    assert f"/m/{match}/hands/new" not in page
    assert "You are watching" not in seen(page)


def test_someone_free_takes_the_seat_and_the_table_starts_a_new_match(night: PageNight, app: Flask):
    (table, match), _other = night.tables()
    out = sitting_out(night)
    leaver = table[1][2]
    done = night.client.post(leave_page(night, 1), data={
        "csrf_token": csrf_token(night.client, leave_page(night, 1)), "player": str(leaver), "then": "seat",
        "by": str(night.ids[out])})
    assert done.status_code == 302, reasons(done.text)
    tables = night.tables()
    assert tables[0][0][2]["then"] == "seat" and tables[0][0][2]["table"] == 3 and tables[0][1] == match
    assert tables[2][0][1] == [night.ids[out] if seat == leaver else seat for seat in table[1]]
    assert tables[2][1] != match
    page = seen(night.client.get(night.page()).text)
    assert f"{night.names()[leaver]} left: {out} took the seat, and the table started a new match at table 3." in page
    assert "Table 3 starts a new match: it can start." in page and "Sitting out" not in page
    phone = member(app, night.club, night.ids[out])
    assert "Round 1: table 3, seat 3" in seen(phone.get(f"/c/{night.club}").text)
    gone = member(app, night.club, leaver)
    assert "Round 1: table" not in seen(gone.get(f"/c/{night.club}").text)


def test_the_choice_is_refused_with_its_reason_beside_it_and_what_was_chosen_kept(night: PageNight):
    (table, _match), _other = night.tables()
    url = leave_page(night, 1)
    token = csrf_token(night.client, url)
    others = night.client.post(url, data={"csrf_token": token, "player": str(table[1][0]), "then": "others"})
    assert others.status_code == 422
    assert reasons(others.text) == {"then": "Kozyol needs 4 players: the others cannot play on without them."}
    assert f'value="{table[1][0]}" checked' in others.text and 'value="others"' not in others.text
    nobody = night.client.post(url, data={"csrf_token": token, "player": str(table[1][0]), "then": "seat",
                                          "by": str(table[1][1])})
    assert reasons(nobody.text) == {"by": "Choose who takes the seat, one of the players who are free."}
    assert 'value="seat" checked' in nobody.text
    who = night.client.post(url, data={"csrf_token": token, "then": "ended"})
    assert list(reasons(who.text)) == ["player"] and "Choose who leaves, one of the table's players." in seen(who.text)
    assert night.tables()[0][0][2] is None  # nothing changed


def test_at_hearts_the_others_play_on_without_the_one_who_left(app: Flask, client: FlaskClient):
    night = PageNight(app, client, NINE, here=9)
    ((table, match),) = night.confirm("hearts", 3)  # nine at one table
    url = leave_page(night, 1)
    assert "The others start a new match without them." in seen(night.client.get(url).text)
    done = night.client.post(url, data={"csrf_token": csrf_token(night.client, url), "player": str(table[1][4]),
                                         "then": "others"})
    assert done.status_code == 302, reasons(done.text)
    (old, _match), (new, other) = night.tables()
    assert old[2]["then"] == "others" and new[1] == [seat for seat in table[1] if seat != table[1][4]] and other != match
    assert "the others started a new match at table 2." in seen(night.client.get(night.page()).text)


def test_only_the_admin_seats_latecomers_or_ends_a_table(night: PageNight, app: Flask):
    other = app.test_client()
    assert other.get(night.page("/1/more?game=kozyol")).status_code == 403
    assert other.post(night.page("/1/tables"), data={}).status_code == 403
    assert other.get(leave_page(night, 1)).status_code == 403
    assert night.client.get(night.page("/1/tables/7/leave")).status_code == 404
    assert night.client.get(night.page("/4/tables/1/leave")).status_code == 404


@pytest.mark.parametrize(("lang", "words"), [
    ("fr", ["Un joueur quitte la table 1", "Qui part\u00a0?", "Arrêter la partie ici.", "Libre maintenant\u00a0:",
            "Trop peu pour une nouvelle table"]),
    ("ru", ["Игрок уходит из-за стола 1", "Кто уходит?", "Закончить партию на этом месте.", "Сейчас не за столом:",
            "Слишком мало для нового стола"]),
])
def test_the_round_being_played_reads_in_french_and_russian(night: PageNight, lang: str, words: list[str]):
    night.client.get(f"/language/{lang}")
    shown = seen(night.client.get(leave_page(night, 1)).text) + " " + seen(night.client.get(night.page()).text)
    for word in words:
        assert word.replace("\u00a0", " ") in shown, (lang, word)
    assert "A player leaves" not in shown and "Free now" not in shown and "End the match here" not in shown
