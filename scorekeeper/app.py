"""The application factory."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Flask

from . import cli, config, i18n, logs
from .club import (
    agreements as club_agreements,
    closed_evenings,
    evening_results as club_evening_results,
    playing as club_playing,
    results as club_results,
)
from .db import db, migrate, prepare
from .match import matches
from .web import (
    compression,
    errors,
    headers,
    hosts,
    installable,
    rate_limits,
    session_cookie,
    slow_phones,
    static_files,
)
from .web.api import (
    club_playing as club_playing_api,
    clubs as club_api,
    evening_results as evening_results_api,
    matches as api,
    openapi,
    poll,
)
from .web.club import (
    admin as club_admin,
    evening_results as club_results_pages,
    evenings as club_evenings,
    members as club_members,
    night as club_night,
    pages as club_pages,
    playing as club_playing_pages,
    rounds as club_rounds,
    screen as club_screen,
    season_days as club_season_days,
    table_cards as club_table_cards,
)
from .web.club.agreements import bp as club_agreements_bp
from .web.match import archive, hands, pages, table
from .web.paper import views as paper_pages
from .web.rules import views as rules
from .web.sheets import paper as paper_sheet, views as sheets


def create_app(test_config: Mapping[str, object] | None = None) -> Flask:
    """Create the app: settings, database, translations, pages and API."""
    app = Flask(
        __name__,
        instance_path=config.instance_path(),
        template_folder=str(config.ROOT / "templates"),
        static_folder=str(config.ROOT / "static"),
        static_url_path=static_files.url_path(config.ROOT / "static"),  # /static/<build>: kept a year
    )
    config.configure(app, test_config)
    logs.init_app(app)
    db.init_app(app)
    migrate.init_app(app, db, directory=str(config.ROOT / "migrations"))
    i18n.init_app(app)
    matches.listen(app, club_results.keep)  # a club match's result row is written with each of its writes
    matches.listen(app, club_agreements.forget)  # a change to a match agreed but not locked clears its agreements
    matches.listen(app, closed_evenings.retake)  # the admin's change to a closed evening's match: its places again
    matches.guard(app, club_agreements.check)  # an agreed match takes a change only from its club's admin
    matches.guard(app, club_evening_results.check)  # so does a match of a closed evening
    matches.guard(app, club_playing.check)  # and the match of a table that ended when a player left
    session_cookie.init_app(app)
    hosts.init_app(app)  # first of the hooks: nothing builds a link for a Host this server does not answer to
    static_files.init_app(app)
    compression.init_app(app)  # its after-request hook runs after all but the above: the others see the plain body
    for blueprint in (pages.bp, hands.bp, archive.bp, table.bp, sheets.bp, paper_sheet.bp, rules.bp, api.bp,
                      openapi.bp, installable.bp, club_pages.bp, club_admin.bp, club_evenings.bp, club_night.bp,
                      club_members.bp, club_rounds.bp, club_playing_pages.bp, club_screen.bp, club_season_days.bp,
                      club_agreements_bp, club_table_cards.bp, club_results_pages.bp, club_api.bp,
                      evening_results_api.bp, club_playing_api.bp, paper_pages.bp):
        app.register_blueprint(blueprint)
    errors.init_app(app)
    headers.init_app(app)
    poll.init_app(app)  # before the proxy fix wraps the app: the poll sees the phone's scheme
    rate_limits.init_app(app)  # registered after headers, so runs before them: its 429s get them too
    slow_phones.init_app(app)
    cli.init_app(app)
    prepare(app)
    return app
