"""Table cards: one PDF per round of a club evening, all on A4: an A5 card per table (round, table, seats in order,
teams, who plays first, the QR code of its edit link), two to a sheet of paper with a line to cut along, then each of
the two tables' blank sheets with the names; for the admin only."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient

from helpers.api import bearer
from helpers.clubs import admin_post, new_club
from helpers.i18n import translated
from helpers.pdf import pages, save, squeezed, text

TWELVE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
GAMES = ["kozyol", "kozyol", "barbu"]
A4 = (595.28, 841.89)  # points, either way round


class Night:
    """A club of twelve with today's evening, everyone present, and round 1 confirmed: two Kozyol tables, one Barbu."""

    def __init__(self, app: Flask, client: FlaskClient, seed: int = 4):
        from scorekeeper.club import evenings, rounds, service as clubs

        self.app, self.client = app, client
        self.club = new_club(client, "Les Dimanches")
        for name in TWELVE:
            assert admin_post(client, self.club, "players", "add", {"name": name}).status_code == 302
        with app.app_context():
            club = clubs.find(self.club)
            names = {player.id: player.name for player in clubs.roster(club)}
            evening = evenings.schedule(club, clubs.today(club), "19:30", "", "", name="Soirée d'hiver")[0]
            self.id = evening.id
            for player in names:
                evenings.mark_present(club, evening, player, True)
            _seed, drawn = rounds.propose(club, evening, GAMES, seed)
            rounds.confirm(club, evening, drawn, seed, number=1)
            self.tables = [(table.game, [names[seat] for seat in table.seats]) for table in drawn.tables]
            with app.test_request_context():  # each table's edit link, as a phone seated there is given it
                self.links = {table.number: url_for("pages.join", public_id=match.public_id,
                                                    key=rounds.seat_key(match), _external=True)
                              for table, match in rounds.rounds_of(evening)[0][1]}

    def url(self, query: str = "") -> str:
        return f"/c/{self.club}/evenings/{self.id}/cards.pdf{query}"

    def api(self, query: str = "") -> str:
        return f"/api/v1/clubs/{self.club}/evenings/{self.id}/cards.pdf{query}"


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> Night:
    return Night(app, client)


def blank_pages(client: FlaskClient, tmp_path: Path, game: str, names: list[str]) -> int:
    """The pages of the game's own blank sheet with these names."""
    answer = client.get(f"/sheets/{game}.pdf?players={','.join(names)}")
    assert answer.status_code == 200
    return pages(save(tmp_path, answer.data, f"blank-{game}.pdf"))


def page_text(path: Path, page: int, half: int | None = None) -> str:
    """A page's text; half 0 or 1: only the left or the right half of a landscape page (one card of the two)."""
    crop = [] if half is None else ["-x", str(421 * half), "-y", "0", "-W", "421", "-H", "596"]
    return subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), *crop, str(path), "-"], check=True,
                          capture_output=True, text=True, timeout=60).stdout


def page_size(path: Path, page: int) -> tuple[float, float]:
    found = subprocess.run(["pdfinfo", "-f", str(page), "-l", str(page), str(path)], check=True,
                           capture_output=True, text=True, timeout=60).stdout
    width, height = re.search(rf"Page\s+{page} size:\s+([\d.]+) x ([\d.]+)", found).groups()
    return float(width), float(height)


def scanned(path: Path, page: int, tmp_path: Path) -> list[str]:
    """The QR codes zbarimg reads on a page drawn at 150 dpi."""
    image = tmp_path / f"page-{page}"
    subprocess.run(["pdftoppm", "-r", "150", "-f", str(page), "-l", str(page), "-singlefile", "-png", str(path),
                    str(image)], check=True, timeout=60)
    found = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", f"{image}.png"],
                           capture_output=True, text=True, timeout=60)
    return found.stdout.split()


# -- the document --------------------------------------------------------------------------------------


def test_two_a5_cards_to_an_a4_sheet_then_each_tables_blank_sheet_all_on_a4(night: Night, tmp_path: Path):
    answer = night.client.get(night.url())
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    path = save(tmp_path, answer.data)
    sheets = [blank_pages(night.client, tmp_path, game, names) for game, names in night.tables]
    pairs = [list(range(start, min(start + 2, len(night.tables)))) for start in range(0, len(night.tables), 2)]
    assert pages(path) == len(pairs) + sum(sheets)
    for number in range(1, pages(path) + 1):  # one paper size for the whole document: A4, either way round
        assert all(abs(got - want) < 1 for got, want in zip(sorted(page_size(path, number)), A4)), number
    page = 1
    for pair in pairs:
        assert page_size(path, page)[0] > page_size(path, page)[1]  # the cards' sheet lies landscape: two A5 side by side
        for half, index in enumerate(pair):
            number, (game, names) = index + 1, night.tables[index]
            card = page_text(path, page, half)
            assert "Round 1" in card and f"Table {number}" in card, card
            assert "Les Dimanches" in card and "Soirée d'hiver" in card
            assert ("Kozyol" if game == "kozyol" else "Barbu") in card
            seats = [re.search(rf"\b{name}\b", card).start() for name in names]
            assert seats == sorted(seats), (names, card)  # in seat order
            if game == "kozyol":
                assert f"Team 1: {names[0]} & {names[2]}" in card and f"Team 2: {names[1]} & {names[3]}" in card
                assert f"{names[0]} deals first" in card
            else:
                assert "Team 1" not in card and f"{names[0]} declares first" in card
            assert "Scan to enter hands" in card and night.links[number] in squeezed(card)
        if shutil.which("zbarimg"):
            assert sorted(scanned(path, page, tmp_path)) == sorted(night.links[index + 1] for index in pair)
        page += 1
        for index in pair:
            game, names = night.tables[index]
            sheet = page_text(path, page)
            assert all(name in sheet for name in names) and "Round 1" not in sheet
            page += sheets[index]
    assert page == pages(path) + 1


def test_the_file_is_named_after_the_club_the_evening_and_the_round_and_never_stored(night: Night):
    answer = night.client.get(night.url())
    assert "no-store" in answer.headers["Cache-Control"]  # it shows edit keys
    named = answer.headers["Content-Disposition"]
    assert named.startswith("inline; ") and 'filename="Les-Dimanches-Soiree-d-hiver-Round-1.pdf"' in named
    assert "filename*=UTF-8''Les%20Dimanches%20%E2%80%93%20Soir%C3%A9e%20d%27hiver%20%E2%80%93%20Round%201.pdf" in named


def test_the_latest_round_by_default_and_any_round_by_number(night: Night, tmp_path: Path):
    from scorekeeper.club import evenings, rounds, service as clubs

    with night.app.app_context():
        club = clubs.find(night.club)
        evening = evenings.evening_of(club, night.id)
        rounds.confirm(club, evening, rounds.propose(club, evening, "barbu", 8)[1], 8, number=2)
    latest = page_text(save(tmp_path, night.client.get(night.url()).data, "latest.pdf"), 1)
    first = page_text(save(tmp_path, night.client.get(night.url("?round=1")).data, "first.pdf"), 1)
    assert "Round 2" in latest and "Round 1" in first
    for junk in ("3", "0", "-1", "x", "1.5", "9" * 40):
        answer = night.client.get(night.url(f"?round={junk}"))
        assert answer.status_code == 404 and "no round of that number" in answer.text, junk


def test_an_evening_without_a_round_or_of_another_club_has_no_cards(night: Night, client: FlaskClient):
    from scorekeeper.club import evenings, service as clubs

    with night.app.app_context():
        club = clubs.find(night.club)
        later = evenings.schedule(club, clubs.today(club).replace(year=clubs.today(club).year + 1), "", "", "")[0]
    assert client.get(f"/c/{night.club}/evenings/{later.id}/cards.pdf").status_code == 404
    other = new_club(client, "Other")
    assert client.get(f"/c/{other}/evenings/{night.id}/cards.pdf").status_code == 404
    assert client.get(f"/c/{night.club}/evenings/999999/cards.pdf").status_code == 404
    assert client.get(f"/c/nope/evenings/{night.id}/cards.pdf").status_code == 404


def test_only_the_admin_gets_the_cards_they_carry_edit_links(night: Night, app: Flask):
    stranger = app.test_client()
    refused = stranger.get(night.url())
    assert refused.status_code == 403 and refused.mimetype == "text/html"
    member = app.test_client()
    assert member.get(f"/c/{night.club}").status_code == 200  # opened the club link only
    assert member.get(night.url()).status_code == 403


def test_the_rounds_page_links_each_rounds_cards(night: Night):
    page = night.client.get(f"/c/{night.club}/admin/evenings/{night.id}/rounds").text
    assert f'href="/c/{night.club}/evenings/{night.id}/cards.pdf?round=1"' in page and "Table cards (PDF)" in page


def test_kept_while_the_club_is_unchanged_and_printed_again_after_a_rename(night: Night, tmp_path: Path):
    first = night.client.get(night.url())
    again = night.client.get(night.url(), headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    game, names = night.tables[0]
    with night.app.app_context():
        from scorekeeper.club import roster, service as clubs

        club = clubs.find(night.club)
        player = next(player for player in clubs.roster(club) if player.name == names[1])
        roster.rename_player(club, player.id, "Zoé")
    renamed = night.client.get(night.url(), headers={"If-None-Match": first.headers["ETag"]})
    assert renamed.status_code == 200 and renamed.headers["ETag"] != first.headers["ETag"]
    card = page_text(save(tmp_path, renamed.data), 1)
    assert "Zoé" in card and not re.search(rf"\b{names[1]}\b", card)


def test_a_name_is_printed_as_written_never_as_markup(night: Night, tmp_path: Path):
    from scorekeeper.club import roster, service as clubs

    hostile = "<b>Dee & 'Co'"
    game, names = night.tables[2]
    with night.app.app_context():
        club = clubs.find(night.club)
        player = next(player for player in clubs.roster(club) if player.name == names[0])
        roster.rename_player(club, player.id, hostile)
    answer = night.client.get(night.url())
    assert answer.status_code == 200
    path = save(tmp_path, answer.data)
    assert f"{hostile} declares first" in text(path)


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_cards_in_the_readers_language(night: Night, tmp_path: Path, lang: str):
    answer = night.client.get(night.url(), headers={"Accept-Language": lang})
    path = save(tmp_path, answer.data)
    card = page_text(path, 1)
    game, names = night.tables[0]
    for msgid, values in (("Round %(n)s", {"n": 1}), ("Table %(n)s", {"n": 1}),
                          ("%(name)s deals first", {"name": names[0]}), ("Scan to enter hands", {})):
        assert squeezed(translated(lang, msgid) % values) in squeezed(card), (lang, msgid)
    assert "Round 1" not in card


# -- the API -------------------------------------------------------------------------------------------


def admin_key(night: Night) -> str:
    """A new admin key for the club (the admin's phone then holds an old one)."""
    from scorekeeper.club import service as clubs

    with night.app.app_context():
        return clubs.rotate_key(night.club)


def test_the_api_gives_the_cards_with_the_admin_key_only(night: Night, app: Flask, tmp_path: Path):
    api = app.test_client()
    assert api.get(night.api()).status_code == 401
    wrong = api.get(night.api(), headers=bearer("x" * 43))
    assert wrong.status_code == 403 and wrong.get_json()["error"]["message"]
    key = admin_key(night)
    answer = api.get(night.api("?round=1"), headers=bearer(key))
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert "no-store" in answer.headers["Cache-Control"]
    assert "Table 3" in text(save(tmp_path, answer.data))
    missing = api.get(night.api("?round=7"), headers=bearer(key))
    assert missing.status_code == 404 and set(missing.get_json()["error"]) == {"message", "fields"}
    unknown = api.get(f"/api/v1/clubs/{night.club}/evenings/999999/cards.pdf", headers=bearer(key))
    assert unknown.status_code == 404 and unknown.get_json()["error"]["message"]


def test_the_api_operation_is_documented(night: Night, document: dict[str, Any]):
    operation = document["paths"]["/api/v1/clubs/{club_id}/evenings/{evening_id}/cards.pdf"]["get"]
    assert operation["security"] == [{"adminKey": []}]
    assert "application/pdf" in operation["responses"]["200"]["content"]
    assert {"401", "403", "404"} <= set(operation["responses"])
