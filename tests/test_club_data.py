"""The club's data: the migration carries old matches over, the roster's rules, results written with every write.

Runs on SQLite files and on PostgreSQL (SCOREKEEPER_TEST_DATABASE_URL), like the rest of the suite.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import MetaData, insert, select

from helpers.club_matches import FOUR
from helpers.clubs import QUICK, TEAM_0_LOSES, TEAM_1_LOSES
from helpers.databases import POSTGRES_URL
from scorekeeper.app import create_app
from scorekeeper.club import results as club_results, service as clubs
from scorekeeper.db import db
from scorekeeper.games import InvalidHand
from scorekeeper.match import matches
from scorekeeper.models import ClubResult, Match

BEFORE_CLUBS = "eb52132606c2"


# -- helpers ---------------------------------------------------------------------------------------


def club_match(club: Any, players: list[str] = FOUR, *deals: dict[str, Any]) -> Match:
    """A quick Kozyol match of the club with these deals played; returns it (finished after one deal)."""
    match, _key = clubs.start_match(club, "kozyol", players, QUICK)
    for deal in deals:
        match, _played = matches.record(match.public_id, deal)
    return match


def result_of(match: Match) -> ClubResult | None:
    db.session.expire_all()
    return db.session.get(ClubResult, match.id)


def waits_while_held(url: Any, hold: Callable[[Any], None], act: Callable[[], None]) -> tuple[bool, bool]:
    """Run act in a thread while another connection's open transaction holds what hold(connection) took:
    (act was still waiting a second later, act finished once that transaction committed)."""
    import threading

    from sqlalchemy import create_engine

    other = create_engine(url)
    holding = other.connect()
    holding.begin()
    hold(holding)
    acting = threading.Thread(target=act)
    acting.start()
    acting.join(1.0)
    waited = acting.is_alive()
    holding.commit()
    acting.join(30)
    holding.close()
    other.dispose()
    return waited, not acting.is_alive()


def standing(club: Any, season: Any = None) -> dict[str, dict[str, Any]]:
    """Kozyol standings by player name: matches and goats."""
    view = clubs.view(club, season)
    if "kozyol" not in view.games:
        return {}
    return {view.names[row.player]: {"matches": row.matches, "goats": row.figures["goats"]}
            for row in view.games["kozyol"].standings}


# -- the migration ------------------------------------------------------------------------------------


def test_the_migration_carries_matches_made_before_clubs_over_untouched(empty_database_url: str):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": empty_database_url,
                      "MIGRATE_ON_START": False, "RATELIMIT_ENABLED": False})
    with app.app_context():
        upgrade(revision=BEFORE_CLUBS)
        old = MetaData()
        old.reflect(db.engine)
        assert "club_id" not in old.tables["matches"].c
        with db.engine.begin() as connection:
            for number, (game, players, options) in enumerate([
                    ("kozyol", FOUR, {"target": 12, "eggs_double_next": False, "six_for_zero_points": False,
                                      "first_dealer": "Ann"}),
                    ("barbu", FOUR, {"first_declarer": "Cid", "domino_scores": [45, 20, 5, -5],
                                     "enforce_declarer_doubles": True})], 1):
                connection.execute(insert(old.tables["matches"]).values(
                    id=number, public_id=f"old-match-{number}", game=game, players=players, options=options,
                    version=2, edit_key_hash="0" * 64, language=None, created_at=date(2026, 1, number),
                    updated_at=date(2026, 1, number)))
            entry = {"points": [75, 45], "tricks": None, "trump_suit": None, "last_trick": None}
            connection.execute(insert(old.tables["hands"]).values(id=1, match_id=1, number=1, entry=entry,
                                                                  created_at=date(2026, 1, 1),
                                                                  updated_at=date(2026, 1, 1)))
            connection.execute(insert(old.tables["hand_changes"]).values(
                id=1, match_id=1, number=1, action="record", before=None, after=entry, source="api",
                at=date(2026, 1, 1)))
        before = snapshot(old)

        upgrade()
        assert snapshot(old) == before  # every column of every row as it was, hands and history too
        new = MetaData()
        new.reflect(db.engine)
        with db.engine.connect() as connection:
            rows = connection.execute(select(new.tables["matches"].c.club_id, new.tables["matches"].c.seat_ids))
            assert list(rows) == [(None, None), (None, None)]  # club-less
            assert connection.execute(select(new.tables["club_results"])).all() == []
        client = app.test_client()
        assert client.get("/api/v1/matches/old-match-1").status_code == 200
        assert len(client.get("/api/v1/matches/old-match-1").get_json()["hands"]) == 1

        db.session.remove()  # a reading transaction left open would hold the table the downgrade alters
        downgrade(revision=BEFORE_CLUBS)  # and back: the matches stay
        assert snapshot(old) == before
        upgrade()
        assert snapshot(old) == before
        db.session.remove()
        db.engine.dispose()


def snapshot(old: MetaData) -> dict[str, list[tuple]]:
    """Every row of the tables as they were before clubs, in their old columns."""
    with db.engine.connect() as connection:
        return {name: [tuple(row) for row in connection.execute(select(*old.tables[name].c)
                                                                .order_by(old.tables[name].c.id))]
                for name in ("matches", "hands", "hand_changes", "receipts")}


# -- the roster -------------------------------------------------------------------------------------------


def test_a_name_already_on_the_roster_is_refused_whatever_its_case_accents_or_spaces(app: Flask):
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        for name in ("Zoé", "Ann\u00a0Lee"):
            clubs.add_player(club, name)
        for same in ("ZOE\u0301", "ann lee", " zoé "):
            with pytest.raises(InvalidHand) as refused:
                clubs.add_player(club, same)
            assert "name" in refused.value.fields
        for bad in ("", " ", "x" * 41, "tab\there", None, 7):
            with pytest.raises(InvalidHand):
                clubs.add_player(club, bad)
        assert [player.name for player in clubs.roster(club)] == ["Ann\u00a0Lee", "Zoé"]
        other, _key = clubs.create("Another club")
        assert clubs.add_player(other, "zoe\u0301").name == "zo\u00e9"  # unique within a club only; kept in NFC


def test_renaming_keeps_the_players_results_and_refuses_another_players_name(app: Flask):
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        club_match(club, FOUR, TEAM_0_LOSES)
        ann = next(player for player in clubs.roster(club) if player.name == "Ann")
        with pytest.raises(InvalidHand):
            clubs.rename_player(club, ann.id, "BOB")
        clubs.rename_player(club, ann.id, "ANN")  # the same player, spelt anew
        clubs.rename_player(club, ann.id, "Annie")
        assert standing(club)["Annie"] == {"matches": 1, "goats": 1}
        assert "Ann" not in standing(club)
        club_match(club, ["annie", "Bob", "Cid", "Dee"], TEAM_0_LOSES)  # the new name finds her
        assert standing(club)["Annie"] == {"matches": 2, "goats": 2}
        with pytest.raises(matches.NotFound):
            clubs.rename_player(club, 10**12, "Zed")


def test_merging_moves_the_results_of_one_person_entered_twice(app: Flask):
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        club_match(club, FOUR, TEAM_0_LOSES)
        club_match(club, ["Anne", "Bob", "Cid", "Dee"], TEAM_1_LOSES)
        ids = {player.name: player.id for player in clubs.roster(club)}
        with pytest.raises(InvalidHand) as refused:  # sat at the same match: two people
            clubs.merge_players(club, ids["Ann"], ids["Bob"])
        assert "into" in refused.value.fields
        with pytest.raises(InvalidHand):
            clubs.merge_players(club, ids["Ann"], ids["Ann"])
        clubs.merge_players(club, ids["Ann"], ids["Anne"])
        assert standing(club)["Ann"] == {"matches": 2, "goats": 1}
        assert "Anne" not in standing(club) and "Anne" not in [p.name for p in clubs.roster(club)]
        assert clubs.add_player(club, "Anne").id != ids["Anne"]  # the name is free again, for someone new
        with pytest.raises(matches.NotFound):
            clubs.merge_players(club, ids["Ann"], ids["Anne"])  # merged away already
        assert {one.digest["seats"][0] for one in clubs.played(club, None)} == {ids["Ann"]}


def test_the_running_sums_equal_the_figures_made_from_scratch_after_any_writes(app: Flask):
    """Records, corrections, undos, rule changes, seasons and merges in a random order: after each,
    the kept standings and partnerships are those computed from every finished match again."""
    from scorekeeper.club import figures as club_figures
    from scorekeeper.club.engine import ratings as ratings_engine, standings as engine

    rng = random.Random(16)
    people, typos = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"], {"Ann": "Anne", "Bob": "Bobby"}
    merged = 0
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        season = clubs.add_season(club, "This year", date(2000, 1, 1), date(2100, 12, 31))
        started: list[Match] = []
        for step in range(60):
            roll = rng.random()
            if roll < 0.45 or not started:
                seats = [typos[name] if name in typos and rng.random() < 0.3 else name for name in rng.sample(people, 4)]
                started.append(club_match(club, seats, rng.choice([TEAM_0_LOSES, TEAM_1_LOSES])))
            elif roll < 0.7:
                one = rng.choice(started)
                try:
                    matches.correct(one.public_id, 1, rng.choice([TEAM_0_LOSES, TEAM_1_LOSES]))
                except (matches.NotFound, InvalidHand):
                    matches.record(one.public_id, TEAM_0_LOSES)  # undone earlier: played again
            elif roll < 0.85:
                one = rng.choice(started)
                try:
                    matches.undo(one.public_id, 1)
                except (matches.NotFound, InvalidHand, matches.Conflict):
                    pass
            elif roll < 0.93:
                clubs.set_rules(club, rng.randint(1, 4), None)
            else:
                ids = {player.name: player.id for player in clubs.roster(club)}
                keep, gone = rng.choice(sorted(typos.items()))  # one person entered twice, never at one table
                if gone in ids and keep in ids:
                    clubs.merge_players(club, ids[keep], ids[gone])
                    merged += 1
            db.session.expire_all()
            club = clubs.find(club.public_id)
            for when in (None, season):
                played = clubs.played(club, when)
                view = club_figures.view(club, when)
                kozyol = [one for one in played if one.digest["game"] == "kozyol"]
                if not kozyol:
                    assert "kozyol" not in view.games, step
                    continue
                assert view.games["kozyol"].standings == engine.standings("kozyol", kozyol, club.min_matches), step
                assert view.games["kozyol"].partnerships == engine.partnerships(kozyol), step
                every = [one for one in clubs.played(club, None) if one.digest["game"] == "kozyol"]
                assert view.games["kozyol"].ratings == ratings_engine.ratings("kozyol", every), step
        assert merged >= 2

def test_a_result_in_one_game_computes_again_that_games_ratings_only(app: Flask, monkeypatch):
    """Ratings are kept per game while none of its rows changed: a Kozyol result leaves Barbu's as they were."""
    from helpers.club_matches import scripted_barbu
    from scorekeeper.club import figures as club_figures

    computed: list[str] = []
    real = club_figures.club_ratings.Rated.then
    monkeypatch.setattr(club_figures.club_ratings.Rated, "then",
                        lambda run, game, played: (computed.append(game), real(run, game, played))[1])
    with app.app_context():
        club, _key = clubs.create("Two games")
        barbu, _key = clubs.start_match(club, "barbu", FOUR, {"first_declarer": "Ann",
                                                              "enforce_declarer_doubles": False})
        for entry in scripted_barbu():
            matches.record(barbu.public_id, entry)
        club_match(club, FOUR, TEAM_0_LOSES)
        first = clubs.view(club, None)
        assert sorted(computed) == ["barbu", "kozyol"]
        computed.clear()
        club_match(club, FOUR, TEAM_1_LOSES)
        again = clubs.view(club, None)
        assert computed == ["kozyol"] and again.games["kozyol"].ratings != first.games["kozyol"].ratings
        assert again.games["barbu"].ratings is first.games["barbu"].ratings


def test_a_new_player_costs_the_kept_season_one_row_and_a_merge_seats_it_again(app: Flask, monkeypatch):
    from scorekeeper.club import figures as club_figures

    seated: list[int] = []
    put = club_figures._Sums.put
    monkeypatch.setattr(club_figures._Sums, "put", lambda self, match, *rest: (seated.append(match),
                                                                               put(self, match, *rest)))
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        for _ in range(5):
            club_match(club, FOUR, TEAM_0_LOSES)
        clubs.view(club, None)
        seated.clear()
        club_match(club, ["Ann", "Bob", "Cid", "Guest"], TEAM_1_LOSES)  # Guest joins the roster
        clubs.view(club, None)
        assert len(seated) == 1
        ids = {player.name: player.id for player in clubs.roster(club)}
        clubs.merge_players(club, ids["Dee"], ids["Guest"])
        seated.clear()
        assert standing(club)["Dee"] == {"matches": 6, "goats": 1}
        assert len(seated) == 6  # who sat where changed for every match counted


def test_an_evening_is_a_day_where_the_club_plays(app: Flask):
    from datetime import datetime, timezone

    from sqlalchemy import update

    with app.app_context():
        # A new match takes its day in its club's zone: UTC+14 and UTC-12 are never on the same date.
        east, _key = clubs.create("Kiritimati table")
        west, _key = clubs.create("Baker Island table")
        clubs.set_time_zone(east, "Etc/GMT-14")
        clubs.set_time_zone(west, "Etc/GMT+12")
        days = {}
        for club in (east, west):
            match = club_match(club)
            days[club.time_zone] = result_of(match).day
            assert days[club.time_zone] == club_results.day_of(match.created_at, club.time_zone)
        assert days["Etc/GMT-14"] != days["Etc/GMT+12"]
        # A club in Montreal plays from 18:00 to past 21:00: in UTC that evening would be two days.
        club, _key = clubs.create("Montreal table")
        early, late = club_match(club, FOUR, TEAM_0_LOSES), club_match(club, FOUR, TEAM_1_LOSES)
        for match, at in ((early, datetime(2026, 12, 5, 23, 0, tzinfo=timezone.utc)),
                          (late, datetime(2026, 12, 6, 2, 30, tzinfo=timezone.utc))):
            db.session.execute(update(Match).where(Match.id == match.id).values(created_at=at))
        db.session.commit()
        clubs.set_time_zone(club, "UTC")  # unchanged: nothing moves, not even the days just altered
        clubs.set_time_zone(club, "Europe/London")  # UTC+0 in December: each match on its UTC day
        assert [day for day, _name, _played in clubs.evenings(club)] == [date(2026, 12, 6), date(2026, 12, 5)]
        clubs.name_evening(club, "2026-12-06", "Late game")  # the late match's own day there
        clubs.set_time_zone(club, "America/Montreal")
        assert club.time_zone == "America/Montreal"
        assert [(day, name, [m.id for m in played]) for day, name, played in clubs.evenings(club)] == [
            (date(2026, 12, 5), "Late game", [early.id, late.id])]  # the name went with its matches
        assert standing(club)["Ann"]["matches"] == 2  # the figures follow the moved days
        clubs.set_time_zone(club, None)  # back to UTC: two days, and the name stays where it is
        assert [(day, name) for day, name, _played in clubs.evenings(club)] == [
            (date(2026, 12, 6), None), (date(2026, 12, 5), "Late game")]
        for wrong in ("Mars/Olympus", "europe/paris", 3, "x" * 500, "localtime", "Factory", "EST"):
            with pytest.raises(InvalidHand) as refused:
                clubs.set_time_zone(club, wrong)
            assert "time_zone" in refused.value.fields


@pytest.mark.skipif(not POSTGRES_URL, reason="PostgreSQL: SQLite makes one write at a time anyway")
def test_a_zone_change_waits_for_a_match_being_made_in_the_old_zone(app: Flask):
    """A match being made holds its club's row shared until it commits, so the change sees it and moves it."""
    from sqlalchemy import event, text

    with app.app_context():
        club, _key = clubs.create("Montreal table")
        club_id, public_id = club.id, club.public_id
        sent: list[str] = []

        def seen(_connection, _cursor, statement, *_rest) -> None:
            sent.append(statement)

        event.listen(db.engine, "before_cursor_execute", seen)
        club_match(club)  # making a match reads the club's zone with the club's row held shared
        event.remove(db.engine, "before_cursor_execute", seen)
        assert any("FROM clubs" in statement and "FOR SHARE" in statement for statement in sent), sent
        db.session.remove()
    url = (POSTGRES_URL.replace("postgresql://", "postgresql+psycopg://", 1)
           if POSTGRES_URL.startswith("postgresql://") else POSTGRES_URL)

    def making(connection) -> None:  # what club_results.zone_of(lock=True) does while a match is made
        connection.execute(text("SELECT time_zone FROM clubs WHERE id = :id FOR SHARE"), {"id": club_id})

    def change() -> None:
        with app.app_context():
            clubs.set_time_zone(clubs.find(public_id), "America/Montreal")
            db.session.remove()

    waited, done = waits_while_held(url, making, change)
    assert waited, "the zone change went ahead while a match was being made in the old zone"
    assert done
    with app.app_context():
        assert clubs.find(public_id).time_zone == "America/Montreal"


@pytest.mark.skipif(not POSTGRES_URL, reason="PostgreSQL: SQLite makes one write at a time anyway")
def test_a_clubs_writes_take_their_numbers_in_the_order_they_commit(app: Flask):
    """A write that has taken the club's next number holds the club's turn to its commit, so no later write
    can take a higher number and commit first: the figures, which read only from the last number seen,
    would never read the earlier one."""
    with app.app_context():
        club, _key = clubs.create("Numbered table")
        match = club_match(club)
        club_id, public_id, url = club.id, match.public_id, db.engine.url
        db.session.remove()

    def writing(connection) -> None:  # a write of the club between its number and its commit
        connection.execute(club_results.NUMBERING, {"key": club_results.NUMBERING_SPACE + club_id})

    def record() -> None:
        with app.app_context():
            matches.record(public_id, TEAM_0_LOSES)
            db.session.remove()

    waited, done = waits_while_held(url, writing, record)
    assert waited, "a second write of the club took its number while the first had not committed"
    assert done
    with app.app_context():
        assert result_of(db.session.get(Match, match.id)).digest is not None


# -- results written with every write ------------------------------------------------------------------


def test_the_result_row_follows_every_record_correction_and_undo(app: Flask):
    with app.app_context():
        club, _key = clubs.create("Sunday table", {"kozyol": QUICK})
        match, _key = clubs.start_match(club, "kozyol", FOUR, None)
        assert match.options["target"] == QUICK["target"]  # the house rules
        row = result_of(match)
        assert row is not None and row.digest is None and row.version == match.version == 1
        match, _played = matches.record(match.public_id, TEAM_1_LOSES)
        row = result_of(match)
        assert row.digest["goat"] == 1 and row.version == match.version
        assert row.day == club_results.day_of(match.created_at)
        match, _played = matches.correct(match.public_id, 1, TEAM_0_LOSES)
        assert result_of(match).digest["goat"] == 0 and result_of(match).version == match.version
        match, _played = matches.undo(match.public_id, 1)
        assert result_of(match).digest is None and result_of(match).version == match.version
        assert clubs.played(club, None) == []
        casual, _key = matches.create("kozyol", FOUR, QUICK)
        matches.record(casual.public_id, TEAM_0_LOSES)
        assert result_of(casual) is None and casual.club_id is None


def test_a_correction_changes_the_cached_standings_at_once(app: Flask):
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        match = club_match(club, FOUR, TEAM_0_LOSES)
        assert standing(club)["Ann"]["goats"] == 1
        assert clubs.view(club, None) is clubs.view(club, None)  # kept while nothing changes
        matches.correct(match.public_id, 1, TEAM_1_LOSES)
        assert standing(club)["Ann"]["goats"] == 0 and standing(club)["Bob"]["goats"] == 1
        clubs.set_rules(club, 1, None)  # a rule edit, too
        assert all(row.ranked for row in clubs.view(club, None).games["kozyol"].standings)
        other = club_match(club, ["Ann", "Eve", "Cid", "Dee"], TEAM_1_LOSES)  # only the new digest is read
        assert standing(club)["Eve"] == {"matches": 1, "goats": 1}
        matches.undo(other.public_id, 1)
        assert "Eve" not in standing(club) and standing(club)["Bob"]["goats"] == 1


def test_the_stamp_a_kept_page_reads_in_one_statement_moves_with_every_write(app: Flask):
    with app.app_context():
        club, key = clubs.create("Sunday table")
        seen = []

        def glance() -> club_results.Stamp:
            peeked = clubs.peek(club.public_id)
            assert peeked is not None and peeked.admin_key_hash == club.admin_key_hash
            assert peeked.stamp == club_results.stamp(db.session.get(type(club), club.id))
            assert peeked.stamp not in seen
            seen.append(peeked.stamp)
            return peeked.stamp

        assert glance() == (club.public_id, 1, 0, 0)
        match, _key = clubs.start_match(club, "kozyol", FOUR, QUICK)
        glance()
        matches.record(match.public_id, TEAM_1_LOSES)
        glance()
        matches.correct(match.public_id, 1, TEAM_0_LOSES)
        glance()
        clubs.set_rules(club, 1, None)
        db.session.expire_all()
        glance()
        assert clubs.peek("no-such-club") is None


def test_seasons_and_evenings_group_the_matches_by_day(app: Flask):
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        match = club_match(club, FOUR, TEAM_0_LOSES)
        today = club_results.day_of(match.created_at)
        inside = clubs.add_season(club, "This year", today.replace(month=1, day=1), today.replace(month=12, day=31))
        before = clubs.add_season(club, "Long ago", "2001-01-01", "2001-12-31")
        assert [s.name for s in clubs.seasons(club)] == ["This year", "Long ago"]
        assert standing(club, inside)["Ann"]["matches"] == 1 and standing(club, before) == {}
        with pytest.raises(InvalidHand):
            clubs.add_season(club, "Backwards", "2026-12-31", "2026-01-01")
        with pytest.raises(InvalidHand):
            clubs.add_season(club, "Bad day", "2026-02-30", "2026-03-01")
        clubs.name_evening(club, today, "Friday night")
        assert clubs.evenings(club) == [(today, "Friday night", [match])]
        clubs.name_evening(club, today.isoformat(), "")
        assert clubs.evenings(club, inside) == [(today, None, [match])] and clubs.evenings(club, before) == []
        with pytest.raises(matches.NotFound):
            clubs.season_of(club, "999999")


def statements_of_a_club_page(app: Flask, client, public_id: str) -> int:
    """How many SQL statements the club page's first view after a change runs."""
    from sqlalchemy import event

    from scorekeeper.club import figures
    from scorekeeper.web.club import evenings, pages

    pages.PAGES.clear()
    evenings.CARDS.clear()  # a result leaves the evening card and the roster as they were: draw them for both
    pages.ROSTERS.clear()  # counts alike
    pages._rosters.clear()
    figures._merges.clear()
    count = [0]

    def counted(*_args):
        count[0] += 1

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", counted)
    try:
        assert client.get(f"/c/{public_id}").status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", counted)
    return count[0]


@pytest.mark.parametrize("asked", [0, 2])
def test_the_club_page_reads_as_many_statements_for_forty_matches_as_for_two(app: Flask, asked: int):
    """Its evenings' marks (finished, agreed) are read once for all their matches, not once per match."""
    from scorekeeper.club import agreements

    client = app.test_client()
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        agreements.set_rules(club, asked, False)
        public_id = club.public_id
        for _ in range(2):
            club_match(club, FOUR, TEAM_0_LOSES)
    few = statements_of_a_club_page(app, client, public_id)
    with app.app_context():
        club = clubs.find(public_id)
        for _ in range(38):
            club_match(club, FOUR, TEAM_1_LOSES)
    assert statements_of_a_club_page(app, client, public_id) == few


def test_a_big_read_of_a_season_settles_the_collector_once(app: Flask, monkeypatch):
    """After many rows read at once, what the process keeps is left out of the collector's walks; a new
    result read afterwards does not settle again."""
    from scorekeeper.club import figures as club_figures

    settled: list[str] = []
    monkeypatch.setattr(club_figures, "SETTLE_AFTER", 5)
    monkeypatch.setattr(club_figures.gc, "freeze", lambda: settled.append("freeze"))
    monkeypatch.setattr(club_figures.gc, "unfreeze", lambda: settled.append("unfreeze"))
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        for _ in range(6):
            club_match(club, FOUR, TEAM_0_LOSES)
        clubs.view(club, None)
        assert settled == ["unfreeze", "freeze"]  # what the last settle froze is given back first
        club_match(club, FOUR, TEAM_1_LOSES)
        clubs.view(club, None)
        assert settled == ["unfreeze", "freeze"]


def test_a_hand_of_a_club_match_costs_three_statements_more_than_a_casual_hand(app: Flask):
    """The club (for its checks), its result row and the agreements a change clears: nothing read twice, the
    closed evenings looked up once per club state, the club not read again to answer. On PostgreSQL one more:
    the club's turn to number its write (club_results.keep)."""
    from sqlalchemy import event

    from helpers.api import bearer, create_match

    client = app.test_client()
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        for _ in range(2):
            club_match(club, FOUR, TEAM_0_LOSES)  # finished matches in the club: their rows exist
        kept, key = clubs.start_match(club, "kozyol", FOUR, None)
        kept_id = kept.public_id
        engine = db.engine
    casual = create_match(client, "kozyol", FOUR)
    deal = {"points": [60, 60]}

    def statements(url: str, key: str) -> int:
        count = [0]

        def counted(*_args):
            count[0] += 1

        event.listen(engine, "before_cursor_execute", counted)
        try:
            assert client.post(url, json=deal, headers=bearer(key)).status_code == 201
        finally:
            event.remove(engine, "before_cursor_execute", counted)
        return count[0]

    for _ in range(2):  # the second hand of each: the club's closed evenings are known by then
        club_hand = statements(f"/api/v1/matches/{kept_id}/hands", key)
        casual_hand = statements(f"/api/v1/matches/{casual['id']}/hands", casual["edit_key"])
    assert club_hand == casual_hand + 3 + bool(POSTGRES_URL), (club_hand, casual_hand)


def test_after_a_result_the_club_page_draws_only_that_evening_again(app: Flask, monkeypatch):
    """Each evening of the club page is kept by its matches' marks: a new result redraws its own evening, a
    rename every one (names change), and what is drawn is what a page drawn from nothing shows."""
    from datetime import timedelta

    from sqlalchemy import update

    from scorekeeper.web.club import pages

    loaded: list[int] = []
    real = clubs.matches_by_id
    monkeypatch.setattr(clubs, "matches_by_id", lambda ids: (loaded.append(len(ids)), real(ids))[1])
    client = app.test_client()
    with app.app_context():
        club, _key = clubs.create("Sunday table")
        public_id, today = club.public_id, clubs.today(club)
        for back in (3, 2, 1):  # three evenings before today's, two matches each
            made = [club_match(club, FOUR, TEAM_0_LOSES) for _ in range(2)]
            db.session.execute(update(ClubResult).where(ClubResult.match_id.in_([m.id for m in made]))
                               .values(day=today - timedelta(days=back)))
            db.session.commit()
        club_match(club, FOUR, TEAM_1_LOSES)
        clubs.add_player(club, "Eve")  # on the roster before: a name new to it changes the club's version
    first = client.get(f"/c/{public_id}").text
    assert len(loaded) == 4
    loaded.clear()
    with app.app_context():
        club_match(clubs.find(public_id), ["Ann", "Bob", "Cid", "Eve"], TEAM_0_LOSES)  # today's evening only
    after = client.get(f"/c/{public_id}").text
    assert loaded == [1] and "Eve" in after and first != after  # the new match alone: the other line is kept
    pages.EVENINGS.clear()
    pages.LINES.clear()
    pages.PAGES.clear()
    assert client.get(f"/c/{public_id}").text == after  # the kept evenings are those drawn from nothing
    loaded.clear()
    with app.app_context():
        club = clubs.find(public_id)
        ids = {player.name: player.id for player in clubs.roster(club)}
        clubs.rename_player(club, ids["Ann"], "Anne")
    renamed = client.get(f"/c/{public_id}").text
    assert len(loaded) == 4 and "Anne" in renamed


def test_after_a_result_the_figures_read_only_the_rows_written_since(app: Flask, monkeypatch):
    """The kept sums of a season read the rows written since their last read (the club's write numbers),
    not the season again: a result among forty reads its own row, and a correction the row it changed.
    What they give is what figures made from nothing give."""
    from scorekeeper.club import figures as club_figures
    from scorekeeper.club.engine import standings as engine

    read: list[int] = []
    real = club_figures.SeasonReading.written
    monkeypatch.setattr(club_figures.SeasonReading, "written",
                        lambda reading, since: (lambda rows: (read.append(len(rows)), rows)[1])(real(reading, since)))
    with app.app_context():
        club, _key = clubs.create("Forty and one")
        made = [club_match(club, FOUR, TEAM_0_LOSES if n % 3 else TEAM_1_LOSES) for n in range(40)]
        clubs.view(club, None)
        assert read == [40]
        read.clear()
        club_match(club, ["Ann", "Bob", "Cid", "Eve"], TEAM_1_LOSES)
        after = clubs.view(club, None)
        assert read and max(read) <= 2, read
        read.clear()
        matches.undo(made[5].public_id, 1)  # a finished match played again: its row leaves the standings
        undone = clubs.view(club, None)
        assert read and max(read) <= 2, read
        assert undone.games["kozyol"].matches == after.games["kozyol"].matches - 1 == 40
        every = clubs.played(club, None)
        assert undone.games["kozyol"].standings == engine.standings("kozyol", every, club.min_matches)
        club_figures._digests.clear()  # made from nothing: the same figures
        club_figures._cache.clear()
        club_figures._played.clear()
        assert clubs.view(club, None) == undone


def test_after_a_result_the_club_page_draws_only_that_games_standings_again(app: Flask, monkeypatch):
    """Each game's standings table is kept by its figures' marks: a Kozyol result leaves Barbu's table as
    it was drawn, and what is kept is what a page drawn from nothing shows."""
    from helpers.club_matches import scripted_barbu
    from scorekeeper.web.club import pages

    drawn: list[str] = []
    real = pages.render_template
    monkeypatch.setattr(pages, "render_template", lambda name, **values: (
        drawn.append(values["slug"]) if name == "club/_standings_block.html" else None, real(name, **values))[1])
    client = app.test_client()
    with app.app_context():
        club, _key = clubs.create("Two games")
        public_id = club.public_id
        barbu, _key = clubs.start_match(club, "barbu", FOUR, {"first_declarer": "Ann",
                                                              "enforce_declarer_doubles": False})
        for entry in scripted_barbu():
            matches.record(barbu.public_id, entry)
        club_match(club, FOUR, TEAM_0_LOSES)
    client.get(f"/c/{public_id}")
    assert sorted(drawn) == ["barbu", "kozyol"]
    drawn.clear()
    with app.app_context():
        club_match(clubs.find(public_id), FOUR, TEAM_1_LOSES)
    after = client.get(f"/c/{public_id}").text
    assert drawn == ["kozyol"]
    pages.STANDINGS.clear()
    pages.PAGES.clear()
    assert client.get(f"/c/{public_id}").text == after
