"""Rate limits: how often one address (or one club, or one match) may make matches or clubs, restore backups,
print PDFs or send wrong keys.

Flask-Limiter keeps the counts: by default in a SQLite file in the instance folder (counts.py),
so that every worker and process of the machine count together, or in Redis when RATELIMIT_STORAGE_URI
names one, so that every server of a club does too.
Each limit is a setting such as ``"30 per minute; 300 per hour"``, set well above what a real
table does. A limit on making matches counts the matches made, a limit on PDFs the sheets
rendered, a limit on attendance answers the answers recorded: a form sent back with a mistake
costs nothing, and a request refused by one limit is counted by none. Edit keys count only when
wrong, per address and per match, and a right key is never refused. An address over a limit gets
429 with Retry-After: JSON in the API's error shape under /api/, a page saying when to try again
elsewhere.

A club's matches and PDFs count per club, since its phones share the address of its Wi-Fi; a
stranger's count first per club and address, well below the club's total, so that one address
cannot spend a club's budget, and the club's admin and proven members count apart, in buckets of
their own, so that strangers never refuse them (club_counts.py). Attendance answers count the same
way, with the address's total over every club in place of the club's.

The address is the connection's, or with PROXIES set (the number of proxies in front that add
X-Forwarded-For) the one the nearest of those proxies saw.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask, Response, current_app, g, make_response, render_template, request, url_for
from flask_babel import ngettext
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.errors import StorageError
from werkzeug.exceptions import TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from ...match import matches
from ..errors import json_error, wants_json
from ..match import phone
from . import club_counts, counts

Deduct = Callable[[Response], bool]


def made(response: Response) -> bool:
    """A match was made: 201 from the API (not a start sent again under its key), or the form's redirect."""
    if response.headers.get("Idempotent-Replayed") == "true":
        return False
    return response.status_code == 201 or (request.method == "POST" and response.status_code == 302)


def rendered(response: Response) -> bool:
    """A sheet was rendered: a kept one (every table downloading the evening's results) costs nothing."""
    return response.status_code == 200 and bool(g.get("pdf_rendered"))


def answered(response: Response) -> bool:
    """An attendance answer was recorded: the API's 200 (not an answer sent again), or the form's redirect back."""
    if response.headers.get("Idempotent-Replayed") == "true":
        return False
    return request.method == "POST" and response.status_code in (200, 302)


def counted_as() -> str:
    """What a limited request counts against: its club or its match where it comes with one, else its address.

    A club's phones usually share one address (the club's Wi-Fi): counted by address, a hundred tables
    could neither download their sheets nor start their matches. So a club's own requests count per
    club (its matches started, its standings, results and table cards printed) and a match's sheet per
    match when the match is a club's or the phone holds its current edit key; a casual phone without it,
    a blank sheet and every wrong key count per address as before.
    """
    args = request.view_args or {}
    if request.endpoint in PER_CLUB:
        club = args.get("public_id") or args.get("club_id")
        if club:
            return f"club:{club}"
    elif request.endpoint in PER_MATCH and args.get("public_id"):
        match = matches.find(args["public_id"])
        if match is not None and (match.club_id is not None or phone.can_edit(match)):
            return f"match:{match.public_id}"
    return get_remote_address()


# Endpoint -> (setting, scope shared by the endpoints that count together, what counts).
LIMITED: dict[str, tuple[str, str, Deduct]] = {
    "api.create": ("RATELIMIT_NEW_MATCHES", "new-match", made),
    "pages.new_match": ("RATELIMIT_NEW_MATCHES", "new-match", made),
    "api.restore": ("RATELIMIT_RESTORES", "restore", made),
    "archive.restore": ("RATELIMIT_RESTORES", "restore", made),
    "club_api.create_club": ("RATELIMIT_NEW_CLUBS", "new-club", made),
    "club_api.import_club": ("RATELIMIT_NEW_CLUBS", "new-club", made),
    "clubs.new_club": ("RATELIMIT_NEW_CLUBS", "new-club", made),
    "club_api.start_match": ("RATELIMIT_CLUB_MATCHES", "club-match", made),
    "clubs.new_match": ("RATELIMIT_CLUB_MATCHES", "club-match", made),
    "sheets.match_pdf": ("RATELIMIT_PDFS", "pdf", rendered),
    "sheets.blank_pdf": ("RATELIMIT_PDFS", "pdf", rendered),
    "paper_sheet.match_pdf": ("RATELIMIT_PDFS", "pdf", rendered),
    "clubs.standings_pdf": ("RATELIMIT_PDFS", "pdf", rendered),
    "club_evening_results.results_pdf": ("RATELIMIT_PDFS", "pdf", rendered),
    "club_table_cards.cards_pdf": ("RATELIMIT_PDFS", "pdf", rendered),
    "club_table_cards.api_cards_pdf": ("RATELIMIT_PDFS", "pdf", rendered),
    "club_table_cards.paper_pdf": ("RATELIMIT_PDFS", "pdf", rendered),
    "club_api.answer_evening": ("RATELIMIT_ANSWERS", "answer", answered),
    "club_evenings.answer": ("RATELIMIT_ANSWERS", "answer", answered),
}
# Limited endpoints counted per club, and per match (counted_as).
PER_CLUB = frozenset({"club_api.start_match", "clubs.new_match", "clubs.standings_pdf",
                      "club_evening_results.results_pdf", "club_table_cards.cards_pdf",
                      "club_table_cards.api_cards_pdf", "club_table_cards.paper_pdf"})
PER_MATCH = frozenset({"sheets.match_pdf", "paper_sheet.match_pdf"})
# Limited endpoints of a club where a stranger counts per club and address first, and the club's admin and
# proven members in their own buckets (club_counts.py); the limit per club and address of each scope.
CLUB_AND_ADDRESS = PER_CLUB | {"club_api.answer_evening", "club_evenings.answer"}
PER_CLUB_AND_ADDRESS = {"club-match": "RATELIMIT_CLUB_MATCHES_PER_ADDRESS", "pdf": "RATELIMIT_CLUB_PDFS_PER_ADDRESS",
                        "answer": "RATELIMIT_CLUB_ANSWERS_PER_ADDRESS"}
# Endpoints whose 403 means "that edit key is not this match's", and the limits of those 403s.
KEY_CHECKS = frozenset({"api.record", "api.correct", "api.undo", "api.rotate_key", "pages.join",
                        # a club's admin key, counted per club as an edit key is per match
                        "club_api.rotate_club_key", "club_api.set_rules", "club_api.add_season",
                        "club_api.name_evening", "club_api.add_player", "club_api.rename_player",
                        "club_api.merge_player", "clubs.join", "members.join", "club_api.issue_member_key",
                        "club_api.keep_guest", "club_api.delete_match", "club_api.export_club", "club_api.start_match",
                        "club_api.plan_evening",
                        "club_api.change_evening", "club_api.delete_evening", "club_api.answer_evening",
                        "club_api.mark_present", "club_api.close_season", "club_api.reopen_season",
                        "evening_results_api.close_evening", "evening_results_api.reopen_evening",
                        "club_table_cards.api_cards_pdf"})
WRONG_KEYS = ("RATELIMIT_WRONG_KEYS", "RATELIMIT_WRONG_KEYS_PER_MATCH")  # per address, per match


def init_app(app: Flask) -> None:
    """Count requests per address on the limited endpoints; answer 429 over a limit."""
    if app.config["PROXIES"]:
        hops = int(app.config["PROXIES"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)
    app.register_error_handler(TooManyRequests, too_many)
    if not app.config["RATELIMIT_ENABLED"]:
        return
    for setting in {*(setting for setting, _scope, _deduct in LIMITED.values()), *PER_CLUB_AND_ADDRESS.values(),
                    *WRONG_KEYS}:
        parse_many(app.config[setting])  # a mistyped limit stops the start, not a request later
    app.config["RATELIMIT_STORAGE_URI"] = counts.uri_for(app.config["RATELIMIT_STORAGE_URI"],
                                                         Path(app.instance_path))
    limiter = Limiter(counted_as, app=app)
    # Only the endpoints below have limits, each checked by its own decorator. The limiter's check before
    # every request looks for limits of the whole app, of which there are none: it goes, so every other
    # request (the polls every few seconds above all) costs the limiter nothing.
    app.before_request_funcs[None].remove(limiter._check_request_limit)
    app.extensions["rate_limits"] = limiter
    for endpoint, (setting, scope, deduct) in LIMITED.items():
        app.view_functions[endpoint] = limited(limiter, endpoint, setting, scope, deduct)(app.view_functions[endpoint])
    app.after_request(count_wrong_key)


def limited(limiter: Limiter, endpoint: str, setting: str, scope: str, deduct: Deduct) -> Callable:
    """The limits of an endpoint, as one decorator; every one is checked before the view and counted after it.

    Most count against what counted_as() says. A club's endpoint counts a stranger per club and address and
    then there, and a key holder of the club in a bucket of their own instead (club_counts.py). Each limit is
    only tested before the view and hit once the response shows that what counts was done: a request refused
    by any of them is counted by none.
    """
    def config(name: str) -> Callable[[], str]:
        return lambda: current_app.config[name]

    if endpoint not in CLUB_AND_ADDRESS:
        return limiter.shared_limit(config(setting), scope, deduct_when=deduct)
    per_address = PER_CLUB_AND_ADDRESS[scope]
    limits = [
        limiter.shared_limit(config(setting), scope, deduct_when=deduct, exempt_when=club_counts.holds_key),
        limiter.shared_limit(config(per_address), f"{scope}-address", key_func=club_counts.club_and_address,
                             deduct_when=deduct, exempt_when=club_counts.holds_key),
        limiter.shared_limit(lambda: club_counts.own_limits(setting, per_address), f"{scope}-key",
                             key_func=club_counts.own_bucket, deduct_when=deduct, exempt_when=club_counts.stranger),
    ]

    def decorate(view: Callable) -> Callable:
        for limit in limits:
            view = limit(view)
        return view

    return decorate


def not_a_wrong_key() -> None:
    """Say that this request's 403 refuses something else than its key (a match its players locked)."""
    g.key_was_right = True


def count_wrong_key(response: Response) -> Response:
    """Count a refused edit key against its address and its match; over either limit, answer 429."""
    if response.status_code != 403 or request.endpoint not in KEY_CHECKS or g.get("key_was_right"):
        return response
    public_id = (request.view_args or {}).get("public_id") or (request.view_args or {}).get("club_id", "")
    per_address, per_match = (current_app.config[setting] for setting in WRONG_KEYS)
    seconds = hit([(per_address, "wrong-key-address", get_remote_address()),
                   (per_match, "wrong-key-match", public_id)])
    return response if seconds is None else make_response(too_many(TooManyRequests(retry_after=seconds)))


def hit(counters: list[tuple[str, str, str]]) -> int | None:
    """Count one hit on each (limits, scope, key); None while all hold, else the seconds until all do again."""
    limiter: Limiter = current_app.extensions["rate_limits"]
    prefix = current_app.config["RATELIMIT_KEY_PREFIX"]
    waits = []
    try:
        for limits, scope, key in counters:
            for item in parse_many(limits):
                if not limiter.limiter.hit(item, prefix, scope, key):
                    waits.append(limiter.limiter.get_window_stats(item, prefix, scope, key).reset_time - time.time())
    except StorageError:  # the shared store is down: serve the table, say so in the log
        current_app.logger.exception("rate limit store unreachable; the wrong key was not counted")
        return None
    return max(1, math.ceil(max(waits))) if waits else None


def retry_after(err: TooManyRequests) -> int:
    """Seconds until the address may try again: from the limit Flask-Limiter found exceeded, or the error."""
    limiter: Limiter | None = current_app.extensions.get("rate_limits")
    if isinstance(err, RateLimitExceeded) and limiter is not None and limiter.current_limit is not None:
        return max(1, math.ceil(limiter.current_limit.window.reset_time - time.time()))
    return max(1, int(getattr(err, "retry_after", None) or 60))


def too_many(err: TooManyRequests):
    """429 with Retry-After: the API's JSON error, or a page that says when to try again."""
    seconds = retry_after(err)
    message = ngettext("Too many requests from this connection in a short time. Please try again in %(num)d second.",
                       "Too many requests from this connection in a short time. Please try again in %(num)d seconds.",
                       seconds)
    headers = {"Retry-After": str(seconds)}
    if wants_json():
        body, _status = json_error(429, message)
        return body, 429, headers
    public_id = (request.view_args or {}).get("public_id")
    watch_url = url_for("pages.match", public_id=public_id) if request.endpoint == "pages.join" else None
    return render_template("error.html", status=429, message=message, watch_url=watch_url), 429, headers
