"""PDF score sheets, checked on the real files with poppler (pdfinfo, pdftotext, pdffonts, pdfdetach).

Matches are built through the JSON API; the sheet must show exactly the numbers the API gives.
Also: the locked-down URL fetcher, hostile player names, the one font configuration, renders
from several threads, and the `flask sheet` export.
"""

from __future__ import annotations

import doctest
import re
import shutil
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers.api import create_match, post
from helpers.matches import barbu_entry, hearts_entry
from helpers.pdf import info, landscape, pages, poppler, row, save, sheet_pdf, squeezed, text
from helpers.static import unbuilt
from scorekeeper import links, pdf
from scorekeeper.db import db
from scorekeeper.games import barbu
from scorekeeper.match import matches
from scorekeeper.web.sheets import lines as sheet_lines

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

BARBU = ["Ann", "Bob", "Ёжик", "Козлов"]
KOZYOL = ["Ёжик", "Козлов", "Ann", "Bob"]
HEARTS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Ёжик"]
HOSTILE = [
    '<img src="file:///etc/passwd">',
    "<link rel=attachment href=/etc/passwd>",
    "url(http://127.0.0.1:1/x)",
    '"><style>@import "//127.0.0.1:1/"',
]
STATIC = f"{pdf.ORIGIN}/static/"


# -- building matches through the API --------------------------------------------------------


def play_barbu(client: FlaskClient, players: list[str] = BARBU, hands: int = barbu.HANDS) -> tuple[dict, dict]:
    match = create_match(client, "barbu", players, {"first_declarer": players[0]})
    state = match
    for number in range(1, hands + 1):
        state = post(client, match, barbu_entry(number, players))
    return match, state


def play_kozyol(client: FlaskClient) -> tuple[dict, dict]:
    """A series to the goat with eggs: team 2 (Козлов & Bob) reaches 12."""
    match = create_match(client, "kozyol", KOZYOL, {"eggs_double_next": False})
    deals = [{"points": [75, 45], "trump_suit": "hearts"}, {"points": [60, 60], "trump_suit": "spades"},
             {"points": [29, 91]}, {"points": [120, 0], "tricks": [9, 0], "last_trick": "Ёжик"},
             {"points": [90, 30], "trump_suit": "clubs"}]
    state = match
    for deal in deals:
        state = post(client, match, deal)
    return match, state


def play_hearts(client: FlaskClient, players: list[str] = HEARTS, options: dict | None = None,
                heavy: int = 0) -> tuple[dict, dict]:
    match = create_match(client, "hearts", players, options or {})
    state, number = match, 0
    while not state["finished"]:
        number += 1
        if number == 3 and not heavy:  # someone shoots the moon and adds 26 to everyone else
            entry = {"hearts": {p: 26 * (p == players[4]) for p in players},
                     "black_marias": {p: 2 * (p == players[4]) for p in players}, "moon": "add"}
        else:
            entry = hearts_entry(number, players, heavy)
        state = post(client, match, entry)
    return match, state


# -- filled sheets ---------------------------------------------------------------------------


def test_barbu_full_match_fits_one_landscape_page_with_the_api_numbers(client, tmp_path):
    match, state = play_barbu(client)
    path = save(tmp_path, sheet_pdf(client, match))
    assert pages(path) == 1
    assert landscape(path)
    assert "A4" in info(path)["Page size"]
    page = text(path)
    for name in BARBU:
        assert name in page
    totals = state["totals"]
    assert row(page, "Σ") == [totals[name] for name in BARBU]  # the totals line starts with Σ, in every language
    for name in sorted(BARBU, key=lambda n: -totals[n]):
        assert re.search(rf"{name}\s+{totals[name]}\b", page), name
    assert f"Winner: {state['winners'][0]}" in page or "Winners:" in page
    # every hand's row: number, contract (its numeral), then raw, score and running total of each player
    for hand in state["hands"]:
        line = next(line for line in page.splitlines() if re.match(rf"\s*{hand['number']}\s+[IV]+\b", line))
        numbers = [int(n) for n in re.findall(r"-?\d+", line)[1:]]
        expected = [n for name in BARBU for n in (hand["raw"][name], hand["scores"][name], hand["totals"][name])]
        assert numbers == expected, hand["number"]
    for declarer in BARBU:
        assert f"{declarer} declares" in page


def test_barbu_in_progress_keeps_all_28_rows_and_says_standings(client, tmp_path):
    match, state = play_barbu(client, hands=9)
    path = save(tmp_path, sheet_pdf(client, match))
    page = text(path)
    assert pages(path) == 1
    assert "Standings after hand 9" in page
    assert re.search(r"^\s*28\s*$", page, re.M), "the rows still to play are printed empty"
    assert row(page, "Σ") == [state["totals"][name] for name in BARBU]


def test_barbu_sheet_with_names_of_forty_characters_stays_on_one_page(client, tmp_path):
    players = [f"{letter}" * 30 + " Longname" for letter in "WXYZ"]
    assert all(len(p) <= 40 for p in players)
    match, state = play_barbu(client, players)
    path = save(tmp_path, sheet_pdf(client, match))
    assert pages(path) == 1
    assert row(text(path), "Σ") == [state["totals"][p] for p in players]


def test_kozyol_series_to_the_goat_with_eggs_on_one_page(client, tmp_path):
    match, state = play_kozyol(client)
    assert state["finished"] and state["goat"] == 1 and state["goat_with_eggs"]
    path = save(tmp_path, sheet_pdf(client, match))
    assert pages(path) == 1
    assert not landscape(path)
    page = text(path)
    for name in KOZYOL:
        assert name in page
    assert "Козёл" not in page and "яйца" not in page and "козёл" not in page  # Russian words on a Russian sheet only
    assert "Ёжик & Ann" in page and "Козлов & Bob" in page
    assert "The goat: Козлов & Bob, with eggs." in squeezed_spaces(page)
    assert f"{state['totals'][0]} / 12" in page and f"{state['totals'][1]} / 12" in page
    for hand in state["hands"]:
        line = next(line for line in page.splitlines() if re.match(rf"\s*{hand['number']}\s+\S", line))
        numbers = [int(n) for n in re.findall(r"\b\d+\b", line)]
        assert numbers[1:3] == hand["entry"]["points"] and numbers[-2:] == hand["totals"], line
        assert ("eggs" in line) is hand["eggs"]


def squeezed_spaces(value: str) -> str:
    return re.sub(r"[ \t]+", " ", value)


def test_hearts_eleven_players_to_the_end_on_one_landscape_page(client, tmp_path):
    match, state = play_hearts(client)
    assert state["finished"] and len(state["hands"]) > 15
    path = save(tmp_path, sheet_pdf(client, match))
    assert pages(path) == 1
    assert landscape(path)
    page = text(path)
    for name in HEARTS:
        assert name in page
    assert row(page, "Total") == [state["totals"][name] for name in HEARTS]
    ranking = page[page.index("Final ranking"):]
    for name in HEARTS:
        assert re.search(rf"{name}\s+{state['totals'][name]}\b", ranking), name
    assert f"Winner: {state['winners'][0]}" in page or "Winners:" in page
    assert "☾" in page  # the moon shooter of hand 3
    last = state["hands"][-1]
    line = next(line for line in page.splitlines() if re.match(rf"\s*{last['number']}\s+\S", line))
    numbers = [int(n) for n in re.findall(r"-?\d+", line)[1:]]
    assert numbers == [n for name in HEARTS for n in (last["scores"][name], last["totals"][name])]


def test_hearts_long_game_breaks_pages_and_repeats_the_header(client, tmp_path):
    match, state = play_hearts(client, HEARTS[:6], {"target": 1000}, heavy=5)
    assert len(state["hands"]) >= 100
    path = save(tmp_path, sheet_pdf(client, match))
    count = pages(path)
    assert count >= 2
    texts = text(path).split("\f")[:count]
    for page in texts:
        for name in HEARTS[:6]:
            assert name in page, "every page repeats the players' header"
    whole = "".join(texts)
    assert whole.count("Total") == 1 and whole.index("Total") > whole.index(f" {len(state['hands'])} ")
    printed = [int(n) for page in texts for n in re.findall(r"^\s*(\d+)\s+\S", page, re.M)]
    assert printed == list(range(1, len(state["hands"]) + 1)), "each hand once, in order, no row cut in two"


# -- blank sheets ----------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "query", "names", "wide"), [
    ("barbu", "?players=Ann,Bob,Ёжик,Козлов", BARBU, True),
    ("barbu", "", [], True),
    ("kozyol", "?players=Ёжик,Козлов,Ann,Bob", KOZYOL, False),
    ("hearts", "?players=" + ",".join(HEARTS), HEARTS, True),
    ("hearts", "?seats=6", [], True),
])
def test_blank_sheets_are_one_page_with_the_names_printed_in(client, tmp_path, game, query, names, wide):
    answer = client.get(f"/sheets/{game}.pdf{query}")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    path = save(tmp_path, answer.data)
    assert pages(path) == 1
    assert landscape(path) is wide
    page = text(path)
    for name in names:
        assert name in page
    if game == "barbu":
        assert page.count("doubles of the declarer") == 16  # two boxes per player in each of the 4 blocks
        assert page.count("☐ ☐") >= 16 or page.count("☐☐") >= 16
        assert re.search(r"^\s*28\b", page, re.M)
    if game == "kozyol":
        assert page.count("☐") >= 24  # twelve tally boxes per team
    if game == "hearts":
        assert re.search(r"^\s*20\b", page, re.M)


# -- fonts -----------------------------------------------------------------------------------


def test_bundled_fonts_are_embedded_and_cover_cyrillic_and_suits(client, tmp_path):
    path = save(tmp_path, client.get("/sheets/kozyol.pdf?players=Ёжик,Козлов,Ann,Bob").data)
    fonts = poppler("pdffonts", str(path)).splitlines()[2:]
    assert fonts, "fonts are embedded"
    assert all("Sheet-Sans" in line and " yes " in line for line in fonts), fonts
    page = text(path)
    assert "♠ ♥ ♦ ♣" in page and "Ёжик" in page and "Козлов" in page


def test_one_font_configuration_serves_every_render(client):
    client.get("/sheets/barbu.pdf")
    first = pdf._fonts
    assert first is not None
    client.get("/sheets/hearts.pdf")
    client.get("/sheets/kozyol.pdf")
    assert pdf._fonts is first


def test_renders_from_several_threads_take_turns(app, monkeypatch):
    """WeasyPrint state is never used by two threads at once; every thread gets a whole PDF."""
    active, most = [0], [0]
    real = pdf.HTML.write_pdf

    def counting(self, *args, **kwargs):
        active[0] += 1
        most[0] = max(most[0], active[0])
        try:
            return real(self, *args, **kwargs)
        finally:
            active[0] -= 1

    monkeypatch.setattr(pdf.HTML, "write_pdf", counting)
    results: list[bytes] = []

    def render(game: str) -> None:
        results.append(app.test_client().get(f"/sheets/{game}.pdf").data)

    threads = [threading.Thread(target=render, args=(game,)) for game in ("barbu", "kozyol", "hearts", "barbu")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(results) == 4 and all(data.startswith(b"%PDF-") for data in results)
    assert most[0] == 1


# -- the locked-down fetcher -----------------------------------------------------------------


@pytest.fixture
def fetches(monkeypatch) -> list[tuple[str, bool]]:
    """Every URL WeasyPrint asks the fetcher for, and whether it was served."""
    seen: list[tuple[str, bool]] = []
    real = pdf.StaticFetcher.fetch

    def spy(self, url, headers=None):
        try:
            response = real(self, url, headers)
        except ValueError:
            seen.append((url, False))
            raise
        seen.append((url, True))
        return response

    monkeypatch.setattr(pdf.StaticFetcher, "fetch", spy)
    return seen


def embedded_files(path: Path) -> str:
    return poppler("pdfdetach", "-list", str(path)).strip()


def test_hostile_names_are_printed_literally_and_nothing_is_fetched(client, tmp_path, fetches):
    pdf._parsed.clear()  # parse the stylesheet again, so its font fetches are seen too
    match, _ = play_barbu(client, HOSTILE, hands=8)
    data = sheet_pdf(client, match)
    path = save(tmp_path, data)
    flat = squeezed(poppler("pdftotext", str(path), "-"))
    for name in HOSTILE:
        assert squeezed(name) in flat, name
    assert embedded_files(path) == "0 embedded files"
    assert b"/EmbeddedFile" not in data and b"/Filespec" not in data
    assert fetches and all(url.startswith(STATIC) and served for url, served in fetches), fetches
    fonts = {f"fonts/{font.name}" for font in Path(pdf.__file__).parent.parent.joinpath("static", "fonts").glob("*.ttf")}
    assert {unbuilt(url).removeprefix(STATIC) for url, _ in fetches} <= {"sheet.css", "sheet-fonts.css", *fonts}
    page = client.get(f"/m/{match['id']}/sheet").text
    assert "&lt;img src=&#34;file:///etc/passwd&#34;&gt;" in page
    assert '<img src="file:' not in page and "<link rel=attachment" not in page


def test_hostile_names_on_a_blank_sheet(client, tmp_path, fetches):
    answer = client.get("/sheets/barbu.pdf", query_string=[("players", name) for name in HOSTILE])
    assert answer.status_code == 200, answer.text[:300]
    path = save(tmp_path, answer.data)
    flat = squeezed(poppler("pdftotext", str(path), "-"))
    for name in HOSTILE:
        assert squeezed(name) in flat
    assert embedded_files(path) == "0 embedded files"
    assert all(url.startswith(STATIC) and served for url, served in fetches), fetches


@pytest.fixture
def listener():
    """A TCP port on this machine that counts the connections made to it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    hits: list[Any] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            hits.append(connection)
            connection.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1], hits
    stop.set()
    thread.join(2)
    server.close()


def test_the_fetcher_refuses_everything_but_static_files_even_in_raw_html(app, tmp_path, fetches, listener):
    """The last line of defence: markup that escaping would never let through still fetches nothing."""
    port, hits = listener
    hostile = f"""<!doctype html><title>x</title>
      <link rel="stylesheet" href="http://127.0.0.1:{port}/x.css">
      <link rel="attachment" href="file:///etc/passwd"><link rel="attachment" href="/static/../../../etc/passwd">
      <img src="file:///etc/passwd"><img src="http://127.0.0.1:{port}/i.png"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <img src="/static/%2e%2e/%2e%2e/etc/passwd"><img src="/static/../pyproject.toml"><img src="/etc/hostname">
      <object data="file:///etc/passwd"></object><embed src="file:///etc/passwd">
      <div style="background: url(http://127.0.0.1:{port}/bg); font-family: x">text</div>
      <style>@import "http://127.0.0.1:{port}/imp.css"; @font-face {{ font-family: x; src: url(file:///etc/passwd) }}</style>
      <p>only text</p>"""
    with app.test_request_context():
        data = pdf.html_to_pdf(hostile, app.static_folder)
    path = save(tmp_path, data)
    assert "only text" in text(path)
    assert embedded_files(path) == "0 embedded files"
    assert b"/EmbeddedFile" not in data
    assert hits == [], "nothing connected to the network"
    assert fetches, "WeasyPrint asked, and was refused"
    assert all(not served for _, served in fetches), fetches
    asked = " ".join(url for url, _ in fetches)
    assert "file:///etc/passwd" in asked and f"127.0.0.1:{port}" in asked


@pytest.mark.parametrize("url", [
    "file:///etc/passwd",
    "file:///work/static/sheet.css",
    "http://127.0.0.1:1/x",
    f"http://{pdf.ORIGIN.split('://')[1]}/static/sheet.css",
    "https://example.org/static/sheet.css",
    f"{pdf.ORIGIN}:443/static/sheet.css",
    "data:text/css,body{}",
    f"{pdf.ORIGIN}/etc/passwd",
    f"{pdf.ORIGIN}/static/../pyproject.toml",
    f"{pdf.ORIGIN}/static/%2e%2e/pyproject.toml",
    f"{pdf.ORIGIN}/static/fonts",
    f"{pdf.ORIGIN}/static/",
    f"{pdf.ORIGIN}/static/missing.css",
    f"{pdf.ORIGIN}/static/sheet.css?x=1",
    f"{pdf.ORIGIN}/static/sheet.css#x",
    f"{pdf.ORIGIN}/static/%00sheet.css",
    f"{pdf.ORIGIN}/static/" + "a" * 600,
])
def test_static_fetcher_refuses(app, url):
    fetcher = pdf.StaticFetcher(app.static_folder)
    with pytest.raises(ValueError):
        fetcher.fetch(url)


def test_static_fetcher_refuses_a_link_out_of_the_folder(tmp_path):
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "ok.css").write_text("p {}")
    (folder / "out.css").symlink_to("/etc/hostname")
    fetcher = pdf.StaticFetcher(folder)
    assert fetcher.fetch(f"{pdf.ORIGIN}/static/ok.css").read() == b"p {}"
    with pytest.raises(ValueError):
        fetcher.fetch(f"{pdf.ORIGIN}/static/out.css")


def test_static_fetcher_serves_the_sheet_stylesheet_and_fonts(app):
    fetcher = pdf.StaticFetcher(app.static_folder)
    css = fetcher.fetch(f"{STATIC}sheet.css")
    assert css.content_type == "text/css" and b".grid" in css.read()
    fonts = fetcher.fetch(f"{STATIC}sheet-fonts.css")
    assert fonts.content_type == "text/css" and fonts.read().count(b"@font-face") == 18  # Sans, Mono, a script each
    font = fetcher.fetch(f"{STATIC}fonts/DejaVuSans.ttf")
    assert font.read(4) == b"\x00\x01\x00\x00"


# -- the command line ------------------------------------------------------------------------


def test_cli_exports_a_match_sheet(client, runner, tmp_path):
    match, state = play_kozyol(client)
    target = tmp_path / "out.pdf"
    result = runner.invoke(args=["sheet", match["id"], "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert "Wrote" in result.output
    assert pages(target) == 1
    assert "Козлов & Bob" in text(target)


def test_new_ids_never_start_with_a_dash(monkeypatch):
    """A leading "-" would read as an option on the command line; such draws are drawn again."""
    draws = iter(["-Yq3", "-Q2x", "Abc-"])
    monkeypatch.setattr(links.secrets, "token_urlsafe", lambda size: next(draws))
    assert links.new_public_id() == "Abc-"


def test_cli_takes_an_older_id_that_starts_with_a_dash_after_a_double_dash(app, client, runner, tmp_path):
    match, _ = play_kozyol(client)
    with app.app_context():
        found = matches.find(match["id"])
        found.public_id = "-" + match["id"][1:]
        db.session.commit()
    target = tmp_path / "out.pdf"
    result = runner.invoke(args=["sheet", "-o", str(target), "--", "-" + match["id"][1:]])
    assert result.exit_code == 0, result.output
    assert "Козлов & Bob" in text(target)


def test_cli_exports_a_blank_sheet(runner, tmp_path):
    target = tmp_path / "blank.pdf"
    result = runner.invoke(args=["sheet", "--blank", "hearts", "--players", "Ann,Bob,Cid,Dee,Eve,Ёжик", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert pages(target) == 1 and "Ёжик" in text(target)


@pytest.mark.parametrize(("args", "message"), [
    (["sheet", "no-such-match"], "There is no match no-such-match"),
    (["sheet", "--blank", "barbu", "--players", "Ann,Bob"], "exactly 4 players"),
    (["sheet", "--blank", "hearts", "--seats", "3"], "6 to 11 players"),
    (["sheet"], "Give a match id"),
])
def test_cli_refuses_with_a_message(runner, args, message):
    result = runner.invoke(args=args)
    assert result.exit_code != 0
    assert message in result.output


# -- small pieces ----------------------------------------------------------------------------


@pytest.mark.parametrize("module", [pdf, sheet_lines])
def test_doctests(module):
    result = doctest.testmod(module, verbose=False)
    assert result.failed == 0 and result.attempted > 0


def test_sheet_css_sets_no_font_features():
    """font-variant-numeric/font-feature-settings make WeasyPrint 70 leak memory on every render.

    bench/pdf_sheet.py measured 28 MiB of growth over 300 renders with tabular-nums, none without.
    """
    css = (Path(__file__).resolve().parent.parent / "static" / "sheet.css").read_text()
    rules = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    assert "font-variant" not in rules and "font-feature-settings" not in rules


def test_the_collector_waits_for_a_render_and_resumes_after_it_however_it_ends(app, monkeypatch):
    """A render runs without the cyclic collector walking the whole process, and never leaves it off."""
    import gc

    from weasyprint import HTML

    seen: list[bool] = []
    real = HTML.write_pdf

    def watched(self, *args, **kwargs):
        seen.append(gc.isenabled())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(HTML, "write_pdf", watched)
    with app.test_request_context():
        assert pdf.html_to_pdf("<p>a sheet</p>", app.static_folder).startswith(b"%PDF")
    assert seen == [False] and gc.isenabled()

    def broken(self, *args, **kwargs):
        raise RuntimeError("the layout failed")

    monkeypatch.setattr(HTML, "write_pdf", broken)
    with app.test_request_context(), pytest.raises(RuntimeError):
        pdf.html_to_pdf("<p>a sheet</p>", app.static_folder)
    assert gc.isenabled()
