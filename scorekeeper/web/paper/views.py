"""Reading a paper sheet back: the photo's upload, the review of what was read, and its rows saved as hands.

Only a phone that holds the match's edit key reads a sheet, sees its photo and its crops, and saves. Each
row is recorded through the match core as the API records a hand, once per (match, page, row): under the
key "paper:<match>:<page>:<row>" a second photo of the same sheet, or a Save sent again after a lost
answer, adds nothing twice.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext
from werkzeug.datastructures import CombinedMultiDict
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms import FileField

from ...games.base import N_
from ...i18n import translate
from ...match import matches, receipts
from ...models import Match, PaperPhoto
from ...paper import photos, reader, service
from ...refusals import Refusal
from ...render_slots import Busy
from .. import headers
from ..api import matches as api
from ..club import agreements as agreement_pages
from ..forms import TableForm
from ..match import phone
from . import review as rows

bp = Blueprint("paper", __name__)

SOURCE = "paper"  # how the edit history names a hand read from paper ("read from paper")
UPLOAD_LIMIT = photos.MAX_UPLOAD + 64 * 1024  # the largest photo taken in, and room for the form around it
NO_PHOTO = N_("Choose a photo of the sheet first.")
UNDONE_SINCE = N_("Hand {number} was saved from this sheet before and undone since: put it back from the edit "
                  "history.")

bp.add_app_template_global(rows.shown_fields, "paper_fields")


@bp.app_template_global()
def paper_link(match: Match) -> str | None:
    """Where a table's list sends this phone to read its match's paper sheet: only a phone that holds the match's
    edit key, and never on the club page, which is kept for every phone (web/page_cache.py)."""
    if request.endpoint == "clubs.club" or not phone.can_edit(match):
        return None
    return url_for("paper.upload", public_id=match.public_id)


class PhotoForm(TableForm):
    photo = FileField()

    shown_fields = frozenset({"photo"})


@bp.before_app_request
def room_for_a_photo() -> None:
    """Let a photo through the app's small bound on a request's size (before its body is read: slow_phones)."""
    if request.endpoint == "paper.upload" and request.method == "POST":
        request.max_content_length = UPLOAD_LIMIT


def upload_page(match: Match, form: PhotoForm, status: int) -> Response:
    return Response(render_template("paper/upload.html", match=match, form=form, jpeg_quality=photos.QUALITY / 100),
                    status)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(err: RequestEntityTooLarge):  # noqa: ARG001
    """A photo over the bound: the form again, saying so beside the field."""
    form = PhotoForm()
    form.reasons["photo"] = translate(photos.TOO_LARGE)
    return upload_page(phone.editable((request.view_args or {}).get("public_id", "")), form, 413)


@bp.errorhandler(Busy)
def busy(err: Busy):
    """No reading could start in time: 503 with Retry-After, and the form to send the photo again."""
    form = PhotoForm()
    form.form_errors.append(ngettext("Many sheets are being read right now. Please try again in %(num)d second.",
                                     "Many sheets are being read right now. Please try again in %(num)d seconds.",
                                     err.retry_after))
    answer = upload_page(phone.editable((request.view_args or {}).get("public_id", "")), form, 503)
    answer.headers["Retry-After"] = str(err.retry_after)
    return answer


@bp.route("/m/<public_id>/paper", methods=["GET", "POST"])
def upload(public_id: str):
    """Photograph a sheet: read it, keep the photo, then review what was read."""
    match = phone.editable(public_id)
    agreement_pages.refuse_locked(match)
    posted = request.method == "POST"
    form = PhotoForm(CombinedMultiDict([request.form, request.files]) if posted else None)
    if posted and form.validate():
        sent = request.files.get("photo")
        data = sent.read(UPLOAD_LIMIT) if sent else b""
        try:
            if not data:
                raise photos.PhotoRefused(NO_PHOTO)
            photo = service.kept_photo(match, data)
        except (photos.PhotoRefused, reader.Unreadable) as err:
            form.reasons["photo"] = translate(err.sentence)
        else:
            return redirect(url_for("paper.review", public_id=public_id, photo_id=photo.id))
    return upload_page(match, form, 422 if posted else 200)


def photo_of(match: Match, photo_id: int) -> PaperPhoto:
    photo = service.photo_of(match, photo_id)
    if photo is None:
        abort(404)
    return photo


@bp.route("/m/<public_id>/paper/<int:photo_id>", methods=["GET", "POST"])
def review(public_id: str, photo_id: int):
    """What was read, the doubtful rows beside their crops to correct; Save records every row not yet recorded."""
    match = phone.editable(public_id)
    agreement_pages.refuse_locked(match)
    photo = photo_of(match, photo_id)
    posted = request.method == "POST"
    token = TableForm(request.form if posted else None)
    if posted and token.validate():
        stopped = save(match, photo, rows.review_of(match, photo, request.form))
        if stopped is None:
            flash(_("The hands read from paper are saved."))
            return redirect(url_for("pages.match", public_id=public_id))
        shown = rows.review_of(phone.editable(public_id), photo, request.form, stopped[0])
        row, why = stopped
        for item in shown.items:
            if item.row["row"] == row and isinstance(why, Refusal):
                item.refuse(why)
            elif item.row["row"] == row:
                item.error = str(why)
    else:
        if posted:
            token.form_errors.append(_("The page was open too long; please try again."))
        shown = rows.review_of(match, photo, request.form if posted else None)
    return render_template("paper/review.html", match=match, photo=photo, review=shown, token_form=token,
                           deals=match.game == "kozyol"), 422 if posted else 200


def save(match: Match, photo: PaperPhoto, shown: rows.Review) -> tuple[int, Refusal | str] | None:
    """Record each row not yet recorded, in hand order; at the first refusal stop: (its row, why). None: all saved."""
    if shown.missing:
        return shown.items[0].row["row"] if shown.items else 0, shown.missing
    for item in shown.to_save():
        if item.entry is None:
            return item.row["row"], item.error or _("Check this row against the photo.")
        key = f"paper:{match.public_id}:{photo.page}:{item.row['row']}"
        once = receipts.Pending(key, receipts.fingerprint("POST", f"/api/v1/matches/{match.public_id}/hands",
                                                          item.entry),
                                201, lambda found, played, number: jsonify(api.state(found, played)).get_data())
        try:
            matches.record(match.public_id, item.entry, item.row["number"], SOURCE, once,
                           agreement_pages.authority(match, ""))
        except receipts.Replayed:
            if len(matches.entries_of(match)) < item.row["number"]:  # saved from this sheet, undone since
                return item.row["row"], _(UNDONE_SINCE).format(number=item.row["number"])
        except Refusal as err:
            return item.row["row"], err
        except matches.Conflict as err:
            return item.row["row"], translate(err.reason)
    return None


@bp.get("/m/<public_id>/paper/<int:photo_id>/photo.jpg")
def photo(public_id: str, photo_id: int):
    """The photo as kept, only for a phone that holds the edit key."""
    kept = photo_of(phone.editable(public_id), photo_id)
    headers.mark_private()
    return Response(kept.jpeg, mimetype="image/jpeg")


@bp.get("/m/<public_id>/paper/<int:photo_id>/row/<int:row>.png")
def crop(public_id: str, photo_id: int, row: int):
    """A doubtful row's picture, cut from the straightened photo."""
    png = service.crop_of(photo_of(phone.editable(public_id), photo_id).crops, row)
    if png is None:
        abort(404)
    headers.mark_private()
    return Response(png, mimetype="image/png")
