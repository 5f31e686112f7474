"""Results the table agrees, in the browser: "Agreed" from each player's phone, the lock, each hand's OK.

The match page shows the agreement card under its score sheet (``agreement_card``, called by the sheet's
frame); a locked match's forms are for the club's admin only, with a reason (``change_reason``, in every
hand form), and any other phone's write is answered 403 with one sentence.
"""

from __future__ import annotations

from datetime import timezone

from babel.dates import format_datetime
from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext as _
from markupsafe import Markup

from ...club import agreements, evening_results, playing, results
from ...i18n import translate
from ...match import matches
from ...models import Club, ClubPlayer, Match
from ...refusals import Refusal
from .. import links, rate_limits
from ..api import matches as api_matches
from ..errors import error_page
from ..forms import TableForm
from ..match import phone
from . import amendments, members

bp = Blueprint("agreements", __name__, url_prefix="/m/<public_id>")
bp.add_app_template_global(amendments.sentences, "amendment_sentences")  # an evening's results, each agreed match


@bp.app_context_processor
def agreement_numbers() -> dict[str, int]:
    """The club's settings form offers these: the suggested number of agreements, and the most a club may ask."""
    return {"suggested_agreements": agreements.SUGGESTED, "most_agreements": agreements.MOST_ASKED}


def admin_key(match: Match) -> str | None:
    """The admin key of the match's club, when this phone holds its current one."""
    club = results.club_of(match)
    return None if club is None else links.current_key(links.CLUB, club.public_id, club.admin_key_hash)


def authority(match: Match, reason: str | None = None) -> matches.Authority:
    """What this phone's write carries beyond the edit key: the club's admin key if it holds it, and why."""
    return matches.Authority(admin_key(match), request.form.get("reason", "") if reason is None else reason)


def may_change(match: Match) -> bool:
    """Whether this phone may change the match's hands: it is neither locked nor of a closed evening, or this
    phone runs its club."""
    if match.club_id is None or admin_key(match) is not None:
        return True
    return (not agreements.is_locked(match) and evening_results.closed_evening_of(match) is None
            and not playing.table_ended(match))


def barred(match: Match) -> agreements.Locked:
    """Why this match takes no change from the table: its evening is closed, its table ended when a player left,
    or its players agreed (locked)."""
    closed = evening_results.closed_evening_of(match)
    if closed is not None:
        return evening_results.Closed(evening_results.title_of(closed))
    if playing.table_ended(match):
        return playing.TableEnded()
    return agreements.Locked(agreements.names(agreements.agreements(match)))


def refuse_locked(match: Match) -> None:
    """Refuse (403, with the lock's sentence) a change to a match that is locked (or of a closed evening), when
    this phone does not run its club."""
    if not may_change(match):
        raise barred(match)


@bp.app_errorhandler(agreements.Locked)
def locked(err: agreements.Locked, sent: list[str] | None = None, back_url: str | None = None) -> Response:
    """A write to a locked match without the club's admin key: 403, a page or the API's JSON error.

    sent: what the phone typed, in lines, and back_url: the match, for a hand form.
    The edit key was right, so the refusal is not counted as a wrong key; a wrong admin key sent with it
    (the API's Club-Admin-Key) still is, or the lock would let anyone guess the admin key without limit.
    """
    if not request.headers.get(api_matches.ADMIN_KEY_HEADER, "").strip():
        rate_limits.not_a_wrong_key()
    return error_page(403, translate(err.reason), sent=sent, back_url=back_url)


@bp.app_template_global()
def barred_reason(match: Match) -> str | None:
    """For a phone that holds the match's edit key but may not change it: why, in one sentence (None otherwise)."""
    if match.club_id is None or not phone.can_edit(match) or may_change(match):
        return None
    return translate(barred(match).reason)


@bp.app_template_global()
def evening_closed_note(match: Match) -> Markup:
    """At the top of a club match's page when its evening is closed, or its table ended when a player left: only
    the club's admin changes it now."""
    if match.club_id is None:
        return Markup("")
    closed = evening_results.closed_evening_of(match)
    if closed is not None:
        reason = evening_results.Closed(evening_results.title_of(closed)).reason
    elif playing.table_ended(match):
        reason = playing.TableEnded().reason
    else:
        return Markup("")
    return Markup(render_template("match/_evening_closed.html", sentence=translate(reason)))


def member_of(match: Match) -> ClubPlayer | None:
    """The club member this phone proved it is (its member link), for the match's club."""
    club = results.club_of(match)
    return members.proven(club) if club is not None else None


@bp.post("/agree")
def agree(public_id: str):
    """This phone's member agrees to the finished match they played ("I am Ann: Agreed")."""
    match = phone.editable(public_id)
    if not TableForm(request.form).validate():
        flash(_("The page was open too long; please try again."))
    else:
        member = member_of(match)
        try:
            agreements.agree(public_id, member.id if member else None, member.name if member else "",
                             request.form.get("seat", type=int))
            flash(_("Agreed. Thank you."))
        except (matches.Conflict, Refusal, agreements.NotTheirs) as err:
            flash(translate(err.reason))
    return redirect(url_for("pages.match", public_id=match.public_id, _anchor="agreement"))


@bp.post("/hands/<int:number>/ok")
def confirm(public_id: str, number: int):
    """The next seat's OK to a hand's settlement, as the page showed it."""
    match = phone.editable(public_id)
    if not TableForm(request.form).validate():
        flash(_("The page was open too long; please try again."))
    else:
        member = member_of(match)
        try:
            match, seat = agreements.confirm(public_id, number, member.id if member else None)
            flash(_("Hand %(n)s confirmed by %(name)s.", n=number, name=match.players[seat]))
        except (matches.Conflict, Refusal, agreements.NotTheirs) as err:
            flash(translate(err.reason))
        except matches.NotFound:
            abort(404)
    return redirect(url_for("pages.match", public_id=match.public_id, _anchor="hand-ok"))


def agreed_line(match: Match) -> str | None:
    """What a printed sheet says of who agreed and when, in the club's time zone; None before anyone agreed."""
    agreed = agreements.agreements(match) if match.club_id is not None else []
    if not agreed:
        return None
    last = max(one.at for one in agreed)
    last = last if last.tzinfo else last.replace(tzinfo=timezone.utc)  # SQLite hands it back without its zone
    zone = results.zone_info(results.zone_of(match.club_id))
    when = format_datetime(last, "d MMM yyyy HH:mm", tzinfo=zone, locale=get_locale())
    return _("Agreed by %(names)s on %(when)s", names=agreements.names(agreed), when=when)


@bp.app_template_global()
def agreement_card(match: Match) -> Markup:
    """The match's agreement and the next seat's OK, under its score sheet (nothing for a casual match)."""
    if match.club_id is None:
        return Markup("")
    played = matches.cached_replay(match)
    agreement = agreements.state_of(match, played)
    unconfirmed = agreements.unconfirmed(match)
    if not agreement.asked and not unconfirmed:
        return Markup("")
    editing = phone.can_edit(match)
    admin = admin_key(match) is not None
    member = member_of(match) if editing else None  # a watcher's page is kept for every watcher: no one's own
    seat = agreements.member_seat(match, member.id) if member is not None else None
    mine = agreements.agreed_seat(match, member.id) if member is not None else None
    first = unconfirmed[0] if unconfirmed else None
    hand = played.hands[first - 1] if first is not None else None
    next_seat = agreements.next_seat(match, hand) if hand else None
    return Markup(render_template(
        "match/_agreement.html", match=match, agreement=agreement, editing=editing, admin=admin, mine=mine,
        amended=amendments.lines_of(match) if agreement.agreed else [],
        seat=seat, member=member, hand=hand, confirmer=match.players[next_seat] if next_seat is not None else None,
        confirming=hand is not None and seat is not None and seat == next_seat,
        waiting=len(unconfirmed), summary=played.summary(), token_form=TableForm()))


@bp.app_template_global()
def not_agreed_count(club: Club) -> int:
    """How many of the club's finished matches are not yet locked by their players' agreement (0: none asked)."""
    return agreements.not_agreed_count(club)


@bp.app_template_global()
def not_agreed(club: Club, played: list[Match]) -> set[int]:
    """Which of these club matches are finished but not yet agreed (row ids), for a mark beside each."""
    return agreements.not_agreed_among(club, played)


@bp.app_template_global()
def change_reason() -> Markup:
    """The Reason field of a hand form, for the admin changing a locked match (nothing otherwise)."""
    public_id = (request.view_args or {}).get("public_id")
    match = matches.find(public_id) if isinstance(public_id, str) else None
    if match is None or match.club_id is None or not agreements.is_locked(match):
        return Markup("")
    sent = request.form.get("reason", "") if request.method == "POST" else ""
    missing = request.method == "POST" and not sent.strip()
    return Markup(render_template("match/_change_reason.html", reason=sent, missing=missing, limit=agreements.REASON_LIMIT,
                                  agreed=agreements.names(agreements.agreements(match))))
