"""At the table: the big-print table view, and QR codes that let phones join with one scan."""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, abort, render_template, url_for
from markupsafe import Markup

from .. import charts, matches
from . import api, phone

bp = Blueprint("table", __name__, url_prefix="/m/<public_id>")


@bp.get("/table")
def view(public_id: str):
    """Big totals, who deals, what comes next: for a tablet in the middle of the table."""
    match = matches.find(public_id)
    if match is None:
        abort(404)
    sheet = matches.standings(match)
    return render_template("table.html", match=match, sheet=sheet, summary=sheet.summary(),
                           live_url=url_for("api.read", public_id=public_id), live_etag=f'"{api.etag(match)}"')


@bp.get("/qr/<kind>.svg")
def qr(public_id: str, kind: str):
    """The watch link for anyone; the edit link only for a phone that holds the edit key."""
    match = matches.find(public_id)
    if match is None or kind not in ("watch", "edit"):
        abort(404)
    if kind == "edit":
        key = phone.edit_key(match)
        if key is None:
            abort(403)
        link = url_for("pages.join", public_id=public_id, key=key, _external=True)
    else:
        link = url_for("pages.match", public_id=public_id, _external=True)
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False, dark="#000", light="#fff")
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    # An edit QR holds a key: never keep it in a shared cache.
    response.headers["Cache-Control"] = "private, no-store" if kind == "edit" else "public, max-age=3600"
    return response


@bp.app_template_global()
def totals_chart(match, sheet, title: str) -> Markup:
    """The running totals drawn as SVG, for match pages and printed sheets (names are escaped)."""
    return Markup(charts.match_chart(match.players, sheet.hands, sheet.summary(), title))
