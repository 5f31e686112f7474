"""The club part of the JSON API: clubs, roster, rules, seasons, club matches, standings, statistics, CSV.

Reading needs only the club id (the club link); changing the roster, rules or seasons needs the
admin key as a bearer token (401 without, 403 wrong), as a match's writes need its edit key.
Starting a club match needs only the club link, as starting any match needs nothing.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TypedDict

from flask import Blueprint, abort, jsonify, make_response, request, url_for
from flask_babel import gettext as _

from ...club import figures as club_figures, service as clubs
from ...club.engine.ratings import Rating
from ...club.engine.standings import Standing
from ...club.roster import player_of, row_id
from ...games import GAMES
from ...games.base import N_
from ...json_values import JsonObject
from ...match import matches
from ...models import Club, ClubPlayer, Season
from ...refusals import Refusal, refuse
from ..club import spreadsheets as club_csv
from ..club.pages import seated
from ..errors import json_error
from .matches import answer, body, conflict, fields_of, invalid

bp = Blueprint("club_api", __name__, url_prefix="/api/v1")
bp.register_error_handler(Refusal, invalid)
bp.register_error_handler(matches.Conflict, conflict)


@bp.errorhandler(matches.NotFound)
def not_found(err: matches.NotFound):  # noqa: ARG001
    return json_error(404, _("There is no such club, player or season."))


# -- the shapes answered ------------------------------------------------------------------


class PlayerState(TypedDict):
    id: int
    name: str


class SeasonState(TypedDict):
    id: int
    name: str
    starts: str  # year-month-day
    ends: str


class ClubState(TypedDict):
    """The club as the API gives it (the Club schema)."""

    id: str
    url: str
    name: str
    house_rules: dict[str, JsonObject]
    min_matches: int
    time_zone: str
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
    return {"id": season.id, "name": season.name, "starts": season.starts.isoformat(), "ends": season.ends.isoformat()}


def club_state(club: Club) -> ClubState:
    """The club as the API gives it: name, rules, roster and seasons."""
    return {"id": club.public_id, "url": url_for("clubs.club", public_id=club.public_id), "name": club.name,
            "house_rules": club.house_rules, "min_matches": club.min_matches, "time_zone": club.time_zone or "UTC",
            "version": club.version,
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
    clubs.set_rules(club, data.get("min_matches", club.min_matches), data.get("house_rules", club.house_rules),
                    data.get("time_zone", clubs.KEEP))
    return jsonify(club_state(club))


@bp.post("/clubs/<club_id>/seasons")
def add_season(club_id: str):
    club = authorize(club_id)
    data = body()
    return jsonify(season_state(clubs.add_season(club, data.get("name"), data.get("starts"), data.get("ends")))), 201


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


# -- the roster ---------------------------------------------------------------------------------


@bp.post("/clubs/<club_id>/players")
def add_player(club_id: str):
    club = authorize(club_id)
    return jsonify(player_state(clubs.add_player(club, body().get("name")))), 201


@bp.patch("/clubs/<club_id>/players/<int:player_id>")
def rename_player(club_id: str, player_id: int):
    club = authorize(club_id)
    return jsonify(player_state(clubs.rename_player(club, player_id, body().get("name"))))


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
    club = clubs.must_find(club_id)
    data = fields_of(body(), "options")
    match, key = clubs.start_match(club, data.get("game"), data.get("players"), data.get("options"),
                                   language=data.get("language"))
    edit_url = url_for("pages.join", public_id=match.public_id, key=key, _external=True)
    return answer(match, matches.replay(match), 201, edit_key=key, edit_url=edit_url, club=club.public_id,
                  seat_ids=match.seat_ids)


@bp.get("/clubs/<club_id>/standings")
def standings(club_id: str):
    club = clubs.must_find(club_id)
    season, game = season_arg(club), game_arg()
    view = clubs.view(club, season)
    games = {slug: game_state(line, view.names) for slug, line in view.games.items() if game in (None, slug)}
    return jsonify({"season": season_state(season), "min_matches": club.min_matches, "games": games})


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
