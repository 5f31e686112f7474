"""The club part of the OpenAPI document (web/openapi.py): every /api/v1/clubs endpoint, its bodies and answers.

Limits are the code's own: a club name's length, the fewest matches to be ranked, the player names
and each game's options (house rules are a game's options without the seats, which each match picks).
"""

from __future__ import annotations

from typing import cast

from ...club.agreements import MOST_ASKED, REASON_LIMIT
from ...club.evenings import NOTE_MAX, PLACE_MAX, PLANNED_MOST, WEEKS
from ...club.service import CLUB_NAME_MAX, EVENINGS_LISTED, EVENINGS_MOST, MIN_MATCHES, SEAT_OPTIONS
from ...games import GAMES
from .schemas import (
    ONCE_KEY,
    SCHEMAS as MATCH_SCHEMAS,
    START_ONCE,
    TITLES,
    Schema,
    integer,
    made_once,
    nullable,
    obj,
    ref,
)

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
SEASON = obj({"id": ID, "name": CLUB_NAME, "starts": DAY, "ends": DAY,
              "closed_at": nullable({"type": "string", "format": "date-time"}) | {
                  "description": "When the admin closed the season (its tables then stay as they stood); null while "
                                 "open."}},
             ("id", "name", "starts", "ends", "closed_at"), "A named range of days, both included.")
CHAMPIONS = obj({slug: {"type": "array", "items": {"type": "string"}} for slug in GAMES},
                description="Per game finished in the season, the names of the ranked players in first place (all "
                            "of them on a tie); empty while the season is open.")
PROVISIONAL_CHAMPIONS = obj({slug: {"type": "array", "items": {"type": "string"}} for slug in GAMES},
                            description="Per game in which nobody was ranked when the season closed (fewer "
                                        "finished matches than `min_matches`), the names of the players first on "
                                        "provisional places; empty while the season is open.")
PROVISIONAL = nullable(integer(1)) | {
    "description": "While not ranked (fewer finished matches than `min_matches`): the place the player's figures so "
                   "far give among every player of the table, a tie sharing it; null once ranked."}
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
                                                           "with eggs, deals won; Hearts: wins, average place."},
                                "provisional": PROVISIONAL},
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
START = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$", "examples": ["19:30"],
         "description": "A time of day, hours and minutes (24 hours), in the club's time zone."}
PLACE = {"type": "string", "maxLength": PLACE_MAX, "description": "Where the club meets that evening."}
NOTE = {"type": "string", "maxLength": NOTE_MAX, "description": "A word for the members."}
EVENING_NAME = {"type": "string", "maxLength": CLUB_NAME_MAX, "description": "Empty: an unnamed evening."}
PLAN = {"day": DAY, "starts_at": nullable(START) | {"description": "Absent, null or empty: no start time (all day)."},
        "place": PLACE, "note": NOTE, "name": EVENING_NAME}
PLANNED = obj({
    "id": ID, "day": DAY, "name": EVENING_NAME, "starts_at": nullable(START), "place": PLACE, "note": NOTE,
    "url": {"type": "string", "description": "The club page, at the evening."},
    "coming": {"type": "array", "items": PLAYER, "description": "Those who said they are coming, by name: from "
                                                               "their own member key, or through the admin."},
    "not_coming": {"type": "array", "items": PLAYER, "description": "Those who said not this time (proven as "
                                                                   "`coming`)."},
    "present": {"type": "array", "items": PLAYER, "description": "Those the admin marked here at the door."},
    "absent": {"type": "array", "items": PLAYER, "description": "Those the admin marked not here at the door."},
    "here": {"type": "array", "items": PLAYER, "description": "Who is there, as the draw seats them: those who said "
                                                             "they are coming and those marked here, minus those "
                                                             "marked not here."}},
    ("id", "day", "name", "starts_at", "place", "note", "url", "coming", "not_coming", "present", "absent", "here"),
    "An evening planned ahead, and its answers.")
# A club match changed after its players agreed: the lock and the agreements stay, and this says what changed.
CHANGED_AFTER_AGREEMENT: Schema = {"type": "array", "description": (
    "Every change made to the match since its players agreed to it, oldest first; empty when none. Only the club's "
    "admin can change an agreed (locked) match, with a reason: the match stays agreed and locked, marked as changed "
    "after agreement."), "items": obj({
        "number": integer(1, description="The hand changed."),
        "action": {"enum": ["record", "correct", "undo", "delete"], "description": "As in the edit history."},
        "at": {"type": "string", "format": "date-time"},
        "reason": {"type": "string", "maxLength": 200, "description": "Why, as the club's admin gave it."},
        "by": {"enum": ["club_admin"], "description": "Who changed it: the club's admin (organiser)."}},
        ("number", "action", "at", "reason", "by"))}
ATTENDANCE = {"evening": ID, "player": ID, "name": ref("PlayerName"), "coming": {"type": "boolean"},
              "present": {"type": "boolean", "description": "Marked here at the door."},
              "absent": {"type": "boolean", "description": "Marked not here at the door: not counted as there, "
                                                           "whatever the answer."},
              "proven": {"type": "boolean", "description": "Whether the answer came from the member's own key "
                                                           "(`Club-Member-Key`) or the admin: only a proven answer "
                                                           "counts for the draw and in `coming` and `not_coming`."}}
MEMBER_KEY: Schema = {
    "member_key": {"type": "string", "minLength": 22,
                   "description": "The member's own secret, for that member alone: their client sends it as "
                                  "`Club-Member-Key`. Only its hash is kept; a new one replaces it."},
    "member_url": {"type": "string", "format": "uri",
                   "description": "The member link: the phone that opens it is this member at the club."},
}

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
                 "agree_to_lock": integer(0, MOST_ASKED, "How many players' agreement locks a finished match of "
                                                         "the club (0: never locked)."),
                 "confirm_hands": {"type": "boolean",
                                   "description": "Whether the next seat confirms every hand (tournament nights)."},
                 "players": {"type": "array", "items": PLAYER, "description": "The roster, by name."},
                 "seasons": {"type": "array", "items": SEASON, "description": "The latest first."}},
                ("id", "url", "name", "house_rules", "min_matches", "time_zone", "version", "players", "seasons")),
    "AdminKey": obj(ADMIN_KEY, tuple(ADMIN_KEY)),
    "CreatedClub": {"allOf": [ref("Club"), obj(ADMIN_KEY, tuple(ADMIN_KEY))]},
    "ImportedClub": {"allOf": [ref("Club"), obj(cast(Schema, ADMIN_KEY), (), "The new admin key and links, when the export "
                                                              "carried no keys of its own.")]},
    "ClubExport": obj(cast(Schema, {"format": {"const": "scorekeeper-club"}, "version": {"const": 1},
                       "exported_at": {"type": "string"}, "club": {"type": "object"},
                       "players": {"type": "array", "items": {"type": "object"}},
                       "seasons": {"type": "array", "items": {"type": "object"}},
                       "evenings": {"type": "array", "items": {"type": "object"}},
                       "matches": {"type": "array", "items": {"type": "object"}}}),
                      ("format", "version", "club", "players", "seasons", "evenings", "matches"),
                      "A whole club: settings and house rules, roster, seasons, evenings with answers and rounds, "
                      "matches with their hands, history and agreements; keys' hashes only when asked."),
    "NewPlayer": obj({"name": ref("PlayerName")}, ("name",)),
    "Merge": obj({"into": ID | {"description": "The player who keeps both records."}}, ("into",)),
    "ClubRules": obj({"min_matches": integer(*MIN_MATCHES, "Absent: unchanged."),
                      "house_rules": ref("HouseRules") | {"description": "Absent: unchanged; replaces them all."},
                      "time_zone": nullable(TIME_ZONE) | {"description": "Absent: unchanged. Null, empty or UTC: "
                                                                         "UTC. Every match moves to the evening "
                                                                         "of its start's day there."},
                      "agree_to_lock": integer(0, MOST_ASKED, "Absent: unchanged. How many players' agreement "
                                                              "locks a finished match (0: never)."),
                      "confirm_hands": {"type": "boolean", "description": "Absent: unchanged. Whether the next seat "
                                                                          "confirms every hand."}}),
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
    "PlannedEvening": PLANNED,
    "PlannedEvenings": obj({"evenings": {"type": "array", "items": PLANNED, "description": "Soonest first."}},
                           ("evenings",)),
    "NewPlannedEvening": obj({**PLAN, "weeks": integer(*WEEKS, "One evening a week for this many weeks; 1 when "
                                                               "absent. A day that has an evening gets this plan.")},
                             ("day",)),
    "PlannedEveningChange": obj(PLAN, description="Absent: unchanged. An evening played keeps its day."),
    "EveningAnswer": obj({"player": ID | {"description": "The player answered for; with `Club-Member-Key`, the "
                                                         "member's own id (another is refused, 403)."},
                          "coming": {"type": "boolean", "description": "true: I'm in; false: not this time."},
                          "answer_key": {"type": "string", "minLength": 1,
                                         "description": "Without the member's or the admin's key: the key the "
                                                        "player's first unproven answer gave, needed to change it."}},
                         ("player", "coming")),
    "Attendance": obj(ATTENDANCE, tuple(ATTENDANCE), "A player's answer for an evening."),
    "AnsweredAttendance": obj({**ATTENDANCE, "answer_key": {"type": "string", "minLength": 1, "description":
                                                            "Send it again to change this unproven answer; absent "
                                                            "when the admin's or the member's key was sent."}},
                              tuple(ATTENDANCE), "A player's answer, and the key that changes it."),
    "Presence": obj({"present": {"type": "boolean"}}, ("present",)),
    "MemberKey": {"allOf": [ref("ClubPlayer"), obj(MEMBER_KEY, tuple(MEMBER_KEY))]},
    "DeletedClubMatch": obj({"deleted": {"type": "string", "description": "The match's id."},
                             "guests_removed": {"type": "array", "items": ref("PlayerName"),
                                                "description": "The guests it brought who sat at no other club "
                                                               "match: they left the roster."}},
                            ("deleted", "guests_removed")),
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
    "Agreements": obj({
        "asked": integer(0, MOST_ASKED, "Agreements that lock the match; 0: its club asks for none (or it is "
                                        "not a club match)."),
        "locked": {"type": "boolean", "description": "Whether enough players agreed: every write to its hands "
                                                     "then needs the club's admin key and a reason."},
        "finished": {"type": "boolean", "description": "Only a finished match can be agreed."},
        "agreed_by": {"type": "array", "description": "The first first.", "items": obj({
            "seat": integer(0, description="0-based, as in the match's players."), "name": ref("PlayerName"),
            "at": {"type": "string", "format": "date-time"}}, ("seat", "name", "at"))},
        "changed_after_agreement": CHANGED_AFTER_AGREEMENT},
        ("asked", "locked", "finished", "agreed_by", "changed_after_agreement")),
    "NewAgreement": obj({
        "seat": integer(0, description="The agreeing member's own seat, 0-based; absent: the seat the member "
                                       "(`Club-Member-Key`) sat in. Another seat is refused (403)."),
        "phone": {"type": "string", "minLength": 16, "maxLength": 200,
                  "description": "Optional: this client's own random key. Who agrees is the member whose key is "
                                 "sent as `Club-Member-Key`: one agreement per member."}}),
    "HandConfirmation": obj({"number": integer(1), "seat": integer(0, description="The seat that confirmed."),
                             "name": ref("PlayerName"), "at": {"type": "string", "format": "date-time"}},
                            ("number", "seat", "name", "at")),
    "ClosedSeason": {"allOf": [ref("Season"), obj({"champions": CHAMPIONS,
                                                   "provisional_champions": PROVISIONAL_CHAMPIONS}, ("champions",))]},
    "SeasonChange": obj(cast(Schema, {"name": CLUB_NAME, "starts": DAY, "ends": DAY}),
                        description="Each part given is changed, the others kept. A closed season keeps its days."),
    "SeasonClosing": obj({"early": {"type": "boolean", "description": "Close it before its last day: today then "
                                                                      "becomes its last day. Without it, 422."}}),
    "HallOfFame": obj({"seasons": {"type": "array", "description": "The closed seasons, the latest first.",
                                   "items": obj({"season": SEASON, "champions": CHAMPIONS,
                                                 "provisional_champions": PROVISIONAL_CHAMPIONS},
                                                ("season", "champions"))}},
                      ("seasons",)),
    "HeadToHead": obj({"a": PLAYER, "b": PLAYER, "season": nullable(SEASON), "games": obj({
        slug: obj({"matches": integer(0), "a_ahead": integer(0), "b_ahead": integer(0), "level": integer(0),
                   "partners": integer(0, description="Kozyol: matches as partners, not counted as meetings.")},
                  ("matches", "a_ahead", "b_ahead", "level")) for slug in GAMES})},
        ("a", "b", "season", "games")),
}

# The rounds of an evening: a proposal drawn (nothing stored), and the rounds confirmed, one club match per table.
GAME_SLUG = {"enum": list(GAMES)}
SEED = integer(0, 2**31 - 1, "What the proposal was drawn with: the same seed and swaps over the same season "
                             "draw the same round.")
SWAPS = {"type": "array", "description": "Two people swapped, in order (either may be sitting out).",
         "items": {"type": "array", "items": ID, "minItems": 2, "maxItems": 2}}
DRAWN_TABLE = obj({"number": integer(1), "game": GAME_SLUG,
                   "seat_ids": {"type": "array", "items": ID, "description": "In seat order; seat 1 declares or "
                                                                             "deals first."},
                   "players": {"type": "array", "items": {"type": "string"}},
                   "first": {"type": "string", "description": "Who declares or deals first."}},
                  ("number", "game", "seat_ids", "players", "first"))
ROUND_MATCH = obj({"id": {"type": "string"}, "url": {"type": "string", "description": "The match page."},
                   "hands": integer(0), "finished": {"type": "boolean"},
                   "edit_key": {"type": "string", "description": "Only in the answer to the confirmation."},
                   "edit_url": {"type": "string", "format": "uri",
                                "description": "Only in the answer to the confirmation."}},
                  ("id", "url", "hands", "finished"))
TABLE_ENDED = obj({"left": ID, "hands": integer(0, description="Hands played when they left."),
                   "at": {"type": "string", "format": "date-time"},
                   "then": {"enum": ["ended", "seat", "others"], "description": "The match ended there and counts for "
                            "nobody; and someone free took the seat (by) or the others played on, at a new table."},
                   "by": nullable(ID), "table": nullable(integer(1, description="The new table's number."))},
                  ("left", "hands", "at", "then"), "How the table's match ended when a player left; null while it "
                                                   "plays on.")
ROUND = obj({"number": integer(1), "seed": integer(0), "at": {"type": "string", "format": "date-time"},
             "sat_out": {"type": "array", "items": ID}, "sat_out_names": {"type": "array", "items": {"type": "string"}},
             "tables": {"type": "array", "items": obj({
                 "number": integer(1), "game": GAME_SLUG, "seat_ids": {"type": "array", "items": ID},
                 "players": {"type": "array", "items": {"type": "string"}}, "match": nullable(ROUND_MATCH),
                 "ended": nullable(TABLE_ENDED)},
                 ("number", "game", "seat_ids", "players", "match"))}},
            ("number", "seed", "at", "sat_out", "sat_out_names", "tables"))
ROUND_GAME = {"oneOf": [GAME_SLUG, {"type": "array", "items": GAME_SLUG, "minItems": 1}],
              "description": "One game for every table, or one per table in order."}
SCHEMAS |= {
    "RoundProposal": obj({"game": ROUND_GAME, "seed": SEED | {"description": "Absent: a fresh one."},
                          "swaps": SWAPS}, ("game",)),
    "ProposedRound": obj({"seed": SEED, "number": integer(1, description="The round it would be."),
                          "sat_out": {"type": "array", "items": ID},
                          "sat_out_names": {"type": "array", "items": {"type": "string"}},
                          "tables": {"type": "array", "items": DRAWN_TABLE}},
                         ("seed", "number", "sat_out", "sat_out_names", "tables")),
    "RoundConfirmation": obj({
        "game": ROUND_GAME, "seed": SEED, "swaps": SWAPS,
        "number": integer(1, description="The round the proposal was drawn for: 409 once it is confirmed."),
        "tables": {"type": "array", "description": "The tables as proposed; instead of game, seed and swaps.",
                   "items": obj({"game": GAME_SLUG, "seats": {"type": "array", "items": ID}}, ("game", "seats"))}}),
    "Round": ROUND,
    "Leaving": obj({"player": ID, "then": {"enum": ["ended", "seat", "others"]},
                    "by": ID | {"description": "With then: seat, who takes the seat: a player free."}},
                   ("player", "then")),
    "Rounds": obj({"evening": obj({"id": ID, "day": DAY, "name": {"type": "string"}}, ("id", "day", "name")),
                   "next": integer(1, description="The number the next round takes."),
                   "rounds": {"type": "array", "items": ROUND, "description": "In order."}},
                  ("evening", "next", "rounds")),
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


def optional_body(made: Schema) -> Schema:
    """The operation with its request body optional: sent without one, it takes the defaults."""
    cast(Schema, made["requestBody"])["required"] = False
    return made


CLUB = {"$ref": "#/components/parameters/ClubId"}
PLAYER_ID = {"name": "player_id", "in": "path", "required": True, "schema": ID, "description": "A roster player's id."}
SEASON_ID = {"name": "season", "in": "query", "required": False, "schema": {"type": "string", "pattern": "^([0-9]*|all)$"},
             "description": "A season's id; absent, empty or `all`: all time. 404 for a season the club does not have."}
SEASON_PATH = {"name": "season_id", "in": "path", "required": True, "schema": ID, "description": "A season's id."}
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
                         "description": "The club id given at creation (the club link)."},
              "ClubMemberKey": {"name": "Club-Member-Key", "in": "header", "required": False,
                                "schema": {"type": "string"},
                                "description": "A member's own key (the admin makes it: `member_key`), sent by that "
                                               "member's client: says which roster player the request comes from. "
                                               "A key that is no member's current one is refused (403)."}}
SECURITY = {"adminKey": {"type": "http", "scheme": "bearer", "description": "The club's admin key, given at creation."}}
MATCH_ID = {"$ref": "#/components/parameters/MatchId"}
EVENING_ID = {"name": "evening_id", "in": "path", "required": True, "schema": ID,
              "description": "A planned evening's id."}
PLANNED_LIMIT = {"name": "limit", "in": "query", "required": False, "schema": integer(1, PLANNED_MOST),
                 "description": f"Evenings per answer; {EVENINGS_LISTED} when absent."}
ICS = "text/calendar"
MEMBER: Schema = {"$ref": "#/components/parameters/ClubMemberKey"}
CLUB_MATCH_ID: Schema = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "string"},
                         "description": "A club match's id."}
# The parameters of a roster player's own addresses, and of a club match's.
PLAYER_PATH = cast(list[Schema], [CLUB, PLAYER_ID])
CLUB_MATCH_PATH = cast(list[Schema], [CLUB, CLUB_MATCH_ID])


# A write to a hand of a locked club match: the club's admin key and a reason (matches' hand endpoints).
LOCK_PARAMETERS = [
    {"name": "Club-Admin-Key", "in": "header", "required": False, "schema": {"type": "string"},
     "description": "The club's admin key: needed, beside the edit key, to change a club match its players agreed "
                    "(locked); 403 without it."},
    {"name": "reason", "in": "query", "required": False, "schema": {"type": "string", "maxLength": REASON_LIMIT},
     "description": "Why a locked match is changed, kept in its edit history: required with Club-Admin-Key on a "
                    "locked match (422 without)."},
]
LOCKED = ("403 also for a write to a club match its players agreed (locked) without the club's admin key "
          "(`Club-Admin-Key`); with it, `reason` is required (422). A change to a match agreed by fewer players "
          "than lock it clears their agreements.")


def edit_key_operation(operation_id: str, summary: str, responses: Schema, parameters: list[Schema],
                       request: str | None = None, description: str = "") -> Schema:
    """An operation on a club match that needs the match's edit key, as its hands' writes do."""
    codes = {"401": error("401"), "403": error("403"), "404": error("404"), "429": error("429"), **responses}
    if request is not None:
        codes.update({"400": error("400"), "413": error("413"), "415": error("415"), "422": error("422")})
    out: Schema = {"operationId": operation_id, "summary": summary, "tags": ["clubs"],
                   "responses": dict(sorted(codes.items())), "parameters": parameters,
                   "security": [{"editKey": []}]}
    if description:
        out["description"] = description
    if request is not None:
        out["requestBody"] = {"required": True, "content": {JSON: {"schema": ref(request)}}}
    return out


def paths(prefix: str = "/api/v1") -> Schema:
    """Every club endpoint of the API."""
    club = f"{prefix}/clubs/{{club_id}}"
    match = f"{prefix}/matches/{{public_id}}"
    return {
        f"{match}/agreements": {
            "get": operation("readAgreements", "Who agreed to a club match, and whether it is locked",
                             {"200": answer("The match's agreement.", "Agreements")}, parameters=[MATCH_ID]),
            "post": edit_key_operation(
                "agree", "A player agrees to a finished club match",
                {"200": answer("This member had already agreed: nothing changed.", "Agreements"),
                 "201": answer("The agreement, and the lock once enough players agreed.", "Agreements"),
                 "409": error("409")},
                [MATCH_ID, MEMBER], "NewAgreement",
                "Only a finished match of a club that asks for agreement (422 otherwise). Needs the edit key and "
                "the agreeing member's own key (`Club-Member-Key`): without it, for a member who did not sit at "
                "the match, or with a seat that is not theirs, 403. One agreement per member, in their own seat."),
        },
        f"{match}/hands/{{number}}/confirmation": {"post": edit_key_operation(
            "confirmHand", "The next seat's OK to a hand",
            {"200": answer("The seat that confirmed the hand, and when.", "HandConfirmation"), "422": error("422")},
            [MATCH_ID, {"$ref": "#/components/parameters/HandNumber"}, MEMBER],
            description="For a club that confirms every hand (422 otherwise): the seat after the hand's declarer "
                        "(after its dealer in a game without one) confirms it, with the edit key and that seat's "
                        "member key (`Club-Member-Key`; 403 for anyone else). A correction of the hand clears it.")},
        f"{prefix}/clubs": {"post": operation(
            "createClub", "Create a club", {"201": answer("The new club, with its admin key and links.",
                                                          "CreatedClub"), "429": error("429")},
            request="NewClub", unknown=False)},
        f"{prefix}/club-imports": {"post": operation(
            "importClub", "Import a club exported from another server",
            {"201": answer("The club, made here whole.", "ImportedClub"), "429": error("429")},
            request="ClubExport", unknown=False,
            description="Under the same club and match ids where they are free here. Every match is checked by "
                        "its game's rules; a damaged export is refused (422) and imports nothing.")},
        f"{club}/export": {"get": operation(
            "exportClub", "Export the whole club, for another server to import",
            {"200": answer("The club as one document.", "ClubExport")}, admin=True,
            parameters=[cast(Schema, CLUB), cast(Schema, {"name": "keys", "in": "query", "required": False,
                               "schema": {"enum": ["0", "1", "true", "false"]},
                               "description": "`1`: with the hashes of the admin key, the member links and the "
                                              "matches' edit keys, so that every link works on the new server."})])},
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
        f"{club}/seasons/{{season_id}}": {"put": operation(
            "changeSeason", "Rename a season or change its days", {"200": answer("The season.", "Season")},
            admin=True, request="SeasonChange", parameters=[cast(Schema, CLUB), cast(Schema, SEASON_PATH)],
            description="422 for a day that is not year-month-day, a season ending before it starts, or new days "
                        "for a closed season (reopen it first).")},
        f"{club}/seasons/{{season_id}}/close": {
            "post": optional_body(operation(
                "closeSeason", "Close a season: keep its tables, champions and evenings' winners",
                {"200": answer("The season, closed, with its champions.", "ClosedSeason"), "422": error("422")},
                admin=True, request="SeasonClosing", parameters=[CLUB, SEASON_PATH],
                description="From the season's last day on, in the club's time zone; before it only with "
                            "`{\"early\": true}`, and its last day then becomes today (422 without, for a season "
                            "not started yet, and for a season already closed). Its standings are then read from "
                            "what they were when it closed: a match corrected later moves nothing.")),
            "delete": operation("reopenSeason", "Reopen a closed season",
                                {"200": answer("The season, open again: its tables follow its matches.",
                                               "ClosedSeason"), "422": error("422")}, admin=True,
                                parameters=[CLUB, SEASON_PATH], description="422 for a season that is not closed.")},
        f"{club}/hall-of-fame": {"get": operation(
            "hallOfFame", "The champions of the club's closed seasons",
            {"200": answer("Each closed season, the latest first, with its champions per game.", "HallOfFame")},
            parameters=[CLUB])},
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
        f"{club}/planned-evenings": {
            "get": operation("listPlannedEvenings", "The evenings planned from today on, and their answers",
                             {"200": answer("Soonest first, from today in the club's time zone.", "PlannedEvenings"),
                              "422": error("422")}, parameters=[CLUB, PLANNED_LIMIT]),
            "post": operation("planEvening", "Plan an evening, or one a week",
                              {"201": answer("The evenings planned, soonest first.", "PlannedEvenings"),
                               "409": error("409")}, admin=True, request="NewPlannedEvening", parameters=[CLUB]),
        },
        f"{club}/planned-evenings/{{evening_id}}": {
            "get": operation("readPlannedEvening", "A planned evening and its answers",
                             {"200": answer("The evening.", "PlannedEvening")}, parameters=[CLUB, EVENING_ID]),
            "patch": operation("changePlannedEvening", "Change a planned evening",
                               {"200": answer("The evening.", "PlannedEvening"), "409": error("409")}, admin=True,
                               request="PlannedEveningChange", parameters=[CLUB, EVENING_ID]),
            "delete": operation("deletePlannedEvening", "Delete a planned evening and its answers",
                                {"204": {"description": "Deleted."}, "422": error("422")}, admin=True,
                                parameters=[CLUB, EVENING_ID],
                                description="An evening played (its rounds, or matches on its day) is refused (422)."),
        },
        f"{club}/planned-evenings/{{evening_id}}/answers": {"post": operation(
            "answerEvening", "Say I'm in, or not this time, for a player",
            {"200": made_once(answer("The answer, with the key that changes it (none when the admin key was sent).",
                                     "AnsweredAttendance")),
             "403": error("403"),
             "409": error("409"), "429": error("429")},
            request="EveningAnswer", parameters=[CLUB, EVENING_ID, MEMBER, ONCE_KEY],
            description="A member answers with their own key (`Club-Member-Key`), for themselves; the admin (the "
                        "admin key as `Authorization: Bearer`) for anyone. Those answers are proven: they count for "
                        "the draw and replace any answer before. With the club link alone an answer is kept but "
                        "not counted (`proven` false): the first one for a player returns `answer_key`, and only "
                        "that key changes it; another answer key, or none, is refused (403), as is any unproven "
                        "change to a proven answer, a wrong admin key or a key that is no member's. "
                        "An unproven answer sent again as it was, after its answer was lost, is answered again "
                        "(marked `Idempotent-Replayed: true`) and changes nothing. Send an `Idempotency-Key` to get "
                        "its `answer_key` again too: the answer sent again under the same key answers the same key; "
                        "under that key another answer, or one changed since, is refused with 422. Proven answers "
                        "are the same sent twice, with or without a key.")
            | {"security": [{}, {"adminKey": []}]}},
        f"{club}/planned-evenings/{{evening_id}}/present/{{player_id}}": {"put": operation(
            "markPresent", "Mark a player here at the door, or not here", {"200": answer("The answer.", "Attendance"),
                                                                         "409": error("409")},
            admin=True, request="Presence", parameters=[CLUB, EVENING_ID, PLAYER_ID],
            description="`present` true marks the player here, false marks them not here. Who is there: those "
                        "who said they are coming and those marked here, minus those marked not here.")},
        f"{club}/evenings.ics": {"get": operation(
            "clubEveningsCalendar", "The club's evenings as an iCalendar feed",
            {"200": {"description": "One event per evening of the last year and to come, in the club's time zone.",
                     "content": {ICS: {"schema": {"type": "string"}}}}}, parameters=[CLUB])},
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
        f"{club}/players/{{player_id}}/member-key": {"post": operation(
            "issueMemberKey", "Make a player's own member key and link",
            {"201": answer("The player, with their member key and link: give them to that member alone.",
                           "MemberKey")},
            admin=True, parameters=PLAYER_PATH,
            description="The member's client sends the key as `Club-Member-Key`; a phone that opens the link is "
                        "that member. Only its hash is kept: a new one replaces the old, which stops working. "
                        "Issuing a key keeps a guest on the roster as a member.")},
        f"{club}/players/{{player_id}}/keep": {"post": operation(
            "keepGuest", "Keep a guest on the roster as a member",
            {"200": answer("The player.", "ClubPlayer")}, admin=True, parameters=PLAYER_PATH,
            description="A guest is a name typed at a match started with the club link alone; it leaves the "
                        "roster with that match when the admin deletes it, unless kept.")},
        f"{club}/players/{{player_id}}/merge": {"post": operation(
            "mergePlayer", "Merge a player into another", {"200": answer("The player kept.", "ClubPlayer")},
            admin=True, request="Merge", parameters=[CLUB, PLAYER_ID],
            description="For one person entered twice: this player's results become `into`'s, and this player "
                        "leaves the roster. Two players who sat at the same match are refused (422).")},
        f"{club}/matches": {"post": operation(
            "startClubMatch", "Start a match of the club",
            {"201": made_once(answer("The new match, with its edit key.", "CreatedClubMatch")), "403": error("403"),
             "409": error("409"), "429": error("429")},
            request="NewMatch", parameters=[CLUB, MEMBER, ONCE_KEY],
            description="As creating a match; players are matched to the roster by name and new names join it; "
                        "options start from the house rules. Needs only the club link. Sent with the admin key "
                        "(`Authorization: Bearer`) or a member's key (`Club-Member-Key`), the match is the admin's "
                        "or a member's (a wrong key is refused, 403); without, new names join the roster as "
                        "guests, and the admin may delete the match. " + START_ONCE)
            | {"security": [{}, {"adminKey": []}]}},
        f"{club}/matches/{{match_id}}": {"delete": operation(
            "deleteStrangersMatch", "Delete a club match someone who is not a member started",
            {"200": answer("The match left the club; the guests it brought left the roster.", "DeletedClubMatch"),
             "422": error("422")},
            admin=True, parameters=CLUB_MATCH_PATH,
            description="For a match started with the club link alone (neither the admin key nor a member's key): "
                        "its hands are taken off, each kept in its edit history as deleted, it leaves the club's "
                        "figures, and each guest it brought who sat at no other club match leaves the roster. A "
                        "match the admin or a member started is refused (422): it is changed hand by hand.")},
        f"{club}/standings": {"get": operation(
            "clubStandings", "Standings and ratings per game", {"200": answer("The season's table.", "Standings"),
                                                                "422": error("422")},
            parameters=[CLUB, SEASON_ID, GAME], description="Only finished matches count. A closed season "
                                                            "answers with its tables as they stood when it closed.")},
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
        **round_paths(club),
        **card_paths(club),
        **evening_results_paths(club),
    }


ROUND_NUMBER: Schema = {"name": "number", "in": "path", "required": True, "schema": integer(1),
                "description": "The round being played (the evening's latest)."}
TABLE_NUMBER: Schema = {"name": "table_number", "in": "path", "required": True, "schema": integer(1),
                "description": "The table's number in the round."}
PLAYING = cast("list[Schema]", [CLUB, EVENING_ID, ROUND_NUMBER])  # the round being played


def round_paths(club: str) -> Schema:
    """The rounds of an evening: propose, confirm, list."""
    rounds = f"{club}/planned-evenings/{{evening_id}}/rounds"
    return {
        f"{rounds}/proposal": {"post": operation(
            "proposeRound", "Draw the next round of an evening",
            {"200": answer("The proposal: tables in seat order and who sits out. Nothing is stored.",
                           "ProposedRound")}, admin=True, request="RoundProposal", parameters=[CLUB, EVENING_ID],
            description="From the players present and the season's history: those who met least sit together, "
                        "those who sat out least sit out.")},
        rounds: {
            "post": operation(
                "confirmRound", "Confirm the next round: one club match per table",
                {"201": answer("The round, each table's match with its edit key.", "Round"), "409": error("409")},
                admin=True, request="RoundConfirmation", parameters=[CLUB, EVENING_ID],
                description="Give the seed and swaps of a proposal, or its tables. Seats keep their order, the "
                            "first declaring or dealing first. 409 when the round of that number is confirmed."),
            "get": operation("listRounds", "The confirmed rounds of an evening",
                             {"200": answer("In order, with each table's match.", "Rounds")},
                             parameters=[CLUB, EVENING_ID])},
        f"{rounds}/{{number}}/tables/proposal": {"post": operation(
            "proposeTables", "Draw new tables for the round being played",
            {"200": answer("The new tables (numbered after the round's) and who of the free players sits out. "
                           "Nothing is stored.", "ProposedRound"), "409": error("409")},
            admin=True, request="RoundProposal", parameters=PLAYING,
            description="From the players present and at no table of the round still playing (sitting it out, "
                        "come since it was drawn, or from a table that ended); the tables playing stay as they "
                        "are. 409 once a later round is drawn.")},
        f"{rounds}/{{number}}/tables": {"post": operation(
            "addTables", "Add new tables to the round being played: one club match each",
            {"201": answer("The round, each table's match with its edit key.", "Round"), "409": error("409")},
            admin=True, request="RoundConfirmation", parameters=PLAYING,
            description="Give the seed and swaps of a proposal of new tables, or the tables. Only players free "
                        "are seated; those still free sit the round out. 409 once a later round is drawn.")},
        f"{rounds}/{{number}}/tables/{{table_number}}/leave": {"post": operation(
            "leaveTable", "A player leaves a table of the round being played",
            {"200": answer("The round, the table that ended with how (ended) and any new table.", "Round"),
             "409": error("409")},
            admin=True, request="Leaving", parameters=[*PLAYING, TABLE_NUMBER],
            description="A match's seats are fixed: its match ends there and counts for nobody (then: ended); "
                        "someone free takes the seat and the table starts a new match (seat, with by); or, "
                        "where the game still has enough players, the others start a new match (others). "
                        "Whoever left is marked not here.")},
    }


PDF = "application/pdf"
CARDS_TAG = {"ETag": {"description": "These cards: the club's state, the round, the language, the app's build. Send "
                                     "it back in If-None-Match.", "schema": {"type": "string"}}}


def card_paths(club: str) -> Schema:
    """The table cards of an evening's round, as one PDF."""
    return {f"{club}/evenings/{{evening_id}}/cards.pdf": {"get": operation(
        "tableCards", "The table cards of a round, as PDF",
        {"200": {"description": "All on A4: per table an A5 card (round, table, seats in order, teams, who plays "
                                "first, the QR code of the table's edit link), two to a landscape sheet with a line to "
                                "cut along, then each of the two tables' blank sheets with the names; in the reader's "
                                "language.",
                 "headers": {"Content-Disposition": {"schema": {"type": "string"}}, **CARDS_TAG},
                 "content": {PDF: {"schema": {"type": "string", "format": "binary"}}}},
         "304": {"description": "The client has these cards already: nothing they print has changed.",
                 "headers": CARDS_TAG},
         "503": error("503")},
        admin=True, parameters=[CLUB, EVENING_ID, {
            "name": "round", "in": "query", "required": False, "schema": integer(1, 2**31 - 1),
            "description": "The round's number; absent: the latest. 404 for a round the evening does not have, "
                           "and for an evening without a round yet."}, {
            "name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
            "description": "The ETag of cards downloaded before: 304 while they are the same."}],
        description="The cards carry each table's edit link, so they need the admin key. Rendered once per state "
                    "of the club, round and language, and kept; a render waits its turn (503 when none comes "
                    "within seconds).")}}


# An evening's results, and its closing by the admin.
EVENING_REF = {"name": "evening_id", "in": "path", "required": True,
               "schema": {"type": "string", "pattern": "^([0-9]+|[0-9]{4}-[0-9]{2}-[0-9]{2})$"},
               "description": "An evening's id, or its day (year-month-day): a day of club matches is an evening "
                              "even when none was planned."}
NAMES = {"type": "array", "items": {"type": "string"}}
RESULT_TABLE = obj({
    "table": nullable(integer(1)) | {"description": "Its number in the round; null for a match of the day started "
                                                    "outside the rounds."},
    "game": GAME_SLUG, "players": NAMES | {"description": "In seat order, by their roster names now."},
    "match": nullable(obj({"id": {"type": "string"}, "url": {"type": "string", "description": "The match page."}},
                          ("id", "url"))),
    "hands": integer(0), "finished": {"type": "boolean", "description": "false: still at the table."},
    "totals": nullable({"type": "array", "items": {"type": "integer"}}) | {
        "description": "The final totals per seat (Kozyol: each seat its team's), null while still at the table."},
    "winners": NAMES | {"description": "Who won it, by name; empty while still at the table."},
    "agreed": nullable({"type": "boolean"}) | {"description": "Whether its players agreed to it (locked); null when "
                                                              "the club asks for no agreement or it is not finished."},
    "changed_after_agreement": CHANGED_AFTER_AGREEMENT},
    ("table", "game", "players", "match", "hands", "finished", "totals", "winners", "agreed",
     "changed_after_agreement"))
PLACED = obj({**NAMED, "matches": integer(1), "ranked": {"type": "boolean"},
              "place": nullable(integer(1)) | {"description": "In the season's table counting its matches up to the "
                                                              "evening's day; null while not ranked."},
              "before": nullable(integer(1)) | {"description": "The place before the evening; null when not ranked "
                                                               "then."},
              "provisional": PROVISIONAL,
              "before_provisional": nullable(integer(1)) | {"description": "The provisional place before the "
                                                                           "evening; null when ranked then, or "
                                                                           "not yet in the table."}},
             ("player", "name", "matches", "ranked", "place", "before"))
SCHEMAS |= {"EveningResults": obj({
    "evening": obj({"id": nullable(ID) | {"description": "null: a day of club matches with no evening planned."},
                    "day": DAY, "name": {"type": "string", "description": "Empty: an unnamed evening."},
                    "closed_at": nullable({"type": "string", "format": "date-time"}) | {
                        "description": "When the admin closed it (its matches then change only with the admin key); "
                                       "null while open."}},
                   ("id", "day", "name", "closed_at")),
    "season": nullable(SEASON) | {"description": "The season holding its day; null: all time."},
    "url": {"type": "string", "description": "The evening's results page."},
    "pdf_url": {"type": "string", "description": "The same on one A4 page."},
    "rounds": {"type": "array", "description": "In order; the day's matches outside the rounds last (number null).",
               "items": obj({"number": nullable(integer(1)), "sat_out": NAMES,
                             "tables": {"type": "array", "items": RESULT_TABLE}}, ("number", "sat_out", "tables"))},
    "winners": obj({slug: NAMES for slug in GAMES},
                   description="Per game finished that evening, who won the most of its matches (all on a tie)."),
    "places": obj({slug: {"type": "array", "items": PLACED} for slug in GAMES},
                  description="Per game finished that evening, its players in the season's table after it, by place. "
                              "A closed evening gives them as they stood when it closed, or when the club's admin "
                              "last changed one of its matches since."),
    "min_matches": integer(1, description="The finished matches a player needed to be placed."),
    "changed_after_close": {"type": "array", "description": "Closed: the evening's matches the club's admin "
                                                            "changed since it closed, and when last.",
                            "items": obj(cast(Schema, {
                                "round": nullable(integer(1)), "table": nullable(integer(1)), "game": GAME_SLUG,
                                "match": obj(cast(Schema, {"id": {"type": "string"}, "url": {"type": "string"}}),
                                             ("id", "url")),
                                "at": {"type": "string", "format": "date-time"}}),
                                ("round", "table", "game", "match", "at"))},
}, ("evening", "season", "url", "pdf_url", "rounds", "winners", "places"))}


def evening_results_paths(club: str) -> Schema:
    """An evening's results; closing and reopening it."""
    evening = f"{club}/evenings/{{evening_id}}"
    return {
        f"{evening}/results": {"get": operation(
            "eveningResults", "An evening's results: its tables, winners and the players' places",
            {"200": answer("Each round's tables with their results, the evening's winners per game and each player's "
                           "place in the season after it.", "EveningResults")}, parameters=[CLUB, EVENING_REF])},
        f"{evening}/close": {
            "post": operation("closeEvening", "Close an evening: its matches then change only with the admin key",
                              {"200": answer("The evening's results, closed.", "EveningResults"),
                               "409": error("409"), "422": error("422")}, admin=True, parameters=[CLUB, EVENING_REF],
                              description="Only an evening played (its rounds, or matches on its day); 422 otherwise "
                                          "and for one already closed. A write to one of its matches then needs "
                                          "`Club-Admin-Key` (403 without). Matches still being played are closed "
                                          "too, as they stand (the page asks first; a client reads the results' "
                                          "`finished` before it closes); their `version` grows, so that the phones "
                                          "following them hear it."),
            "delete": operation("reopenEvening", "Reopen a closed evening",
                                {"200": answer("The evening's results, open again.", "EveningResults"),
                                 "422": error("422")}, admin=True, parameters=[CLUB, EVENING_REF],
                                description="422 for an evening that is not closed.")},
    }
