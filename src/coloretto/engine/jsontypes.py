"""The JSON names of parsed values' types, for messages about JSON input (records, actions,
observations, rules, request bodies): people who wrote JSON know ``array`` and ``null``, not
``list`` and ``NoneType``."""

from __future__ import annotations

from typing import Any

__all__ = ["json_type", "unique_object"]

_NAMES = {dict: "object", list: "array", str: "string", int: "number", float: "number"}


def json_type(value: Any) -> str:
    """The JSON name of ``value``'s type: ``object``, ``array``, ``string``, ``number``,
    ``true or false`` or ``null``; the Python type's name for anything JSON does not give.

    >>> json_type([1, 2]), json_type(None), json_type(True), json_type(2.5), json_type({})
    ('array', 'null', 'true or false', 'number', 'object')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return _NAMES.get(type(value), type(value).__name__)


def unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object from its key-value ``pairs`` (``json.loads``'s ``object_pairs_hook``),
    refusing a key given twice: JSON does not say which of the two counts.

    >>> unique_object([("seed", 11), ("seats", [])])
    {'seed': 11, 'seats': []}
    >>> unique_object([("seed", 11), ("seed", 12)])
    Traceback (most recent call last):
    ...
    ValueError: JSON object gives the key 'seed' twice

    Raises:
        ValueError: a repeated key (its first 40 characters in the message).
    """
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"JSON object gives the key {key[:40]!r} twice")
        out[key] = value
    return out
