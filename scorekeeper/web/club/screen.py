"""The evening on a big screen: a page for a TV in the room, read from across it.

Its latest round with every table (players, hands played, each side's total, who leads), the evening's
winners per game and the season's top places, in type of 32 px and more. The page follows the club's live
address as the club page does (static/js/live.js redraws it when the club's stamp changes), and
static/js/screen.js fits its tables to the screen: more columns first, then pages that take turns. It has
no link, button or field, and is public like the club link; it is kept per club stamp as the club's pages are.
"""

from __future__ import annotations

from typing import NamedTuple

from flask import Blueprint, render_template

from ...club import evening_results, seasons as club_seasons
from ...club.figures import ClubView
from ...games import GAMES
from ...match import matches
from ...models import Club, Evening
from . import pages
from .rounds import evening_of

bp = Blueprint("club_screen", __name__, url_prefix="/c/<public_id>")
TOP_PLACES = 3  # the season's places shown per game
WINNERS_SHOWN = 4  # names per game of the evening's winners, then how many more
COLUMNS = (2, 3)  # the columns of tables the screen tries, in turn, before it shows them in pages
TURN_MS = 15_000  # how long each page of tables stays when they take turns
REFRESH = 30  # seconds between reloads of a screen without scripts (with them, it follows the live address)


class Side(NamedTuple):
    """One side of a table (a player, or a Kozyol team) with its total; leads: the best total so far."""

    names: list[str]
    total: int | None
    leads: bool


class TableLine(NamedTuple):
    number: int | None
    game: str
    hands: int
    finished: bool
    sides: list[Side]


class Place(NamedTuple):
    place: int | None  # None: not ranked yet
    name: str


@bp.get("/evenings/<int:evening_id>/screen")
def screen(public_id: str, evening_id: int):
    """The evening on a TV: its round, every table live, the evening's winners and the season's top places."""
    return pages.kept(public_id, lambda club: screen_page(club, evening_of(club, evening_id)))


def screen_page(club: Club, evening: Evening) -> str:
    """Draw the screen from the evening's results, its latest round's matches replayed and the season's view."""
    results = evening_results.results(club, evening)
    drawn = [made for made in results.rounds if made.number is not None]
    current = drawn[-1] if drawn else None
    view = club_seasons.view(club, results.season)
    return render_template(
        "club/screen.html", club=club, evening=evening, games=GAMES, closed=results.closed,
        number=current.number if current else None, sat_out=current.sat_out if current else [],
        tables=[table_line(line) for line in current.tables] if current else [],
        winners=results.winners, shown=WINNERS_SHOWN,
        season=results.season, top=top_places(view, {line.game for line in results.lines}),
        columns=" ".join(str(count) for count in COLUMNS), turn_ms=TURN_MS, refresh=REFRESH)


def table_line(line: evening_results.Line) -> TableLine:
    """A table as the screen shows it: its sides with their totals, the best marked."""
    return TableLine(line.table, line.game, line.hands, line.finished, sides_of(line))


def sides_of(line: evening_results.Line) -> list[Side]:
    """The table's sides in the match's order, by the names the roster gives its seats now."""
    plain = [Side([name], None, False) for name in line.names]
    if line.match is None:
        return plain
    try:
        played = matches.cached_replay(line.match)
    except matches.Damaged:
        return plain
    seat = {name: at for at, name in enumerate(played.players)}
    totals = played.side_totals()
    best = (min if played.lowest_wins else max)(totals) if played.hands and totals else None
    return [Side([line.names[seat[name]] if seat[name] < len(line.names) else name for name in side], total,
                 total == best) for side, total in zip(played.sides, totals)]


def top_places(view: ClubView, tonight: set[str]) -> dict[str, list[Place]]:
    """Per game of the evening (every game of the season before the evening has one), its first places."""
    shown = [slug for slug in GAMES if slug in view.games and (slug in tonight or not tonight)]
    return {slug: [Place(row.place if row.ranked else None, view.names.get(row.player, "?"))
                   for row in view.games[slug].standings[:TOP_PLACES]] for slug in shown}
