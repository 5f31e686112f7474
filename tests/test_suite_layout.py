"""The suite's own layout: a test module imports helpers, never another test module or a conftest.py.

Every .py file under tests/ is read, so a new test file is checked the day it appears. A conftest.py
holds fixtures and pytest hooks only; what tests share otherwise lives in tests/helpers/.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
FILES = sorted(TESTS.rglob("*.py"))
CONFTESTS = [path for path in FILES if path.name == "conftest.py"]


def name(path: Path) -> str:
    return str(path.relative_to(TESTS))


def imported(tree: ast.Module) -> list[str]:
    """The last part of every module a file imports: "conftest", "test_pdf", "helpers.api"."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.module:
                found.append(node.module)
            else:  # from . import test_x
                found += [alias.name for alias in node.names]
    return found


def test_the_suite_is_found():
    assert TESTS / "conftest.py" in CONFTESTS and TESTS / "helpers" / "__init__.py" in FILES


def wrong_imports(source: str) -> list[str]:
    """The test modules and conftests that source imports."""
    return [module for module in imported(ast.parse(source))
            if module.split(".")[-1] == "conftest" or module.split(".")[-1].startswith("test_")]


def test_the_check_sees_every_spelling():
    source = "from conftest import bearer\nimport test_pdf\nfrom .test_accessibility_browser import TAP\nfrom . import conftest\n"
    assert wrong_imports(source) == ["conftest", "test_pdf", "test_accessibility_browser", "conftest"]
    assert wrong_imports("from helpers.api import bearer\nfrom helpers import pdf\n") == []


def test_no_file_imports_a_test_module_or_a_conftest():
    wrong = {name(path): found for path in FILES if (found := wrong_imports(path.read_text(encoding="utf-8")))}
    assert not wrong, f"move what these need to tests/helpers/: {wrong}"


def is_fixture(node: ast.FunctionDef) -> bool:
    for decorator in node.decorator_list:
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        if ast.unparse(called) in ("pytest.fixture", "fixture"):
            return True
    return False


def test_a_conftest_holds_fixtures_and_hooks_only():
    helpers = {}
    for path in CONFTESTS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [node.name for node in tree.body
                 if isinstance(node, ast.ClassDef)
                 or isinstance(node, ast.FunctionDef) and not is_fixture(node) and not node.name.startswith("pytest_")]
        if found:
            helpers[name(path)] = found
    assert not helpers, f"helpers belong in tests/helpers/: {helpers}"
