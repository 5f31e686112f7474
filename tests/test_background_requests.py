"""A request a page makes in the background (a live redraw, a page the service worker fetches ahead) is no visit.

It never writes the phone's session, and it leaves a message flashed for the page the phone is about to show
to that page. On a phone's first page, drawn before its service worker ran, the worker fetches that same page
ahead as soon as it runs (static/js/installable.js); a form sent meanwhile ("Ann" added to the roster, a member
link opened) redirects to a page whose message the fetch ahead took, and whose cookie it sent back.
"""

from __future__ import annotations

import pytest
from flask import Flask, session
from flask.testing import FlaskClient

from helpers.clubs import admin_post, club_of, member_key, new_club
from scorekeeper.web.session_cookie import BACKGROUND

ADDED = "Ann joined the roster."


@pytest.fixture(params=BACKGROUND)
def background(request: pytest.FixtureRequest) -> dict[str, str]:
    """The headers of one kind of background request, as the page's script or the worker sends them."""
    return {"Accept": "text/html", request.param: "1"}


def test_a_page_fetched_in_the_background_leaves_the_message_to_the_page_the_form_leads_to(
        client: FlaskClient, background: dict[str, str]):
    club = new_club(client)
    roster = f"/c/{club}/admin/players"
    sent = admin_post(client, club, "players", "add", {"name": "Ann"})
    assert sent.status_code == 302 and sent.headers["Location"] == f"{roster}?adding=1"
    fetched = client.get(roster, headers=background)  # before the phone follows the redirect
    assert fetched.status_code == 200 and "Ann" in fetched.text, "the page drawn in the background is today's"
    assert ADDED not in fetched.text, "a page drawn for no one, and perhaps kept for offline, shows no message"
    assert "Set-Cookie" not in fetched.headers, "a background answer sends back the cookie it left with"
    shown = client.get(sent.headers["Location"])
    assert shown.text.count(ADDED) == 1
    assert ADDED not in client.get(roster).text, "shown once"


def test_a_member_link_says_whose_phone_this_is_past_a_page_fetched_in_the_background(
        app: Flask, client: FlaskClient, background: dict[str, str]):
    club = club_of(client, ["Ann", "Bob", "Cid", "Dee"])
    phone = app.test_client()
    assert phone.get(f"/c/{club}").status_code == 200  # the phone's first page: its worker will fetch it again
    opened = phone.get(f"/c/{club}/member/{member_key(app, club, 3)}")
    assert opened.status_code == 302
    said = "This phone is Cid at Les Dimanches."
    fetched = phone.get(f"/c/{club}", headers=background)
    assert fetched.status_code == 200 and said not in fetched.text and "Set-Cookie" not in fetched.headers
    club_page = phone.get(opened.headers["Location"])
    assert club_page.text.count(said) == 1


@pytest.mark.parametrize("change", ["a key", "a message", "permanent"])
def test_no_session_written_in_the_background_reaches_the_phone(app: Flask, background: dict[str, str], change: str):
    """Whatever a view does to the session of a background request, the answer carries no cookie; a visit's does."""
    def answer(headers: dict[str, str]):
        with app.test_request_context("/", headers=headers):
            if change == "a key":
                session["clubs"] = ["x"]
            elif change == "a message":
                session["_flashes"] = [("message", "Saved.")]
            else:
                session.permanent = True
                session.modified = True
            response = app.make_response("page")
            app.session_interface.save_session(app, session, response)  # type: ignore[arg-type]
            return response
    assert "Set-Cookie" not in answer(background).headers
    assert "Set-Cookie" in answer({"Accept": "text/html"}).headers
