"""Hand entry in the browser: record the next hand, correct any hand, undo the last and put it back."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import matches
from ..games import InvalidHand
from ..games.base import Entry, Replay, at_limit
from ..i18n import translate
from ..models import Match
from . import phone
from .forms import TableForm
from .registered_games import GAME_PAGES

bp = Blueprint("hands", __name__, url_prefix="/m/<public_id>/hands")


@bp.route("/new", methods=["GET", "POST"])
def new(public_id: str):
    match = phone.editable(public_id)
    before = matches.cached_replay(match)
    sent = request.form.get("number", type=int) if request.method == "POST" else None
    if sent is not None and 0 < sent <= len(match.hands):
        # A second tap on Save lands on the hand it saved; another phone was quicker otherwise.
        if sent_again(match, sent):
            flash(_("Hand %(number)s is saved.", number=sent))
        else:
            flash(_("Hand %(number)s is already recorded.", number=sent))
        return redirect(url_for("pages.match", public_id=public_id, _anchor=f"hand-{sent}"))
    if before.finished:
        flash(_("This match is finished; no more hands can be recorded."))
        return redirect(url_for("pages.match", public_id=public_id))
    if full := at_limit(len(before.hands), before.max_hands):
        flash(translate(full.reason))
        return redirect(url_for("pages.match", public_id=public_id))
    return entry_page(match, before, len(match.hands) + 1, None, [])


@bp.route("/<int:number>", methods=["GET", "POST"])
def edit(public_id: str, number: int):
    match = phone.editable(public_id)
    if not 1 <= number <= len(match.hands):
        abort(404)
    before = matches.stored_replay(match, [hand.entry for hand in match.hands[: number - 1]])
    return entry_page(match, before, number, match.hands[number - 1].entry, [h.entry for h in match.hands[number:]])


@bp.post("/<int:number>/back")
def put_back(public_id: str, number: int):
    """Record again the hand an undo just removed, as it was."""
    match = phone.editable(public_id)
    change = matches.undone(match)
    if not TableForm(request.form).validate():
        flash(_("The page was open too long; please try again."))
    elif change is None or change.number != number or change.before is None:
        flash(_("Hand %(number)s can no longer be put back: the match has changed since.", number=number))
    else:
        try:
            matches.record(public_id, change.before, number, phone.source())
            flash(_("Hand %(number)s is back.", number=number))
        except (matches.Conflict, InvalidHand) as err:
            flash(translate(err.reason))
    return redirect(url_for("pages.match", public_id=public_id, _anchor=f"hand-{number}"))


@bp.post("/<int:number>/undo")
def undo(public_id: str, number: int):
    match = phone.editable(public_id)
    form = TableForm(request.form)
    if not form.validate():
        flash(_("The page was open too long; please try again."))
    else:
        try:
            matches.undo(public_id, number, phone.source())
            flash(_("Hand %(number)s was undone.", number=number))
        except (matches.Conflict, matches.NotFound) as err:
            flash(translate(err.reason) if isinstance(err, matches.Conflict) else _("There is no such hand."))
    return redirect(url_for("pages.match", public_id=match.public_id))


def sent_again(match: Match, number: int) -> bool:
    """Whether this phone recorded hand number with exactly the entry the form sends again (a double tap)."""
    last = next((change for change in matches.history(match) if change.number == number), None)
    if last is None or last.action != "record" or last.source != phone.source():
        return False
    before = matches.stored_replay(match, [hand.entry for hand in match.hands[: number - 1]])
    game_pages = GAME_PAGES[match.game]
    variant = request.values.get("variant")
    if game_pages.choice and variant not in game_pages.choice.options(before, None, []):
        return False
    form = game_pages.hand_form(before, variant, request.form, None)
    try:
        return form.validate() and before.play(form.entry())["entry"] == match.hands[number - 1].entry
    except InvalidHand:
        return False


def entry_page(match: Match, before: Replay, number: int, stored: Entry | None, later: list[Entry]):
    """Show, check and save the entry form of hand number (new when stored is None; later: the hands after it)."""
    game_pages = GAME_PAGES[match.game]
    choice = game_pages.choice
    # Offered: what the rest of the match leaves open. A choice sent from an older page that the match
    # has taken since is still read, so the rules can say which later hand it would break.
    choices = choice.options(before, stored, later) if choice else []
    readable = choice.options(before, stored, []) if choice else []
    # An empty ?variant= asks for the choice again, also when editing a stored hand.
    variant = request.values.get("variant", choice.of(stored) if choice and stored else None)
    if readable and variant not in readable:
        return render_template("hands/choose.html", match=match, before=before, number=number, choices=choices)
    posted = request.method == "POST"
    form = game_pages.hand_form(before, variant, request.form if posted else None, stored)
    if posted and form.validate():
        try:
            played = save(match, number, form.entry(), stored is None)
        except InvalidHand as err:
            form.refuse(err)
        except matches.Conflict as err:
            form.form_errors.append(translate(err.reason))
        else:
            # A new hand lands where the next one starts, the hand just saved summed up above it;
            # the hand that ends the match lands on the result; a correction lands on its row.
            anchor = f"hand-{number}" if stored is not None else "standings" if played.finished else "saved"
            return redirect(url_for("pages.match", public_id=match.public_id, _anchor=anchor))
    return render_template(
        game_pages.template("hands"), match=match, before=before, upcoming=before.next(), number=number, variant=variant,
        form=form, editing=stored is not None, choices=choices,
    ), 422 if posted else 200


def save(match: Match, number: int, entry: Entry, new: bool) -> Replay:
    """Record or correct the hand; return the match replayed as it now is."""
    if new:
        # The form names the hand it was opened for: sent twice or from a stale page, it is refused (409)
        # instead of landing on the next hand, possibly under the next declarer.
        sent = request.form.get("number", type=int)
        return matches.record(match.public_id, entry, number if sent is None else sent, phone.source())[1]
    return matches.correct(match.public_id, number, entry, phone.source())[1]
