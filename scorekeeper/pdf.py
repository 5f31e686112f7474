"""PDF output: render_pdf(template, **ctx) -> bytes, fetching nothing but the app's own static files.

A sheet is laid out as if it were served from ORIGIN, a name that never resolves (RFC 2606's
.invalid). The fetcher answers that origin's static paths from the static folder on disk and
refuses every other URL by raising ValueError, which WeasyPrint reports and skips: no network,
no ``file:``, no ``data:``, nothing outside the folder. WeasyPrint's FatalURLFetchingError is a
BaseException that error handlers do not catch, so it is never used.

The fonts come with the app: @font-face rules in static/sheet-fonts.css load them through the same
fetcher, a family for the sheets' own words and one for each script a name is typed in (Latin,
Greek and Cyrillic, Arabic, Hebrew, Devanagari, Thai, Lao, Khmer, Chinese, Japanese and Korean,
emoji), so that a sheet prints whole on a machine with no font installed. Only a character none of
them draws falls back to the machine's fonts, which Pango reads from disk through fontconfig (never
through a URL). One FontConfiguration serves the process (a fresh one per render leaks memory), and
the stylesheets are parsed once against it; a new one is made, and the stylesheets parsed again,
when the machine's fonts change (``system_fonts.fingerprint``, which kept sheets are keyed by too).
WeasyPrint 70 writes a gradient's stops back into the parsed stylesheet once computed in points, so
static/sheet.css gives them in percent, never in a unit of the type, which would keep the first sheet's.
WeasyPrint and Pango are not thread-safe, so renders take turns behind a lock and no two threads
ever touch the shared state at once. The lock is one of the operating system's threads even in a
gevent worker, where a render runs in a thread of its own (``render_slots.off_the_hub``).

The cyclic garbage collector is paused while a document is laid out and written. A render allocates
hundreds of thousands of short-lived boxes, so the collector would run many times during it, and each of its
full passes walks every object the process keeps (a big club's figures run to millions); an evening's results
took three times as long with it running. The boxes are freed by reference counting as they go; what cycles
they leave are collected when the collector resumes after the render, however it ended. Other requests served
during a render (a gevent worker's greenlets) allocate under the same pause, for at most that render's time.

A view prepares a ``Layout`` (the template rendered to HTML, which needs the request) and lays it
out as PDF later, possibly in another thread: ``Layout.pdf`` needs nothing of Flask. The app's
PDF_EXTRA_CSS, empty but in tests, is laid out after the stylesheets (a test prints only the names,
or only the rules, to see that they never meet).
"""

from __future__ import annotations

import atexit
import functools
import gc
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from flask import current_app, has_request_context, render_template, request
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from . import actual_text, system_fonts
from .render_slots import os_lock

ORIGIN = "https://scorekeeper.invalid"
URL_MAX = 500  # a longer URL is no static file of ours; keeps refusals short in the logs
STYLESHEETS = ("sheet-fonts.css", "sheet.css")  # static files every PDF is laid out with, parsed once per process

actual_text.install()
_lock = os_lock()
_fonts: FontConfiguration | None = None
_fonts_of = ""  # the machine's fonts (system_fonts.fingerprint) _fonts was made with
_parsed: dict[Path, tuple[int, CSS]] = {}


@dataclass(frozen=True)
class Layout:
    """An HTML document and the static files it is laid out with: all a PDF render needs."""

    html: str
    folder: str
    prefix: str = "/static/"
    base_path: str = "/"
    stylesheets: tuple[str, ...] = ()
    css: str = ""  # laid out after the stylesheets (PDF_EXTRA_CSS)

    def pdf(self) -> bytes:
        return html_to_pdf(self.html, self.folder, self.prefix, self.base_path, self.stylesheets, self.css)


class StaticFetcher(URLFetcher):
    """Serve ORIGIN + prefix + path from folder; refuse everything else with ValueError.

    >>> fetcher = StaticFetcher("/srv/static")
    >>> fetcher.fetch("file:///etc/passwd")
    Traceback (most recent call last):
    ...
    ValueError: not a static file of this app: file:///etc/passwd
    """

    def __init__(self, folder: str | Path, prefix: str = "/static/"):
        # WeasyPrint's own settings, through its constructor: no protocol allowed, no redirects,
        # a failed fetch never stops a render. fetch() and open() below never hand a URL to the
        # network handlers the constructor installs. Building them loads the system's
        # certificates, so the app keeps one fetcher per static folder (fetcher_for).
        super().__init__(timeout=1, allowed_protocols=(), allow_redirects=False, fail_on_errors=False)
        self.folder = Path(folder).resolve()
        self.prefix = prefix

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:  # noqa: ARG002
        """Answer a static file of the app, or raise ValueError."""
        path = self.resolve(url)
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    def open(self, url: Any, data: Any = None, timeout: Any = None) -> URLFetcherResponse:  # noqa: ARG002
        """Only ever through fetch: the static folder or ValueError."""
        return self.fetch(url if isinstance(url, str) else url.full_url)

    def resolve(self, url: str) -> Path:
        """The file a URL names inside the static folder, or ValueError."""
        refused = ValueError(f"not a static file of this app: {url[:URL_MAX]}")
        if len(url) > URL_MAX:
            raise refused
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != ORIGIN or parts.query or parts.fragment:
            raise refused
        if not parts.path.startswith(self.prefix):
            raise refused
        relative = unquote(parts.path[len(self.prefix):])
        if not relative or "\0" in relative or "\\" in relative:
            raise refused
        path = (self.folder / relative).resolve()
        if not path.is_relative_to(self.folder) or not path.is_file():
            raise refused
        return path


@functools.cache
def fetcher_for(folder: str, prefix: str) -> StaticFetcher:
    """The process's one fetcher of a static folder."""
    return StaticFetcher(folder, prefix)


def font_config() -> FontConfiguration:
    """The process's font configuration, made on first use and again when the machine's fonts change, the
    stylesheets then parsed again (call with the lock held)."""
    global _fonts, _fonts_of
    machine = system_fonts.fingerprint()
    if _fonts is None or machine != _fonts_of:
        _fonts, _fonts_of = FontConfiguration(), machine
        _parsed.clear()  # their @font-face rules loaded the fonts into the configuration before
    return _fonts


@atexit.register
def _drop_fonts() -> None:
    """Let the font configuration remove its temporary folder when the process ends."""
    global _fonts
    _fonts = None
    _parsed.clear()


def stylesheet(name: str, fetcher: StaticFetcher, fonts: FontConfiguration) -> CSS:
    """A static stylesheet parsed once and kept while its file is unchanged (call with the lock held).

    Its @font-face rules load the fonts into the font configuration (font_config()) the first time.
    """
    url = f"{ORIGIN}{fetcher.prefix}{name}"
    path = fetcher.resolve(url)
    stamp = path.stat().st_mtime_ns
    if path not in _parsed or _parsed[path][0] != stamp:
        _parsed[path] = (stamp, CSS(url=url, url_fetcher=fetcher, font_config=fonts))
    return _parsed[path][1]


def html_to_pdf(html: str, folder: str | Path, prefix: str = "/static/", base_path: str = "/",
                stylesheets: tuple[str, ...] = (), css: str = "") -> bytes:
    """Lay out an HTML document (with static stylesheets, then css) as PDF, fetching only through StaticFetcher."""
    fetcher = fetcher_for(str(folder), prefix)
    with _lock:
        paused = gc.isenabled()  # the collector waits for the render: see the module's docstring
        if paused:
            gc.disable()
        try:
            fonts = font_config()
            document = HTML(string=html, base_url=ORIGIN + base_path, url_fetcher=fetcher)
            sheets = [stylesheet(name, fetcher, fonts) for name in stylesheets]
            if css:
                sheets.append(CSS(string=css, url_fetcher=fetcher, font_config=fonts))
            return document.write_pdf(stylesheets=sheets, font_config=fonts)
        finally:
            if paused:
                gc.enable()


def layout(template: str, **context: Any) -> Layout:
    """A template (the one the HTML view uses, with pdf=True) rendered, ready to lay out as PDF.

    The template links its stylesheets only when not pdf (with the browser's cut of the fonts,
    static/sheet-fonts-web.css): the PDF gets STYLESHEETS parsed from the cache, the TTF fonts among them.
    """
    if not has_request_context():
        with current_app.test_request_context():
            return layout(template, **context)
    html = render_template(template, pdf=True, **context)
    prefix = f"{request.script_root}{current_app.static_url_path}/"
    return Layout(html, current_app.static_folder or "static", prefix, f"{request.script_root}/", STYLESHEETS,
                  current_app.config.get("PDF_EXTRA_CSS", ""))


def render_pdf(template: str, **context: Any) -> bytes:
    """Render a template into PDF bytes, here and now."""
    return layout(template, **context).pdf()
