"""The OpenAPI document at /api/v1/openapi.json: valid, complete, and true of real answers."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from helpers.api import bearer, create_match
from helpers.matches import PLAYERS
from helpers.openapi import check_answer
from scorekeeper.games import GAMES, barbu, hearts, kozyol
from scorekeeper.games.base import NAME_MAX, SUITS
from scorekeeper.i18n import LANGUAGES
from scorekeeper.names import NAME_CODE_POINTS

SIX = [*PLAYERS, "Eve", "Fay"]
METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH"}  # Flask adds HEAD and OPTIONS on its own


def openapi_path(rule: str) -> str:
    """A Flask rule in OpenAPI's spelling: /hands/<int:number> -> /hands/{number}."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


# -- the document itself ---------------------------------------------------------------------


def test_document_is_valid_openapi_3_1(document):
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_every_api_route_is_documented_with_its_methods(app: Flask, document):
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1"):
            routes.setdefault(openapi_path(rule.rule), set()).update(rule.methods & METHODS)
    assert routes, "the API has routes"
    documented = {path: {method.upper() for method in item if method.upper() in METHODS}
                  for path, item in document["paths"].items()}
    assert documented == routes


def test_writes_need_the_edit_key_and_reads_do_not(document):
    scheme = document["components"]["securitySchemes"]["editKey"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    for path, item in document["paths"].items():
        if path.startswith("/api/v1/clubs"):
            continue  # the club's own key: below
        for method, operation in item.items():
            keyed = operation.get("security") == [{"editKey": []}]
            write = method in ("put", "delete") or (method == "post" and path.endswith(
                ("/hands", "/key", "/agreements", "/confirmation")))
            assert keyed == write, (method, path)
            if write:
                assert {"401", "403", "404"} <= set(operation["responses"]), (method, path)


# Club writes that need no admin key: making a club, and starting a match from the club link.
OPEN_CLUB_WRITES = {("post", "/api/v1/clubs"), ("post", "/api/v1/clubs/{club_id}/matches"), ("post", "/api/v1/club-imports"),
                    ("post", "/api/v1/clubs/{club_id}/planned-evenings/{evening_id}/answers")}
# Club reads that need the admin key: what they print carries the tables' edit links.
ADMIN_READS = {("get", "/api/v1/clubs/{club_id}/evenings/{evening_id}/cards.pdf"),
               ("get", "/api/v1/clubs/{club_id}/export")}  # the whole club, its keys' hashes when asked


def test_club_changes_need_the_admin_key_and_the_rest_do_not(document):
    scheme = document["components"]["securitySchemes"]["adminKey"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    clubs = [(method, path, operation) for path, item in document["paths"].items()
             if path.startswith("/api/v1/clubs") for method, operation in item.items()]
    assert len(clubs) >= 15
    for method, path, operation in clubs:
        write = (method != "get" and (method, path) not in OPEN_CLUB_WRITES) or (method, path) in ADMIN_READS
        assert (operation.get("security") == [{"adminKey": []}]) == write, (method, path)
        if write:
            assert {"401", "403", "404"} <= set(operation["responses"]), (method, path)
    for name in ("NoAdminKey", "WrongAdminKey"):  # not the match's words, which speak of the edit key
        assert "admin key" in document["components"]["responses"][name]["description"]


def test_every_error_answer_has_the_error_shape(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if int(status) >= 400:  # a shared answer; a club's 401 and 403 have their own words
                    own = {"401": "NoAdminKey", "403": "WrongAdminKey"}.get(status) \
                        if operation.get("security") == [{"adminKey": []}] else None
                    assert response == {"$ref": f"#/components/responses/{own or status}"}, (method, path, status)
                    shared = document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
                    assert shared["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    error = document["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    assert error["properties"]["error"]["required"] == ["message", "fields"]


def test_limits_and_choices_are_the_engines_own(document):
    schemas = document["components"]["schemas"]
    # JSON Schema's maxLength counts code points: the bound against abuse; the letters are counted as the words say.
    assert schemas["PlayerName"]["maxLength"] == NAME_CODE_POINTS
    assert f"At most {NAME_MAX} letters or signs" in schemas["PlayerName"]["description"]
    assert "grapheme clusters" in schemas["PlayerName"]["description"]
    assert [one["$ref"].rsplit("_", 1)[1] for one in schemas["BarbuEntry"]["oneOf"]] == [
        "".join(part.title() for part in contract.split("_")) for contract in barbu.CONTRACTS]
    assert schemas["BarbuEntry_Trumps"]["properties"]["trump_suit"]["enum"] == list(SUITS)
    assert schemas["BarbuHand"]["properties"]["contract"]["enum"] == list(barbu.CONTRACTS)
    target = schemas["KozyolOptions"]["properties"]["target"]
    assert (target["minimum"], target["maximum"]) == kozyol.TARGET_RANGE
    assert schemas["HeartsOptions"]["properties"]["moon_points"]["enum"] == list(hearts.MOON_POINTS)
    assert schemas["HeartsOptions"]["properties"]["target"]["maximum"] == hearts.TARGET_MAX
    for slug, game in GAMES.items():
        players = schemas[f"{slug.title()}Match"]["properties"]["players"]
        assert (players["minItems"], players["maxItems"]) == (game.min_players, game.max_players)
    assert schemas["HeartsNewMatch"]["properties"]["language"]["enum"] == [*LANGUAGES, None]


def integers(schema: object, where: str = "") -> list[tuple[str, dict]]:
    """Every integer schema inside a schema, with where it sits."""
    found = []
    if isinstance(schema, dict):
        if schema.get("type") == "integer":
            found.append((where, schema))
        for key, value in schema.items():
            found += integers(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            found += integers(value, f"{where}/{index}")
    return found


def test_every_number_a_match_takes_has_a_documented_range(document):
    """Options, entries, a hand's number and a backup: each number has its minimum and maximum."""
    schemas = document["components"]["schemas"]
    taken = [name for name in schemas if name.endswith(("Options", "Export", "NewHand", "BarbuDouble"))
             or "Entry" in name]
    assert {"BarbuOptions", "KozyolEntry", "HeartsEntry", "NewHand", "KozyolExport"} <= set(taken)
    unbounded = [f"{name}{where}" for name in taken for where, schema in integers(schemas[name])
                 if "minimum" not in schema or "maximum" not in schema]
    assert unbounded == []


def test_the_ranges_and_limits_are_the_engines_own(document):
    schemas = document["components"]["schemas"]
    domino = schemas["BarbuOptions"]["properties"]["domino_scores"]["items"]
    assert (domino["minimum"], domino["maximum"]) == barbu.DOMINO_SCORE_RANGE == (-130, 130)
    target = schemas["HeartsOptions"]["properties"]["target"]
    assert (target["minimum"], target["maximum"]) == (hearts.TARGET_MIN, hearts.TARGET_MAX) == (26, 1000)
    for slug, title in (("barbu", "Barbu"), ("kozyol", "Kozyol"), ("hearts", "Hearts")):
        assert schemas[f"{title}Export"]["properties"]["hands"]["maxItems"] == GAMES[slug].max_hands
        assert schemas[f"{title}Match"]["properties"]["max_hands"] == {
            "const": GAMES[slug].max_hands, "description": schemas[f"{title}Match"]["properties"]["max_hands"][
                "description"]}
        assert "max_hands" in schemas[f"{title}Match"]["required"]
    assert [GAMES[slug].max_hands for slug in ("barbu", "kozyol", "hearts")] == [28, 200, 400]


def test_the_document_needs_no_database(app: Flask):
    app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:////nonexistent/folder/none.sqlite"
    with app.app_context():
        from scorekeeper.db import db

        db.engine.dispose()
    # The document is built from code alone: it answers even when the database cannot be opened.
    assert app.test_client().get("/api/v1/openapi.json").status_code == 200


# -- real answers fit their documented schemas -----------------------------------------------

MATCH = "/api/v1/matches/{public_id}"
OPTIONS = {"barbu": {"first_declarer": "Ann"}, "kozyol": {"eggs_double_next": True}, "hearts": {"moon_points": 52}}
FIRST = {
    "barbu": {"contract": "no_hearts", "hearts": {"Ann": 4, "Bob": 5, "Cid": 2, "Dee": 2}, "ace_of_hearts": "Ann",
              "doubles": [{"by": "Bob", "target": "Cid", "redoubled": True}]},
    "kozyol": {"points": [0, 120], "tricks": [0, 9], "trump_suit": "clubs", "last_trick": "Bob"},
    "hearts": {"hearts": dict(zip(SIX, [26, 0, 0, 0, 0, 0])), "black_marias": dict(zip(SIX, [2, 0, 0, 0, 0, 0])),
               "moon": "add"},
}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_match_answers_as_documented(client: FlaskClient, document, game):
    players = SIX if game == "hearts" else PLAYERS
    created = client.post("/api/v1/matches", json={"game": game, "players": players, "language": "fr",
                                                        "options": OPTIONS[game]})
    check_answer(document, "/api/v1/matches", "POST", created)
    match = created.get_json()
    key, url = match["edit_key"], f"/api/v1/matches/{match['id']}"

    recorded = client.post(f"{url}/hands", json={**FIRST[game], "number": 1}, headers=bearer(key))
    check_answer(document, f"{MATCH}/hands", "POST", recorded)
    assert recorded.status_code == 201

    read = client.get(url)
    check_answer(document, MATCH, "GET", read)
    unchanged = client.get(url, headers={"If-None-Match": read.headers["ETag"]})
    assert unchanged.status_code == 304
    check_answer(document, MATCH, "GET", unchanged)

    refused = client.post(f"{url}/hands", json={"contract": "chess", "points": [1], "hearts": 3},
                          headers=bearer(key))
    assert refused.status_code == 422
    check_answer(document, f"{MATCH}/hands", "POST", refused)
    check_answer(document, f"{MATCH}/hands", "POST", client.post(f"{url}/hands", json=FIRST[game], headers=bearer("x")))
    check_answer(document, f"{MATCH}/hands", "POST", client.post(f"{url}/hands", json=FIRST[game]))
    check_answer(document, f"{MATCH}/hands", "POST",
                 client.post(f"{url}/hands", json={**FIRST[game], "number": 5}, headers=bearer(key)))

    check_answer(document, f"{MATCH}/hands/{{number}}", "PUT",
                 client.put(f"{url}/hands/1", json=FIRST[game], headers=bearer(key)))
    history = client.get(f"{url}/history")
    assert len(history.get_json()["changes"]) == 2
    check_answer(document, f"{MATCH}/history", "GET", history)
    exported = client.get(f"{url}/export")
    check_answer(document, f"{MATCH}/export", "GET", exported)
    imported = client.post("/api/v1/matches/import", json=exported.get_json())
    check_answer(document, "/api/v1/matches/import", "POST", imported)
    assert imported.status_code == 201
    check_answer(document, f"{MATCH}/hands/{{number}}", "DELETE", client.delete(f"{url}/hands/1", headers=bearer(key)))
    check_answer(document, f"{MATCH}/key", "POST", client.post(f"{url}/key", headers=bearer(key)))
    check_answer(document, MATCH, "GET", client.get("/api/v1/matches/no-such-match"))
    check_answer(document, "/api/v1/matches", "POST", client.post("/api/v1/matches", data=b"[1]",
                                                                   content_type="application/json"))


def test_a_finished_kozyol_series_answers_as_documented(client: FlaskClient, document):
    match = create_match(client, "kozyol", options={"target": 2})
    answer = client.post(f"/api/v1/matches/{match['id']}/hands", json={"points": [100, 20]},
                         headers=bearer(match["edit_key"]))
    check_answer(document, f"{MATCH}/hands", "POST", answer)
    state = answer.get_json()
    assert state["finished"] and state["goat"] == 1 and state["next"] is None


def test_the_sheet_is_documented_as_pdf(client: FlaskClient, document):
    match = create_match(client)
    sheet = client.get(f"/api/v1/matches/{match['id']}/sheet.pdf")
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"
    assert "application/pdf" in document["paths"][f"{MATCH}/sheet.pdf"]["get"]["responses"]["200"]["content"]
    check_answer(document, f"{MATCH}/sheet.pdf", "GET", client.get("/api/v1/matches/none/sheet.pdf"))
