"""Command line: export a score sheet as PDF.

    flask --app scorekeeper.app:create_app sheet MATCH_ID -o sheet.pdf
    flask --app scorekeeper.app:create_app sheet -o sheet.pdf -- -Q2x...   (an older id starting with "-")
    flask --app scorekeeper.app:create_app sheet --blank barbu --players "Ann,Bob,Cid,Dee" -o blank.pdf

And the clubs' stored figures: make every club match's digest again from its hands.

    flask --app scorekeeper.app:create_app club rebuild-digests
"""

from __future__ import annotations

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


club = AppGroup("club", help="The clubs' stored figures.")


@club.command("rebuild-digests")
def rebuild_digests() -> None:
    """Make every club match's stored digest again from its hands, and say how many changed."""
    done = club_results.rebuild_digests()
    click.echo(f"Rebuilt {done.changed} of {done.read} stored digests.")
    if done.damaged:
        click.echo(f"Left as stored, as their hands break a rule now: {', '.join(done.damaged)}.", err=True)


def init_app(app: Flask) -> None:
    app.cli.add_command(sheet)
    app.cli.add_command(club)
