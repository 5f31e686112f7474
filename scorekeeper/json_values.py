"""The type of a decoded JSON value, for data whose shape is JSON and nothing narrower.

A request body before it is checked, a JSON Schema document, a JSON column as stored: each game
and each figure says its own shape with a TypedDict; these say only that the value is JSON.
"""

from __future__ import annotations

from typing import TypeAlias

Json: TypeAlias = None | bool | int | float | str | list["Json"] | dict[str, "Json"]
"""What json.loads can return."""

JsonObject: TypeAlias = dict[str, Json]
"""A JSON object: what a JSON column holds, and what a request body must be."""
