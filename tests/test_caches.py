"""One map of the caches: every process cache is a Kept (one read-through helper, bounded, locked), and
docs/caches.md names each of them with its key and bound. A cache added without both fails here."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from scorekeeper.kept import Kept

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"
DOC = (ROOT / "docs" / "caches.md").read_text(encoding="utf-8")
# A module-level cache: NAME = Kept(...), NAME: Kept[...] = Kept(...), or a page cache of the web layer.
MADE = re.compile(r"^(_?[A-Za-z_]+)\s*(?::[^=]+)?=\s*(Kept|SharedPages|PageCache|SheetCache|OrderedDict)\b", re.M)


def sources() -> dict[str, str]:
    return {str(path.relative_to(PACKAGE)): path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def test_no_module_keeps_a_cache_of_its_own_making():
    """cachetools and lru stores are used by kept.py alone: a hand-written read-through cache is a Kept."""
    found = [name for name, text in sources().items() if name != "kept.py"
             and re.search(r"\bLRUCache\b|\bTTLCache\b|from cachetools|import cachetools", text)]
    assert not found, f"use scorekeeper.kept.Kept instead of cachetools in {found}"


def test_every_process_cache_is_in_the_map():
    made = {(name, variable) for name, text in sources().items() for variable, _kind in MADE.findall(text)}
    assert len(made) >= 15, sorted(made)  # the map lists them all: if the scan finds few, it broke
    missing = [f"{name}: {variable}" for name, variable in sorted(made) if f"`{variable}`" not in DOC]
    assert not missing, "docs/caches.md does not list: " + ", ".join(missing)


def test_a_kept_value_is_made_once_per_key_and_the_bound_holds():
    kept: Kept[int, int] = Kept(maxsize=3)
    made: list[int] = []

    def make(key: int) -> int:
        made.append(key)
        return key * key

    assert [kept.fetch(key % 4, lambda key=key: make(key % 4)) for key in range(8)] == [0, 1, 4, 9] * 2
    assert len(kept) == 3 and kept.size == 3
    assert made == [0, 1, 2, 3, 0, 1, 2, 3]  # four keys through a bound of three: each one aged out in turn
    assert kept.fetch(3, lambda: -1) == 9  # the latest three stay
    sized: Kept[str, str] = Kept(maxsize=10, sizeof=len)
    for key in "abcdef":
        sized.put(key, key * 3)
    assert sized.size == 9 and sorted(sized) == ["d", "e", "f"]
    assert sized.put("big", "x" * 11) == "x" * 11 and "big" not in sized  # larger than the bound: not kept


def test_a_none_value_is_kept_like_any_other():
    kept: Kept[str, object] = Kept(maxsize=2)
    calls: list[str] = []
    for _ in range(3):
        kept.fetch("x", lambda: calls.append("x"))
    assert calls == ["x"]


def test_threads_that_fetch_together_all_get_a_value_and_the_bound_holds():
    kept: Kept[int, int] = Kept(maxsize=16)
    answers: list[int] = []

    def worker(offset: int) -> None:
        for step in range(500):
            key = (step * 7 + offset) % 40
            answers.append(kept.fetch(key, lambda key=key: key + 1000) - key)

    threads = [threading.Thread(target=worker, args=(offset,)) for offset in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(answers) == {1000} and len(answers) == 3000 and len(kept) <= 16
