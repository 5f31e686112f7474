"""How manage.py test spreads the suite over pytest-xdist workers: a test file to a worker, the browser tests to one.

A test file stays whole on one worker, so its module-scoped servers start once. The browser tests all
run on one worker, one after another: two chromiums and their servers at once on a small machine
would test the machine, not the app. They are also the longest unit, so they are handed out first.

(pytest-xdist's own --dist loadgroup groups by a mark it writes into each test's id, which pytest 9
no longer lets a plugin change; this scheduler groups by the id's path instead.)
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

BROWSER = "tests/browser/"


def unit_of(nodeid: str) -> str:
    """The work unit of a test: the browser tests together (tests/browser/), any other test with its file."""
    path = nodeid.split("::", 1)[0]
    return BROWSER if path.startswith(BROWSER) else path


class FilesAndBrowsers(LoadScopeScheduling):
    """pytest-xdist's scope scheduling with unit_of as the scope."""

    def __init__(self, config, log=None) -> None:
        # Units in the order collected: tests/browser/ comes first, and is the one that takes longest.
        config.option.loadscopereorder = False
        super().__init__(config, log)

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)
