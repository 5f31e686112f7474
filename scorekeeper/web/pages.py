"""Pages: home, a new match, the match's score sheet, joining by edit link."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, session, url_for

from .. import matches
from ..games import GAMES, InvalidHand, barbu
from ..i18n import LANGUAGE_NAMES
from . import phone
from .forms import TableForm
from .games import ENTRY_FORMS, new_match_form

bp = Blueprint("pages", __name__)


@bp.app_context_processor
def vocabulary() -> dict[str, object]:
    """Names of the games' parts that every template may show."""
    return {"contract_titles": barbu.CONTRACT_TITLES}


@bp.get("/")
def home():
    return render_template("home.html", games=GAMES, mine=phone.remembered())


@bp.route("/new/<game>", methods=["GET", "POST"])
def new_match(game: str):
    if game not in ENTRY_FORMS:
        abort(404)
    form = new_match_form(game, request.form if request.method == "POST" else None)
    if request.method == "POST" and form.validate():
        try:
            match, key = matches.create(game, form.names(), form.options(), language=form.language.data)
        except InvalidHand as err:
            form.refuse(err)
        else:
            phone.remember(match, key)
            return redirect(url_for("pages.match", public_id=match.public_id))
    status = 422 if request.method == "POST" else 200
    return render_template("new_match.html", game=GAMES[game], form=form), status


@bp.get("/m/<public_id>")
def match(public_id: str):
    found = matches.find(public_id)
    if found is None:
        abort(404)
    phone.remember(found)
    sheet = matches.standings(found)
    return render_template(
        f"match/{found.game}.html", match=found, sheet=sheet, summary=sheet.summary(),
        can_edit=phone.can_edit(found), edit_key=phone.edit_key(found), token_form=TableForm(),
        live_url=url_for("api.read", public_id=public_id),
    )


@bp.get("/m/<public_id>/join")
def join(public_id: str):
    """Keep the edit key from a shared link on this phone, then drop it from the address bar."""
    found = matches.find(public_id)
    if found is None:
        abort(404)
    key = request.args.get("key", "")
    if not matches.key_matches(found, key):
        abort(403)
    phone.remember(found, key)
    return redirect(url_for("pages.match", public_id=public_id))


@bp.get("/language/<code>")
def language(code: str):
    """Remember the phone's language choice, then go back to where the player was."""
    if code in LANGUAGE_NAMES:
        session["lang"] = code
        session.permanent = True
    back = request.args.get("next", "")
    if not back.startswith("/") or back.startswith("//") or "\\" in back:
        back = url_for("pages.home")
    return redirect(back)
