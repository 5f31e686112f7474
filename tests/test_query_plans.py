"""Every lookup on a hot path uses an index: the plans of the statements pages, polls and writes send.

The statements are captured from real requests (so a new query is checked the day it is added),
then explained on the database under test: on SQLite no table is scanned and nothing is sorted
in a temporary tree; on PostgreSQL, with sequential scans switched off, no plan still needs one
or reads an index without a condition on it (sorting one match's hands is fine there).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from helpers.api import bearer, create_match
from helpers.matches import PLAYERS
from scorekeeper.db import db
from scorekeeper.match import matches

ANN, BOB, CID, DEE = PLAYERS
HANDS = [
    {"contract": "no_tricks", "tricks": {ANN: 4, BOB: 3, CID: 5, DEE: 1}},
    {"contract": "no_queens", "queens": {ANN: 1, BOB: 0, CID: 1, DEE: 2}},
    {"contract": "barbu", "king_of_hearts": BOB},
]


def hot_paths(app: Flask) -> list[tuple[str, Any]]:
    """Walk a match through what tables do; return every lookup statement sent, with its parameters."""
    client = app.test_client()
    made = create_match(client, options={"first_declarer": ANN})
    api, page, key = f"/api/v1/matches/{made['id']}", f"/m/{made['id']}", made["edit_key"]
    sent: list[tuple[str, Any]] = []

    def capture(conn, cursor, statement, parameters, context, executemany) -> None:  # noqa: ARG001
        if not executemany and statement.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE")):
            sent.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", capture)
    try:
        for hand in HANDS:
            assert client.post(f"{api}/hands", json=hand, headers=bearer(key)).status_code == 201
        assert client.put(f"{api}/hands/1", json=HANDS[0], headers=bearer(key)).status_code == 200
        assert client.delete(f"{api}/hands/3", headers=bearer(key)).status_code == 200
        etag = client.get(api).headers["ETag"]
        assert client.get(api, headers={"If-None-Match": etag}).status_code == 304
        assert client.get(f"{api}/history").status_code == 200
        watcher = app.test_client()
        for _ in range(2):
            assert watcher.get(page).status_code == 200
        client.get(f"{page}/join?key={key}")
        for path in (page, f"{page}/hands/new", f"{page}/hands/1", f"{page}/history", f"{page}/table", "/"):
            assert client.get(path).status_code == 200, path
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    with app.app_context():
        # The version-and-key read of polls and key checks goes to the driver directly; check it too.
        sql, positional = matches._compiled_peek_sql(db.engine.dialect)
        sent.append((sql, (made["id"],) if positional else {"public_id": made["id"]}))
    return sent


def unindexed(app: Flask, statement: str, parameters: Any) -> list[str]:
    """The lines of the statement's plan that read a whole table or sort outside an index."""
    with app.app_context(), db.engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters).all()
            return [row[-1] for row in rows if row[-1].startswith("SCAN") or "TEMP B-TREE" in row[-1]]
        connection.exec_driver_sql("SET enable_seqscan = off")
        found = connection.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {statement}", parameters).scalar()
        connection.rollback()
        return [f"{node['Node Type']} on {node.get('Relation Name', '?')}" for node in nodes(found[0]["Plan"])
                if node["Node Type"] == "Seq Scan" or ("Index" in node["Node Type"] and "Index Cond" not in node)]


def nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    """A PostgreSQL plan node and all below it."""
    return [node, *(below for child in node.get("Plans", []) for below in nodes(child))]


def test_every_hot_lookup_uses_an_index(app: Flask):
    sent = hot_paths(app)
    checked = {statement: parameters for statement, parameters in sent}
    for statement, parameters in checked.items():
        assert not unindexed(app, statement, parameters), statement
    assert any("WHERE matches.public_id" in statement for statement in checked)
    assert any("FROM hands" in statement and "match_id" in statement for statement in checked)
    assert any("FROM hand_changes" in statement for statement in checked)
    assert any(statement.startswith("UPDATE matches") for statement in checked)


def test_the_check_sees_a_lookup_without_an_index(app: Flask):
    with app.app_context():
        sql = "SELECT id FROM hand_changes WHERE source = 'api'"
    assert unindexed(app, sql, ())


@pytest.mark.sqlite_only
def test_sqlite_syncs_the_log_at_checkpoints_not_at_every_commit(app: Flask):
    with app.app_context(), db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
