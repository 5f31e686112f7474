"""The rounds of a club evening: proposed from who is there and the season, confirmed as one club match per table
with the drawn seats and first seat, all or nothing and once; each seated member's phone (their member link)
finds its seat and enters hands."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.club_nights import posted
from helpers.clubs import admin_post, member as club_member, new_club, reasons
from helpers.forms import csrf_token
from helpers.i18n import seen

NINE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]


class Evening:
    """A club of nine with today's evening planned and everyone marked present."""

    def __init__(self, app: Flask, client: FlaskClient, names: list[str] = NINE):
        from scorekeeper.club import evenings, service as clubs

        self.app, self.client = app, client
        self.club = new_club(client)
        for name in names:
            assert admin_post(client, self.club, "players", "add", {"name": name}).status_code == 302
        with app.app_context():
            club = clubs.find(self.club)
            self.ids = {player.name: player.id for player in clubs.roster(club)}
            evening = evenings.schedule(club, clubs.today(club), "19:30", "", "")[0]
            self.id = evening.id
            for player in self.ids.values():
                evenings.mark_present(club, evening, player, True)

    def names(self) -> dict[int, str]:
        return {player: name for name, player in self.ids.items()}

    def store(self) -> Iterator[tuple[object, object]]:
        """The club and the evening, in an app context."""
        from scorekeeper.club import evenings, service as clubs

        with self.app.app_context():
            club = clubs.find(self.club)
            yield club, evenings.evening_of(club, self.id)

    def page(self, path: str = "") -> str:
        return f"/c/{self.club}/admin/evenings/{self.id}/rounds{path}"


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> Evening:
    return Evening(app, client)


def test_a_proposal_seats_two_kozyol_tables_and_one_sits_out_the_same_for_the_same_seed(night: Evening):
    from scorekeeper.club import rounds

    for club, evening in night.store():
        seed, drawn = rounds.propose(club, evening, "kozyol", 7)
        assert seed == 7 and [table.game for table in drawn.tables] == ["kozyol", "kozyol"]
        seated = [player for table in drawn.tables for player in table.seats]
        assert len(seated) == 8 and len(drawn.sat_out) == 1
        assert sorted(seated + list(drawn.sat_out)) == sorted(night.ids.values())
        assert rounds.propose(club, evening, "kozyol", 7)[1] == drawn
        fresh, _ = rounds.propose(club, evening, "kozyol")
        assert 0 <= fresh < 2**31


def test_confirming_starts_one_match_per_table_in_the_drawn_seats_with_the_first_seat_dealing(night: Evening):
    from scorekeeper.club import rounds
    from scorekeeper.match import matches

    for club, evening in night.store():
        _seed, drawn = rounds.propose(club, evening, "kozyol", 11)
        made = rounds.confirm(club, evening, drawn, 11, number=1)
        assert (made.number, made.seed, made.sat_out) == (1, 11, list(drawn.sat_out))
        [(stored, tables)] = rounds.rounds_of(evening)
        assert stored.id == made.id and len(tables) == 2
        for (table, match), proposed in zip(tables, drawn.tables):
            assert table.seat_ids == list(proposed.seats) == match.seat_ids
            assert match.players == [night.names()[seat] for seat in proposed.seats]
            assert match.options["first_dealer"] == match.players[0] and match.club_id == club.id
        with pytest.raises(matches.Conflict):  # a second phone confirming the same proposal
            rounds.confirm(club, evening, drawn, 11, number=1)
        assert len(rounds.rounds_of(evening)) == 1
        seat = rounds.seat_of(evening, tables[1][0].seat_ids[2])
        assert (seat.round, seat.table, seat.seat, seat.first) == (1, 2, 3, tables[1][1].players[0])
        assert rounds.seat_of(evening, drawn.sat_out[0]) is None


def test_barbu_tables_declare_from_the_first_seat(app: Flask, client: FlaskClient):
    from scorekeeper.club import rounds

    night = Evening(app, client, NINE[:8])
    for club, evening in night.store():
        _seed, drawn = rounds.propose(club, evening, "barbu", 3)
        rounds.confirm(club, evening, drawn, 3)
        for table, match in rounds.rounds_of(evening)[0][1]:
            assert match.options["first_declarer"] == match.players[0] == night.names()[table.seat_ids[0]]


def test_the_next_round_remembers_who_sat_out_and_who_met(night: Evening):
    from scorekeeper.club import rounds

    for club, evening in night.store():
        _seed, first = rounds.propose(club, evening, "kozyol", 5)
        rounds.confirm(club, evening, first, 5)
        history = rounds.season_history(club, evening.day, evening)
        assert history.sat_out == {first.sat_out[0]: 1}
        a, b = sorted(first.tables[0].seats[:2])
        assert history.met[(a, b)] == 1
        for seed in range(6):
            _seed, second = rounds.propose(club, evening, "kozyol", seed)
            assert second.sat_out != first.sat_out  # who sat out plays now


def test_the_history_kept_between_rounds_is_the_whole_season_counted_again_after_any_change(night: Evening):
    from datetime import timedelta

    from scorekeeper.club import roster, rounds, service as clubs
    from scorekeeper.club.engine import seating
    from scorekeeper.club.results import resolver
    from scorekeeper.db import db
    from scorekeeper.models import ClubResult, Match

    def counted_again(club, evening) -> seating.History:
        now = resolver(club)
        rows = db.session.execute(db.select(Match.game, Match.seat_ids).join(ClubResult, ClubResult.match_id == Match.id)
                                  .where(ClubResult.club_id == club.id)).all()
        made = seating.history_of([(game, [now.get(seat, seat) for seat in ids]) for game, ids in rows])
        kept = rounds.season_history(club, evening.day, evening)
        return kept.met == made.met and kept.partnered == made.partnered

    for club, evening in night.store():
        names = list(night.ids)
        zoe = clubs.add_player(club, "Zoe").id  # not there tonight
        past = [clubs.start_match(club, "kozyol", names[at:at + 4])[0] for at in (0, 2, 4)]
        past.append(clubs.start_match(club, "barbu", ["Zoe", *names[5:8]])[0])
        db.session.execute(db.update(ClubResult).where(ClubResult.match_id.in_([match.id for match in past]))
                           .values(day=evening.day - timedelta(days=7)))
        db.session.commit()
        assert counted_again(club, evening)
        for number in (1, 2):  # the rounds come on top of the past kept
            _seed, drawn = rounds.propose(club, evening, "kozyol", number)
            rounds.confirm(club, evening, drawn, number)
            assert counted_again(club, evening)
        clubs.start_match(club, "barbu", names[5:9])  # another match of the day
        assert counted_again(club, evening)
        db.session.execute(db.delete(ClubResult).where(ClubResult.match_id == past[0].id))  # a past match gone
        db.session.commit()
        assert counted_again(club, evening)
        roster.merge_players(club, night.ids["Ann"], zoe)  # Zoe's meetings are Ann's now
        db.session.commit()
        assert counted_again(club, evening)


def test_a_table_that_cannot_start_leaves_no_match_and_no_round(night: Evening, monkeypatch: pytest.MonkeyPatch):
    from scorekeeper.club import rounds, service
    from scorekeeper.db import db
    from scorekeeper.models import ClubResult, Match
    from scorekeeper.refusals import refuse

    started = service.start_match
    calls = []

    def second_fails(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise refuse("players", "Not now.")
        return started(*args, **kwargs)

    monkeypatch.setattr(service, "start_match", second_fails)
    for club, evening in night.store():
        _seed, drawn = rounds.propose(club, evening, "kozyol", 9)
        with pytest.raises(ValueError):
            rounds.confirm(club, evening, drawn, 9)
        assert db.session.query(Match).count() == db.session.query(ClubResult).count() == 0
        assert rounds.rounds_of(evening) == [] and calls == [1, 1]


def test_a_round_seats_only_players_present_once_each(night: Evening):
    from scorekeeper.club import rounds
    from scorekeeper.refusals import Refusal

    ann, bob, cid, dee, eve = (night.ids[name] for name in NINE[:5])
    for club, evening in night.store():
        with pytest.raises(Refusal):
            rounds.checked(club, evening, [{"game": "kozyol", "seats": [ann, bob, cid, ann]}])
        with pytest.raises(Refusal):
            rounds.checked(club, evening, [{"game": "kozyol", "seats": [ann, bob, cid, 999_999]}])
        with pytest.raises(Refusal):
            rounds.checked(club, evening, [{"game": "kozyol", "seats": [ann, bob, cid]}])
        made = rounds.checked(club, evening, [{"game": "kozyol", "seats": [ann, bob, cid, dee]}])
        assert eve in made.sat_out and len(made.sat_out) == 5


# -- the pages ---------------------------------------------------------------------------------------


def proposal(night: Evening, query: str = "?game=kozyol") -> tuple[str, str]:
    """Draw on the admin's phone: the address the proposal settles at (its seed in it), and the page."""
    drawn = night.client.get(night.page("/new") + query)
    assert drawn.status_code == 302
    where = drawn.headers["Location"]
    page = night.client.get(where)
    assert page.status_code == 200
    return where, page.text


def test_the_admin_draws_swaps_and_confirms_and_a_reload_keeps_the_proposal(night: Evening):
    where, page = proposal(night)
    again = night.client.get(where).text
    assert "seed=" in where and seen(again).split("the proposal", 1)[1] == seen(page).split("the proposal", 1)[1]
    assert seen(page).count("Table ") >= 2 and "Sitting out" in seen(page)
    fields = posted(page)
    first = [int(seat) for seat in fields["table-1"][0].split(":")[1].split(",")]
    out = night.ids[[name for name in NINE if f">{name}</span></a>" in page.split("Sitting out", 1)[1]][0]]
    swapped = night.client.get(f"{where}&a={first[0]}&b={out}")  # the menus' swap
    assert swapped.status_code == 302 and f"swap={first[0]}-{out}" in swapped.headers["Location"]
    after = posted(night.client.get(swapped.headers["Location"]).text)
    assert after["table-1"][0].split(":")[1].split(",")[0] == str(out)
    done = night.client.post(night.page(), data={k: v for k, v in after.items()})
    assert done.status_code == 302, reasons(done.text)
    rounds_page = seen(night.client.get(done.headers["Location"]).text)
    assert "Round 1 confirmed" in rounds_page and "Table 2 · Kozyol" in rounds_page and "Draw round 2" in rounds_page
    again = night.client.post(night.page(), data=after)
    assert again.status_code == 409 and "already confirmed" in seen(again.text)


def test_tapping_two_names_swaps_them(night: Evening):
    where, page = proposal(night)
    tap = re.search(r'<a class="seat-chip" role="button" href="([^"]+)" aria-pressed="false">', page)[1].replace("&amp;", "&")
    picked = night.client.get(tap).text
    assert 'aria-pressed="true"' in picked and "Now tap who takes their place" in seen(picked)
    other = re.findall(r'<a class="seat-chip" role="button" href="([^"]+)" aria-pressed="false">', picked)[-1].replace("&amp;", "&")
    assert "swap=" in other and "pick=" not in other
    assert parse_qs(urlsplit(other).query)["seed"] == parse_qs(urlsplit(where).query)["seed"]


def test_a_table_per_game_and_a_refusal_when_too_few_are_there(night: Evening):
    _where, page = proposal(night, "?game=barbu&game=kozyol")
    assert "Table 1 · Barbu" in seen(page) and "Table 2 · Kozyol" in seen(page) and "declares first" in seen(page)
    _where, page = proposal(night, "?game=hearts&game=hearts")
    assert "at least" in seen(page)  # two Hearts tables need more players than nine


def test_only_the_admin_draws(night: Evening, app: Flask):
    other = app.test_client()
    assert other.get(night.page("/new?game=kozyol")).status_code == 403
    assert other.post(night.page(), data={}).status_code == 403


def test_a_seated_phone_sees_its_seat_and_enters_its_matchs_hands(night: Evening, app: Flask):
    where, page = proposal(night)
    assert night.client.post(night.page(), data=posted(page)).status_code == 302
    table = [int(seat) for seat in posted(page)["table-2"][0].split(":")[1].split(",")]
    names = night.names()
    claimed = app.test_client()  # a phone that says it is that player proves nothing
    token = csrf_token(claimed, "/clubs/new")
    assert claimed.post(f"/c/{night.club}/me", data={"csrf_token": token, "player": str(table[1])}).status_code == 403
    assert "Round 1: table 2" not in seen(claimed.get(f"/c/{night.club}").text)
    member = club_member(app, night.club, table[1])  # the member link the admin gave them
    club_page = seen(member.get(f"/c/{night.club}").text)
    assert f"Round 1: table 2, seat 2 ({names[table[0]]} deals)" in club_page
    assert "Table 1 · Kozyol" in club_page and "0 hands played" in club_page
    link = re.search(r'href="(/c/[^"]+/rounds/1/tables/2)"', member.get(f"/c/{night.club}").text)[1]
    opened = member.get(link)
    assert opened.status_code == 302
    match = opened.headers["Location"].rsplit("/", 1)[1]
    assert '<form method="post"' in member.get(opened.headers["Location"]).text  # the deal's form: it can enter
    with member.session_transaction() as session:
        key = session["keys"][match]
    from helpers.api import bearer
    assert member.post(f"/api/v1/matches/{match}/hands", json={"points": [75, 45]}, headers=bearer(key)
                       ).status_code == 201
    assert "1 hand played" in seen(member.get(f"/c/{night.club}").text)
    watcher = app.test_client()  # a phone that is nobody at the table only watches
    watcher.get(link)
    with watcher.session_transaction() as session:
        assert match not in session.get("keys", {})
    assert '<form method="post"' not in watcher.get(opened.headers["Location"]).text


def test_the_club_page_follows_the_round_live(night: Evening, app: Flask):
    from helpers.api import bearer

    assert "data-live" not in night.client.get(f"/c/{night.club}").text  # no round yet: nothing to follow
    _where, page = proposal(night)
    assert night.client.post(night.page(), data=posted(page)).status_code == 302
    shown = night.client.get(f"/c/{night.club}").text
    live, tag = re.search(r'data-live="([^"]+)" data-etag="([^"]+)"', shown).groups()
    tag = tag.replace("&#34;", '"')
    assert night.client.get(live, headers={"If-None-Match": tag}).status_code == 304
    with night.client.session_transaction() as session:  # the admin's phone opened every table
        match, key = next(iter(session["keys"].items()))
    assert night.client.post(f"/api/v1/matches/{match}/hands", json={"points": [75, 45]}, headers=bearer(key)
                             ).status_code == 201
    polled = night.client.get(live, headers={"If-None-Match": tag})
    assert polled.status_code == 200 and polled.headers["ETag"] != tag
    assert "1 hand played" in seen(night.client.get(f"/c/{night.club}").text)


def test_an_unknown_evening_or_table_is_404(night: Evening):
    assert night.client.get(f"/c/{night.club}/admin/evenings/999/rounds").status_code == 404
    assert night.client.get(f"/c/{night.club}/evenings/{night.id}/rounds/1/tables/1").status_code == 404
    assert night.client.get(f"/c/{night.club}/admin/evenings/{night.id}/rounds/new?game=kozyol&seed=x"
                            ).status_code == 302  # a seed it cannot read is drawn afresh


def test_a_rounds_matches_are_played_by_the_clubs_house_rules(night: Evening):
    """The club's options for its new matches hold at every table of a round, beside the drawn first seat."""
    from scorekeeper.club import rounds, service as clubs

    for club, evening in night.store():
        clubs.set_rules(club, club.min_matches, {"kozyol": {"target": 8}})
        _seed, drawn = rounds.propose(club, evening, "kozyol", 5)
        rounds.confirm(club, evening, drawn, 5, number=1)
        for _table, match in rounds.rounds_of(evening)[0][1]:
            assert match.options["target"] == 8 and match.options["first_dealer"] == match.players[0]
