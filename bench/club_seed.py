"""A benchmark club: 100 players and 10,000 finished matches of the three games over a year, in bulk rows.

Every match is one of a few dozen matches played through the engine with seats named S0, S1, ...;
a seeded match takes one of them with the names of its club players put in, and its club result
row holds the engine's own digest (scorekeeper.club.engine.digest), so the pages read what the app wrote.
"""

from __future__ import annotations

import json
import random
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import insert, select, text

import seed
from harness import ROOT  # noqa: F401  (puts the project on sys.path)
from scorekeeper import links
from scorekeeper.club import service as clubs
from scorekeeper.club.engine.digest import digest
from scorekeeper.db import db
from scorekeeper.games import GAMES, barbu
from scorekeeper.games.base import same_name
from scorekeeper.models import ClubPlayer, ClubResult, Hand, HandChange, Match

SEAT = re.compile(r'"S(\d+)"')
MIX = (("barbu", 4), ("kozyol", 3), ("hearts", 3))  # tenths of the matches of each game
KOZYOL_DEALS = ([75, 45], [45, 75], [60, 60], [29, 91], [91, 29], [85, 35], [35, 85], [100, 20])


@dataclass
class Template:
    """A finished match played with seats S0...: stored options and entries as JSON text, and its digest."""

    game: str
    seats: int
    options: str
    entries: list[str]
    digest: dict[str, Any]

    def named(self, names: list[str]) -> tuple[str, list[str]]:
        """Options and entries with the seats' names put in (JSON text)."""
        def put(found: re.Match) -> str:
            return json.dumps(names[int(found.group(1))])
        return SEAT.sub(put, self.options), [SEAT.sub(put, entry) for entry in self.entries]


def barbu_entries(rng: random.Random, names: list[str]) -> list[dict[str, Any]]:
    """28 legal hands: each block's contracts in a random order, everyone doubling the declarer twice."""
    def split(total: int) -> dict[str, int]:
        counts = dict.fromkeys(names, 0)
        for _ in range(total):
            counts[rng.choice(names)] += 1
        return counts

    entries = []
    for block in range(4):
        declarer = names[block]
        for index, contract in enumerate(rng.sample(barbu.CONTRACTS, len(barbu.CONTRACTS))):
            cards: dict[str, Any] = {"dominoes": {"order": rng.sample(names, 4)}, "no_last_two": {
                "second_last": rng.choice(names), "last": rng.choice(names)}, "barbu": {"king_of_hearts": rng.choice(names)},
                "no_queens": {"queens": split(4)}}.get(contract, {})
            if contract in ("no_tricks", "trumps"):
                cards = {"tricks": split(13)}
            if contract == "no_hearts":
                hearts = split(13)
                cards = {"hearts": hearts, "ace_of_hearts": rng.choice([p for p in names if hearts[p]])}
            doubles = [{"by": p, "target": declarer, "redoubled": rng.random() < 0.2}
                       for p in names if p != declarer and index < 2]
            entries.append({"contract": contract, **cards, "doubles": doubles})
    return entries


def kozyol_entries(rng: random.Random, names: list[str]) -> list[dict[str, Any]]:
    replay = GAMES["kozyol"].new_replay(names, GAMES["kozyol"].parse_options(names, {}, None))
    entries = []
    while not replay.finished:
        entries.append({"points": list(rng.choice(KOZYOL_DEALS))})
        replay.play(entries[-1])
    return entries


def hearts_entries(rng: random.Random, names: list[str]) -> list[dict[str, Any]]:
    replay = GAMES["hearts"].new_replay(names, GAMES["hearts"].parse_options(names, {"target": 100}, None))
    entries = []
    while not replay.finished:
        if rng.random() < 0.05:
            shooter = rng.choice(names)
            entry = {"hearts": {p: 26 * (p == shooter) for p in names},
                     "black_marias": {p: 2 * (p == shooter) for p in names}, "moon": "subtract"}
        else:
            hearts, marias = dict.fromkeys(names, 0), dict.fromkeys(names, 0)
            for _ in range(26):
                hearts[rng.choice(names)] += 1
            for _ in range(2):
                marias[rng.choice(names)] += 1
            if any(hearts[p] == 26 and marias[p] == 2 for p in names):
                continue
            entry = {"hearts": hearts, "black_marias": marias}
        entries.append(entry)
        replay.play(entry)
    return entries


def templates(rng: random.Random, per_game: int = 16) -> dict[str, list[Template]]:
    """per_game finished matches of each game, stored as the app stores them, with their digests."""
    made: dict[str, list[Template]] = {}
    for game, play in (("barbu", barbu_entries), ("kozyol", kozyol_entries), ("hearts", hearts_entries)):
        made[game] = []
        for number in range(per_game):
            names = [f"S{seat}" for seat in range(4 if game != "hearts" else 6 + number % 6)]
            options = {"first_declarer": names[0]} if game == "barbu" else {"target": 100} if game == "hearts" else {}
            options, entries = seed.stored_entries(game, names, options, play(rng, names))
            replay = GAMES[game].new_replay(names, options)
            for entry in entries:
                replay.play(entry)
            made[game].append(Template(game, len(names), json.dumps(options), [json.dumps(e) for e in entries],
                                       digest(game, list(range(len(names))), replay)))
    return made


def make_club(flask_app, players: int) -> tuple[str, str, dict[int, str]]:
    """A club made by the app, with players bulk-inserted; its public id, admin key and roster (id -> name)."""
    with flask_app.app_context():
        club, key = clubs.create("Benchmark club")
        names = [f"Player {n:03d}" for n in range(1, players + 1)]
        db.session.execute(insert(ClubPlayer.__table__), [
            {"club_id": club.id, "name": name, "folded": same_name(name), "created_at": datetime.now(timezone.utc)}
            for name in names])
        db.session.commit()
        roster = dict(db.session.execute(select(ClubPlayer.id, ClubPlayer.name)
                                         .where(ClubPlayer.club_id == club.id)).tuples().all())
        public_id = club.public_id
        db.session.remove()
    return public_id, key, roster


def bulk_matches(flask_app, club_public_id: str, roster: dict[int, str], count: int, rng: random.Random,
                 batch: int = 2000, log=print) -> None:
    """Insert count finished club matches spread over the past year (matches, hands, history, club results)."""
    made = templates(rng)
    games = [game for game, tenths in MIX for _ in range(tenths)]
    tables = [seed.prepared_json(model.__table__) for model in (Match, Hand, HandChange, ClubResult)]
    key_hash = links.hash_key("not-a-real-key")
    now = datetime.now(timezone.utc).replace(microsecond=0)
    ids = sorted(roster)
    with flask_app.app_context():
        club = clubs.must_find(club_public_id)
        club_id = club.id
        engine = db.engine
        with engine.connect() as conn:
            first = conn.execute(text("SELECT COALESCE(MAX(id), 0) FROM matches")).scalar() + 1
        for start in range(0, count, batch):
            rows: list[list[dict[str, Any]]] = [[], [], [], []]
            for match_id in range(first + start, first + min(start + batch, count)):
                template = rng.choice(made[rng.choice(games)])
                seats = rng.sample(ids, template.seats)
                names = [roster[seat] for seat in seats]
                options, entries = template.named(names)
                at = now - timedelta(days=rng.randrange(365), minutes=rng.randrange(600))
                version = 1 + len(entries)
                rows[0].append({"id": match_id, "public_id": secrets.token_urlsafe(16), "game": template.game,
                                "players": json.dumps(names), "options": options, "version": version,
                                "edit_key_hash": key_hash, "created_at": at, "updated_at": at, "club_id": club_id,
                                "seat_ids": json.dumps(seats)})
                for number, entry in enumerate(entries, 1):
                    rows[1].append({"match_id": match_id, "number": number, "entry": entry,
                                    "created_at": at, "updated_at": at})
                    rows[2].append({"match_id": match_id, "number": number, "action": "record", "before": None,
                                    "after": entry, "source": "bench", "at": at})
                rows[3].append({"match_id": match_id, "club_id": club_id, "game": template.game, "day": at.date(),
                                "version": version, "changed": match_id,
                                "digest": json.dumps({**template.digest, "seats": seats})})
            with engine.begin() as conn:
                for table, chunk in zip(tables, rows):
                    conn.execute(insert(table), chunk)
            log(f"  seeded {start + len(rows[0])} of {count} club matches")
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                for table in ("matches", "hands", "hand_changes"):
                    conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                      f"(SELECT MAX(id) FROM {table}))"))
            conn.execute(text("ANALYZE"))
        db.session.remove()
