"""Sheets kept as rendered: each PDF is made once per match version, language and build of the app.

A sheet's bytes depend on what it shows (a match at one version, which every write raises, or a
blank sheet's game and names), the language it is printed in, the code, templates, stylesheet,
fonts and translations that print it (the build), and the machine's own fonts, which a character
none of the app's fonts draws falls back to (``system_fonts.fingerprint``: a font installed since
is a new tag, and the new font prints without a restart). Kept under a tag made of all of these,
a kept PDF never shows old totals, an old layout or a box where a font now has the letter. The tag
is also the answer's ETag, so a phone asking again with If-None-Match gets 304 without a read.

They are kept on disk, in the instance folder: every worker of the machine shares them, and
they outlive a worker's recycling and a restart, so one render serves every phone of a table
whichever worker answers it. (A cache in each worker's memory would render a version once per
worker and keep that many copies.) The folder holds at most PDF_CACHE_BYTES: the sheets served
least recently go first; 0 keeps none. Files are written whole and renamed into place, so two
workers never read half a sheet. Emptying the folder at any time is safe.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
from pathlib import Path

import weasyprint

from ... import system_fonts
from ...config import ROOT
from ..page_cache import trim_to_budget

# What prints a sheet, besides the data: a change to any of these is a new build.
BUILD_FILES = ("scorekeeper/**/*.py", "templates/sheets/*.html", "templates/games/*/sheet.html",
               "static/sheet.css", "static/sheet-fonts.css", "static/fonts/*.ttf", "translations/**/*.mo")


@functools.cache
def build() -> str:
    """A digest of the files that print a sheet, and of the WeasyPrint that lays it out (once per process)."""
    digest = hashlib.sha256(weasyprint.__version__.encode())
    for pattern in BUILD_FILES:
        for path in sorted(ROOT.glob(pattern)):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


class SheetCache:
    """Rendered PDFs in a folder, under tags; at most budget bytes, the least recently served go first.

    >>> import tempfile
    >>> cache = SheetCache(Path(tempfile.mkdtemp()), budget=10)
    >>> first, second = cache.tag("match", "abc", 1, "en"), cache.tag("match", "abc", 2, "en")
    >>> cache.put(first, b"%PDF-1"), cache.get(first), cache.get(second)
    (b'%PDF-1', b'%PDF-1', None)
    >>> cache.put(second, b"%PDF-2"), cache.get(first)  # 12 bytes would be over the budget
    (b'%PDF-2', None)
    """

    def __init__(self, folder: Path, budget: int):
        self.folder = folder
        self.budget = max(0, int(budget))

    def tag(self, *identity: object) -> str:
        """The name of a sheet: what it shows and in which language, with the build and the machine's fonts."""
        return hashlib.sha256(repr((build(), system_fonts.fingerprint(), *identity)).encode()).hexdigest()[:32]

    def path(self, tag: str) -> Path:
        return self.folder / f"{tag}.pdf"

    def get(self, tag: str) -> bytes | None:
        """The kept PDF, or None; a sheet served is the last to go."""
        if not self.budget:
            return None
        try:
            data = self.path(tag).read_bytes()
            os.utime(self.path(tag))
        except OSError:  # not kept, or just dropped by another worker
            return None
        return data

    def put(self, tag: str, data: bytes) -> bytes:
        """Keep the PDF (dropping the least recently served beyond the budget); return it."""
        if not 0 < len(data) <= self.budget:
            return data
        partial = self.folder / f"{tag}.{os.getpid()}-{threading.get_ident()}.part"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(data)
            os.replace(partial, self.path(tag))
        except OSError:  # a full disk or a read-only folder: the sheet is still served, only not kept
            partial.unlink(missing_ok=True)
            return data
        self.trim(keep=self.path(tag))
        return data

    def trim(self, keep: Path | None = None) -> None:
        """Drop the sheets served least recently until the folder is within the budget (keep stays)."""
        trim_to_budget(self.folder, self.budget, ".pdf", keep=keep)

    def size(self) -> int:
        """Bytes kept now."""
        return sum(path.stat().st_size for path in self.folder.glob("*.pdf")) if self.folder.is_dir() else 0
