"""A match's archive in the browser: its edit history, and its JSON backup and restore."""

from __future__ import annotations

import json

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import CombinedMultiDict
from wtforms import FileField

from ...match import backup, matches
from ...refusals import Refusal
from ..errors import match_or_404
from ..forms import TableForm
from . import history_lines, phone

bp = Blueprint("archive", __name__)


class RestoreForm(TableForm):
    document = FileField()

    shown_fields = frozenset({"document"})


@bp.get("/m/<public_id>/history")
def history(public_id: str):
    """Every change in words; an editor may put back any hand an undo took away, as the next hand."""
    match = match_or_404(public_id)
    changes = matches.history(match)
    waiting = {change.id for change in matches.waiting_undos(match)} if phone.can_edit(match) else set()
    return render_template("match/history.html", match=match, changes=changes, lines=history_lines.lines,
                           why=history_lines.why, utc=history_lines.utc, who=history_lines.sources(changes, phone.source()),
                           waiting=waiting, next_number=len(match.hands) + 1, token_form=TableForm())


@bp.get("/m/<public_id>/export.json")
def export(public_id: str):
    match = match_or_404(public_id)
    body = json.dumps(backup.export(match), ensure_ascii=False, indent=2)
    filename = f"scorekeeper-{match.game}-{match.public_id}.json"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.route("/import", methods=["GET", "POST"])
def restore():
    form = RestoreForm(CombinedMultiDict([request.form, request.files]) if request.method == "POST" else None)
    if request.method == "POST" and form.validate():
        upload = request.files.get("document")
        try:
            if not upload:  # the form sent without a file chosen
                raise Refusal([("document", _("Choose the backup file to restore first."))])
            document = json.loads(upload.read(2_000_000))
            match, key = backup.restore(document, source=phone.source())
        except (ValueError, UnicodeDecodeError, RecursionError) as err:  # RecursionError: nested too deep
            form.refuse(err if isinstance(err, Refusal) else Refusal(
                [("document", _("This file is not a match exported from Scorekeeper."))]))
        else:
            phone.remember(match, key)
            flash(_("The match was restored as a new match with its own links."))
            return redirect(url_for("pages.match", public_id=match.public_id))
    return render_template("match/import.html", form=form), 422 if request.method == "POST" else 200
