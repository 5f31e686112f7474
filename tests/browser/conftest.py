"""Real-browser fixtures: the app served on the test database, Debian's chromium, phone-sized pages.

Playwright drives the chromium of the system (``/usr/bin/chromium``, Debian package ``chromium``);
``playwright install`` is never needed. Without it the browser tests are skipped, except in CI
(``CI=true``), where a missing browser fails the run. Screenshots and the measured figures land
in ``artifacts/`` (not committed).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import WSGIRequestHandler, make_server

from helpers.browser import ARTIFACTS, report
from scorekeeper.app import create_app
from scorekeeper.db import db

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True, "locale": "en-GB"}
SECRET = "browser-test-secret"
# How long the live pages may take to show a change made on another phone (the promise).
LIVE_WITHIN = 3.0
# A second server process on the same database, as gunicorn runs several: prints its port.
SERVE = """
import json, sys
from werkzeug.serving import make_server
from scorekeeper.app import create_app
server = make_server("127.0.0.1", int(sys.argv[2]) if len(sys.argv) > 2 else 0, create_app(json.loads(sys.argv[1])),
                     threaded=True)
print(server.server_port, flush=True)
server.serve_forever()
"""


def app_config(database_url: str) -> dict[str, Any]:
    # The same secret in every process: a phone's session (its edit keys) works on all of them.
    return {"TESTING": True, "SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": database_url, "MIGRATE_ON_START": True,
            "RATELIMIT_ENABLED": False}


class Answer:
    """An answer of the app that is closed once, whoever closes it first."""

    current = threading.local()  # the answer of the request this server thread is serving

    def __init__(self, iterable: Any) -> None:
        self.iterable, self.closed = iterable, False

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.iterable)

    def close(self) -> None:
        if not self.closed and hasattr(self.iterable, "close"):
            self.iterable.close()
        self.closed = True


class ClosingHandler(WSGIRequestHandler):
    """Werkzeug's handler, closing the answer even when the phone hung up before reading all of it.

    Werkzeug drains a dropped connection before it closes the answer, and skips the close when that
    read fails (connection reset): a static file stays open, and its ResourceWarning fails a test. A
    page that loads a dozen modules is often mid-answer when its browser closes.
    """

    def run_wsgi(self) -> None:
        Answer.current.answer = None
        try:
            super().run_wsgi()
        finally:
            if Answer.current.answer is not None:
                Answer.current.answer.close()


def closing(app: Any) -> Callable[..., Answer]:
    """The app, its answers kept where ClosingHandler finds them."""

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Answer:
        Answer.current.answer = Answer(app(environ, start_response))
        return Answer.current.answer

    return serve


@pytest.fixture
def live_server(database_url: str) -> Iterator[str]:
    """The app on a free local port, in a thread, on this test's database; yields its base URL."""
    app = create_app(app_config(database_url))
    requests = logging.getLogger("werkzeug")
    level = requests.level
    requests.setLevel(logging.WARNING)  # no line per request in a failure's report
    server = make_server("127.0.0.1", 0, closing(app), threaded=True, request_handler=ClosingHandler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)
    requests.setLevel(level)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def second_server(live_server: str, database_url: str, tmp_path: Path) -> Iterator[str]:
    """Another server process on the same database (started after the first has migrated it)."""
    log = (tmp_path / "second-server.log").open("w")
    process = subprocess.Popen([sys.executable, "-c", SERVE, json.dumps(app_config(database_url))],
                               stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        port = process.stdout.readline().strip() if process.stdout else ""
        if not port.isdigit():
            pytest.fail(f"the second server did not start: {(tmp_path / 'second-server.log').read_text()}")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout:
            process.stdout.close()
        log.close()


class ServerProcess:
    """The app in a process of its own on a port that stays the same: a test may kill it and start it again."""

    def __init__(self, database_url: str, log: Path):
        self.config = json.dumps(app_config(database_url))
        self.log = log
        self.port = 0
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        with self.log.open("a") as log:
            process = subprocess.Popen([sys.executable, "-c", SERVE, self.config, str(self.port)],
                                       stdout=subprocess.PIPE, stderr=log, text=True)
        port = process.stdout.readline().strip() if process.stdout else ""
        if not port.isdigit():
            pytest.fail(f"the server did not start: {self.log.read_text()}")
        self.port, self.process = int(port), process
        return self

    def kill(self) -> None:
        """Stop it at once, as a power cut or a crash would: no request in flight gets an answer."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            if self.process.stdout:
                self.process.stdout.close()
            self.process = None


@pytest.fixture
def server_process(live_server: str, database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """The app in another process on this test's database (migrated by live_server), killable and restartable."""
    server = ServerProcess(database_url, tmp_path / "server-process.log").start()
    yield server
    server.kill()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright's driver, once for the whole run; skips (fails in CI) without a browser to drive."""
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "Playwright for Python is not installed (python3 manage.py test installs it)"
    if missing is None and not os.access(CHROMIUM, os.X_OK):
        missing = f"no chromium at {CHROMIUM} (apt-get install chromium; python3 manage.py test does it as root)"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests need a browser in CI: {missing}", pytrace=False)
        pytest.skip(missing)
    driver = sync_playwright().start()
    yield driver
    driver.stop()


@pytest.fixture
def browser(playwright: Any) -> Iterator[Any]:
    """A headless chromium of this test's own (about 0.7 s to start).

    It is closed whole, never context by context: closing one context can wait forever on a
    chromium that does not answer (a page's service worker, a stalled request), and one such
    wait stalled a whole test run. A fresh browser per test also keeps one test's service
    worker and storage away from the next.
    """
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    yield chromium
    chromium.close()


@pytest.fixture
def phone(browser: Any, live_server: str) -> Iterator[Callable[..., Any]]:
    """Open a phone: a fresh browser context (its own cookies) at phone size; returns its page.

    ``phone()`` is one phone at the table, ``phone(color_scheme="dark")`` one in dark mode,
    ``phone(base_url=server_process.url)`` one that talks to another server process.
    The browser, with every phone in it, closes before the server stops.
    """

    def open_phone(color_scheme: str = "light", base_url: str | None = None, **options: Any) -> Any:
        context = browser.new_context(**PHONE, color_scheme=color_scheme, base_url=base_url or live_server, **options)
        context.set_default_timeout(8000)
        context.add_init_script(REDRAWN)
        return context.new_page()

    yield open_phone
    browser.close()


class Taps:
    """Every tap of a test, counted: on buttons, chips, links and the keys of the phone's keyboard."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, locator: Any) -> None:
        locator.tap()
        self.count += 1

    def type(self, locator: Any, text: str) -> None:
        """Tap a field, then a key per character (the field selects its value on focus)."""
        self(locator)
        locator.page.keyboard.type(text)
        self.count += len(text)

    def reset(self) -> int:
        counted, self.count = self.count, 0
        return counted

    def report(self, hand: str, most: int, paper: str) -> int:
        """Keep the taps of a typical hand in artifacts/taps.json; at most `most` are allowed."""
        report("taps", hand, {"taps": self.count, "at_most": most, "on_paper": paper})
        assert self.count <= most, f"{hand} took {self.count} taps, more than {most}"
        return self.count


@pytest.fixture
def tap() -> Taps:
    return Taps()


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """Save a full-page screenshot to artifacts/screenshots/<test>-<name>.png for a person to look at."""

    def shoot(page: Any, name: str) -> Path:
        test = request.node.name.replace("[", "-").replace("]", "").replace("/", "-")
        path = ARTIFACTS / "screenshots" / f"{test}-{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        return path

    return shoot


# Every page notes when the live script last redrew it (static/js/live.js fires scorekeeper:updated after
# the swap): the delay is read from the page, not from how often Playwright looks (up to every 0.5 s).
REDRAWN = """document.addEventListener("scorekeeper:updated", () => {
  window.redrawnAt = performance.timeOrigin + performance.now();
});"""


class Live:
    """Measures how long a watching phone takes to show a change made on another phone."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.delays: dict[str, dict[str, float]] = {}
        self.tapped = 0.0

    def saved(self, page: Any, action: Callable[[], None]) -> float:
        """Do action (the tap that sends a form); return when the server answered: the change is stored."""
        self.tapped = time.time()
        with page.expect_response(lambda response: response.request.method == "POST"):
            action()
        return time.time()

    def wait(self, what: str, since: float, watcher: Any, show: Callable[[int], None]) -> float:
        """show(timeout_ms) waits for the change on the watching page; returns seconds from stored to redrawn."""
        show(int(LIVE_WITHIN * 1000) + 2000)
        redrawn = watcher.evaluate("window.redrawnAt") / 1000
        delay = round(redrawn - since, 2)
        self.delays[what] = {"after_stored": delay, "after_tap": round(redrawn - self.tapped, 2)}
        assert 0 < delay < LIVE_WITHIN, f"{what}: the watching phone showed it {delay} s after it was stored"
        return delay


@pytest.fixture
def live(request: pytest.FixtureRequest, database_url: str) -> Iterator[Live]:
    measured = Live(f"{request.node.name} on {database_url.split(':')[0].split('+')[0]}")
    yield measured
    if measured.delays:
        report("live", measured.name, measured.delays)


@pytest.fixture
def new_match() -> Callable[..., str]:
    """Start a match the way a player does: home page, the game's button, names, options; returns its id."""

    def start(page: Any, game: str, names: list[str], **menus: str) -> str:
        page.goto("/")
        page.locator(f'a.button.big[href="/new/{game}"]').tap()
        for seat, name in enumerate(names):
            page.locator(f"#players-{seat}").fill(name)
        for label, value in menus.items():
            page.get_by_label(label, exact=True).select_option(value)
        page.get_by_role("button", name="Start the match").tap()
        page.wait_for_url("**/m/*")
        return page.url.rsplit("/", 1)[1].split("#")[0]

    return start


@pytest.fixture
def sheet_pdf() -> Callable[[Any], bytes]:
    """Fetch the PDF score sheet through the match page's own link, with the phone's cookies."""

    def fetch(page: Any) -> bytes:
        link = page.get_by_role("link", name="Sheet as PDF")
        answer = page.context.request.get(link.get_attribute("href"))
        assert answer.ok, answer.status
        assert answer.headers["content-type"].startswith("application/pdf")
        return answer.body()

    return fetch
