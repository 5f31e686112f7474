"""Spreadsheets: a club season's matches, hands and standings, and one match's hands, as CSV.

UTF-8 without a byte order mark, a header row, comma-separated, one row per player and match (or
hand), so a spreadsheet opens it as is and a pivot table sums it; a match is named by its link.
Text a spreadsheet would take for a formula (a name starting with =, +, - or @) is written with a
leading apostrophe.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

from flask import Response, url_for

from ...club import seasons as club_seasons
from ...club.figures import names as names_of
from ...club.results import day_of, evening_names, finished_results, readable, resolver, zone_of
from ...match import matches
from ...models import Club, Match, Season

FORMULA = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """A value as a spreadsheet should read it: numbers as they are, text never taken for a formula.

    >>> cell("=1+1"), cell("Ann"), cell(-3), cell(None), cell(2.5)
    ("'=1+1", 'Ann', -3, '', 2.5)
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and value.startswith(FORMULA):
        return "'" + value
    return value


def spreadsheet(name: str, header: list[str], rows: Iterable[list[Any]]) -> Response:
    """A CSV download: text/csv in UTF-8, the header row first, saved under name."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows([cell(value) for value in row] for row in rows)
    response = Response(out.getvalue().encode("utf-8"), mimetype="text/csv")
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def slug(text: str) -> str:
    """A file name part from any name: ASCII letters and digits, words joined by dashes.

    >>> slug("Friday Barbu circle!"), slug("Клуб")
    ('friday-barbu-circle', 'club')
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "club"


def link(match: Match) -> str:
    """The match's page, as a full link: a spreadsheet makes it clickable (a bare id may start with a dash)."""
    return url_for("pages.match", public_id=match.public_id, _external=True)


def club_file(club: Club, season: Season | None, what: str) -> str:
    return "-".join([slug(club.name), slug(season.name) if season else "all-time", what]) + ".csv"


MATCH_HEADER = ["day", "evening", "game", "match", "hands", "seat", "player_id", "player", "total", "place", "winner"]


def club_matches(club: Club, season: Season | None) -> Response:
    """Every finished match of the season: one row per seat, with its total and finishing place."""
    evenings, now = evening_names(club), resolver(club)
    names = names_of(club)
    rows = []
    for match, result in finished_results(club, season):
        made = readable(match.id, result.digest)
        if made is None:
            continue
        for seat, name in enumerate(match.players):
            player = now.get(made["seats"][seat], made["seats"][seat])
            rows.append([result.day.isoformat(), evenings.get(result.day), match.game, link(match),
                         made["hands"], seat + 1, player, names.get(player, name), made["totals"][seat],
                         made["places"][seat], seat in made["winners"]])
    return spreadsheet(club_file(club, season, "matches"), MATCH_HEADER, rows)


HAND_HEADER = ["day", "game", "match", "hand", "dealer", "player", "score", "total"]


def hand_rows(match: Match, day: str) -> list[list[Any]]:
    """One row per hand and player: what the hand gave them and their running total (Kozyol: their team's)."""
    played = matches.cached_replay(match)
    rows, before = [], [0] * len(played.sides)
    for hand in played.hands:
        after = played.side_totals(hand)
        for side, names in enumerate(played.sides):
            for name in names:
                rows.append([day, match.game, link(match), hand["number"], hand["dealer"], name,
                             after[side] - before[side], after[side]])
        before = after
    return rows


def club_hands(club: Club, season: Season | None) -> Response:
    """Every hand of the season's finished matches, one row per player."""
    rows = [row for match, result in finished_results(club, season) for row in hand_rows(match, result.day.isoformat())]
    return spreadsheet(club_file(club, season, "hands"), HAND_HEADER, rows)


def match_hands(match: Match) -> Response:
    """Every hand of one match (of a club or not, finished or not), one row per player."""
    day = day_of(match.created_at, zone_of(match.club_id)).isoformat()  # a club match: the club's day
    return spreadsheet(f"{match.game}-{match.public_id}-hands.csv", HAND_HEADER, hand_rows(match, day))


def standings(club: Club, season: Season | None, game: str | None) -> Response:
    """The season's standings, per game: place, matches, the game's figures, and the rating beside them."""
    seen = club_seasons.view(club, season)  # a closed season from its snapshot
    figures: list[str] = []  # every figure of the games listed, in the engine's order
    for slug_, line in seen.games.items():
        if game in (None, slug_):
            figures += [name for name in dict.fromkeys(n for row in line.standings for n in row.figures)
                        if name not in figures]
    rows = []
    for slug_, line in seen.games.items():
        if game not in (None, slug_):
            continue
        rated = {rating.player: rating for rating in line.ratings}
        for row in line.standings:
            rating = rated.get(row.player)
            rows.append([slug_, row.place, row.player, seen.names.get(row.player, ""), row.matches, row.ranked,
                         *[row.figures.get(name) for name in figures],
                         *([round(rating.ordinal, 2), round(rating.mu, 2), round(rating.sigma, 2)] if rating
                           else ["", "", ""])])
    header = ["game", "place", "player_id", "player", "matches", "ranked", *figures, "rating", "mu", "sigma"]
    return spreadsheet(club_file(club, season, f"standings-{game}" if game else "standings"), header, rows)
