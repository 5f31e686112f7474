"""The club part of the JSON API: clubs, roster, rules, seasons, club matches, standings, statistics, CSV.

Reading needs only the club id (the club link); changing the roster, rules or seasons needs the
admin key as a bearer token (401 without, 403 wrong), as a match's writes need its edit key.
Starting a club match needs only the club link, as starting any match needs nothing.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import timezone
from typing import TypedDict

from flask import Blueprint, abort, current_app, jsonify, make_response, request, url_for
from flask_babel import gettext as _

from ...club import (
    evenings as planning,
    figures as club_figures,
    roster,
    rounds as club_rounds,
    seasons as club_seasons,
    service as clubs,
    transfer,
)
from ...club.agreements import check_rules as check_agreement_rules, set_rules as set_agreement_rules
from ...club.engine.ratings import Rating
from ...club.engine.seating import Round
from ...club.engine.standings import Standing
from ...club.roster import player_of, row_id
from ...games import GAMES
from ...games.base import N_
from ...i18n import translate
from ...json_values import JsonObject
from ...links import new_key
from ...match import matches, receipts
from ...models import Attendance, Club, ClubPlayer, Evening, EveningRound, EveningTable, Match, Season
from ...refusals import Refusal, refuse
from ..club import evenings as club_evenings, members, spreadsheets as club_csv
from ..club.pages import seated
from ..errors import json_error
from .matches import answer, body, conflict, fields_of, invalid, replayed_start, start_key

bp = Blueprint("club_api", __name__, url_prefix="/api/v1")
bp.register_error_handler(Refusal, invalid)
bp.register_error_handler(matches.Conflict, conflict)


@bp.errorhandler(matches.NotFound)
def not_found(err: matches.NotFound):  # noqa: ARG001
    return json_error(404, _("There is no such club, player or season."))


@bp.errorhandler(planning.NotYours)
def not_yours(err: planning.NotYours):
    return json_error(403, translate(err.reason))


# -- the shapes answered ------------------------------------------------------------------


class PlayerState(TypedDict):
    id: int
    name: str


class SeasonState(TypedDict):
    id: int
    name: str
    starts: str  # year-month-day
    ends: str
    closed_at: str | None  # ISO 8601, UTC; None while the season is open


class ClubState(TypedDict):
    """The club as the API gives it (the Club schema)."""

    id: str
    url: str
    name: str
    house_rules: dict[str, JsonObject]
    min_matches: int
    time_zone: str
    agree_to_lock: int
    confirm_hands: bool
    version: int
    players: list[PlayerState]
    seasons: list[SeasonState | None]


class GameState(TypedDict):
    """One game's figures of a club: its matches, standings, ratings and partnerships, names beside ids."""

    matches: int
    standings: list[dict[str, object]]
    ratings: list[dict[str, object]]
    partnerships: list[dict[str, object]]


def player_state(player: ClubPlayer) -> PlayerState:
    return {"id": player.id, "name": player.name}


def season_state(season: Season | None) -> SeasonState | None:
    if season is None:
        return None
    closed = season.closed_at
    if closed is not None and closed.tzinfo is None:  # SQLite gives back the UTC time without its zone
        closed = closed.replace(tzinfo=timezone.utc)
    return {"id": season.id, "name": season.name, "starts": season.starts.isoformat(), "ends": season.ends.isoformat(),
            "closed_at": closed.isoformat() if closed is not None else None}


def club_state(club: Club) -> ClubState:
    """The club as the API gives it: name, rules, roster and seasons."""
    return {"id": club.public_id, "url": url_for("clubs.club", public_id=club.public_id), "name": club.name,
            "house_rules": club.house_rules, "min_matches": club.min_matches, "time_zone": club.time_zone or "UTC",
            "version": club.version, "agree_to_lock": club.agree_to_lock, "confirm_hands": club.confirm_hands,
            "players": [player_state(player) for player in clubs.roster(club)],
            "seasons": [season_state(season) for season in clubs.seasons(club)]}


def admin_links(club: Club, key: str) -> dict[str, str]:
    return {"admin_key": key, "club_url": url_for("clubs.club", public_id=club.public_id, _external=True),
            "admin_url": url_for("clubs.join", public_id=club.public_id, key=key, _external=True)}


def named(rows: list[Standing] | list[Rating], names: dict[int, str]) -> list[dict[str, object]]:
    """Dataclass rows (standings, ratings) as JSON objects, each player's name beside their id."""
    return [{"player": row.player, "name": names.get(row.player, ""), **{k: v for k, v in asdict(row).items()
                                                                        if k != "player"}} for row in rows]


def game_state(game: club_figures.GameView, names: dict[int, str]) -> GameState:
    return {"matches": game.matches, "standings": named(game.standings, names), "ratings": named(game.ratings, names),
            "partnerships": [{"pair": list(line.pair), "names": [names.get(p, "") for p in line.pair],
                              **{k: v for k, v in asdict(line).items() if k != "pair"}} for line in game.partnerships]}


# -- reading the request --------------------------------------------------------------------


def authorize(club_id: str) -> Club:
    """The club, or 404 unknown, 401 without the admin key, 403 with a wrong one."""
    club = clubs.must_find(club_id)
    scheme, _sep, key = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        abort(make_response(json_error(401, _("This needs the club's admin key."))))
    if not clubs.key_matches(club, key.strip()):
        abort(make_response(json_error(403, _("That admin key does not belong to this club."))))
    return club


def season_arg(club: Club) -> Season | None:
    """?season=<id>: the club's season, all time when absent."""
    return clubs.season_of(club, request.args.get("season"))


def game_arg() -> str | None:
    """?game=<slug>: one game, every game when absent; an unknown game is refused (422)."""
    game = request.args.get("game") or None
    if game is not None and game not in GAMES:
        raise refuse("game", N_("Choose one of the games: {games}."), games=", ".join(GAMES))
    return game


def player_arg(club: Club, name: str) -> int:
    """?a=<player id>: a live player of the club (404 otherwise)."""
    raw = request.args.get(name, "")
    return player_of(club, row_id(raw)).id


# -- clubs ------------------------------------------------------------------------------------


@bp.post("/clubs")
def create_club():
    data = fields_of(body(), "house_rules")
    club, key = clubs.create(data.get("name"), data.get("house_rules"))
    return jsonify({**club_state(club), **admin_links(club, key)}), 201


@bp.post("/club-imports")
def import_club():
    """A club exported from another server, made here whole (its matches checked by their rules)."""
    club, key = transfer.import_club(body())
    links_of = admin_links(club, key) if key is not None else {}
    return jsonify({**club_state(club), **links_of}), 201


@bp.get("/clubs/<club_id>/export")
def export_club(club_id: str):
    """The whole club as one document, for another server to import; ?keys=1 with its keys' hashes."""
    club = authorize(club_id)
    answer = jsonify(transfer.export(club, keys=request.args.get("keys") in ("1", "true")))
    answer.headers["Content-Disposition"] = f'attachment; filename="club-{club.public_id}.json"'
    answer.headers["Cache-Control"] = "no-store"
    return answer


@bp.get("/clubs/<club_id>")
def read_club(club_id: str):
    return jsonify(club_state(clubs.must_find(club_id)))


@bp.post("/clubs/<club_id>/key")
def rotate_club_key(club_id: str):
    club = authorize(club_id)
    return jsonify(admin_links(club, clubs.rotate_key(club.public_id)))


@bp.put("/clubs/<club_id>/rules")
def set_rules(club_id: str):
    club = authorize(club_id)
    data = fields_of(body(), "house_rules")
    agreeing = data.get("agree_to_lock", club.agree_to_lock), data.get("confirm_hands", club.confirm_hands)
    check_agreement_rules(*agreeing)
    clubs.set_rules(club, data.get("min_matches", club.min_matches), data.get("house_rules", club.house_rules),
                    data.get("time_zone", clubs.KEEP))
    if agreeing != (club.agree_to_lock, club.confirm_hands):
        set_agreement_rules(club, *agreeing)
    return jsonify(club_state(club))


@bp.post("/clubs/<club_id>/seasons")
def add_season(club_id: str):
    club = authorize(club_id)
    data = body()
    return jsonify(season_state(clubs.add_season(club, data.get("name"), data.get("starts"), data.get("ends")))), 201


def season_path(club: Club, season_id: int) -> Season:
    """The club's season of the path (404 for one it does not have)."""
    season = clubs.season_of(club, season_id)
    if season is None:
        raise matches.NotFound()
    return season


def closed_state(season: Season) -> dict[str, object]:
    """A season with its champions per game (none while open), and who led a game nobody was ranked in."""
    view = club_seasons.final_view(season) if season.closed_at is not None else None
    return {**season_state(season), "champions": club_seasons.champions(view) if view is not None else {},
            "provisional_champions": club_seasons.leading(view) if view is not None else {}}


@bp.put("/clubs/<club_id>/seasons/<int:season_id>")
def change_season(club_id: str, season_id: int):
    """Rename a season or change its days: each of name, starts and ends that is given."""
    club = authorize(club_id)
    season, data = season_path(club, season_id), body()
    parts = {name: data[name] for name in ("name", "starts", "ends") if name in data}
    return jsonify(season_state(clubs.change_season(club, season, **parts)))


@bp.post("/clubs/<club_id>/seasons/<int:season_id>/close")
def close_season(club_id: str, season_id: int):
    """Close a season; before its last day only with {"early": true} (its last day then becomes today)."""
    club = authorize(club_id)
    season = season_path(club, season_id)
    club_seasons.close(club, season, early=body().get("early", False) if request.content_length else False)
    return jsonify(closed_state(season))


@bp.delete("/clubs/<club_id>/seasons/<int:season_id>/close")
def reopen_season(club_id: str, season_id: int):
    club = authorize(club_id)
    season = season_path(club, season_id)
    club_seasons.reopen(club, season)
    return jsonify(closed_state(season))


@bp.get("/clubs/<club_id>/hall-of-fame")
def hall_of_fame(club_id: str):
    club = clubs.must_find(club_id)
    return jsonify({"seasons": [{"season": season_state(fame.season), "champions": fame.champions,
                                 "provisional_champions": fame.leading} for fame in club_seasons.hall_of_fame(club)]})


@bp.get("/clubs/<club_id>/evenings")
def list_evenings(club_id: str):
    """The club's evenings, the latest first, with their matches; `next` asks for the ones before."""
    club = clubs.must_find(club_id)
    season = season_arg(club)
    raw = request.args.get("limit", "")
    limit = row_id(raw) if raw else clubs.EVENINGS_LISTED
    if limit is None or limit > clubs.EVENINGS_MOST:
        raise refuse("limit", N_("Ask for 1 to {most} evenings at a time."), most=clubs.EVENINGS_MOST)
    before = clubs.as_day(request.args["before"], "before") if request.args.get("before") else None
    found = clubs.evenings(club, season, limit=limit + 1, before=before)  # one more: are there older ones?
    shown = found[:limit]
    finished = clubs.finished_among(club, [match for _day, _name, played in shown for match in played])
    names = club_figures.names(club)
    later = url_for("club_api.list_evenings", club_id=club.public_id, season=request.args.get("season") or None,
                    limit=raw or None, before=shown[-1][0].isoformat()) if len(found) > limit else None
    return jsonify({"season": season_state(season), "evenings": [
        {"day": day.isoformat(), "name": name, "matches": [
            {"id": match.public_id, "url": url_for("pages.match", public_id=match.public_id), "game": match.game,
             "players": seated(match, names), "seat_ids": list(match.seat_ids or []), "finished": match.id in finished}
            for match in played]}
        for day, name, played in shown], "next": later})


@bp.put("/clubs/<club_id>/evenings/<day>")
def name_evening(club_id: str, day: str):
    club = authorize(club_id)
    name, when = body().get("name"), clubs.as_day(day, "day")
    if name is not None:  # null takes the name away; an empty name is no name, as for a club or a season
        name = clubs.title(name, "name")
    clubs.name_evening(club, when, name)
    return jsonify({"day": when.isoformat(), "name": name})


# -- planned evenings and their answers --------------------------------------------------------------


class PlannedState(TypedDict):
    """A planned evening as the API gives it (the PlannedEvening schema)."""

    id: int
    day: str
    name: str
    starts_at: str | None  # HH:MM in the club's time zone
    place: str
    note: str
    url: str
    coming: list[PlayerState]
    not_coming: list[PlayerState]
    present: list[PlayerState]
    absent: list[PlayerState]
    here: list[PlayerState]


def planned_state(club: Club, evening: Evening) -> PlannedState:
    said = planning.answers(club, evening)
    return {"id": evening.id, "day": evening.day.isoformat(), "name": evening.name,
            "starts_at": evening.starts_at.strftime("%H:%M") if evening.starts_at else None,
            "place": evening.place, "note": evening.note,
            "url": url_for("clubs.club", public_id=club.public_id, _anchor=f"evening-{evening.id}"),
            "coming": [player_state(p) for p in said.coming], "not_coming": [player_state(p) for p in said.not_coming],
            "present": [player_state(p) for p in said.present], "absent": [player_state(p) for p in said.absent],
            "here": [player_state(p) for p in said.here]}


def attendance_state(club: Club, row: Attendance, **extra: str) -> dict[str, object]:
    player = player_of(club, row.player_id)
    return {"evening": row.evening_id, "player": player.id, "name": player.name, "coming": row.answer == "in",
            "present": row.present, "absent": row.absent, "proven": row.proven, **extra}


def member_or_403(club: Club) -> ClubPlayer:
    """The member whose own key the request carries (Club-Member-Key); 403 when it is no member's current key."""
    member = members.proven(club)
    if member is None:
        abort(make_response(json_error(403, _("That member key is not a current member link of this club: ask "
                                              "the club's organiser for a new one."))))
    return member


def admin_or_none(club_id: str) -> Club | None:
    """The club when the request carries a bearer key (which must then be its admin key), else None."""
    scheme, _sep, key = request.headers.get("Authorization", "").partition(" ")
    return authorize(club_id) if scheme.lower() == "bearer" and key.strip() else None


@bp.get("/clubs/<club_id>/planned-evenings")
def list_planned(club_id: str):
    """The club's evenings from today on, soonest first."""
    club = clubs.must_find(club_id)
    raw = request.args.get("limit", "")
    limit = row_id(raw) if raw else clubs.EVENINGS_LISTED
    if limit is None or limit > planning.PLANNED_MOST:
        raise refuse("limit", N_("Ask for 1 to {most} evenings at a time."), most=planning.PLANNED_MOST)
    return jsonify({"evenings": [planned_state(club, evening) for evening in planning.planned(club, limit=limit)]})


@bp.post("/clubs/<club_id>/planned-evenings")
def plan_evening(club_id: str):
    club = authorize(club_id)
    data = body()
    made = planning.schedule(club, data.get("day"), data.get("starts_at"), data.get("place"), data.get("note"),
                             data.get("name"), data.get("weeks", 1))
    return jsonify({"evenings": [planned_state(club, evening) for evening in made]}), 201


@bp.get("/clubs/<club_id>/planned-evenings/<int:evening_id>")
def read_planned(club_id: str, evening_id: int):
    club = clubs.must_find(club_id)
    return jsonify(planned_state(club, planning.evening_of(club, evening_id)))


@bp.patch("/clubs/<club_id>/planned-evenings/<int:evening_id>")
def change_evening(club_id: str, evening_id: int):
    club = authorize(club_id)
    data = body()
    parts = {name: data[name] for name in ("day", "starts_at", "place", "note", "name") if name in data}
    return jsonify(planned_state(club, planning.update(club, evening_id, **parts)))


@bp.delete("/clubs/<club_id>/planned-evenings/<int:evening_id>")
def delete_evening(club_id: str, evening_id: int):
    club = authorize(club_id)
    planning.delete(club, evening_id)
    return "", 204


@bp.post("/clubs/<club_id>/planned-evenings/<int:evening_id>/answers")
def answer_evening(club_id: str, evening_id: int):
    """A member's answer: proven with the member's own key (Club-Member-Key) or the admin key, it counts for the
    draw; with the club link alone it is kept unproven (not counted), and its first answer gives the key that
    changes it. Sent again after its answer was lost, the same unproven answer is answered again, and under an
    Idempotency-Key with the same answer key."""
    once = receipts.parse_key(request.headers.get("Idempotency-Key"), "Idempotency-Key")
    admin = admin_or_none(club_id)
    club = admin or clubs.must_find(club_id)
    evening = planning.evening_of(club, evening_id)
    data = body()
    if admin is None and request.headers.get(members.HEADER, "").strip():
        member = member_or_403(club)
        if row_id(data.get("player", member.id)) != member.id:
            abort(make_response(json_error(403, _("A member key answers for its own member: %(name)s.",
                                                  name=member.name))))
        row = planning.answer(club, evening, member.id, data.get("coming"), None, proven=True)
        return jsonify(attendance_state(club, row))
    key = data.get("answer_key")
    if key is not None and (not isinstance(key, str) or not key):
        raise refuse("answer_key", N_("Send back the answer key this player's first answer gave."))
    if admin is not None:
        row = planning.answer(club, evening, data.get("player"), data.get("coming"), None, proven=True)
        return jsonify(attendance_state(club, row))
    if key is None:
        if once is not None:
            key = planning.answer_key_for(current_app.config["SECRET_KEY"], club, evening, data.get("player"), once)
        again = planning.said_again(club, evening, data.get("player"), data.get("coming"), key)
        if again is not None:  # sent again after its answer was lost: answered again, nothing written
            response = jsonify(attendance_state(club, again, **({"answer_key": key} if key else {})))
            response.headers["Idempotent-Replayed"] = "true"
            return response
    key = key or new_key()
    row = planning.answer(club, evening, data.get("player"), data.get("coming"), key)
    return jsonify(attendance_state(club, row, answer_key=key))


@bp.put("/clubs/<club_id>/planned-evenings/<int:evening_id>/present/<int:player_id>")
def mark_present(club_id: str, evening_id: int, player_id: int):
    club = authorize(club_id)
    evening = planning.evening_of(club, evening_id)
    row = planning.mark_present(club, evening, player_id, body().get("present"))
    return jsonify(attendance_state(club, row))


@bp.get("/clubs/<club_id>/evenings.ics")
def evenings_ics(club_id: str):
    """The club's evenings as iCalendar, as the club page's calendar link gives them."""
    return club_evenings.feed(clubs.must_find(club_id).public_id)


# -- the roster ---------------------------------------------------------------------------------


@bp.post("/clubs/<club_id>/players")
def add_player(club_id: str):
    club = authorize(club_id)
    return jsonify(player_state(clubs.add_player(club, body().get("name")))), 201


@bp.patch("/clubs/<club_id>/players/<int:player_id>")
def rename_player(club_id: str, player_id: int):
    club = authorize(club_id)
    return jsonify(player_state(clubs.rename_player(club, player_id, body().get("name"))))


@bp.post("/clubs/<club_id>/players/<int:player_id>/member-key")
def issue_member_key(club_id: str, player_id: int):
    """The admin makes a player's member link (a new one replaces the old): its key goes to that member alone."""
    club = authorize(club_id)
    player, key = roster.issue_member_key(club, player_id)
    return jsonify({**player_state(player), "member_key": key,
                    "member_url": url_for("members.join", public_id=club.public_id, key=key, _external=True)}), 201


@bp.post("/clubs/<club_id>/players/<int:player_id>/keep")
def keep_guest(club_id: str, player_id: int):
    """The admin keeps a guest (a name a non-member's match brought) as a member of the roster."""
    club = authorize(club_id)
    return jsonify(player_state(roster.keep_guest(club, player_id)))


@bp.post("/clubs/<club_id>/players/<int:player_id>/merge")
def merge_player(club_id: str, player_id: int):
    club = authorize(club_id)
    into = body().get("into")
    player_of(club, player_id)  # the one merged away must exist before "into" is judged
    if isinstance(into, bool) or not isinstance(into, int):
        raise refuse("into", N_("Choose the player to merge with."))
    return jsonify(player_state(clubs.merge_players(club, into, player_id)))


# -- club matches and figures ---------------------------------------------------------------------


@bp.post("/clubs/<club_id>/matches")
def start_match(club_id: str):
    admin = admin_or_none(club_id)
    club = admin or clubs.must_find(club_id)
    starter = "admin" if admin is not None else None
    if starter is None and request.headers.get(members.HEADER, "").strip():
        member_or_403(club)
        starter = "member"
    data = fields_of(body(), "options")
    start = start_key(f"club {club.public_id}")
    match, key, again = matches.started_once(start, lambda: clubs.start_match(
        club, data.get("game"), data.get("players"), data.get("options"), language=data.get("language"),
        started_by=starter, start=start))
    edit_url = url_for("pages.join", public_id=match.public_id, key=key, _external=True)
    return replayed_start(answer(match, matches.replay(match), 201, edit_key=key, edit_url=edit_url,
                                 club=club.public_id, seat_ids=match.seat_ids), again)


@bp.delete("/clubs/<club_id>/matches/<match_id>")
def delete_match(club_id: str, match_id: str):
    """The admin deletes a club match someone who is not a member started; the guests it brought leave too."""
    club = authorize(club_id)
    gone = clubs.delete_strangers_match(club, match_id)
    return jsonify({"deleted": match_id, "guests_removed": gone})


@bp.get("/clubs/<club_id>/standings")
def standings(club_id: str):
    club = clubs.must_find(club_id)
    season, game = season_arg(club), game_arg()
    view = club_seasons.view(club, season)  # a closed season from its snapshot
    games = {slug: game_state(line, view.names) for slug, line in view.games.items() if game in (None, slug)}
    return jsonify({"season": season_state(season), "min_matches": club_seasons.min_matches(club, season),
                    "games": games})


@bp.get("/clubs/<club_id>/players/<int:player_id>")
def player_stats(club_id: str, player_id: int):
    club = clubs.must_find(club_id)
    player, season = player_of(club, player_id), season_arg(club)
    return jsonify({**player_state(player), "season": season_state(season),
                    "games": clubs.player_view(club, player.id, season)})


@bp.get("/clubs/<club_id>/head-to-head")
def head_to_head(club_id: str):
    club = clubs.must_find(club_id)
    a, b, season = player_arg(club, "a"), player_arg(club, "b"), season_arg(club)
    names = {player.id: player.name for player in clubs.roster(club)}
    return jsonify({"a": {"id": a, "name": names[a]}, "b": {"id": b, "name": names[b]},
                    "season": season_state(season), "games": clubs.head_to_head(club, a, b, season)})


# -- spreadsheets ------------------------------------------------------------------------------------


@bp.get("/clubs/<club_id>/matches.csv")
def matches_csv(club_id: str):
    club = clubs.must_find(club_id)
    return club_csv.club_matches(club, season_arg(club))


@bp.get("/clubs/<club_id>/hands.csv")
def hands_csv(club_id: str):
    club = clubs.must_find(club_id)
    return club_csv.club_hands(club, season_arg(club))


@bp.get("/clubs/<club_id>/standings.csv")
def standings_csv(club_id: str):
    club = clubs.must_find(club_id)
    return club_csv.standings(club, season_arg(club), game_arg())


@bp.get("/matches/<public_id>/hands.csv")
def match_hands_csv(public_id: str):
    match = matches.find(public_id)
    if match is None:
        raise matches.NotFound()
    return club_csv.match_hands(match)


# -- the rounds of an evening ------------------------------------------------------------------------


def round_args(data: JsonObject) -> tuple[str | list[str], int | None, list[tuple[int, int]]]:
    """A proposal's game (one slug, or one per table), seed (absent: a fresh one) and swaps ([[a, b], ...])."""
    seed, raw = data.get("seed"), data.get("swaps", [])
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**31):
        raise refuse("seed", N_("Give the seed as a whole number from 0 to {high}."), high=2**31 - 1)
    if not isinstance(raw, list) or not all(isinstance(pair, list) and len(pair) == 2 and all(
            isinstance(one, int) and not isinstance(one, bool) for one in pair) for pair in raw):
        raise refuse("swaps", N_("Give the swaps as pairs of player ids."))
    return data.get("game"), seed, [(a, b) for a, b in raw]


def proposed_state(club: Club, seed: int, number: int, drawn: Round, first: int = 1) -> dict[str, object]:
    """A proposal as answered; its tables numbered from first (new tables of a round continue its numbers)."""
    names = club_figures.names(club)
    return {"seed": seed, "number": number, "sat_out": list(drawn.sat_out),
            "sat_out_names": [names.get(player, "") for player in drawn.sat_out],
            "tables": [{"number": at, "game": table.game, "seat_ids": list(table.seats),
                        "players": [names.get(seat, "") for seat in table.seats],
                        "first": names.get(table.seats[0], "")} for at, table in enumerate(drawn.tables, first)]}


def round_state(club: Club, made: EveningRound, tables: list[tuple[EveningTable, Match | None]], keys: bool = False
                ) -> dict[str, object]:
    """A confirmed round: its tables, each with its match (and, for the admin who confirmed it, its edit key)."""
    names = club_figures.names(club)
    out = []
    for row in club_rounds.table_states(club, tables):
        table, match = row.table, row.match
        state: dict[str, object] = {"number": table.number, "game": table.game, "seat_ids": list(table.seat_ids),
                                    "players": row.names, "match": None, "ended": table.ended}
        if match is not None:
            state["match"] = {"id": match.public_id, "url": url_for("pages.match", public_id=match.public_id),
                              "hands": row.hands, "finished": row.finished}
            if keys:
                key = club_rounds.seat_key(match)
                state["match"] |= {"edit_key": key,
                                   "edit_url": url_for("pages.join", public_id=match.public_id, key=key, _external=True)}
        out.append(state)
    at = made.at if made.at.tzinfo else made.at.replace(tzinfo=timezone.utc)  # SQLite gives it back without
    return {"number": made.number, "seed": made.seed, "at": at.isoformat(), "sat_out": list(made.sat_out),
            "sat_out_names": [names.get(player, "") for player in made.sat_out], "tables": out}


@bp.post("/clubs/<club_id>/planned-evenings/<int:evening_id>/rounds/proposal")
def propose_round(club_id: str, evening_id: int):
    """The next round as the seating engine draws it; nothing is stored."""
    club = authorize(club_id)
    evening = planning.evening_of(club, evening_id)
    game, seed, swaps = round_args(body())
    seed, drawn = club_rounds.propose(club, evening, game, seed)
    return jsonify(proposed_state(club, seed, club_rounds.next_number(evening), club_rounds.swapped(drawn, swaps)))


@bp.post("/clubs/<club_id>/planned-evenings/<int:evening_id>/rounds")
def confirm_round(club_id: str, evening_id: int):
    """Confirm the next round: the tables given, or those of the seed and swaps; one club match per table."""
    club = authorize(club_id)
    evening = planning.evening_of(club, evening_id)
    data = body()
    game, seed, swaps = round_args(data)
    number = data.get("number")
    if number is not None and row_id(number) is None:
        raise refuse("number", N_("Give the round's number as a whole number from 1."))
    if "tables" in data:
        drawn = club_rounds.checked(club, evening, data["tables"])
    else:
        if seed is None:
            raise refuse("seed", N_("Give the seed of the proposal, or its tables."))
        drawn = club_rounds.swapped(club_rounds.propose(club, evening, game, seed)[1], swaps)
    made = club_rounds.confirm(club, evening, drawn, seed or 0, number=number)
    return jsonify(round_state(club, made, club_rounds.rounds_of(evening)[-1][1], keys=True)), 201


@bp.get("/clubs/<club_id>/planned-evenings/<int:evening_id>/rounds")
def list_rounds(club_id: str, evening_id: int):
    """The evening's confirmed rounds, their tables and matches."""
    club = clubs.must_find(club_id)
    evening = planning.evening_of(club, evening_id)
    return jsonify({"evening": {"id": evening.id, "day": evening.day.isoformat(), "name": evening.name},
                    "next": club_rounds.next_number(evening),
                    "rounds": [round_state(club, made, tables)
                               for made, tables in club_rounds.rounds_of(evening)]})
