"""Schemathesis against the app itself: every operation of /api/v1/openapi.json, generated requests.

Each answer must be no server error and exactly what the document says: a documented status, a
documented content type and a body that fits the documented schema; a write that succeeds with
the real key must fail without it. Generated ids alone would only ever meet 404s, so about half
the generated requests aim at real matches (one per game, with hands already played), often
with their edit key and a legal entry; the rest keep what was generated. The documented
examples and Schemathesis' coverage cases (wrong methods, missing parameters) run too.

The number of requests sent per operation is printed (``pytest -s`` or ``-rP`` shows it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings, strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core import NOT_SET
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from helpers.api import bearer
from helpers.matches import PLAYERS
from scorekeeper.web.api.openapi import document

SIX = [*PLAYERS, "Eve", "Fay"]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance, ignored_auth, unsupported_method]
GAMES = {  # options and players of each real match
    "barbu": ({"first_declarer": "Ann", "enforce_declarer_doubles": False}, PLAYERS),
    "kozyol": ({"eggs_double_next": True}, PLAYERS),
    "hearts": ({}, SIX),
}
LEGAL = {  # hand n of each game: legal in this order (hands 1 and 2 are played before the requests)
    "barbu": [
        {"contract": "barbu", "king_of_hearts": "Bob", "doubles": [{"by": "Bob", "target": "Ann"}]},
        {"contract": "no_last_two", "second_last": "Cid", "last": "Dee"},
        {"contract": "no_tricks", "tricks": {"Ann": 4, "Bob": 3, "Cid": 5, "Dee": 1}},
        {"contract": "trumps", "tricks": {"Ann": 6, "Bob": 3, "Cid": 1, "Dee": 3}, "trump_suit": "spades"},
        {"contract": "dominoes", "order": ["Bob", "Ann", "Dee", "Cid"], "start_rank": "J"},
        {"contract": "no_queens", "queens": {"Ann": 1, "Bob": 0, "Cid": 1, "Dee": 2}},
        {"contract": "no_hearts", "hearts": {"Ann": 4, "Bob": 5, "Cid": 2, "Dee": 2}, "ace_of_hearts": "Ann"},
    ],
    "kozyol": [{"points": [60, 60], "tricks": [4, 5]}, {"points": [75, 45], "trump_suit": "clubs", "last_trick": "Bob"},
               {"points": [0, 120], "tricks": [0, 9]}, {"points": [90, 30]}] * 2,
    "hearts": [{"hearts": dict(zip(SIX, [5, 4, 3, 6, 8, 0])), "black_marias": dict(zip(SIX, [1, 0, 0, 0, 1, 0]))},
               {"hearts": dict(zip(SIX, [26, 0, 0, 0, 0, 0])), "black_marias": dict(zip(SIX, [2, 0, 0, 0, 0, 0])),
                "moon": "subtract"}] * 4,
}
PLAYED = 2


@pytest.fixture
def statuses(request) -> Iterator[Counter[int]]:
    """The statuses one operation answered, printed at the end."""
    seen: Counter[int] = Counter()
    yield seen
    print(f"\n{request.node.name}: {sum(seen.values())} requests, statuses {dict(sorted(seen.items()))}")


# The real matches and the real club of the running test, for the case hook below.
TABLES: list[dict[str, Any]] = []
CLUBS: list[dict[str, Any]] = []


@pytest.fixture
def tables(app: Flask) -> Iterator[list[dict[str, Any]]]:
    """One real match per game: game, id, edit key and hands played (kept up to date by the test)."""
    client = app.test_client()
    for game, (options, players) in GAMES.items():
        created = client.post("/api/v1/matches", json={"game": game, "players": players, "options": options})
        assert created.status_code == 201, created.get_json()
        table = {"game": game, "id": created.get_json()["id"], "key": created.get_json()["edit_key"], "hands": PLAYED}
        for hand in LEGAL[game][:PLAYED]:
            assert client.post(f"/api/v1/matches/{table['id']}/hands", json=hand,
                               headers=bearer(table["key"])).status_code == 201
        TABLES.append(table)
    club = client.post("/api/v1/clubs", json={"name": "Sunday table"}).get_json()
    for game, (_options, players) in GAMES.items():  # a match of the club too: its roster and results
        started = client.post(f"/api/v1/clubs/{club['id']}/matches", json={"game": game, "players": players})
        assert started.status_code == 201, started.get_json()
    CLUBS.append({"id": club["id"], "key": club["admin_key"], "players": [p["id"] for p in
                                                                         client.get(f"/api/v1/clubs/{club['id']}")
                                                                         .get_json()["players"]]})
    yield TABLES
    TABLES.clear()
    CLUBS.clear()


# The document is built from code alone, so it is loaded once here; the app (a fresh database per
# operation) is handed to each call. test_the_fuzzed_document_is_the_served_one keeps them the same.
schema = schemathesis.openapi.from_dict(document())


def test_the_fuzzed_document_is_the_served_one(client):
    assert client.get("/api/v1/openapi.json").get_json() == document()


AIM = st.fixed_dictionaries({
    "table": st.integers(0, len(GAMES) - 1), "hand": st.booleans(), "key": st.booleans(), "legal": st.booleans(),
})


@schema.hook
def flatmap_case(context, case):
    """About half the cases aim at a real match (its id, maybe a hand it has, its key, a legal entry) or club."""
    if "club_id" in case.path_parameters:
        return st.one_of(st.just(case), AIM.map(lambda aim: aimed_at_club(case, **aim)))
    if "public_id" not in case.path_parameters:
        return st.just(case)
    return st.one_of(st.just(case), AIM.map(lambda aim: aimed(case, **aim)))


def aimed_at_club(case, table: int, hand: bool, key: bool, legal: bool):  # noqa: ARG001
    """The real club's id, maybe one of its players, maybe its admin key."""
    if not CLUBS:
        return case
    club = CLUBS[0]
    case.path_parameters["club_id"] = club["id"]
    if hand and "player_id" in case.path_parameters:
        case.path_parameters["player_id"] = club["players"][table % len(club["players"])]
    if key:
        case.headers = {**(case.headers or {}), "X-Real-Key": club["key"]}
    return case


def aimed(case, table: int, hand: bool, key: bool, legal: bool):
    if not TABLES:  # examples are built before the test's fixtures; they keep their generated id
        return case
    match = TABLES[table]
    case.path_parameters["public_id"] = match["id"]
    if hand and "number" in case.path_parameters:
        case.path_parameters["number"] = max(match["hands"], 1)
    if key:  # sent by the test as an explicit header: a key Schemathesis knows to be real
        case.headers = {**(case.headers or {}), "X-Real-Key": match["key"]}
    if legal and case.body is not NOT_SET:
        # Generated entries nearly always break a rule: send one the rules allow for that hand.
        number = case.path_parameters.get("number", match["hands"] + 1)
        if isinstance(number, int) and 1 <= number <= len(LEGAL[match["game"]]):
            case.body = LEGAL[match["game"]][number - 1]
    return case


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True, print_blob=True,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, app, tables, statuses):
    case.operation.schema.app = app  # this test's app and database, also for the probes of ignored_auth
    key = (case.headers or {}).pop("X-Real-Key", None)
    # The calls go straight to the WSGI app, which compresses for a client that accepts it (web/compression.py)
    # and nothing here would unpack it: this test reads the answers as they are (test_compression.py packs them).
    headers = {"Accept-Encoding": "identity"} | ({} if key is None else {"Authorization": f"Bearer {key}"})
    response = case.call_and_validate(headers=headers, checks=CHECKS, app=app)
    statuses[response.status_code] += 1
    if key and response.status_code < 300 and "club_id" in case.path_parameters:  # keep up with the club's key
        if case.path.endswith("/key"):
            CLUBS[0]["key"] = response.json()["admin_key"]
        return
    if key and response.status_code < 300:  # keep up with the match: its key and its hands
        match = next(table for table in tables if table["id"] == case.path_parameters["public_id"])
        if case.path.endswith("/key"):
            match["key"] = response.json()["edit_key"]
        elif case.method != "GET":
            match["hands"] = len(response.json()["hands"])
