"""Capability links in the browser: what a phone keeps of the links it opened, their QR codes, a new link.

A match's edit link and a club's admin link work alike (scorekeeper/links.py makes and checks them);
a Kind says where a phone keeps each in its sealed session, which pages serve it and what they say.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import segno
from flask import Response, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from ..games.base import N_
from ..links import key_matches, new_key
from .forms import TableForm
from .headers import mark_private
from .session_cookie import in_background


class Words(NamedTuple):
    """What a kind of link's pages say, marked for translation (translated where shown)."""

    secret_label: str
    secret_qr: str
    secret_scan: str
    public_qr: str
    public_scan: str
    public_label: str
    new: str
    ask: str
    revokes: str
    yes: str
    unconfirmed: str
    made: str


@dataclass(frozen=True)
class Kind:
    """One kind of capability link: the session keys a phone keeps it under, its endpoints, its words."""

    name: str  # "match" or "club"
    listed: str  # session key: the public ids this phone opened, the latest first
    keys: str  # session key: the keys this phone holds, by public id
    kept: int  # how many public ids it keeps
    renews: bool  # whether opening the latest one again rewrites the session (its lifetime runs from then)
    secret: str  # the QR code's name for the link that holds the key
    public: str  # and for the link that does not
    opens: str  # endpoint of the public link
    joins: str  # endpoint of the secret link: keeps its key on the phone
    qr: str  # endpoint of both QR codes
    confirm: str  # endpoint of the page that asks before a new key is made
    rotate: str  # endpoint that makes it
    back: str  # where a cancelled or expired confirmation goes ("endpoint#anchor")
    done: str  # where the new link is shown
    words: Words

    def url(self, target: str, public_id: str, **values: str) -> str:
        """The address of one of this kind's pages, given as "endpoint" or "endpoint#anchor"."""
        endpoint, _sep, anchor = target.partition("#")
        return url_for(endpoint, public_id=public_id, _anchor=anchor or None, **values)


MATCH = Kind(
    name="match", listed="matches", keys="keys", kept=30, renews=True, secret="edit", public="watch",
    opens="pages.match", joins="pages.join", qr="table.qr", confirm="table.confirm_new_key",
    rotate="table.rotate_key", back="pages.match#share", done="pages.match#share", words=Words(
        secret_label=N_("Edit link: lets another phone enter hands"), secret_qr=N_("QR code of the edit link"),
        secret_scan=N_("Scan to enter hands"), public_qr=N_("QR code of the watch link"),
        public_scan=N_("Scan to watch"), public_label=N_("Watch link: read-only"),
        new=N_("New edit link"), ask=N_("Make a new edit link?"),
        revokes=N_("Every other phone that entered hands with the current edit link loses access; only this phone "
                   "keeps it. Share the new link with the phones that should go on entering hands."),
        yes=N_("Yes, make a new edit link"), unconfirmed=N_("Nothing changed yet: confirm to make a new edit link."),
        made=N_("New edit link made. Old edit links no longer work.")))
CLUB = Kind(
    name="club", listed="clubs", keys="club_keys", kept=12, renews=False, secret="admin", public="club",
    opens="clubs.club", joins="clubs.join", qr="clubs.qr", confirm="club_admin.confirm_new_link",
    rotate="club_admin.rotate_key", back="club_admin.admin", done="clubs.share", words=Words(
        secret_label=N_("Admin link: runs the club"), secret_qr=N_("QR code of the admin link"),
        secret_scan=N_("Scan to run the club"), public_qr=N_("QR code of the club link"),
        public_scan=N_("Scan to join the club"), public_label=N_("Club link: for the members"),
        new=N_("New admin link"), ask=N_("Make a new admin link?"),
        revokes=N_("Every other phone that opened the current admin link can no longer change the club; only this "
                   "phone keeps it. Members' club link stays the same."),
        yes=N_("Yes, make a new admin link"), unconfirmed=N_("Nothing changed yet: confirm to make a new admin link."),
        made=N_("New admin link made. Old admin links no longer work.")))


class Shown(NamedTuple):
    """A link as a page shows it: its kind, its public id, and the key when this phone holds the current one."""

    kind: Kind
    public_id: str
    key: str | None


def remember(kind: Kind, public_id: str, key: str | None = None) -> None:
    """Put a public id at the top of this phone's list of its kind; keep its key when given.

    A request made in the background is no visit: it never writes the session. It carries the cookie as
    it was when it left, and an answer that arrives after the phone opened another link (its key) or
    chose a language would send that older cookie back and undo them."""
    if key is None and in_background():
        return
    if key is None and not kind.renews and session.get(kind.listed, [None])[0] == public_id:
        return  # already on top: the session is not written again, nor its cookie signed and sent
    recent = [pid for pid in session.get(kind.listed, []) if pid != public_id]
    session[kind.listed] = [public_id, *recent][:kind.kept]
    keys = {pid: k for pid, k in session.get(kind.keys, {}).items() if pid in session[kind.listed]}
    if key is not None:
        keys[public_id] = key
    session[kind.keys] = keys
    session.permanent = True


PHONE_KEY = "phone"  # session key: the phone's own random key (an "Agreed", an evening's answer)


def phone_key(make: bool = True) -> str | None:
    """This phone's own random key, kept in its session: what a phone's answer (an "Agreed") is known by.

    Made on first use; with make=False, None for a phone that has none yet (its session is left as it is).
    """
    if not isinstance(session.get(PHONE_KEY), str):
        if not make:
            return None
        session[PHONE_KEY] = new_key()
        session.permanent = True
    return session[PHONE_KEY]


def opened(kind: Kind) -> list[str]:
    """The public ids of this kind that this phone opened, the latest first."""
    return list(session.get(kind.listed, []))


def holds_key(kind: Kind, public_id: str) -> bool:
    """Whether this phone keeps a key for the id (the current one or not)."""
    return public_id in session.get(kind.keys, {})


def holds_current(kind: Kind, public_id: str, stored_hash: str) -> bool:
    """Whether the key this phone keeps for the id is the link's current one."""
    return key_matches(stored_hash, session.get(kind.keys, {}).get(public_id))


def current_key(kind: Kind, public_id: str, stored_hash: str) -> str | None:
    """The current key if this phone holds it, for an answer that shows it (which is then never cached)."""
    if not holds_current(kind, public_id, stored_hash):
        return None
    mark_private()
    return session[kind.keys][public_id]


def qr_code(kind: Kind, public_id: str, stored_hash: str, which: str) -> Response:
    """The public link as a QR code (SVG) for anyone; the secret one only for a phone that holds its key."""
    if which == kind.secret:
        key = current_key(kind, public_id, stored_hash)
        if key is None:
            abort(403)
        link = url_for(kind.joins, public_id=public_id, key=key, _external=True)
    elif which == kind.public:
        link = url_for(kind.opens, public_id=public_id, _external=True)
    else:
        abort(404)
    response = Response(qr_svg(link), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-store" if which == kind.secret else "public, max-age=3600"
    return response


def qr_svg(link: str, scalable: bool = False) -> bytes:
    """A link as a QR code, an SVG document; scalable: without a size of its own, sized where it is drawn."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False, dark="#000", light="#fff",
                                     omitsize=scalable)
    return out.getvalue()


def confirm_page(kind: Kind, public_id: str, name: str) -> str:
    """The page that says what a new link does before one is made."""
    return render_template("links/new_key.html", link=kind, public_id=public_id, name=name, token_form=TableForm())


def rotate(kind: Kind, public_id: str, new_key: Callable[[], str]) -> Response:
    """Make a new key once confirmed (links shared before stop working) and keep it on this phone."""
    if not TableForm(request.form).validate():
        flash(_("The page was open too long; please try again."))
        return redirect(kind.url(kind.back, public_id))
    if request.form.get("confirm") != "yes":
        flash(_(kind.words.unconfirmed))
        return redirect(kind.url(kind.confirm, public_id))
    remember(kind, public_id, new_key())
    flash(_(kind.words.made))
    return redirect(kind.url(kind.done, public_id))
