"""A change refused because its match locked (or its evening closed) while the form was open keeps what was
typed: the 403 says why, shows the figures this phone sent and leads back to the match; the phone's outbox
(JSON) gets the same sentence and lines."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.evening_tables import TwoTables
from helpers.forms import csrf_token
from helpers.i18n import seen, translated

LOCKED = "Agreed by {names}: locked. The club's admin can change it."
CLOSED = "The evening of this match (Friday) is closed: only the club's admin can change it."


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> TwoTables:
    return TwoTables(app, client, agree_to_lock=2)


def deal(phone: FlaskClient, points: int, **more: str) -> dict[str, str]:
    """The deal form as typed: team 0's pile counted at these card points."""
    return {"csrf_token": csrf_token(phone, "/clubs/new"), "side": "0", "mode": "points", "points": str(points),
            **more}


def names_of(night: TwoTables, table: dict) -> str:
    players = night.client.get(f"/api/v1/matches/{table['id']}").get_json()["players"]
    return ", ".join(players[:2])


def test_a_correction_saved_just_after_the_lock_shows_the_reason_the_figures_and_the_way_back(night: TwoTables):
    phone = night.at_table(night.done)
    assert phone.get(f"/m/{night.done['id']}/hands/1").status_code == 200  # the form opened before the lock
    night.agreed(night.done)
    refused = phone.post(f"/m/{night.done['id']}/hands/1", data=deal(phone, 20))
    assert refused.status_code == 403
    page = seen(refused.text)
    assert LOCKED.format(names=names_of(night, night.done)) in page
    assert "Not saved: what this phone sent" in page and "card points: 20 : 100" in page
    assert f'<a class="button primary" href="/m/{night.done["id"]}">Back to the match</a>' in refused.text


def test_a_deal_saved_just_after_the_evening_closed_keeps_its_figures_too(night: TwoTables):
    phone = night.at_table(night.playing)
    assert phone.get(f"/m/{night.playing['id']}/hands/new").status_code == 200
    assert night.close(playing="close").status_code == 302
    refused = phone.post(f"/m/{night.playing['id']}/hands/new", data=deal(phone, 45, number="1", trump_suit="clubs"))
    assert refused.status_code == 403
    page = seen(refused.text)
    assert CLOSED in page and "card points: 45 : 75" in page and "trump suit: ♣ Clubs" in page
    assert f'href="/m/{night.playing["id"]}">Back to the match</a>' in refused.text
    opened = phone.get(f"/m/{night.playing['id']}/hands/new")  # opening the form again: why, and the way back
    assert opened.status_code == 403 and CLOSED in seen(opened.text) and "Back to the match" in seen(opened.text)
    assert "Not saved" not in seen(opened.text)


def test_figures_the_rules_refuse_are_kept_as_typed(night: TwoTables):
    phone = night.at_table(night.playing)
    assert night.close(playing="close").status_code == 302
    refused = phone.post(f"/m/{night.playing['id']}/hands/new", data=deal(phone, 119, number="1"))
    assert refused.status_code == 403 and "Card points in the pile: 119" in seen(refused.text)


def test_the_outbox_hears_the_reason_and_what_it_sent(night: TwoTables):
    phone = night.at_table(night.done)
    night.agreed(night.done)
    refused = phone.post(f"/m/{night.done['id']}/hands/1", data=deal(phone, 20),
                         headers={"Accept": "application/json"})
    assert refused.status_code == 403
    body = refused.get_json()
    assert body["error"]["message"] == LOCKED.format(names=names_of(night, night.done))
    assert body["yours"] == ["card points: 20 : 100"]


def test_an_undo_refused_leads_back_to_the_match(night: TwoTables):
    phone = night.at_table(night.done)
    night.agreed(night.done)
    refused = phone.post(f"/m/{night.done['id']}/hands/1/undo", data={"csrf_token": csrf_token(phone, "/clubs/new")})
    assert refused.status_code == 403 and "Back to the match" in seen(refused.text)
    assert "Not saved" not in seen(refused.text)


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_refusal_in_french_and_russian(night: TwoTables, lang: str):
    phone = night.at_table(night.done)
    phone.get(f"/language/{lang}")
    night.agreed(night.done)
    page = seen(phone.post(f"/m/{night.done['id']}/hands/1", data=deal(phone, 20)).text)
    for english in ("Not saved: what this phone sent", "Back to the match",
                    "Show these figures to the club's organiser: only they can still change this match."):
        assert translated(lang, english) in page and english not in page
