"""Bad input, at random: JSON at every API endpoint and form posts at every form, never a 500.

Each test builds its own client inside the test and runs a Hypothesis search against it; the
number of examples each one ran is printed (``pytest -s`` or ``-rP`` shows it).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from io import BytesIO
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers.api import bearer, create_match
from helpers.forms import TOKEN
from helpers.matches import PLAYERS
from scorekeeper.games import barbu

SIX = [*PLAYERS, "Eve", "Fay"]
GAME_PLAYERS = {"barbu": PLAYERS, "kozyol": PLAYERS, "hearts": SIX}
FIRST_HANDS = {
    "barbu": {"contract": "barbu", "king_of_hearts": "Bob"},
    "kozyol": {"points": [75, 45]},
    "hearts": {"hearts": dict(zip(SIX, [5, 4, 3, 6, 8, 0])), "black_marias": dict(zip(SIX, [1, 0, 0, 0, 1, 0]))},
}
VALID_ENTRIES = [
    *FIRST_HANDS.values(),
    {"contract": "no_tricks", "tricks": {"Ann": 4, "Bob": 3, "Cid": 5, "Dee": 1},
     "doubles": [{"by": "Bob", "target": "Ann", "redoubled": True}]},
    {"contract": "dominoes", "order": ["Bob", "Ann", "Dee", "Cid"], "start_rank": "J"},
    {"points": [0, 120], "tricks": [0, 9], "trump_suit": "clubs", "last_trick": "Bob"},
    {"hearts": dict(zip(SIX, [26, 0, 0, 0, 0, 0])), "black_marias": dict(zip(SIX, [2, 0, 0, 0, 0, 0])),
     "moon": "add"},
]
VALID_MATCHES = [
    {"game": "barbu", "players": PLAYERS, "options": {"first_declarer": "Cid", "domino_scores": [40, 25, 10, -10]}},
    {"game": "kozyol", "players": PLAYERS, "options": {"target": 12, "eggs_double_next": True}},
    {"game": "hearts", "players": SIX, "options": {"target": 100, "moon_points": 52, "first_dealer": "Eve"}},
]
VALID_DOCUMENTS = [
    {"format": "scorekeeper-match", "format_version": 1, "game": game, "players": GAME_PLAYERS[game],
     "options": {"first_declarer": "Ann"} if game == "barbu" else {}, "hands": [FIRST_HANDS[game]]}
    for game in GAME_PLAYERS
]
FUZZ = settings(max_examples=40, deadline=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])

# Status codes the API documents for each endpoint (/api/v1/openapi.json).
API_STATUSES = {
    "create": {201, 400, 415, 422},
    "record": {201, 400, 401, 403, 404, 409, 415, 422},
    "correct": {200, 400, 401, 403, 404, 409, 415, 422},
    "undo": {200, 401, 403, 404, 409},
    "import": {201, 400, 415, 422},
    "key": {200, 401, 403, 404},
}
API_EXAMPLES = {"create": 100, "record": 80, "correct": 60, "undo": 50, "import": 80, "key": 40}


# -- random JSON ----------------------------------------------------------------------------

FIELD_NAMES = [
    "game", "players", "options", "number", "contract", "doubles", "by", "target", "redoubled", "tricks",
    "queens", "hearts", "ace_of_hearts", "second_last", "last", "king_of_hearts", "order", "trump_suit",
    "start_rank", "points", "cards", "last_trick", "black_marias", "moon", "format", "format_version", "hands",
    "first_declarer", "domino_scores", "enforce_declarer_doubles", "moon_points", "first_dealer",
    "eggs_double_next", "six_for_zero_points", "A", "10", "K", "Q", "J", *SIX,
]
REAL_VALUES = [
    "barbu", "kozyol", "hearts", *barbu.CONTRACTS, *SIX, " Ann ", "spades", "J", "subtract", "add",
    "scorekeeper-match", 0, 1, 2, 3, 4, 5, 13, 26, 45, 75, 120, 150, -1, True, False,
]
TEXT = st.text(max_size=20) | st.sampled_from(["", "\x00", "Ann\x00", "\u202e", "😀", "<script>", "' OR 1=1 --"])
INTEGERS = st.integers(-3, 30) | st.integers(-(2 ** 70), 2 ** 70) | st.sampled_from([10 ** 400, -(10 ** 400)])
LEAVES = (st.none() | st.booleans() | INTEGERS | st.floats(allow_nan=True, allow_infinity=True) | TEXT
          | st.sampled_from(REAL_VALUES))
KEYS = st.sampled_from(FIELD_NAMES) | st.text(max_size=10)
JSON = st.recursive(
    LEAVES,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(KEYS, children, max_size=8),
    max_leaves=20,
)
PLAYER_MAP = st.dictionaries(st.sampled_from(SIX) | st.text(max_size=5), INTEGERS | LEAVES, max_size=7)
ENTRY = st.fixed_dictionaries({}, optional={
    "number": INTEGERS | LEAVES,
    "contract": st.sampled_from(barbu.CONTRACTS) | JSON,
    "doubles": st.lists(st.fixed_dictionaries(
        {"by": st.sampled_from(SIX) | JSON, "target": st.sampled_from(SIX) | JSON},
        optional={"redoubled": st.booleans() | JSON}), max_size=4) | JSON,
    "tricks": PLAYER_MAP | st.lists(INTEGERS, max_size=3) | JSON,
    "queens": PLAYER_MAP | JSON,
    "hearts": PLAYER_MAP | JSON,
    "black_marias": PLAYER_MAP | JSON,
    "ace_of_hearts": st.sampled_from(SIX) | JSON,
    "second_last": st.sampled_from(SIX) | JSON,
    "last": st.sampled_from(SIX) | JSON,
    "king_of_hearts": st.sampled_from(SIX) | JSON,
    "order": st.lists(st.sampled_from(SIX), max_size=5) | JSON,
    "points": st.lists(INTEGERS, max_size=3) | JSON,
    "cards": st.lists(st.none() | st.dictionaries(st.sampled_from(["A", "10", "K", "Q", "J", "9"]), INTEGERS,
                                                   max_size=6), max_size=3) | JSON,
    "last_trick": st.sampled_from(SIX) | JSON,
    "trump_suit": st.sampled_from(["spades", "hearts", "bells"]) | JSON,
    "moon": st.sampled_from(["subtract", "add"]) | JSON,
    "start_rank": LEAVES,
})
OPTIONS = st.fixed_dictionaries({}, optional={
    "first_declarer": st.sampled_from(SIX) | JSON, "first_dealer": st.sampled_from(SIX) | JSON,
    "target": INTEGERS | JSON, "moon_points": st.sampled_from([26, 52]) | JSON,
    "domino_scores": st.lists(INTEGERS, max_size=5) | JSON, "enforce_declarer_doubles": st.booleans() | JSON,
    "eggs_double_next": st.booleans() | JSON, "six_for_zero_points": st.booleans() | JSON,
})
NEW_MATCH = st.fixed_dictionaries({}, optional={
    "game": st.sampled_from(["barbu", "kozyol", "hearts", "chess"]) | JSON,
    "players": st.lists(st.sampled_from(SIX) | TEXT, max_size=12) | JSON,
    "options": OPTIONS | JSON,
})
DOCUMENT = st.fixed_dictionaries({}, optional={
    "format": st.just("scorekeeper-match") | JSON, "format_version": st.just(1) | JSON,
    "game": st.sampled_from(["barbu", "kozyol", "hearts"]) | JSON,
    "players": st.sampled_from([PLAYERS, SIX]) | JSON,
    "options": OPTIONS | JSON,
    "hands": st.lists(ENTRY | st.sampled_from(list(FIRST_HANDS.values())), max_size=3) | JSON,
})


class Raw(bytes):
    """A raw request body that prints short when Hypothesis reports an example."""

    def __repr__(self) -> str:
        return f"Raw({bytes(self[:40])!r}... {len(self)} bytes)" if len(self) > 40 else f"Raw({bytes(self)!r})"


RAW_BODIES = st.sampled_from([
    b"", b"null", b"[]", b"{", b"{}", b'"text"', b"NaN", b"1e999999", b"\xff\xfe\x00", b"[" * 100_000,
    b'{"a":' * 5_000 + b"1" + b"}" * 5_000, b"1" * 5_000, b'{"game": "barbu", "players": ["\\ud800", "B", "C", "D"]}',
    b'{"contract": "barbu", "king_of_hearts": "Bob", "note": "\\udfff\\u0000"}', b"\x00" * 64,
    b'{"game": "hearts", "players": ["A\\u0000", "B", "C", "D", "E", "F"]}',
]).map(Raw) | st.binary(max_size=200).map(Raw)

HEADER_NAMES = st.sampled_from(["Authorization", "Content-Type", "If-None-Match", "Accept", "Accept-Language",
                                "Cookie", "X-Forwarded-For", "Origin", "Referer", "X-Requested-With"])
HEADER_VALUES = st.text(st.characters(min_codepoint=32, max_codepoint=255, exclude_characters="\x7f"), max_size=40) \
    | st.sampled_from(["Bearer", "Bearer ", "bearer x", "Basic YTpi", "application/json", "text/plain",
                       "multipart/form-data; boundary=x", "*", "W/\"x\"", "xx;q=2"])
HEADERS = st.dictionaries(HEADER_NAMES | st.from_regex(r"X-[A-Za-z]{1,10}", fullmatch=True), HEADER_VALUES,
                          max_size=3)


DROP = object()  # a change that removes the field


def near(valid: list[dict[str, Any]]) -> st.SearchStrategy:
    """A valid body with a field or two changed, added or dropped (and sometimes none)."""
    fields = sorted({name for body in valid for name in body}) + FIELD_NAMES

    def apply(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
        changed = {**base, **changes}
        return {name: value for name, value in changed.items() if value is not DROP}

    changes = st.dictionaries(st.sampled_from(fields), JSON | st.just(DROP), max_size=2)
    return st.builds(apply, st.sampled_from(valid), changes)


def request_body(values: st.SearchStrategy, valid: list[dict[str, Any]]) -> st.SearchStrategy:
    """A JSON body (the endpoint's shape, nearly valid, or any value) or raw bytes."""
    return st.one_of(
        st.tuples(st.just("json"), values),
        st.tuples(st.just("json"), near(valid)),
        st.tuples(st.just("json"), JSON),
        st.tuples(st.just("raw"), RAW_BODIES),
    )


# -- checking answers ------------------------------------------------------------------------


def check_api(answer, allowed: set[int], where: str) -> None:
    assert answer.status_code != 500, (where, answer.get_data(as_text=True))
    assert answer.status_code in allowed, (where, answer.status_code, answer.get_data(as_text=True))
    assert answer.mimetype == "application/json", where
    body = answer.get_json()
    if answer.status_code >= 400:
        assert set(body) == {"error"}, where
        assert isinstance(body["error"]["message"], str) and body["error"]["message"].strip(), where
        fields = body["error"]["fields"]
        assert isinstance(fields, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items())
    else:
        assert "error" not in body


def check_form(answer, where: str) -> None:
    """Accepted (a redirect) or the form again with the reason: never a crash."""
    assert answer.status_code != 500, where
    assert answer.status_code in (200, 302, 422), (where, answer.status_code)
    if answer.status_code == 422:
        assert answer.mimetype == "text/html"
        # The reason is a refusal, or Save's question about the Hearts rows nobody touched ("Fay: no hearts?").
        asked = re.search(r'id="err-empty"[^>]*>[^<]+</p>', answer.text)
        assert 'class="error' in answer.text or asked, (where, "the form came back without a reason")


# -- the clients ---------------------------------------------------------------------------


def send_api(client: FlaskClient, method: str, url: str, body: tuple[str, Any], headers: dict[str, str]):
    kind, value = body
    if kind == "json":
        data = json.dumps(value)
    else:
        data = value
    return client.open(url, method=method, data=data, headers={"Content-Type": "application/json", **headers})


def key_headers(choice: str, key: str, extra: dict[str, str]) -> dict[str, str]:
    chosen = {"valid": bearer(key), "wrong": bearer(key[:-1] + ("A" if key[-1] != "A" else "B")), "none": {},
              "random": {}}[choice]
    return {**extra, **chosen} if choice != "random" else extra


def match_with_hand(client: FlaskClient, game: str) -> dict[str, Any]:
    made = create_match(client, game, GAME_PLAYERS[game], {"first_declarer": "Ann"} if game == "barbu" else None)
    answer = client.post(f"/api/v1/matches/{made['id']}/hands", json=FIRST_HANDS[game], headers=bearer(made["edit_key"]))
    assert answer.status_code == 201
    return made


def report(name: str, seen: Counter[int], minimum: int, varied: bool = True) -> None:
    """Print how many examples ran and the answers they got; a search that never varies proves little."""
    print(f"\nfuzz {name}: {sum(seen.values())} examples, answers {dict(sorted(seen.items()))}")
    assert sum(seen.values()) >= minimum
    assert len(seen) >= 2 or not varied


# -- the API ---------------------------------------------------------------------------------


def test_random_json_creating_a_match(client):
    seen: Counter[int] = Counter()

    @settings(FUZZ, max_examples=API_EXAMPLES["create"])
    @given(body=request_body(NEW_MATCH, VALID_MATCHES), headers=HEADERS)
    def run(body, headers):
        answer = send_api(client, "POST", "/api/v1/matches", body, headers)
        seen[answer.status_code] += 1
        check_api(answer, API_STATUSES["create"], "create")
        if answer.status_code == 201:
            assert answer.get_json()["edit_key"]

    run()
    report("POST /api/v1/matches", seen, 50)


class Pool:
    """One match per game, reused from example to example and replaced only when a write used it up."""

    def __init__(self, client: FlaskClient, with_hand: bool = True):
        self.client, self.with_hand = client, with_hand
        self.made: dict[str, dict[str, Any]] = {}

    def match(self, game: str) -> dict[str, Any]:
        """The game's match (with one hand when with_hand), made or topped up when needed."""
        made = self.made.get(game)
        if made is None:
            made = self.made[game] = match_with_hand(self.client, game) if self.with_hand else create_match(
                self.client, game, GAME_PLAYERS[game], {"first_declarer": "Ann"} if game == "barbu" else None)
        elif self.with_hand and not self.state(made)["hands"]:  # the hand was undone: enter it again
            answer = self.client.post(f"/api/v1/matches/{made['id']}/hands", json=FIRST_HANDS[game],
                                      headers=bearer(made["edit_key"]))
            assert answer.status_code == 201
        return made

    def spent(self, game: str) -> None:
        self.made.pop(game, None)

    def state(self, made: dict[str, Any]) -> dict[str, Any]:
        answer = self.client.get(f"/api/v1/matches/{made['id']}")
        assert answer.status_code == 200
        return answer.get_json()


@pytest.mark.parametrize("endpoint", ["record", "correct", "undo", "key"])
def test_random_json_at_the_endpoints_of_a_match(client, endpoint):
    seen: Counter[int] = Counter()
    pool = Pool(client)
    games = st.sampled_from(list(GAME_PLAYERS))
    which = st.sampled_from(["real", "real", "real", "unknown", "random"])

    @settings(FUZZ, max_examples=API_EXAMPLES[endpoint])
    @given(game=games, body=request_body(ENTRY, VALID_ENTRIES), key=st.sampled_from(["valid", "valid", "wrong", "none", "random"]),
           headers=HEADERS, match_id=which, number=st.sampled_from([1, 1, 2, 0, 99, 2 ** 64]),
           other=st.text(st.characters(min_codepoint=33, max_codepoint=0x2FFF, exclude_characters="/?#%"),
                         min_size=1, max_size=20))
    def run(game, body, key, headers, match_id, number, other):
        made = pool.match(game)
        before = pool.state(made)
        pid = {"real": made["id"], "unknown": "A" * 22, "random": other}[match_id]
        base = f"/api/v1/matches/{pid}"
        method, url = {"record": ("POST", f"{base}/hands"), "correct": ("PUT", f"{base}/hands/{number}"),
                       "undo": ("DELETE", f"{base}/hands/{number}"), "key": ("POST", f"{base}/key")}[endpoint]
        answer = send_api(client, method, url, body, key_headers(key, made["edit_key"], headers))
        seen[answer.status_code] += 1
        allowed = API_STATUSES[endpoint] | ({405} if match_id == "random" else set())
        check_api(answer, allowed, f"{method} {url}")
        after = pool.state(made)
        if answer.status_code >= 400:  # a refused write changes nothing
            assert after == before
        elif endpoint == "key":
            made["edit_key"] = answer.get_json()["edit_key"]
        elif endpoint == "record" and after["finished"]:
            pool.spent(game)

    run()
    report(endpoint, seen, 30)


def test_random_json_importing_a_match(client):
    seen: Counter[int] = Counter()

    @settings(FUZZ, max_examples=API_EXAMPLES["import"])
    @given(body=request_body(DOCUMENT, VALID_DOCUMENTS), headers=HEADERS)
    def run(body, headers):
        answer = send_api(client, "POST", "/api/v1/matches/import", body, headers)
        seen[answer.status_code] += 1
        check_api(answer, API_STATUSES["import"], "import")

    run()
    report("POST /api/v1/matches/import", seen, 50)


# -- the forms -------------------------------------------------------------------------------

SEATS = [str(n) for n in range(12)]
FORM_VALUES = (st.sampled_from(["", "0", "1", "2", "3", "4", "5", "13", "26", "45", "75", "120", "-1", "99", "1e3",
                                "0x10", " 7 ", "abc", "\x00", "on", "y", "yes", "no", "double", "redouble",
                                "points", "cards", "subtract", "add", "spades", "bells", "J", "Z",
                                "45,20,5,-5", "40,25,10,-10", "9,9", "<b>", *barbu.CONTRACTS, *SIX, "Ann"])
               | st.text(max_size=12) | st.integers(-(10 ** 30), 10 ** 30).map(str))
NEW_MATCH_FIELDS = ["first_declarer", "domino_scores", "enforce_declarer_doubles", "target", "moon_points",
                    "first_dealer", "eggs_double_next", "six_for_zero_points", "players", "players-",
                    "players-99", "players-x", *(f"players-{seat}" for seat in range(12))]
HAND_FIELDS = {
    "barbu": ["variant", "number", "ace_of_hearts", "second_last", "last", "king_of_hearts", "start_rank",
              "trump_suit", "order", "doubles",
              *(f"{field}_{seat}" for field in ("tricks", "queens", "hearts", "place") for seat in range(5)),
              *(f"double_{by}_{target}" for by in range(4) for target in range(4))],
    "kozyol": ["number", "side", "mode", "points", "cards_A", "cards_10", "cards_K", "cards_Q", "cards_J", "cards_9",
               "took_0", "took_1", "took_2", "trump_suit", "last_trick", "tricks"],
    "hearts": ["number", "rest_to", "rest_ok", "moon", "hearts",
               *(f"{field}_{seat}" for field in ("hearts", "black_marias") for seat in range(8))],
}
VALID_NEW = {
    "barbu": {**{f"players-{s}": n for s, n in enumerate(PLAYERS)}, "first_declarer": "0",
              "domino_scores": "45,20,5,-5", "enforce_declarer_doubles": "y"},
    "kozyol": {**{f"players-{s}": n for s, n in enumerate(PLAYERS)}, "target": "12", "first_dealer": "0"},
    "hearts": {**{f"players-{s}": n for s, n in enumerate(SIX)}, "target": "150", "moon_points": "26",
               "first_dealer": "0"},
}
VALID_HAND = {
    "no_tricks": {"tricks_0": "4", "tricks_1": "3", "tricks_2": "5", "tricks_3": "1"},
    "trumps": {"tricks_0": "4", "tricks_1": "3", "tricks_2": "5", "tricks_3": "1", "trump_suit": "hearts"},
    "no_queens": {"queens_0": "1", "queens_1": "0", "queens_2": "1", "queens_3": "2"},
    "no_hearts": {"hearts_0": "4", "hearts_1": "3", "hearts_2": "5", "hearts_3": "1", "ace_of_hearts": "2"},
    "no_last_two": {"second_last": "1", "last": "2"},
    "barbu": {"king_of_hearts": "3", "double_1_0": "double"},
    "dominoes": {"place_0": "2", "place_1": "0", "place_2": "3", "place_3": "1", "start_rank": "J"},
    "kozyol": {"side": "0", "mode": "points", "points": "75", "trump_suit": "spades", "last_trick": "1"},
    "hearts": {**{f"hearts_{s}": str(n) for s, n in enumerate([5, 4, 3, 6, 8, 0])},
               **{f"black_marias_{s}": str(n) for s, n in enumerate([1, 0, 0, 0, 1, 0])}},
}


def form_data(fields: list[str], valid: dict[str, str]) -> st.SearchStrategy:
    """A filled form with some fields changed or dropped, or random fields only."""
    changes = st.dictionaries(st.sampled_from(fields) | st.text(max_size=8), FORM_VALUES | st.none(), max_size=6)

    def apply(base: dict[str, str], changed: dict[str, str | None]) -> dict[str, str]:
        data = dict(base)
        for name, value in changed.items():
            if value is None:
                data.pop(name, None)
            else:
                data[name] = value
        return data

    return st.one_of(
        st.builds(apply, st.just(valid), changes),
        st.builds(apply, st.just({}), st.dictionaries(st.sampled_from(fields) | st.text(max_size=8), FORM_VALUES,
                                                       max_size=12)),
    )


TOKENS = st.sampled_from(["valid"] * 8 + ["missing", "forged"])


class Phone:
    """A browser with a session and its CSRF token, holding the edit keys of its pool of matches."""

    def __init__(self, app: Flask, with_hand: bool = False):
        self.client = app.test_client()
        self.token = TOKEN.search(self.client.get("/import").text)[1]
        self.pool = Pool(self.client, with_hand)
        self.joined: set[str] = set()

    def post(self, url: str, data: dict[str, Any], token: str, **kwargs: Any):
        if token == "valid":
            data = {**data, "csrf_token": self.token}
        elif token == "forged":
            data = {**data, "csrf_token": "20991231235959##" + "f" * 40}
        return self.client.post(url, data=data, **kwargs)

    def match(self, game: str) -> dict[str, Any]:
        """The game's match, opened on this phone with its edit link."""
        made = self.pool.match(game)
        if made["id"] not in self.joined:
            assert self.client.get(made["edit_url"]).status_code == 302
            self.joined.add(made["id"])
        return made

    def state(self, made: dict[str, Any]) -> dict[str, Any]:
        return self.pool.state(made)


def test_random_posts_to_the_new_match_forms(app):
    phone = Phone(app)
    for game in ("barbu", "kozyol", "hearts"):
        seen: Counter[int] = Counter()

        @settings(FUZZ, max_examples=40)
        @given(data=form_data(NEW_MATCH_FIELDS, VALID_NEW[game]), token=TOKENS)
        def run(data, token):
            answer = phone.post(f"/new/{game}", data, token)
            seen[answer.status_code] += 1
            check_form(answer, f"/new/{game}")
            if answer.status_code == 302:
                assert answer.headers["Location"].startswith("/m/")

        run()
        report(f"/new/{game}", seen, 20)


HAND_FORMS = [("barbu", contract) for contract in barbu.CONTRACTS] + [("kozyol", None), ("hearts", None)]


@pytest.mark.parametrize("game, variant", HAND_FORMS, ids=[v or g for g, v in HAND_FORMS])
def test_random_posts_to_the_new_hand_forms(app, game, variant):
    phone = Phone(app)
    seen: Counter[int] = Counter()

    @settings(FUZZ, max_examples=20 if game == "barbu" else 40)
    @given(data=form_data(HAND_FIELDS[game], VALID_HAND[variant or game]), token=TOKENS, in_query=st.booleans())
    def run(data, token, in_query):
        made = phone.match(game)
        path = f"/m/{made['id']}/hands/new"
        if variant and in_query:
            path += f"?variant={variant}"
        elif variant and "variant" not in data:
            data = {**data, "variant": variant}
        before = phone.state(made)
        answer = phone.post(path, data, token)
        seen[answer.status_code] += 1
        check_form(answer, path)
        if answer.status_code == 302:
            assert answer.headers["Location"].startswith(f"/m/{made['id']}")
            phone.pool.spent(game)  # the next example starts again from an empty match
        else:  # nothing recorded
            assert phone.state(made) == before

    run()
    report(f"new hand {variant or game}", seen, 10)


@pytest.mark.parametrize("game", list(GAME_PLAYERS))
def test_random_posts_to_the_hand_correction_forms(app, game):
    phone = Phone(app, with_hand=True)
    seen: Counter[int] = Counter()
    valid = st.sampled_from(barbu.CONTRACTS) if game == "barbu" else st.none()

    @settings(FUZZ, max_examples=30)
    @given(variant=valid, data=st.data(), token=TOKENS)
    def run(variant, data, token):
        made = phone.match(game)
        fields = data.draw(form_data(HAND_FIELDS[game], VALID_HAND[variant or game]))
        path = f"/m/{made['id']}/hands/1" + (f"?variant={variant}" if variant else "")
        before = phone.state(made)
        answer = phone.post(path, fields, token)
        seen[answer.status_code] += 1
        check_form(answer, path)
        if answer.status_code == 302:
            assert answer.headers["Location"].startswith(f"/m/{made['id']}")
        else:  # nothing changed
            assert phone.state(made) == before

    run()
    report(f"correct hand {game}", seen, 20)


def test_random_posts_to_undo_and_to_a_new_edit_key(app):
    phone = Phone(app, with_hand=True)
    seen: Counter[int] = Counter()

    @settings(FUZZ, max_examples=50)
    @given(game=st.sampled_from(list(GAME_PLAYERS)), action=st.sampled_from(["undo", "key"]),
           number=st.sampled_from([0, 1, 1, 2, 10 ** 20]),
           data=st.dictionaries(st.sampled_from(["number", "key", "csrf"]) | st.text(max_size=8), FORM_VALUES,
                                max_size=4), token=TOKENS)
    def run(game, action, number, data, token):
        made = phone.match(game)
        path = f"/m/{made['id']}/hands/{number}/undo" if action == "undo" else f"/m/{made['id']}/key"
        answer = phone.post(path, data, token)
        seen[answer.status_code] += 1
        assert answer.status_code == 302, (path, answer.status_code)
        assert answer.headers["Location"].startswith(f"/m/{made['id']}")
        assert 'class="flash"' in phone.client.get(answer.headers["Location"]).text  # done, or why not
        with phone.client.session_transaction() as session:
            made["edit_key"] = session["keys"][made["id"]]  # a new key stays on this phone
        hands = phone.state(made)["hands"]
        assert len(hands) == (0 if action == "undo" and token == "valid" and number == 1 else 1)

    run()
    report("undo and new edit key", seen, 30, varied=False)


def test_random_files_and_fields_posted_to_import(app):
    phone = Phone(app, with_hand=True)
    made = phone.match("barbu")
    exported = phone.client.get(f"/m/{made['id']}/export.json").get_json()
    seen: Counter[int] = Counter()
    documents = st.one_of(
        st.builds(lambda changes: json.dumps({**exported, **changes}).encode(),
                  st.dictionaries(st.sampled_from(list(exported)), JSON, max_size=2)),
        st.builds(lambda value: json.dumps(value).encode(), DOCUMENT | JSON),
        RAW_BODIES,
        st.just(json.dumps(exported).encode()),
    )

    @settings(FUZZ, max_examples=60)
    @given(document=documents | st.none(), name=st.text(max_size=20), token=TOKENS,
           extra=st.dictionaries(st.text(max_size=8), FORM_VALUES, max_size=3))
    def run(document, name, token, extra):
        data: dict[str, Any] = dict(extra)
        if document is not None:
            data["document"] = (BytesIO(document), name or "backup.json")
        answer = phone.post("/import", data, token, content_type="multipart/form-data")
        seen[answer.status_code] += 1
        check_form(answer, "/import")
        if answer.status_code == 302:
            assert answer.headers["Location"].startswith("/m/")

    run()
    report("/import", seen, 40)
