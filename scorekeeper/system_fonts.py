"""The machine's own fonts, those a PDF falls back to for a character no font of the app draws: a digest of them.

WeasyPrint finds the machine's fonts through fontconfig, once per font configuration. A font installed or
removed later changes how such a character prints, so this digest is part of the name a printed sheet is
kept under (web/sheets/cache.py), and a new one makes the PDF module lay out with a new font configuration
(pdf.py). It covers the folders and the configuration files fontconfig reads: each folder (and the folders
inside it) with the time it last changed and the names it holds, each file with its time. Installing a font
package adds files to a folder, which changes that folder's time and listing. A look costs a few
milliseconds; each process looks again at most every CHECK_EVERY seconds.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import hashlib
import os
from pathlib import Path
from time import monotonic

CHECK_EVERY = 60.0  # seconds between two looks at the machine's fonts, in each process

_seen: tuple[float, str] | None = None  # (when, digest) of the last look


@functools.cache
def _fontconfig() -> ctypes.CDLL | None:
    """The fontconfig library WeasyPrint uses, with the few calls made here typed; None where it is missing."""
    name = ctypes.util.find_library("fontconfig")
    try:
        library = ctypes.CDLL(name or "libfontconfig.so.1")
    except OSError:
        return None
    library.FcInitLoadConfig.restype = ctypes.c_void_p
    for call in ("FcConfigGetFontDirs", "FcConfigGetConfigFiles"):
        getattr(library, call).restype = ctypes.c_void_p
        getattr(library, call).argtypes = [ctypes.c_void_p]
    library.FcStrListNext.restype = ctypes.c_char_p
    library.FcStrListNext.argtypes = [ctypes.c_void_p]
    library.FcStrListDone.argtypes = [ctypes.c_void_p]
    library.FcConfigDestroy.argtypes = [ctypes.c_void_p]
    return library


def _strings(library: ctypes.CDLL, strings: int | None) -> list[str]:
    """The paths of a fontconfig string list, which is then freed."""
    found: list[str] = []
    if not strings:
        return found
    while (path := library.FcStrListNext(strings)) is not None:
        found.append(os.fsdecode(path))
    library.FcStrListDone(strings)
    return found


def configured() -> tuple[list[str], list[str]]:
    """The font folders and the configuration files of fontconfig's configuration (FONTCONFIG_FILE, else the
    machine's), as fontconfig reads it when WeasyPrint makes a font configuration; nothing without fontconfig."""
    library = _fontconfig()
    if library is None:
        return [], []
    config = library.FcInitLoadConfig()
    if not config:
        return [], []
    try:
        return (_strings(library, library.FcConfigGetFontDirs(config)),
                _strings(library, library.FcConfigGetConfigFiles(config)))
    finally:
        library.FcConfigDestroy(config)


def _stamp(path: Path) -> str:
    try:
        return str(path.stat().st_mtime_ns)
    except OSError:
        return "-"


def look() -> str:
    """A digest of the machine's fonts as they are now (see the module's docstring)."""
    folders, config_files = configured()
    digest = hashlib.sha256()
    for folder in sorted(folders):
        digest.update(f"{folder}\0{_stamp(Path(folder))}\n".encode())
        for inside, below, names in os.walk(folder):
            below.sort()
            digest.update(f"{inside}\0{_stamp(Path(inside))}\0{chr(0).join(sorted(names))}\n".encode())
    for path in sorted(config_files):
        digest.update(f"{path}\0{_stamp(Path(path))}\n".encode())
    return digest.hexdigest()[:16]


def fingerprint() -> str:
    """The digest of the machine's fonts, looked at again when CHECK_EVERY seconds have passed since the last look."""
    global _seen
    now = monotonic()
    if _seen is None or now - _seen[0] >= CHECK_EVERY:
        _seen = (now, look())
    return _seen[1]
