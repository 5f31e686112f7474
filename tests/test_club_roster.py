"""The admin's roster on a phone without JavaScript: the name field kept for the next player, a merge read as
"X becomes Y" and undone from the admin page, an entry without matches removed and one with matches kept."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.club_matches import FOUR
from helpers.clubs import admin_post, new_club, reasons
from helpers.forms import csrf_token
from helpers.i18n import seen


def add(client: FlaskClient, club: str, *names: str) -> None:
    for name in names:
        answer = admin_post(client, club, "players", "add", {"name": name})
        assert answer.status_code == 302, reasons(answer.text)
        assert answer.headers["Location"].endswith("/admin/players?adding=1")


def ids(app: Flask, club: str) -> dict[str, int]:
    from scorekeeper.club import service as clubs

    with app.app_context():
        return {player.name: player.id for player in clubs.roster(clubs.find(club))}


def kozyol_series(client: FlaskClient, club: str, seats: list[str]) -> str:
    """A finished Kozyol series of these four roster players, started on the club's form."""
    data = {"csrf_token": csrf_token(client, "/clubs/new"), "target": "1", "first_dealer": "0",
            **{f"players-{seat}": name for seat, name in enumerate(seats)}}
    started = client.post(f"/c/{club}/new/kozyol", data=data)
    assert started.status_code == 302, reasons(started.text)
    public_id = started.headers["Location"].rsplit("/", 1)[1]
    with client.session_transaction() as session:
        key = session["keys"][public_id]
    sent = client.post(f"/api/v1/matches/{public_id}/hands", json={"points": [75, 45]}, headers=bearer(key))
    assert sent.status_code == 201
    return public_id


def test_the_name_field_is_ready_for_the_next_player(client: FlaskClient):
    club = new_club(client)
    assert '<input autocomplete="off" autofocus id="add-name"' in client.get(f"/c/{club}/admin/players").text
    add(client, club, "Ann")
    back = client.get(f"/c/{club}/admin/players?adding=1")
    assert "Ann joined the roster." in back.text and "autofocus" in back.text
    assert "autofocus" not in client.get(f"/c/{club}/admin/players").text  # a roster opened to read it takes no keyboard
    refused = admin_post(client, club, "players", "add", {"name": "ann"})
    assert refused.status_code == 422 and 'autofocus id="add-name"' in refused.text and 'value="ann"' in refused.text


def test_a_merge_reads_x_becomes_y_and_is_undone_with_its_matches(app: Flask, client: FlaskClient):
    club = new_club(client)
    add(client, club, *FOUR, "Annie", "Eve")
    kozyol_series(client, club, ["Annie", "Bob", "Cid", "Dee"])  # Annie and Cid win; Bob and Dee are the goat
    kozyol_series(client, club, ["Eve", "Bob", "Cid", "Dee"])
    player = ids(app, club)
    form = client.get(f"/c/{club}/admin/players").text
    assert form.index('<label for="merge-gone">Entry</label>') < form.index('<label for="merge-keep">becomes</label>')
    assert admin_post(client, club, "merge", "merge", {"gone": player["Annie"], "keep": player["Ann"]}).status_code == 302
    # Eve is the same person too: Eve becomes Ann, whose record now holds both series.
    assert admin_post(client, club, "merge", "merge", {"gone": player["Eve"], "keep": player["Ann"]}).status_code == 302
    page = seen(client.get(f"/c/{club}/admin/players").text)
    assert "Eve became Ann Undo" in page and "Annie became Ann Undo" in page
    assert "Deals won 2" in seen(client.get(f"/c/{club}/players/{player['Ann']}").text)

    undone = client.post(f"/c/{club}/admin/unmerge", data={"unmerge-csrf_token": csrf_token(client, "/clubs/new"),
                                                           "unmerge-player": player["Annie"]})
    assert undone.status_code == 302
    assert "Annie is back on the roster with their own matches." in seen(client.get(f"/c/{club}/admin/players").text)
    assert "Deals won 1" in seen(client.get(f"/c/{club}/players/{player['Annie']}").text)
    assert "Deals won 1" in seen(client.get(f"/c/{club}/players/{player['Ann']}").text)  # Eve's series stays
    assert "Annie became Ann" not in seen(client.get(f"/c/{club}/admin/players").text)


def test_an_undone_merge_waits_while_its_name_is_taken_again(app: Flask, client: FlaskClient):
    club = new_club(client)
    add(client, club, "Ann", "Annie")
    player = ids(app, club)
    assert admin_post(client, club, "merge", "merge", {"gone": player["Annie"], "keep": player["Ann"]}).status_code == 302
    add(client, club, "ANNIE")
    refused = client.post(f"/c/{club}/admin/unmerge", data={"unmerge-csrf_token": csrf_token(client, "/clubs/new"),
                                                            "unmerge-player": player["Annie"]})
    assert refused.status_code == 422
    assert reasons(refused.text) == {"player": "Annie is on the roster again under that name: rename that player first."}
    for junk in ("", "x", "999999", str(player["Ann"])):  # nothing, not a row, no such entry, never merged
        answer = client.post(f"/c/{club}/admin/unmerge", data={"unmerge-csrf_token": csrf_token(client, "/clubs/new"),
                                                               "unmerge-player": junk})
        assert answer.status_code == 422, junk


def test_an_entry_without_matches_can_be_removed_and_one_with_matches_cannot(app: Flask, client: FlaskClient):
    club = new_club(client)
    add(client, club, *FOUR, "Bbo", "Zed")
    kozyol_series(client, club, FOUR)
    player = ids(app, club)
    assert admin_post(client, club, "merge", "merge", {"gone": player["Zed"], "keep": player["Bbo"]}).status_code == 302
    removed = admin_post(client, club, "remove", "remove", {"player": player["Bbo"]})
    assert removed.status_code == 302
    page = seen(client.get(f"/c/{club}/admin/players").text)
    assert "Bbo left the roster." in page and "Zed became" not in page  # the entry merged into it went too
    kept = admin_post(client, club, "remove", "remove", {"player": player["Bob"]})
    assert kept.status_code == 422
    assert reasons(kept.text) == {"player": "Bob has played at the club, and a player with matches stays on the "
                                            "roster: rename or merge them instead."}
    assert f'<option selected value="{player["Bob"]}">Bob</option>' in kept.text
    assert "Bob" in seen(client.get(f"/c/{club}").text)
    for junk in ("", "abc", "999999"):
        assert admin_post(client, club, "remove", "remove", {"player": junk}).status_code == 422
