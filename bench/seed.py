"""Benchmark data, made through the app's own code: real matches (matches.create) and bulk rows.

Bulk rows go in through SQLAlchemy Core with the app's tables, holding entries the engine
produced, so every seeded match replays exactly like one entered at the table.
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, Column, MetaData, Table, Text, insert, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.types import TypeDecorator

from harness import ROOT  # noqa: F401  (puts the project on sys.path)
from scorekeeper import links
from scorekeeper.app import create_app
from scorekeeper.db import db
from scorekeeper.games import GAMES
from scorekeeper.match import matches
from scorekeeper.models import Hand, HandChange, Match

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
HEARTS_PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
CONTRACTS = ["no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu", "trumps", "dominoes"]
ANN, BOB, CID, DEE = PLAYERS
BARBU_ENTRIES: dict[str, dict[str, Any]] = {
    "no_tricks": {"contract": "no_tricks", "tricks": {ANN: 4, BOB: 3, CID: 5, DEE: 1}},
    "no_queens": {"contract": "no_queens", "queens": {ANN: 1, BOB: 0, CID: 1, DEE: 2}},
    "no_hearts": {"contract": "no_hearts", "hearts": {ANN: 4, BOB: 5, CID: 2, DEE: 2}, "ace_of_hearts": ANN},
    "no_last_two": {"contract": "no_last_two", "second_last": CID, "last": DEE},
    "barbu": {"contract": "barbu", "king_of_hearts": BOB},
    "trumps": {"contract": "trumps", "tricks": {ANN: 6, BOB: 3, CID: 1, DEE: 3}, "trump_suit": "spades"},
    "dominoes": {"contract": "dominoes", "order": [BOB, ANN, DEE, CID], "start_rank": "J"},
}
BARBU_OPTIONS = {"first_declarer": BOB}
HEARTS_OPTIONS = {"target": 1000, "first_dealer": "Ann"}


def barbu_entries() -> list[dict[str, Any]]:
    """A whole 28-hand Barbu match (Bob declares first), with the compulsory doubles and a few more."""
    entries = []
    for block in range(4):
        declarer = PLAYERS[(1 + block) % 4]
        for index, contract in enumerate(CONTRACTS[block:] + CONTRACTS[:block]):
            doubles = []
            if index < 2:  # everyone doubles the declarer in the first two hands of a block
                doubles = [{"by": p, "target": declarer, "redoubled": p == CID} for p in PLAYERS if p != declarer]
                if declarer not in (BOB, DEE) and index == 0:
                    doubles.append({"by": BOB, "target": DEE, "redoubled": False})
            entries.append({**BARBU_ENTRIES[contract], "doubles": doubles})
    return entries


def hearts_entries(count: int) -> list[dict[str, Any]]:
    """count Cancellation Hearts hands for six players that stay below a target of 1000."""
    entries = []
    for i in range(count):
        seat = i % len(HEARTS_PLAYERS)
        if i % 25 == 24:  # now and then somebody shoots the moon
            hearts = {p: 26 if n == seat else 0 for n, p in enumerate(HEARTS_PLAYERS)}
            marias = {p: 2 if n == seat else 0 for n, p in enumerate(HEARTS_PLAYERS)}
            entries.append({"hearts": hearts, "black_marias": marias, "moon": "subtract"})
            continue
        hearts = {p: (i + n) % 4 for n, p in enumerate(HEARTS_PLAYERS)}
        marias = {p: int(i % 2 == 0 and n == (i // 2) % len(HEARTS_PLAYERS)) for n, p in enumerate(HEARTS_PLAYERS)}
        entries.append({"hearts": hearts, "black_marias": marias})
    return entries


def app():
    """The real app, configured from the SCOREKEEPER_* settings harness.instance() put in place."""
    return create_app()


def create(flask_app, game: str, players: list[str], options: dict[str, Any],
           entries: list[dict[str, Any]]) -> tuple[str, str]:
    """A match made by the app's own code; returns its public id and edit key."""
    with flask_app.app_context():
        match, key = matches.create(game, players, options, entries, source="bench")
        public_id = match.public_id
        db.session.remove()
    return public_id, key


def stored_entries(game: str, players: list[str], options: dict[str, Any], entries: list[dict[str, Any]]):
    """Options and entries exactly as the app stores them (parsed, normalized by the engine)."""
    rules = GAMES[game]
    parsed = rules.parse_options(players, options, secrets.SystemRandom())
    played = rules.new_replay(players, parsed)
    return parsed, [played.play(entry)["entry"] for entry in entries]


class JsonText(TypeDecorator):
    """JSON text stored as it is on SQLite; on PostgreSQL, whose json columns take no text, decoded and stored
    as JSON (the rows still repeat a few documents, encoded once for SQLite)."""

    impl = Text
    cache_ok = True

    def load_dialect_impl(self, dialect):
        return dialect.type_descriptor(postgresql.JSON() if dialect.name == "postgresql" else Text())

    def process_bind_param(self, value, dialect):
        return json.loads(value) if dialect.name == "postgresql" and isinstance(value, str) else value


def prepared_json(table: Table) -> Table:
    """The app's table with its JSON columns taking JSON text: rows repeat a few documents, encoded once."""
    columns = [Column(c.name, JsonText() if isinstance(c.type, JSON) else c.type, primary_key=c.primary_key)
               for c in table.columns]
    return Table(table.name, MetaData(), *columns)


def bulk_barbu(flask_app, count: int, batch: int = 5000, log=print) -> None:
    """Insert count Barbu matches of 0 to 28 hands (a hand-change line per hand) with Core bulk inserts."""
    options, entries = stored_entries("barbu", PLAYERS, BARBU_OPTIONS, barbu_entries())
    players_json, options_json = json.dumps(PLAYERS), json.dumps(options)
    entries = [json.dumps(entry) for entry in entries]
    match_table, hand_table, change_table = (prepared_json(model.__table__) for model in (Match, Hand, HandChange))
    now = datetime.now(timezone.utc)
    key_hash = links.hash_key("not-a-real-key")
    with flask_app.app_context():
        engine = db.engine
        with engine.connect() as conn:
            first = conn.execute(text("SELECT COALESCE(MAX(id), 0) FROM matches")).scalar() + 1
        for start in range(0, count, batch):
            ids = range(first + start, first + min(start + batch, count))
            match_rows, hand_rows, change_rows = [], [], []
            for match_id in ids:
                played = match_id % 29  # every length from an empty sheet to a finished match
                match_rows.append({
                    "id": match_id, "public_id": secrets.token_urlsafe(16), "game": "barbu", "players": players_json,
                    "options": options_json, "version": 1 + played, "edit_key_hash": key_hash,
                    "created_at": now, "updated_at": now,
                })
                for number in range(1, played + 1):
                    entry = entries[number - 1]
                    hand_rows.append({"match_id": match_id, "number": number, "entry": entry,
                                      "created_at": now, "updated_at": now})
                    change_rows.append({"match_id": match_id, "number": number, "action": "record",
                                        "before": None, "after": entry, "source": "bench", "at": now})
            with engine.begin() as conn:
                conn.execute(insert(match_table), match_rows)
                conn.execute(insert(hand_table), hand_rows)
                conn.execute(insert(change_table), change_rows)
            log(f"  seeded {start + len(ids)} of {count} matches")
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                for table in ("matches", "hands", "hand_changes"):
                    conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                      f"(SELECT MAX(id) FROM {table}))"))
                conn.execute(text("ANALYZE"))
            else:
                conn.execute(text("ANALYZE"))
        engine.dispose()
