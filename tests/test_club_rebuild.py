"""A club's stored digests are made again from the hands: `flask club rebuild-digests`, and on reading one of an old shape."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import update

from scorekeeper.club import service as clubs
from scorekeeper.club.engine.base import VERSION
from scorekeeper.db import db
from scorekeeper.match import matches
from scorekeeper.models import Club, ClubResult, Hand, Match

FOUR = ["Ann", "Bob", "Cid", "Dee"]
TEAM_1_LOSES, TEAM_0_LOSES = {"points": [100, 20]}, {"points": [20, 100]}


def goats(club: Club) -> dict[str, int]:
    """Kozyol goats by player name, as the club's page shows them."""
    view = clubs.view(club, None)
    return {view.names[row.player]: row.figures["goats"] for row in view.games["kozyol"].standings}


def kozyol_club(app: Flask) -> tuple[str, list[int]]:
    """A club with two finished Kozyol matches of one deal each (its figures not read yet): its public id and
    the matches' row ids."""
    with app.app_context():
        club, _key = clubs.create("Thursday table")
        made = []
        for deal in (TEAM_1_LOSES, TEAM_0_LOSES):
            match, _key = clubs.start_match(club, "kozyol", FOUR, {"target": 2})
            made.append(matches.record(match.public_id, deal)[0].id)
        return club.public_id, made


def spoil(match_id: int, **changes: object) -> None:
    """Overwrite a stored digest behind the app's back (the row's version and write number stay, so figures
    kept in this process would not see it: read it before them)."""
    row = db.session.get(ClubResult, match_id)
    db.session.execute(update(ClubResult).where(ClubResult.match_id == match_id)
                       .values(digest={**row.digest, **changes}))
    db.session.commit()


def test_every_stored_digest_holds_the_version_of_its_shape(app: Flask):
    _club, made = kozyol_club(app)
    with app.app_context():
        assert [db.session.get(ClubResult, match).digest["version"] for match in made] == [VERSION, VERSION]


def test_the_command_rebuilds_a_spoiled_digest_and_the_figures_are_right_again(app: Flask, runner):
    public_id, (first, second) = kozyol_club(app)
    with app.app_context():
        spoil(first, goat=0)  # as if team 0 had lost: Ann and Cid goats twice, Bob and Dee never
        row = db.session.get(ClubResult, first).digest
        row.pop("version")
        db.session.execute(update(ClubResult).where(ClubResult.match_id == first).values(digest=row))
        db.session.commit()
        assert goats(clubs.find(public_id)) == {"Ann": 2, "Bob": 0, "Cid": 2, "Dee": 0}
    done = runner.invoke(args=["club", "rebuild-digests"])
    assert done.exit_code == 0, done.output
    assert done.output == "Rebuilt 1 of 2 stored digests.\n"
    with app.app_context():
        assert goats(clubs.find(public_id)) == {"Ann": 1, "Bob": 1, "Cid": 1, "Dee": 1}
        assert db.session.get(ClubResult, first).digest["goat"] == 1
        assert db.session.get(ClubResult, first).digest["version"] == VERSION
        assert db.session.get(ClubResult, first).version == db.session.get(Match, first).version
    again = runner.invoke(args=["club", "rebuild-digests"])
    assert again.output == "Rebuilt 0 of 2 stored digests.\n"


def test_a_digest_of_a_shape_not_read_now_is_made_again_from_the_hands_when_read(app: Flask):
    public_id, (first, _second) = kozyol_club(app)
    with app.app_context():
        spoil(first, version=VERSION + 1, goat=0)
        club = clubs.find(public_id)
        assert goats(club) == {"Ann": 1, "Bob": 1, "Cid": 1, "Dee": 1}
        assert sorted(one.digest["goat"] for one in clubs.played(club, None)) == [0, 1]


def test_a_match_whose_hands_break_a_rule_now_keeps_its_digest_and_is_named(app: Flask, runner):
    _club, (first, second) = kozyol_club(app)
    with app.app_context():
        spoil(second, goat=1)  # it was team 0's
        hand = db.session.scalar(db.select(Hand).where(Hand.match_id == first))
        hand.entry = {"points": [999, -879]}  # written around the app: the rules refuse it
        db.session.commit()
        damaged, kept = db.session.get(Match, first).public_id, db.session.get(ClubResult, first).digest
    done = runner.invoke(args=["club", "rebuild-digests"])
    assert done.exit_code == 0, done.output
    assert done.stdout == "Rebuilt 1 of 2 stored digests.\n"
    assert done.stderr == f"Left as stored, as their hands break a rule now: {damaged}.\n"
    with app.app_context():
        assert db.session.get(ClubResult, first).digest == kept
        assert db.session.get(ClubResult, second).digest["goat"] == 0  # made again from its hands


def test_the_matches_spreadsheet_reads_a_digest_of_another_shape_from_the_hands(app: Flask):
    public_id, (first, _second) = kozyol_club(app)
    with app.app_context():
        spoil(first, version=VERSION + 1, totals=[7, 7])
    sheet = app.test_client().get(f"/api/v1/clubs/{public_id}/matches.csv").get_data(as_text=True)
    rows = [line.split(",") for line in sheet.splitlines()[1:]]
    assert len(rows) == 8  # two matches of four seats
    assert "7" not in {row[8] for row in rows}  # the totals column: from the hands, not the spoiled digest


def test_a_digest_of_another_shape_whose_hands_break_a_rule_now_counts_for_nothing(app: Flask):
    public_id, (first, _second) = kozyol_club(app)
    with app.app_context():
        spoil(first, version=VERSION + 1)
        hand = db.session.scalar(db.select(Hand).where(Hand.match_id == first))
        hand.entry = {"points": [999, -879]}  # written around the app: the rules refuse it
        db.session.commit()
    with app.app_context():
        assert goats(clubs.find(public_id)) == {"Ann": 1, "Bob": 0, "Cid": 1, "Dee": 0}  # the other match only
    assert app.test_client().get(f"/c/{public_id}").status_code == 200
