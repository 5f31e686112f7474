"""A client that asks for JSON gets the API's error shape from every page, a browser the page.

Pages answer their own refusals (a blank sheet's names, an unknown club or game, a phone without
the admin key); a script that sent `Accept: application/json` reads them as it reads the API's.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from helpers.api import create_match, error_of

JSON = {"Accept": "application/json"}
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
LIKES_HTML_BETTER = {"Accept": "application/json;q=0.5, text/html"}

Address = Callable[[FlaskClient], str]
# name: (the address, given a client that made a match and a club, and the status it answers)
REFUSED: dict[str, tuple[Address, int]] = {
    "blank sheet, bad names": (lambda client: "/sheets/barbu.pdf?players=Ann,Ann,Cid,Dee", 400),
    "blank sheet, too few names": (lambda client: "/sheets/hearts.pdf?players=Ann,Bob", 400),
    "blank sheet, too many seats": (lambda client: "/sheets/hearts.pdf?seats=99", 400),
    "blank sheet, seats below one": (lambda client: "/sheets/hearts.pdf?seats=-1", 400),
    "blank print view, bad seats": (lambda client: "/sheets/hearts?seats=abc", 400),
    "blank sheet, unknown game": (lambda client: "/sheets/chess.pdf", 404),
    "match sheet, unknown match": (lambda client: "/m/no-such-match/sheet", 404),
    "rules, unknown game": (lambda client: "/rules/chess", 404),
    "club, unknown club": (lambda client: "/c/no-such-club", 404),
    "club standings, unknown club": (lambda client: "/c/no-such-club/standings.pdf", 404),
    "club admin, no admin key": (lambda client: f"/c/{new_club(client)}/admin", 403),
    "match, stale edit link": (lambda client: f"/m/{create_match(client)['id']}/join?key=wrong", 403),
}


def new_club(client: FlaskClient) -> str:
    return client.post("/api/v1/clubs", json={"name": "Sunday table"}).get_json()["id"]


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_json_client_gets_the_apis_error_shape(client: FlaskClient, name: str):
    address, status = REFUSED[name]
    error = error_of(client.get(address(client), headers=JSON), status)
    assert "<" not in error["message"], name


@pytest.mark.parametrize("accept", [BROWSER, LIKES_HTML_BETTER, {}], ids=["browser", "json-second", "none"])
@pytest.mark.parametrize("name", list(REFUSED))
def test_a_browser_gets_the_page(client: FlaskClient, name: str, accept: dict[str, str]):
    address, status = REFUSED[name]
    answer = client.get(address(client), headers=accept)
    assert answer.status_code == status and answer.mimetype == "text/html", name


def test_a_json_client_reads_the_reason_in_its_language(client: FlaskClient):
    answer = client.get("/sheets/hearts.pdf?seats=99", headers={**JSON, "Accept-Language": "fr"})
    assert error_of(answer, 400)["fields"] == {"seats": "Ce jeu se joue de 6 à 11 joueurs."}
