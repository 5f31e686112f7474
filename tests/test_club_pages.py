"""Club pages as a player sees them: a new club and its links, the admin's forms, a match from the roster,
season standings with ratings beside them, player records, head to head, and the standings on paper.

Forms refused come back with the reason beside the field and what was typed kept; malformed requests
get a sentence, never a 500; the admin's actions need the admin key. The PDF is read with poppler.
"""

from __future__ import annotations

import math
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import format_decimal, get_locale

from helpers.api import bearer
from helpers.club_matches import FOUR, random_match
from helpers.clubs import admin_post, member, new_club, reasons
from helpers.forms import csrf_token
from helpers.i18n import assert_translated, seen
from helpers.pdf import info, pages, save, text
from scorekeeper.i18n import LANGUAGES
from scorekeeper.web.club.pages import figure

BANNER = re.compile(r'<p class="error banner" role="alert">([^<]*)</p>')
SIX = [*FOUR, "Eve", "Fay"]
# One Kozyol deal decides a series played to a single defeat point: Bob and Dee, 45 card points, are the goat.
KOZYOL_DEAL = {"points": [75, 45]}
HEARTS_HAND = {"hearts": dict(zip(SIX, [5, 0, 7, 3, 2, 4])), "black_marias": dict(zip(SIX, [1, 0, 0, 1, 0, 0]))}


# -- helpers: a club made and run the way a phone does it -----------------------------------------------------


def add_players(client: FlaskClient, club: str, *names: str) -> None:
    for name in names:
        assert admin_post(client, club, "players", "add", {"name": name}).status_code == 302


def player_ids(app: Flask, club: str) -> dict[str, int]:
    from scorekeeper.club import service as clubs

    with app.app_context():
        return {player.name: player.id for player in clubs.roster(clubs.find(club))}


def start(client: FlaskClient, club: str, game: str, picks: list[str], new: dict[int, str] | None = None,
          **options: Any):
    """Send the club's new-match form: a roster pick per seat, new names by seat, options as fields."""
    data = {"csrf_token": csrf_token(client, "/clubs/new"), **options}
    data.update({f"players-{seat}": name for seat, name in enumerate(picks)})
    data.update({f"new_players-{seat}": name for seat, name in (new or {}).items()})
    return client.post(f"/c/{club}/new/{game}", data=data)


def played(client: FlaskClient, answer, *hands: dict[str, Any]) -> str:
    """The match a form started (this phone holds its edit key), with hands recorded through the API."""
    assert answer.status_code == 302, reasons(answer.text) or BANNER.findall(answer.text)
    public_id = answer.headers["Location"].rsplit("/", 1)[1]
    with client.session_transaction() as session:
        key = session["keys"][public_id]
    for hand in hands:
        sent = client.post(f"/api/v1/matches/{public_id}/hands", json=hand, headers=bearer(key))
        assert sent.status_code == 201, sent.get_json()
    return public_id


def kozyol_series(client: FlaskClient, club: str, seats: list[str]) -> str:
    return played(client, start(client, club, "kozyol", seats, target="1", first_dealer="0"), KOZYOL_DEAL)


def barbu_match(app: Flask, client: FlaskClient, club: str, seed: int = 1) -> str:
    """A whole random Barbu match (28 hands) of the club's first four players, through the glue and the API."""
    from scorekeeper.club import service as clubs

    replay, entries = random_match(random.Random(seed), "barbu")
    with app.app_context():
        match, key = clubs.start_match(clubs.find(club), "barbu", list(replay.players), dict(replay.options))
        public_id = match.public_id
    for entry in entries:
        assert client.post(f"/api/v1/matches/{public_id}/hands", json=entry, headers=bearer(key)).status_code == 201
    return public_id


@pytest.fixture
def club(client: FlaskClient) -> str:
    made = new_club(client)
    add_players(client, made, *FOUR)
    return made


# -- a new club and its links ---------------------------------------------------------------------------------


def test_a_new_club_shows_both_links_with_qr_codes(client: FlaskClient):
    assert "Start a club" in seen(client.get("/").text)
    form = client.get("/clubs/new")
    assert form.status_code == 200 and 'id="name"' in form.text
    made = new_club(client, "Barbu du dimanche")
    page = client.get(f"/c/{made}/share").text
    assert f"/c/{made}/join/" in page and f'value="http://localhost/c/{made}"' in page
    assert "Keep the admin link for yourself" in page
    for kind in ("club", "admin"):
        qr = client.get(f"/c/{made}/qr/{kind}.svg")
        assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert client.get(f"/c/{made}/qr/admin.svg").headers["Cache-Control"] == "private, no-store"
    # The home page remembers the club on this phone.
    assert "Barbu du dimanche" in seen(client.get("/").text)


@pytest.mark.parametrize(("name", "reason"), [
    ("", "Give it a name."),
    ("   ", "Give it a name."),
    ("x" * 61, "A name can have at most 60 characters."),
])
def test_a_club_without_a_good_name_is_refused_beside_the_field(client: FlaskClient, name: str, reason: str):
    answer = client.post("/clubs/new", data={"csrf_token": csrf_token(client, "/clubs/new"), "name": name})
    assert answer.status_code == 422
    assert reasons(answer.text) == {"name": reason}
    assert f'value="{name}"' in answer.text  # what was typed stays


def test_a_stale_form_says_so_instead_of_failing(client: FlaskClient):
    answer = client.post("/clubs/new", data={"name": "No token"})
    assert answer.status_code == 422 and "The page was open too long" in answer.text


def test_a_member_sees_the_club_but_cannot_run_it(app: Flask, client: FlaskClient, club: str):
    member = app.test_client()
    page = member.get(f"/c/{club}")
    assert page.status_code == 200 and "Les Dimanches" in page.text
    assert "Run the club" not in seen(page.text) and "Run the club" in seen(client.get(f"/c/{club}").text)
    refused = member.get(f"/c/{club}/admin")
    assert refused.status_code == 403 and "Only phones that opened the club's admin link" in seen(refused.text)
    assert member.get(f"/c/{club}/qr/admin.svg").status_code == 403
    assert "/join/" not in member.get(f"/c/{club}/share").text  # no admin link shown to a member
    token = csrf_token(member, "/clubs/new")
    for action, form in (("players", "add"), ("rename", "rename"), ("merge", "merge"), ("ranking", "ranking"),
                         ("rules/kozyol", "kozyol"), ("seasons", "season"), ("evenings", "evening")):
        answer = member.post(f"/c/{club}/admin/{action}", data={f"{form}-csrf_token": token, f"{form}-name": "Zed"})
        assert answer.status_code == 403, action
    assert member.post(f"/c/{club}/admin-link", data={"csrf_token": token, "confirm": "yes"}).status_code == 403
    assert "Zed" not in seen(client.get(f"/c/{club}").text)


def test_the_admin_link_makes_a_phone_an_admin_and_a_wrong_one_is_refused(app: Flask, client: FlaskClient, club: str):
    link = re.search(r'id="admin-link" class="copy" readonly value="http://localhost([^"]+)"',
                     client.get(f"/c/{club}/share").text).group(1)
    other = app.test_client()
    wrong = other.get(f"/c/{club}/join/not-the-key")
    assert wrong.status_code == 403 and "This admin link no longer works" in seen(wrong.text)
    joined = other.get(link)
    assert joined.status_code == 302 and joined.headers["Location"] == f"/c/{club}/admin"
    assert other.get(f"/c/{club}/admin").status_code == 200


def test_a_new_admin_link_asks_first_and_retires_the_old_one(app: Flask, client: FlaskClient, club: str):
    link = re.search(r'id="admin-link" class="copy" readonly value="http://localhost([^"]+)"',
                     client.get(f"/c/{club}/share").text).group(1)
    other = app.test_client()
    other.get(link)
    asked = client.get(f"/c/{club}/admin-link")
    assert asked.status_code == 200 and "Make a new admin link?" in asked.text
    token = csrf_token(client, "/clubs/new")
    unconfirmed = client.post(f"/c/{club}/admin-link", data={"csrf_token": token})
    assert unconfirmed.headers["Location"] == f"/c/{club}/admin-link"
    made = client.post(f"/c/{club}/admin-link", data={"csrf_token": token, "confirm": "yes"})
    assert made.headers["Location"] == f"/c/{club}/share"
    assert "Old admin links no longer work." in client.get(f"/c/{club}/share").text
    assert client.get(f"/c/{club}/admin").status_code == 200
    stale = other.get(f"/c/{club}/admin")
    assert stale.status_code == 403 and "a newer one replaced it" in stale.text
    assert other.get(link).status_code == 403


# -- the roster and the admin's forms -------------------------------------------------------------------------


def test_the_roster_refuses_a_name_it_already_has_whatever_its_case(client: FlaskClient, club: str):
    answer = admin_post(client, club, "players", "add", {"name": "ANN"})
    assert answer.status_code == 422
    assert reasons(answer.text) == {"name": "The club already has a player of that name."}
    assert 'value="ANN"' in answer.text
    answer = admin_post(client, club, "players", "add", {"name": ""})
    assert answer.status_code == 422 and "name" in reasons(answer.text)


def test_renaming_keeps_the_record_and_merging_joins_two_entries(app: Flask, client: FlaskClient, club: str):
    kozyol_series(client, club, FOUR)
    add_players(client, club, "Annie")
    ids = player_ids(app, club)
    renamed = admin_post(client, club, "rename", "rename", {"player": ids["Bob"], "name": "Robert"})
    assert renamed.status_code == 302
    page = seen(client.get(f"/c/{club}").text)
    assert "Robert" in page and "Bob" not in page
    taken = admin_post(client, club, "rename", "rename", {"player": ids["Cid"], "name": "robert"})
    assert taken.status_code == 422 and reasons(taken.text) == {"name": "The club already has a player of that name."}
    assert 'value="robert"' in taken.text
    merged = admin_post(client, club, "merge", "merge", {"keep": ids["Ann"], "gone": ids["Annie"]})
    assert merged.status_code == 302
    assert "Annie" not in seen(client.get(f"/c/{club}").text)
    record = seen(client.get(f"/c/{club}/players/{ids['Robert' if 'Robert' in ids else 'Bob']}").text)
    assert "Times goat 1" in record


@pytest.mark.parametrize(("action", "form", "data"), [
    ("rename", "rename", {"player": "abc", "name": "Zed"}),
    ("rename", "rename", {"player": "999999", "name": "Zed"}),
    ("rename", "rename", {}),
    ("merge", "merge", {"keep": "1", "gone": "x"}),
    ("merge", "merge", {"keep": "999998", "gone": "999999"}),
    ("ranking", "ranking", {"min_matches": "lots"}),
    ("ranking", "ranking", {"min_matches": "0"}),
    ("ranking", "ranking", {"min_matches": "9" * 400}),
    ("seasons", "season", {"name": "Autumn", "starts": "2026-13-45", "ends": "2026-12-01"}),
    ("seasons", "season", {"name": "Autumn", "starts": "2026-12-31", "ends": "2026-09-01"}),
    ("seasons", "season", {"name": "", "starts": "2026-09-01", "ends": "2026-12-31"}),
    ("evenings", "evening", {"day": "yesterday", "name": "Party"}),
    ("rules/kozyol", "kozyol", {"target": "-4"}),
    ("rules/hearts", "hearts", {"target": "many", "moon_points": "7"}),
    ("rules/barbu", "barbu", {"domino_scores": "1,2,3"}),
])
def test_malformed_admin_forms_get_a_sentence_and_keep_the_input(client: FlaskClient, club: str, action: str,
                                                                  form: str, data: dict[str, str]):
    answer = admin_post(client, club, action, form, data)
    assert answer.status_code == 422, answer.status_code
    shown = reasons(answer.text) or dict.fromkeys(BANNER.findall(answer.text), "")
    assert shown, "the page says why"
    for name, value in data.items():
        if value and len(value) < 50 and name not in ("moon_points", "domino_scores"):  # a chip holds no other value
            assert f'value="{value}"' in answer.text or f'value="{value}" selected' in answer.text \
                or f'value="{value}" checked' in answer.text or form in ("rename", "merge"), value


def test_seasons_evenings_and_the_ranking_minimum(client: FlaskClient, club: str):
    kozyol_series(client, club, FOUR)
    from datetime import datetime, timezone

    today = datetime.now(timezone.utc).date().isoformat()
    assert admin_post(client, club, "seasons", "season", {"name": "Long ago", "starts": "2001-01-01",
                                                          "ends": "2001-12-31"}).status_code == 302
    assert admin_post(client, club, "evenings", "evening", {"day": today, "name": "Goat night"}).status_code == 302
    page = client.get(f"/c/{club}").text
    assert "Goat night" in seen(page) and "Long ago" in seen(page)
    # Provisional places below the minimum, ranked once it is met.
    assert "Provisional place: fewer than 3 finished matches so far." in seen(page)
    assert admin_post(client, club, "ranking", "ranking", {"min_matches": "1"}).status_code == 302
    assert "Provisional place" not in seen(client.get(f"/c/{club}").text)
    season = re.search(r'<option value="(\d+)"[^>]*>Long ago', page).group(1)
    empty = seen(client.get(f"/c/{club}?season={season}").text)
    assert "No finished matches in this season yet." in empty and "Standings · Long ago" in empty


@pytest.mark.parametrize("query", ["?season=abc", "?season=999999", "?season=-1", "?season=" + "9" * 40])
def test_an_unknown_season_is_a_404_page(client: FlaskClient, club: str, query: str):
    answer = client.get(f"/c/{club}{query}")
    assert answer.status_code == 404 and "<h1>" in answer.text


@pytest.mark.parametrize("url", ["/c/nope", "/c/nope/admin", "/c/nope/share", "/c/nope/new/barbu",
                                 "/c/nope/players/1", "/c/nope/standings.pdf", "/c/%00/players/1",
                                 "/c/nope/qr/club.svg"])
def test_an_unknown_club_says_so(client: FlaskClient, url: str):
    answer = client.get(url)
    assert answer.status_code == 404
    assert "There is no such club" in answer.text


def test_house_rules_prefill_a_new_match(client: FlaskClient, club: str):
    saved = admin_post(client, club, "rules/kozyol", "kozyol", {"target": "7", "eggs_double_next": "y"})
    assert saved.status_code == 302
    rules = client.get(f"/c/{club}/admin/rules").text
    assert re.search(r'id="kozyol-target"[^>]*value="7"', rules)
    form = client.get(f"/c/{club}/new/kozyol").text
    assert re.search(r'name="target"[^>]*value="7"', form)
    assert re.search(r'<input checked id="eggs_double_next"', form)
    # Every seat lists the roster.
    assert all(f'<option value="{name}">{name}</option>' in form for name in FOUR)
    assert form.count('<select id="players-') == 4


@pytest.mark.parametrize("junk", ["", "\x00", "x" * 5000, "9" * 5000, "<script>alert(1)</script>", "١٢", "-1", "1e9",
                                  "ä\u0301"])
def test_no_form_of_the_club_fails_on_junk(client: FlaskClient, club: str, junk: str):
    token = csrf_token(client, "/clubs/new")
    posts = {"/clubs/new": {"csrf_token": token, "name": junk},
             f"/c/{club}/new/kozyol": {"csrf_token": token, "players-0": junk, "new_players-1": junk, "target": junk,
                                       "first_dealer": junk, "language": junk, "players-99999": junk},
             f"/c/{club}/new/hearts": {"csrf_token": token, **{f"new_players-{seat}": junk for seat in range(11)},
                                       "moon_points": junk},
             f"/c/{club}/admin-link": {"csrf_token": token, "confirm": junk}}
    for form, action in (("add", "players"), ("rename", "rename"), ("merge", "merge"), ("ranking", "ranking"),
                         ("season", "seasons"), ("evening", "evenings"), ("zone", "time-zone"),
                         ("barbu", "rules/barbu")):
        posts[f"/c/{club}/admin/{action}"] = {f"{form}-csrf_token": token, **{f"{form}-{name}": junk for name in (
            "name", "player", "keep", "gone", "min_matches", "starts", "ends", "day", "domino_scores",
            "enforce_declarer_doubles", "time_zone")}}
    for url, data in posts.items():
        answer = client.post(url, data=data)
        assert answer.status_code < 500, (url, answer.status_code)
    for url in (f"/c/{club}?season={junk}", f"/c/{club}/players/1?vs={junk}&season={junk}",
                f"/c/{club}/players/{junk or 1}", f"/c/{club}/standings.pdf?season={junk}",
                f"/c/{club}/join/{junk or 'k'}", f"/api/v1/clubs/{club}/head-to-head?a={junk}&b={junk}",
                f"/api/v1/clubs/{club}/players/{junk or 1}", f"/api/v1/clubs/{club}/standings?season={junk}"):
        assert client.get(url).status_code < 500, url


# -- a match from the roster ----------------------------------------------------------------------------------


def test_a_match_from_the_roster_links_back_and_a_new_name_joins_the_roster(client: FlaskClient, club: str):
    answer = start(client, club, "kozyol", ["Ann", "Bob", "Cid"], {3: "Zoé"}, target="1", first_dealer="0")
    public_id = played(client, answer, KOZYOL_DEAL)
    match_page = client.get(f"/m/{public_id}").text
    assert f'href="/c/{club}"' in match_page and "Back to Les Dimanches" in seen(match_page)
    page = seen(client.get(f"/c/{club}").text)
    assert "Zoé" in page and "Kozyol · Ann, Bob, Cid, Zoé" in page


def test_a_refused_match_form_keeps_the_seats_picked(client: FlaskClient, club: str):
    answer = start(client, club, "kozyol", ["Ann", "Ann", "Cid", "Dee"], target="1")
    assert answer.status_code == 422
    assert reasons(answer.text).get("players") == "Two players have the same name; names must differ."
    assert answer.text.count('<option value="Ann" selected>Ann</option>') == 2
    gap = start(client, club, "hearts", ["Ann", "", "Cid", "Dee", "Eve", "Fay"], {4: "Eve", 5: "Fay"})
    assert gap.status_code == 422 and "fill the seats in order" in reasons(gap.text)["players"]
    few = start(client, club, "barbu", ["Ann", "Bob"])
    assert few.status_code == 422 and "players" in reasons(few.text)
    tampered = start(client, club, "kozyol", ["Ann", "Bob", "Cid", "Nobody"], target="999")
    assert tampered.status_code == 422
    assert client.get(f"/c/{club}/new/chess").status_code == 404


# -- standings, ratings, records -------------------------------------------------------------------------------


def test_standings_with_ratings_beside_them_and_the_partnerships(client: FlaskClient, club: str):
    assert "No finished matches yet." in seen(client.get(f"/c/{club}").text)
    admin_post(client, club, "ranking", "ranking", {"min_matches": "1"})
    kozyol_series(client, club, FOUR)
    kozyol_series(client, club, ["Ann", "Dee", "Cid", "Bob"])
    page = client.get(f"/c/{club}").text
    table = re.search(r'aria-labelledby="standings-kozyol">(.*?)</table>', page, re.S).group(1)
    rows = [seen(row) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)]
    assert rows[0] == "Place Player Matches Goats per match Goats Goats with eggs Deals won Rating"
    assert rows[1].startswith("1 Ann 2 0.0 0 0 2 ") and rows[2].startswith("1 Cid 2 0.0 0 0 2 ")
    assert {rows[3].split()[1], rows[4].split()[1]} == {"Bob", "Dee"}
    assert all(len(row.split()) == 8 for row in rows[1:]), "a rating beside every place"
    partners = seen(re.search(r'aria-labelledby="partners-kozyol">(.*?)</table>', page, re.S).group(1))
    assert "Ann & Cid 2 0 0" in partners
    assert "Standings as PDF" in seen(page)
    # The season's spreadsheets, one tap away; each opens as CSV.
    links = re.findall(r'<a class="button" href="([^"]+\.csv[^"]*)" download>', page)
    assert len(links) == 3, links
    for link in links:
        answer = client.get(link.replace("&amp;", "&"))
        assert answer.status_code == 200 and answer.mimetype == "text/csv", link


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_the_page_and_its_pdf_list_the_leading_partnerships_and_count_the_rest(client: FlaskClient, club: str,
                                                                              tmp_path: Path):
    """A big club has thousands of pairs: the page lists ten, those often together first, and counts the rest."""
    admin_post(client, club, "ranking", "ranking", {"min_matches": "2"})
    add_players(client, club, "Eve", "Fay")
    for seats in (FOUR, FOUR, ["Ann", "Cid", "Bob", "Dee"], ["Ann", "Bob", "Dee", "Cid"], ["Ann", "Bob", "Eve", "Fay"],
                  ["Ann", "Eve", "Fay", "Bob"], ["Cid", "Dee", "Eve", "Fay"], ["Cid", "Eve", "Fay", "Dee"]):
        kozyol_series(client, club, seats)  # 14 pairs in all; Ann & Cid and Bob & Dee twice
    page = client.get(f"/c/{club}").text
    table = re.search(r'aria-labelledby="partners-kozyol">(.*?)</table>', page, re.S).group(1)
    rows = re.findall(r"<tr([^>]*)>(.*?)</tr>", table, re.S)[1:]
    assert len(rows) == 10
    assert {seen(rows[0][1]).split(" 2 ")[0], seen(rows[1][1]).split(" 2 ")[0]} == {"Ann & Cid", "Bob & Dee"}
    assert [attributes for attributes, _ in rows] == [""] * 2 + [' class="unranked"'] * 8
    assert "4 more partnerships are not listed here." in seen(page)
    assert len(client.get(f"/api/v1/clubs/{club}/standings").json["games"]["kozyol"]["partnerships"]) == 14
    printed = text(save(tmp_path, client.get(f"/c/{club}/standings.pdf").data))
    assert "Ann & Cid" in printed and "4 more partnerships are not listed here." in printed
    assert printed.count(" & ") == 10


def test_a_corrected_match_changes_the_kept_standings(client: FlaskClient, club: str):
    admin_post(client, club, "ranking", "ranking", {"min_matches": "1"})
    public_id = kozyol_series(client, club, FOUR)

    def goats() -> dict[str, str]:
        table = re.search(r'aria-labelledby="standings-kozyol">(.*?)</table>', client.get(f"/c/{club}").text, re.S)
        return {cells[1]: cells[4] for cells in (seen(row).split() for row in
                                                 re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)[1:])}

    assert goats() == {"Ann": "0", "Cid": "0", "Bob": "1", "Dee": "1"}
    with client.session_transaction() as session:
        key = session["keys"][public_id]
    fixed = client.put(f"/api/v1/matches/{public_id}/hands/1", json={"points": [45, 75]}, headers=bearer(key))
    assert fixed.status_code == 200, fixed.get_json()
    assert goats() == {"Ann": "1", "Cid": "1", "Bob": "0", "Dee": "0"}


def test_a_player_page_and_head_to_head(app: Flask, client: FlaskClient, club: str):
    barbu_match(app, client, club)
    kozyol_series(client, club, FOUR)
    ids = player_ids(app, club)
    page = client.get(f"/c/{club}/players/{ids['Ann']}")
    assert page.status_code == 200
    text_seen = seen(page.text)
    for words in ("Average per match", "Doubles made", "Net of the doubles", "Redoubles", "Best contract",
                  "Worst contract", "Average per contract", "As declarer", "As defender", "No Queens",
                  "Deals won", "Eggs", "Times goat", "Best partner Cid"):
        assert words in text_seen, words
    versus = seen(client.get(f"/c/{club}/players/{ids['Ann']}?vs={ids['Cid']}").text)
    assert "Kozyol : partners in 1 match" in versus
    assert re.search(r"Barbu : 1 match against each other · Ann ahead [01] · Cid ahead [01] · level 0", versus)
    for odd in ("?vs=abc", f"?vs={ids['Ann']}", "?vs=999999", "?vs=", "?vs=" + "9" * 5000, "?vs=٣"):
        answer = client.get(f"/c/{club}/players/{ids['Ann']}{odd}")
        assert answer.status_code == 200 and "against each other" not in answer.text
    assert client.get(f"/c/{club}/players/999999").status_code == 404
    assert client.get(f"/c/{club}/players/abc").status_code == 404
    quiet = seen(client.get(f"/c/{club}/players/{ids['Dee']}?vs={ids['Ann']}").text)
    assert "Times goat 1" in quiet


def test_an_empty_player_page_says_what_to_do(app: Flask, client: FlaskClient, club: str):
    ids = player_ids(app, club)
    page = seen(client.get(f"/c/{club}/players/{ids['Bob']}").text)
    assert "Bob has no finished match yet." in page


def test_a_hearts_night_of_six(app: Flask, client: FlaskClient, club: str):
    add_players(client, club, "Eve", "Fay")
    answer = start(client, club, "hearts", SIX, target="26", moon_points="26", first_dealer="0")
    played(client, answer, HEARTS_HAND, HEARTS_HAND)
    page = client.get(f"/c/{club}").text
    table = seen(re.search(r'aria-labelledby="standings-hearts">(.*?)</table>', page, re.S).group(1))
    assert "Place Player Matches Wins Average place Rating" in table
    assert "Bob 1 1 1.0" in table  # the lowest total wins
    ids = player_ids(app, club)
    record = seen(client.get(f"/c/{club}/players/{ids['Ann']}").text)
    assert "Black Marias taken 2" in record and "Average per hand 18.0" in record and "Moons shot 0" in record


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_figure_reads_as_babel_writes_it_in_every_language(app: Flask, language: str):
    """The figure filter's own formatting gives Babel's text: averages to a tenth, half to even, and grouping."""
    rng = random.Random(language)
    averages = [0.05, 0.15, 0.25, 0.35, -0.04, -0.05, 2.45, 999.95, 1234.56, -1234.55, 1e6 / 3, 12.0, -87.25]
    averages += [rng.uniform(-50_000, 50_000) for _ in range(400)] + [rng.randint(-999, 999) / 8 for _ in range(200)]
    wholes = [0, 7, -7, 999, 1000, -1000, 12345, 1234567, -98765432] + [rng.randint(-10**7, 10**7) for _ in range(400)]
    with app.test_request_context(headers={"Accept-Language": language}):
        assert str(get_locale()) == language
        for value in averages:
            assert figure(value) == format_decimal(value, format="#,##0.0"), value
        for value in wholes:
            assert figure(value) == format_decimal(value), value
        assert figure(None) == "–"
        # Never a statistic, and Babel raises on them; the page still prints.
        assert figure(math.inf) == figure(-math.inf) == figure(math.nan) == "–"
        assert figure(1e300).startswith("1") and figure(-(10**30)).endswith("000")


def test_the_admin_sets_the_time_zone_and_the_club_page_says_it(client: FlaskClient, club: str):
    form = client.get(f"/c/{club}/admin/settings").text
    assert '<option selected value="UTC">UTC</option>' in form and 'value="America/Montreal"' in form
    assert "data-phone-zone hidden" in form  # offered by the script, when the phone's zone is not the club's
    refused = admin_post(client, club, "time-zone", "zone", {"time_zone": "Mars/Olympus"})
    assert refused.status_code == 422 and "Not a valid choice" in seen(refused.text)
    assert 'value="Mars/Olympus"' not in refused.text  # nothing saved, nothing offered
    saved = admin_post(client, club, "time-zone", "zone", {"time_zone": "America/Montreal"})
    assert saved.status_code == 302
    page = client.get(saved.headers["Location"]).text
    assert "Time zone saved" in seen(page) and '<option selected value="America/Montreal">' in page
    assert "in the club's time zone (America/Montreal)" in seen(client.get(f"/c/{club}").text)


# -- the standings on paper ------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_the_standings_pdf_holds_the_page_figures(app: Flask, client: FlaskClient, club: str, tmp_path: Path):
    admin_post(client, club, "ranking", "ranking", {"min_matches": "1"})
    kozyol_series(client, club, FOUR)
    barbu_match(app, client, club)
    answer = client.get(f"/c/{club}/standings.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert answer.headers["Content-Disposition"].startswith('inline; filename="Les-Dimanches-All-time-20')
    path = save(tmp_path, answer.data)
    assert pages(path) == 1 and "A4" in info(path)["Page size"]
    width, height = map(float, re.findall(r"[\d.]+", info(path)["Page size"])[:2])
    assert height > width, "portrait"
    printed = text(path)
    for words in ("Les Dimanches", "Standings · All time", "Barbu", "Kozyol", "Partnerships", "Rating",
                  "Ann & Cid", "Goats with eggs"):
        assert words in printed, words
    kozyol = printed[printed.index("Kozyol"):]
    assert re.search(r"1\s+Ann\s+1\s+0\.0\s+0\s+0\s+1\s+-?\d+\.\d", kozyol)
    # The same figures as the page: every Barbu total of the page is on paper.
    page = client.get(f"/c/{club}").text
    barbu = re.search(r'aria-labelledby="standings-barbu">(.*?)</table>', page, re.S).group(1)
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", barbu, re.S)[1:]:
        cells = seen(row).split()
        assert re.search(r"\s+".join(map(re.escape, cells[1:])), printed), cells
    # Cached per club state: a repeat with its ETag is a 304, a new result a new sheet.
    again = client.get(f"/c/{club}/standings.pdf", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304
    kozyol_series(client, club, FOUR)
    assert client.get(f"/c/{club}/standings.pdf", headers={"If-None-Match": answer.headers["ETag"]}).status_code == 200
    # In the reader's language.
    client.get("/language/ru")
    russian = text(save(tmp_path, client.get(f"/c/{club}/standings.pdf").data, "ru.pdf"))
    for words in ("Таблица · За всё время", "Козёл", "Козлы с яйцами", "Рейтинг", "Пары"):
        assert words in russian, words


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_an_empty_season_prints_what_it_is(client: FlaskClient, club: str, tmp_path: Path):
    admin_post(client, club, "seasons", "season", {"name": "Spring", "starts": "2001-03-01", "ends": "2001-05-31"})
    season = re.search(r'<option value="(\d+)"[^>]*>Spring', client.get(f"/c/{club}").text).group(1)
    printed = text(save(tmp_path, client.get(f"/c/{club}/standings.pdf?season={season}").data))
    assert "Standings · Spring (Mar 1, 2001 – May 31, 2001)" in printed  # the days as the reader's language writes them
    assert "No finished matches in this season yet." in printed
    assert client.get(f"/c/{club}/standings.pdf?season=nope").status_code == 404


# -- in French and Russian -------------------------------------------------------------------------------------

CLUB_WORDS = {
    "club": {"fr": ["Classement", "Depuis le début", "Boucs avec les œufs", "Cote", "Équipes", "Soirées"],
             "ru": ["Таблица", "За всё время", "Козлы с яйцами", "Рейтинг", "Пары", "Вечера"]},
    "player": {"fr": ["Fois bouc", "Meilleur partenaire", "Moyenne par contrat", "Comme déclarant", "Face à face"],
               "ru": ["Раз козлом", "Лучший партнёр", "В среднем по контрактам", "Заказывая", "Друг против друга"]},
    "admin": {"fr": ["Gérer le club", "Règles maison", "Prochaine soirée"],
              "ru": ["Управлять клубом", "Правила клуба", "Следующий вечер"]},
    "players": {"fr": ["Fusionner", "Ajouter au club"], "ru": ["Объединить", "Добавить в клуб"]},
    "evenings": {"fr": ["Nommer une soirée", "Prévoir une soirée"], "ru": ["Назвать вечер", "Запланировать вечер"]},
    "new": {"fr": ["ou un nouveau nom", "Choisir un joueur", "Points de pénalité qui finissent la partie"],
            "ru": ["или новое имя", "Выберите игрока", "Штрафные очки до конца партии"]},
    "links": {"fr": ["Lien du club", "Lien d’administration"], "ru": ["Ссылка клуба", "Ссылка администратора"]},
    "home": {"fr": ["Créer un club", "Les Dimanches"], "ru": ["Создать клуб", "Les Dimanches"]},
}


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_club_pages_in_french_and_russian(app: Flask, client: FlaskClient, club: str, lang: str):
    barbu_match(app, client, club)
    kozyol_series(client, club, FOUR)
    ids = player_ids(app, club)
    assert "Standings" in seen(client.get(f"/c/{club}").text)  # kept in English: the French page is another
    client.get(f"/language/{lang}")
    for name, url in (("club", f"/c/{club}"), ("player", f"/c/{club}/players/{ids['Ann']}?vs={ids['Bob']}"),
                      ("admin", f"/c/{club}/admin"), ("players", f"/c/{club}/admin/players"),
                      ("evenings", f"/c/{club}/admin/evenings"), ("new", f"/c/{club}/new/kozyol"),
                      ("links", f"/c/{club}/share"), ("home", "/")):
        answer = client.get(url)
        assert answer.status_code == 200 and f'<html lang="{lang}">' in answer.text
        assert_translated(seen(answer.text), lang, CLUB_WORDS[name][lang], name)
    refused = admin_post(client, club, "players", "add", {"name": "ann"})
    assert reasons(refused.text)["name"] == {"fr": "Le club a déjà un joueur de ce nom.",
                                             "ru": "В клубе уже есть игрок с таким именем."}[lang]


def test_a_name_typed_in_for_a_club_match_is_on_the_club_page_at_once(client: FlaskClient, club: str):
    """A new name joins the roster with the match it was typed in for: the club page, kept per club version,
    lists it straight away, and the admin can give that player a member link at once."""
    before = client.get(f"/c/{club}").text  # the page and its roster kept as they were
    assert "Zoé" not in before
    made = client.post(f"/api/v1/clubs/{club}/matches", json={"game": "kozyol", "players": [*FOUR[:3], "Zoé"]})
    assert made.status_code == 201, made.text
    other = client.application.test_client()
    for phone in (client, other):
        page = phone.get(f"/c/{club}").text
        assert page.count("Zoé") >= 2  # the roster lists it, beside the match's line
    assert "Member link for Zoé" in seen(client.get(f"/c/{club}/admin/members").text)  # the admin's roster offers it
    zoe = member(client.application, club, player_ids(client.application, club)["Zoé"])
    assert "Not Zoé?" in seen(zoe.get(f"/c/{club}").text)  # the phone that opened it is Zoé
