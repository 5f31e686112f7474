"""Hand forms sent once, and answered in JSON to the phone's outbox (static/js/outbox/).

Every hand form carries a key (hidden field ``idempotency_key``): sent twice, by a second tap,
the back button or the outbox after a lost answer, the hand is saved once and the repeat lands
where the first save did. The outbox keeps a hand the phone could not send and sends the form
again later asking for JSON (``Accept: application/json``); the answers say what became of it in
words the phone shows: saved (and where to land), refused by the rules (the reason), or taken by
another phone meanwhile (what was recorded there, next to what this phone sent).
"""

from __future__ import annotations

import secrets
from typing import Any, TypedDict

from flask import Response, current_app, request, url_for
from flask_babel import gettext as _

from ...games.base import Entry, Replay
from ...match import matches, receipts
from ...models import Match
from ...refusals import Refusal
from ..errors import MESSAGES, json_error, wants_json
from ..games.pages import HandForm
from ..games.registry import GAME_PAGES
from .history_lines import lines

FIELD = "idempotency_key"
UNSENT = frozenset({FIELD, "csrf_token"})  # fields that differ between two sendings of one hand


def wanted() -> bool:
    """Whether the form was sent by the outbox, which reads JSON."""
    return wants_json()


def form_key() -> str:
    """The key the form page carries: the one sent back with a refusal, or a new one."""
    sent = request.form.get(FIELD, "")
    return sent if receipts.KEY.fullmatch(sent) else secrets.token_urlsafe(16)


def landing(match: Match, played: Replay, number: int, new: bool) -> str:
    """Where the phone lands after a save: the next hand (the one saved above it), the result, or the corrected row."""
    anchor = f"hand-{number}" if not new else "standings" if played.finished else "saved"
    return url_for("pages.match", public_id=match.public_id, _anchor=anchor)


def saved_body(match: Match, played: Replay, number: int, new: bool) -> bytes:
    return current_app.json.dumps({"saved": number, "location": landing(match, played, number, new)}).encode()


def once(match: Match, new: bool) -> receipts.Pending | None:
    """The form's key and what the form says (its token and key aside); Replayed when it saved before.

    None for a form without a key (a page from before keys saves as it always did), and for a form
    whose key saved a different entry: changed after its save and sent again from the same page, it
    is judged as a new entry (another phone's hand number, or a further correction).
    """
    key = request.form.get(FIELD, "")
    if not receipts.KEY.fullmatch(key):
        return None
    content = sorted((name, value) for name, value in request.values.items(multi=True) if name not in UNSENT)
    pending = receipts.Pending(key, receipts.fingerprint(request.method, request.path, content), 201 if new else 200,
                               lambda match, played, number: saved_body(match, played, number, new))
    try:
        receipts.check(match.id, pending)
    except Refusal:
        return None
    return pending


def saved(match: Match, played: Replay, number: int, new: bool) -> Response:
    return Response(saved_body(match, played, number, new), 201 if new else 200, mimetype="application/json")


def replayed(err: receipts.Replayed) -> Response:
    return Response(err.body, err.status, mimetype="application/json")


def refused(form: HandForm | None) -> tuple[Response, int]:
    """422: the form's first reason (the rules' sentence, or a field's), and every field's."""
    if form is None:
        return json_error(422, _(MESSAGES[422]))
    fields = {name: errors[0] for name, errors in form.errors.items() if errors and name is not None}
    fields |= getattr(form, "reasons", {})
    return json_error(422, next(iter([*form.form_errors, *fields.values()]), _(MESSAGES[422])), fields)


def sent_entry(match: Match, number: int) -> Entry | None:
    """The entry the form sends, read as hand number of the match as it was before that hand; None if it reads as none."""
    before = matches.stored_replay(match, [hand.entry for hand in match.hands[: number - 1]])
    game_pages = GAME_PAGES[match.game]
    variant = request.values.get("variant")
    if game_pages.choice and variant not in game_pages.choice.options(before, None, []):
        return None
    form = game_pages.hand_form(before, variant, request.form, None)
    try:
        return before.play(form.entry())["entry"] if form.validate() else None
    except Refusal:
        return None


def sent_lines(match: Match, number: int) -> list[str]:
    """What the form sends for hand number, in lines as the edit history words them; when it reads as no hand,
    each field typed in, by its label."""
    entry = sent_entry(match, number) if 0 < number <= len(match.hands) + 1 else None
    if entry is not None:
        return lines(None, entry)
    game_pages, variant = GAME_PAGES[match.game], request.values.get("variant")
    if game_pages.choice and variant not in game_pages.choice.every:
        return []
    before = matches.stored_replay(match, [hand.entry for hand in match.hands[: max(number - 1, 0)]])
    form = game_pages.hand_form(before, variant, request.form, None)
    fields: Any = form  # a WTForms form: its fields, in order
    return [_("%(field)s: %(value)s", field=field.label.text, value=typed) for field in fields
            if field.name not in UNSENT and field.label.text and (typed := chosen(field))]


def chosen(field: Any) -> str:
    """A field's value as the form showed it: a choice by its label, anything else as typed ("" for nothing)."""
    value = field.data
    if value in (None, "", [], False):
        return ""
    for choice in getattr(field, "choices", None) or ():
        pair = (choice.value, choice.label) if hasattr(choice, "value") else tuple(choice)[:2]
        if str(pair[0]) == str(value):
            return str(pair[1])
    return str(value)


class Refused(TypedDict):
    message: str
    fields: dict[str, str]


class Taken(TypedDict):
    """The 409 a phone's outbox reads when its hand's number was taken: what is there, what it sent, in lines."""

    error: Refused
    number: int
    recorded: list[str]
    yours: list[str]
    next: int | None


def taken(match: Match, number: int, message: str) -> tuple[Response, int]:
    """409: hand number was recorded meanwhile (or the match moved on): what it holds, what this phone sent, in words."""
    recorded = match.hands[number - 1].entry if 0 < number <= len(match.hands) else None
    yours = sent_entry(match, number) if 0 < number <= len(match.hands) + 1 else None
    ahead = matches.cached_replay(match).next()
    body: Taken = {"error": {"message": message, "fields": {}}, "number": number,
                            "recorded": lines(None, recorded) if recorded else [],
                            "yours": lines(None, yours) if yours else [],
                            "next": len(match.hands) + 1 if ahead is not None else None}
    return current_app.json.response(body), 409
