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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from helpers.browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, PHONE, WAIT, Live, Taps, opened, report
from helpers.browser_servers import SERVE, ClosingHandler, ServerProcess, app_config, closing
from scorekeeper.app import create_app
from scorekeeper.db import db

expect.set_options(timeout=WAIT)


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
    ``phone(base_url=server_process.url)`` one that talks to another server process, ``phone(locale="km-KH")``
    one set to Khmer (its Accept-Language and navigator.language).
    The browser, with every phone in it, closes before the server stops.
    """

    def open_phone(color_scheme: str = "light", base_url: str | None = None, **options: Any) -> Any:
        context = browser.new_context(**{**PHONE, **options}, color_scheme=color_scheme, base_url=base_url or live_server)
        context.set_default_timeout(WAIT)
        return opened(context, scripts=options.get("java_script_enabled", True))

    yield open_phone
    browser.close()


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
