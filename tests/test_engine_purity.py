"""The rules engines and the club engine are pure: importing them loads no web or database module.

Every module under scorekeeper/games/ and scorekeeper/club/engine/ is found with pkgutil, so a new game
or club figure is covered the day its file appears. The club's ratings use one library, openskill.
"""

import pkgutil
from pathlib import Path

from helpers.purity import WEB_PACKAGES, run_python

ROOT = Path(__file__).resolve().parents[1]
GAMES_DIR = ROOT / "scorekeeper" / "games"
CLUB_DIR = ROOT / "scorekeeper" / "club" / "engine"


def package_modules(package: str, folder: Path) -> list[str]:
    """Dotted names of a package and every module inside it."""
    found = sorted(info.name for info in pkgutil.iter_modules([str(folder)]))
    return [package] + [f"{package}.{name}" for name in found]


def engine_modules() -> list[str]:
    """Dotted names of scorekeeper.games and every module inside it."""
    return package_modules("scorekeeper.games", GAMES_DIR)


def club_modules() -> list[str]:
    """Dotted names of scorekeeper.club.engine and every module inside it."""
    return package_modules("scorekeeper.club.engine", CLUB_DIR)


def test_every_engine_module_is_found():
    modules = engine_modules()
    assert "scorekeeper.games.base" in modules
    assert "scorekeeper.games.barbu" in modules


def test_every_club_module_is_found():
    assert {"scorekeeper.club.engine.digest", "scorekeeper.club.engine.ratings"} <= set(club_modules())


def test_importing_the_engines_loads_no_web_module():
    code = (
        f"import {', '.join(engine_modules() + club_modules())}; import sys; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(WEB_PACKAGES)!r}))"
    )
    assert run_python(code) == "[]"


def test_the_engines_import_only_the_standard_library():
    # -S keeps site-packages (and its .pth hooks) off the path: a third-party import fails outright.
    code = (
        f"import {', '.join(engine_modules())}; import sys; "
        "print(sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names) - {'__main__'}))"
    )
    assert run_python(code, "-S") == "['scorekeeper']"


def test_the_club_engine_imports_the_standard_library_and_openskill_only():
    # Site-packages stay on the path for openskill; what the interpreter loads by itself is left out,
    # and every other module is named by the distribution it comes from.
    code = (
        "import sys; before = set(sys.modules); "
        f"import {', '.join(club_modules())}; "
        "from importlib.metadata import packages_distributions; owners = packages_distributions(); "
        "loaded = {m.split('.')[0] for m in set(sys.modules) - before} - set(sys.stdlib_module_names); "
        "print(sorted({owners.get(m, [m])[0] for m in loaded}))"
    )
    assert run_python(code) == "['openskill', 'scorekeeper']"
