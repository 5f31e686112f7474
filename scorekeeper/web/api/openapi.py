"""The API's own reference: an OpenAPI 3.1 document, served at /api/v1/openapi.json.

Every endpoint, body, status and error shape of /api/v1 is in it. It is built here, in Python,
so that every choice and limit it states (contracts, suits, counts, targets, player counts,
name length, languages) is the engines' own constant and cannot drift from the rules.
It is built once per process and never reads the database.
"""

from __future__ import annotations

from functools import cache
from typing import cast

from flask import Blueprint, jsonify

from ...json_values import Json
from ...match.backup import FORMAT, FORMAT_VERSION
from ...match.receipts import KEY_MAX
from ..games.registry import GAME_PAGES
from . import club_openapi
from .club_openapi import LOCK_PARAMETERS, LOCKED
from .schemas import ONCE_KEY, SCHEMAS, START_ONCE, Schema, integer, made_once, ref

bp = Blueprint("openapi", __name__, url_prefix="/api/v1")

JSON = "application/json"


# -- responses, parameters, operations ------------------------------------------------------

ERRORS = {
    "400": "The body is not JSON, or not a JSON object.",
    "401": "A write without the edit key.",
    "403": "A write with a key that is not this match's.",
    "404": "No such match or hand.",
    "409": "The hand number sent is not the next one, the match is finished or holds as many hands as its game "
           "allows (`max_hands`), only the last hand can be undone, another write got there first, or the match "
           "as stored breaks a rule (written around the app; the message names the hand and the reason).",
    "413": "The body is larger than the server accepts (setting MAX_CONTENT_LENGTH, 256 KiB unless changed).",
    "415": "The body is not sent as `Content-Type: application/json` (parameters such as `; charset=utf-8` are "
           "allowed). Text, forms, multipart, no Content-Type and other JSON-like types (`text/json`, "
           "`application/json-seq`, `application/*+json`) are refused and nothing is written: a page of another "
           "site can send those without the browser asking first, never application/json.",
    "422": "The entry breaks a rule (sums, legal doubles, unknown player, out-of-range numbers: every number "
           "has the range its schema states); `fields` says which field and why. An import with more hands than "
           "the game allows is refused on `hands`, a hand of it on `hands.<n>`. Also: the Idempotency-Key is "
           "malformed or was used for a different request.",
    "429": "Too many requests from this address in a short time: matches made, backups restored or PDFs "
           "rendered, or wrong edit keys (counted per address and per match; a right key is never refused). "
           "`Retry-After` says how many seconds to wait. The limits are the server's settings (README).",
    "503": "Many sheets are being rendered on the server right now and this one could not start within a few "
           "seconds; `Retry-After` says how many seconds to wait. Pages and polls are answered meanwhile.",
}
# What gunicorn refuses before the app runs (gunicorn.conf.py); tests/test_request_limits.py holds them equal.
SERVER_LIMITS = {"limit_request_line": 8190, "limit_request_fields": 100, "limit_request_field_size": 8190}
SERVED_BY_GUNICORN = (
    "Served by `manage.py serve`, gunicorn answers a few requests before the app sees them, with its own plain "
    "HTML page instead of an `Error`, under /api/ too: a request line (method, address with its query string, "
    f"HTTP version) longer than {SERVER_LIMITS['limit_request_line']} bytes is 414; more than "
    f"{SERVER_LIMITS['limit_request_fields']} header fields is 431, and a header field longer than "
    f"{SERVER_LIMITS['limit_request_field_size']} bytes (name and value) is 431 too; a request that is not HTTP "
    "it can read is 400.")
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before trying again.",
                               "schema": {"type": "integer", "minimum": 1}}}
SHEET_TAG = {"ETag": {"description": "This sheet: the match's version, the language, the app's build. Send it "
                                    "back in If-None-Match.", "schema": {"type": "string"}}}
ETAG = {"ETag": {"description": "The match's version; send it back in If-None-Match.",
                 "schema": {"type": "string"}}}


# -- writes made once: the Idempotency-Key header ------------------------------------------

ONCE = ("Send an `Idempotency-Key` to make the write safe to repeat: a phone that lost the answer sends the same "
        "request again under the same key, and gets the answer the write got the first time (status and body, "
        "marked `Idempotent-Replayed: true`) without a second write, from any server of the club and after restarts. "
        "The same key with a different request (body, hand or method) is refused with 422. Only a write that was "
        "made is remembered: a refused one (409, 422) can be sent again under its key and is judged anew. Keys "
        "belong to one match and are kept as long as it.")
def error(status: str) -> Schema:
    return {"$ref": f"#/components/responses/{status}"}


def state(description: str, schema: str = "Match") -> Schema:
    return {"description": description, "headers": ETAG, "content": {JSON: {"schema": ref(schema)}}}


def body(schema: str, description: str = "", examples: dict[str, Json] | None = None) -> Schema:
    media: Schema = {"schema": ref(schema)}
    if examples:
        media["examples"] = {name: {"value": value} for name, value in examples.items()}
    out: Schema = {"required": True, "content": {JSON: media}}
    if description:
        out["description"] = description
    return out


def operation(operation_id: str, summary: str, responses: dict[str, Schema], *, write: bool = False,
              request: Schema | None = None, parameters: list[Schema] | None = None,
              description: str = "") -> Schema:
    codes = {**responses}
    if request is not None:
        codes.update({"400": error("400"), "413": error("413"), "415": error("415")})
    if write:  # a wrong key, sent too often, is answered 429
        codes.update({"401": error("401"), "403": error("403"), "404": error("404"), "429": error("429")})
    out: Schema = {"operationId": operation_id, "summary": summary, "tags": ["matches"],
                   "responses": dict(sorted(codes.items()))}
    if description:
        out["description"] = description
    if parameters:
        out["parameters"] = parameters
    if request is not None:
        out["requestBody"] = request
    if write:
        out["security"] = [{"editKey": []}]
    return out


FOUR = ["Ann", "Bob", "Cid", "Dee"]
SIX = [*FOUR, "Eve", "Fay"]
# Each game's examples are its own (web/games/<game>.py).
NEW_MATCHES = {slug: pages.examples.new_match for slug, pages in GAME_PAGES.items()}
ENTRIES = {slug: pages.examples.entry for slug, pages in GAME_PAGES.items()}
EXPORT = {"format": FORMAT, "format_version": FORMAT_VERSION, "game": "kozyol", "players": FOUR,
          "options": {"target": 12}, "language": None, "hands": [ENTRIES["kozyol"]]}

MATCH_ID = {"$ref": "#/components/parameters/MatchId"}
HAND_NUMBER = {"$ref": "#/components/parameters/HandNumber"}
CREATED_LINKS = {
    "ReadMatch": {"operationId": "readMatch", "parameters": {"public_id": "$response.body#/id"},
                  "description": "The match just made."},
}


def created() -> Schema:
    """A new match's answer: its state, edit key and edit link, and the links to what a client does next."""
    return cast(Schema, state("The new match, with its edit key and edit link.", "CreatedMatch")
                | {"links": CREATED_LINKS})


def paths() -> Schema:
    prefix = "/api/v1"
    match = f"{prefix}/matches/{{public_id}}"
    return {
        f"{prefix}/matches": {"post": operation(
            "createMatch", "Create a match", {
                "201": made_once(created()),
                "409": error("409"), "422": error("422"), "429": error("429")},
            request=body("NewMatch", examples=NEW_MATCHES), parameters=[ONCE_KEY], description=START_ONCE)},
        match: {"get": operation(
            "readMatch", "Read a match", {
                "200": state("The match state.") | {"headers": {**ETAG, "Cache-Control": {
                    "description": "`no-cache`: poll again with If-None-Match.", "schema": {"type": "string"}}}},
                "304": {"description": "Nothing changed since the ETag sent.", "headers": ETAG},
                "404": error("404"), "409": error("409")},
            parameters=[MATCH_ID, {"name": "If-None-Match", "in": "header", "required": False,
                                   "schema": {"type": "string"},
                                   "description": "The ETag of the last answer: 304 while nothing changed."}])},
        f"{match}/hands": {"post": operation(
            "recordHand", "Record the next hand",
            {"201": made_once(state("The match state with the hand.")), "409": error("409"), "422": error("422")},
            write=True, parameters=[MATCH_ID, ONCE_KEY, *LOCK_PARAMETERS], description=ONCE + " " + LOCKED,
            request=body("NewHand", examples={**ENTRIES, "conditional": {**ENTRIES["kozyol"], "number": 1}}))},
        f"{match}/hands/{{number}}": {
            "put": operation(
                "correctHand", "Correct a hand",
                {"200": made_once(state("The match state, everything after the hand recomputed.")),
                 "409": error("409"), "422": error("422")},
                write=True, request=body("Entry", "The hand's new entry.", ENTRIES),
                parameters=[MATCH_ID, HAND_NUMBER, ONCE_KEY, *LOCK_PARAMETERS],
                description="422 also when the change makes a later hand illegal. " + ONCE + " " + LOCKED),
            "delete": operation(
                "undoHand", "Undo the last hand",
                {"200": made_once(state("The match state without it.")), "409": error("409"), "422": error("422")},
                write=True, parameters=[MATCH_ID, HAND_NUMBER, ONCE_KEY, *LOCK_PARAMETERS],
                description="Only the last hand can be undone. " + ONCE + " " + LOCKED),
        },
        f"{match}/history": {"get": operation(
            "matchHistory", "The edit history of a match",
            {"200": {"description": "Every hand recorded, corrected or undone.",
                     "content": {JSON: {"schema": ref("History")}}}, "404": error("404")},
            parameters=[MATCH_ID])},
        f"{match}/export": {"get": operation(
            "exportMatch", "Export a match as a document to keep",
            {"200": {"description": "Everything needed to rebuild the match.",
                     "content": {JSON: {"schema": ref("ExportedMatch")}}}, "404": error("404")},
            parameters=[MATCH_ID])},
        f"{prefix}/matches/import": {"post": operation(
            "importMatch", "Rebuild a match from an export, as a new match",
            {"201": state("The new match, with a new edit key.", "CreatedMatch"), "422": error("422"),
             "429": error("429")},
            request=body("Export", examples={"kozyol": EXPORT}),
            description="Every hand is checked again, and a backup with more hands than the game's `max_hands` "
                        "is refused before any is played; the new match gets a new id.")},
        f"{match}/key": {"post": operation(
            "rotateKey", "Give a match a new edit key",
            {"200": {"description": "The new key; every older key and edit link stops working.",
                     "content": {JSON: {"schema": ref("EditKey")}}}, "409": error("409")},
            write=True, parameters=[MATCH_ID])},
        f"{match}/sheet.pdf": {"get": operation(
            "matchSheet", "The filled score sheet",
            {"200": {"description": "The score sheet, printed in the match's language (else the reader's).",
                     "headers": {"Content-Disposition": {"schema": {"type": "string"}}, **SHEET_TAG},
                     "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}},
             "304": {"description": "The phone has this sheet already: the match and the language are unchanged.",
                     "headers": SHEET_TAG},
             "404": error("404"), "409": error("409"), "429": error("429"), "503": error("503")},
            parameters=[MATCH_ID, {"name": "If-None-Match", "in": "header", "required": False,
                                   "schema": {"type": "string"},
                                   "description": "The ETag of a sheet downloaded before: 304 while it is the same."}],
            description="A sheet is rendered once per version of the match and language, and kept; a render "
                        "waits its turn, a few at a time on the server (503 when none comes within seconds).")},
        f"{prefix}/openapi.json": {"get": operation(
            "openapi", "This document", {"200": {"description": "The OpenAPI 3.1 document of the API.",
                                                 "content": {JSON: {"schema": {"type": "object"}}}}})},
    }


@cache
def document() -> Schema:
    """The whole OpenAPI document, built once: it depends on code alone, never on the database."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper API", "version": "1",
            "description": "Keeps score for Barbu, Kozyol and Cancellation Hearts. Players are referred to by "
                           "name. Reading needs only the match id; every write needs the match's edit key as a "
                           "bearer token. Every body is JSON sent as `Content-Type: application/json` (415 "
                           "otherwise). Every error is JSON in the shape of `Error`; a method an endpoint does "
                           "not have answers 405 in that shape too. Writes to hands take an `Idempotency-Key` "
                           "header that makes them safe to send again after a lost answer. " + SERVED_BY_GUNICORN,
        },
        "tags": [{"name": "matches"}, {"name": "clubs"}],
        "paths": {**paths(), **club_openapi.paths()},
        "components": {
            "schemas": {**SCHEMAS, **club_openapi.SCHEMAS},
            "responses": {status: {"description": text, "content": {JSON: {"schema": ref("Error")}}}
                          | ({"headers": RETRY_AFTER} if status in ("429", "503") else {})
                          for status, text in ERRORS.items()} | club_openapi.RESPONSES,
            "parameters": {
                **club_openapi.PARAMETERS,
                "MatchId": {"name": "public_id", "in": "path", "required": True, "schema": {"type": "string"},
                            "description": "The match id given at creation."},
                "HandNumber": {"name": "number", "in": "path", "required": True, "schema": integer(1),
                               "description": "The hand's number, from 1."},
                "IdempotencyKey": {
                    "name": "Idempotency-Key", "in": "header", "required": False,
                    "schema": {"type": "string", "minLength": 1, "maxLength": KEY_MAX, "pattern": "^[!-~]+$"},
                    "example": "0b5e9c1f-2d6a-4c71-9a43-5e0f1b2c3d4e",
                    "description": "A name for this write, made by the client (a random UUID is ideal); sent again "
                                   "with the same request, the write is made once. Visible ASCII, no spaces."},
            },
            "securitySchemes": {"editKey": {"type": "http", "scheme": "bearer",
                                            "description": "The match's edit key, given at creation."},
                                **club_openapi.SECURITY},
        },
    }


@bp.get("/openapi.json")
def openapi():
    return jsonify(document())
