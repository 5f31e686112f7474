"""The types hold: the rules engines pass `mypy --strict`, and the rest of the package gains no new type errors.

Mypy comes with the test extra, its settings in pyproject.toml ([tool.mypy]). The engines must be clean under
--strict. The whole package is checked without it against tests/mypy-baseline.txt: one line per error it has
today, written `path: [code] message`, without line numbers, so an edit that moves lines changes nothing.
An error not in the file fails; so does a line of the file whose error is gone, until the line is deleted:
the count can only go down.
"""

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "tests" / "mypy-baseline.txt"
ENGINES = ["scorekeeper/games", "scorekeeper/club/engine"]
# mypy's line for an error: path:line[:column]: error: message  [code]
ERROR = re.compile(r"(?P<path>.+?):\d+(?::\d+)?: error: (?P<message>.*?)(?:  \[(?P<code>[\w-]+)\])?")


def mypy(*args: str, cache: str) -> subprocess.CompletedProcess[str]:
    # Each check keeps its own cache under .mypy_cache (git-ignored): a first run takes half a minute, the
    # next ones a few seconds.
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", f".mypy_cache/{cache}", "--show-error-codes", "--no-pretty",
         *args],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )


# A list of names in a message ("Missing keys ("a", "b") for TypedDict"), which mypy writes in the order of a
# set: another order in another process.
NAMES = re.compile(r'\(("[^"]*"(?:, "[^"]*")+)\)')
# A list cut short ("expected one of ("a", "b", ...)") shows the first few names of that set: another few, in
# another process or from mypy's cache. Only that it is such a list is the same every run.
CUT_SHORT = re.compile(r'\((?:"[^"]*", )+\.\.\.\)')


def same_order(message: str) -> str:
    """A message with its lists of names sorted (and a list cut short as such), so that one error reads the same in
    every run.

    >>> same_order('Missing keys ("b", "a") for TypedDict "T"')
    'Missing keys ("a", "b") for TypedDict "T"'
    >>> same_order('expected one of ("c", "b", ...)') == same_order('expected one of ("a", "d", ...)')
    True
    """
    message = CUT_SHORT.sub("(...)", message)
    return NAMES.sub(lambda names: "(" + ", ".join(sorted(names[1].split(", "))) + ")", message)


def without_line_numbers(output: str) -> list[str]:
    """mypy's errors as the baseline writes them, `path: [code] message`, sorted; its notes are left out."""
    found = []
    for line in output.splitlines():
        if error := ERROR.fullmatch(line):
            path = Path(error["path"]).as_posix()
            found.append(f"{path}: [{error['code'] or 'misc'}] {same_order(error['message'])}")
    return sorted(found)


def test_a_list_of_names_reads_the_same_in_any_order():
    assert same_order('Missing keys ("max_hands", "finished", "winners") for TypedDict "MatchState"') == \
        same_order('Missing keys ("finished", "winners", "max_hands") for TypedDict "MatchState"')


def test_errors_are_read_without_their_line_numbers():
    output = (
        'scorekeeper/web/links.py:40: error: Returning Any from function declared to return "str"  [no-any-return]\n'
        "scorekeeper/web/links.py:41: note: See https://mypy.rtfd.io\n"
        'scorekeeper/models.py:31:5: error: Name "db.Model" is not defined  [name-defined]\n'
        "Found 2 errors in 2 files (checked 108 source files)\n"
    )
    assert without_line_numbers(output) == [
        'scorekeeper/models.py: [name-defined] Name "db.Model" is not defined',
        'scorekeeper/web/links.py: [no-any-return] Returning Any from function declared to return "str"',
    ]


def test_the_engines_pass_mypy_strict():
    result = mypy("--strict", *ENGINES, cache="strict")
    assert result.returncode == 0, f"mypy --strict {' '.join(ENGINES)} finds errors:\n{result.stdout}{result.stderr}"


def test_the_rest_of_the_package_has_no_new_type_errors():
    result = mypy("scorekeeper", cache="package")
    assert result.returncode in (0, 1), f"mypy did not check the package:\n{result.stdout}{result.stderr}"
    found = Counter(without_line_numbers(result.stdout))
    known = Counter(same_order(line) for line in BASELINE.read_text(encoding="utf-8").splitlines() if line.strip())
    new = sorted((found - known).elements())
    assert not new, "mypy finds errors that tests/mypy-baseline.txt does not list; fix them:\n" + "\n".join(new)
    gone = sorted((known - found).elements())
    assert not gone, (
        "These errors are fixed: delete their lines from tests/mypy-baseline.txt, so they cannot come back:\n"
        + "\n".join(gone)
    )
