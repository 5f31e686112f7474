"""Where a "go back" link may send a phone: a path on this site, read exactly as a browser reads it."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

# What a browser drops from a link before reading it (tab, CR, LF anywhere; C0 controls and spaces at the
# ends), and what it reads differently from a server (a backslash is a slash). A target holding any of
# these, or anything outside printable ASCII (fullwidth and other look-alike slashes), is refused whole
# rather than cleaned: a target that reads one way here and another way in the browser is no target.
PRINTABLE_ASCII = re.compile(r"[!-~]+")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def local_path(target: str | None) -> str | None:
    """The target if it is a path on this site (no scheme, no host, however spelled), else None.

    >>> local_path("/m/abc?x=1")
    '/m/abc?x=1'
    >>> [local_path(t) for t in ("//evil.example", "/\\\\evil.example", "/\\t/evil.example", "/%2F/evil.example")]
    [None, None, None, None]
    >>> [local_path(t) for t in ("https://evil.example", "/\\uff0fevil.example", "/%0D%0ASet-Cookie:x=1", "", None)]
    [None, None, None, None, None]
    """
    if not target or not PRINTABLE_ASCII.fullmatch(target) or "\\" in target:
        return None
    if not target.startswith("/") or target.startswith("//"):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    # Decoded once more, as a proxy or a browser's address bar may: still a plain path on this site.
    decoded = unquote(parts.path)
    if decoded.startswith("//") or "\\" in decoded or CONTROL.search(decoded):
        return None
    return target
