"""An edit link that was replaced says so, and offers to watch instead of a dead end."""

from __future__ import annotations

from helpers.api import bearer, create_match

REPLACED = "The edit link this phone opened has been replaced by a newer one"
STALE = "This edit link no longer works: it was replaced by a newer one, or it is incomplete."
NO_KEY = "Only phones that opened the edit link can enter hands."


def test_a_phone_whose_link_was_replaced_is_told_so_and_offered_the_watch_view(app):
    made = create_match(app.test_client())
    phone = app.test_client()
    assert phone.get(made["edit_url"]).status_code == 302
    assert phone.get(f"/m/{made['id']}/hands/new").status_code == 200
    rotated = app.test_client().post(f"/api/v1/matches/{made['id']}/key", headers=bearer(made["edit_key"]))
    assert rotated.status_code == 200
    answer = phone.get(f"/m/{made['id']}/hands/new?variant=barbu")
    assert answer.status_code == 403
    assert REPLACED in answer.text and NO_KEY not in answer.text
    assert f'href="/m/{made["id"]}"' in answer.text and "Watch the match" in answer.text
    assert phone.get(f"/m/{made['id']}").status_code == 200  # watching still works


def test_an_old_edit_link_opened_later_says_it_no_longer_works(app):
    made = create_match(app.test_client())
    app.test_client().post(f"/api/v1/matches/{made['id']}/key", headers=bearer(made["edit_key"]))
    answer = app.test_client().get(made["edit_url"])
    assert answer.status_code == 403
    assert STALE in answer.text and f'href="/m/{made["id"]}"' in answer.text


def test_a_phone_that_never_had_the_link_still_reads_that_it_needs_one(app):
    made = create_match(app.test_client())
    answer = app.test_client().get(f"/m/{made['id']}/hands/new")
    assert answer.status_code == 403 and NO_KEY in answer.text and REPLACED not in answer.text


def test_doubles_are_asked_in_calling_order_from_the_declarers_left(app):
    client = app.test_client()
    made = create_match(client, options={"first_declarer": "Cid"})
    assert client.get(made["edit_url"]).status_code == 302
    form = client.get(f"/m/{made['id']}/hands/new?variant=no_queens").text
    doublers = [form.index(f"{name} doubles") for name in ("Dee", "Ann", "Bob")]
    assert doublers == sorted(doublers), "Dee (left of Cid), then Ann, then Bob"
    assert "Cid doubles" not in form  # the declarer only redoubles
    first_row = form[doublers[0]:doublers[1]]
    targets = [first_row.index(f'<legend title="{name}">{name}') for name in ("Ann", "Bob", "Cid")]
    assert targets == sorted(targets), "whom Dee may double, in the same order, the declarer last"
