"""Who a phone is at a club: a member proves it with the personal link the club's admin gave them.

A club has no accounts and its link is public, so a name a phone picks proves nothing. The admin issues
each roster player a member link from the roster (a capability link like the admin's: only the hash of
its key is stored, a new one replaces the old). The phone that opens it keeps the key in its sealed
session and is that player at the club from then on: its "I'm in" counts for the draw, it may open its
table at an evening, agree to a match it sat at and give the next seat's OK to a hand. Through the API
the same key goes in the ``Club-Member-Key`` header. Everything else a club link offers stays public.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from ...club import roster, service as clubs
from ...games.base import N_
from ...i18n import translate
from ...match import matches
from ...models import Club, ClubPlayer
from ...refusals import Refusal
from .. import links
from ..errors import error_page
from ..forms import TableForm
from ..headers import mark_private
from . import phone as club_phone

bp = Blueprint("members", __name__, url_prefix="/c/<public_id>")
MEMBERS = "members"  # session key: the member key this phone holds, by club public id
HEADER = "Club-Member-Key"  # the API's: a member's key, sent by that member's own client
STALE = N_("This member link no longer works: the club's organiser made a new one. Ask them for yours.")


def key_held(public_id: str) -> str | None:
    """The member key this phone keeps for the club (current or not), or the API client's header."""
    sent = request.headers.get(HEADER, "").strip()
    if sent:
        return sent
    found = session.get(MEMBERS, {}).get(public_id)
    return found if isinstance(found, str) else None


def proven(club: Club) -> ClubPlayer | None:
    """The roster player this phone (or API client) proved it is at the club with its member link; None if none.

    Read once a request: pages ask several times (the card, the seat line, the agreement)."""
    asked = g.setdefault("members_proven", {})
    if club.id not in asked:
        key = key_held(club.public_id)
        asked[club.id] = roster.member_by_key(club, key) if key else None
    return asked[club.id]


def proven_id(club: Club | None) -> int | None:
    """proven()'s player id (None for no club)."""
    player = proven(club) if club is not None else None
    return player.id if player is not None else None


def proven_in(public_id: str) -> int | None:
    """proven_id() by the club's public id (None for no such club); a phone holding no member key costs no read."""
    return proven_id(clubs.find(public_id)) if key_held(public_id) else None


def keep(club: Club, key: str | None) -> None:
    """Keep (or with None forget) this phone's member key for the club; only clubs this phone lists are kept."""
    listed = set(links.opened(links.CLUB)) | {club.public_id}
    kept = {pid: held for pid, held in session.get(MEMBERS, {}).items() if pid in listed and pid != club.public_id}
    if key is not None:
        kept[club.public_id] = key
    session[MEMBERS] = kept
    session.permanent = True
    g.pop("members_proven", None)


@bp.get("/member/<key>")
def join(public_id: str, key: str):
    """A member's own link: this phone is that player at the club from now on; the key leaves the address bar."""
    club = club_phone.club_or_404(public_id)
    player = roster.member_by_key(club, key)
    if player is None:
        abort(error_page(403, _(STALE), correct_url=url_for("clubs.club", public_id=public_id),
                         correct_text=_("Open the club")))
    club_phone.remember(club)
    keep(club, key)
    flash(_("This phone is %(name)s at %(club)s.", name=player.name, club=club.name))
    return redirect(url_for("clubs.club", public_id=public_id, _anchor="next-evening"))


@bp.post("/admin/players/member-link")
def issue(public_id: str):
    """The admin makes a player's member link (a new one replaces the old) and sees it with its QR code."""
    club = club_phone.administered(public_id)
    form = TableForm(request.form)
    if not form.validate():
        flash(_("The page was open too long; please try again."))
        return redirect(url_for("club_admin.members_page", public_id=public_id, _anchor="members"))
    try:
        player, key = roster.issue_member_key(club, request.form.get("player"))
    except matches.NotFound:  # the player left the roster since
        flash(_("That player is no longer on the roster."))
        return redirect(url_for("club_admin.members_page", public_id=public_id, _anchor="members"))
    link = url_for("members.join", public_id=public_id, key=key, _external=True)
    mark_private()
    return render_template("club/member_link.html", club=club, player=player, link=link,
                           qr=links.qr_svg(link, scalable=True).decode())


@bp.post("/admin/players/keep")
def keep_guest(public_id: str):
    """The admin keeps a guest (a name a stranger's match brought) as a member of the roster."""
    club = club_phone.administered(public_id)
    if not TableForm(request.form).validate():
        flash(_("The page was open too long; please try again."))
    else:
        try:
            player = roster.keep_guest(club, request.form.get("player"))
            flash(_("%(name)s is a member of the roster.", name=player.name))
        except matches.NotFound:
            flash(_("That player is no longer on the roster."))
    return redirect(url_for("club_admin.members_page", public_id=public_id, _anchor="members"))


@bp.post("/admin/matches/delete")
def delete_match(public_id: str):
    """The admin deletes a club match someone who is not a member started, and the guests it brought."""
    club = club_phone.administered(public_id)
    if not TableForm(request.form).validate():
        flash(_("The page was open too long; please try again."))
    elif request.form.get("confirm") != "yes":
        flash(_("Nothing deleted: tick \"Yes, delete it\" beside the match first."))
    else:
        try:
            gone = clubs.delete_strangers_match(club, request.form.get("match"))
        except matches.NotFound:
            flash(_("That match is no longer the club's."))
        except Refusal as err:
            flash(translate(err.reason))
        else:
            flash(_("Match deleted; the guests it brought left the roster: %(names)s.", names=", ".join(gone))
                  if gone else _("Match deleted."))
    return redirect(url_for("club_admin.members_page", public_id=public_id, _anchor="strangers"))
