"""Barbu in the browser: what a player sees on the pages and what the forms do."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import bearer, create_match
from helpers.forms import TOKEN, csrf_token, post_form
from helpers.matches import PLAYERS
from helpers.names import TOO_LONG

ANN, BOB, CID, DEE = PLAYERS
CONTRACT_TITLES = ["No Tricks", "No Queens", "No Hearts", "No Last Two", "Barbu", "Trumps", "Dominoes"]


# -- reading pages -------------------------------------------------------------------------------


class Inputs(HTMLParser):
    """The form controls of a page, in order: input tags and selected options."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inputs: list[dict[str, str]] = []
        self.selects: dict[str, str | None] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value if value is not None else "" for name, value in attrs}
        if tag == "input":
            self.inputs.append(found)
        elif tag == "select":
            self._select = found.get("name")
            self.selects[self._select or ""] = None
        elif tag == "option" and self._select is not None and "selected" in found:
            self.selects[self._select] = found.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def controls(page: str) -> Inputs:
    parser = Inputs()
    parser.feed(page)
    return parser


def value_of(page: str, name: str) -> str | None:
    """The value a text or number input shows."""
    for found in controls(page).inputs:
        if found.get("name") == name and found.get("type") not in ("radio", "checkbox"):
            return found.get("value", "")
    return None


def checked(page: str, name: str) -> str | None:
    """The value of the ticked radio button of a group (None when none is ticked or there is no group)."""
    for found in controls(page).inputs:
        if found.get("name") == name and found.get("type") == "radio" and "checked" in found:
            return found.get("value", "")
    return None


def shown(page: str, name: str) -> str | None:
    """The count a player sees for a field: typed into a box or ticked among buttons."""
    typed = value_of(page, name)
    return typed if typed is not None else checked(page, name)


def has_control(page: str, name: str) -> bool:
    return any(found.get("name") == name for found in controls(page).inputs)


def browser_data(page: str) -> dict[str, str]:
    """What a browser sends for the form as shown: hidden and typed values, ticked radios and boxes."""
    data: dict[str, str] = {}
    for found in controls(page).inputs:
        name = found.get("name")
        if not name:
            continue
        if found.get("type") in ("radio", "checkbox"):
            if "checked" in found:
                data[name] = found.get("value", "on")
        else:
            data[name] = found.get("value", "")
    for name, value in controls(page).selects.items():
        if value is not None:
            data[name] = value
    return data


def text(page: str) -> str:
    """The page as a player reads it: no tags, entities decoded, white space collapsed."""
    without_tags = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S))
    return " ".join(html.unescape(without_tags).split())


def section(page: str, start: str, end: str = "</section>") -> str:
    """The markup from the first occurrence of start to the next end."""
    begin = page.index(start)
    return page[begin:page.index(end, begin)]


def standings(page: str) -> dict[str, int]:
    found = re.findall(r'<span class="name"[^>]*>([^<]*)</span>\s*<span class="total">(-?\d+)</span>', page)
    return {html.unescape(name): int(total) for name, total in found}


def hand_row(page: str, number: int) -> dict[str, Any]:
    """One row of the score sheet: contract, scores after doubles and running totals, seat by seat."""
    row = section(page, f'<tr id="hand-{number}">', "</tr>")
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
    return {
        "contract": text(cells[1]),
        "scores": [int(v) for v in re.findall(r"<strong>(-?\d+)</strong>", row)],
        "totals": [int(v) for v in re.findall(r"Σ (-?\d+)", row)],
    }


def errors(page: str) -> list[str]:
    return [text(found) for found in re.findall(r'<p class="error[^"]*"[^>]*>(.*?)</p>', page, flags=re.S)]


def flashes(page: str) -> list[str]:
    return [text(found) for found in re.findall(r'<p class="flash"[^>]*>(.*?)</p>', page, flags=re.S)]


# -- acting like a player -------------------------------------------------------------------------


def start_match(client: FlaskClient, names: list[str] | None = None, first: str = "0", **fields: str | None):
    """Fill in the new-match form as a player does and send it (None clears a field); return the answer."""
    names_typed = {f"players-{seat}": name for seat, name in enumerate(names or PLAYERS)}
    return send(client, "/new/barbu", {**names_typed, "first_declarer": first, **fields})


def new_match(client: FlaskClient, first: str = "0", **fields: str | None) -> str:
    """Create a match in the browser; return its id."""
    answer = start_match(client, first=first, **fields)
    assert answer.status_code == 302, errors(answer.text)
    return answer.headers["Location"].rstrip("/").rsplit("/", 1)[1]


def send(client: FlaskClient, url: str, fields: dict[str, str | None], page: str | None = None):
    """Open a form page (or use the page already shown), change some fields and send it."""
    data = browser_data(page if page is not None else client.get(url).text)
    for name, value in fields.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return client.post(url, data=data)


def enter(client: FlaskClient, match_id: str, contract: str, fields: dict[str, str | None]):
    return send(client, f"/m/{match_id}/hands/new?variant={contract}", fields)


def state(client: FlaskClient, match_id: str) -> dict[str, Any]:
    return client.get(f"/api/v1/matches/{match_id}").get_json()


def match_page(client: FlaskClient, match_id: str) -> str:
    page = client.get(f"/m/{match_id}")
    assert page.status_code == 200
    return page.text


def counts(field: str, values: list[int]) -> dict[str, str]:
    return {f"{field}_{seat}": str(value) for seat, value in enumerate(values)}


@pytest.fixture
def api_match(client: FlaskClient) -> dict[str, Any]:
    """A match made over the API (Ann declares first) that this browser joined with the edit link."""
    made = create_match(client, options={"first_declarer": ANN})
    assert client.get(made["edit_url"]).status_code == 302
    return made


def api_hands(client: FlaskClient, made: dict[str, Any], *entries: dict[str, Any]) -> None:
    for entry in entries:
        answer = client.post(f"/api/v1/matches/{made['id']}/hands", json=entry, headers=bearer(made["edit_key"]))
        assert answer.status_code == 201, answer.get_json()


NO_TRICKS = {"contract": "no_tricks", "tricks": {ANN: 4, BOB: 3, CID: 5, DEE: 1}}
NO_QUEENS = {"contract": "no_queens", "queens": {ANN: 1, BOB: 0, CID: 1, DEE: 2}}
BARBU = {"contract": "barbu", "king_of_hearts": BOB}
TRUMPS = {"contract": "trumps", "tricks": {ANN: 6, BOB: 3, CID: 1, DEE: 3}}
NO_LAST_TWO = {"contract": "no_last_two", "second_last": CID, "last": DEE}


# -- home and new match -----------------------------------------------------------------------------


def test_home_lists_the_game_and_no_matches_yet(client):
    page = client.get("/")
    assert page.status_code == 200
    assert 'href="/new/barbu"' in page.text
    seen = text(page.text)
    assert "Barbu 4 players" in seen
    assert "Matches you start or join on this phone appear here." in seen


def test_home_lists_your_matches_after_creating(client):
    match_id = new_match(client)
    page = client.get("/").text
    assert "Matches you start or join on this phone appear here." not in text(page)
    mine = section(page, '<ul class="matches">', "</ul>")
    assert f'href="/m/{match_id}"' in mine
    assert "Barbu · Ann, Bob, Cid, Dee 0 hands" in text(mine)


def test_another_phone_does_not_list_the_match(app, client):
    new_match(client)
    other = app.test_client()
    assert "Matches you start or join on this phone appear here." in text(other.get("/").text)


def test_creating_a_match_with_a_chosen_first_declarer(client):
    answer = start_match(client, first="2")
    assert answer.status_code == 302
    page = client.get(answer.headers["Location"]).text
    assert "Hand 1 of 28" in text(page)
    assert "Declarer Cid Deals Bob Cuts Ann" in text(section(page, '<dl class="roles">', "</dl>"))
    match_id = answer.headers["Location"].rsplit("/", 1)[1]
    made = state(client, match_id)
    assert made["players"] == PLAYERS
    assert made["options"] == {"first_declarer": CID, "domino_scores": [45, 20, 5, -5], "enforce_declarer_doubles": True}


def test_creating_a_match_draws_the_first_declarer_at_random(client):
    page = client.get("/new/barbu").text
    assert controls(page).selects["first_declarer"] == "", "drawing at random is the default"
    drawn = set()
    for _ in range(24):
        made = state(client, new_match(client, first=""))
        assert made["options"]["first_declarer"] in PLAYERS
        drawn.add(made["options"]["first_declarer"])
    assert len(drawn) > 1


def test_the_new_match_form_offers_the_defaults(client):
    page = client.get("/new/barbu").text
    assert checked(page, "domino_scores") == "45,20,5,-5"
    assert any(found.get("name") == "enforce_declarer_doubles" and "checked" in found for found in controls(page).inputs)
    assert [value_of(page, f"players-{seat}") for seat in range(4)] == ["", "", "", ""]


def test_creating_a_match_keeps_the_options_chosen(client):
    match_id = new_match(client, first="3", domino_scores="40,25,10,-10", enforce_declarer_doubles=None)
    assert state(client, match_id)["options"] == {
        "first_declarer": DEE, "domino_scores": [40, 25, 10, -10], "enforce_declarer_doubles": False}


@pytest.mark.parametrize(("names", "reason"), [
    pytest.param([ANN, BOB, " Ann ", DEE], "Two players have the same name; names must differ.", id="duplicate"),
    pytest.param([ANN, BOB, CID, ""], "This game needs exactly 4 players.", id="missing-name"),
    pytest.param([ANN, "", CID, DEE], "Seat 2 has no name, but seat 3 has one: fill the seats in order round the table.",
                 id="empty-seat-between"),
    pytest.param([ANN, BOB, CID, "x" * 41], TOO_LONG, id="name-too-long"),
])
def test_refused_creation_keeps_the_names_and_shows_the_reason_beside_them(client, names, reason):
    answer = start_match(client, names=names, first="3")
    assert answer.status_code == 422
    page = answer.text
    for seat, name in enumerate(names):
        assert value_of(page, f"players-{seat}") == name
    assert controls(page).selects["first_declarer"] == "3"
    players_box = section(page, "<fieldset>", "</fieldset>")
    assert reason in errors(players_box), "the reason stands beside the names"
    assert "Matches you start or join on this phone appear here." in text(client.get("/").text)


def test_new_match_for_an_unknown_game_is_404(client):
    page = client.get("/new/poker")
    assert page.status_code == 404
    assert "There is no such match or hand." in text(page.text)


# -- the match page -----------------------------------------------------------------------------------


def test_match_page_shows_the_next_hand_panel(client):
    match_id = new_match(client, first="0")
    page = match_page(client, match_id)
    panel = text(section(page, '<section class="card next"'))
    assert "Hand 1 of 28" in panel
    assert "Declarer Ann Deals Dee Cuts Cid" in panel
    assert "Doubles still owed to Ann: Bob 2 Cid 2 Dee 2" in panel
    assert "Contracts left " + " ".join(CONTRACT_TITLES) in panel
    for contract in ["no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu", "trumps", "dominoes"]:
        assert f'href="/m/{match_id}/hands/new?variant={contract}"' in page
    assert "No hands yet." in text(page)
    assert standings(page) == {name: 0 for name in PLAYERS}


def test_match_page_panel_moves_on_after_a_hand(client, api_match):
    api_hands(client, api_match, {**NO_QUEENS, "doubles": [{"by": BOB, "target": ANN, "redoubled": False}]})
    panel = text(section(match_page(client, api_match["id"]), '<section class="card next"'))
    assert "Hand 2 of 28" in panel
    assert "Doubles still owed to Ann: Bob 1 Cid 2 Dee 2" in panel
    assert "No Queens" not in panel
    assert "No Tricks No Hearts No Last Two Barbu Trumps Dominoes" in panel


def test_the_edit_link_is_offered_to_the_table(client):
    match_id = new_match(client)
    page = match_page(client, match_id)
    link = next(found["value"] for found in controls(page).inputs if found.get("id") == "edit-link")
    phone = client.application.test_client()
    joined = phone.get(link)
    assert joined.status_code == 302 and "key=" not in joined.headers["Location"]
    assert f'/m/{match_id}/hands/new?variant=barbu' in phone.get(joined.headers["Location"]).text


# -- entering every contract ---------------------------------------------------------------------------

# A whole block of seven hands, Ann declaring: hands 1 and 2 are examples 1 and 2 of docs/rules.md 1.7.
BLOCK = [
    ("no_queens", "No Queens",
     {**counts("queens", [1, 0, 1, 2]), "double_1_0": "double", "double_1_2": "double", "double_1_3": "double",
      "double_2_0": "redouble"},
     [-12, 24, -12, -24]),
    ("trumps", "Trumps",
     {**counts("tricks", [6, 3, 1, 3]), "double_1_0": "double", "double_2_0": "redouble", "double_3_0": "double",
      "trump_suit": "hearts"},
     [110, 0, -45, 0]),
    ("no_tricks", "No Tricks", counts("tricks", [4, 3, 5, 1]), [-8, -6, -10, -2]),
    ("no_hearts", "No Hearts", {**counts("hearts", [4, 5, 2, 2]), "ace_of_hearts": "0"}, [-12, -10, -4, -4]),
    ("no_last_two", "No Last Two", {"second_last": "2", "last": "3"}, [0, 0, -10, -20]),
    ("barbu", "Barbu", {"king_of_hearts": "1"}, [0, -20, 0, 0]),
    # Dee still owes Ann one double with one hand left: the form ticks it, 15 changes hands.
    ("dominoes", "Dominoes", {"place_0": "1", "place_1": "0", "place_2": "3", "place_3": "2", "start_rank": "J"},
     [35, 45, -5, -10]),
]


def test_every_contract_through_its_form_shows_scores_and_totals(client):
    match_id = new_match(client, first="0")
    running = [0, 0, 0, 0]
    for number, (contract, title, fields, scores) in enumerate(BLOCK, 1):
        form = client.get(f"/m/{match_id}/hands/new?variant={contract}")
        assert form.status_code == 200
        assert f"Hand {number}: {title}" in text(form.text)
        assert "Ann declares, Dee deals." in text(form.text)
        answer = send(client, f"/m/{match_id}/hands/new?variant={contract}", fields, page=form.text)
        assert answer.status_code == 302, errors(answer.text)
        # Where the next hand starts, the hand just saved above it; the last hand of the match lands on its row.
        assert answer.headers["Location"].endswith(f"/m/{match_id}#saved" if number < 28 else f"/m/{match_id}#standings")
        running = [total + score for total, score in zip(running, scores)]
        page = match_page(client, match_id)
        row = hand_row(page, number)
        assert row == {"contract": title, "scores": scores, "totals": running}, (number, contract)
        assert standings(page) == dict(zip(PLAYERS, running))
    assert running == [113, 33, -86, -60]
    assert sum(running) == 0
    page = match_page(client, match_id)
    assert "Ann declares" in text(page)
    panel = text(section(page, '<section class="card next"'))
    assert "Hand 8 of 28" in panel and "Declarer Bob Deals Ann Cuts Dee" in panel
    leaders = re.findall(r'<li class="leader">\s*<span class="name"[^>]*>([^<]*)</span>', page)
    assert leaders == [ANN], "the leader is marked in the standings"
    hands = state(client, match_id)["hands"]
    assert [h["contract"] for h in hands] == [c for c, *_ in BLOCK]
    assert hands[1]["entry"]["trump_suit"] == "hearts"
    assert hands[6]["entry"]["start_rank"] == "J"
    assert {"by": DEE, "target": ANN, "redoubled": False} in hands[6]["entry"]["doubles"]


def test_the_queens_form_offers_one_tap_per_count(client, api_match):
    page = client.get(f"/m/{api_match['id']}/hands/new?variant=no_queens")
    assert page.status_code == 200
    for seat in range(4):
        assert checked(page.text, f"queens_{seat}") is None, "no count is chosen for a player in advance"
    assert "4 queens: 4 left" in text(page.text)


@pytest.mark.parametrize(("contract", "fields", "reason", "kept"), [
    pytest.param("no_queens", counts("queens", [1, 1, 1, 0]), "The queens add up to 3; they must add up to 4.",
                 {"queens_2": "1"}, id="queens-sum"),
    pytest.param("no_hearts", {**counts("hearts", [0, 9, 2, 2]), "ace_of_hearts": "0"},
                 "Ann took the ace of hearts, so Ann took at least one heart.", {"ace_of_hearts": "0"}, id="ace"),
    pytest.param("no_hearts", counts("hearts", [4, 5, 2, 2]), "This field is required.", {}, id="ace-missing"),
    pytest.param("dominoes", {"place_0": "1", "place_1": "1", "place_2": "3", "place_3": "2"},
                 "Put all four players in finishing order, each once.", {"place_1": "1"}, id="same-player-twice"),
    pytest.param("no_last_two", {"second_last": "2"}, "This field is required.", {"second_last": "2"}, id="last-missing"),
    pytest.param("trumps", counts("tricks", [14, 0, 0, 0]), "Ann: ", {}, id="too-many-tricks"),
])
def test_a_refused_hand_shows_the_reason_and_keeps_the_entry(client, api_match, contract, fields, reason, kept):
    answer = enter(client, api_match["id"], contract, fields)
    assert answer.status_code == 422
    assert any(shown_reason.startswith(reason) for shown_reason in errors(answer.text)), errors(answer.text)
    for name, value in kept.items():
        assert checked(answer.text, name) == value
    assert state(client, api_match["id"])["hands"] == []


def test_a_hand_whose_tricks_add_up_to_12_is_refused_and_kept(client, api_match):
    fields = {**counts("tricks", [3, 4, 5, 0]), "double_1_3": "double"}
    answer = enter(client, api_match["id"], "no_tricks", fields)
    assert answer.status_code == 422
    seen = text(answer.text)
    assert "The tricks add up to 12; they must add up to 13." in seen
    assert "13 tricks: 1 left" in seen
    assert [shown(answer.text, f"tricks_{seat}") for seat in range(4)] == ["3", "4", "5", "0"]
    assert checked(answer.text, "double_1_3") == "double"
    assert checked(answer.text, "variant") is None and value_of(answer.text, "variant") == "no_tricks"
    assert state(client, api_match["id"])["hands"] == []
    fixed = send(client, f"/m/{api_match['id']}/hands/new?variant=no_tricks", {"tricks_3": "1"}, page=answer.text)
    assert fixed.status_code == 302
    assert state(client, api_match["id"])["hands"][0]["entry"]["tricks"] == {ANN: 3, BOB: 4, CID: 5, DEE: 1}


def test_a_count_that_is_not_a_number_is_refused(client, api_match):
    answer = enter(client, api_match["id"], "no_tricks", {**counts("tricks", [4, 3, 5, 1]), "tricks_1": "three"})
    assert answer.status_code == 422
    assert state(client, api_match["id"])["hands"] == []
    assert any(reason.startswith("Bob: ") for reason in errors(answer.text))


# -- doubles -------------------------------------------------------------------------------------------------


def test_compulsory_doubles_are_ticked_with_the_reason(client, api_match):
    api_hands(client, api_match, NO_TRICKS, NO_QUEENS, BARBU, NO_LAST_TWO,
              {"contract": "no_hearts", "hearts": {ANN: 4, BOB: 5, CID: 2, DEE: 2}, "ace_of_hearts": ANN})
    page = match_page(client, api_match["id"])
    assert "Must double now: Bob, Cid, Dee" in text(page)
    form = client.get(f"/m/{api_match['id']}/hands/new?variant=trumps").text
    for seat in (1, 2, 3):
        assert checked(form, f"double_{seat}_0") == "double"
    seen = text(form)
    for name in (BOB, CID, DEE):
        assert f"{name} doubles compulsory: 2 doubles owed, 2 hands left" in seen
    refused = send(client, f"/m/{api_match['id']}/hands/new?variant=trumps",
                   {**counts("tricks", [6, 3, 1, 3]), "double_3_0": ""}, page=form)
    assert refused.status_code == 422
    assert "Dee must double the declarer Ann: the doubles still owed equal the hands left." in errors(refused.text)
    assert checked(refused.text, "double_3_0") == ""
    assert len(state(client, api_match["id"])["hands"]) == 5
    saved = send(client, f"/m/{api_match['id']}/hands/new?variant=trumps", counts("tricks", [6, 3, 1, 3]), page=form)
    assert saved.status_code == 302
    assert state(client, api_match["id"])["hands"][5]["scores"] == {ANN: 85, BOB: 0, CID: -20, DEE: 0}


def test_nothing_is_ticked_while_doubles_are_not_yet_compulsory(client, api_match):
    form = client.get(f"/m/{api_match['id']}/hands/new?variant=no_tricks").text
    assert all(checked(form, f"double_{by}_{target}") == "" for by in (1, 2, 3) for target in range(4)
               if by != target)
    assert "compulsory" not in text(form)


def test_mutual_doubles_are_refused_with_the_reason(client, api_match):
    answer = enter(client, api_match["id"], "no_tricks",
                   {**counts("tricks", [4, 3, 5, 1]), "double_1_2": "double", "double_2_1": "double"})
    assert answer.status_code == 422
    assert any("cannot double each other twice; doubling back is the redouble." in reason
               for reason in errors(section(answer.text, '<fieldset class="doubles">', "</form>")))
    assert checked(answer.text, "double_1_2") == "double" and checked(answer.text, "double_2_1") == "double"
    assert state(client, api_match["id"])["hands"] == []


def test_the_declarer_can_only_redouble(client, api_match):
    form = client.get(f"/m/{api_match['id']}/hands/new?variant=no_tricks").text
    seen = text(form)
    assert "Bob doubles" in seen and "Cid doubles" in seen and "Dee doubles" in seen
    assert "Ann doubles" not in seen, "the declarer never starts a double"
    assert not any(has_control(form, f"double_0_{target}") for target in (1, 2, 3))
    assert 'value="redouble"' in section(form, 'data-by="1" data-target="0"', "</fieldset>")
    forged = send(client, f"/m/{api_match['id']}/hands/new?variant=no_tricks",
                  {**counts("tricks", [4, 3, 5, 1]), "double_0_1": "double", "double_1_0": "redouble"}, page=form)
    assert forged.status_code == 302
    (hand,) = state(client, api_match["id"])["hands"]
    assert hand["entry"]["doubles"] == [{"by": BOB, "target": ANN, "redoubled": True}]


def test_positive_contracts_only_offer_doubles_of_the_declarer(client, api_match):
    form = client.get(f"/m/{api_match['id']}/hands/new?variant=dominoes").text
    assert {f"double_{by}_0" for by in (1, 2, 3)} <= {f["name"] for f in controls(form).inputs if "name" in f}
    assert not has_control(form, "double_1_2") and not has_control(form, "double_3_1")


# -- correcting and undoing -------------------------------------------------------------------------------------


def test_editing_an_earlier_hand_changes_later_totals(client, api_match):
    api_hands(client, api_match, NO_TRICKS, BARBU)
    match_id = api_match["id"]
    assert hand_row(match_page(client, match_id), 2)["totals"] == [-8, -26, -10, -2]
    form = client.get(f"/m/{match_id}/hands/1")
    assert form.status_code == 200
    assert "Correcting hand 1: No Tricks" in text(form.text) and "Save hand 1" in text(form.text)
    assert [shown(form.text, f"tricks_{seat}") for seat in range(4)] == ["4", "3", "5", "1"]
    answer = send(client, f"/m/{match_id}/hands/1", counts("tricks", [0, 13, 0, 0]), page=form.text)
    assert answer.status_code == 302
    page = match_page(client, match_id)
    assert hand_row(page, 1) == {"contract": "No Tricks", "scores": [0, -26, 0, 0], "totals": [0, -26, 0, 0]}
    assert hand_row(page, 2) == {"contract": "Barbu", "scores": [0, -20, 0, 0], "totals": [0, -46, 0, 0]}
    assert standings(page) == {ANN: 0, BOB: -46, CID: 0, DEE: 0}


def test_the_other_contract_link_lets_an_edit_change_the_contract(client, api_match):
    api_hands(client, api_match, NO_TRICKS, BARBU)
    match_id = api_match["id"]
    form = client.get(f"/m/{match_id}/hands/1").text
    link = re.search(r'<a href="([^"]*)">Other contract</a>', form).group(1)
    choose = client.get(f"/m/{match_id}/hands/1" + html.unescape(link))
    assert choose.status_code == 200
    assert "Ann declares. Which contract?" in text(choose.text)
    for contract in ["no_tricks", "no_queens", "no_hearts", "no_last_two", "trumps", "dominoes"]:
        assert f'href="?variant={contract}"' in choose.text, "hand 1 may become any contract still open"
    assert 'href="?variant=barbu"' not in choose.text, "hand 2 of the block played Barbu: not offered"
    answer = send(client, f"/m/{match_id}/hands/1?variant=trumps", counts("tricks", [6, 3, 1, 3]))
    assert answer.status_code == 302
    assert [h["contract"] for h in state(client, match_id)["hands"]] == ["trumps", "barbu"]


def test_an_edit_that_makes_a_later_hand_illegal_is_refused(client, api_match):
    api_hands(client, api_match, NO_TRICKS, NO_QUEENS, BARBU)
    match_id = api_match["id"]
    before = state(client, match_id)
    answer = send(client, f"/m/{match_id}/hands/1?variant=no_queens", counts("queens", [4, 0, 0, 0]))
    assert answer.status_code == 422
    assert "Hand 2 would no longer be legal: Ann has already played No Queens in this block." in errors(answer.text)
    assert checked(answer.text, "queens_0") == "4"
    assert state(client, match_id) == before


def test_undo_of_the_last_hand(client, api_match):
    api_hands(client, api_match, NO_TRICKS, BARBU)
    match_id = api_match["id"]
    page = match_page(client, match_id)
    assert f'action="/m/{match_id}/hands/2/undo"' in page
    assert f'action="/m/{match_id}/hands/1/undo"' not in page, "only the last hand has an Undo button"
    undo_form = section(page, f'action="/m/{match_id}/hands/2/undo"', "</form>")
    answer = client.post(f"/m/{match_id}/hands/2/undo", data={"csrf_token": TOKEN.search(undo_form).group(1)})
    assert answer.status_code == 302
    page = client.get(answer.headers["Location"]).text
    assert "Hand 2 was undone." in flashes(page)
    assert '<tr id="hand-2">' not in page
    assert standings(page) == {ANN: -8, BOB: -6, CID: -10, DEE: -2}
    assert "Hand 2 of 28" in text(page)
    assert [h["contract"] for h in state(client, match_id)["hands"]] == ["no_tricks"]


def test_undo_of_an_earlier_hand_is_refused(client, api_match):
    api_hands(client, api_match, NO_TRICKS, BARBU)
    match_id = api_match["id"]
    answer = post_form(client, f"/m/{match_id}/hands/1/undo", {}, token_from=f"/m/{match_id}")
    page = client.get(answer.headers["Location"]).text
    assert "Only the last hand can be undone; correct hand 1 instead." in flashes(page)
    assert len(state(client, match_id)["hands"]) == 2


def test_a_hand_sent_twice_is_recorded_once(client, api_match):
    api_hands(client, api_match, NO_TRICKS, NO_QUEENS,
              {"contract": "no_hearts", "hearts": {ANN: 4, BOB: 5, CID: 2, DEE: 2}, "ace_of_hearts": ANN},
              {**NO_LAST_TWO, "doubles": [{"by": p, "target": ANN, "redoubled": False} for p in (BOB, CID, DEE)]},
              {**BARBU, "doubles": [{"by": p, "target": ANN, "redoubled": False} for p in (BOB, CID, DEE)]}, TRUMPS)
    match_id = api_match["id"]
    url = f"/m/{match_id}/hands/new?variant=dominoes"
    form = client.get(url).text
    fields = {"place_0": "1", "place_1": "0", "place_2": "3", "place_3": "2", "double_1_0": "double"}
    assert send(client, url, fields, page=form).status_code == 302
    again = send(client, url, fields, page=form)
    assert again.status_code == 302, "the second tap lands on the score sheet, which already shows the hand"
    assert "Hand 7 is saved." in text(client.get(again.location).text), "the same phone, the same form: saved"
    hands = state(client, match_id)["hands"]
    assert len(hands) == 7, "a second tap on Save must not record the hand again under the next declarer"


# -- who may edit ---------------------------------------------------------------------------------------------------


def test_a_phone_without_the_key_sees_the_match_read_only(app, client, api_match):
    api_hands(client, api_match, NO_TRICKS, BARBU)
    match_id = api_match["id"]
    watcher = app.test_client()
    page = watcher.get(f"/m/{match_id}")
    assert page.status_code == 200
    seen = text(page.text)
    assert "You are watching. Ask the table for the edit link to enter hands." in seen
    assert "/hands/new" not in page.text, "no contract buttons"
    assert f'href="/m/{match_id}/hands/1"' not in page.text and ">Edit</a>" not in page.text, "no Edit links"
    assert "/undo" not in page.text and "Undo" not in seen, "no Undo button"
    assert not any(found.get("id") == "edit-link" for found in controls(page.text).inputs)
    assert standings(page.text) == {ANN: -8, BOB: -26, CID: -10, DEE: -2}
    assert "Contracts left No Queens No Hearts No Last Two Trumps Dominoes" in seen
    for method, url in [("get", f"/m/{match_id}/hands/new"), ("get", f"/m/{match_id}/hands/new?variant=trumps"),
                        ("post", f"/m/{match_id}/hands/new?variant=trumps"), ("get", f"/m/{match_id}/hands/1"),
                        ("post", f"/m/{match_id}/hands/1"), ("post", f"/m/{match_id}/hands/2/undo")]:
        refused = getattr(watcher, method)(url, data={**counts("tricks", [13, 0, 0, 0]), "variant": "trumps"})
        assert refused.status_code == 403, (method, url)
        assert refused.mimetype == "text/html" and "Traceback" not in refused.text
    assert len(state(client, match_id)["hands"]) == 2


# -- refused form posts ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "", "garbage", "20991231235959##0123456789abcdef", "OTHER"])
def test_a_hand_without_a_good_token_is_refused_and_kept(app, client, api_match, token):
    url = f"/m/{api_match['id']}/hands/new?variant=no_tricks"
    form = client.get(url).text
    if token == "OTHER":
        token = csrf_token(app.test_client())
    answer = send(client, url, {**counts("tricks", [4, 3, 5, 1]), "double_1_0": "double", "csrf_token": token},
                  page=form)
    assert answer.status_code == 422
    assert "The page was open too long; please send it again." in errors(answer.text)
    assert [shown(answer.text, f"tricks_{seat}") for seat in range(4)] == ["4", "3", "5", "1"]
    assert checked(answer.text, "double_1_0") == "double"
    assert state(client, api_match["id"])["hands"] == []
    again = send(client, url, {}, page=answer.text)
    assert again.status_code == 302, "the page as shown again can be sent as it is"
    assert state(client, api_match["id"])["hands"][0]["entry"]["tricks"] == {ANN: 4, BOB: 3, CID: 5, DEE: 1}


@pytest.mark.parametrize("token", [None, "garbage"])
def test_a_new_match_without_a_good_token_is_refused_and_kept(client, token):
    answer = start_match(client, first="1", csrf_token=token)
    assert answer.status_code == 422
    assert controls(answer.text).selects["first_declarer"] == "1"
    assert "The page was open too long; please send it again." in errors(answer.text)
    assert [value_of(answer.text, f"players-{seat}") for seat in range(4)] == PLAYERS
    assert "Matches you start or join on this phone appear here." in text(client.get("/").text)
    assert send(client, "/new/barbu", {}, page=answer.text).status_code == 302


def test_an_undo_without_a_good_token_is_refused(client, api_match):
    api_hands(client, api_match, NO_TRICKS)
    for data in ({}, {"csrf_token": "garbage"}):
        answer = client.post(f"/m/{api_match['id']}/hands/1/undo", data=data)
        assert answer.status_code == 302
        assert "The page was open too long; please try again." in flashes(client.get(answer.headers["Location"]).text)
    assert len(state(client, api_match["id"])["hands"]) == 1


# -- unknown things ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/m/no-such-match", "/m/no-such-match/hands/new", "/m/no-such-match/hands/1",
                                 "/m/no-such-match/join?key=abc", "/m/" + "x" * 500])
def test_an_unknown_match_is_a_404_page(client, url):
    page = client.get(url)
    assert page.status_code == 404
    assert page.mimetype == "text/html"
    assert "There is no such match or hand." in text(page.text)
    assert 'href="/"' in page.text
    assert "Traceback" not in page.text


@pytest.mark.parametrize("number", [0, 3, 99])
def test_an_unknown_hand_is_a_404_page(client, api_match, number):
    api_hands(client, api_match, NO_TRICKS, BARBU)
    page = client.get(f"/m/{api_match['id']}/hands/{number}")
    assert page.status_code == 404
    assert "There is no such match or hand." in text(page.text)


def test_a_finished_match_shows_the_winner_and_takes_no_more_hands(client, api_match):
    contracts = [NO_TRICKS, NO_QUEENS,
                 {"contract": "no_hearts", "hearts": {ANN: 4, BOB: 5, CID: 2, DEE: 2}, "ace_of_hearts": ANN},
                 NO_LAST_TWO, BARBU, TRUMPS, {"contract": "dominoes", "order": [BOB, ANN, DEE, CID]}]
    for block in range(4):
        declarer = PLAYERS[block]
        for index, entry in enumerate(contracts):
            doubles = [{"by": p, "target": declarer, "redoubled": False} for p in PLAYERS if p != declarer]
            api_hands(client, api_match, {**entry, "doubles": doubles if index < 2 else []})
    page = match_page(client, api_match["id"])
    totals = state(client, api_match["id"])["totals"]
    best = max(totals.values())
    winners = [name for name in PLAYERS if totals[name] == best]
    assert ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners) in text(page)
    assert '<section class="card next"' not in page
    answer = client.get(f"/m/{api_match['id']}/hands/new?variant=barbu")
    assert answer.status_code == 302
    assert "This match is finished; no more hands can be recorded." in flashes(client.get(answer.headers["Location"]).text)
