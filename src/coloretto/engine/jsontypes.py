"""The JSON names of parsed values' types, for messages about JSON input (records, actions,
observations, rules, request bodies): people who wrote JSON know ``array`` and ``null``, not
``list`` and ``NoneType``."""

from __future__ import annotations

from typing import Any

__all__ = ["json_type"]

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
