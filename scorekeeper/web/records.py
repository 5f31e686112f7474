"""A match's records in the browser: edit history, JSON backup and restore, a new edit key."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import CombinedMultiDict
from wtforms import FileField

from .. import backup, matches
from ..games import InvalidHand
from . import phone
from .forms import TableForm

bp = Blueprint("records", __name__)


class RestoreForm(TableForm):
    document = FileField()

    shown_fields = frozenset({"document"})


@bp.get("/m/<public_id>/history")
def history(public_id: str):
    match = matches.find(public_id)
    if match is None:
        abort(404)
    return render_template("history.html", match=match, changes=matches.history(match))


@bp.get("/m/<public_id>/export.json")
def export(public_id: str):
    match = matches.find(public_id)
    if match is None:
        abort(404)
    body = json.dumps(backup.export(match), ensure_ascii=False, indent=2)
    filename = f"scorekeeper-{match.game}-{match.public_id}.json"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.route("/import", methods=["GET", "POST"])
def restore():
    form = RestoreForm(CombinedMultiDict([request.form, request.files]) if request.method == "POST" else None)
    if request.method == "POST" and form.validate():
        try:
            upload = request.files.get("document")
            document = json.loads(upload.read(2_000_000)) if upload else None
            match, key = backup.restore(document, source=phone.source())
        except (ValueError, UnicodeDecodeError, RecursionError) as err:  # RecursionError: nested too deep
            form.refuse(err if isinstance(err, InvalidHand) else InvalidHand(
                [("document", _("This file is not a match exported from Scorekeeper."))]))
        else:
            phone.remember(match, key)
            flash(_("The match was restored as a new match with its own links."))
            return redirect(url_for("pages.match", public_id=match.public_id))
    return render_template("import.html", form=form), 422 if request.method == "POST" else 200


@bp.post("/m/<public_id>/key")
def rotate_key(public_id: str):
    """Replace the edit key: links shared before stop working; this phone keeps editing."""
    match = phone.editable(public_id)
    if TableForm(request.form).validate():
        phone.remember(match, matches.rotate_key(public_id))
        flash(_("New edit link made. Old edit links no longer work."))
    else:
        flash(_("The page was open too long; please try again."))
    return redirect(url_for("pages.match", public_id=public_id, _anchor="share"))
