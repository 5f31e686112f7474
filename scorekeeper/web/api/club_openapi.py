"""The club part of the OpenAPI document (web/openapi.py): every /api/v1/clubs endpoint, its bodies and answers.

Limits are the code's own: a club name's length, the fewest matches to be ranked, the player names
and each game's options (house rules are a game's options without the seats, which each match picks).
"""

from __future__ import annotations

from ...club.service import CLUB_NAME_MAX, EVENINGS_LISTED, EVENINGS_MOST, MIN_MATCHES, SEAT_OPTIONS
from ...games import GAMES
from .schemas import SCHEMAS as MATCH_SCHEMAS, TITLES, Schema, integer, nullable, obj, ref

JSON = "application/json"
CSV = "text/csv"


def house_rules(slug: str) -> Schema:
    """A game's options as house rules: the options of its matches, less the ones that name a seat."""
    options = MATCH_SCHEMAS[f"{TITLES[slug]}Options"]
    return obj({name: schema for name, schema in options["properties"].items() if name not in SEAT_OPTIONS},
               description=f"The options every new {GAMES[slug].title} match of the club starts with.")


ID = integer(1, 2**31 - 1)
FIGURE = {"oneOf": [{"type": "number"}, {"type": "null"}]}
DAY = {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
       "description": "A day, year-month-day (2026-12-05) exactly."}
CLUB_NAME = {"type": "string", "minLength": 1, "maxLength": CLUB_NAME_MAX}
TIME_ZONE = {"type": "string", "maxLength": 64, "examples": ["Europe/Paris", "America/Montreal"],
             "description": "Where the club plays, an IANA time zone name: an evening is the matches started on one "
                            "day there."}
SEASON = obj({"id": ID, "name": CLUB_NAME, "starts": DAY, "ends": DAY}, ("id", "name", "starts", "ends"),
             "A named range of days, both included.")
PLAYER = obj({"id": ID, "name": ref("PlayerName")}, ("id", "name"), "A player of the club's roster.")
NAMED = {"player": ID, "name": {"type": "string"}}
ADMIN_KEY = {
    "admin_key": {"type": "string", "minLength": 22,
                  "description": "The secret the club's roster, rules and seasons need as `Authorization: Bearer`."},
    "club_url": {"type": "string", "format": "uri", "description": "The club page, for the members."},
    "admin_url": {"type": "string", "format": "uri", "description": "Opens the club for running it on a phone."},
}
GAME_TABLE = obj({
    "matches": integer(0, description="Finished matches of the game in the season."),
    "standings": {"type": "array", "description": "Ranked players first (place shared on a tie), then the players "
                                                  "with fewer than `min_matches` matches, without a place.",
                  "items": obj({**NAMED, "matches": integer(1), "ranked": {"type": "boolean"},
                                "place": nullable(integer(1)),
                                "figures": {"type": "object", "additionalProperties": FIGURE,
                                            "description": "Barbu: average, total, wins; Kozyol: goats, goats "
                                                           "with eggs, deals won; Hearts: wins, average place."}},
                               ("player", "name", "matches", "ranked", "place", "figures"))},
    "ratings": {"type": "array", "description": "OpenSkill (Plackett-Luce) from every finished match in order; "
                                                "ordinal = mu - 3 sigma, highest first.",
                "items": obj({**NAMED, "mu": {"type": "number"}, "sigma": {"type": "number"},
                              "ordinal": {"type": "number"}, "matches": integer(1)},
                             ("player", "name", "mu", "sigma", "ordinal", "matches"))},
    "partnerships": {"type": "array", "description": "Kozyol only: each pair that played as a team.",
                     "items": obj({"pair": {"type": "array", "items": ID, "minItems": 2, "maxItems": 2},
                                   "names": {"type": "array", "items": {"type": "string"}},
                                   "matches": integer(1), "goats": integer(0), "goats_with_eggs": integer(0),
                                   "deals": integer(0), "deals_won": integer(0)},
                                  ("pair", "names", "matches", "goats", "goats_with_eggs", "deals", "deals_won"))},
}, ("matches", "standings", "ratings", "partnerships"))
PER_GAME = {slug: {"type": "object"} for slug in GAMES}

SCHEMAS: Schema = {
    **{f"{TITLES[slug]}HouseRules": house_rules(slug) for slug in GAMES},
    "HouseRules": obj({slug: ref(f"{TITLES[slug]}HouseRules") for slug in GAMES},
                      description="Per game, the options the club's new matches start with."),
    "NewClub": obj({"name": CLUB_NAME, "house_rules": ref("HouseRules")}, ("name",)),
    "ClubPlayer": PLAYER,
    "Season": SEASON,
    "Club": obj({"id": {"type": "string", "description": "Random and unguessable: the club link."},
                 "url": {"type": "string", "description": "The club page in the browser."},
                 "name": CLUB_NAME, "house_rules": ref("HouseRules"),
                 "min_matches": integer(*MIN_MATCHES, "Finished matches a player needs to be ranked."),
                 "time_zone": TIME_ZONE,
                 "version": integer(1, description="Grows with every change to the roster, rules or seasons."),
                 "players": {"type": "array", "items": PLAYER, "description": "The roster, by name."},
                 "seasons": {"type": "array", "items": SEASON, "description": "The latest first."}},
                ("id", "url", "name", "house_rules", "min_matches", "time_zone", "version", "players", "seasons")),
    "AdminKey": obj(ADMIN_KEY, tuple(ADMIN_KEY)),
    "CreatedClub": {"allOf": [ref("Club"), obj(ADMIN_KEY, tuple(ADMIN_KEY))]},
    "NewPlayer": obj({"name": ref("PlayerName")}, ("name",)),
    "Merge": obj({"into": ID | {"description": "The player who keeps both records."}}, ("into",)),
    "ClubRules": obj({"min_matches": integer(*MIN_MATCHES, "Absent: unchanged."),
                      "house_rules": ref("HouseRules") | {"description": "Absent: unchanged; replaces them all."},
                      "time_zone": nullable(TIME_ZONE) | {"description": "Absent: unchanged. Null, empty or UTC: "
                                                                         "UTC. Every match moves to the evening "
                                                                         "of its start's day there."}}),
    "NewSeason": obj({"name": CLUB_NAME, "starts": DAY, "ends": DAY}, ("name", "starts", "ends")),
    "EveningName": obj({"name": nullable(CLUB_NAME) | {"description": "Null: the name is taken away."}}),
    "Evening": obj({"day": DAY, "name": nullable(CLUB_NAME)}, ("day", "name")),
    "Evenings": obj({
        "season": nullable(SEASON),
        "evenings": {"type": "array", "description": "The latest first.", "items": obj({
            "day": DAY, "name": nullable(CLUB_NAME),
            "matches": {"type": "array", "description": "In the order they were started.", "items": obj({
                "id": {"type": "string"}, "url": {"type": "string", "description": "The match page."},
                "game": {"enum": list(GAMES)},
                "players": {"type": "array", "items": {"type": "string"},
                            "description": "In seat order, by their roster names now."},
                "seat_ids": {"type": "array", "items": ID}, "finished": {"type": "boolean"}},
                ("id", "url", "game", "players", "seat_ids", "finished"))}}, ("day", "name", "matches"))},
        "next": nullable({"type": "string", "description": "The address of the evenings before these."})},
        ("season", "evenings", "next")),
    "CreatedClubMatch": {"allOf": [ref("CreatedMatch"), obj({
        "club": {"type": "string", "description": "The club's id."},
        "seat_ids": {"type": "array", "items": ID, "description": "The club player in each seat."}},
        ("club", "seat_ids"))]},
    "Standings": obj({"season": nullable(SEASON), "min_matches": integer(*MIN_MATCHES),
                      "games": obj({slug: GAME_TABLE for slug in GAMES},
                                   description="The games the club finished a match of in the season.")},
                     ("season", "min_matches", "games")),
    "PlayerStatistics": obj({"id": ID, "name": ref("PlayerName"), "season": nullable(SEASON),
                             "games": obj(PER_GAME, description="Per game the player finished a match of.")},
                            ("id", "name", "season", "games")),
    "HeadToHead": obj({"a": PLAYER, "b": PLAYER, "season": nullable(SEASON), "games": obj({
        slug: obj({"matches": integer(0), "a_ahead": integer(0), "b_ahead": integer(0), "level": integer(0),
                   "partners": integer(0, description="Kozyol: matches as partners, not counted as meetings.")},
                  ("matches", "a_ahead", "b_ahead", "level")) for slug in GAMES})},
        ("a", "b", "season", "games")),
}

# -- operations ----------------------------------------------------------------------------------------


def error(status: str) -> Schema:
    return {"$ref": f"#/components/responses/{status}"}


def answer(description: str, schema: str) -> Schema:
    return {"description": description, "content": {JSON: {"schema": ref(schema)}}}


def spreadsheet(description: str) -> Schema:
    return {"description": description + " UTF-8, a header row, one row per line of the table; text that a "
                                         "spreadsheet would take for a formula starts with an apostrophe.",
            "headers": {"Content-Disposition": {"schema": {"type": "string"},
                                                "description": "attachment, with a file name."}},
            "content": {CSV: {"schema": {"type": "string"}}}}


def operation(operation_id: str, summary: str, responses: Schema, *, admin: bool = False, unknown: bool = True,
              request: str | None = None, parameters: list[Schema] = (), description: str = "") -> Schema:
    """A club operation: its answers (the shared error answers by reference), the admin key when it writes."""
    codes = {**({"404": error("404")} if unknown else {}), **responses}
    if request is not None:
        codes.update({"400": error("400"), "413": error("413"), "415": error("415"), "422": error("422")})
    if admin:
        codes.update({"401": error("NoAdminKey"), "403": error("WrongAdminKey"), "429": error("429")})
    out: Schema = {"operationId": operation_id, "summary": summary, "tags": ["clubs"],
                   "responses": dict(sorted(codes.items()))}
    if description:
        out["description"] = description
    if parameters:
        out["parameters"] = list(parameters)
    if request is not None:
        out["requestBody"] = {"required": True, "content": {JSON: {"schema": ref(request)}}}
    if admin:
        out["security"] = [{"adminKey": []}]
    return out


CLUB = {"$ref": "#/components/parameters/ClubId"}
PLAYER_ID = {"name": "player_id", "in": "path", "required": True, "schema": ID, "description": "A roster player's id."}
SEASON_ID = {"name": "season", "in": "query", "required": False, "schema": {"type": "string", "pattern": "^([0-9]*|all)$"},
             "description": "A season's id; absent, empty or `all`: all time. 404 for a season the club does not have."}
EVENINGS_LIMIT = {"name": "limit", "in": "query", "required": False, "schema": integer(1, EVENINGS_MOST),
                  "description": f"Evenings per answer; {EVENINGS_LISTED} when absent."}
EVENINGS_BEFORE = {"name": "before", "in": "query", "required": False, "schema": DAY,
                   "description": "Only the evenings before this day (what `next` asks for)."}
GAME = {"name": "game", "in": "query", "required": False, "schema": {"enum": list(GAMES)},
        "description": "One game; absent: every game. 422 for an unknown game."}
PLAYER_ARGS = [{"name": side, "in": "query", "required": True, "schema": {"type": "string", "pattern": "^[0-9]+$"},
                "description": "A roster player's id."} for side in ("a", "b")]
# The club's own 401 and 403, beside the match's shared ones (which speak of the edit key).
RESPONSES = {"NoAdminKey": answer("A write without the club's admin key.", "Error"),
             "WrongAdminKey": answer("A write with a key that is not this club's admin key. Wrong keys are counted "
                                     "per address and per club (429 past the limit).", "Error")}
PARAMETERS = {"ClubId": {"name": "club_id", "in": "path", "required": True, "schema": {"type": "string"},
                         "description": "The club id given at creation (the club link)."}}
SECURITY = {"adminKey": {"type": "http", "scheme": "bearer", "description": "The club's admin key, given at creation."}}
MATCH_ID = {"$ref": "#/components/parameters/MatchId"}


def paths(prefix: str = "/api/v1") -> Schema:
    """Every club endpoint of the API."""
    club = f"{prefix}/clubs/{{club_id}}"
    return {
        f"{prefix}/clubs": {"post": operation(
            "createClub", "Create a club", {"201": answer("The new club, with its admin key and links.",
                                                          "CreatedClub"), "429": error("429")},
            request="NewClub", unknown=False)},
        club: {"get": operation("readClub", "Read a club: roster, rules, seasons",
                                {"200": answer("The club.", "Club")}, parameters=[CLUB])},
        f"{club}/key": {"post": operation(
            "rotateClubKey", "Give a club a new admin key",
            {"200": answer("The new key; every older admin key and link stops working.", "AdminKey")},
            admin=True, parameters=[CLUB])},
        f"{club}/rules": {"put": operation(
            "setClubRules", "Set the house rules and the matches needed to be ranked",
            {"200": answer("The club.", "Club")}, admin=True, request="ClubRules", parameters=[CLUB],
            description="House rules are checked by each game; an option naming a seat is refused (422).")},
        f"{club}/seasons": {"post": operation(
            "addSeason", "Add a season", {"201": answer("The season.", "Season")}, admin=True,
            request="NewSeason", parameters=[CLUB])},
        f"{club}/evenings": {"get": operation(
            "listEvenings", "The club's evenings and their matches",
            {"200": answer("The latest evenings of the season, and where the older ones are.", "Evenings"),
             "422": error("422")},
            parameters=[CLUB, SEASON_ID, EVENINGS_LIMIT, EVENINGS_BEFORE],
            description="The matches started on one day in the club's time zone make an evening, finished or not.")},
        f"{club}/evenings/{{day}}": {"put": operation(
            "nameEvening", "Name the evening of a day", {"200": answer("The evening.", "Evening")}, admin=True,
            request="EveningName", parameters=[CLUB, {"name": "day", "in": "path", "required": True,
                                                      "schema": DAY, "description": "year-month-day"}],
            description="The matches started on one day in the club's time zone make an evening, named or not.")},
        f"{club}/players": {"post": operation(
            "addPlayer", "Add a player to the roster", {"201": answer("The player.", "ClubPlayer")}, admin=True,
            request="NewPlayer", parameters=[CLUB],
            description="Names are unique in the club, compared as in a match (case, accents' encoding, spaces).")},
        f"{club}/players/{{player_id}}": {
            "patch": operation("renamePlayer", "Rename a player", {"200": answer("The player.", "ClubPlayer")},
                               admin=True, request="NewPlayer", parameters=[CLUB, PLAYER_ID],
                               description="Every result stays the player's."),
            "get": operation("playerStatistics", "A player's statistics per game",
                             {"200": answer("Statistics per game of the season.", "PlayerStatistics")},
                             parameters=[CLUB, PLAYER_ID, SEASON_ID]),
        },
        f"{club}/players/{{player_id}}/merge": {"post": operation(
            "mergePlayer", "Merge a player into another", {"200": answer("The player kept.", "ClubPlayer")},
            admin=True, request="Merge", parameters=[CLUB, PLAYER_ID],
            description="For one person entered twice: this player's results become `into`'s, and this player "
                        "leaves the roster. Two players who sat at the same match are refused (422).")},
        f"{club}/matches": {"post": operation(
            "startClubMatch", "Start a match of the club",
            {"201": answer("The new match, with its edit key.", "CreatedClubMatch"), "409": error("409"),
             "429": error("429")},
            request="NewMatch", parameters=[CLUB],
            description="As creating a match; players are matched to the roster by name and new names join it; "
                        "options start from the house rules. Needs only the club link.")},
        f"{club}/standings": {"get": operation(
            "clubStandings", "Standings and ratings per game", {"200": answer("The season's table.", "Standings"),
                                                                "422": error("422")},
            parameters=[CLUB, SEASON_ID, GAME], description="Only finished matches count.")},
        f"{club}/head-to-head": {"get": operation(
            "headToHead", "Two players head to head", {"200": answer("Per game.", "HeadToHead")},
            parameters=[CLUB, *PLAYER_ARGS, SEASON_ID])},
        f"{club}/matches.csv": {"get": operation(
            "clubMatchesCsv", "The season's finished matches as CSV",
            {"200": spreadsheet("One row per match and seat.")}, parameters=[CLUB, SEASON_ID])},
        f"{club}/hands.csv": {"get": operation(
            "clubHandsCsv", "The hands of the season's finished matches as CSV",
            {"200": spreadsheet("One row per hand and player."), "409": error("409")}, parameters=[CLUB, SEASON_ID])},
        f"{club}/standings.csv": {"get": operation(
            "clubStandingsCsv", "The season's standings as CSV",
            {"200": spreadsheet("One row per game and player."), "422": error("422")},
            parameters=[CLUB, SEASON_ID, GAME])},
        f"{prefix}/matches/{{public_id}}/hands.csv": {"get": operation(
            "matchHandsCsv", "A match's hands as CSV", {"200": spreadsheet("One row per hand and player."),
                                                        "409": error("409")}, parameters=[MATCH_ID])
            | {"tags": ["matches"]}},
    }
