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


# Playwright evaluates a wait's condition with eval() on every poll unless it is a function, which it evaluates
# once, while the page is first asked; after that the page's Content Security Policy (no 'unsafe-eval') refuses
# eval, so a bare expression that does not hold at once fails the wait ("EvalError") instead of waiting.
FUNCTION = ("(", "function", "async")


def is_function(source: str) -> bool:
    text = source.strip()
    return text.startswith(FUNCTION) or text.split("=>", 1)[0].strip().isidentifier()


def bare_waits(source: str) -> list[str]:
    """The wait_for_function calls in source whose condition is a string that is not a function."""
    tree = ast.parse(source)
    constants = {target.id: node.value.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
                 for target in node.targets if isinstance(target, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "wait_for_function":
            condition = node.args[0] if node.args else None
            text = (condition.value if isinstance(condition, ast.Constant)
                    else constants.get(condition.id) if isinstance(condition, ast.Name) else None)
            if isinstance(text, str) and not is_function(text):
                found.append(f"line {node.lineno}: {text.strip()[:60]}")
    return found


def test_the_wait_check_tells_a_function_from_an_expression():
    assert bare_waits("page.wait_for_function(\"document.fonts.status === 'loaded'\")") != []
    assert bare_waits("X = 'window.ready'\npage.wait_for_function(X)") != []
    assert bare_waits("page.wait_for_function('() => window.ready')\npage.wait_for_function('el => el.ok', arg=1)\n"
                      "page.wait_for_function('([a, b]) => a < b')\npage.wait_for_function('async () => 1')") == []


def test_every_browser_wait_is_on_a_function():
    bare = {name(path): found for path in FILES if (found := bare_waits(path.read_text(encoding="utf-8")))}
    assert not bare, f"give wait_for_function a function ('() => ...'), or use helpers.browser.wait_until: {bare}"
