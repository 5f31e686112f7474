"""The URL builders shared across the run's apps build exactly what each app's own would."""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import Map, Rule

from helpers.compiled import BUILDERS, builder_key, share_compiled_rules


def test_every_rule_of_the_app_shares_the_very_code_werkzeug_generates_for_it(app: Flask) -> None:
    share_compiled_rules()
    generate = Rule._compile_builder.__wrapped__
    for rule in app.url_map.iter_rules():
        for append_unknown in (False, True):
            own, shared = generate(rule, append_unknown).__code__, BUILDERS[builder_key(rule, append_unknown)].__code__
            assert (own.co_code, own.co_consts, own.co_varnames) == (shared.co_code, shared.co_consts,
                                                                     shared.co_varnames), rule.rule


def test_rules_that_differ_only_in_defaults_get_their_own_builder() -> None:
    share_compiled_rules()
    one = Map([Rule("/page/<int:n>", endpoint="a", defaults={"n": 1}), Rule("/page/<int:n>", endpoint="b")])
    two = Map([Rule("/page/<int:n>", endpoint="a", defaults={"n": 2})])
    built = one.bind("example.org")
    assert built.build("a") == "/page/1"
    assert built.build("b", {"n": 7}) == "/page/7"
    assert two.bind("example.org").build("a") == "/page/2"
    keys = {builder_key(rule, False) for rule in [*one.iter_rules(), *two.iter_rules()]}
    assert len(keys) == 3
    assert keys <= BUILDERS.keys()


def test_query_strings_are_still_built_for_unknown_arguments() -> None:
    share_compiled_rules()
    urls = Map([Rule("/m/<id>", endpoint="m")]).bind("example.org")
    assert urls.build("m", {"id": "x", "lang": "fr"}) == "/m/x?lang=fr"
    assert urls.build("m", {"id": "y"}) == "/m/y"
