"""Cancellation Hearts in the browser: new game, hand entry for the whole table, the score sheet."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import bearer, create_match
from helpers.forms import csrf_token, post_form
from helpers.matches import hearts_reaching

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]
SIX = NAMES[:6]
TOKEN_PAGE = "/new/hearts"


# -- helpers -------------------------------------------------------------------------------


def game_form(players: list[str], **options: str) -> dict[str, str]:
    data = {f"players-{seat}": name for seat, name in enumerate(players)}
    return {**data, "target": "150", "moon_points": "26", "first_dealer": "0", **options}


def start(client: FlaskClient, players: list[str] = SIX, **options: str) -> str:
    """Start a game through the new-match page; return its id."""
    answer = post_form(client, "/new/hearts", game_form(players, **options))
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"].rsplit("/", 1)[1]


def hand_data(hearts: list[int | str | None], marias: list[int] | None = None, **extra: str) -> dict[str, str]:
    """What a browser posts: a hearts field per row (None: left empty) and the checked Black Maria chip."""
    data = {f"hearts_{seat}": "" if count is None else str(count) for seat, count in enumerate(hearts)}
    data.update({f"black_marias_{seat}": str(count) for seat, count in enumerate(marias or [0] * len(hearts))})
    return {**data, **extra}


def enter(client: FlaskClient, match_id: str, hearts: list[Any], marias: list[int] | None = None,
          number: int | None = None, **extra: str):
    path = f"/m/{match_id}/hands/{number or 'new'}"
    return post_form(client, path, hand_data(hearts, marias, **extra), token_from=TOKEN_PAGE)


def saved(answer, match_id: str, number: int) -> None:
    assert answer.status_code == 302, answer.text
    # a new hand lands above the next one (#saved), the last hand of a match on the result, a correction on its row
    assert answer.headers["Location"] in (f"/m/{match_id}#saved", f"/m/{match_id}#standings", f"/m/{match_id}#hand-{number}")


def state(client: FlaskClient, match_id: str) -> dict[str, Any]:
    return client.get(f"/api/v1/matches/{match_id}").get_json()


def totals(client: FlaskClient, match_id: str) -> list[int]:
    found = state(client, match_id)
    return [found["totals"][name] for name in found["players"]]


def error_beside(page: str, name: str) -> str:
    found = re.search(rf'<p class="error" id="err-{name}">([^<]*)</p>', page)
    assert found, f"no reason beside {name}"
    return html.unescape(found.group(1))


def asked(page: str) -> tuple[str, str]:
    """Save's question about rows left empty, and the rows it asked about (sent back with the next Save)."""
    question = re.search(r'<p class="ask-empty warn" id="err-empty"[^>]*>([^<]*)</p>', page)
    rows = re.search(r'<input type="hidden" name="empty_ok" value="([^"]*)">', page)
    assert question and rows, "no question about empty rows"
    return html.unescape(question.group(1)), rows.group(1)


def value_of(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" type="number"[^>]*\n?\s*value="([^"]*)"', page)
    assert found, f"no field {name}"
    return found.group(1)


def checked(page: str, name: str) -> list[str]:
    return re.findall(rf'<input checked id="[^"]+" name="{name}" type="radio" value="([^"]*)">', page)


def joined(client: FlaskClient, players: list[str] = SIX, **options: Any) -> dict[str, Any]:
    """A game made over the API and opened with its edit link on this phone."""
    made = create_match(client, game="hearts", players=players, options=options or None)
    assert client.get(made["edit_url"]).status_code == 302
    return made


def reach(client: FlaskClient, made: dict[str, Any], goal: list[int]) -> None:
    """Bring a fresh game to these totals over the API, hearts only and never a moon."""
    for hearts in hearts_reaching(goal):
        body = {"hearts": dict(zip(made["players"], hearts)), "black_marias": dict.fromkeys(made["players"], 0)}
        answer = client.post(f"/api/v1/matches/{made['id']}/hands", json=body, headers=bearer(made["edit_key"]))
        assert answer.status_code == 201, answer.get_json()


# -- a new game ---------------------------------------------------------------------------------


def test_new_game_page_has_eleven_seats_and_the_options(client):
    page = client.get("/new/hearts")
    assert page.status_code == 200
    assert "New Cancellation Hearts match" in page.text
    assert all(f'name="players-{seat}"' in page.text for seat in range(11))
    assert 'name="players-11"' not in page.text
    assert page.text.count("(optional)") == 5, "seats 7 to 11 may stay empty"
    assert re.search(r'name="target" type="number"[^>]*\n?\s*value="150"', page.text)
    assert checked(page.text, "moon_points") == ["26"] and 'value="52"' in page.text
    assert '<option selected value="0">Seat 1</option>' in page.text
    assert '<option value="10">Seat 11</option>' in page.text


def test_a_six_player_game_from_the_browser(client):
    match_id = start(client, SIX, target="120", moon_points="52", first_dealer="2")
    found = state(client, match_id)
    assert found["game"] == "hearts" and found["players"] == SIX
    assert found["options"] == {"target": 120, "moon_points": 52, "first_dealer": "Cid"}
    page = client.get(f"/m/{match_id}").text
    assert "Lowest total wins when a player reaches 120." in page
    assert "<dt>Deals</dt><dd>Cid</dd>" in page and "<dt>Leads</dt><dd>Dee</dd>" in page
    assert "<dt>Pass 3 cards</dt><dd>to the left</dd>" in page
    assert "<dt>Cards each</dt><dd>17</dd>" in page and "<dt>Left over</dt><dd>2</dd>" in page
    assert f'href="/m/{match_id}/hands/new"' in page and "Enter hand 1" in page
    assert "No hands yet." in page


def test_an_eleven_player_game_from_the_browser(client):
    match_id = start(client, NAMES, first_dealer="10")
    found = state(client, match_id)
    assert found["players"] == NAMES and found["options"]["first_dealer"] == "Kim"
    page = client.get(f"/m/{match_id}").text
    assert "<dt>Cards each</dt><dd>9</dd>" in page and "<dt>Left over</dt><dd>5</dd>" in page
    form = client.get(f"/m/{match_id}/hands/new").text
    assert form.count('class="player-row') == 11
    assert "Kim deals 9 cards each, 5 left over; Ann leads. Pass 3 cards to the left." in form


def test_empty_seats_after_the_names_are_fine_but_not_between_them(client):
    assert state(client, start(client, [*SIX, "", ""]))["players"] == SIX
    answer = post_form(client, "/new/hearts", {**{f"players-{seat}": name for seat, name in
                                                  enumerate(["Ann", "", "Bob", "Cid", "Dee", "Eve", "Fay"])},
                                               "target": "150", "moon_points": "26", "first_dealer": "0"})
    assert answer.status_code == 422
    assert "Seat 2 has no name, but seat 3 has one: fill the seats in order round the table." in answer.text


@pytest.mark.parametrize(("players", "options", "field", "reason"), [
    pytest.param(NAMES[:5], {}, "players", "This game needs 6 to 11 players.", id="five-players"),
    pytest.param([*SIX[:5], "Ann"], {}, "players", "Two players have the same name; names must differ.",
                 id="same-name"),
    pytest.param(SIX, {"target": "25"}, "target", "Number must be between 26 and 1000.", id="target-25"),
    pytest.param(SIX, {"target": "lots"}, "target", "Not a valid integer value.", id="target-text"),
    pytest.param(SIX, {"target": ""}, "target", "This field is required.", id="target-empty"),
    pytest.param(SIX, {"moon_points": "30"}, "moon_points", "Not a valid choice.", id="moon-points"),
    pytest.param(SIX, {"first_dealer": "6"}, "first_dealer", "Nobody sits in that seat.", id="empty-seat"),
])
def test_a_refused_new_game_says_why_beside_the_field_and_keeps_what_was_typed(client, players, options, field,
                                                                               reason):
    answer = post_form(client, "/new/hearts", game_form(players, **options))
    assert answer.status_code == 422
    assert error_beside(answer.text, field) == reason
    for seat, name in enumerate(players):
        assert f'name="players-{seat}" value="{name}"' in answer.text
    if "target" in options:
        assert re.search(rf'name="target" type="number"[^>]*\n?\s*value="{options["target"]}"', answer.text)


# -- entering hands -----------------------------------------------------------------------------


def test_the_hand_page_has_a_row_per_player_the_counter_and_the_moon_choice(client):
    match_id = start(client)
    page = client.get(f"/m/{match_id}/hands/new")
    assert page.status_code == 200
    text = page.text
    for seat, name in enumerate(SIX):
        assert f'data-seat="{seat}" data-name="{name}"' in text
        assert value_of(text, f"hearts_{seat}") == ""  # empty, not 0: a row nobody touched is told apart
        assert checked(text, f"black_marias_{seat}") == ["0"]
        assert f'name="black_marias_{seat}" type="radio" value="2"' in text
        assert f'name="rest_to" type="radio" value="{seat}"' in text
    assert checked(text, "rest_to") == [""]
    assert "Hearts left: 26</span>" in text and "Black Marias left: 2</span>" in text
    assert 'data-shot="no"' in text
    assert "Subtract 26 from the shooter" in text and "Add 26 to everyone else" in text
    assert checked(text, "moon") == []
    assert "Ann deals 17 cards each, 2 left over; Bob leads. Pass 3 cards to the left." in text
    assert text.count("<script") == 1 and "onclick" not in text and "style=" not in text, "no inline scripts"


def test_worked_example_1_entered_row_by_row(client):
    players = NAMES[:8]
    match_id = start(client, players)
    saved(enter(client, match_id, [5, 0, 7, 3, 2, 4, 5, 0], [1, 0, 0, 1, 0, 0, 0, 0]), match_id, 1)
    (hand,) = state(client, match_id)["hands"]
    assert hand["points"] == dict(zip(players, [18, 0, 7, 16, 2, 4, 5, 0]))
    assert hand["moon_shooter"] is None


def test_the_rest_goes_to_the_player_ticked(client):
    match_id = start(client)
    # The 0 every row starts at is no count of its own: ticked, Fay takes the rest.
    saved(enter(client, match_id, [5, 0, 7, 3, 2, 0], [1, 0, 0, 0, 0, 0], rest_to="5"), match_id, 1)
    assert state(client, match_id)["hands"][0]["entry"]["hearts"]["Fay"] == 9
    match_id = start(client)
    # Fay's row is empty and she is ticked: she gets the 9 hearts and the Black Maria nobody else took.
    saved(enter(client, match_id, [5, 0, 7, 3, 2, None], [1, 0, 0, 0, 0, 0], rest_to="5"), match_id, 1)
    (hand,) = state(client, match_id)["hands"]
    assert hand["entry"]["hearts"]["Fay"] == 9 and hand["entry"]["black_marias"]["Fay"] == 1
    assert totals(client, match_id) == [18, 0, 7, 3, 2, 22]


def asked_about_rest(page: str) -> tuple[str, str]:
    """Save's question about the rest replacing a row's counts, and what it asked (sent back with the next Save)."""
    question = re.search(r'<p class="ask-rest warn" id="err-rest" role="status">([^<]*)</p>', page)
    asked = re.search(r'<input type="hidden" name="rest_ok" value="([^"]*)">', page)
    assert question and asked, "no question about the rest"
    return html.unescape(question.group(1)), asked.group(1)


def test_the_rest_as_the_page_shows_it_on_its_row_is_recorded_at_once(client):
    match_id = start(client)
    # The page's script writes the rest into Fay's row before Save: the row and the rest agree.
    saved(enter(client, match_id, [5, 0, 7, 3, 2, 9], [1, 0, 0, 0, 0, 1], rest_to="5"), match_id, 1)
    assert state(client, match_id)["hands"][0]["entry"]["hearts"]["Fay"] == 9


def test_the_rest_replacing_a_typed_count_is_asked_about_once_then_recorded(client):
    """Without the page's script, Fay's row still says the 3 typed when she is ticked as taking the rest."""
    match_id = start(client)
    answer = enter(client, match_id, [5, 0, 7, 3, 2, 3], [1, 0, 0, 0, 0, 0], rest_to="5")
    assert answer.status_code == 422
    question, sent_back = asked_about_rest(answer.text)
    assert question == ("Fay took the rest: 9 ♥ and 1 Q♠, not the 3 ♥ and 0 Q♠ on the row. Tap Save again to "
                        "record the rest, or choose “Nobody: every row typed in”.")
    assert value_of(answer.text, "hearts_5") == "3" and checked(answer.text, "rest_to") == ["5"]
    assert "Gets the rest: 9 ♥, 1 Q♠" in answer.text
    assert 'class="error banner"' not in answer.text
    assert state(client, match_id)["hands"] == []
    # Another row changed meanwhile: the rest is another, and asked about again.
    answer = enter(client, match_id, [6, 0, 7, 3, 2, 3], [1, 0, 0, 0, 0, 0], rest_to="5", rest_ok=sent_back)
    assert answer.status_code == 422
    assert asked_about_rest(answer.text)[0].startswith("Fay took the rest: 8 ♥ and 1 Q♠, not the 3 ♥")
    saved(enter(client, match_id, [5, 0, 7, 3, 2, 3], [1, 0, 0, 0, 0, 0], rest_to="5", rest_ok=sent_back), match_id, 1)
    (hand,) = state(client, match_id)["hands"]
    assert hand["entry"]["hearts"]["Fay"] == 9 and hand["entry"]["black_marias"]["Fay"] == 1


@pytest.mark.parametrize(("lang", "start_of_it", "nobody"), [
    ("fr", "Fay a pris le reste\u00a0: 9 ♥ et 1 D♠, et non les 3 ♥ et 0 D♠ de la ligne.", "«\u00a0Personne"),
    ("ru", "Fay забирает остальное: 9 ♥ и 1 Д♠, а не 3 ♥ и 0 Д♠ из строки.", "«Никто: все строки заполнены»"),
])
def test_the_question_about_the_rest_reads_in_the_players_language(client, lang, start_of_it, nobody):
    match_id = start(client)
    data = {"csrf_token": csrf_token(client, TOKEN_PAGE), **hand_data([5, 0, 7, 3, 2, 3], [1, 0, 0, 0, 0, 0], rest_to="5")}
    answer = client.post(f"/m/{match_id}/hands/new", data=data, headers={"Accept-Language": lang})
    assert answer.status_code == 422
    question = asked_about_rest(answer.text)[0]
    assert question.startswith(start_of_it) and nobody in question


def test_black_marias_tapped_on_the_row_of_the_rest_are_asked_about_when_they_differ(client):
    match_id = start(client)
    answer = enter(client, match_id, [5, 0, 7, 3, 2, None], [1, 0, 0, 0, 0, 2], rest_to="5")
    assert answer.status_code == 422
    assert asked_about_rest(answer.text)[0].startswith("Fay took the rest: 9 ♥ and 1 Q♠, not the 0 ♥ and 2 Q♠ on")
    saved(enter(client, match_id, [5, 0, 7, 3, 2, None], [1, 0, 0, 0, 0, 1], rest_to="5"), match_id, 1)


def test_a_row_left_empty_is_asked_about_once_then_recorded_as_none(client):
    """docs/rules.md 3.3: 22 hearts are legal for 6 players; a row nobody touched is asked about, not taken as 0."""
    match_id = start(client)
    answer = enter(client, match_id, [5, 0, 7, None, 2, 8], [1, 0, 0, 0, 0, 1])
    assert answer.status_code == 422
    assert asked(answer.text) == ("Dee: no hearts? Tap Save again to record none, or type the count.", "3")
    assert value_of(answer.text, "hearts_3") == "" and value_of(answer.text, "hearts_5") == "8"
    assert state(client, match_id)["hands"] == []
    saved(enter(client, match_id, [5, 0, 7, None, 2, 8], [1, 0, 0, 0, 0, 1], empty_ok="3"), match_id, 1)
    assert totals(client, match_id) == [18, 0, 7, 0, 2, 21]


def test_a_new_row_left_empty_is_asked_about_again(client):
    match_id = start(client)
    answer = enter(client, match_id, [5, 0, 7, None, None, 8], [1, 0, 0, 0, 0, 1], empty_ok="3")
    assert answer.status_code == 422
    assert asked(answer.text) == ("Dee, Eve: no hearts? Tap Save again to record none, or type the count.", "3,4")


def test_rows_left_empty_beside_the_rest_count_none(client):
    match_id = start(client)
    saved(enter(client, match_id, [None, 6, None, None, None, None], rest_to="0"), match_id, 1)
    assert totals(client, match_id) == [46, 6, 0, 0, 0, 0]


def test_the_rest_is_everything_so_the_moon_choice_counts(client):
    match_id = start(client)
    saved(enter(client, match_id, [0, 0, None, 0, 0, 0], rest_to="2", moon="add"), match_id, 1)
    (hand,) = state(client, match_id)["hands"]
    assert hand["moon_shooter"] == "Cid" and hand["entry"]["moon"] == "add"
    assert totals(client, match_id) == [26, 26, 0, 26, 26, 26]


def test_shooting_the_moon_and_subtracting(client):
    match_id = start(client, moon_points="52")
    saved(enter(client, match_id, [0, 26, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0], moon="subtract"), match_id, 1)
    assert totals(client, match_id) == [0, -52, 0, 0, 0, 0]
    page = client.get(f"/m/{match_id}").text
    assert "shot the moon" in page and "<strong>-52</strong>" in page


def test_a_moon_choice_without_a_moon_is_refused_beside_the_choice(client):
    """docs/rules.md 3.4: a moon choice for a hand where nobody shot the moon is refused, not ignored."""
    match_id = start(client)
    answer = enter(client, match_id, [20, 6, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], moon="add")
    assert answer.status_code == 422
    page = answer.text
    assert error_beside(page, "moon") == ("Nobody took all 26 hearts and both Black Marias, so there is no moon to "
                                          "choose; leave it empty.")
    assert [value_of(page, f"hearts_{seat}") for seat in range(6)] == ["20", "6", "0", "0", "0", "0"]
    assert checked(page, "moon") == ["add"]
    assert state(client, match_id)["hands"] == []
    saved(enter(client, match_id, [20, 6, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0]), match_id, 1)
    assert totals(client, match_id) == [33, 19, 0, 0, 0, 0]


@pytest.mark.parametrize(("players", "hearts", "fewest"), [
    pytest.param(SIX, [0] * 6, 20, id="6 players, nothing typed"),
    pytest.param(SIX, [5, 5, 5, 4, 0, 0], 20, id="6 players, 19 hearts"),
    pytest.param(NAMES, [14] + [0] * 10, 15, id="11 players, 14 hearts"),
])
def test_hearts_that_do_not_account_for_the_hand_are_refused_beside_them(client, players, hearts, fewest):
    """docs/rules.md 3.3: a cancelled last trick loses at most N cards, so at least 26 - N hearts are taken."""
    match_id = start(client, players)
    answer = enter(client, match_id, hearts)
    assert answer.status_code == 422
    assert error_beside(answer.text, "hearts") == (f"The hearts add up to {sum(hearts)}, but at least {fewest} are "
                                                   f"taken: a cancelled last trick loses at most {len(players)} cards.")
    assert [value_of(answer.text, f"hearts_{seat}") for seat in range(len(players))] == [str(n) for n in hearts]
    assert state(client, match_id)["hands"] == []


def test_27_hearts_are_refused_with_the_reason_beside_the_hearts_and_the_typed_values_kept(client):
    match_id = start(client)
    answer = enter(client, match_id, [10, 10, 7, 0, 0, 0], [0, 1, 0, 0, 0, 1])
    assert answer.status_code == 422
    page = answer.text
    assert error_beside(page, "hearts") == "The hearts add up to 27; at most 26 can be taken."
    assert 'class="error banner"' not in page, "the reason sits beside the field, not in a banner"
    assert [value_of(page, f"hearts_{seat}") for seat in range(6)] == ["10", "10", "7", "0", "0", "0"]
    assert checked(page, "black_marias_1") == ["1"] and checked(page, "black_marias_5") == ["1"]
    assert "Hearts: 1 too many" in page and "Black Marias left: 0" in page
    assert state(client, match_id)["hands"] == []


def test_a_missing_moon_choice_is_refused_beside_the_choice_and_the_rest_stays_ticked(client):
    match_id = start(client)
    answer = enter(client, match_id, [0, 0, None, 0, 0, 0], rest_to="2")
    assert answer.status_code == 422
    page = answer.text
    assert error_beside(page, "moon") == "Cid shot the moon: choose subtract (from Cid) or add (to everyone else)."
    assert checked(page, "rest_to") == ["2"]
    assert 'data-shot="yes"' in page and "Cid took everything: which way do the points go?" in page
    assert "Gets the rest: 26 ♥, 2 Q♠" in page
    assert state(client, match_id)["hands"] == []


def test_too_many_black_marias_are_refused_beside_them(client):
    match_id = start(client)
    answer = enter(client, match_id, [5, 5, 4, 4, 4, 4], [1, 1, 1, 0, 0, 0])
    assert answer.status_code == 422
    assert error_beside(answer.text, "black_marias") == "The Black Marias add up to 3; at most 2 can be taken."


def test_rows_left_empty_with_too_few_hearts_get_the_rules_reason_first(client):
    match_id = start(client)
    answer = enter(client, match_id, [None, 3, None, 0, 0, 0])
    assert answer.status_code == 422
    assert error_beside(answer.text, "hearts") == ("The hearts add up to 3, but at least 20 are taken: a cancelled "
                                                   "last trick loses at most 6 cards.")
    assert value_of(answer.text, "hearts_0") == "" and value_of(answer.text, "hearts_1") == "3"


def test_the_rest_cannot_hide_too_many_hearts(client):
    match_id = start(client)
    answer = enter(client, match_id, [20, 7, 0, 0, 0, 0], rest_to="5")
    assert answer.status_code == 422
    assert error_beside(answer.text, "hearts") == "The hearts add up to 27; at most 26 can be taken."


@pytest.mark.parametrize(("typed", "reason"), [
    ("lots", "Not a valid integer value."),
    ("27", "Number must be between 0 and 26."),
    ("-1", "Number must be between 0 and 26."),
])
def test_a_row_that_is_not_a_count_is_refused_in_that_row(client, typed, reason):
    match_id = start(client)
    answer = enter(client, match_id, [0, typed, 0, 0, 0, 0])
    assert answer.status_code == 422
    assert f'<p class="error">Bob: {reason}</p>' in answer.text
    assert value_of(answer.text, "hearts_1") == typed


@pytest.mark.parametrize("extra", [
    pytest.param({"rest_to": "9"}, id="rest-to-an-empty-seat"),
    pytest.param({"rest_to": "x"}, id="rest-to-nonsense"),
    pytest.param({"black_marias_0": "x"}, id="marias-nonsense"),
    pytest.param({"black_marias_0": "3"}, id="marias-3"),
    pytest.param({"moon": "sideways"}, id="moon-nonsense"),
    pytest.param({"hearts_0": "1" * 40}, id="hearts-huge"),
])
def test_a_tampered_form_is_refused_not_crashed(client, extra):
    match_id = start(client)
    answer = post_form(client, f"/m/{match_id}/hands/new", {**hand_data([21, 0, 0, 0, 0, 0]), **extra},
                       token_from=TOKEN_PAGE)
    assert answer.status_code == 422
    assert state(client, match_id)["hands"] == []


def test_a_hand_without_the_form_token_is_refused(client):
    match_id = start(client)
    answer = client.post(f"/m/{match_id}/hands/new", data=hand_data([21, 0, 0, 0, 0, 0]))
    assert answer.status_code == 422
    assert 'class="error banner"' in answer.text
    assert state(client, match_id)["hands"] == []


# -- the score sheet ---------------------------------------------------------------------------


def test_the_match_page_shows_columns_running_totals_closest_and_the_next_hand(client):
    match_id = start(client, first_dealer="4")
    saved(enter(client, match_id, [5, 0, 7, 3, 2, 9], [1, 0, 0, 1, 0, 0]), match_id, 1)
    saved(enter(client, match_id, [0, 0, 0, 26, 0, 0], [0, 0, 0, 2, 0, 0], moon="add"), match_id, 2)
    assert totals(client, match_id) == [44, 26, 33, 16, 28, 35]
    page = client.get(f"/m/{match_id}").text
    assert "<thead><tr><th>#</th>" in page
    assert all(f'<th title="{name}">{name}</th>' in page for name in SIX)
    assert page.count('<tr id="hand-') == 2
    hand_1 = page[page.index('<tr id="hand-1">'):page.index('<tr id="hand-2">')]
    assert [int(n) for n in re.findall(r"Σ (-?\d+)", hand_1)] == [18, 0, 7, 16, 2, 9]
    hand_2 = page[page.index('<tr id="hand-2">'):page.index("</tbody>")]
    assert [int(n) for n in re.findall(r"<strong>(-?\d+)</strong>", hand_2)] == [26, 26, 26, 0, 26, 26]
    assert [int(n) for n in re.findall(r"Σ (-?\d+)", hand_2)] == [44, 26, 33, 16, 28, 35]
    assert "shot the moon" in hand_2 and "passed right" in hand_2
    assert re.findall(r'<td class="([^"]*)"', hand_1)[:6] == ["", "", "", "", "dealer", ""], "Eve dealt hand 1"
    assert re.findall(r'<td class="([^"]*)"', hand_2)[:6] == ["", "", "", " moon", "", "dealer"]
    assert "Closest to 150: Ann (106 to go)." in page
    assert re.findall(r'<li class="leader">\s*<span class="name"[^>]*>(\w+)</span>', page) == ["Dee"], "lowest leads"
    assert re.findall(r'<li class=" closest">\s*<span class="name"[^>]*>(\w+)</span>', page) == ["Ann"]
    assert "<dt>Deals</dt><dd>Ann</dd>" in page and "<dt>Leads</dt><dd>Bob</dd>" in page
    assert "<dt>Pass 3 cards</dt><dd>to the left</dd>" in page
    assert "<dt>Cards each</dt><dd>17</dd>" in page and "<dt>Left over</dt><dd>2</dd>" in page
    assert "Enter hand 3" in page


def test_editing_a_hand_starts_from_what_was_entered_and_recomputes(client):
    match_id = start(client)
    saved(enter(client, match_id, [0, 0, 26, 0, 0, 0], [0, 0, 2, 0, 0, 0], moon="subtract"), match_id, 1)
    saved(enter(client, match_id, [21, 0, 0, 0, 0, 0]), match_id, 2)
    form = client.get(f"/m/{match_id}/hands/1").text
    assert "Correcting hand 1" in form
    assert value_of(form, "hearts_2") == "26" and checked(form, "black_marias_2") == ["2"]
    assert checked(form, "moon") == ["subtract"]
    assert "Ann deals 17 cards each" in form, "the hand keeps its own dealer"
    saved(enter(client, match_id, [0, 0, 26, 0, 0, 0], [0, 0, 2, 0, 0, 0], number=1, moon="add"), match_id, 1)
    assert totals(client, match_id) == [47, 26, 0, 26, 26, 26]
    assert len(state(client, match_id)["hands"]) == 2


def test_a_refused_correction_changes_nothing(client):
    match_id = start(client)
    saved(enter(client, match_id, [23, 0, 0, 0, 0, 0]), match_id, 1)
    answer = enter(client, match_id, [30, 0, 0, 0, 0, 0], number=1)
    assert answer.status_code == 422
    assert totals(client, match_id) == [23, 0, 0, 0, 0, 0]


def test_undo_removes_only_the_last_hand(client):
    match_id = start(client)
    saved(enter(client, match_id, [23, 0, 0, 0, 0, 0]), match_id, 1)
    saved(enter(client, match_id, [0, 24, 0, 0, 0, 0]), match_id, 2)
    page = client.get(f"/m/{match_id}").text
    assert page.count("/undo") == 1 and f"/m/{match_id}/hands/2/undo" in page
    refused = post_form(client, f"/m/{match_id}/hands/1/undo", {}, token_from=TOKEN_PAGE)
    assert refused.status_code == 302 and len(state(client, match_id)["hands"]) == 2
    answer = post_form(client, f"/m/{match_id}/hands/2/undo", {}, token_from=TOKEN_PAGE)
    assert answer.status_code == 302
    assert totals(client, match_id) == [23, 0, 0, 0, 0, 0]
    assert "Hand 2 was undone." in client.get(f"/m/{match_id}").text


def test_the_end_of_the_game_shows_the_winners_and_takes_no_more_hands(client):
    made = joined(client, target=150)
    reach(client, made, [140, 120, 98, 131, 77, 104])
    # docs/rules.md section 3.5 example: points 6 13 0 19 14 0 end the game; the 5th player wins.
    number = len(state(client, made["id"])["hands"]) + 1
    saved(enter(client, made["id"], [6, 0, 0, 6, 14, 0], [0, 1, 0, 1, 0, 0]), made["id"], number)
    assert totals(client, made["id"]) == [146, 133, 98, 150, 91, 104]
    page = client.get(f"/m/{made['id']}").text
    assert "Winner: Eve" in page
    assert "The game is over: Dee reached 150." in page
    assert "Enter hand" not in page and 'id="next"' not in page
    closed = client.get(f"/m/{made['id']}/hands/new")
    assert closed.status_code == 302
    assert "This match is finished" in client.get(closed.headers["Location"]).text


def test_a_tie_shares_the_win(client):
    made = joined(client, target=100)
    reach(client, made, [90, 50, 10, 10, 60, 70])
    number = len(state(client, made["id"])["hands"]) + 1
    saved(enter(client, made["id"], [10, 0, 5, 5, 0, 0]), made["id"], number)
    assert "Winners: Cid, Dee" in client.get(f"/m/{made['id']}").text


def test_a_watcher_without_the_key_reads_but_cannot_write(app, client):
    match_id = start(client)
    saved(enter(client, match_id, [23, 0, 0, 0, 0, 0]), match_id, 1)
    watcher = app.test_client()
    page = watcher.get(f"/m/{match_id}")
    assert page.status_code == 200
    text = page.text
    assert "You are watching." in text and "Σ 23" in text
    assert "Enter hand" not in text and "/hands/1" not in text and "Undo" not in text
    assert "join?key=" not in text, "a watcher never sees the edit link"
    assert watcher.get(f"/m/{match_id}/hands/new").status_code == 403
    assert watcher.get(f"/m/{match_id}/hands/1").status_code == 403
    token = post_form(watcher, f"/m/{match_id}/hands/new", hand_data([21, 0, 0, 0, 0, 0]), token_from=TOKEN_PAGE)
    assert token.status_code == 403
    assert post_form(watcher, f"/m/{match_id}/hands/1/undo", {}, token_from=TOKEN_PAGE).status_code == 403
    assert totals(client, match_id) == [23, 0, 0, 0, 0, 0]


def test_an_unknown_game_or_hand_is_404(client):
    assert client.get("/m/no-such-match/hands/new").status_code == 404
    match_id = start(client)
    assert client.get(f"/m/{match_id}/hands/1").status_code == 404
