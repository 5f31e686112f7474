"""Rule numbers live in the engine: templates and the script print the engine's own values.

Every whole number the engine's rule tables hold (13 tricks, 26 hearts, the domino scores,
the card values, the count and target limits...) is collected from the engine modules; none
may be typed in a template or in a module of static/js/, where it would silently stay behind
when a rule or an option changes. 0 and 1 are not rules (a first index, an empty count).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from scorekeeper.games import barbu, base, hearts, kozyol

ROOT = Path(__file__).resolve().parent.parent
# Names and hyphenated words (h1, seat-3, place_0) are read whole, so only free-standing numbers remain.
TOKENS = re.compile(r"[A-Za-z_][\w-]*|\d+")
# How many columns or rows a header cell spans is the table's shape, not a rule.
SPANS = re.compile(r'\b(?:colspan|rowspan)="\d+"')
# An HTTP status the script compares an answer with is the protocol's number, not a rule.
STATUSES = re.compile(r"\bstatus\s*[!=]==?\s*\d{3}\b")
CANVAS = re.compile(r"""getContext\(["']2d["']\)""")  # the canvas API's name of a flat drawing, not a number


def numbers_in(value: object) -> Iterator[int]:
    """Every int inside a constant: itself, or the items, keys and values of a table."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield abs(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from numbers_in(key)
            yield from numbers_in(item)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from numbers_in(item)


def rule_numbers(*modules: ModuleType) -> set[int]:
    """The whole numbers of the engine's module-level constants (UPPER_CASE names), 2 and up."""
    found = {n for module in modules for name, value in vars(module).items() if name.isupper()
             for n in numbers_in(value)}
    return {n for n in found if n >= 2}


RULES = rule_numbers(base, barbu, kozyol, hearts)
# The readable sheet's template places bubbles, boxes and words at millimetres (its geometry, not a rule); every
# figure it prints on a bubble comes from scorekeeper/paper/layout.py, and its geometry from the same module.
GEOMETRY = {ROOT / "templates/sheets/paper.html"}
PAGES = sorted({*ROOT.glob("templates/**/*.html"), *ROOT.glob("static/js/**/*.js")} - GEOMETRY)


def test_the_engine_holds_the_numbers_players_know():
    assert {13, 26, 28, 120, 60, 45, 20, 5, 40, 11, 150, 1000} <= RULES


def typed_numbers(text: str) -> list[tuple[int, str]]:
    """Free-standing numbers in a page or script, with the line they stand on."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for token in TOKENS.findall(CANVAS.sub("", STATUSES.sub("", SPANS.sub("", line)))):
            if token.isdigit():
                found.append((int(token), f"{number}: {line.strip()[:100]}"))
    return found


@pytest.mark.parametrize("path", PAGES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_rule_number_is_typed_in_a_template_or_the_script(path: Path):
    typed = [f"{path.relative_to(ROOT)}:{where}" for number, where in typed_numbers(path.read_text())
             if number in RULES]
    assert not typed, "rule numbers typed instead of taken from the engine:\n" + "\n".join(typed)


def test_the_check_finds_a_typed_rule_number():
    assert [n for n, _ in typed_numbers('<input max="13"> {{ x|columns(2, 4) }} seat-3 h1 <th colspan="2">')] == [13, 2, 4]
    assert [n for n, _ in typed_numbers('if (response.status === 200) { max = 200; }')] == [200]
