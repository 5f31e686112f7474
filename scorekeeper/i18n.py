"""Translations: the locale of each request, and engine reasons in the player's language."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from babel.dates import get_period_names
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, has_request_context, request, session
from flask_babel import Babel, get_locale, gettext

from . import collation
from .config import ROOT
from .games import Reason

CATALOGS = ROOT / "translations"

LANGUAGES = ("en", "fr", "ru", "km", "lo")
# Each language in its own words (the switcher, the sheet's language menu). A language is offered once it is in
# LANGUAGES, with its catalog in translations/<code>/.
NAMES = {"en": "English", "fr": "Français", "ru": "Русский", "km": "ខ្មែរ", "lo": "ລາວ"}
LANGUAGE_NAMES = {code: NAMES[code] for code in LANGUAGES}


def select_locale() -> str:
    """The language the phone chose, else the browser's preference, else English."""
    chosen = session.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def translate(reason: Reason | str) -> str:
    """Translate an engine reason (or plain text), filling in its values."""
    if not isinstance(reason, Reason):
        return gettext(reason)
    params: dict[str, object] = {
        key: translate(value) if isinstance(value, Reason) else value for key, value in reason.params.items()
    }
    return gettext(reason.text).format(**params) if params else gettext(reason.text)


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(translate=translate, languages=LANGUAGE_NAMES, current_language=current_language,
                                 day_periods=day_periods)
    app.jinja_env.filters.update(by_name=by_name, ties_by_name=ties_by_name)


def current_language() -> str:
    """The language of this request; English outside one (a command, a worker's own job)."""
    return str(get_locale() or LANGUAGES[0]) if has_request_context() else LANGUAGES[0]


def day_periods() -> dict[str, str]:
    """The words of the request's language for the hours before and after noon, for the scripts that write a phone's
    own times (static/js/times.js): a browser may have no words of its own for every language of the app.

    >>> day_periods()
    {'am': 'AM', 'pm': 'PM'}
    """
    names = get_period_names("abbreviated", "format", current_language())
    return {period: str(names.get(period, period.upper())) for period in ("am", "pm")}


def by_name(names: Iterable[str]) -> list[str]:
    """Names in the order of the request's language ("Sitting out: Éloïse, Maximilian")."""
    return collation.by_name(names, current_language())


def ties_by_name(rows: Iterable[Any], names: Mapping[int, str] | None = None) -> list[Any]:
    """Standings rows (with .player and .place, or .name) as shown: players sharing a place, or a provisional place
    while they are not yet ranked, by name."""
    def name(row: Any) -> str:
        return names.get(row.player, "?") if names is not None else str(row.name)

    def place(row: Any) -> tuple[bool, int] | None:
        shown = row.place if row.ranked else getattr(row, "provisional", None)
        return None if shown is None else (row.ranked, shown)

    return collation.ties_by_name(rows, current_language(), name, place)


def compile_catalogs(folder: Path = CATALOGS) -> list[Path]:
    """Compile every messages.po whose .mo is missing or older; return the .mo files written.

    The .mo files are built, not committed: manage.py and the test session call this first.
    Each is written beside and then renamed, so a server or test starting meanwhile never
    reads half a catalog.
    """
    written = []
    for po in sorted(folder.glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source)
        partial = mo.with_name(f".{mo.name}.{os.getpid()}")
        with partial.open("wb") as target:
            write_mo(target, catalog)
        os.replace(partial, mo)
        written.append(mo)
    return written
