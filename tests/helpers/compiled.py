"""Templates compiled once per run and shared by every app the tests make.

Each test makes its own app, and each app has its own Jinja environment, so without this every test
parsed and compiled again each template it rendered: about as long as making the app itself. The
cache keeps Jinja's compiled code in memory, keyed as Jinja keys it (template name and a checksum of
its source), so an edited template is compiled again. Apps in production compile each template once
per worker and need none of this.
"""

from __future__ import annotations

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket


class CompiledTemplates(BytecodeCache):
    """Jinja bytecode kept in this process's memory."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if (code := self.kept.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()


def share_compiled_templates(app: Flask) -> Flask:
    """The app, reading its templates' compiled code from the run's cache."""
    app.jinja_env.bytecode_cache = COMPILED
    return app
