"""At the table: the big-print table view, how a hand was scored, QR codes to join with one scan, a new edit link."""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from ...games.base import Replay
from ...match import matches
from ..api import matches as api
from ..errors import match_or_404
from ..forms import TableForm
from ..games.registry import GAME_PAGES
from ..sheets import charts
from . import phone

bp = Blueprint("table", __name__, url_prefix="/m/<public_id>")


@bp.get("/table")
def view(public_id: str):
    """Big totals, who deals, what comes next: for a tablet in the middle of the table."""
    match = match_or_404(public_id)
    played = matches.cached_replay(match)
    return render_template("match/table.html", match=match, replay=played, summary=played.summary(),
                           live_url=url_for("api.read", public_id=public_id), live_etag=f'"{api.etag(match)}"')


@bp.get("/working/<int:number>")
def working(public_id: str, number: int):
    """How hand number was scored, with the real numbers: for anyone at the table, watchers too."""
    match = match_or_404(public_id)
    played = matches.cached_replay(match)
    if not 1 <= number <= len(played.hands):
        abort(404)
    return render_template(GAME_PAGES[match.game].template("working"), match=match, replay=played,
                           hand=played.hands[number - 1], last=number == len(played.hands),
                           can_edit=phone.can_edit(match), token_form=TableForm())


@bp.get("/qr/<kind>.svg")
def qr(public_id: str, kind: str):
    """The watch link for anyone; the edit link only for a phone that holds the edit key."""
    match = match_or_404(public_id)
    if kind not in ("watch", "edit"):
        abort(404)
    if kind == "edit":
        key = phone.edit_key(match)
        if key is None:
            abort(403)
        link = url_for("pages.join", public_id=public_id, key=key, _external=True)
    else:
        link = url_for("pages.match", public_id=public_id, _external=True)
    return qr_code(link, holds_key=kind == "edit")


def qr_code(link: str, holds_key: bool) -> Response:
    """A link as a QR code (SVG); one that holds a key is never kept in a shared cache."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False, dark="#000", light="#fff")
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-store" if holds_key else "public, max-age=3600"
    return response


@bp.get("/key")
def confirm_new_key(public_id: str):
    """Say what a new edit link does before making one: every other phone loses the right to enter hands."""
    match = phone.editable(public_id)
    return render_template("new_key.html", match=match, token_form=TableForm())


@bp.post("/key")
def rotate_key(public_id: str):
    """Replace the edit key once confirmed: links shared before stop working; this phone keeps editing."""
    match = phone.editable(public_id)
    if not TableForm(request.form).validate():
        flash(_("The page was open too long; please try again."))
    elif request.form.get("confirm") != "yes":
        flash(_("Nothing changed yet: confirm to make a new edit link."))
        return redirect(url_for("table.confirm_new_key", public_id=public_id))
    else:
        phone.remember(match, matches.rotate_key(public_id))
        flash(_("New edit link made. Old edit links no longer work."))
    return redirect(url_for("pages.match", public_id=public_id, _anchor="share"))


@bp.app_template_global()
def totals_chart(replay: Replay, title: str) -> Markup:
    """The running totals drawn as SVG, for match pages and printed sheets (names are escaped)."""
    return Markup(charts.match_chart(replay, title))
