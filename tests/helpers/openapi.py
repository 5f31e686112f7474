"""Answers checked against the API's own OpenAPI document."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOCUMENT_URI = "urn:scorekeeper:openapi"


def pointer(*parts: str) -> str:
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts)


def check_answer(document: dict[str, Any], path: str, method: str, answer) -> None:
    """The answer's status is documented for the operation, and its body fits the documented schema."""
    status = str(answer.status_code)
    responses = document["paths"][path][method.lower()]["responses"]
    assert status in responses, (path, method, status)
    where = ("paths", path, method.lower(), "responses", status)
    response = responses[status]
    if "$ref" in response:  # a shared answer, #/components/responses/...
        where = tuple(response["$ref"].removeprefix("#/").split("/"))
        response = document["components"]["responses"][where[-1]]
    content = response.get("content")
    if not content:
        assert not answer.data, (path, method, status)
        return
    assert answer.mimetype in content, (path, method, status, answer.mimetype)
    registry = Registry().with_resource(DOCUMENT_URI, Resource(document, specification=DRAFT202012))
    schema = {"$ref": DOCUMENT_URI + "#" + pointer(*where, "content", answer.mimetype, "schema")}
    validator = Draft202012Validator(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(answer.get_json()), key=lambda e: list(e.absolute_path))
    assert not errors, (path, method, status, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]])
