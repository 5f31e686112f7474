"""The synthetic photo set: a random game's real sheet printed, filled, photographed, read, and each row judged.

A game's readable sheet is printed (ThroughTheApi: the match made over the API and its sheet fetched as the match
page offers it; FromTheEngine: the same template rendered from the engine's replay, no database) and rastered at
150-300 dpi (a printer's resolution), a page filled with the hands of that page (all its rows, or the first few: a table
photographs a sheet half played too), photographed, then read as the app reads it: intake, read, group_marks,
fit_page with the hands before the page already in the match. Each row that holds a hand is then exact (certain,
and its marks are the truth's), doubtful (sent to a person), or silently wrong (certain and not the truth). The
last must never happen.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from flask import Flask
from flask.testing import FlaskClient

from helpers.paper import marks_of, paper_pdf, raster
from helpers.paper_games import Played, random_game
from helpers.paper_pen import TABLE, Filled, Styles, fill
from helpers.paper_photos import TWELVE_MP, Camera, Shot, shoot
from scorekeeper import links
from scorekeeper.games import GAMES
from scorekeeper.models import Match
from scorekeeper.names import parse_players
from scorekeeper.paper import fitting, layout, marks, photos, reader
from scorekeeper.paper.layout import Identity, Page
from scorekeeper.pdf import render_pdf
from scorekeeper.web.sheets import paper

DPIS = (150, 200, 250, 300)
CORNER_OUT = 0.08  # of the photos: one corner out of the frame


@dataclass
class Printed:
    """One page of a game's sheet as printed: the match, the page (from 1), its hands, the page rastered."""

    played: Played
    match: str
    number: int
    page: Page
    first: int  # the hand number of its first row
    images: dict[int, np.ndarray]  # dpi -> the page in grey

    @property
    def hands(self) -> list[dict[str, Any]]:
        return self.played.entries[self.first - 1:self.first - 1 + len(self.page.rows)]


class Sheets(Protocol):
    """Prints a game's readable sheet with its first `hands` hands in the match: (the match's public id, PDF)."""

    def __call__(self, played: Played, hands: int) -> tuple[str, bytes]: ...


class ThroughTheApi:
    """Sheets as a table gets them: the match made over the API, its hands recorded, its sheet fetched from its page."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        # id(played) -> the game (kept, so that its id is never another's), its match, the hands recorded
        self.made: dict[int, tuple[Played, dict[str, Any], int]] = {}

    def __call__(self, played: Played, hands: int) -> tuple[str, bytes]:
        if id(played) not in self.made:
            answer = self.client.post("/api/v1/matches", json={"game": played.game, "players": played.players,
                                                               "options": played.options})
            assert answer.status_code == 201, answer.get_json()
            self.made[id(played)] = (played, answer.get_json(), 0)
        _same, match, recorded = self.made[id(played)]
        for entry in played.entries[recorded:hands]:
            put = self.client.post(f"/api/v1/matches/{match['id']}/hands", json=entry,
                                   headers={"Authorization": f"Bearer {match['edit_key']}"})
            assert put.status_code == 201, put.get_json()
        self.made[id(played)] = (played, match, max(recorded, hands))
        return match["id"], paper_pdf(self.client, match["id"])


class FromTheEngine:
    """The same sheet with no database: the engine replays the hands, and the template and PDF renderer that
    GET /m/<id>/paper.pdf uses print it (tests/test_paper_sheet.py covers that route on both databases)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.ids: dict[int, tuple[Played, str]] = {}  # id(played) -> the game (kept: its id stays its own), its match

    def __call__(self, played: Played, hands: int) -> tuple[str, bytes]:
        public_id = self.ids.setdefault(id(played), (played, links.new_public_id()))[1]
        game = GAMES[played.game]
        names = parse_players(played.players, game.min_players, game.max_players)
        with self.app.test_request_context():
            options = game.parse_options(names, played.options, random.Random(0))
            replay = game.new_replay(names, options)
            for entry in played.entries[:hands]:
                replay.play(entry)
            match = Match(public_id=public_id, game=game.slug, players=names, options=options, language=None)
            return public_id, render_pdf("sheets/paper.html", **paper.sheets_of(match, replay))


def printed_pages(sheets: Sheets, played: Played, rng: np.random.Generator, dpis: int = 1,
                  most: int = 3) -> list[Printed]:
    """The first pages (most of them) of the game's sheet that hold a hand, rastered at dpis resolutions picked
    at random for the game.

    A page the sheet does not have yet is printed once the hands before it are in the match, as a table goes on:
    a long game's sheet has room for the hands played and one page more.
    """
    rows = layout.rows_per_page(played.game)
    page = layout.page_for(played.game, len(played.players), int(played.options.get("moon_points", 26)))
    chosen = sorted(int(d) for d in rng.choice(DPIS, dpis, replace=False))
    rastered: dict[int, list[np.ndarray]] = {}
    out: list[Printed] = []
    match = ""
    for number in range(1, min(most, -(-len(played.entries) // rows)) + 1):
        first = (number - 1) * rows + 1
        if len(next(iter(rastered.values()), [])) < number:
            match, pdf = sheets(played, first - 1)
            rastered = {dpi: raster(pdf, dpi) for dpi in chosen}
        out.append(Printed(played, match, number, page, first, {dpi: rastered[dpi][number - 1] for dpi in chosen}))
    return out


@dataclass
class Photo:
    printed: Printed
    dpi: int
    rows: int  # rows filled, from the first
    filled: Filled
    shot: Shot

    @property
    def truth(self) -> dict[int, dict[str, Any]]:
        return dict(enumerate(self.printed.hands[:self.rows]))


def photo_of(printed: Printed, rng: np.random.Generator, camera: Camera = TWELVE_MP, severity: float | None = None,
             styles: Styles = TABLE, corner_out: float | bool = CORNER_OUT) -> Photo:
    """A photo of the page with all its hands (most often) or only the first few, any corner out now and then."""
    hands = len(printed.hands)
    rows = hands if rng.random() < 0.7 else int(rng.integers(1, hands + 1))
    played = printed.played
    wanted: dict[tuple[int, layout.Key], Any] = {}
    for row, entry in enumerate(printed.hands[:rows]):
        wanted.update({key: values for key, values in marks_of(played.game, entry, played.players, row).items()
                       if values})
    dpi = int(rng.choice(sorted(printed.images)))
    filled = fill(printed.images[dpi], printed.page, wanted, rng, styles)
    out = int(rng.integers(4)) if rng.random() < float(corner_out) else None
    shot = shoot(filled.image, rng, float(rng.uniform(0.3, 1.0)) if severity is None else severity, camera, out,
                 printed.page)
    return Photo(printed, dpi, rows, filled, shot)


@dataclass
class Read:
    """What the app made of a photo: the rows fitted, or the sentence it refused the photo with; and how long."""

    rows: list[fitting.RowRead] = field(default_factory=list)
    refused: str | None = None
    seconds: float = 0.0
    fills: dict[tuple[int, layout.Key], list[float]] = field(default_factory=dict)  # the reader's, per group


def read_photo(photo: Photo) -> Read:
    """Read the photo as the app does (photos.intake, reader.read, marks.group_marks, fitting.fit_page)."""
    printed = photo.printed
    played = printed.played

    def layout_for(identity: Identity) -> Page:
        assert identity.match == printed.match and identity.page == printed.number, identity
        return printed.page

    start = time.perf_counter()
    try:
        reading = reader.read(photos.intake(photo.shot.jpeg), layout_for)
    except (reader.Unreadable, photos.PhotoRefused) as refusal:
        return Read(refused=refusal.sentence, seconds=time.perf_counter() - start)
    found = {(group.row, group.key): marks.of_reading(group, reading) for group in reading.page.groups}
    options = dict(played.options)
    rows = fitting.fit_page(reading.page, found, played.players, options, played.entries[:printed.first - 1],
                            printed.first)
    return Read(rows, None, time.perf_counter() - start, reading.fills)


def fill_levels(photo: Photo, read: Read) -> dict[str, list[float]]:
    """How dark the reader found each kind of mark (its shape), and the unmarked bubbles of the filled rows."""
    levels: dict[str, list[float]] = {}
    for (row, key), fills in read.fills.items():
        if row >= photo.rows:
            continue
        for bubble, level in zip(photo.printed.page.group(row, key).bubbles, fills, strict=True):
            shape = photo.filled.shapes.get((row, key, bubble.value), "unmarked")
            levels.setdefault(shape, []).append(level)
    return levels


# What a row came to: exact, doubtful (deliberately or not), wrong (certain, not the truth), lost (a hand read as an
# empty row), phantom (an empty row read as a hand).
EXACT, DOUBTED, UNEXPECTED, WRONG, LOST, PHANTOM = "exact", "doubt asked", "doubt unasked", "wrong", "lost", "phantom"


@dataclass
class Judged:
    counts: Counter[str] = field(default_factory=Counter)
    kinds: dict[int, str] = field(default_factory=dict)  # row -> what it came to
    reasons: Counter[str] = field(default_factory=Counter)  # the reasons given for the rows not exact (templates)
    failures: list[str] = field(default_factory=list)  # one line per row that was not exact, to tune the reader


def judge(photo: Photo, read: Read, label: str = "") -> Judged:
    """Each row of the photo against the truth."""
    out = Judged()
    played = photo.printed.played
    truth = photo.truth
    for row in read.rows:
        if row.status == fitting.EMPTY:
            if row.row in truth:
                out.counts[LOST] += 1
                out.kinds[row.row] = LOST
                out.failures.append(describe(photo, row, LOST, label))
            continue
        if row.row not in truth:
            kind = PHANTOM
        elif row.status == fitting.DOUBTFUL:
            kind = DOUBTED if row.row in photo.filled.doubts else UNEXPECTED
        elif marks_of(played.game, row.entry or {}, played.players, row.row) == marks_of(
                played.game, truth[row.row], played.players, row.row):
            kind = EXACT
        else:
            kind = WRONG
        out.counts[kind] += 1
        out.kinds[row.row] = kind
        if kind != EXACT:
            out.reasons.update(f"{kind}: {reason}" for reason in dict.fromkeys(row.reasons or ["(none)"]))
            out.failures.append(describe(photo, row, kind, label))
    return out


def describe(photo: Photo, row: fitting.RowRead, kind: str, label: str) -> str:
    """One line that says what went wrong where: the row's style, its noise, the photo's distortions."""
    settings = ", ".join(f"{name} {value:.3g}" for name, value in photo.shot.settings.items())
    told = "; ".join(text.format(**params) if params else text for text, params in zip(row.reasons, row.params,
                                                                                      strict=True))
    truth = photo.truth.get(row.row)
    return (f"{label}{kind}: page {photo.printed.number} row {row.row} (hand {row.number}), "
            f"style {photo.filled.styles.get(row.row)}, noise {photo.filled.noise.get(row.row, [])}, "
            f"doubts placed {photo.filled.doubts.get(row.row, [])}, dpi {photo.dpi}; photo: {settings}; "
            f"read {row.read}; said: {told or '-'}; truth {truth}; proposed {row.entry}")


def game_pages(sheets: Sheets, game: str, rng: np.random.Generator, matches: int,
               dpis: int = 1, progress: Callable[[str], None] | None = None) -> list[Printed]:
    """The printed pages of several random games of one kind."""
    pages: list[Printed] = []
    for _ in range(matches):
        pages += printed_pages(sheets, random_game(game, rng), rng, dpis)
        if progress:
            progress(f"{game}: {len(pages)} pages printed")
    return pages
