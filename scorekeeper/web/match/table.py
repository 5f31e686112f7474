"""At the table: the big-print table view, how a hand was scored, QR codes to join with one scan, a new edit link."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, url_for
from markupsafe import Markup

from ...games.base import Replay
from ...match import matches
from .. import links
from ..api import matches as api
from ..club import agreements as agreement_pages
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
                           can_edit=phone.can_edit(match) and agreement_pages.may_change(match),
                           token_form=TableForm())


@bp.get("/qr/<kind>.svg")
def qr(public_id: str, kind: str):
    """The watch link for anyone; the edit link only for a phone that holds the edit key."""
    return links.qr_code(links.MATCH, public_id, match_or_404(public_id).edit_key_hash, kind)


@bp.get("/key")
def confirm_new_key(public_id: str):
    """Say what a new edit link does before making one: every other phone loses the right to enter hands."""
    match = phone.editable(public_id)
    return links.confirm_page(links.MATCH, public_id, ", ".join(match.players))


@bp.post("/key")
def rotate_key(public_id: str):
    """Replace the edit key once confirmed: links shared before stop working; this phone keeps editing."""
    phone.editable(public_id)
    return links.rotate(links.MATCH, public_id, lambda: matches.rotate_key(public_id))


@bp.app_template_global()
def totals_chart(replay: Replay, title: str) -> Markup:
    """The running totals drawn as SVG, for match pages and printed sheets (names are escaped)."""
    return Markup(charts.match_chart(replay, title))
