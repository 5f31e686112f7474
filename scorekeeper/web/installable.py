"""The app on the home screen and off the network: its manifest, its service worker, its offline page.

"Add to Home Screen" reads the manifest and opens the app without the browser's bars. The service
worker (static/sw.js) is served from the site root so that its scope is the whole app; browsers
run it only over HTTPS or on localhost. Every page works without either.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, url_for
from flask_babel import get_locale, gettext as _, ngettext

from ..config import ROOT

bp = Blueprint("installable", __name__)

# The page's background and the top bar of static/style.css (light), for the splash screen and the bars.
BACKGROUND = "#f6f4ef"
THEME = "#ffffff"
ICONS = (("icons/icon-192.png", 192, "any"), ("icons/icon-512.png", 512, "any"),
         ("icons/maskable-512.png", 512, "maskable"))
WORKER = ROOT / "static" / "sw.js"
PLURAL_SAMPLES = 200  # counts that show every plural category of a language (a million's "many" aside)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    response = jsonify({
        "name": _("Scorekeeper"), "short_name": _("Scorekeeper"), "lang": str(get_locale() or "en"),
        "description": _("Keeps score at the card table: Barbu, Kozyol, Cancellation Hearts."),
        "start_url": url_for("pages.home"), "scope": url_for("pages.home"), "id": url_for("pages.home"),
        "display": "standalone", "background_color": BACKGROUND, "theme_color": THEME,
        "icons": [{"src": url_for("static", filename=path), "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": purpose} for path, size, purpose in ICONS],
    })
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def worker() -> Response:
    """The service worker, from the root: its scope is every page of the app."""
    response = Response(WORKER.read_bytes(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # a new version reaches the phones at their next visit
    return response


@bp.get("/offline")
def offline() -> str:
    """What the service worker shows for a page this phone has not kept, while the server cannot be reached."""
    return render_template("offline.html")


@bp.app_template_global()
def waiting_sentences() -> dict[str, str]:
    """'{n} hands waiting to send' per plural category of the reader's language, for static/app.js.

    The script picks the category of its count with Intl.PluralRules, as CLDR names them (one, few,
    many, other); each sentence is the catalog's own plural form for the first count in that category.
    """
    locale = get_locale()
    sentences: dict[str, str] = {}
    for count in range(PLURAL_SAMPLES):
        category = locale.plural_form(count) if locale else "other"
        if category not in sentences:
            sentence = ngettext("%(num)d hand waiting to send", "%(num)d hands waiting to send", count)
            sentences[category] = sentence.replace(str(count), "{n}", 1)
    return sentences
