"""Command line: export a score sheet as PDF.

    flask --app scorekeeper.app:create_app sheet MATCH_ID -o sheet.pdf
    flask --app scorekeeper.app:create_app sheet -o sheet.pdf -- -Q2x...   (an older id starting with "-")
    flask --app scorekeeper.app:create_app sheet --blank barbu --players "Ann,Bob,Cid,Dee" -o blank.pdf

And the clubs' stored figures: make every club match's digest again from its hands.

    flask --app scorekeeper.app:create_app club rebuild-digests

And a whole server's backup, taken while it runs, and its restore (scorekeeper/backups.py):

    flask --app scorekeeper.app:create_app backup /mnt/usb/scorekeeper
    flask --app scorekeeper.app:create_app restore /mnt/usb/scorekeeper/scorekeeper-backup-20261206T230000Z
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext
from werkzeug.datastructures import MultiDict

from .club import results as club_results
from .games import GAMES
from .match import matches
from .pdf import render_pdf
from .refusals import Refusal
from .web.sheets import views as sheets  # the same template and context as the sheet's page


@click.command("sheet")
@click.argument("match_id", required=False)
@click.option("--blank", "game", type=click.Choice(list(GAMES)), help="A blank sheet of this game instead.")
@click.option("--players", default="", help="Blank sheet: names to print in, comma separated, in seat order.")
@click.option("--seats", default="", help="Blank Hearts sheet without names: the number of players.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the PDF ('-' for standard output); default <game>-<id>.pdf here.")
@with_appcontext
def sheet(match_id: str | None, game: str | None, players: str, seats: str, output: Path | None) -> None:
    """Write the score sheet of MATCH_ID (or a blank one with --blank GAME) as PDF.

    An id made before ids stopped starting with "-" goes after "--": sheet -o out.pdf -- -Q2x...
    """
    if (match_id is None) == (game is None):
        raise click.UsageError("Give a match id, or --blank GAME for a blank sheet.")
    with current_app.test_request_context():
        try:
            if match_id is not None:
                match = matches.find(match_id)
                if match is None:
                    raise click.ClickException(f"There is no match {match_id}.")
                with sheets.in_language(match):
                    template, context = sheets.filled(match)
                    data = render_pdf(template, **context)
                name = f"{match.game}-{match.public_id}.pdf"
            else:
                template, context = sheets.blank(game, MultiDict({"players": players, "seats": seats}))
                data = render_pdf(template, **context)
                name = f"{game}-sheet.pdf"
        except Refusal as err:
            raise click.ClickException(str(err)) from None
    if output is not None and str(output) == "-":
        click.get_binary_stream("stdout").write(data)
        return
    target = output or Path(name)
    target.write_bytes(data)
    click.echo(f"Wrote {target} ({len(data):,} bytes).")


club = AppGroup("club", help="The clubs' stored figures, and a club moved whole to another server.")


@club.command("rebuild-digests")
def rebuild_digests() -> None:
    """Make every club match's stored digest again from its hands, and say how many changed."""
    done = club_results.rebuild_digests()
    click.echo(f"Rebuilt {done.changed} of {done.read} stored digests.")
    if done.damaged:
        click.echo(f"Left as stored, as their hands break a rule now: {', '.join(done.damaged)}.", err=True)


@club.command("export")
@click.argument("club_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Default club-<id>.json here.")
@click.option("--keys", is_flag=True, help="With the hashes of its admin key, member links and edit keys: every "
                                           "link shared before works on the server that imports it.")
@with_appcontext
def export_club(club_id: str, output: Path | None, keys: bool) -> None:
    """Write CLUB_ID whole as one JSON document: roster, seasons, evenings, matches with hands and history."""
    import json

    from .club import service, transfer

    found = service.find(club_id)
    if found is None:
        raise click.ClickException(f"there is no club {club_id!r} here")
    target = output or Path(f"club-{found.public_id}.json")
    target.write_text(json.dumps(transfer.export(found, keys=keys), ensure_ascii=False))
    click.echo(f"club {found.name!r} written to {target}")


@club.command("import")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@with_appcontext
def import_club(source: Path) -> None:
    """Make the club of an exported SOURCE here, every match checked by its rules."""
    import json

    from .club import transfer

    try:
        made, key = transfer.import_club(json.loads(source.read_text()))
    except (ValueError, Refusal) as err:
        raise click.ClickException(str(err)) from err
    click.echo(f"club {made.name!r} imported as {made.public_id}")
    if key is not None:
        click.echo(f"its new admin key: {key} (open /c/{made.public_id}/join/{key} on the organiser's phone)")


@click.command("backup")
@click.argument("into", type=click.Path(file_okay=False, path_type=Path))
@with_appcontext
def backup(into: Path) -> None:
    """Back the server up, while it runs, into a new folder under INTO: database, secret key, config.py."""
    from sqlalchemy import text

    from . import backups
    from .db import db

    with db.engine.connect() as connection:
        revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    try:
        made = backups.take(current_app.config["SQLALCHEMY_DATABASE_URI"], Path(current_app.instance_path),
                            current_app.config["SECRET_KEY"], revision, into)
    except (backups.BackupError, OSError, sqlite3.Error) as err:  # said in one line (a full disk: backups.FULL)
        raise click.ClickException(str(err)) from err
    click.echo(f"backed up into {made}")


@click.command("restore")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask: the database is replaced by the backup's.")
@with_appcontext
def restore(folder: Path, yes: bool) -> None:
    """Put a backup FOLDER back: its database over this server's, its secret key and config.py. Stop the server first."""
    from . import backups
    from .db import db

    url = current_app.config["SQLALCHEMY_DATABASE_URI"]
    try:
        manifest = backups.checked(folder)
    except backups.BackupError as err:
        raise click.ClickException(str(err)) from err
    if not yes:
        click.confirm(f"Replace the database at {make_url_text(url)} with the backup of {manifest['made']}?", abort=True)
    db.session.remove()
    db.engine.dispose()  # no connection of this process holds the database while it is replaced
    try:
        backups.restore(folder, url, Path(current_app.instance_path))
    except (backups.BackupError, OSError) as err:
        raise click.ClickException(str(err)) from err
    click.echo(f"restored the backup of {manifest['made']} (schema {manifest['revision']}); start the server again")


def make_url_text(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def init_app(app: Flask) -> None:
    app.cli.add_command(sheet)
    app.cli.add_command(club)
    app.cli.add_command(backup)
    app.cli.add_command(restore)
