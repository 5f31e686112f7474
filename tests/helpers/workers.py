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


def distinct_ids(items: list) -> int:
    """Give each test that shares its node id with others the name it already has; how many were renamed.

    Schemathesis names each operation's test in the item's name (`test_x[GET /api/v1/matches]`) and in
    the string id pytest 8 read (`_nodeid`); pytest 9 reads a structured id (`_id`), which Schemathesis
    leaves as the function's, so all fifty shared one. pytest-xdist hands tests out and counts their
    reports by node id: under it the fifty ran as one. In one process nothing changes but the id printed.
    """
    seen: dict[str, int] = {}
    for item in items:
        seen[item.nodeid] = seen.get(item.nodeid, 0) + 1
    renamed = 0
    for item in items:
        if seen[item.nodeid] > 1 and "[" in item.name:
            _rename(item, f"{item.nodeid.rsplit('::', 1)[0]}::{item.name}")
            renamed += 1
    return renamed


def _rename(item, nodeid: str) -> None:
    """Set a test's node id, in whichever form this pytest keeps it (none has a public way to)."""
    if hasattr(item, "_id"):
        from _pytest.nodeid import NodeId  # pytest 9

        item._id = NodeId.parse(nodeid)
    else:
        item._nodeid = nodeid  # pytest 8
