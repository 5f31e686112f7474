"""The shape docs/layout.md draws: a web layer of a dozen plumbing modules over feature folders that ask the
database nothing themselves, and the club in one folder."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"
WEB = PACKAGE / "web"
# The calls that query: SQLAlchemy's session and connection methods, and its statement builders.
QUERIES = {"execute", "scalar", "scalars", "query", "select", "insert", "update", "delete", "text", "get",
           "exec_driver_sql"}
# Not the app's database: the rate limiter's own file of counts, a storage of the `limits` library (sqlite3).
OWN_STORE = {"web/rate_limits/counts.py"}


def web_modules() -> list[Path]:
    return sorted(WEB.rglob("*.py"))


def test_the_web_layer_holds_at_most_a_dozen_modules_directly():
    direct = [path.name for path in WEB.glob("*.py") if path.name != "__init__.py"]
    assert len(direct) <= 12, sorted(direct)
    folders = {path.name for path in WEB.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    assert {"match", "games", "sheets", "rules", "api", "club"} <= folders


def test_no_web_module_queries_the_database():
    """No web module imports SQLAlchemy, and none calls a query on the session or an engine: the stores do."""
    found = []
    for path in web_modules():
        if str(path.relative_to(PACKAGE)) in OWN_STORE:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                found += [f"{path.relative_to(PACKAGE)}: imports {name}" for name in names
                          if name.split(".")[0] == "sqlalchemy"]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in QUERIES:
                owner = ast.unparse(node.func.value)
                if owner in {"db.session", "db.engine", "connection", "engine"}:  # session alone is the cookie
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {owner}.{node.func.attr}()")
    assert not found, found


def test_nothing_named_club_at_the_package_root_outside_club():
    assert [path.name for path in PACKAGE.iterdir() if "club" in path.name and path.name != "club"] == []
    assert (PACKAGE / "club" / "engine").is_dir()
