"""Error answers: JSON under /api/, a friendly page elsewhere; never a stack trace."""

from __future__ import annotations

from typing import NoReturn

from flask import Flask, Response, abort, current_app, jsonify, make_response, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, InternalServerError

from ..db import LOST, db
from ..games.base import N_
from ..i18n import translate
from ..match import matches
from ..models import Match
from ..refusals import Refusal

MESSAGES = {
    400: N_("That request could not be read."),
    401: N_("This needs the match's edit key."),
    403: N_("That edit key does not belong to this match."),
    404: N_("There is no such match or hand."),
    405: N_("That action is not available here."),
    409: N_("That does not fit the match as it is now."),
    413: N_("That request is too large."),
    415: N_("Send the request as JSON."),
    422: N_("That entry breaks a rule."),
    500: N_("Something went wrong on our side; nothing you entered was lost."),
}


def match_or_404(public_id: str) -> Match:
    """The match with this public id, or a 404 answer (a page, or JSON under /api/)."""
    match = matches.find(public_id)
    if match is None:
        abort(404)
    return match


# What a phone reads when an edit link it holds, or one it opens, no longer belongs to the match.
REPLACED = N_("The edit link this phone opened has been replaced by a newer one, so this phone can no longer "
              "enter hands. Ask the table for the new edit link; meanwhile you can watch the match.")
STALE_LINK = N_("This edit link no longer works: it was replaced by a newer one, or it is incomplete. Ask the table "
                "for the current edit link; meanwhile you can watch the match.")


def refused_editing(match: Match, message: str) -> NoReturn:
    """Answer 403 with why this phone cannot edit, and the match's watch view one tap away."""
    # JSON for a hand the phone kept while offline, sent by its script.
    abort(error_page(403, _(message), watch_url=url_for("pages.match", public_id=match.public_id)))


def reasons(err: Refusal) -> dict[str, str]:
    """Field -> the first reason for it, in the player's language."""
    return err.by_field(translate)


def wants_json() -> bool:
    """The API, or a page asked for JSON (the phone's outbox sending a hand it kept: static/js/outbox/)."""
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def json_error(status: int, message: str, fields: dict[str, str] | None = None) -> tuple[Response, int]:
    return jsonify({"error": {"message": message, "fields": fields or {}}}), status


def error_page(status: int, message: str, fields: dict[str, str] | None = None, sent: list[str] | None = None,
               **links: str | None) -> Response:
    """A page's own refusal: the API's JSON error for a client that asked for JSON, else the error page.

    links are the page's ways on (watch_url, back_url, correct_url and correct_text); fields go only in the
    JSON; sent is what the phone typed, in lines (a refused hand), on the page and in the JSON as "yours".
    """
    if wants_json():
        body, _status = json_error(status, message, fields)
        if sent is not None:
            body = jsonify({**body.get_json(), "yours": sent})
        return make_response(body, status)
    return make_response(render_template("error.html", status=status, message=message, sent=sent, **links), status)


# In the browser a 403 means this phone has no edit key (it cannot send a wrong one).
PAGE_MESSAGES = {403: N_("Only phones that opened the edit link can enter hands. Ask the table for it.")}


def handle_http(err: HTTPException):
    status = err.code or 500
    # Keep what the error says in its headers: a 405 names the methods allowed (Allow).
    headers = {name: value for name, value in err.get_headers() if name.lower() != "content-type"}
    if wants_json():
        body, _status = json_error(status, _(MESSAGES.get(status, MESSAGES[400])))
        return body, status, headers
    message = _(PAGE_MESSAGES.get(status) or MESSAGES.get(status, MESSAGES[400]))
    return render_template("error.html", status=status, message=message), status, headers


def cannot_save(err: Exception):
    """A write (or a read) the database could not take: 503 with Retry-After, nothing saved, never a 409.

    The API's JSON error under /api/ and for the outbox (which keeps the hand and sends it again), a page
    that says so elsewhere; a form that can keep what was typed catches Unavailable itself (unavailable_form)."""
    try:
        db.session.rollback()
    except Exception:  # noqa: BLE001 (a connection already gone: the pool replaces it)
        current_app.logger.warning("rollback after a failed write failed too", exc_info=True)
    if not isinstance(err, matches.Unavailable):
        current_app.logger.warning("the database refused a request: %s", getattr(err, "orig", err))
        err = matches.Unavailable()
    answer = error_page(503, translate(err.reason))
    answer.headers["Retry-After"] = str(err.retry_after)
    return answer


def unavailable_form(page: str, err: matches.Unavailable) -> Response:
    """A form sent back as it was typed, with why nothing was saved (among its form errors): 503, Retry-After."""
    answer = make_response(page, 503)
    answer.headers["Retry-After"] = str(err.retry_after)
    return answer


def handle_crash(err: Exception):
    if isinstance(err, HTTPException):
        return handle_http(err)
    current_app.logger.exception("unhandled error", exc_info=err)
    return handle_http(InternalServerError())


def init_app(app: Flask) -> None:
    app.register_error_handler(matches.Unavailable, cannot_save)
    for lost in LOST:  # a full disk, a database restarted
        app.register_error_handler(lost, cannot_save)
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(Exception, handle_crash)
    app.teardown_appcontext(close_quietly)


def close_quietly(_error: BaseException | None) -> None:
    """End the request's database session without letting a dead connection's rollback escape.

    Registered after Flask-SQLAlchemy's own teardown, so it runs first: when the database restarted under a
    request, the session's closing rollback raised past every error handler, and the phone got the
    server's bare 500 page. The pool replaces the connection; the next request gets a fresh one."""
    try:
        db.session.remove()
    except Exception:  # noqa: BLE001
        current_app.logger.warning("closing a request's database session failed; its connection is dropped",
                                   exc_info=True)
        db.session.registry.clear()
