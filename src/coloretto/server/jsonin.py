"""Parsing JSON that clients send (WebSocket messages, HTTP request bodies) with the limits
every input passes before any handler sees it: nesting at most ``MAX_DEPTH`` deep, strings
(keys too) that are valid Unicode text (no lone surrogate such as ``"\\ud800"``, which
cannot be stored or hashed as UTF-8), no key twice in one object (which of the two would
count is not said by JSON), and integers of at most ``MAX_DIGITS`` digits.

>>> parse_json('{"type": "ping", "id": 1}')
{'type': 'ping', 'id': 1}
>>> parse_json('[' * 40 + ']' * 40)
Traceback (most recent call last):
...
ValueError: JSON nested deeper than 32 levels
>>> parse_json('{"token": "\\\\ud800"}')
Traceback (most recent call last):
...
ValueError: JSON text holds a lone surrogate (\\ud800 to \\udfff without its pair)
>>> parse_json('{"cards": {"green": 1}, "cards": {"red": 2}}')
Traceback (most recent call last):
...
ValueError: JSON object gives the key 'cards' twice
>>> parse_json('{"green": ' + '9' * 200 + '}')
Traceback (most recent call last):
...
ValueError: JSON number with 200 digits; at most 100
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..engine.jsontypes import unique_object

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted (the protocol needs 4)."""
MAX_DIGITS = 100
"""Most digits of a JSON integer (every number of the protocol has a few)."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_json(text: str | bytes) -> Any:
    """The JSON value of ``text`` (UTF-8 when bytes), checked as the module says.

    Raises:
        ValueError: not JSON (``json.JSONDecodeError``), not UTF-8, nested deeper than
            ``MAX_DEPTH``, a string with a lone surrogate, a key given twice in one object,
            or an integer of more than ``MAX_DIGITS`` digits; the message says which.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("JSON text must be UTF-8") from None
    if _too_deep(text):
        raise ValueError(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text, object_pairs_hook=unique_object, parse_int=_integer)
    except RecursionError:  # pragma: no cover - _too_deep stops it first
        raise ValueError(f"JSON nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg} at character {exc.pos}") from None
    if _has_surrogate(value):
        raise ValueError("JSON text holds a lone surrogate (\\ud800 to \\udfff without its pair)")
    return value


def _integer(digits: str) -> int:
    """A JSON integer, refused beyond ``MAX_DIGITS`` digits (before Python converts it)."""
    n = len(digits.lstrip("-"))
    if n > MAX_DIGITS:
        raise ValueError(f"JSON number with {n} digits; at most {MAX_DIGITS}")
    return int(digits)


def _too_deep(text: str) -> bool:
    """Brackets outside strings open deeper than ``MAX_DEPTH`` (checked on the text, so the
    parser never recurses that far)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _has_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                return True
        elif isinstance(v, dict):
            for k, item in v.items():
                if _SURROGATE.search(k):
                    return True
                stack.append(item)
        elif isinstance(v, list):
            stack.extend(v)
    return False
