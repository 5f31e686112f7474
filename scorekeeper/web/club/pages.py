"""Club pages: a new club, its standings and evenings, a match started from its roster, a player's record."""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable
from datetime import date, datetime, timezone
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any, NamedTuple
from urllib.parse import quote

from babel import numbers
from flask import Blueprint, abort, g, redirect, render_template, request, session, url_for
from flask_babel import get_locale, gettext as _
from markupsafe import Markup

from ... import serving
from ...club import agreements, figures as club_figures, seasons as club_seasons, service as clubs
from ...club.engine.standings import Partnership
from ...club.results import club_of, day_of, stamp
from ...club.roster import row_id
from ...games import GAMES
from ...games.base import N_
from ...i18n import translate
from ...kept import Kept
from ...match import matches
from ...models import Club, Match, Season
from ...refusals import Refusal
from ...render_slots import Busy
from .. import links
from ..errors import unavailable_form
from ..games.registry import GAME_PAGES
from ..match import phone
from ..page_cache import SharedPages, kept_address
from ..sheets import views as sheets
from . import evenings as club_evenings, members, phone as club_phone, rounds as club_rounds
from .forms import NewClubForm, club_match_form

bp = Blueprint("clubs", __name__)
GAME = f"<any({', '.join(GAMES)}):game>"
EVENINGS_SHOWN = 12  # the latest evenings on the club page
PARTNERSHIPS_SHOWN = 10  # on the club page and its PDF: a club of 100 has 4,950 pairs; the API lists them all
bp.register_error_handler(Busy, sheets.busy)
PAGES = SharedPages()  # club and player pages, per club stamp, drawn once for all workers (see kept)
BLOCK_BYTES = 2_000_000  # characters of drawn parts each cache below keeps
ROSTERS: Kept[Hashable, str] = Kept(BLOCK_BYTES, sizeof=len)  # the club page's list of players (roster_block)
_rosters: Kept[tuple[str, int, str], list[Member]] = Kept(64)  # (club, version, language) -> its roster (kept_roster)
STANDINGS: Kept[Hashable, str] = Kept(BLOCK_BYTES, sizeof=len)  # each game's standings table, per its marks
LINES: Kept[Hashable, str] = Kept(BLOCK_BYTES, sizeof=len)  # each match's line in an evening, per its marks
EVENINGS: Kept[Hashable, str] = Kept(BLOCK_BYTES, sizeof=len)  # the club page's evenings, per their matches' marks

# What a standings table shows per game, beside the player and the matches played (each game's own, from
# its page record: the engine's figures).
COLUMNS = {slug: list(pages.standings) for slug, pages in GAME_PAGES.items()}


@bp.app_template_filter("figure")
def figure(value: Any) -> str:
    """A statistic as players read it: whole numbers as they are, averages to one decimal, none as a dash.

    The same text as Babel's format_decimal(value, "#,##0.0") for averages and format_decimal(value)
    for whole numbers (a test holds them equal in every language of the app), made here with the
    locale's symbols looked up once: a big club's table prints a thousand figures. What a statistic
    never is still prints without an error, where Babel raises: a dash for an infinite or undefined
    average, and averages of 10^15 and beyond rounded by Python.
    """
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if isinstance(value, float):  # Babel's way: the float's shortest text, rounded half to even
        text = format(Decimal(repr(value)).quantize(TENTH, ROUND_HALF_EVEN), ",f") if abs(value) < LARGE \
            else format(value, ",.1f")
    else:
        text = format(value, ",d")
    return text.translate(symbols(str(get_locale())))


TENTH = Decimal("0.1")
LARGE = 1e15  # Decimal's 28 digits hold any average below it to a tenth


@functools.cache
def symbols(locale: str) -> dict[int, str]:
    """The locale's group separator, decimal sign and minus sign, as a str.translate table from ',', '.', '-'."""
    return {ord(","): numbers.get_group_symbol(locale), ord("."): numbers.get_decimal_symbol(locale),
            ord("-"): numbers.get_minus_sign_symbol(locale)}


@bp.app_template_filter("by_player")
def by_player(items: Iterable[Any]) -> dict[int, Any]:
    """Ratings (or anything with .player) by player id."""
    return {item.player: item for item in items}


@bp.app_context_processor
def club_vocabulary() -> dict[str, object]:
    """The clubs this phone knows (the home page), and the club a match belongs to (its page)."""
    return {"known_clubs": club_phone.known, "club_of": club_of, "club_columns": COLUMNS, "club_downloads": downloads,
            "seated": seated, "leading_pairs": leading_pairs}


def leading_pairs(partnerships: list[Partnership], min_matches: int) -> list[Partnership]:
    """The partnerships a page lists: in the engine's order (fewest goats per match), those with at
    least the club's minimum of matches together first, at most PARTNERSHIPS_SHOWN.

    >>> from types import SimpleNamespace as P
    >>> [p.matches for p in leading_pairs([P(matches=1), P(matches=3), P(matches=2), P(matches=5)], 3)]
    [3, 5, 1, 2]
    """
    return sorted(partnerships, key=lambda pair: pair.matches < min_matches)[:PARTNERSHIPS_SHOWN]


def seated(match: Match, names: dict[int, str]) -> list[str]:
    """Who sat at a club match, by their roster names now (a player renamed since shows the new name)."""
    seats = match.seat_ids or []
    return [names.get(seat, name) for seat, name in zip(seats, match.players)] if seats else list(match.players)


# The spreadsheets of a season the club page offers: (label, endpoint of the API).
DOWNLOADS = [(N_("Standings as CSV"), "club_api.standings_csv"), (N_("Matches as CSV"), "club_api.matches_csv"),
             (N_("Hands as CSV"), "club_api.hands_csv")]


def downloads(club: Club, season_id: int | None) -> list[tuple[str, str]]:
    """The season's CSV downloads, as (label, address)."""
    return [(_(label), url_for(endpoint, club_id=club.public_id, season=season_id)) for label, endpoint in DOWNLOADS]


def season_of(club: Club, raw: str | None) -> Season | None:
    """The season asked for with ?season=<id>: None for all time; 404 for one the club does not have."""
    try:
        return clubs.season_of(club, raw)
    except matches.NotFound:
        abort(404)


@bp.route("/clubs/new", methods=["GET", "POST"])
def new_club():
    form = NewClubForm(request.form if request.method == "POST" else None)
    if request.method == "POST" and form.validate():
        try:
            club, key = clubs.create(form.name.data)
        except Refusal as err:
            form.refuse(err)
        else:
            club_phone.remember(club, key)
            return redirect(url_for("clubs.share", public_id=club.public_id))
    return render_template("club/new.html", form=form), 422 if request.method == "POST" else 200


def kept(public_id: str, render: Callable[[Club], str], glance: clubs.Peek | None = None,
         shown: Callable[[Club], Hashable | None] | None = None) -> bytes | str:
    """A club page kept for the club's state (its stamp), the language, the address and whether this phone runs it.

    Every change to the club or one of its matches changes the stamp, so a kept page is never stale; nor
    is its date, kept per day in the club's time zone. The page is drawn once for every worker of the
    machine (SharedPages): after a result, the other workers read the first one's page.
    The stamp and the admin key's hash come in one statement (clubs.peek); the club itself is
    loaded only to render. A page carrying a flashed message is this phone's own and is never kept.
    render(club) may abort (a season the club does not have); a page it renders is kept encoded.

    shown(club), when given, tells what the page shows as marks that every worker computes alike (None:
    the page shows the stamp's own state). A new stamp then costs those marks, and a drawing only when
    they changed: a hand at one of a hundred tables changes the stamp, not the club page.
    """
    glance = glance or clubs.peek(public_id)  # a caller that read it already passes it
    if glance is None or session.get("_flashes"):
        return render(club_phone.club_or_404(public_id))
    dated = day_of(datetime.now(timezone.utc), glance.time_zone)  # a page prints the day it is read
    address, shared = kept_address()  # the page's links show it; shared by all workers only when known
    slot = (glance.stamp.club, str(get_locale()), address, club_phone.is_admin(glance))
    version = (glance.stamp, dated)
    page = PAGES.get((slot, version))
    if page is not None:
        return page
    found = club_phone.club_or_404(public_id)
    marks = shown(found) if shown is not None else None
    if marks is None:
        return PAGES.fetch(slot, version, lambda: render(found).encode(), shared)
    page = PAGES.fetch(slot, ("shown", marks, dated), lambda: render(found).encode(), shared)
    return PAGES.put((slot, version), page)  # the next view at this stamp: one lookup


@bp.get("/c/<public_id>")
def club(public_id: str):
    glance = clubs.peek(public_id)  # one read of the stamp for the kept page and the evening card
    page = kept(public_id, lambda found: club_page(found, season_of(found, request.args.get("season"))), glance,
                lambda found: club_shown(found, season_of(found, request.args.get("season"))))
    club_phone.remember_id(public_id)  # the club exists: kept() answered 404 otherwise
    return club_evenings.with_card(public_id, page, glance)  # the phone's own answer, never kept


def club_shown(found: Club, season: Season | None) -> Hashable | None:
    """What the club page shows, as marks the same in every worker: the club's version (its name, roster,
    seasons, settings, evenings' names), each game's table (its rows, season and all time), the evenings
    shown (a match in play is marked as in play whatever its hands) and the matches not yet agreed.
    None while a round is played: the page then shows each table's hands."""
    if club_rounds.round_here(found) is not None:
        return None
    view = club_seasons.view(found, season)
    return (found.version, tuple((slug, game.signature, game.matches) for slug, game in view.games.items()),
            tuple(evenings_shown(found, season)), agreements.not_agreed_count(found))


def evenings_shown(club: Club, season: Season | None) -> list:
    """The marks of the evenings the club page shows, read once a request (its marks, then its drawing)."""
    asked = g.setdefault("evenings_shown", {})
    key = (club.id, None if season is None else season.id)
    if key not in asked:
        asked[key] = clubs.evening_marks(club, season, limit=EVENINGS_SHOWN)
    return asked[key]


def club_page(found: Club, season: Season | None) -> str:
    view = club_seasons.view(found, season)  # a closed season from its snapshot
    return render_template(
        "club/club.html", club=found, season=season, seasons=clubs.seasons(found), view=view, names=view.names,
        evenings=evenings_shown(found, season),
        roster=kept_roster(found), games=GAMES, admin=club_phone.is_admin(found), today=clubs.today(found),
        closing=club_seasons.closing(season), hall_of_fame=club_seasons.hall_of_fame(found))


class Member(NamedTuple):
    """A player of the roster as the club page lists them."""

    id: int
    name: str


def kept_roster(club: Club) -> list[Member]:
    """The club's roster by name, kept per club version (every roster change raises it) and language (its order):
    a result changes none."""
    return _rosters.fetch((club.public_id, club.version, str(get_locale())),
                          lambda: [Member(player.id, player.name) for player in clubs.roster(club)])


@bp.app_template_global()
def roster_block(club: Club, season_id: int | None, roster: list[Member]) -> Markup:
    """The club page's list of players, drawn again only when the club's version or the language changes."""
    key = (club.public_id, club.version, season_id, str(get_locale()), request.script_root)
    return Markup(ROSTERS.fetch(key, lambda: render_template("club/_roster_block.html", club=club,
                                                             season_id=season_id, roster=roster)))


@bp.app_template_global()
def standings_block(club: Club, season: Season | None, slug: str, game_view: club_figures.GameView,
                    names: dict[int, str]) -> Markup:
    """One game's standings table, kept while its figures (the game's marks), the club (its names, its
    minimum) and the language are as they were: after a result only that game's table is drawn again."""
    key = (club.public_id, club.version, None if season is None else season.id, slug, game_view.mark,
           str(get_locale()), request.script_root)

    def draw() -> str:
        serving.breathe()  # between the parts of a page drawn after a result: the worker's other phones first
        return render_template("club/_standings_block.html", club=club, season=season, slug=slug,
                               game_view=game_view, names=names)

    return Markup(draw() if game_view.mark is None else STANDINGS.fetch(key, draw))


@bp.app_template_global()
def evening_block(club: Club, season: Season | None, day: date, name: str | None, marks: tuple,
                  names: dict[int, str]) -> Markup:
    """One evening of the club page, kept while the club (its names) and each of the evening's matches
    (version, result row) are as they were: after a result only its own evening is drawn again, the
    others' matches, winners and marks are not even read. Within the evening each match's line is kept
    by its own marks, so the evening of a hundred tables draws again the line of the match that ended."""
    key = (club.public_id, club.version, None if season is None else season.id, str(get_locale()),
           request.script_root, day, name, marks)

    def draw() -> str:
        serving.breathe()
        return render_template("club/_evening_block.html", club=club, day=day, name=name,
                               lines=match_lines(club, marks, names))

    return Markup(EVENINGS.fetch(key, draw))


def match_lines(club: Club, marks: tuple, names: dict[int, str]) -> list[Markup]:
    """Each match of an evening as its line, those kept by their marks as they were, the others drawn."""
    place = (club.public_id, club.version, str(get_locale()), request.script_root)
    lines = {mark: LINES.get((*place, mark)) for mark in marks}
    drawn = clubs.matches_by_id([match for (match, _version, _changed), line in lines.items() if line is None])
    if drawn:
        won, unagreed = winners(club, drawn, names), agreements.not_agreed_among(club, drawn)
        marked = {mark[0]: mark for mark in marks}  # match row id -> its marks
        for match in drawn:
            lines[marked[match.id]] = LINES.put((*place, marked[match.id]), render_template(
                "club/_evening_match.html", m=match, names=names, games=GAMES, winners=won.get(match.id),
                unagreed=match.id in unagreed))
    return [Markup(lines[mark]) for mark in marks if lines[mark] is not None]


def winners(club: Club, played: list[Match], names: dict[int, str]) -> dict[int, list[str]]:
    """Who won each finished match of the evenings shown (match row id -> names as the roster has them now)."""
    won = clubs.winners_among(club, played)
    return {match.id: [seated(match, names)[seat] for seat in won[match.id]] for match in played if match.id in won}


@bp.get("/c/<public_id>/share")
def share(public_id: str):
    """The club link for members, and the admin link for a phone that holds it: both with a QR code."""
    found = club_phone.club_or_404(public_id)
    return render_template("links/share.html", standalone=True, club=found, shown=club_phone.shown(found))


@bp.get("/c/<public_id>/qr/<any(club, admin):kind>.svg")
def qr(public_id: str, kind: str):
    """The club link for anyone; the admin link only for a phone that holds the admin key."""
    return links.qr_code(links.CLUB, public_id, club_phone.club_or_404(public_id).admin_key_hash, kind)


@bp.get("/c/<public_id>/join/<key>")  # not under /admin/: its forms' addresses must never read as a key
def join(public_id: str, key: str):
    """Keep the admin key from a shared link on this phone, then drop it from the address bar."""
    found = club_phone.club_or_404(public_id)
    if not clubs.key_matches(found, key):
        club_phone.refuse(found, club_phone.STALE_ADMIN)
    club_phone.remember(found, key)
    return redirect(url_for("club_admin.admin", public_id=public_id))


@bp.route(f"/c/<public_id>/new/{GAME}", methods=["GET", "POST"])
def new_match(public_id: str, game: str):
    """A match of the club: seats picked from the roster, options from the house rules."""
    found = club_phone.club_or_404(public_id)
    roster = clubs.roster(found)
    form = club_match_form(game, roster, request.form if request.method == "POST" else None,
                           (found.house_rules or {}).get(game), blank=_("Pick a player"))
    if request.method == "POST" and form.validate():
        try:
            match, key = clubs.start_match(found, game, form.names(), form.options(), language=form.language.data,
                                           started_by=starter(found))
        except Refusal as err:
            form.refuse(err)
        except matches.Conflict as err:
            form.form_errors.append(translate(err.reason))
        except matches.Unavailable as err:
            form.form_errors.append(translate(err.reason))
            return unavailable_form(render_template("club/new_match.html", club=found, game=GAMES[game], form=form,
                                                    roster=roster), err)
        else:
            phone.remember(match, key)
            return redirect(url_for("pages.match", public_id=match.public_id))
    status = 422 if request.method == "POST" else 200
    return render_template("club/new_match.html", club=found, game=GAMES[game], form=form, roster=roster), status


def starter(club: Club) -> str | None:
    """Who this phone is when it starts a club match: the admin, a proven member, or None (anyone with the link)."""
    if club_phone.is_admin(club):
        return "admin"
    return "member" if members.proven(club) is not None else None


@bp.get("/c/<public_id>/players/<int:player_id>")
def player(public_id: str, player_id: int):
    """A player's record per game in the season, and head to head with another player (?vs=)."""
    return kept(public_id, lambda found: player_page(found, season_of(found, request.args.get("season")), player_id,
                                                      request.args.get("vs", "")))


def player_page(found: Club, season: Season | None, player_id: int, rival: str) -> str:
    """The player page; 404 for a player not on the roster (merged away, or another club's)."""
    known = {player.id: player.name for player in clubs.roster(found)}
    if player_id not in known:
        abort(404)
    rival_id = row_id(rival)
    if rival_id not in known or rival_id == player_id:
        rival_id = None
    return render_template(
        "club/player.html", club=found, season=season, seasons=clubs.seasons(found), player_id=player_id,
        names=known, stats=club_figures.player_view(found, player_id, season), rival=rival_id,
        meetings=club_figures.head_to_head(found, player_id, rival_id, season) if rival_id is not None else None,
        games=GAMES, titles=GAME_PAGES["barbu"].rules["titles"], today=clubs.today(found))


@bp.get("/c/<public_id>/standings.pdf")
def standings_pdf(public_id: str):
    """The season's standings on paper, in the score sheets' style; rendered once per club state and language."""
    found = club_phone.club_or_404(public_id)
    season = season_of(found, request.args.get("season"))
    view = club_seasons.view(found, season)  # a closed season from its snapshot
    today = clubs.today(found)
    closed = season.closed_at.isoformat() if season is not None and season.closed_at is not None else None
    answer = sheets.printed(f"club-{found.public_id}", ("club", *stamp(found), season and season.id, closed, today),
                            lambda: ("sheets/standings.html", {"club": found, "season": season, "view": view,
                                                               "names": view.names, "games": GAMES, "today": today,
                                                               "closing": club_seasons.closing(season)}))
    answer.headers["Content-Disposition"] = disposition(
        [found.name, season.name if season else _("All time"), today.isoformat()])
    return answer


def disposition(parts: list[str]) -> str:
    """Content-Disposition for a PDF shown in the browser and saved under a name of these parts (the club,
    the season, the day; RFC 6266): the name itself as filename*, and for old browsers an ASCII filename,
    accents dropped and a part in another script left out ("club" for the club's).

    >>> print(disposition(["Les Dimanches", "Été 2026", "2026-12-02"]).replace("; ", "\\n"))
    inline
    filename="Les-Dimanches-Ete-2026-2026-12-02.pdf"
    filename*=UTF-8''Les%20Dimanches%20%E2%80%93%20%C3%89t%C3%A9%202026%20%E2%80%93%202026-12-02.pdf
    >>> disposition(["Клуб", "Осень", "2026-12-02"]).split("; ")[1]
    'filename="club-2026-12-02.pdf"'
    """
    plain = [re.sub(r"[^A-Za-z0-9]+", "-", unicodedata.normalize("NFKD", part).encode("ascii", "ignore").decode())
             .strip("-")[:60] for part in parts]
    kept = [plain[0] or "club", *[part for part in plain[1:] if part]]
    return f"inline; filename=\"{'-'.join(kept)}.pdf\"; filename*=UTF-8''{quote(' – '.join(parts) + '.pdf', safe='')}"
