"""The JSON shapes of the API, as JSON Schema for the OpenAPI document (web/openapi.py).

Each game's entries, hand states, options and next hand, the match state and the export, built
from the engines' own constants so that no choice or limit is retyped.
"""

from __future__ import annotations

from ...games import GAMES, barbu, hearts, kozyol
from ...games.base import NAME_MAX, SUITS
from ...i18n import LANGUAGES
from ...json_values import JsonObject
from ...match.backup import FORMAT, FORMAT_VERSION
from ...names import NAME_CODE_POINTS

Schema = JsonObject

# Writes made once (the Idempotency-Key header), for the matches' and the clubs' documents alike.
REPLAYED = {"Idempotent-Replayed": {"description": "`true` on the answer to a write sent again under its "
                                                   "Idempotency-Key: nothing was written this time.",
                                    "schema": {"const": "true"}}}
ONCE_KEY: Schema = {"$ref": "#/components/parameters/IdempotencyKey"}
START_ONCE = ("Send an `Idempotency-Key` to make the start safe to repeat: a start sent again under the same key "
              "answers the match it started (with its edit key, marked `Idempotent-Replayed: true`) and starts no "
              "other; the same key with a different request is refused with 422, and a start whose match's edit "
              "link was replaced since with 409. A key belongs to where it was sent (casual matches, or one club).")


def made_once(response: Schema) -> Schema:
    """A write's success answer: it may be the answer to an earlier, identical write (Idempotent-Replayed)."""
    return response | {"headers": {**response.get("headers", {}), **REPLAYED}}

"""A JSON Schema (or OpenAPI) object: a JSON document, written as one."""

# -- small schema builders ----------------------------------------------------------------


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    return {"oneOf": [schema, {"type": "null"}]}


def integer(low: int | None = None, high: int | None = None, description: str = "") -> Schema:
    schema: Schema = {"type": "integer"}
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high
    if description:
        schema["description"] = description
    return schema


def pair(item: Schema, description: str) -> Schema:
    """[team 0, team 1]: Kozyol's teams are seats 0 and 2 against seats 1 and 3."""
    return {"type": "array", "items": item, "minItems": kozyol.TEAMS, "maxItems": kozyol.TEAMS,
            "description": description}


def obj(properties: Schema, required: tuple[str, ...] | list[str] = (), description: str = "") -> Schema:
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    return schema


def per_player(high: int | None = None, description: str = "") -> Schema:
    """{player name: whole number} for every player of the match."""
    return {"type": "object", "additionalProperties": integer(0 if high is not None else None, high),
            "description": description or "One whole number per player, keyed by name."}


def names(description: str = "Player names.") -> Schema:
    return {"type": "array", "items": ref("PlayerName"), "description": description}


def one_of(by: str, mapping: dict[str, str]) -> Schema:
    """A oneOf told apart by the constant value of one property."""
    return {"oneOf": [ref(name) for name in mapping.values()],
            "discriminator": {"propertyName": by,
                              "mapping": {value: f"#/components/schemas/{name}" for value, name in mapping.items()}}}


# -- Barbu ----------------------------------------------------------------------------------

TRICKS = f"Tricks per player, adding up to {barbu.CARDS_PER_HAND}."
HEARTS_TAKEN = f"Hearts per player, adding up to {barbu.CARDS_PER_HAND}."
BARBU_CARDS: dict[str, tuple[Schema, tuple[str, ...]]] = {
    # contract: (its own fields, which of them are required)
    "no_tricks": ({"tricks": per_player(barbu.CARDS_PER_HAND, TRICKS)}, ("tricks",)),
    "no_queens": ({"queens": per_player(barbu.QUEENS, f"Queens per player, adding up to {barbu.QUEENS}.")}, ("queens",)),
    "no_hearts": ({"hearts": per_player(barbu.CARDS_PER_HAND, HEARTS_TAKEN),
                   "ace_of_hearts": ref("PlayerName")}, ("hearts", "ace_of_hearts")),
    "no_last_two": ({"second_last": ref("PlayerName"), "last": ref("PlayerName")}, ("second_last", "last")),
    "barbu": ({"king_of_hearts": ref("PlayerName")}, ("king_of_hearts",)),
    "trumps": ({"tricks": per_player(barbu.CARDS_PER_HAND, TRICKS),
                "trump_suit": {"enum": list(SUITS), "description": "Optional note."}}, ("tricks",)),
    "dominoes": ({"order": {**names("Finishing order, every player once."),
                            "minItems": barbu.SEATS, "maxItems": barbu.SEATS},
                  "start_rank": {"enum": list(barbu.RANKS), "description": "Optional note."}}, ("order",)),
}
assert set(BARBU_CARDS) == set(barbu.CONTRACTS), "every Barbu contract is described"


def barbu_entry_name(contract: str) -> str:
    return "BarbuEntry_" + "".join(part.title() for part in contract.split("_"))


def barbu_entry(contract: str) -> Schema:
    fields, required = BARBU_CARDS[contract]
    return obj({"contract": {"const": contract}, **fields,
                "doubles": nullable({"type": "array", "items": ref("BarbuDouble")})
                | {"description": "Doubles of this hand; absent or null: none. Always present in the stored entry."}},
               ("contract", *required), f"A Barbu hand of the contract {contract}.")


BARBU = {
    "BarbuDouble": obj({"by": ref("PlayerName"), "target": ref("PlayerName"),
                        "redoubled": {"type": "boolean", "default": False,
                                      "description": "The target redoubled the player who doubled him."}},
                       ("by", "target")),
    **{barbu_entry_name(contract): barbu_entry(contract) for contract in barbu.CONTRACTS},
    "BarbuEntry": one_of("contract", {contract: barbu_entry_name(contract) for contract in barbu.CONTRACTS}),
    "BarbuOptions": obj({
        "first_declarer": {**ref("PlayerName"), "description": "Declarer of the first block; drawn when absent."},
        "domino_scores": {"type": "array", "items": integer(*barbu.DOMINO_SCORE_RANGE), "minItems": barbu.SEATS,
                          "maxItems": barbu.SEATS, "default": list(barbu.DOMINO_SCORES),
                          "description": f"First place to last, going down, adding up to {barbu.DOMINO_TOTAL}; "
                                         f"each from {barbu.DOMINO_SCORE_RANGE[0]} to "
                                         f"{barbu.DOMINO_SCORE_RANGE[1]}."},
        "enforce_declarer_doubles": {"type": "boolean", "default": True,
                                     "description": "Refuse a hand that leaves a compulsory double out "
                                                    "(otherwise the hand only warns)."},
    }),
    "BarbuHand": obj({
        "number": integer(1, barbu.HANDS), "declarer": ref("PlayerName"), "dealer": ref("PlayerName"),
        "cutter": ref("PlayerName"), "contract": {"enum": list(barbu.CONTRACTS)}, "entry": ref("BarbuEntry"),
        "raw": per_player(description="The contract's score, before doubles."),
        "scores": per_player(description="The score after doubles."),
        "totals": per_player(description="Running totals after this hand."),
        "warnings": {"type": "array", "items": {"type": "string"},
                     "description": "Compulsory doubles left out (when they are not enforced)."},
        "settlement": {"type": "array", "items": obj({
            "by": ref("PlayerName"), "target": ref("PlayerName"),
            "weight": {"enum": [barbu.DOUBLED, barbu.REDOUBLED], "description": "2 when redoubled."},
            "moved": integer(description="weight x (raw of by - raw of target): added to by, taken from target."),
        }, ("by", "target", "weight", "moved")), "description": "The working: each double settled; the score is "
                                                               "the raw score plus what the player's doubles moved."},
    }, ("number", "declarer", "dealer", "cutter", "contract", "entry", "raw", "scores", "totals", "warnings",
        "settlement")),
    "BarbuNext": obj({
        "number": integer(1, barbu.HANDS), "declarer": ref("PlayerName"), "dealer": ref("PlayerName"),
        "cutter": ref("PlayerName"),
        "contracts_left": {"type": "array", "items": {"enum": list(barbu.CONTRACTS)}},
        "doubles_owed": per_player(barbu.DOUBLES_OWED, "Doubles each other player still owes the declarer."),
        "must_double": names("Players whose double of the declarer is compulsory now."),
        "hands_left_in_block": integer(1, barbu.HANDS_PER_DECLARER),
    }, ("number", "declarer", "dealer", "cutter", "contracts_left", "doubles_owed", "must_double",
        "hands_left_in_block")),
}

# -- Kozyol ---------------------------------------------------------------------------------

CARD_COUNTS = obj({rank: integer(0, kozyol.CARDS_PER_RANK) for rank in kozyol.CARD_VALUES},
                  description="Cards of each counting rank one team won; absent ranks count 0.")
CARD_COUNTS["additionalProperties"] = False

KOZYOL = {
    "KozyolEntry": obj({
        "points": pair(integer(0, kozyol.TOTAL_POINTS),
                       f"Card points of team 0 and team 1, adding up to {kozyol.TOTAL_POINTS}; "
                       "optional when cards are given."),
        "cards": pair(nullable(CARD_COUNTS), "Cards won per rank by team 0 and team 1; one side may be null."),
        "tricks": pair(nullable(integer(0, kozyol.TRICKS_PER_DEAL)),
                       "Tricks of each team (null: unknown); required for a team with 0 points. Given for both "
                       f"teams, they add up to {kozyol.FEWEST_TRICKS} to {kozyol.TRICKS_PER_DEAL}."),
        "trump_suit": {"enum": list(SUITS), "description": "Optional note."},
        "last_trick": {**ref("PlayerName"), "description": "Who took the last trick; that player leads next."},
    }, description="A Kozyol deal. The stored entry always has points."),
    "KozyolOptions": obj({
        "target": integer(*kozyol.TARGET_RANGE, description="Defeat points that make a team the goat.")
        | {"default": kozyol.DEFAULT_TARGET},
        **{flag: {"type": "boolean", "default": False} for flag in kozyol.FLAGS},
        "first_dealer": {**ref("PlayerName"), "description": "Dealer of the first deal; seat 0 when absent."},
    }),
    "KozyolHand": obj({
        "number": integer(1, kozyol.MAX_DEALS), "dealer": ref("PlayerName"), "leader": ref("PlayerName"),
        "entry": ref("KozyolEntry"),
        "loser": nullable({"enum": list(range(kozyol.TEAMS))}) | {"description": "null: eggs."},
        "eggs": {"type": "boolean"},
        "defeat_points": pair(integer(0), "Defeat points of this deal, [team 0, team 1]."),
        "totals": pair(integer(0), "Running defeat points, [team 0, team 1]."),
        "multiplier": {"enum": [1, kozyol.EGGS_MULTIPLIER]},
        "settlement": nullable(obj({
            "points": integer(0, kozyol.TOTAL_POINTS), "tricks": nullable(integer(0, kozyol.TRICKS_PER_DEAL)),
            "kind": {"enum": list(kozyol.DEFEAT)}, "base": {"enum": sorted(set(kozyol.DEFEAT.values()))},
            "multiplier": {"enum": [1, kozyol.EGGS_MULTIPLIER]},
        }, ("points", "tricks", "kind", "base", "multiplier"))) | {
            "description": "The working: the losing team's card points and tricks, its kind of defeat and what it "
                           "counts, and the doubling after eggs; null for eggs."},
    }, ("number", "dealer", "leader", "entry", "loser", "eggs", "defeat_points", "totals", "multiplier",
        "settlement")),
    "KozyolNext": obj({"number": integer(1, kozyol.MAX_DEALS), "dealer": ref("PlayerName"),
                       "leader": ref("PlayerName")}, ("number", "dealer", "leader")),
}

# -- Cancellation Hearts --------------------------------------------------------------------

HEARTS = {
    "HeartsEntry": obj({
        "hearts": per_player(hearts.HEARTS, f"Hearts per player, every player, adding up to at most {hearts.HEARTS} "
                                            f"and at least {hearts.HEARTS} minus the number of players (a cancelled "
                                            "last trick loses at most one card per player)."),
        "black_marias": per_player(hearts.BLACK_MARIAS, f"Black Marias per player, every player, adding up to "
                                                        f"at most {hearts.BLACK_MARIAS}."),
        "moon": {"enum": list(hearts.MOON_CHOICES),
                 "description": f"Required when one player took all {hearts.HEARTS} hearts and "
                                f"{hearts.BLACK_MARIAS} Black Marias, and refused (422) otherwise."},
    }, ("hearts", "black_marias"), "A Cancellation Hearts hand."),
    "HeartsOptions": obj({
        "target": integer(hearts.TARGET_MIN, hearts.TARGET_MAX) | {"default": hearts.TARGET},
        "moon_points": {"enum": list(hearts.MOON_POINTS), "default": hearts.MOON_POINTS[0]},
        "first_dealer": {**ref("PlayerName"), "description": "Dealer of the first hand; seat 0 when absent."},
    }),
    "HeartsHand": obj({
        "number": integer(1, hearts.MAX_HANDS), "dealer": ref("PlayerName"), "leader": ref("PlayerName"),
        "pass": {"enum": list(hearts.PASSES)}, "entry": ref("HeartsEntry"),
        "points": per_player(description=f"Hearts + {hearts.BLACK_MARIA} x Black Marias."),
        "scores": per_player(description="Points with the moon applied."),
        "totals": per_player(description="Running totals after this hand."),
        "moon_shooter": nullable(ref("PlayerName")),
        "settlement": obj({
            "per_heart": {"const": hearts.HEART}, "per_black_maria": {"const": hearts.BLACK_MARIA},
            "moon": nullable(obj({"shooter": ref("PlayerName"), "choice": {"enum": list(hearts.MOON_CHOICES)},
                                  "points": {"enum": list(hearts.MOON_POINTS)}}, ("shooter", "choice", "points"))),
        }, ("per_heart", "per_black_maria", "moon"), "The working: points per heart and per Black Maria, and the "
                                                     "moon as its shooter chose it."),
    }, ("number", "dealer", "leader", "pass", "entry", "points", "scores", "totals", "moon_shooter", "settlement")),
    "HeartsNext": obj({
        "number": integer(1, hearts.MAX_HANDS), "dealer": ref("PlayerName"), "leader": ref("PlayerName"),
        "pass": {"enum": list(hearts.PASSES)},
        "cards_each": integer(1, hearts.CARDS // hearts.MIN_PLAYERS),
        "left_over": integer(0, hearts.MAX_PLAYERS - 1),
    }, ("number", "dealer", "leader", "pass", "cards_each", "left_over")),
}

# -- the match, per game --------------------------------------------------------------------

TITLES = {"barbu": "Barbu", "kozyol": "Kozyol", "hearts": "Hearts"}
assert set(TITLES) == set(GAMES), "every game is described"


def players(slug: str) -> Schema:
    game = GAMES[slug]
    count = (f"exactly {game.min_players}" if game.min_players == game.max_players
             else f"{game.min_players} to {game.max_players}")
    return {**names(f"{count} unique names, in clockwise seating order."),
            "minItems": game.min_players, "maxItems": game.max_players, "uniqueItems": True}


MAX_HANDS = ("The most hands a match of this game holds, more than any real table plays (Barbu: exactly its "
             "hands). Once a match holds that many, `next` is null and recording answers 409; a backup with more "
             "is refused (422).")

LANGUAGE = {"enum": [*LANGUAGES, None],
            "description": "The language the match's score sheet is printed in; null: the reader's."}

SUMMARIES: dict[str, tuple[Schema, tuple[str, ...]]] = {
    # game: (totals and the game's extra summary fields, which of them are always there)
    "barbu": ({"totals": per_player(description="Running totals.")}, ()),
    "kozyol": ({
        "totals": pair(integer(0), "Defeat points, [team 0, team 1]."),
        "teams": pair({**names(), "minItems": 2, "maxItems": 2}, "Seats 0 and 2, then seats 1 and 3."),
        "goat": {"enum": list(range(kozyol.TEAMS)), "description": "Once finished: the team that lost the series."},
        "goat_with_eggs": {"type": "boolean", "description": "Once finished: whether any deal was eggs."},
    }, ("teams",)),
    "hearts": ({
        "totals": per_player(description="Running totals; the lowest wins."),
        "closest": names("Players with the highest total: the closest to the target."),
        "target": integer(hearts.TARGET_MIN, hearts.TARGET_MAX),
    }, ("closest", "target")),
}


def match_state(slug: str) -> Schema:
    title = TITLES[slug]
    summary, always = SUMMARIES[slug]
    return obj({
        "id": {"type": "string", "description": "Random and unguessable."},
        "url": {"type": "string", "description": "The match page in the browser."},
        "game": {"const": slug},
        "players": players(slug),
        "options": ref(f"{title}Options") | {"description": "Every option, defaults filled in."},
        "language": LANGUAGE,
        "hands": {"type": "array", "items": ref(f"{title}Hand"), "description": "Oldest first."},
        **summary,
        "finished": {"type": "boolean"},
        "winners": names("Once finished: the winners (Kozyol: the winning team's players); before: empty."),
        "next": nullable(ref(f"{title}Next")) | {"description": "What the table does next; null once finished, "
                                                                "or once the match holds `max_hands` hands."},
        "max_hands": {"const": GAMES[slug].max_hands, "description": MAX_HANDS},
        "version": integer(1, description="Grows with every change to the match."),
        "agreement": ref("Agreements") | {"description": "A club match only: how many of its players' Agreed "
                                                         "lock it, who agreed and whether it is locked."},
    }, ("id", "url", "game", "players", "options", "language", "hands", "totals", "finished", "winners",
        "next", "max_hands", "version", *always), f"A {GAMES[slug].title} match.")


def export_document(slug: str) -> Schema:
    title = TITLES[slug]
    return obj({
        "format": {"const": FORMAT}, "format_version": {"const": FORMAT_VERSION},
        "exported_at": {"type": "string", "format": "date-time", "description": "Ignored on import."},
        "game": {"const": slug}, "players": players(slug),
        "options": ref(f"{title}Options"), "language": LANGUAGE,
        "hands": {"type": "array", "items": ref(f"{title}Entry"), "maxItems": GAMES[slug].max_hands,
                  "description": f"The entries, oldest first; at most {GAMES[slug].max_hands}, the game's limit."},
    }, ("format", "format_version", "game", "players"), f"A {GAMES[slug].title} match as exported.")


def new_match(slug: str) -> Schema:
    title = TITLES[slug]
    return obj({
        "game": {"const": slug}, "players": players(slug),
        "options": ref(f"{title}Options") | {"description": "Optional; absent options take their defaults."},
        "language": {"enum": [*LANGUAGES, None]} | {"description": "Fixes the language of the score sheet."},
    }, ("game", "players"))


EDIT_KEY = {
    "edit_key": {"type": "string", "minLength": 22,
                 "description": "The secret every write needs as `Authorization: Bearer <edit_key>`."},
    "edit_url": {"type": "string", "format": "uri", "description": "Opens the match for entering hands on a phone."},
}

ENTRY = {"anyOf": [ref("BarbuEntry"), ref("KozyolEntry"), ref("HeartsEntry")],
         "description": "The entry of a hand, in the shape of the match's game."}

SCHEMAS: Schema = {
    # maxLength counts code points, as JSON Schema does: the bound against abuse. The rule a player meets counts
    # letters (grapheme clusters), which a schema cannot say but in words.
    "PlayerName": {"type": "string", "minLength": 1, "maxLength": NAME_CODE_POINTS, "description": (
        f"At most {NAME_MAX} letters or signs as a reader counts them (extended grapheme clusters: a letter with "
        f"its accents, a Khmer syllable with its subscripts, an emoji sequence is one), and at most "
        f"{NAME_CODE_POINTS} code points. Kept trimmed, in NFC, without zero-width spaces; it cannot start with a "
        "combining mark, nor hold control characters or bidirectional overrides. Unique within a match and a "
        "club's roster by its look-alike key (NFKC, case folding, invisible characters dropped, Khmer spellings "
        "drawn alike made one); a hand or an option may name a player by any spelling with the same key.")},
    "Error": obj({"error": obj({
        "message": {"type": "string", "minLength": 1, "description": "One sentence a player understands."},
        "fields": {"type": "object", "additionalProperties": {"type": "string"},
                   "description": "Field name -> reason; may be empty."},
    }, ("message", "fields"))}, ("error",)),
    **BARBU, **KOZYOL, **HEARTS,
    **{f"{TITLES[slug]}NewMatch": new_match(slug) for slug in GAMES},
    "NewMatch": one_of("game", {slug: f"{TITLES[slug]}NewMatch" for slug in GAMES}),
    **{f"{TITLES[slug]}Match": match_state(slug) for slug in GAMES},
    "Match": one_of("game", {slug: f"{TITLES[slug]}Match" for slug in GAMES}),
    "CreatedMatch": {"allOf": [ref("Match"), obj(EDIT_KEY, tuple(EDIT_KEY))]},
    "EditKey": obj(EDIT_KEY, tuple(EDIT_KEY)),
    "Entry": ENTRY,
    "NewHand": {"allOf": [ENTRY, obj({"number": integer(1, max(game.max_hands for game in GAMES.values()), (
        "Makes the write conditional: 409 unless this is the next hand's number (never more than the "
        "game's `max_hands`)."))})]},
    **{f"{TITLES[slug]}Export": export_document(slug) for slug in GAMES},
    "Export": one_of("game", {slug: f"{TITLES[slug]}Export" for slug in GAMES}),
    "ExportedMatch": {"allOf": [ref("Export"), {"required": ["exported_at", "options", "language", "hands"]}]},
    "History": obj({"changes": {"type": "array", "description": "Newest first.", "items": obj({
        "number": integer(1),
        "action": {"enum": ["record", "correct", "undo"]},
        "before": nullable(ENTRY) | {"description": "The entry before; null for a hand recorded."},
        "after": nullable(ENTRY) | {"description": "The entry after; null for a hand undone."},
        "source": {"type": "string", "maxLength": 40, "description": "Where the change came from."},
        "at": {"type": "string", "format": "date-time"},
        "reason": {"type": "string", "maxLength": 200, "description": (
            "Why the club's admin changed a club match its players agreed (locked), as given with the change; "
            "empty for every other change.")},
    }, ("number", "action", "before", "after", "source", "at", "reason"))}}, ("changes",)),
}
