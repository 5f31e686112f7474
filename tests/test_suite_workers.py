"""The suite spread over workers: who gets which database, and what manage.py test passes to pytest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import manage
from helpers.databases import postgres_url
from helpers.workers import FilesAndBrowsers, distinct_ids, unit_of


def test_each_worker_has_a_postgres_database_of_its_own():
    given = "postgresql+psycopg://postgres:secret@127.0.0.1:5432/test_ci"
    assert postgres_url(given, "gw1") == "postgresql+psycopg://postgres:secret@127.0.0.1:5432/test_ci_gw1"
    assert postgres_url(given, "gw0") != postgres_url(given, "gw1")
    assert postgres_url(given, "") == given  # one process: the database given
    assert postgres_url("", "gw1") == ""  # the SQLite run


@pytest.mark.parametrize(("cores", "expected"), [(1, []), (2, ["-n", "2", "--dist", "loadgroup"]),
                                                 (16, ["-n", "4", "--dist", "loadgroup"])])
def test_the_test_command_spreads_over_the_cores_it_has(monkeypatch, cores, expected):
    monkeypatch.setattr(manage.os, "cpu_count", lambda: cores)
    assert manage.spread([]) == expected
    assert manage.spread(["-k", "barbu"]) == expected


@pytest.mark.parametrize("chosen", [["-n", "0"], ["-n3"], ["--numprocesses=2"], ["-p", "no:xdist"]])
def test_workers_chosen_on_the_command_line_win(monkeypatch, chosen):
    monkeypatch.setattr(manage.os, "cpu_count", lambda: 8)
    assert manage.spread(chosen) == []


def test_the_unit_of_a_test_is_its_file_or_the_browser_tests():
    assert unit_of("tests/browser/test_barbu_browser.py::test_a_match[light]") == "tests/browser/"
    assert unit_of("tests/browser/test_club_browser.py::test_x") == "tests/browser/"
    assert unit_of("tests/test_days.py::test_a_day_is_read_as_written[2024-02-29]") == "tests/test_days.py"
    assert unit_of("tests/test_days.py::test_odd[a::b]") == "tests/test_days.py"


def test_a_test_file_is_one_unit_and_the_browser_tests_are_one(request):
    units = {unit_of(item.nodeid) for item in request.session.items}
    assert "tests/test_suite_workers.py" in units
    assert not any(unit.startswith("tests/browser/test_") for unit in units)


class Worker:
    """A pytest-xdist worker as the scheduler sees it: the tests it is sent, by index in the collection."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.extend(indexes)

    def shutdown(self) -> None:
        self.shutting_down = True


def test_the_browser_tests_go_to_one_worker_first_and_each_file_stays_whole():
    collection = ["tests/browser/test_a_browser.py::one", "tests/browser/test_a_browser.py::two",
                  "tests/browser/test_b_browser.py::one", *[f"tests/test_api.py::t{n}" for n in range(40)],
                  *[f"tests/test_web.py::t{n}" for n in range(30)], "tests/test_days.py::t"]
    config = SimpleNamespace(option=SimpleNamespace(loadscopereorder=True, tx=["popen"] * 2, numprocesses=2,
                                                    maxprocesses=None, dist="loadgroup"),
                             getvalue=lambda name: {"tx": ["popen"] * 2, "numprocesses": 2}.get(name))
    scheduler = FilesAndBrowsers(config)
    workers = [Worker("gw0"), Worker("gw1")]
    for worker in workers:
        scheduler.add_node(worker)
        scheduler.add_node_collection(worker, collection)
    scheduler.schedule()
    first = {collection[index] for index in workers[0].sent}
    assert {nodeid for nodeid in collection if nodeid.startswith("tests/browser/")} <= first
    for worker in workers:
        files = {collection[index].split("::")[0] for index in worker.sent}
        for other in workers:
            if other is not worker:
                assert not files & {collection[index].split("::")[0] for index in other.sent}


def test_every_test_has_a_node_id_of_its_own(request):
    """pytest-xdist sends and counts tests by node id: tests sharing one would run as one (Schemathesis's
    fifty operations did), so every collected test must have its own."""
    ids = [item.nodeid for item in request.session.items]
    assert len(ids) == len(set(ids))
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist",
                                "-p", "no:cacheprovider", "tests/test_schemathesis.py"],
                               cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True)
    fuzzed = [line for line in collected.stdout.splitlines() if "::test_every_operation_answers_as_documented" in line]
    assert len(fuzzed) >= 40 and len(set(fuzzed)) == len(fuzzed), collected.stdout[-2000:]
    assert "[POST /api/v1/matches]" in collected.stdout


def test_tests_sharing_a_node_id_take_their_names():
    class Item(SimpleNamespace):  # as pytest 8 kept it: the id as a string
        @property
        def nodeid(self) -> str:
            return self._nodeid

    items = [Item(_nodeid="t.py::f", name=name) for name in ("f[GET /a]", "f[POST /a]")]
    items.append(Item(_nodeid="t.py::g[1]", name="g[1]"))
    assert distinct_ids(items) == 2
    assert [item.nodeid for item in items] == ["t.py::f[GET /a]", "t.py::f[POST /a]", "t.py::g[1]"]
