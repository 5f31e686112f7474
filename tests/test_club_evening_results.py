"""An evening's results: each round's tables and their matches' totals and winners, the evening's winners per
game, the players' places in the season after it; its page and one-page PDF; closing it, after which only the
club's admin changes its matches."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clubs import QUICK, TEAM_0_LOSES, TEAM_1_LOSES, admin_post, new_club
from helpers.forms import csrf_token
from helpers.i18n import assert_translated, seen
from helpers.pdf import info, landscape, pages, save, squeezed, text

TWELVE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]
ROUNDS = 3


class Night:
    """A club of twelve, a season holding today, today's evening with everyone present and three rounds of three
    quick Kozyol tables; every table finished but the last one; a match of the day outside the rounds."""

    def __init__(self, app: Flask, client: FlaskClient):
        from scorekeeper.club import evenings, rounds, service as clubs
        from scorekeeper.match import matches

        self.app, self.client = app, client
        self.club = new_club(client)
        for name in TWELVE:
            assert admin_post(client, self.club, "players", "add", {"name": name}).status_code == 302
        self.keys: dict[str, str] = {}  # match public id -> its edit key
        with app.app_context():
            club = clubs.find(self.club)
            clubs.set_rules(club, 1, {"kozyol": QUICK})
            self.today = clubs.today(club)
            self.season = clubs.add_season(club, "Winter", self.today - timedelta(days=30),
                                           self.today + timedelta(days=30)).id
            self.ids = {player.name: player.id for player in clubs.roster(club)}
            evening = evenings.schedule(club, self.today, "19:30", "", "", name="Friday night")[0]
            self.id = evening.id
            for player in self.ids.values():
                evenings.mark_present(club, evening, player, True)
            self.matches: list[str] = []
            for number in range(1, ROUNDS + 1):
                _seed, drawn = rounds.propose(club, evening, "kozyol", number)
                rounds.confirm(club, evening, drawn, number)
                for at, (_table, match) in enumerate(rounds.rounds_of(evening)[-1][1]):
                    self.matches.append(match.public_id)
                    self.keys[match.public_id] = rounds.seat_key(match)
                    if (number, at) != (ROUNDS, 2):
                        matches.record(match.public_id, TEAM_1_LOSES if at % 2 == 0 else TEAM_0_LOSES)
            other, key = clubs.start_match(club, "kozyol", TWELVE[:4], QUICK)
            matches.record(other.public_id, TEAM_1_LOSES)
            self.other, self.keys[other.public_id] = other.public_id, key

    def store(self):
        from scorekeeper.club import evening_results, service as clubs

        with self.app.app_context():
            club = clubs.find(self.club)
            yield club, evening_results.evening_at(club, str(self.id))

    def url(self, tail: str = "results") -> str:
        return f"/c/{self.club}/evenings/{self.id}/{tail}"


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> Night:
    return Night(app, client)


def stranger(app: Flask) -> FlaskClient:
    return app.test_client()


def admin_form(client: FlaskClient, club: str, action: str, evening: Any):
    """The admin's Close or Reopen; a close says yes to its question about tables still playing."""
    return client.post(f"/c/{club}/admin/evenings/{evening}/{action}",
                       data={"csrf_token": csrf_token(client, "/clubs/new"), "playing": "close"})


# -- the store ----------------------------------------------------------------------------------------


def test_each_round_lists_its_tables_with_totals_and_winners_and_the_last_still_at_the_table(night: Night):
    from scorekeeper.club import evening_results, rounds
    from scorekeeper.match import matches

    for club, evening in night.store():
        made = evening_results.results(club, evening)
        assert [one.number for one in made.rounds] == [1, 2, 3, None]
        assert [len(one.tables) for one in made.rounds] == [3, 3, 3, 1]
        stored = rounds.rounds_of(evening)
        for one, (_round, tables) in zip(made.rounds, stored):
            for line, (table, match) in zip(one.tables, tables):
                assert (line.table, line.game, line.match.id) == (table.number, "kozyol", match.id)
                assert line.names == [night_name(night, seat) for seat in table.seat_ids]
                replay = matches.stored_replay(match)
                if replay.finished:
                    summary = replay.summary()
                    winners = [name for team, names in enumerate(summary["teams"]) if team != summary["goat"]
                               for name in names]
                    assert line.finished and sorted(line.winners) == sorted(winners)
                    assert line.totals == [summary["totals"][0 if seat % 2 == 0 else 1] for seat in range(4)]
                else:
                    assert (line.finished, line.totals, line.winners, line.hands) == (False, None, [], 0)
        assert [line.finished for line in made.lines].count(False) == 1
        assert made.rounds[-1].tables[0].names == TWELVE[:4] and made.rounds[-1].tables[0].table is None
        assert made.season is not None and made.season.id == night.season and not made.closed


def night_name(night: Night, seat: int) -> str:
    return {player: name for name, player in night.ids.items()}[seat]


def test_the_evenings_winners_are_who_won_the_most_of_its_matches(night: Night):
    from scorekeeper.club import evening_results

    for club, evening in night.store():
        made = evening_results.results(club, evening)
        wins = Counter(name for line in made.lines for name in line.winners)
        most = max(wins.values())
        assert sorted(made.winners["kozyol"]) == sorted(name for name, count in wins.items() if count == most)
        assert list(made.winners) == ["kozyol"]


def test_places_are_the_seasons_standings_up_to_the_evenings_day(night: Night, app: Flask):
    from scorekeeper.club import evening_results, figures
    from scorekeeper.club.engine.standings import standings
    from scorekeeper.db import db
    from scorekeeper.models import ClubResult, Match

    with app.app_context():  # the match outside the rounds was played the day before; one the day after
        earlier = db.session.scalar(db.select(Match.id).where(Match.public_id == night.other))
        later = db.session.scalar(db.select(Match.id).where(Match.public_id == night.matches[0]))
        db.session.execute(db.update(ClubResult).where(ClubResult.match_id == earlier)
                           .values(day=night.today - timedelta(days=1)))
        db.session.execute(db.update(ClubResult).where(ClubResult.match_id == later)
                           .values(day=night.today + timedelta(days=1)))
        db.session.commit()
    for club, evening in night.store():
        made = evening_results.results(club, evening)
        played = figures.finished(club, made.season).played
        upto = standings("kozyol", [one for one in played if one.day <= night.today], club.min_matches)
        before = {row.player: row.place for row in
                  standings("kozyol", [one for one in played if one.day < night.today], club.min_matches)}
        tonight = {night.ids[name] for line in made.lines if line.finished for name in line.names}
        assert [(row.player, row.place, row.matches) for row in made.places["kozyol"]] == [
            (row.player, row.place, row.matches) for row in upto if row.player in tonight]
        assert {row.player: row.before for row in made.places["kozyol"]} == {
            player: before.get(player) for player in tonight}
        assert any(row.before is not None for row in made.places["kozyol"])
        assert all(line.match.public_id != night.other for line in made.lines)  # it was the day before's


def test_places_from_the_seasons_running_sums_equal_a_count_from_the_start_at_every_cut(night: Night):
    from scorekeeper.club import figures, places
    from scorekeeper.club.engine.standings import standings

    for club, _evening in night.store():
        season = figures.finished(club, None)
        kept = season.tallies["kozyol"].standings(club.min_matches)
        for end in range(len(season.played) + 1):  # cuts near the end take the sums less the rest; early ones add
            made = places._tally_upto(season.played, season.tallies["kozyol"], "kozyol", end)
            assert made.standings(club.min_matches) == standings("kozyol", season.played[:end], club.min_matches)
        assert season.tallies["kozyol"].standings(club.min_matches) == kept, "the season's own sums stay as they were"


def test_a_day_of_matches_without_an_evening_is_an_evening_too(app: Flask, client: FlaskClient):
    from scorekeeper.club import evening_results, service as clubs
    from scorekeeper.match import matches

    club_id = new_club(client)
    with app.app_context():
        club = clubs.find(club_id)
        match, _key = clubs.start_match(club, "kozyol", TWELVE[:4], QUICK)
        matches.record(match.public_id, TEAM_1_LOSES)
        day = clubs.today(club)
        evening = evening_results.evening_at(club, day.isoformat())
        assert evening.id is None and evening.day == day
        made = evening_results.results(club, evening)
        assert [line.winners for line in made.lines] == [["Ann", "Cid"]] and made.places["kozyol"]
    page = client.get(f"/c/{club_id}")
    assert f'/c/{club_id}/evenings/{day.isoformat()}/results"' in page.text
    shown = client.get(f"/c/{club_id}/evenings/{day.isoformat()}/results")
    assert shown.status_code == 200 and "Matches of the day" in seen(shown.text)
    assert admin_form(client, club_id, "close", day.isoformat()).status_code == 302
    with app.app_context():
        assert evening_results.evening_at(clubs.find(club_id), day.isoformat()).closed_at is not None


# -- the page and the PDF -------------------------------------------------------------------------


def test_the_page_shows_every_table_the_winners_and_the_places_to_anyone_with_the_club_link(night: Night, app: Flask):
    answer = stranger(app).get(night.url())
    assert answer.status_code == 200
    page = seen(answer.text)
    for words in ("Results of Friday night", "Round 1", "Round 3", "Table 3", "Still at the table",
                  "Other matches of the day", "Winners of the evening", "Places in Winter after this evening",
                  "Download PDF"):
        assert words in page, words
    assert "Close the evening" not in page  # the admin's only
    assert "Close the evening" in seen(night.client.get(night.url()).text)
    assert night.client.get(f"/c/{night.club}/evenings/{night.today.isoformat()}/results").text.count("Table 2") == 3


def test_the_pdf_is_one_a4_portrait_page_with_every_table(night: Night, app: Flask, tmp_path: Path):
    answer = stranger(app).get(night.url("results.pdf"))
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert 'filename="Les-Dimanches-Friday-night-' in answer.headers["Content-Disposition"]
    path = save(tmp_path, answer.data)
    assert pages(path) == 1
    printed = text(path)
    assert not landscape(path) and "A4" in info(path)["Page size"]
    flat = squeezed(printed)
    for words in ("Fridaynight", "Round1", "Round3", "Stillatthetable", "Winnersoftheevening", "PlacesinWinter"):
        assert words in flat, words
    again = stranger(app).get(night.url("results.pdf"), headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("others, density", [(0, "roomy"), (60, "dense"), (120, "densest")])
def test_a_big_evening_still_prints_on_one_page_in_smaller_type_the_more_it_holds(
        app: Flask, client: FlaskClient, tmp_path: Path, others: int, density: str):
    """Forty present, three rounds of ten tables and their forty places, and more matches of the day besides."""
    from scorekeeper.club import evening_results, evenings, rounds, service as clubs
    from scorekeeper.match import matches
    from scorekeeper.web.club.evening_results import density as density_of

    public_id = new_club(client)
    names = [f"{first}{last}" for first in ("Ann", "Bob", "Cid", "Dee", "Eve") for last in "ABCDEFGH"]
    for name in names:
        assert admin_post(client, public_id, "players", "add", {"name": name}).status_code == 302
    with app.app_context():
        club = clubs.find(public_id)
        clubs.set_rules(club, 1, {"kozyol": QUICK})
        evening = evenings.schedule(club, clubs.today(club), "19:30", "", "", name="Big night")[0]
        for player in clubs.roster(club):
            evenings.mark_present(club, evening, player.id, True)
        for number in range(1, ROUNDS + 1):
            _seed, drawn = rounds.propose(club, evening, "kozyol", number)
            rounds.confirm(club, evening, drawn, number)
            for _table, match in rounds.rounds_of(evening)[-1][1]:
                matches.record(match.public_id, TEAM_1_LOSES)
        for at in range(others):
            match, _key = clubs.start_match(club, "kozyol", names[at % 36:at % 36 + 4], QUICK)
            matches.record(match.public_id, TEAM_0_LOSES)
        made = evening_results.results(club, evening)
        assert len(made.lines) == 10 * ROUNDS + others and density_of(made) == density
        evening_id = evening.id
    path = save(tmp_path, stranger(app).get(f"/c/{public_id}/evenings/{evening_id}/results.pdf").data)
    assert pages(path) == 1
    flat = squeezed(text(path))
    assert all(squeezed(name) in flat for name in names)
    assert flat.count("Kozyol·") == 10 * ROUNDS + others


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_page_and_the_pdf_in_french_and_russian(night: Night, app: Flask, tmp_path: Path, lang: str):
    phone = stranger(app)
    phone.get(f"/language/{lang}")
    words = {"fr": ["Résultats de Friday night", "Gagnants de la soirée", "Encore à la table"],
             "ru": ["Итоги: Friday night", "Победители вечера", "Ещё за столом"]}[lang]
    assert_translated(seen(phone.get(night.url()).text), lang, words, "results")
    printed = squeezed(text(save(tmp_path, phone.get(night.url("results.pdf")).data)))
    assert squeezed(words[1]) in printed


def test_an_unknown_evening_is_404(night: Night, app: Flask, client: FlaskClient):
    other = new_club(client, "Other club")
    for url in (f"/c/{night.club}/evenings/nope/results", f"/c/{night.club}/evenings/2026-02-30/results",
                f"/c/{night.club}/evenings/1999-01-01/results", f"/c/{other}/evenings/{night.id}/results",
                f"/c/{night.club}/evenings/999999/results.pdf", f"/c/nosuchclub/evenings/{night.id}/results"):
        assert stranger(app).get(url).status_code == 404, url


# -- closing ------------------------------------------------------------------------------------------


def hand_form(client: FlaskClient, match: str) -> dict[str, str]:
    """The deal form: team 0 took 20 points of the pile, so it loses the deal."""
    return {"csrf_token": csrf_token(client, "/clubs/new"), "side": "0", "mode": "points", "points": "20"}


def test_only_the_admin_closes_and_reopens_and_a_closed_evening_says_so(night: Night, app: Flask):
    phone = stranger(app)
    phone.get(f"/c/{night.club}")
    assert admin_form(phone, night.club, "close", night.id).status_code == 403
    assert admin_form(night.client, night.club, "close", night.id).status_code == 302
    page = seen(night.client.get(night.url()).text)
    assert "Evening closed" in page and "Reopen the evening" in page
    assert "only the club's admin can change a match of this evening" in seen(phone.get(night.url()).text)
    assert "already closed" in seen(night.client.get(
        admin_form(night.client, night.club, "close", night.id).headers["Location"]).text)
    assert admin_form(night.client, night.club, "reopen", night.id).status_code == 302
    assert "Close the evening" in seen(night.client.get(night.url()).text)


def test_an_evening_not_played_cannot_be_closed(app: Flask, client: FlaskClient):
    from scorekeeper.club import evenings, service as clubs

    club_id = new_club(client)
    with app.app_context():
        club = clubs.find(club_id)
        evening = evenings.schedule(club, clubs.today(club) + timedelta(days=7), "", "", "")[0].id
    back = admin_form(client, club_id, "close", evening)
    assert "once it has been played" in seen(client.get(back.headers["Location"]).text)


def test_a_closed_evening_refuses_a_tables_correction_and_takes_the_admins(night: Night, app: Flask):
    from scorekeeper.club import evening_results

    match = night.matches[0]
    table = stranger(app)
    assert table.get(f"/m/{match}/join?key={night.keys[match]}").status_code == 302
    assert admin_form(night.client, night.club, "close", night.id).status_code == 302
    before = totals_of(night, match)

    refused = table.post(f"/m/{match}/hands/1", data=hand_form(table, match))
    assert refused.status_code == 403 and "is closed" in seen(refused.text)
    api = table.put(f"/api/v1/matches/{match}/hands/1", json=TEAM_0_LOSES, headers=bearer(night.keys[match]))
    assert api.status_code == 403 and "closed" in api.get_json()["error"]["message"]
    undone = table.delete(f"/api/v1/matches/{match}/hands/1", headers=bearer(night.keys[match]))
    assert undone.status_code == 403
    unfinished = night.matches[-1]  # a table still playing on a closed evening waits for the admin too
    assert table.post(f"/api/v1/matches/{unfinished}/hands", json=TEAM_1_LOSES,
                      headers=bearer(night.keys[unfinished])).status_code == 403
    assert totals_of(night, match) == before

    changed = table.put(f"/api/v1/matches/{match}/hands/1", json=TEAM_0_LOSES,
                        headers={**bearer(night.keys[match]), "Club-Admin-Key": club_admin_key(night, app)})
    assert changed.status_code == 200, changed.get_json()
    assert totals_of(night, match) == before[::-1] != before
    for club, evening in night.store():
        assert evening_results.results(club, evening).closed  # still closed: the admin's change moved only this


def test_a_closed_evenings_match_page_says_so_and_offers_a_table_no_hand_forms(night: Night, app: Flask):
    match = night.matches[-1]  # still at the table
    table = stranger(app)
    assert table.get(f"/m/{match}/join?key={night.keys[match]}").status_code == 302
    assert 'id="next"' in table.get(f"/m/{match}").text
    assert admin_form(night.client, night.club, "close", night.id).status_code == 302
    page = table.get(f"/m/{match}").text
    assert "is closed: only the club's admin can change it." in seen(page) and 'id="evening-closed"' in page
    assert f"/m/{match}/hands/new" not in page  # no hand's controls: they would only be refused
    assert table.get(f"/m/{match}/hands/new").status_code == 403
    assert night.client.get(f"/m/{match}/join?key={night.keys[match]}").status_code == 302
    assert f"/m/{match}/hands/new" in night.client.get(f"/m/{match}").text  # the admin's phone still enters


def club_admin_key(night: Night, app: Flask) -> str:
    """A new admin key for the club, which the admin's phone opens again."""
    from scorekeeper.club import service as clubs

    with app.app_context():
        rotated = clubs.rotate_key(night.club)
    assert night.client.get(f"/c/{night.club}/join/{rotated}").status_code == 302
    return rotated


def totals_of(night: Night, match: str) -> list[int]:
    from scorekeeper.club import evening_results

    for club, evening in night.store():
        line = next(line for line in evening_results.results(club, evening).lines if line.match.public_id == match)
        return line.totals
    raise AssertionError


def test_the_admins_phone_corrects_a_closed_evenings_match_in_the_browser(night: Night, app: Flask):
    match = night.matches[0]
    assert night.client.get(f"/m/{match}/join?key={night.keys[match]}").status_code == 302
    assert admin_form(night.client, night.club, "close", night.id).status_code == 302
    before = totals_of(night, match)
    changed = night.client.post(f"/m/{match}/hands/1", data=hand_form(night.client, match))
    assert changed.status_code == 302, seen(changed.text)
    assert totals_of(night, match) == before[::-1]
    assert "Friday night" in seen(night.client.get(night.url()).text)


def test_a_club_that_asks_for_agreement_marks_each_finished_match(night: Night, app: Flask):
    from scorekeeper.club import agreements, evening_results

    for club, evening in night.store():
        agreements.set_rules(club, 2, False)
        made = evening_results.results(club, evening)
        assert {line.agreed for line in made.lines if line.finished} == {False}
        assert [line.agreed for line in made.lines if not line.finished] == [None]
        finished = sum(line.finished for line in made.lines)
    page = seen(stranger(app).get(night.url()).text)
    assert page.count("Not yet agreed") == finished and "Agreed by its players" not in page
