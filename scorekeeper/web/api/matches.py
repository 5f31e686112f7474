"""The public JSON API, version 1 (described by the OpenAPI document at /api/v1/openapi.json)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any, NotRequired

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for
from flask.blueprints import BlueprintSetupState
from werkzeug.exceptions import NotFound
from werkzeug.routing import BaseConverter

from ...club import agreements, results as club_results, service as clubs
from ...club.amendments import amendments
from ...games.base import N_, HandState, Replay, Summary
from ...i18n import translate
from ...json_values import JsonObject
from ...match import backup, matches, receipts
from ...models import ClubPlayer, Match
from ...refusals import Refusal, refuse
from .. import compression, rate_limits
from ..club import amendments as amendment_pages, members
from ..errors import handle_http, json_error, match_or_404, reasons

bp = Blueprint("api", __name__, url_prefix="/api/v1")

SIBLING_WORDS = ("import",)  # /matches/import beside /matches/<match_id:public_id>


class MatchId(BaseConverter):
    """A match id in an address: never a word of the routes beside it, so Allow and 405 tell the truth."""

    regex = "(?!(?:{})$)[^/]+".format("|".join(map(re.escape, SIBLING_WORDS)))


@bp.record_once
def add_converter(state: BlueprintSetupState) -> None:
    state.app.url_map.converters["match_id"] = MatchId  # before the routes below are added


class MatchState(Summary):
    """The match state as the API gives it (the Match schema): the stored match and its engine's summary."""

    id: str
    url: str
    game: str
    players: list[str]
    options: JsonObject
    language: str | None
    hands: Sequence[HandState]
    version: int
    agreement: NotRequired[JsonObject]


def state(match: Match, played: Replay) -> MatchState:
    """The match state as the API gives it."""
    return {
        "id": match.public_id,
        "url": url_for("pages.match", public_id=match.public_id),
        "game": match.game,
        "players": match.players,
        "options": match.options,
        "language": match.language,  # extension: the language its sheet is printed in; null: the reader's
        "hands": played.hands,
        **played.summary(),
        "version": match.version,
        # extension: a club match says whether its players agreed to it and whether that locked it
        **({"agreement": agreement_state(match)} if match.club_id is not None else {}),
    }


def etag(match: Match) -> str:
    return version_tag(match.public_id, match.version)


def version_tag(public_id: str, version: int) -> str:
    return f"{public_id}.{version}"


def answer(match: Match, played: Replay, status: int = 200, **extra: Any) -> Response:
    """The match state as JSON, tagged with its version so phones can poll cheaply."""
    response = jsonify({**state(match, played), **extra})
    response.status_code = status
    response.set_etag(etag(match))
    response.headers["Cache-Control"] = "no-cache"
    return response


def body() -> JsonObject:
    """The request's JSON object: 415 unless sent as application/json, 400 unless it is a JSON object.

    Only application/json: a page on another site can post text/plain, a form or multipart without
    the browser asking first, never JSON, so no web page a player opens can write through the API.
    """
    if request.mimetype != "application/json":
        abort(415)
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # nested deeper than the decoder follows; silent=True only covers ValueError
        data = None
    if not isinstance(data, dict):
        abort(400)
    return data


# Fields a body may leave out (each then has its default) but not send as null: their schemas have no null.
NOT_NULL = {"options": N_("Options must be an object."), "number": N_("The hand number must be a whole number."),
            "house_rules": N_("Give the house rules as an object, one entry per game.")}


def fields_of(data: JsonObject, *names: str) -> JsonObject:
    """The body, once none of these fields of it is null (422 on the field otherwise)."""
    for name in names:
        if name in data and data[name] is None:
            raise refuse(name, NOT_NULL[name])
    return data


def authorize(public_id: str) -> None:
    """404 for an unknown match, 401 without a key, 403 with a wrong one."""
    match = matches.peek(public_id)  # the key hash alone: the write itself loads the match
    if match is None:
        abort(404)
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        abort(401)
    if not matches.key_matches(match, key.strip()):
        abort(403)


ADMIN_KEY_HEADER = "Club-Admin-Key"
PHONE_KEY = (16, 200)  # the length of a client's own key, as agreements take it


def authority() -> matches.Authority:
    """What a write carries beyond the edit key: the club's admin key (header Club-Admin-Key) and ?reason=."""
    return matches.Authority(request.headers.get(ADMIN_KEY_HEADER, "").strip() or None,
                             request.args.get("reason", ""))


def once(status: int) -> receipts.Pending | None:
    """The write's Idempotency-Key, if sent: what the write is and the answer it gets, kept with it."""
    key = receipts.parse_key(request.headers.get("Idempotency-Key"), "Idempotency-Key")
    if key is None:
        return None
    content = None if request.method == "DELETE" else body()
    return receipts.Pending(key, receipts.fingerprint(request.method, request.path, content), status,
                            lambda match, played, number: jsonify(state(match, played)).get_data())


@bp.errorhandler(receipts.Replayed)
def replayed(err: receipts.Replayed):
    """A write sent again under its key: the answer it got the first time, and nothing written."""
    response = Response(err.body, status=err.status, mimetype="application/json")
    sent = err.json()
    response.set_etag(version_tag(sent["id"], sent["version"]))
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.errorhandler(Refusal)
def invalid(err: Refusal):
    return json_error(422, translate(err.reason), reasons(err))


@bp.errorhandler(matches.Conflict)
def conflict(err: matches.Conflict):
    return json_error(409, translate(err.reason))


@bp.errorhandler(matches.NotFound)
def not_found(err: matches.NotFound):  # noqa: ARG001
    # Answer here: an abort() raised inside an error handler is not handled again and becomes a 500.
    return handle_http(NotFound())


@bp.post("/matches")
def create():
    data = fields_of(body(), "options")
    start = start_key("matches")
    match, key, again = matches.started_once(start, lambda: matches.create(
        data.get("game"), data.get("players"), data.get("options", {}), language=data.get("language"), start=start))
    edit_url = url_for("pages.join", public_id=match.public_id, key=key, _external=True)
    return replayed_start(answer(match, matches.replay(match), 201, edit_key=key, edit_url=edit_url), again)


def start_key(scope: str) -> receipts.Start | None:
    """The Idempotency-Key of a match start, if sent: a start sent again answers the match it made."""
    key = receipts.parse_key(request.headers.get("Idempotency-Key"), "Idempotency-Key")
    return receipts.start_of(key, scope, receipts.fingerprint(request.method, request.path, body()),
                             current_app.secret_key or "")


def replayed_start(response: Response, again: bool) -> Response:
    if again:
        response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.get("/matches/<match_id:public_id>")
def read(public_id: str):
    # A phone polls this every few seconds: answer 304 from the version alone, load the match only on a change.
    version = matches.version_of(public_id)
    if version is None:
        abort(404)
    if request.if_none_match.contains_weak(version_tag(public_id, version)):
        response = Response(status=304)
        response.set_etag(version_tag(public_id, version))
        return response
    match = match_or_404(public_id)
    # The same bytes for every phone: compressed once per version of the match and of its club (agreements asked).
    compression.compressed_as(f"read {version_tag(public_id, match.version)} {clubs.version_of_club_of(public_id)}")
    return answer(match, matches.cached_replay(match))


@bp.post("/matches/<match_id:public_id>/hands")
def record(public_id: str):
    authorize(public_id)
    data = fields_of(body(), "number")
    match, played = matches.record(public_id, data, data.get("number"), "api", once(201), authority())
    return answer(match, played, 201)


@bp.put("/matches/<match_id:public_id>/hands/<int:number>")
def correct(public_id: str, number: int):
    authorize(public_id)
    match, played = matches.correct(public_id, number, body(), "api", once(200), authority())
    return answer(match, played)


@bp.delete("/matches/<match_id:public_id>/hands/<int:number>")
def undo(public_id: str, number: int):
    authorize(public_id)
    match, played = matches.undo(public_id, number, "api", once(200), authority())
    return answer(match, played)


# -- extensions: edit history, backup and restore, a new edit key -----------------------


@bp.get("/matches/<match_id:public_id>/history")
def history(public_id: str):
    changes = matches.history(match_or_404(public_id))
    return jsonify({"changes": [
        {"number": c.number, "action": c.action, "before": c.before, "after": c.after, "source": c.source,
         # SQLite hands the UTC time back without its zone: say it, as PostgreSQL does.
         "at": (c.at if c.at.tzinfo else c.at.replace(tzinfo=timezone.utc)).isoformat(timespec="seconds"),
         "reason": c.reason or ""}  # extension: why the club's admin changed a locked match ("" for none)
        for c in changes
    ]})


@bp.get("/matches/<match_id:public_id>/export")
def export(public_id: str):
    return jsonify(backup.export(match_or_404(public_id)))


@bp.post("/matches/import")
def restore():
    match, key = backup.restore(body(), source="api")
    edit_url = url_for("pages.join", public_id=match.public_id, key=key, _external=True)
    return answer(match, matches.replay(match), 201, edit_key=key, edit_url=edit_url)


@bp.post("/matches/<match_id:public_id>/key")
def rotate_key(public_id: str):
    authorize(public_id)
    key = matches.rotate_key(public_id)
    edit_url = url_for("pages.join", public_id=public_id, key=key, _external=True)
    return jsonify({"edit_key": key, "edit_url": edit_url})


# -- extensions: results the table agrees, each hand's OK -----------------------------------------


def agreement_state(match: Match) -> JsonObject:
    """A club match's agreement: how many lock it, who agreed and when, whether it is locked."""
    agreement = agreements.state_of(match)
    return {"asked": agreement.asked, "locked": agreement.locked, "finished": agreement.finished,
            "agreed_by": [{"seat": one.seat, "name": one.name, "at": utc(one.at)} for one in agreement.agreed],
            "changed_after_agreement": amendment_pages.state(amendments(match)) if agreement.agreed else []}


def utc(at: datetime) -> str:
    """A stored time in ISO form with its zone (SQLite hands the UTC time back without one)."""
    return (at if at.tzinfo else at.replace(tzinfo=timezone.utc)).isoformat(timespec="seconds")


def member_of(match: Match) -> ClubPlayer | None:
    """The club member whose own key this request carries (Club-Member-Key), for the match's club."""
    club = club_results.club_of(match)
    return members.proven(club) if club is not None else None


@bp.errorhandler(agreements.NotTheirs)
def not_theirs(err: agreements.NotTheirs):
    rate_limits.not_a_wrong_key()  # the edit key was right: no guess to count
    return json_error(403, translate(err.reason))


@bp.get("/matches/<match_id:public_id>/agreements")
def read_agreements(public_id: str):
    return jsonify(agreement_state(match_or_404(public_id)))


@bp.post("/matches/<match_id:public_id>/agreements")
def agree(public_id: str):
    """A player agrees from their own client: the edit key, and the member's own key (Club-Member-Key) that
    says who agrees; the seat, when sent, must be theirs. A "phone" key, when sent, is checked as before."""
    authorize(public_id)
    data = body()
    phone = data.get("phone")
    if phone is not None and (not isinstance(phone, str) or not PHONE_KEY[0] <= len(phone) <= PHONE_KEY[1]):
        raise refuse("phone", N_("Send this client's own random key, {low} to {high} characters."),
                     low=PHONE_KEY[0], high=PHONE_KEY[1])
    found = match_or_404(public_id)
    before = len(agreements.agreements(found))
    member = member_of(found)
    match, _state = agreements.agree(public_id, member.id if member else None, member.name if member else "",
                                     data.get("seat"))
    state = agreement_state(match)
    return jsonify(state), 201 if len(state["agreed_by"]) > before else 200


@bp.post("/matches/<match_id:public_id>/hands/<int:number>/confirmation")
def confirm_hand(public_id: str, number: int):
    """The next seat's OK to a hand of a club that confirms every hand, from that seat's member (Club-Member-Key)."""
    authorize(public_id)
    member = member_of(match_or_404(public_id))
    match, seat = agreements.confirm(public_id, number, member.id if member else None)
    hand = match.hands[number - 1]
    return jsonify({"number": number, "seat": seat, "name": match.players[seat], "at": utc(hand.confirmed_at)})
