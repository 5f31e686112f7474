"""Static addresses as the pages write them, /static/<build>/style.css, read without their build."""

from __future__ import annotations

import re

BUILT = re.compile(r"/static/[0-9a-f]{12}/")


def unbuilt(address: str) -> str:
    """The address without the static folder's build: "/static/3f9c0a1b2d4e/style.css" -> "/static/style.css"."""
    return BUILT.sub("/static/", address)
