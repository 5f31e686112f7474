"""The project explains itself: docs/rules.md follows the engines, and nothing points outside.

A rule changed in an engine constant (a contract's score, the defeat points, the deal table)
fails here until docs/rules.md says the same; a reference to a document that does not travel
with the repository fails here too.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from scorekeeper.games import GAMES, barbu, hearts, kozyol
from scorekeeper.games.base import NAME_MAX

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
SKIPPED_DIRS = {".git", ".venv", "mutants", "node_modules", "__pycache__", ".pytest_cache", ".hypothesis",
                "artifacts", "build"}
OUTSIDE = ["../shared", "shared/RULES.md", "shared/API.md"]


def project_files() -> list[Path]:
    """Every text file of the project: the ones git knows (tracked or new), else a walk of the tree."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT, capture_output=True, check=True, timeout=30,
        ).stdout.decode().split("\0")
        files = [ROOT / name for name in listed if name]
    except (OSError, subprocess.SubprocessError):
        files = [path for path in ROOT.rglob("*") if path.is_file()]
    return [
        path for path in files
        if path.is_file() and not SKIPPED_DIRS & set(path.relative_to(ROOT).parts)
    ]


def test_no_file_points_at_documents_outside_the_repository():
    offenders = []
    for path in project_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # fonts, images, compiled catalogs
        for needle in OUTSIDE:
            if needle in text and path != Path(__file__).resolve():
                offenders.append(f"{path.relative_to(ROOT)}: {needle}")
    assert offenders == [], "point to docs/rules.md or /api/v1/openapi.json instead"


def test_the_project_files_were_found():
    names = {path.relative_to(ROOT).as_posix() for path in project_files()}
    assert {"README.md", "docs/rules.md", "scorekeeper/games/barbu.py", "tests/test_docs.py"} <= names


# -- docs/rules.md follows the engines ----------------------------------------------------------


def doc() -> str:
    return RULES.read_text(encoding="utf-8")


def section(number: int) -> str:
    """The text of '## <number>. ...' up to the next '## ' heading."""
    match = re.search(rf"^## {number}\. .*?(?=^## |\Z)", doc(), re.M | re.S)
    assert match, f"docs/rules.md has no section {number}"
    return match.group(0)


def flat(text: str) -> str:
    """Text with every run of white space (line breaks included) made one space."""
    return " ".join(text.split())


def has_number(text: str, value: int) -> bool:
    """The whole number value appears in text (a sign counts: -6 is not 6, +5 is 5)."""
    sign = "-" if value < 0 else r"\+?"
    return re.search(rf"(?<![\w.\-+]){sign}{abs(value)}(?![\w.])", text) is not None


def row(text: str, *cells: str) -> str:
    """The markdown table row whose cells start with the given ones."""
    for line in text.splitlines():
        parts = [part.strip() for part in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("|") and parts[: len(cells)] == list(cells):
            return line
    raise AssertionError(f"no table row starting with {cells}")


def test_the_rules_are_in_the_repository_and_linked_from_the_readme():
    assert RULES.is_file()
    assert "docs/rules.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_seats_and_names():
    assert has_number(doc().split("## 1. ")[0], NAME_MAX)


BARBU_PER_UNIT = {
    "no_tricks": [barbu.PER_TRICK["no_tricks"]],
    "no_queens": [barbu.PER_QUEEN],
    "no_hearts": [barbu.PER_HEART, barbu.ACE_OF_HEARTS],
    "no_last_two": [barbu.SECOND_LAST_TRICK, barbu.LAST_TRICK, barbu.SECOND_LAST_TRICK + barbu.LAST_TRICK],
    "barbu": [barbu.KING_OF_HEARTS],
    "trumps": [barbu.PER_TRICK["trumps"]],
    "dominoes": list(barbu.DOMINO_SCORES),
}
BARBU_HAND_SUM = {
    "no_tricks": barbu.PER_TRICK["no_tricks"] * barbu.CARDS_PER_HAND,
    "no_queens": barbu.PER_QUEEN * 4,
    "no_hearts": barbu.PER_HEART * (barbu.CARDS_PER_HAND - 1) + barbu.ACE_OF_HEARTS,
    "no_last_two": barbu.SECOND_LAST_TRICK + barbu.LAST_TRICK,
    "barbu": barbu.KING_OF_HEARTS,
    "trumps": barbu.PER_TRICK["trumps"] * barbu.CARDS_PER_HAND,
    "dominoes": barbu.DOMINO_TOTAL,
}


@pytest.mark.parametrize("contract", barbu.CONTRACTS)
def test_barbu_contract_row_has_the_engine_scores(contract):
    line = row(section(1), barbu.CONTRACT_TITLES[contract], f"`{contract}`")
    for value in BARBU_PER_UNIT[contract] + [BARBU_HAND_SUM[contract]]:
        assert has_number(line, value), (contract, value, line)


def test_barbu_numbers():
    text = section(1)
    assert f"**{barbu.HANDS} hands**" in text
    assert f"block of {barbu.HANDS_PER_DECLARER} hands" in flat(text)
    assert f"at least **{barbu.DOUBLES_OWED}** times" in flat(text)
    assert f"`{list(barbu.DOMINO_SCORES)}`" in text
    assert has_number(text, barbu.DOMINO_TOTAL)
    assert "(declarer - 1)" in text and "(declarer + 2)" in text
    assert sum(BARBU_HAND_SUM.values()) == 0 and "sums to 0" in flat(text)


@pytest.mark.parametrize("first", range(barbu.SEATS))
def test_barbu_schedule_table(first):
    """The doc's table of who declares, deals and cuts, read as Ann (seat 0) declaring first."""
    names = ["Ann", "Bob", "Cid", "Dee"]
    for block in range(barbu.SEATS):
        low = block * barbu.HANDS_PER_DECLARER + 1
        line = row(section(1), f"{low}-{low + barbu.HANDS_PER_DECLARER - 1}")
        for number in range(low, low + barbu.HANDS_PER_DECLARER):
            seats = barbu.schedule(number, 0)
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")][1:]
            assert cells == [names[seats["declarer"]], names[seats["dealer"]], names[seats["cutter"]]]


@pytest.mark.parametrize("option", barbu.OPTIONS)
def test_barbu_options_are_described(option):
    row(section(1), f"`{option}`")


def test_kozyol_numbers():
    text = section(2)
    for rank, value in kozyol.CARD_VALUES.items():
        assert has_number(row(text, rank), value)
    assert f"**{kozyol.TOTAL_POINTS}**" in text
    assert f"{kozyol.EGGS} : {kozyol.EGGS}" in text
    assert sorted(set(range(kozyol.TOTAL_POINTS + 1)) - kozyol.REACHABLE) == [1, kozyol.TOTAL_POINTS - 1]
    assert f"except 1 and {kozyol.TOTAL_POINTS - 1}" in flat(text)
    light = row(text, f"{kozyol.LIGHT_DEFEAT_FROM} to {kozyol.EGGS - 1} card points")
    assert has_number(light, kozyol.DEFEAT["light"])
    heavy = row(text, f"{kozyol.LIGHT_DEFEAT_FROM - 1} or fewer card points, and took at least one trick")
    assert has_number(heavy, kozyol.DEFEAT["heavy"])
    assert has_number(row(text, "no trick at all"), kozyol.DEFEAT["no_trick"])
    assert has_number(text, kozyol.TRICKS_PER_DEAL)
    assert has_number(row(text, "`target`"), kozyol.DEFAULT_TARGET)
    low, high = kozyol.TARGET_RANGE
    assert f"from {low} to {high}" in row(text, "`target`")
    assert f"**{kozyol.DEFAULT_TARGET}**" in text
    doubled = row(text, "`eggs_double_next`")
    for value in kozyol.DEFEAT.values():
        assert f"{value} becomes {value * kozyol.EGGS_MULTIPLIER}" in doubled
    assert "do not stack" in doubled
    assert has_number(row(text, "`six_for_zero_points`"), kozyol.DEFEAT["no_trick"])
    assert "team 0 is seats 0 and 2, team 1 is seats 1 and 3" in flat(text)


@pytest.mark.parametrize("option", kozyol.OPTIONS)
def test_kozyol_options_are_described(option):
    row(section(2), f"`{option}`")


@pytest.mark.parametrize("count", range(hearts.MIN_PLAYERS, hearts.MAX_PLAYERS + 1))
def test_hearts_deal_table(count):
    dealt = hearts.deal(count)
    row(section(3), str(count), str(dealt["cards_each"]), str(dealt["left_over"]))


def test_hearts_numbers():
    text = section(3)
    assert f"(**{hearts.MIN_PLAYERS} to {hearts.MAX_PLAYERS}**)" in flat(text)
    assert f"({hearts.CARDS} cards)" in flat(text)
    assert has_number(row(text, "each heart"), hearts.HEART)
    assert has_number(row(text, "each Black Maria"), hearts.BLACK_MARIA)
    assert f"{hearts.HEARTS} hearts and {hearts.BLACK_MARIAS} Black Marias" in flat(text)
    assert f"all {hearts.HEARTS} hearts and both Black Marias" in flat(text)
    first, second = hearts.MOON_POINTS
    assert has_number(text, -first)
    moon = row(text, "`moon_points`")
    assert has_number(moon, first) and f"{first} or {second}" in moon
    target = row(text, "`target`")
    assert has_number(target, hearts.TARGET) and f"from {hearts.TARGET_MIN} to {hearts.TARGET_MAX}" in target
    assert f"(default **{hearts.TARGET}**)" in flat(text)
    assert hearts.PASSES == ("left", "right") and "to the left in hands 1, 3, 5" in flat(text)


@pytest.mark.parametrize("option", hearts.OPTIONS)
def test_hearts_options_are_described(option):
    row(section(3), f"`{option}`")


def test_hearts_fewest_hearts_table():
    counts = range(hearts.MIN_PLAYERS, hearts.MAX_PLAYERS + 1)
    row(section(3), "players", *map(str, counts))
    row(section(3), "fewest hearts taken", *(str(hearts.HEARTS - count) for count in counts))
    assert f"at least {hearts.HEARTS} - N" in flat(section(3))


def test_the_limits_and_ranges_are_the_engines():
    text = section(4)
    for slug, title in (("barbu", "Barbu"), ("kozyol", "Kozyol"), ("hearts", "Cancellation Hearts")):
        row(text, title, str(GAMES[slug].max_hands))
    low, high = barbu.DOMINO_SCORE_RANGE
    assert f"each from {low} to {high}" in row(section(1), "`domino_scores`")
    assert f"{low} to {high}" in row(text, "Barbu `domino_scores`, each")
    assert "{} to {}".format(*kozyol.TARGET_RANGE) in row(text, "Kozyol `target`")
    assert f"adding up to {kozyol.FEWEST_TRICKS} to {kozyol.TRICKS_PER_DEAL}" in row(text, "Kozyol tricks per team")
    assert f"they add up to {kozyol.FEWEST_TRICKS} to {kozyol.TRICKS_PER_DEAL}" in flat(section(2))
    assert f"{hearts.TARGET_MIN} to {hearts.TARGET_MAX}" in row(text, "Hearts `target`")
    assert f"0 to {hearts.HEARTS}" in row(text, "Hearts hearts per player")
    assert "lasts at most 99 deals" in flat(text)
    most = kozyol.TARGET_RANGE[1] - kozyol.DEFEAT["light"]  # the most defeat points a team holds short of it
    assert 2 * most // kozyol.DEFEAT["light"] + 1 == 99 < kozyol.MAX_DEALS


def test_the_compulsory_double_sentence_is_the_engines():
    """The doc quotes the refusal a player sees; it must be the engine's sentence."""
    replay = barbu.GAME.new_replay(["Ann", "Bob", "Cid", "Dee"], barbu.parse_options(
        ["Ann", "Bob", "Cid", "Dee"], {"first_declarer": "Ann", "enforce_declarer_doubles": False}, None))
    for contract in barbu.CONTRACTS[:5]:
        replay.play({"contract": contract, **ENTRIES[contract]})
    hand = replay.play({"contract": "trumps", "tricks": dict.fromkeys(["Ann", "Bob", "Cid"], 3) | {"Dee": 4}})
    assert hand["warnings"][0] in flat(doc())


ENTRIES = {
    "no_tricks": {"tricks": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}},
    "no_queens": {"queens": {"Ann": 1, "Bob": 1, "Cid": 1, "Dee": 1}},
    "no_hearts": {"hearts": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}, "ace_of_hearts": "Ann"},
    "no_last_two": {"second_last": "Ann", "last": "Bob"},
    "barbu": {"king_of_hearts": "Cid"},
}
