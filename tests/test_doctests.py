"""The examples in the docstrings are true: every module under scorekeeper/ that shows one (`>>>`) runs them.

The modules are found by their `>>>`, so an example added to any module is run the day it is written;
the rules engines must keep theirs. None of the examples needs an app or a request: they show pure
functions. One that did would fail here, and should build what it needs in the example itself.
"""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"
# The rules engines document their scoring with examples; losing them is a failure, not a skip.
REQUIRED = {
    "scorekeeper.games.base",
    "scorekeeper.games.barbu",
    "scorekeeper.games.kozyol",
    "scorekeeper.games.hearts",
}


def modules_with_examples() -> list[str]:
    """Dotted names of the modules under scorekeeper/ whose source contains a `>>>` example."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


MODULES = modules_with_examples()


def test_the_engines_have_examples():
    assert REQUIRED <= set(MODULES), f"no `>>>` examples left in {sorted(REQUIRED - set(MODULES))}"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str):
    module = importlib.import_module(name)
    report: list[str] = []
    runner = doctest.DocTestRunner(verbose=False)
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test, out=report.append)
    assert runner.tries > 0, f"{name} shows `>>>` but no docstring example was found and run"
    assert runner.failures == 0, "".join(report)
