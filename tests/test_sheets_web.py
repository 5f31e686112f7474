"""Score sheet pages and routes: print views, blank-sheet validation, 404s, links from other pages."""

from __future__ import annotations

import re

import pytest

from helpers.api import create_match, error_of, post
from helpers.matches import PLAYERS, barbu_entry
from helpers.static import unbuilt

LONG = "x" * 41


def test_match_print_view_is_the_sheet_template_with_the_css_and_a_pdf_link(client):
    match = create_match(client, "barbu", PLAYERS, {"first_declarer": "Ann"})
    for number in (1, 2):
        post(client, match, barbu_entry(number, PLAYERS))
    page = client.get(f"/m/{match['id']}/sheet")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.text
    assert "/static/sheet.css" in unbuilt(html)
    assert f'href="/api/v1/matches/{match["id"]}/sheet.pdf"' in html
    # Hands 1 and 2: three doubles of the declarer each; Ann's block marks her column; the legend says both.
    assert html.count("(A)") == 6 + 1 + 2
    assert "Standings after hand 2" in html
    assert "style=" not in html and "<script" not in html  # the content security policy allows neither


def test_print_view_of_every_game(client):
    kozyol = create_match(client, "kozyol", ["Ёжик", "Козлов", "Ann", "Bob"])
    post(client, kozyol, {"points": [60, 60]})
    hearts = create_match(client, "hearts", ["A1", "B2", "C3", "D4", "E5", "F6"])
    for match, expected in ((kozyol, "is eggs: nobody takes anything"), (hearts, "lowest total wins")):
        page = client.get(f"/m/{match['id']}/sheet")
        assert page.status_code == 200 and expected in page.text


def test_unknown_match_is_404_json_under_the_api_and_a_page_elsewhere(client):
    answer = client.get("/api/v1/matches/no-such-match/sheet.pdf")
    assert answer.status_code == 404 and answer.mimetype == "application/json"
    assert answer.get_json()["error"]["message"]
    page = client.get("/m/no-such-match/sheet")
    assert page.status_code == 404 and page.mimetype == "text/html"


@pytest.mark.parametrize("url", ["/sheets/chess", "/sheets/chess.pdf", "/sheets/.pdf", "/sheets/barbu.png"])
def test_unknown_game_sheet_is_404(client, url):
    assert client.get(url).status_code == 404


def test_pdf_answers_are_inline_pdf_with_a_file_name(client):
    match = create_match(client)
    answer = client.get(f"/api/v1/matches/{match['id']}/sheet.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    disposition = answer.headers["Content-Disposition"]
    assert disposition.startswith("inline;") and re.search(r'filename="barbu-[\w-]+\.pdf"', disposition)
    blank = client.get("/sheets/kozyol.pdf")
    assert blank.headers["Content-Disposition"] == 'inline; filename="kozyol-sheet.pdf"'


@pytest.mark.parametrize("game", ["barbu", "kozyol", "hearts"])
def test_blank_print_views(client, game):
    page = client.get(f"/sheets/{game}")
    assert page.status_code == 200
    assert f'href="/sheets/{game}.pdf' in page.text
    assert 'name="players"' in page.text  # a form to print the names in


def test_blank_view_with_names_links_the_pdf_with_the_same_names(client):
    page = client.get("/sheets/kozyol?players=Ёжик, Козлов ,Ann,Bob")
    assert page.status_code == 200
    assert "Ёжик" in page.text and "Козлов" in page.text
    assert "/sheets/kozyol.pdf?players=" in page.text


def test_names_may_contain_commas_when_given_one_by_one(client):
    names = ["Ann, the first", "Bob", "Cid", "Dee"]
    page = client.get("/sheets/barbu", query_string=[("players", name) for name in names])
    assert page.status_code == 200 and "Ann, the first" in page.text


BAD_BLANK_SHEETS = [
    ("/sheets/barbu?players=Ann,Bob", "exactly 4 players"),
    ("/sheets/barbu.pdf?players=Ann,Bob,Cid,Dee,Eve", "exactly 4 players"),
    ("/sheets/kozyol.pdf?players=Ann,Ann,Cid,Dee", "same name"),
    ("/sheets/barbu.pdf?players=Ann,,Cid,Dee", "Every player needs a name"),
    (f"/sheets/barbu.pdf?players=Ann,Bob,Cid,{LONG}", "at most 40 letters or signs"),
    ("/sheets/hearts.pdf?players=" + ",".join(f"P{i}" for i in range(12)), "6 to 11 players"),
    ("/sheets/hearts.pdf?players=A,B,C", "6 to 11 players"),
    ("/sheets/hearts.pdf?seats=5", "6 to 11 players"),
    ("/sheets/hearts?seats=12", "6 to 11 players"),
    ("/sheets/hearts.pdf?seats=seven", "6 to 11 players"),
    ("/sheets/hearts.pdf?seats=-7", "6 to 11 players"),
    ("/sheets/hearts?seats=" + "9" * 5000, "6 to 11 players"),  # past what Python turns into a number at all
    ("/sheets/hearts?seats=%C2%B2", "6 to 11 players"),  # "²" passes str.isdigit() but not int()
    ("/sheets/barbu.pdf?players=Ann%00,Bob,Cid,Dee", "control characters"),
    ("/sheets/hearts.pdf?seats=99", "6 to 11 players"),
    ("/sheets/hearts.pdf?seats=-1", "6 to 11 players"),
    ("/sheets/kozyol.pdf?players=Ann", "exactly 4 players"),
]


@pytest.mark.parametrize(("url", "reason"), BAD_BLANK_SHEETS)
def test_blank_sheet_refuses_bad_names_with_400_and_the_reason(client, url, reason):
    answer = client.get(url)
    assert answer.status_code == 400
    assert answer.mimetype == "text/html"
    assert reason in answer.text


@pytest.mark.parametrize(("url", "reason"), BAD_BLANK_SHEETS)
def test_blank_sheet_refuses_a_json_client_in_the_apis_error_shape(client, url, reason):
    error = error_of(client.get(url, headers={"Accept": "application/json"}), 400)
    field = "seats" if "seats=" in url else "players"
    assert error["fields"] == {field: error["message"]} and reason in error["message"]


def test_empty_players_means_a_sheet_without_names(client):
    assert client.get("/sheets/barbu.pdf?players=").status_code == 200
    assert client.get("/sheets/barbu.pdf?players=,,,").status_code == 200


def test_match_page_links_to_the_print_view_and_the_pdf(client):
    match = create_match(client)
    page = client.get(f"/m/{match['id']}").text
    assert f'href="/m/{match["id"]}/sheet"' in page
    assert f'href="/api/v1/matches/{match["id"]}/sheet.pdf"' in page


def test_home_links_a_blank_sheet_of_every_game(client):
    page = client.get("/").text
    for game in ("barbu", "kozyol", "hearts"):
        assert f'href="/sheets/{game}.pdf"' in page and f'href="/sheets/{game}"' in page
