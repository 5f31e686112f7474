"""Templates and URL rules compiled once per run and shared by every app the tests make.

Each test makes its own app, and each app has its own Jinja environment and its own URL map, so
without this every test parsed and compiled again each template it rendered, and werkzeug generated
and compiled again the Python code that builds each of the app's URLs (two functions per rule, about
150 per app): each about as long as making the rest of the app. Apps in production do both once per
worker and need none of this.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.routing.rules import Rule


class CompiledTemplates(BytecodeCache):
    """Jinja bytecode kept in this process's memory.

    Keyed as Jinja keys it (template name and a checksum of its source), so an edited template is
    compiled again.
    """

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


Builder = Callable[..., tuple[str, str]]


def builder_key(rule: Rule, append_unknown: bool) -> Hashable:
    """Everything werkzeug's generated builder depends on.

    The builder is a function of the rule's parsed parts (its trace: constant text and argument names),
    of its defaults (a default for an argument of the rule is folded in through that argument's
    converter) and of whether unknown arguments become a query string. It reaches the rule's own
    converters through its first argument, the rule itself, so one function serves every app's rule.
    """
    defaults = rule.defaults or {}
    folded = tuple(sorted((name, repr(value), type(rule._converters.get(name)).__qualname__)
                          for name, value in defaults.items()))
    return rule.rule, tuple(rule._trace), folded, append_unknown


BUILDERS: dict[Hashable, Builder] = {}


def share_compiled_rules() -> None:
    """From now on every app of this process shares one builder per rule shape (BUILDERS)."""
    generate: Callable[[Rule, bool], Builder] = Rule._compile_builder
    if getattr(generate, "shared", False):
        return

    def compile_builder(rule: Rule, append_unknown: bool = True) -> Builder:
        key = builder_key(rule, append_unknown)
        if (builder := BUILDERS.get(key)) is None:
            builder = BUILDERS[key] = generate(rule, append_unknown)
        return builder

    compile_builder.shared = True  # type: ignore[attr-defined]
    compile_builder.__wrapped__ = generate  # type: ignore[attr-defined]
    Rule._compile_builder = compile_builder  # type: ignore[method-assign]
