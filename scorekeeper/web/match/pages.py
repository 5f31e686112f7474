"""Pages: home, a new match, the match's score sheet, joining by edit link."""

from __future__ import annotations

import re

import regex
from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import get_locale, gettext as _

from ... import names
from ...club import service as clubs
from ...games import GAMES
from ...games.base import winners_of
from ...i18n import LANGUAGE_NAMES, translate
from ...match import matches
from ...models import Match
from ...refusals import Refusal
from .. import compression
from ..api import matches as api
from ..club import agreements as agreement_pages
from ..errors import STALE_LINK, json_error, match_or_404, refused_editing, unavailable_form, wants_json
from ..forms import TableForm
from ..games.pages import template as game_template
from ..games.registry import GAME_PAGES, RULES
from ..page_cache import SharedPages, kept_address
from ..redirects import local_path
from ..sheets.lines import width
from . import phone

bp = Blueprint("pages", __name__)
WATCHED = SharedPages()
INITIALS = 2  # letters of a name that mark a double on the score sheet


bp.add_app_template_global(game_template, "game_template")  # {% include game_template(slug, "new") %}


@bp.app_template_filter("initials")
def initials(name: str) -> str:
    """The first letters of a name, to mark whom a player doubled: whole letters, a syllable with its marks."""
    return names.initials(name, INITIALS)


# The longest words a name's box is sized for (static/style.css .fit-N): its type shrinks to fit the one it gets.
WORD_FITS = (12, 14, 16, 18, 20, 23, 26, 30, 35, 40)


# Scripts written without spaces between words, which a browser breaks where its dictionary finds a word.
DICTIONARY_BROKEN = regex.compile(r"[\p{Khmer}\p{Lao}\p{Thai}\p{Myanmar}\p{Tai_Tham}\p{New_Tai_Lue}\p{Tai_Viet}]")


@bp.app_template_filter("fit_class")
def fit_class(name: str) -> str:
    """The class that sizes a name's box for its longest word, with its leading space to follow the box's others;
    "" for words that fit as they are (up to 11 letters). A name breaks between its words and after its hyphens,
    never inside a word; a wide letter counts twice. A name in a script written without spaces (Khmer, Lao, Thai)
    is also "unbroken": one line, sized as a whole (a browser would break it wherever its dictionary finds a word).

    >>> fit_class("Ann & Bob"), fit_class("Fyodor Dostoyevsky-Karamazov"), fit_class("Константинопольская и Bob")
    ('', ' fit-12', ' fit-20')
    >>> fit_class("ស្រីពៅ"), fit_class("ស្រីពៅ" * 6 + " ស្រីពៅ")
    (' unbroken', ' fit-16 unbroken')
    """
    unbroken = DICTIONARY_BROKEN.search(name) is not None
    words = [name] if unbroken else re.split(r"\s+|(?<=-)", name)
    longest = max((width(word) for word in words), default=0)
    fit = f" fit-{next((fit for fit in WORD_FITS if fit >= longest), WORD_FITS[-1])}" if longest >= WORD_FITS[0] else ""
    return fit + (" unbroken" if unbroken else "")


@bp.app_context_processor
def vocabulary() -> dict[str, object]:
    """The games' numbers and names that every template may show: ``rules.barbu.hands``."""
    return {"rules": RULES, "contract_titles": RULES["barbu"]["titles"], "leading": winners_of}


@bp.get("/")
def home():
    return render_template("home.html", games=GAMES, mine=phone.remembered())


@bp.route("/new/<game>", methods=["GET", "POST"])
def new_match(game: str):
    if game not in GAME_PAGES:
        abort(404)
    form = GAME_PAGES[game].new_match_form(request.form if request.method == "POST" else None)
    if request.method == "POST" and form.validate():
        try:
            match, key = matches.create(game, form.names(), form.options(), language=form.language.data)
        except Refusal as err:
            form.refuse(err)
        except matches.Unavailable as err:
            form.form_errors.append(translate(err.reason))
            return unavailable_form(render_template("match/new.html", game=GAMES[game], form=form), err)
        else:
            phone.remember(match, key)
            return redirect(url_for("pages.match", public_id=match.public_id))
    status = 422 if request.method == "POST" else 200
    return render_template("match/new.html", game=GAMES[game], form=form), status


@bp.get("/m/<public_id>")
def match(public_id: str):
    version = matches.version_of(public_id)
    if version is None:
        abort(404)
    phone.remember_id(public_id)  # not from a request made in the background (links.remember)
    if phone.holds_key(public_id) or session.get("_flashes"):
        return match_page(matches.find(public_id))  # this phone's own key, form token or message
    # A watcher gets the page kept for this version, language and address (see page_cache.py).
    # Drawn once per version for every worker of the machine: a table's phones sit on different workers.
    address, shared = kept_address()  # the page shows its watch link: by address, shared only when known
    slot = (public_id, str(get_locale()), address)
    shown = (version, clubs.version_of_club_of(public_id))  # and what its club decides, when it has one
    compression.compressed_as(repr((slot, shown)))  # the same bytes for every watcher: compressed once
    return WATCHED.fetch(slot, shown, lambda: match_page(match_or_404(public_id)).encode(), shared)


def match_page(found: Match) -> str:
    played = matches.cached_replay(found)
    editing = phone.can_edit(found) and agreement_pages.may_change(found)  # a locked match: its club's admin only
    return render_template(
        GAME_PAGES[found.game].template("match"), match=found, replay=played, summary=played.summary(),
        can_edit=editing, shown=phone.shown(found), token_form=TableForm(),
        undone=matches.undone(found) if editing else None,
        live_url=url_for("api.read", public_id=found.public_id), live_etag=f'"{api.etag(found)}"',
    )


@bp.get("/m/<public_id>/join")
def join(public_id: str):
    """Keep the edit key from a shared link on this phone, then drop it from the address bar."""
    found = match_or_404(public_id)
    key = request.args.get("key", "")
    if not matches.key_matches(found, key):
        refused_editing(found, STALE_LINK)
    phone.remember(found, key)
    return redirect(url_for("pages.match", public_id=public_id))


@bp.app_errorhandler(matches.Damaged)
def damaged(err: matches.Damaged):
    """A stored match the rules refuse: 409 saying which hand and why; a phone that edits may correct that hand."""
    message = translate(err.reason)
    if wants_json():
        return json_error(409, message)
    found = matches.find(err.public_id)
    correct_url = None
    if found is not None and err.number is not None and phone.can_edit(found):
        correct_url = url_for("hands.edit", public_id=found.public_id, number=err.number)
    return render_template("error.html", status=409, message=message, correct_url=correct_url,
                           correct_text=_("Correct hand %(n)s", n=err.number)), 409


@bp.get("/language/<code>")
def language(code: str):
    """Remember the phone's language choice, then go back to where the player was."""
    if code in LANGUAGE_NAMES:
        session["lang"] = code
        session.permanent = True
    return redirect(local_path(request.args.get("next")) or url_for("pages.home"))
