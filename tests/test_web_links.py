"""The web side of capability links, one module for a match's edit link and a club's admin link."""

from __future__ import annotations

import pytest
from flask import Flask, session

from scorekeeper.web import links

KINDS = [links.MATCH, links.CLUB]


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_every_page_a_kind_of_link_names_is_served(app: Flask, kind: links.Kind):
    targets = [kind.opens, kind.joins, kind.qr, kind.confirm, kind.rotate, kind.back, kind.done]
    assert [target for target in targets if target.partition("#")[0] not in app.view_functions] == []


@pytest.mark.parametrize(("kind", "listed", "keys"), [(links.MATCH, "matches", "keys"),
                                                      (links.CLUB, "clubs", "club_keys")], ids=["match", "club"])
def test_the_phone_keeps_its_links_under_the_names_its_cookie_already_holds(app: Flask, kind, listed, keys):
    with app.test_request_context():
        links.remember(kind, "first", "k1")
        links.remember(kind, "second")
        assert (session[listed], session[keys]) == (["second", "first"], {"first": "k1"})
        assert links.opened(kind) == ["second", "first"]
        assert links.holds_key(kind, "first") and not links.holds_key(kind, "second")


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_an_id_that_drops_off_the_list_takes_its_key_along(app: Flask, kind: links.Kind):
    with app.test_request_context():
        links.remember(kind, "oldest", "key")
        for number in range(kind.kept):
            links.remember(kind, f"id{number}")
        assert "oldest" not in links.opened(kind) and not links.holds_key(kind, "oldest")
        assert len(links.opened(kind)) == kind.kept


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_match_seen_again_renews_the_cookie_and_a_club_does_not(app: Flask, kind: links.Kind):
    with app.test_request_context():
        links.remember(kind, "same")
        session.modified = False
        links.remember(kind, "same")
        assert session.modified is kind.renews
