"""The rounds of a club evening: the admin draws the next round, swaps people, redraws, confirms; each phone
finds its seat and opens its table's match.

A proposal lives in its address: the games, the seed and the swaps made (`?game=kozyol&seed=7&swap=3-5`),
so a reload shows the same round. A swap is two taps on names (each a link) or, on any phone, two
menus and Swap. Confirming sends the tables as shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, NoReturn

from flask import Blueprint, Response, abort, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from ...club import evenings, playing, repeats, results as club_results, rounds, service as clubs
from ...club.engine import seating
from ...games import GAMES
from ...games.base import N_
from ...i18n import translate
from ...match import matches
from ...models import Club, Evening
from ...refusals import Refusal
from ..errors import error_page
from ..forms import TableForm
from ..match import phone
from . import evenings as club_evenings, phone as club_phone

bp = Blueprint("club_rounds", __name__, url_prefix="/c/<public_id>")

# How a table's first seat plays first, by the game option that names it.
FIRST = {"first_declarer": N_("%(name)s declares first"), "first_dealer": N_("%(name)s deals")}


class SeatView(NamedTuple):
    player: int
    name: str
    first: bool


class TableView(NamedTuple):
    """One table of a proposal as the page shows it."""

    number: int
    game: str
    seats: list[SeatView]
    teams: list[list[str]] | None  # the game's teams by name (Kozyol), None for a game without teams
    first: str  # "Cid deals"


def table_view(number: int, table: seating.Table, names: dict[int, str]) -> TableView:
    seated = [names.get(seat, "?") for seat in table.seats]
    return TableView(number, table.game, [SeatView(seat, name, at == 0) for at, (seat, name)
                                          in enumerate(zip(table.seats, seated))],
                     teams_of(table.game, seated), first_words(table.game, seated[0] if seated else ""))


def teams_of(slug: str, names: list[str]) -> list[list[str]] | None:
    """The teams the game makes of these seats, if it plays in teams."""
    game = GAMES[slug]
    try:
        played = game.new_replay(names, game.parse_options(names, rounds_options(slug, names), None))
    except Refusal:
        return None
    teams = getattr(played, "teams", None)
    return [list(team) for team in teams] if teams else None


def rounds_options(slug: str, names: list[str]) -> dict[str, str]:
    option = rounds.first_seat_option(slug)
    return {option: names[0]} if option and names else {}


def first_words(slug: str, name: str) -> str:
    option = rounds.first_seat_option(slug)
    return _(FIRST[option], name=name) if option in FIRST else ""


def present_names(club: Club) -> dict[int, str]:
    return {player.id: player.name for player in clubs.roster(club)}


# -- reading a proposal from its address ------------------------------------------------------------


def swaps_of(raw: Sequence[str]) -> list[tuple[int, int]]:
    """Swaps written "3-5", in order; anything else is left out.

    >>> swaps_of(["3-5", "x", "7-7", "2-9"])
    [(3, 5), (2, 9)]
    """
    out = []
    for text in raw:
        a, _sep, b = text.partition("-")
        if a.isascii() and a.isdigit() and b.isascii() and b.isdigit() and a != b and len(a) < 10 and len(b) < 10:
            out.append((int(a), int(b)))
    return out


def seed_of(raw: str | None) -> int | None:
    """A seed or a number as sent, None for anything else.

    >>> seed_of("2147483647"), seed_of("2147483648"), seed_of("x"), seed_of(None)
    (2147483647, None, None, None)
    """
    return int(raw) if raw and raw.isascii() and raw.isdigit() and len(raw) <= 10 and int(raw) < 2**31 else None


def games_of(raw: list[str]) -> str | list[str]:
    """One game for every table, or one per table; the first game when none is chosen."""
    chosen = [slug for slug in raw if slug in GAMES] or [next(iter(GAMES))]
    return chosen[0] if len(chosen) == 1 else chosen


def evening_of(club: Club, evening_id: int) -> Evening:
    try:
        return evenings.evening_of(club, evening_id)
    except matches.NotFound:
        missing(club, N_("There is no such evening."))


def missing(club: Club, message: str) -> NoReturn:
    """Answer 404 with what is missing, and the club's page one tap away."""
    abort(error_page(404, _(message), correct_url=url_for("clubs.club", public_id=club.public_id),
                     correct_text=_("Open the club")))


def address(public_id: str, evening_id: int, game: str | list[str], seed: int, swaps: list[tuple[int, int]],
            more: int | None = None, **args: Any) -> str:
    """A proposal's address: the next round's, or (more) new tables for the round of that number."""
    if more is not None:
        args["number"] = more
    return url_for("club_rounds.propose" if more is None else "club_playing.more", public_id=public_id,
                   evening_id=evening_id, game=[game] if isinstance(game, str) else game, seed=seed,
                   swap=[f"{a}-{b}" for a, b in swaps], **args)


# -- the admin's pages --------------------------------------------------------------------------------


@bp.get("/admin/evenings/<int:evening_id>/rounds")
def evening_rounds(public_id: str, evening_id: int):
    """The evening's rounds, each table linked to its match, and the next round to draw."""
    club = club_phone.administered(public_id)
    evening = evening_of(club, evening_id)
    done = [(made, rounds.table_states(club, tables)) for made, tables in rounds.rounds_of(evening)]
    names, free = present_names(club), playing.free(club, evening)
    return render_template("club/rounds.html", club=club, evening=evening, done=done, games=GAMES,
                           number=rounds.next_number(evening), present=len(rounds.present(club, evening)),
                           sat_out=sat_out_names(club, done), free=[names.get(player, "?") for player in free],
                           new_game=new_game(done, len(free)),
                           repeats={seen.number: seen for seen in repeats.of_evening(evening)})


def new_game(done: list[Any], free: int) -> str | None:
    """The game a new table of the latest round plays: its first table's if the players free are enough for
    one, else the first game they are enough for; None when they are too few for any."""
    played = [row.table.game for row in done[-1][1]] if done else []
    fits = [slug for slug in [*played, *GAMES] if GAMES[slug].min_players <= free]
    return fits[0] if fits else None


def sat_out_names(club: Club, done: list[Any]) -> dict[int, list[str]]:
    names = present_names(club)
    return {made.id: [names.get(player, "?") for player in made.sat_out] for made, _tables in done}


@bp.get("/admin/evenings/<int:evening_id>/rounds/new")
def propose(public_id: str, evening_id: int):
    """The next round as proposed: its tables, who sits out; swaps, a redraw, the confirmation."""
    club = club_phone.administered(public_id)
    evening = evening_of(club, evening_id)
    game, swaps = games_of(request.args.getlist("game")), swaps_of(request.args.getlist("swap"))
    seed = seed_of(request.args.get("seed"))
    picked = swaps_of([f"{request.args.get('a', '')}-{request.args.get('b', '')}"])
    if seed is None or picked:  # a fresh draw, or the menus' swap: into the address, so a reload keeps it
        return redirect(address(public_id, evening_id, game, rounds.new_seed() if seed is None else seed,
                                swaps + picked))
    return proposal_page(club, evening, game, seed, swaps, seed_of(request.args.get("pick")))


def proposal_page(club: Club, evening: Evening, game: str | list[str], seed: int, swaps: list[tuple[int, int]],
                  pick: int | None, form: TableForm | None = None, status: int = 200, more: int | None = None) -> Any:
    """The proposal's page: the next round's, or (more) new tables for the round of that number."""
    names = present_names(club)
    try:
        _seed, drawn = rounds.propose(club, evening, game, seed, more=more is not None)
        drawn = rounds.swapped(drawn, swaps)
        refused = None
    except Refusal as err:
        drawn, refused = None, translate(err.reason)
    tables = [table_view(number, table, names) for number, table in enumerate(drawn.tables, 1)] if drawn else []
    here = [(player, names.get(player, "?")) for player in rounds.present(club, evening)]
    if more is not None:  # numbered after the round's tables, those that ended too
        after = max((table.number for table, _match in rounds.rounds_of(evening)[-1][1]), default=0)
        tables = [table._replace(number=table.number + after) for table in tables]
        here = [(player, name) for player, name in here if player in set(playing.free(club, evening))]
    number = rounds.next_number(evening) if more is None else more
    return render_template(
        "club/rounds_new.html", club=club, evening=evening, games=GAMES, game=game, seed=seed, swaps=swaps,
        pick=pick, tables=tables, sat_out=[(p, names.get(p, "?")) for p in drawn.sat_out] if drawn else [],
        here=here, refused=refused, number=number, form=form or TableForm(), more=more,
        playing=playing_numbers(evening) if more is not None else [],
        repeats=proposal_repeats(evening, drawn, number) if drawn and drawn.tables else None,
        propose_url=url_for("club_rounds.propose", public_id=club.public_id, evening_id=evening.id) if more is None
        else url_for("club_playing.more", public_id=club.public_id, evening_id=evening.id, number=more),
        confirm_url=url_for("club_rounds.confirm", public_id=club.public_id, evening_id=evening.id) if more is None
        else url_for("club_playing.add", public_id=club.public_id, evening_id=evening.id, number=more),
        link=lambda **args: address(club.public_id, evening.id, game, seed, swaps, more, **args),
        swap_link=lambda a, b: address(club.public_id, evening.id, game, seed, swaps + [(a, b)], more),
        redraw=address(club.public_id, evening.id, game, rounds.new_seed(), [], more)), status


def playing_numbers(evening: Evening) -> list[int]:
    """The numbers of the latest round's tables still playing."""
    found = rounds.latest(evening)
    return [table.number for table, _match in found[1] if table.ended is None] if found else []


def proposal_repeats(evening: Evening, drawn: seating.Round, number: int) -> repeats.Repeats | None:
    """The proposal's pairs meeting again after tonight's rounds (for new tables, the round they join too); None
    before the evening's first round is confirmed."""
    done = rounds.rounds_of(evening)
    tonight = [seating.Round(tuple(seating.Table(table.game, tuple(table.seat_ids)) for table, _match in tables),
                             tuple(made.sat_out)) for made, tables in done]
    return repeats.of_round(drawn, tonight, number) if tonight else None


@bp.post("/admin/evenings/<int:evening_id>/rounds")
def confirm(public_id: str, evening_id: int):
    """Confirm the round as shown: its tables, one club match each."""
    club = club_phone.administered(public_id)
    evening = evening_of(club, evening_id)
    form = TableForm(request.form)
    game, swaps = games_of(request.form.getlist("game")), swaps_of(request.form.getlist("swap"))
    seed = seed_of(request.form.get("seed")) or 0
    if form.validate():
        try:
            made = rounds.confirm(club, evening, rounds.checked(club, evening, tables_of(request.form)), seed,
                                  number=seed_of(request.form.get("number")))
        except Refusal as err:
            form.form_errors.append(translate(err.reason))
        except matches.Conflict as err:
            form.form_errors.append(translate(err.reason))
            return proposal_page(club, evening, game, seed, swaps, None, form, 409)
        else:
            for _table, match in rounds.rounds_of(evening)[-1][1]:
                if match is not None:
                    phone.remember(match, rounds.seat_key(match))
            flash(_("Round %(n)s confirmed: every table can start.", n=made.number))
            return redirect(url_for("club_rounds.evening_rounds", public_id=public_id, evening_id=evening_id))
    return proposal_page(club, evening, game, seed, swaps, None, form, 422)


def tables_of(form: Any) -> list[dict[str, Any]]:
    """The tables posted as shown: table-1 = "kozyol:3,5,7,9", in table order."""
    out = []
    for number in range(1, len(form) + 2):
        raw = form.get(f"table-{number}")
        if raw is None:
            break
        slug, _sep, seats = raw.partition(":")
        out.append({"game": slug, "seats": [int(seat) for seat in seats.split(",")
                                            if seat.isascii() and seat.isdigit() and len(seat) < 10]})
    return out


# -- every phone: its seat, its table's match ---------------------------------------------------------


@bp.get("/evenings/<int:evening_id>/rounds/<int:round_number>/tables/<int:table_number>")
def open_table(public_id: str, evening_id: int, round_number: int, table_number: int):
    """Open a table's match; the phone of a player seated there (or the admin's) can then enter its hands."""
    club = club_phone.club_or_404(public_id)
    evening = evening_of(club, evening_id)
    found = next((match for made, tables in rounds.rounds_of(evening) if made.number == round_number
                  for table, match in tables if table.number == table_number and match is not None), None)
    if found is None:
        missing(club, N_("There is no such table."))
    me = club_phone_me(club)
    seated = next(table.seat_ids for made, tables in rounds.rounds_of(evening) if made.number == round_number
                  for table, match in tables if table.number == table_number)
    if club_phone.is_admin(club) or (me is not None and me in seated):
        phone.remember(found, rounds.seat_key(found))
    return redirect(url_for("pages.match", public_id=found.public_id))


def club_phone_me(club: Club) -> int | None:
    """The roster player this phone said it is in the club, if any."""
    return club_evenings.me(club.public_id)


class Here(NamedTuple):
    """What the club page shows of the evening being played: its latest round and its tables."""

    evening: Evening
    number: int
    tables: list[rounds.TableState]


def round_here(club: Club) -> Here | None:
    """The evening being played (today's, or the next one) and its latest round, None before its first round.

    Read once a request: the club page asks three times (its marks, its live address, its card)."""
    asked = g.setdefault("round_here", {})
    if club.id not in asked:
        evening = evenings.next_evening(club)
        found = rounds.latest(evening) if evening is not None else None
        asked[club.id] = None if found is None else Here(evening, found[0].number, rounds.table_states(club, found[1]))
    return asked[club.id]


SEAT = "<!-- this phone's seat -->"


def seat_line(club: Club) -> str:
    """This phone's seat in the latest round of the evening in play, for the player it said it is."""
    me = club_phone_me(club)
    evening = evenings.next_evening(club)
    found = rounds.latest(evening) if evening is not None and me is not None else None
    if found is None:
        return ""
    made, _tables = found
    seat = rounds.seat_of(evening, me)
    first = first_words(seat.match.game, seat.first) if seat and seat.match else ""
    return render_template("club/_round_seat.html", club=club, evening=evening, seat=seat, first=first,
                           number=made.number, sitting_out=me in made.sat_out)


@bp.after_app_request
def with_seat(answer: Response) -> Response:
    """The club page with this phone's seat in place of its marker (the page itself is kept for every phone)."""
    if request.endpoint != "clubs.club" or answer.status_code != 200 or answer.direct_passthrough:
        return answer
    body = answer.get_data()
    if SEAT.encode() in body:
        club = clubs.find(request.view_args.get("public_id") if request.view_args else None)
        answer.set_data(body.replace(SEAT.encode(), seat_line(club).encode() if club else b"", 1))
    return answer


def admin_rounds(club: Club) -> list[tuple[Evening, int]]:
    """The evenings the admin page offers a round to draw for: today's and those to come, with the next number."""
    return [(evening, rounds.next_number(evening)) for evening in evenings.planned(club, limit=3)
            if evening.closed_at is None]


@bp.app_context_processor
def round_vocabulary() -> dict[str, object]:
    return {"round_here": round_here, "round_seat_marker": Markup(SEAT), "admin_rounds": admin_rounds,
            "round_live": live_tag, "round_repeats": repeats.of_evening, "pairs_named": pairs_named}


def pairs_named(club: Club, pairs: Sequence[tuple[int, int]]) -> str:
    """Pairs of players by name: "Ann & Bob, Cid & Dee"."""
    names = g.setdefault("club_names", {}).get(club.id) or g.club_names.setdefault(club.id, present_names(club))
    return ", ".join(f"{names.get(a, '?')} & {names.get(b, '?')}" for a, b in pairs)


@bp.get("/live")
def live(public_id: str):
    """The club's stamp as an ETag, for the club page's live redraw: 304 while nothing changed."""
    glance = clubs.peek(public_id)
    if glance is None:
        return club_phone.club_or_404(public_id)
    answer = make_response("", 200)
    answer.set_etag("-".join(str(part) for part in glance.stamp))
    answer.headers["Cache-Control"] = "no-cache"
    return answer.make_conditional(request)


def live_tag(club: Club) -> str:
    """The ETag the live address answers for the club as it is now, quoted."""
    return '"' + "-".join(str(part) for part in club_results.stamp(club)) + '"'
