"""Hand entry in the browser: record the next hand, correct any hand, undo the last and put it back."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ...club import agreements
from ...games.base import Entry, Replay, at_limit
from ...i18n import translate
from ...match import matches, receipts
from ...models import Match
from ...refusals import Refusal
from ..club import agreements as agreement_pages
from ..errors import unavailable_form
from ..forms import TableForm
from ..games.registry import GAME_PAGES
from . import outbox, phone

bp = Blueprint("hands", __name__, url_prefix="/m/<public_id>/hands")


@bp.errorhandler(agreements.Locked)
def refused_change(err: agreements.Locked):
    """A change the match's lock or its closed evening refuses (403): why, what this phone typed, the way back."""
    public_id = (request.view_args or {}).get("public_id", "")
    match = matches.find(public_id) if isinstance(public_id, str) else None
    sent = typed(match) if match is not None else None
    return agreement_pages.locked(err, sent=sent, back_url=url_for("pages.match", public_id=public_id)
                                  if match is not None else None)


def typed(match: Match) -> list[str] | None:
    """What a refused hand form held, in lines; None for any other request (an undo, a form opened)."""
    if request.method != "POST" or request.endpoint not in ("hands.new", "hands.edit"):
        return None
    number = (request.view_args or {}).get("number") or request.form.get("number", type=int) or len(match.hands) + 1
    return outbox.sent_lines(match, number)


@bp.errorhandler(receipts.Replayed)
def replayed(err: receipts.Replayed):
    """A form sent again under its key (a second tap, the back button, the outbox): it landed where it saved."""
    if outbox.wanted():
        return outbox.replayed(err)
    flash(_("Hand %(number)s is saved.", number=err.number))
    return redirect(err.json()["location"])


@bp.route("/new", methods=["GET", "POST"])
def new(public_id: str):
    match = phone.editable(public_id)
    agreement_pages.refuse_locked(match)
    once = outbox.once(match, new=True) if request.method == "POST" else None
    before = matches.cached_replay(match)
    sent = request.form.get("number", type=int) if request.method == "POST" else None
    if sent is not None and 0 < sent <= len(match.hands):
        receipts.check_again(match.id, once)  # a copy of this very form may have saved it meanwhile
        if outbox.wanted():
            return outbox.taken(match, sent, _("Hand %(number)s is already recorded.", number=sent))
        # A second tap on Save lands on the hand it saved; another phone was quicker otherwise.
        if sent_again(match, sent):
            flash(_("Hand %(number)s is saved.", number=sent))
        else:
            flash(_("Hand %(number)s is already recorded.", number=sent))
        return redirect(url_for("pages.match", public_id=public_id, _anchor=f"hand-{sent}"))
    if before.finished:
        receipts.check_again(match.id, once)
        finished = _("This match is finished; no more hands can be recorded.")
        if outbox.wanted():
            return outbox.taken(match, sent or len(match.hands) + 1, finished)
        flash(finished)
        return redirect(url_for("pages.match", public_id=public_id))
    if full := at_limit(len(before.hands), before.max_hands):
        receipts.check_again(match.id, once)
        if outbox.wanted():
            return outbox.taken(match, sent or len(match.hands) + 1, translate(full.reason))
        flash(translate(full.reason))
        return redirect(url_for("pages.match", public_id=public_id))
    return entry_page(match, before, len(match.hands) + 1, None, [], once)


@bp.route("/<int:number>", methods=["GET", "POST"])
def edit(public_id: str, number: int):
    match = phone.editable(public_id)
    agreement_pages.refuse_locked(match)
    once = outbox.once(match, new=False) if request.method == "POST" else None
    if not 1 <= number <= len(match.hands):
        abort(404)
    before = matches.stored_replay(match, [hand.entry for hand in match.hands[: number - 1]])
    later = [h.entry for h in match.hands[number:]]
    return entry_page(match, before, number, match.hands[number - 1].entry, later, once)


@bp.post("/<int:number>/back")
def put_back(public_id: str, number: int):
    """Record again, as the next hand, a hand an undo took away; land on the next hand's controls."""
    match = phone.editable(public_id)
    if not TableForm(request.form).validate():
        flash(_("The page was open too long; please try again."))
        return redirect(url_for("archive.history", public_id=public_id))
    try:
        match, played, placed = matches.put_back(public_id, number, request.form.get("change", type=int),
                                                 phone.source(), agreement_pages.authority(match))
    except (matches.Conflict, matches.NotFound, Refusal) as err:
        flash(_("There is no such hand.") if isinstance(err, matches.NotFound) else translate(err.reason))
        return redirect(url_for("archive.history", public_id=public_id))
    if match.game == "kozyol":  # played in deals, and says so on every screen
        flash(_("Deal %(number)s is back.", number=number) if placed == number
              else _("Deal %(number)s is back, as deal %(placed)s.", number=number, placed=placed))
    else:
        flash(_("Hand %(number)s is back.", number=number) if placed == number
              else _("Hand %(number)s is back, as hand %(placed)s.", number=number, placed=placed))
    return redirect(outbox.landing(match, played, placed, True))


@bp.post("/<int:number>/undo")
def undo(public_id: str, number: int):
    match = phone.editable(public_id)
    form = TableForm(request.form)
    if not form.validate():
        flash(_("The page was open too long; please try again."))
    else:
        try:
            matches.undo(public_id, number, phone.source(), authority=agreement_pages.authority(match))
            flash(_("Deal %(number)s was undone.", number=number) if match.game == "kozyol"  # played in deals
                  else _("Hand %(number)s was undone.", number=number))
        except (matches.Conflict, matches.NotFound, Refusal) as err:
            flash(_("There is no such hand.") if isinstance(err, matches.NotFound) else translate(err.reason))
    return redirect(url_for("pages.match", public_id=match.public_id))


def sent_again(match: Match, number: int) -> bool:
    """Whether this phone recorded hand number with exactly the entry the form sends again (a double tap)."""
    last = next((change for change in matches.history(match) if change.number == number), None)
    if last is None or last.action != "record" or last.source != phone.source():
        return False
    return outbox.sent_entry(match, number) == match.hands[number - 1].entry


def entry_page(match: Match, before: Replay, number: int, stored: Entry | None, later: list[Entry],
               once: receipts.Pending | None):
    """Show, check and save the entry form of hand number (new when stored is None; later: the hands after it)."""
    game_pages = GAME_PAGES[match.game]
    choice = game_pages.choice
    # Offered: what the rest of the match leaves open. A choice sent from an older page that the match
    # has taken since is still read, so the rules can say which later hand it would break.
    choices = choice.options(before, stored, later) if choice else []
    readable = choice.options(before, stored, []) if choice else []
    # An empty ?variant= asks for the choice again, also when editing a stored hand.
    variant = request.values.get("variant", choice.of(stored) if choice and stored else None)
    posted = request.method == "POST"
    # A hand the outbox kept while a correction elsewhere took its choice: the rules say why it no longer fits.
    kept = posted and outbox.wanted() and choice is not None and variant in choice.every
    if readable and variant not in readable and not kept:
        if posted and outbox.wanted():
            return outbox.refused(None)
        return render_template("match/choose.html", match=match, before=before, number=number, choices=choices)
    form = game_pages.hand_form(before, variant, request.form if posted else None, stored)
    if posted and form.validate():
        try:
            played = save(match, number, form.entry(), stored is None, once)
        except Refusal as err:
            form.refuse(err)
        except matches.Conflict as err:
            if outbox.wanted():
                return outbox.taken(matches.find(match.public_id), request.form.get("number", number, type=int),
                                    translate(err.reason))
            form.form_errors.append(translate(err.reason))
        except matches.Unavailable as err:
            if outbox.wanted():
                raise  # errors.cannot_save: 503 in JSON, and the outbox keeps the hand to send it again
            form.form_errors.append(translate(err.reason))
            return unavailable_form(render_template(
                game_pages.template("hand"), match=match, before=before, upcoming=before.next(), number=number,
                variant=variant, form=form, editing=stored is not None, choices=choices, once_key=outbox.form_key()),
                err)
        else:
            # A new hand lands where the next one starts, the hand just saved summed up above it;
            # the hand that ends the match lands on the result; a correction lands on its row.
            if outbox.wanted():
                return outbox.saved(match, played, number, stored is None)
            return redirect(outbox.landing(match, played, number, stored is None))
    if posted and outbox.wanted():
        return outbox.refused(form)
    return render_template(
        game_pages.template("hand"), match=match, before=before, upcoming=before.next(), number=number, variant=variant,
        form=form, editing=stored is not None, choices=choices, once_key=outbox.form_key(),
    ), 422 if posted else 200


def save(match: Match, number: int, entry: Entry, new: bool, once: receipts.Pending | None) -> Replay:
    """Record or correct the hand (once per key the form carries); return the match replayed as it now is."""
    if new:
        # The form names the hand it was opened for: sent twice or from a stale page, it is refused (409)
        # instead of landing on the next hand, possibly under the next declarer.
        sent = request.form.get("number", type=int)
        return matches.record(match.public_id, entry, number if sent is None else sent, phone.source(), once,
                              agreement_pages.authority(match))[1]
    return matches.correct(match.public_id, number, entry, phone.source(), once, agreement_pages.authority(match))[1]
