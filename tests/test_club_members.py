"""Who is who at a club: a member proves it with their own link; a name a phone claims proves nothing.

Tried as a stranger would, with the public club link or a match's watch or edit link: no table's edit key
from a claimed name, no answer that counts for a draw, no agreement or hand's OK for someone else's seat,
and the names a stranger's match brought go with it when the admin deletes it. On both databases.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.agreements import asking_club, finished_match
from helpers.api import bearer
from helpers.club_matches import FOUR
from helpers.clubs import QUICK, TEAM_1_LOSES, member as member_phone, member_key
from helpers.forms import csrf_token
from helpers.i18n import seen

API = "/api/v1"
EIGHT = [*FOUR, "Eve", "Fay", "Gus", "Hal"]
MEMBER = "Club-Member-Key"


def roster_ids(app: Flask, club: str) -> dict[str, int]:
    from scorekeeper.club import service

    with app.app_context():
        return {player.name: player.id for player in service.roster(service.find(club))}


class Night:
    """A club of eight (made through the API), today's evening with everyone marked present, round 1 drawn."""

    def __init__(self, app: Flask, client: FlaskClient):
        from scorekeeper.club import evenings, rounds, service

        self.app = app
        made = client.post(f"{API}/clubs", json={"name": "Thursday"}).get_json()
        self.club, self.admin_key = made["id"], made["admin_key"]
        for name in EIGHT:
            assert client.post(f"{API}/clubs/{self.club}/players", json={"name": name},
                               headers=bearer(self.admin_key)).status_code == 201
        self.ids = roster_ids(app, self.club)
        with app.app_context():
            club = service.find(self.club)
            evening = evenings.schedule(club, service.today(club), "19:30", "", "")[0]
            self.evening = evening.id
            for player in self.ids.values():
                evenings.mark_present(club, evening, player, True)
            seed, drawn = rounds.propose(club, evening, "kozyol", 7)
            rounds.confirm(club, evening, drawn, seed)
            (_made, tables), = rounds.rounds_of(evening)
            self.tables = [(table.number, list(table.seat_ids), match.public_id) for table, match in tables]
            self.table_keys = {match.public_id: rounds.seat_key(match) for _table, match in tables}

    def table_link(self, number: int) -> str:
        return f"/c/{self.club}/evenings/{self.evening}/rounds/1/tables/{number}"

    def holds_key(self, phone: FlaskClient, match: str) -> bool:
        with phone.session_transaction() as session:
            return match in session.get("keys", {})


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> Night:
    return Night(app, client)


# -- 1. a claim is not a proof ----------------------------------------------------------------------------


def test_a_name_claimed_from_the_club_link_gives_no_table_and_no_answer(night: Night, app: Flask):
    number, seats, match = night.tables[0]
    stranger = app.test_client()
    assert stranger.get(f"/c/{night.club}").status_code == 200  # the club link stays public
    token = csrf_token(stranger, "/clubs/new")
    claimed = stranger.post(f"/c/{night.club}/me", data={"csrf_token": token, "player": str(seats[0])})
    assert claimed.status_code == 403 and "Saying a name is not enough" in seen(claimed.text)
    opened = stranger.get(night.table_link(number))
    assert opened.status_code == 302 and opened.headers["Location"].endswith(f"/m/{match}")
    assert not night.holds_key(stranger, match)
    assert '<form method="post"' not in stranger.get(f"/m/{match}").text
    said = stranger.post(f"/c/{night.club}/evenings/{night.evening}/answer", data={"csrf_token": token, "coming": "in"})
    assert said.status_code == 403 and "member link" in seen(said.text)


def test_a_watch_link_leads_to_the_club_but_not_to_the_tables_edit_key(night: Night, app: Flask):
    number, _seats, match = night.tables[0]
    watcher = app.test_client()
    page = watcher.get(f"/m/{match}").text
    assert f"/c/{night.club}" in page  # the watch page links its club
    watcher.get(night.table_link(number))
    assert not night.holds_key(watcher, match)
    assert watcher.post(f"{API}/matches/{match}/hands", json={"points": [75, 45]}).status_code == 401


def test_a_member_link_opens_that_members_table_and_no_other(night: Night, app: Flask):
    (first, seats, match), (second, _other_seats, other) = night.tables[:2]
    member = member_phone(app, night.club, seats[2])
    page = seen(member.get(f"/c/{night.club}").text)
    names = {player: name for name, player in night.ids.items()}
    assert f"You are {names[seats[2]]}." in page and f"Round 1: table {first}, seat 3" in page
    member.get(night.table_link(first))
    assert night.holds_key(member, match)
    member.get(night.table_link(second))
    assert not night.holds_key(member, other)


def test_a_new_member_link_replaces_the_old_one_on_every_phone(night: Night, app: Flask):
    number, seats, match = night.tables[0]
    old = member_key(app, night.club, seats[0])
    phone = app.test_client()
    assert phone.get(f"/c/{night.club}/member/{old}").status_code == 302
    member_key(app, night.club, seats[0])  # the admin makes a new one
    stale = app.test_client().get(f"/c/{night.club}/member/{old}")
    assert stale.status_code == 403 and "no longer works" in seen(stale.text)
    phone.get(night.table_link(number))
    assert not night.holds_key(phone, match)  # the phone that opened the old link is nobody now
    for wrong in ("x", "A" * 32, "%00", "a" * 300):
        assert app.test_client().get(f"/c/{night.club}/member/{wrong}").status_code in (403, 404)


def test_the_admin_and_the_table_cards_qr_code_remain_ways_in(night: Night, app: Flask, client: FlaskClient):
    number, _seats, match = night.tables[0]
    admin = app.test_client()
    assert admin.get(f"/c/{night.club}/join/{night.admin_key}").status_code == 302
    admin.get(night.table_link(number))
    assert night.holds_key(admin, match)
    card = app.test_client()  # scanned the table card's QR code: the table's edit link
    assert card.get(f"/m/{match}/join?key={night.table_keys[match]}").status_code == 302
    assert night.holds_key(card, match)


def test_only_the_admin_makes_member_links_shown_once_with_a_qr_code(night: Night, app: Flask):
    ann = night.ids["Ann"]
    stranger = app.test_client()
    token = csrf_token(stranger, "/clubs/new")
    assert stranger.post(f"/c/{night.club}/admin/players/member-link",
                         data={"csrf_token": token, "player": str(ann)}).status_code == 403
    admin = app.test_client()
    admin.get(f"/c/{night.club}/join/{night.admin_key}")
    roster = seen(admin.get(f"/c/{night.club}/admin/members").text)
    assert "Members' own links" in roster and "Make a link" in roster
    shown = admin.post(f"/c/{night.club}/admin/players/member-link",
                       data={"csrf_token": csrf_token(admin, f"/c/{night.club}/admin/members"), "player": str(ann)})
    assert shown.status_code == 200 and "no-store" in shown.headers["Cache-Control"]
    link = re.search(r'id="member-link"[^>]*value="([^"]+)"', shown.text)[1]
    assert "<svg" in shown.text and "Member link of Ann" in seen(shown.text)
    phone = app.test_client()
    assert phone.get(urlsplit(link).path).status_code == 302
    assert "You are Ann." in seen(phone.get(f"/c/{night.club}").text)
    assert "New link" in seen(admin.get(f"/c/{night.club}/admin/members").text)


def test_the_api_gives_a_member_key_to_the_admin_only(night: Night, client: FlaskClient):
    ann = night.ids["Ann"]
    url = f"{API}/clubs/{night.club}/players/{ann}/member-key"
    assert client.post(url).status_code == 401
    assert client.post(url, headers=bearer("wrong")).status_code == 403
    made = client.post(url, headers=bearer(night.admin_key))
    assert made.status_code == 201 and made.get_json()["name"] == "Ann"
    assert f"/c/{night.club}/member/{made.get_json()['member_key']}" in made.get_json()["member_url"]
    assert client.post(f"{API}/clubs/{night.club}/players/999999/member-key",
                       headers=bearer(night.admin_key)).status_code == 404


# -- 2. attendance belongs to the member --------------------------------------------------------------------


@pytest.fixture
def planned(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """A club of four with an evening planned in two days, made through the API."""
    from scorekeeper.club import evenings, service

    made = client.post(f"{API}/clubs", json={"name": "Thursday"}).get_json()
    for name in FOUR:
        client.post(f"{API}/clubs/{made['id']}/players", json={"name": name}, headers=bearer(made["admin_key"]))
    with app.app_context():
        club = service.find(made["id"])
        evening = evenings.schedule(club, service.today(club).fromordinal(service.today(club).toordinal() + 2),
                                    "19:30", "", "")[0]
        made["evening"] = evening.id
    made["ids"] = roster_ids(app, made["id"])
    return made


def counted(app: Flask, club: str, evening: int) -> tuple[list[str], list[int]]:
    """Who the evening counts as coming, and the ids the draw would seat."""
    from scorekeeper.club import evenings, service

    with app.app_context():
        found = service.find(club)
        night = evenings.evening_of(found, evening)
        return [p.name for p in evenings.answers(found, night).coming], evenings.present_ids(night)


def test_a_strangers_answer_for_ann_does_not_count_and_anns_own_phone_is_not_refused(
        planned: dict[str, Any], app: Flask, client: FlaskClient):
    club, evening, ann = planned["id"], planned["evening"], planned["ids"]["Ann"]
    url = f"{API}/clubs/{club}/planned-evenings/{evening}/answers"
    stranger = client.post(url, json={"player": ann, "coming": True})
    assert stranger.status_code == 200 and stranger.get_json()["proven"] is False
    assert counted(app, club, evening) == ([], [])
    phone = member_phone(app, club, ann)
    said = phone.post(f"/c/{club}/evenings/{evening}/answer",
                      data={"csrf_token": csrf_token(phone, f"/c/{club}"), "coming": "out"})
    assert said.status_code == 302
    assert counted(app, club, evening)[0] == []
    assert phone.post(f"/c/{club}/evenings/{evening}/answer",
                      data={"csrf_token": csrf_token(phone, f"/c/{club}"), "coming": "in"}).status_code == 302
    assert counted(app, club, evening) == (["Ann"], [ann])
    again = client.post(url, json={"player": ann, "coming": False, "answer_key": stranger.get_json()["answer_key"]})
    assert again.status_code == 403 and "own member link" in again.get_json()["error"]["message"]
    assert counted(app, club, evening) == (["Ann"], [ann])


def test_a_member_key_answers_for_its_member_alone_and_the_admin_for_anyone(
        planned: dict[str, Any], app: Flask, client: FlaskClient):
    club, evening, ids = planned["id"], planned["evening"], planned["ids"]
    url = f"{API}/clubs/{club}/planned-evenings/{evening}/answers"
    key = member_key(app, club, ids["Bob"])
    mine = client.post(url, json={"coming": True}, headers={MEMBER: key})
    assert mine.status_code == 200 and mine.get_json()["name"] == "Bob" and mine.get_json()["proven"] is True
    assert client.post(url, json={"player": ids["Cid"], "coming": True}, headers={MEMBER: key}).status_code == 403
    assert client.post(url, json={"player": ids["Cid"], "coming": True}, headers={MEMBER: "made-up"}).status_code == 403
    by_admin = client.post(url, json={"player": ids["Dee"], "coming": True}, headers=bearer(planned["admin_key"]))
    assert by_admin.status_code == 200 and by_admin.get_json()["proven"] is True
    assert counted(app, club, evening)[0] == ["Bob", "Dee"]


# -- 3. an agreement is one person --------------------------------------------------------------------------


def agree_api(client: FlaskClient, match: dict[str, Any], seat: int | None, key: str | None = None, phone: str = ""):
    body: dict[str, Any] = {} if seat is None else {"seat": seat}
    if phone:
        body["phone"] = phone
    headers = {**bearer(match["edit_key"]), **({MEMBER: key} if key else {})}
    return client.post(f"{API}/matches/{match['id']}/agreements", json=body, headers=headers)


def test_one_edit_key_cannot_agree_for_two_seats(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    for seat, phone in ((0, "phone-aaaaaaaa-0001"), (1, "phone-bbbbbbbb-0002")):
        refused = agree_api(client, match, seat, phone=phone)
        assert refused.status_code == 403 and "member link" in refused.get_json()["error"]["message"]
    ann = member_key(app, club["id"], match["seat_ids"][0])
    assert agree_api(client, match, 0, ann).status_code == 201
    assert agree_api(client, match, 0, ann).status_code == 200  # again: nothing new
    assert agree_api(client, match, 1, ann).status_code == 403  # Ann in Bob's seat
    assert agree_api(client, match, None, ann).status_code == 200
    state = client.get(f"{API}/matches/{match['id']}/agreements").get_json()
    assert [one["name"] for one in state["agreed_by"]] == ["Ann"] and state["locked"] is False
    bob = member_key(app, club["id"], match["seat_ids"][1])
    assert agree_api(client, match, None, bob).status_code == 201
    assert client.get(f"{API}/matches/{match['id']}/agreements").get_json()["locked"] is True


def test_a_member_who_did_not_play_the_match_cannot_agree_to_it(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    added = client.post(f"{API}/clubs/{club['id']}/players", json={"name": "Zed"}, headers=bearer(club["admin_key"]))
    zed = member_key(app, club["id"], added.get_json()["id"])
    refused = agree_api(client, match, 0, zed)
    assert refused.status_code == 403 and "Zed did not play this match" in refused.get_json()["error"]["message"]


def test_two_browser_sessions_with_the_edit_key_lock_nothing(app: Flask, client: FlaskClient):
    club = asking_club(app, client)
    match = finished_match(client, club)
    for seat in (0, 1):
        phone = app.test_client()
        phone.get(f"/m/{match['id']}/join?key={match['edit_key']}")
        page = seen(phone.get(f"/m/{match['id']}").text)
        assert "Agreed" not in re.sub(r"Agreed result", "", page) or "member link" in page
        tapped = phone.post(f"/m/{match['id']}/agree", data={"csrf_token": csrf_token(phone, "/clubs/new"),
                                                            "seat": str(seat)}, follow_redirects=True)
        assert "open the member link" in seen(tapped.text)
    assert client.get(f"{API}/matches/{match['id']}/agreements").get_json()["agreed_by"] == []
    ann = member_phone(app, club["id"], match["seat_ids"][0])
    ann.get(f"/m/{match['id']}/join?key={match['edit_key']}")
    page = seen(ann.get(f"/m/{match['id']}").text)
    assert "I am Ann: Agreed" in page and "I am Bob: Agreed" not in page
    tapped = ann.post(f"/m/{match['id']}/agree", data={"csrf_token": csrf_token(ann, "/clubs/new"), "seat": "1"},
                      follow_redirects=True)
    assert "agree in your own seat" in seen(tapped.text)
    ann.post(f"/m/{match['id']}/agree", data={"csrf_token": csrf_token(ann, "/clubs/new"), "seat": "0"})
    assert [one["name"] for one in client.get(f"{API}/matches/{match['id']}/agreements").get_json()["agreed_by"]] \
        == ["Ann"]


def test_the_next_seats_own_phone_confirms_a_hand_not_the_phone_that_entered_it(app: Flask, client: FlaskClient):
    club = asking_club(app, client, agree_to_lock=0, confirm_hands=True)
    started = client.post(f"{API}/clubs/{club['id']}/matches", json={"game": "kozyol", "players": FOUR,
                                                                    "options": QUICK})
    match = started.get_json()
    assert client.post(f"{API}/matches/{match['id']}/hands", json=TEAM_1_LOSES,
                       headers=bearer(match["edit_key"])).status_code == 201
    url = f"{API}/matches/{match['id']}/hands/1/confirmation"
    refused = client.post(url, headers=bearer(match["edit_key"]))  # the phone that entered it
    assert refused.status_code == 403
    confirmer = refused.get_json()["error"]["message"].split("next seat, ")[1].split(",")[0]
    seats = dict(zip(match["players"], match["seat_ids"], strict=True))
    other = next(name for name in match["players"] if name != confirmer)
    assert client.post(url, headers={**bearer(match["edit_key"]),
                                     MEMBER: member_key(app, club["id"], seats[other])}).status_code == 403
    ok = client.post(url, headers={**bearer(match["edit_key"]), MEMBER: member_key(app, club["id"], seats[confirmer])})
    assert ok.status_code == 200 and ok.get_json()["name"] == confirmer
    entering = app.test_client()  # in the browser: the phone that entered it sees no OK button
    entering.get(f"/m/{match['id']}/join?key={match['edit_key']}")
    assert f"Next seat ({confirmer}): OK" not in seen(entering.get(f"/m/{match['id']}").text)


# -- 4. a stranger's names do not stay ----------------------------------------------------------------------


def test_the_admin_deletes_a_strangers_match_and_the_names_it_brought(app: Flask, client: FlaskClient):
    from scorekeeper.club import service
    from scorekeeper.models import HandChange

    club = asking_club(app, client, agree_to_lock=0)
    client.post(f"{API}/clubs/{club['id']}/players", json={"name": "Ann"}, headers=bearer(club["admin_key"]))
    names = ["Ann", "Xa", "Xb", "Xc"]
    stranger = client.post(f"{API}/clubs/{club['id']}/matches", json={"game": "kozyol", "players": names}).get_json()
    client.post(f"{API}/matches/{stranger['id']}/hands", json={"points": [75, 45]}, headers=bearer(stranger["edit_key"]))
    with app.app_context():
        found = service.find(club["id"])
        assert {p.name: p.guest for p in service.roster(found)} == {"Ann": False, "Xa": True, "Xb": True, "Xc": True}
    url = f"{API}/clubs/{club['id']}/matches/{stranger['id']}"
    assert client.delete(url).status_code == 401
    deleted = client.delete(url, headers=bearer(club["admin_key"]))
    assert deleted.status_code == 200 and sorted(deleted.get_json()["guests_removed"]) == ["Xa", "Xb", "Xc"]
    with app.app_context():
        found = service.find(club["id"])
        assert [p.name for p in service.roster(found)] == ["Ann"]
        from scorekeeper.match import matches

        gone = matches.find(stranger["id"])
        assert gone.club_id is None and gone.hands == []
        history = HandChange.query.filter_by(match_id=gone.id).order_by(HandChange.id).all()
        assert [(change.action, change.number) for change in history] == [("record", 1), ("delete", 1)]
        assert "not a member" in history[-1].reason
    state = client.get(f"{API}/clubs/{club['id']}").get_json()
    assert stranger["id"] not in str(state)
    assert client.delete(url, headers=bearer(club["admin_key"])).status_code == 404


def test_a_match_the_admin_or_a_member_started_brings_members_and_is_not_deleted_whole(app: Flask, client: FlaskClient):
    from scorekeeper.club import service

    club = asking_club(app, client, agree_to_lock=0)
    made = client.post(f"{API}/clubs/{club['id']}/matches", json={"game": "kozyol", "players": FOUR},
                       headers=bearer(club["admin_key"])).get_json()
    ann = roster_ids(app, club["id"])["Ann"]
    by_member = client.post(f"{API}/clubs/{club['id']}/matches",
                            json={"game": "kozyol", "players": ["Ann", "Eve", "Fay", "Gus"]},
                            headers={MEMBER: member_key(app, club["id"], ann)})
    assert by_member.status_code == 201
    with app.app_context():
        assert not any(p.guest for p in service.roster(service.find(club["id"])))
    for match in (made, by_member.get_json()):
        refused = client.delete(f"{API}/clubs/{club['id']}/matches/{match['id']}", headers=bearer(club["admin_key"]))
        assert refused.status_code == 422 and "hand by hand" in str(refused.get_json())


def test_a_guest_kept_by_the_admin_stays_and_the_admin_page_offers_the_delete(app: Flask, client: FlaskClient):
    from scorekeeper.club import service

    club = asking_club(app, client, agree_to_lock=0)
    stranger = client.post(f"{API}/clubs/{club['id']}/matches",
                           json={"game": "kozyol", "players": ["Ya", "Yb", "Yc", "Yd"]}).get_json()
    ids = roster_ids(app, club["id"])
    assert client.post(f"{API}/clubs/{club['id']}/players/{ids['Ya']}/keep",
                       headers=bearer(club["admin_key"])).status_code == 200
    assert client.post(f"{API}/clubs/{club['id']}/players", json={"name": "yb"},
                       headers=bearer(club["admin_key"])).status_code == 201  # adding a guest's name keeps them
    admin = app.test_client()
    admin.get(f"/c/{club['id']}/join/{club['admin_key']}")
    page = seen(admin.get(f"/c/{club['id']}/admin/members").text)
    assert "Matches started by someone who is not a member" in page and "Guests" in page
    token = csrf_token(admin, f"/c/{club['id']}/admin/members")
    kept = admin.post(f"/c/{club['id']}/admin/matches/delete", data={"csrf_token": token, "match": stranger["id"]},
                      follow_redirects=True)
    assert "Nothing deleted" in seen(kept.text)
    done = admin.post(f"/c/{club['id']}/admin/matches/delete",
                      data={"csrf_token": token, "match": stranger["id"], "confirm": "yes"}, follow_redirects=True)
    assert "Yc, Yd" in seen(done.text) or "Yd, Yc" in seen(done.text)
    with app.app_context():
        assert sorted(p.name for p in service.roster(service.find(club["id"]))) == ["Ya", "Yb"]
