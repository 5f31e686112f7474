"""Every number of a filled sheet is on the PDF, where paper has it, read back with pdftotext.

Random legal matches of each game are played through the API; the PDF's text (``pdftotext
-layout``, one printed line per text line) must show, line by line, what the API says: Barbu's
raw score, score after doubles, running total and double marks of every player in every hand,
the doubles owed in each block and the totals; Kozyol's card points, defeat points with their
doubling, tallies and eggs of every deal; Hearts' hand scores, totals and moons.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from flask_babel import force_locale

from helpers.api import create_match, post
from helpers.barbu import random_match
from helpers.pdf import save, sheet_pdf, text
from scorekeeper.i18n import LANGUAGES
from scorekeeper.web.sheets import hearts as hearts_sheet, kozyol as kozyol_sheet
from scorekeeper.web.sheets.barbu import LEAD, PLAYER

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

SEEDS = [1, 2, 3]
LETTERS = "ABCD"
# The contracts as a line prints them, in every language: the numeral of their place in the rules.
NUMERALS = {"no_tricks": "I", "no_queens": "II", "no_hearts": "III", "no_last_two": "IV", "barbu": "V", "trumps": "VI",
            "dominoes": "VII"}
SUITS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}


def printed_lines(client, tmp_path, match: dict[str, Any]) -> list[str]:
    return text(save(tmp_path, sheet_pdf(client, match))).splitlines()


def line_of(lines: list[str], pattern: str) -> str:
    found = [line for line in lines if re.match(pattern, line)]
    assert len(found) == 1, (pattern, found)
    return found[0]


def numbers(value: str) -> list[int]:
    return [int(n) for n in re.findall(r"(?<![\w²])-?\d+", value)]


# -- Barbu --------------------------------------------------------------------------------------


def marks(hand: dict[str, Any], player: str, players: list[str]) -> list[str]:
    """The marks the rules ask for: the letter of each player doubled, (A) the declarer, ² redoubled."""
    out = []
    for double in hand["entry"]["doubles"]:
        if double["by"] == player:
            letter = LETTERS[players.index(double["target"])]
            out.append((f"({letter})" if double["target"] == hand["declarer"] else letter)
                       + ("²" if double["redoubled"] else ""))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_barbu_every_hand_score_raw_score_running_total_and_double_mark(client, tmp_path, seed):
    rng = random.Random(seed)
    replay, entries = random_match(rng, honour_obligation=True)
    players = replay.players
    for entry in entries:  # notes on the contract, as a table writes them
        if entry["contract"] == "trumps":
            entry["trump_suit"] = rng.choice(list(SUITS))
    match = create_match(client, "barbu", players, {"first_declarer": replay.options["first_declarer"],
                                                    "domino_scores": replay.options["domino_scores"]})
    state = match
    for entry in entries:
        state = post(client, match, entry)
    lines = printed_lines(client, tmp_path, match)
    for hand in state["hands"]:
        title = NUMERALS[hand["contract"]] + (f" {SUITS[hand['entry']['trump_suit']]}" if "trump_suit" in hand["entry"] else "")
        line = line_of(lines, rf"\s*{hand['number']} {re.escape(title)}(\s|$)")
        fields = re.findall(r"(-?\d+) +(-?\d+) +(-?\d+)((?: +\(?[A-D]\)?²?)*)", line.split(title, 1)[1])
        assert len(fields) == len(players), (hand["number"], line)
        for player, (raw, score, total, made) in zip(players, fields):
            assert [int(raw), int(score), int(total)] == [hand["raw"][player], hand["scores"][player],
                                                          hand["totals"][player]], (hand["number"], player, line)
            assert made.split() == marks(hand, player, players), (hand["number"], player, line)
    assert numbers(line_of(lines, r"\s*Σ\s+-?\d")) == [state["totals"][p] for p in players]
    for block in range(4):
        first = block * 7 + 1
        declarer = state["hands"][first - 1]["declarer"]
        head = line_of(lines, rf"\s*Hands {first}–{first + 6} · {declarer} declares")
        assert f"({LETTERS[players.index(declarer)]})" in head, head  # above the declarer's column
        owed = re.findall(r"([☑☐]+)(?: \+(\d+))?", head)
        made = [sum(1 for hand in state["hands"][first - 1:first + 6] for d in hand["entry"]["doubles"]
                    if d["by"] == p and d["target"] == declarer) for p in players if p != declarer]
        assert [(boxes.count("☑"), int(extra or 0)) for boxes, extra in owed] == [(min(n, 2), max(n - 2, 0)) for n in made]
    ranking = " ".join(lines[lines.index(next(line for line in lines if "Final ranking" in line)):])
    for player in players:
        assert re.search(rf"{player}\s+{state['totals'][player]}\b", ranking), player


# -- Kozyol -------------------------------------------------------------------------------------

KOZYOL = ["Ann", "Bob", "Cid", "Dee"]
DEALS = [{"points": [75, 45]}, {"points": [45, 75]}, {"points": [60, 60]}, {"points": [29, 91]},
         {"points": [91, 29]}, {"points": [0, 120], "tricks": [0, 8]}, {"points": [120, 0], "tricks": [6, 0]},
         {"points": [30, 90], "tricks": [1, 7]}, {"points": [100, 20], "trump_suit": "clubs"},
         {"points": [62, 58], "last_trick": "Dee"}]


@pytest.mark.parametrize("seed", SEEDS)
def test_kozyol_every_deal_points_defeat_points_and_tally(client, tmp_path, seed):
    rng = random.Random(seed)
    match = create_match(client, "kozyol", KOZYOL, {"eggs_double_next": seed != 2, "target": 16})
    state = match
    while not state["finished"]:
        state = post(client, match, rng.choice(DEALS))
    lines = printed_lines(client, tmp_path, match)
    for hand in state["hands"]:
        line = line_of(lines, rf"\s*{hand['number']}\s+\D")
        points, defeat, tally = hand["entry"]["points"], hand["defeat_points"], hand["totals"]
        expected = [hand["number"], *points]
        if hand["loser"] is not None:
            lost, times = defeat[hand["loser"]], hand["multiplier"]
            expected += [lost] + ([lost // times, times] if times > 1 else [])  # "4=2×2": the sum, never "4 ×2"
        assert numbers(line) == [*expected, *tally], line
        assert ("eggs" in line) is hand["eggs"], line
        assert ("✗" in line) is (0 in (hand["entry"].get("tricks") or [])), line
    page = "\n".join(lines)
    for team in (0, 1):
        assert re.search(rf"\b{state['totals'][team]} / 16\b", page)


# -- Hearts -------------------------------------------------------------------------------------

HEARTS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def hearts_hand(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """All 26 hearts and both Black Marias spread at random; now and then a moon."""
    if rng.random() < 0.1:
        shooter = rng.choice(players)
        return {"hearts": {p: 26 * (p == shooter) for p in players},
                "black_marias": {p: 2 * (p == shooter) for p in players}, "moon": rng.choice(["add", "subtract"])}
    hearts, marias = dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    for _ in range(26):
        hearts[rng.choice(players)] += 1
    for _ in range(2):
        marias[rng.choice(players)] += 1
    if any(hearts[p] == 26 and marias[p] == 2 for p in players):
        return hearts_hand(rng, players)
    return {"hearts": hearts, "black_marias": marias}


@pytest.mark.parametrize("seed", SEEDS)
def test_hearts_every_hand_score_running_total_and_moon(client, tmp_path, seed):
    rng = random.Random(seed)
    players = HEARTS[:6 + seed]
    match = create_match(client, "hearts", players, {"target": 100})
    state = match
    while not state["finished"]:
        state = post(client, match, hearts_hand(rng, players))
    lines = printed_lines(client, tmp_path, match)
    for hand in state["hands"]:
        line = line_of(lines, rf"\s*{hand['number']}\s+{hand['dealer']}\s")
        after_pass = re.split(r"[←→]", line, maxsplit=1)[1]
        assert numbers(after_pass) == [n for p in players for n in (hand["scores"][p], hand["totals"][p])], line
        assert line.count("☾") == (hand["moon_shooter"] is not None), line
        if hand["moon_shooter"]:
            fields = re.findall(r"-?\d+ +-?\d+(?: *☾)?", after_pass)
            assert "☾" in fields[players.index(hand["moon_shooter"])], line
    assert numbers(line_of(lines, r"\s*Total\b")) == [state["totals"][p] for p in players]


# -- the fields of a line -----------------------------------------------------------------------


def lines_in(app, match: dict[str, Any], language: str) -> list[str]:
    """Every fixed-width line of the match's filled sheet (block heads, rows, totals) as printed in the language."""
    from scorekeeper.match import matches
    from scorekeeper.web.sheets import views

    with app.test_request_context(), force_locale(language):
        _template, sheet = views.filled(matches.find(match["id"]))
        blocks = sheet["blocks"] if isinstance(sheet["blocks"], list) else sheet["blocks"](sheet["empty_rows"])
        found = [str(text) for block in blocks for key in ("head", "lines") for text in
                 ([block[key]] if isinstance(block.get(key), str) else block.get(key) or [])]
        return found + [str(sheet.get("total_line", ""))]


def played(client, game: str) -> dict[str, Any]:
    """A match whose lines hold every note: trumps and doubles, eggs, a team without a trick, a moon, both passes."""
    if game == "barbu":
        replay, entries = random_match(random.Random(1), honour_obligation=True)
        match = create_match(client, "barbu", replay.players, {"first_declarer": replay.options["first_declarer"],
                                                                "domino_scores": replay.options["domino_scores"]})
        for entry in entries[:10]:
            post(client, match, {**entry, "trump_suit": "hearts"} if entry["contract"] == "trumps" else entry)
    elif game == "kozyol":
        match = create_match(client, "kozyol", KOZYOL, {"eggs_double_next": True, "target": 30})
        for deal in DEALS:
            post(client, match, deal)
    else:
        match = create_match(client, "hearts", HEARTS[:6])
        for number in range(3):
            post(client, match, hearts_hand(random.Random(number), HEARTS[:6]))
    return match


@pytest.mark.parametrize("game", ["barbu", "kozyol", "hearts"])
def test_the_lines_print_no_word_of_any_language(app, client, monkeypatch, game):
    """A word in the monospace grid would push every field after it out of its column in a script the grid cannot
    count (Khmer, Lao): the lines are the same in every language, Kozyol's notes aside, which end the line."""
    match = played(client, game)
    monkeypatch.setattr(kozyol_sheet, "notes", lambda hand: "")
    printed = {language: lines_in(app, match, language) for language in LANGUAGES}
    assert len(printed["en"]) > 3 and all(printed[language] == printed["en"] for language in LANGUAGES), printed


CSS = (Path(__file__).resolve().parent.parent / "static" / "sheet.css").read_text()


def ch(selector: str, prop: str) -> list[float]:
    """The lengths in ch of a property in sheet.css's rule for selector."""
    block = re.search(re.escape(selector) + r" \{([^}]*)\}", CSS)
    assert block, selector
    return [float(n) for n in re.findall(r"([\d.]+)ch", re.search(rf"{prop}:([^;]*)", block[1])[1])]


def test_the_barbu_header_columns_are_as_wide_as_the_fields():
    """sheet.css sizes the header in ch to the fields of barbu_sheet, and shades the declarer's field."""

    assert ch(".barbu-lines", "width") == [LEAD + 4 * (PLAYER + 1)]
    assert ch(".barbu-lines .c-lead", "width") == [LEAD + 0.5]
    assert ch(".barbu-lines .c-player", "width") == [PLAYER + 1]
    for seat in range(4):
        assert ch(f".barbu-lines .hands td.seat-{seat}", "background-position")[-1] == LEAD + 0.5 + seat * (PLAYER + 1)


def test_the_hearts_header_columns_are_as_wide_as_the_fields():
    assert ch(".hearts-lines .c-lead", "width") == [hearts_sheet.LEAD]
    assert ch(".hearts-lines .c-pass", "width") == [hearts_sheet.PASS + 0.5]
    assert ch(".hearts-lines .c-player", "width") == [hearts_sheet.PLAYER + 1]
    for seats in range(6, 12):
        assert ch(f".hearts-lines.seats-{seats}", "width") == [
            hearts_sheet.LEAD + hearts_sheet.PASS + seats * (hearts_sheet.PLAYER + 1)]
    assert ch(".hearts-lines .hands td + td", "background-position")[0] == hearts_sheet.PASS + 0.5


def test_the_kozyol_header_columns_are_as_wide_as_the_fields():
    fields = [kozyol_sheet.SUIT] + [kozyol_sheet.POINTS] * 2 + [kozyol_sheet.DEFEAT] * 2 + [kozyol_sheet.TALLY] * 2
    assert ch(".kozyol-lines .c-lead", "width") == [kozyol_sheet.LEAD]
    assert ch(".kozyol-lines .c-suit", "width") == [kozyol_sheet.SUIT + 0.5]
    assert ch(".kozyol-lines .c-pts", "width") == [kozyol_sheet.POINTS + 1]
    assert ch(".kozyol-lines .c-def", "width") == [kozyol_sheet.DEFEAT + 1]
    assert ch(".kozyol-lines .c-tally", "width") == [kozyol_sheet.TALLY + 1]
    edges = [sum(fields[:i + 1]) + i + 0.5 for i in range(len(fields))]  # the middle of the space after each field
    # The rules are stops of a gradient across the cell of the fields (static/sheet.css gives them in % of it).
    cell = ch(".kozyol-lines", "width")[0] - ch(".kozyol-lines .c-lead", "width")[0]
    block = re.search(re.escape(".kozyol-lines .hands td + td") + r" \{([^}]*)\}", CSS)[1]
    stripes = [float(n) * cell / 100 for n in re.findall(r"([\d.]+)%", re.search(r"background-image:([^;]*)", block)[1])]
    assert [round((a + b) / 2, 2) for a, b in zip(stripes[1::4], stripes[2::4])] == edges
