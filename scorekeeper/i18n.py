"""Translations: the locale of each request, and engine reasons in the player's language."""

from __future__ import annotations

from typing import Any

from flask import Flask, request, session
from flask_babel import Babel, get_locale, gettext

from .games import Reason

LANGUAGES = ("en", "fr", "ru")
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "ru": "Русский"}


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
    params: dict[str, Any] = {
        key: translate(value) if isinstance(value, Reason) else value for key, value in reason.params.items()
    }
    return gettext(reason.text).format(**params) if params else gettext(reason.text)


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(translate=translate, languages=LANGUAGE_NAMES, current_language=current_language)


def current_language() -> str:
    return str(get_locale() or LANGUAGES[0])
