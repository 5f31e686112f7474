"""The app on the home screen and off the network: its manifest, its service worker, its offline page.

"Add to Home Screen" reads the manifest and opens the app without the browser's bars. The service
worker (static/sw.js) is served from the site root so that its scope is the whole app; browsers
run it only over HTTPS or on localhost. Every page works without either. The pages' scripts are
ES modules (static/js/): the worker keeps them all, and each page asks at once for those it imports.
"""

from __future__ import annotations

import functools
import json
import posixpath
import re

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, send_from_directory, url_for
from flask_babel import force_locale, get_locale, gettext as _, ngettext

from .. import i18n
from ..config import ROOT
from . import static_files

bp = Blueprint("installable", __name__)

# The page's background and the top bar of static/style.css (light), for the splash screen and the bars.
BACKGROUND = "#f6f4ef"
THEME = "#ffffff"
ICONS = (("icons/icon-192.png", 192, "any"), ("icons/icon-512.png", 512, "any"),
         ("icons/maskable-512.png", 512, "maskable"))
STATIC = ROOT / "static"
FAVICON_MAX_AGE = 7 * 24 * 3600  # its address never changes, so a week, not forever: a new icon shows within it
WORKER = STATIC / "sw.js"
# Where the worker's source takes the list of files it keeps when it installs (shell() below).
SHELL_HERE = b"[/* the app's files */]"
BUILD_HERE = b'"/* the build */"'  # and the static folder's build
# How a module names another: import x from "./a.js", import "../b.js", export { c } from "./c.js".
IMPORTS = re.compile(r"""^\s*(?:import\s*|(?:import|export)\b[^"';]*?\bfrom\s*)["']([^"']+)["']""", re.M)
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


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The app's icon where browsers look for it without asking the page (tabs, bookmarks, history)."""
    response = send_from_directory(STATIC / "icons", "favicon.ico", mimetype="image/vnd.microsoft.icon",
                                   max_age=FAVICON_MAX_AGE)
    return response


@bp.get("/sw.js")
def worker() -> Response:
    """The service worker, from the root: its scope is every page of the app."""
    source = (WORKER.read_bytes().replace(SHELL_HERE, json.dumps(shell()).encode(), 1)
              .replace(BUILD_HERE, json.dumps("" if current_app.debug else
                                              static_files.build_in(url_for("static", filename=""))).encode(), 1))
    response = Response(source, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # a new version reaches the phones at their next visit
    return response


def shell() -> list[str]:
    """What every page needs offline, for the worker to keep when it installs: style, modules, icon, offline page
    (in the language of the phone, and in each language, for a phone that reads another one later)."""
    modules = sorted(path.relative_to(STATIC).as_posix() for path in (STATIC / "js").rglob("*.js"))
    files = ["style.css", *modules, ICONS[0][0]]
    return [*(url_for("static", filename=name) for name in files), url_for("installable.offline"),
            *(url_for("installable.offline_in", code=code) for code in i18n.LANGUAGES)]


def imports_of(module: str) -> list[str]:
    """The modules a module of static/ imports, as static/ paths ("js/main.js"), in the order it names them."""
    folder = posixpath.dirname(module)
    return [posixpath.normpath(posixpath.join(folder, name)) for name in IMPORTS.findall((STATIC / module).read_text())]


@bp.app_template_global()
@functools.cache
def imported_by(module: str) -> tuple[str, ...]:
    """Every module a page's module imports, at any depth: the page asks for them all at once (modulepreload)."""
    found: list[str] = []
    waiting = imports_of(module)
    while waiting:
        name = waiting.pop(0)
        if name not in found and name != module and (STATIC / name).is_file():
            found.append(name)
            waiting.extend(imports_of(name))
    return tuple(found)


@bp.get("/offline")
def offline() -> str:
    """What the service worker shows for a page this phone has not kept, while the server cannot be reached."""
    return render_template("offline.html")


@bp.get("/offline/<code>")
def offline_in(code: str) -> str:
    """The offline page in a language of the app: the worker shows the one of the page the phone kept last."""
    if code not in i18n.LANGUAGES:
        abort(404)
    with force_locale(code):
        return render_template("offline.html")


@bp.app_template_global()
def waiting_sentences() -> dict[str, str]:
    """'{n} hands waiting to send' per plural category of the reader's language, for the outbox (static/js/outbox/panel.js).

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
