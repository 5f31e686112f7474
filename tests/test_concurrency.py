"""Phones at the same table writing at the same moment: real threads, each with its own test client.

The app runs on a database file (SQLite, WAL) or, in the PostgreSQL run, on PostgreSQL; threads
start together behind a barrier so that their requests really overlap.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer, create_match
from helpers.forms import TOKEN

SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
PHONES = 8
HANDS_EACH = 10
ROUNDS = 15


def race(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run work(0..count-1) in as many threads, released at the same instant; return the results in order."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count
    failures: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = work(index)
        except BaseException as err:  # noqa: BLE001 - reported in the main thread
            failures.append(err)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a phone never got an answer"
    if failures:
        raise failures[0]
    return results


def hearts_counts(first: int, second: int) -> list[int]:
    """Hearts counts that name who sent them: first to Ann, second to Bob, the rest of the 26 shared by the others."""
    rest = 26 - first - second
    return [first, second, *(rest // 4 + (seat < rest % 4) for seat in range(4))]


def hearts_entry(first: int, second: int) -> dict[str, Any]:
    """A legal Hearts hand whose counts name who sent it: first hearts to Ann, second to Bob."""
    return {"hearts": dict(zip(SIX, hearts_counts(first, second))), "black_marias": dict.fromkeys(SIX, 0)}


def state(client: FlaskClient, match_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/v1/matches/{match_id}")
    assert answer.status_code == 200
    return answer.get_json()


def hearts_match(client: FlaskClient) -> dict[str, Any]:
    return create_match(client, "hearts", SIX, {"target": 1000})


# -- the API ---------------------------------------------------------------------------------


def test_two_phones_sending_the_same_hand_number_one_wins_the_other_hears_already_recorded(app: Flask):
    made = hearts_match(app.test_client())
    phones = [app.test_client(), app.test_client()]
    url = f"/api/v1/matches/{made['id']}/hands"
    for number in range(1, ROUNDS + 1):
        def send(index: int, number: int = number):
            body = {**hearts_entry(index + 1, number), "number": number}
            return phones[index].post(url, json=body, headers=bearer(made["edit_key"]))

        answers = race(2, send)
        assert sorted(answer.status_code for answer in answers) == [201, 409], [a.get_json() for a in answers]
        lost = next(answer for answer in answers if answer.status_code == 409)
        assert lost.get_json()["error"]["message"] == f"Hand {number} is already recorded."
        won = next(index for index, answer in enumerate(answers) if answer.status_code == 201)
        hands = state(phones[0], made["id"])["hands"]
        assert [hand["number"] for hand in hands] == list(range(1, number + 1))
        assert hands[-1]["entry"]["hearts"]["Ann"] == won + 1  # the winner's hand, not a mix
    history = phones[0].get(f"/api/v1/matches/{made['id']}/history").get_json()["changes"]
    assert sorted(change["number"] for change in history) == list(range(1, ROUNDS + 1))


def test_eight_phones_appending_at_once_lose_nothing_and_number_without_gaps(app: Flask):
    made = hearts_match(app.test_client())
    url = f"/api/v1/matches/{made['id']}/hands"

    def append(phone: int) -> list[int]:
        client = app.test_client()
        statuses = []
        for hand in range(HANDS_EACH):
            answer = client.post(url, json=hearts_entry(phone, hand), headers=bearer(made["edit_key"]))
            statuses.append(answer.status_code)
        return statuses

    results = race(PHONES, append)
    assert all(statuses == [201] * HANDS_EACH for statuses in results), results
    hands = state(app.test_client(), made["id"])["hands"]
    assert [hand["number"] for hand in hands] == list(range(1, PHONES * HANDS_EACH + 1))
    sent = [(hand["entry"]["hearts"]["Ann"], hand["entry"]["hearts"]["Bob"]) for hand in hands]
    assert Counter(sent) == Counter((phone, hand) for phone in range(PHONES) for hand in range(HANDS_EACH))
    for phone in range(PHONES):  # each phone's hands in the order it sent them
        assert [hand for who, hand in sent if who == phone] == list(range(HANDS_EACH))
    totals = state(app.test_client(), made["id"])["totals"]
    assert totals["Ann"] == HANDS_EACH * sum(range(PHONES)) and totals["Bob"] == PHONES * sum(range(HANDS_EACH))
    history = app.test_client().get(f"/api/v1/matches/{made['id']}/history").get_json()["changes"]
    assert len(history) == PHONES * HANDS_EACH and {change["action"] for change in history} == {"record"}


# -- the browser -------------------------------------------------------------------------------


def joined_phone(app: Flask, made: dict[str, Any]) -> FlaskClient:
    phone = app.test_client()
    assert phone.get(made["edit_url"]).status_code == 302
    return phone


def hearts_form(first: int, second: int) -> dict[str, str]:
    counts = hearts_counts(first, second)
    return {**{f"hearts_{seat}": str(n) for seat, n in enumerate(counts)},
            **{f"black_marias_{seat}": "0" for seat in range(len(SIX))}}


def opened_form(phone: FlaskClient, path: str) -> dict[str, str]:
    """What the hand page hands the phone: its CSRF token and the hidden hand number."""
    page = phone.get(path)
    assert page.status_code == 200
    number = page.text.split('name="number" value="', 1)[1].split('"', 1)[0]
    return {"csrf_token": TOKEN.search(page.text)[1], "number": number}


def shown(phone: FlaskClient, answer) -> str:
    """What the phone shows after sending a form: the form again, or the page it was sent on to."""
    assert answer.status_code in (302, 422), answer.status_code
    return phone.get(answer.headers["Location"]).text if answer.status_code == 302 else answer.text


def one_told_already_recorded(phones: list[FlaskClient], answers: list[Any], number: int) -> int:
    """Check that exactly one phone was told the hand is already recorded; return the other one."""
    told = [f"Hand {number} is already recorded." in shown(phone, answer) for phone, answer in zip(phones, answers)]
    assert told.count(True) == 1, [answer.status_code for answer in answers]
    return told.index(False)


def test_two_phones_saving_the_same_hand_form_at_once(app: Flask):
    made = hearts_match(app.test_client())
    phones = [joined_phone(app, made), joined_phone(app, made)]
    path = f"/m/{made['id']}/hands/new"
    for number in range(1, ROUNDS + 1):
        forms = [opened_form(phone, path) for phone in phones]
        assert [form["number"] for form in forms] == [str(number)] * 2

        def save(index: int, number: int = number):
            return phones[index].post(path, data={**forms[index], **hearts_form(index + 1, number)})

        answers = race(2, save)
        won = one_told_already_recorded(phones, answers, number)
        hands = state(phones[0], made["id"])["hands"]
        assert len(hands) == number
        assert hands[-1]["entry"]["hearts"]["Ann"] == won + 1


def test_a_hand_form_sent_after_another_phone_saved_that_hand_says_already_recorded(app: Flask):
    """The slower of two phones: its page still shows hand 1, which the other phone has just saved."""
    four = ["Ann", "Bob", "Cid", "Dee"]
    for game, query, data, players in (
        ("hearts", "", hearts_form(3, 4), SIX),
        ("barbu", "?variant=no_tricks", {"tricks_0": "4", "tricks_1": "3", "tricks_2": "5", "tricks_3": "1"}, four),
        ("kozyol", "", {"side": "0", "mode": "points", "points": "75"}, four),
    ):
        made = create_match(app.test_client(), game, players, {"first_declarer": "Ann"} if game == "barbu" else None)
        first, second = joined_phone(app, made), joined_phone(app, made)
        path = f"/m/{made['id']}/hands/new{query}"
        forms = [opened_form(first, path), opened_form(second, path)]
        assert first.post(path, data={**forms[0], **data}).status_code == 302
        late = second.post(path, data={**forms[1], **data})
        assert "Hand 1 is already recorded." in shown(second, late), game
        assert len(state(first, made["id"])["hands"]) == 1, game


def test_two_phones_racing_with_the_same_barbu_contract(app: Flask):
    made = create_match(app.test_client(), "barbu", ["Ann", "Bob", "Cid", "Dee"], {"first_declarer": "Ann"})
    phones = [joined_phone(app, made), joined_phone(app, made)]
    tricks = {"tricks_0": "4", "tricks_1": "3", "tricks_2": "5", "tricks_3": "1"}
    data = {"no_tricks": tricks, "trumps": tricks,
            "no_queens": {"queens_0": "1", "queens_1": "0", "queens_2": "1", "queens_3": "2"},
            "dominoes": {"place_0": "2", "place_1": "0", "place_2": "3", "place_3": "1"},
            "barbu": {"king_of_hearts": "3"}}
    for number, contract in enumerate(data, 1):
        path = f"/m/{made['id']}/hands/new?variant={contract}"
        forms = [opened_form(phone, path) for phone in phones]
        answers = race(2, lambda index: phones[index].post(path, data={**forms[index], **data[contract]}))
        one_told_already_recorded(phones, answers, number)
        assert [hand["contract"] for hand in state(phones[0], made["id"])["hands"]] == list(data)[:number]
