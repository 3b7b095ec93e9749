"""Actions: small values with a stable integer encoding and a readable string.

The readable string (``str(action)``) is for people and counts rows from 1; the integer
codes and the JSON forms count rows from 0.

Integer encoding (stable; used for action masks and RL):

=========================  ===================================
code                       action
=========================  ===================================
``0``                      draw the top card of the draw pile
``1 .. 6``                 place the drawn card in row ``code - 1``
``7 .. 12``                take row ``code - 7``
``13 .. 19``               choose starting colour ``code - 13``
=========================  ===================================

JSON forms (docs/engine-protocol.md): ``{"action": "draw"}``, ``{"action": "place", "row": 1}``,
``{"action": "take", "row": 0}``, ``{"action": "choose_start", "color": "blue"}``.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from .cards import COLORS, NUM_COLORS, color_code
from .domain import KINDS, ActionKind
from .jsontypes import json_type
from .rules import MAX_ROWS

DRAW: Final = 0
PLACE0: Final = 1
TAKE0: Final = PLACE0 + MAX_ROWS
CHOOSE0: Final = TAKE0 + MAX_ROWS
NUM_DISTINCT_ACTIONS: Final = CHOOSE0 + NUM_COLORS


class Action(NamedTuple):
    """One decision: ``kind`` in ``KINDS``; ``arg`` is the row (place, take), the colour index
    (choose_start) or ``-1`` (draw). Compare and hash as tuples; ``code`` gives the integer."""

    kind: ActionKind
    arg: int = -1

    @property
    def code(self) -> int:
        """The stable integer encoding (module docstring).

        Raises:
            ValueError: the action has no code (e.g. a row beyond ``MAX_ROWS - 1``).
        """
        return encode(self)

    @property
    def row(self) -> int | None:
        """The row of a place or take action, else ``None``."""
        return self.arg if self.kind in ("place", "take") else None

    @property
    def color(self) -> str | None:
        """The colour name of a choose_start action, else ``None``."""
        return COLORS[self.arg] if self.kind == "choose_start" else None

    def __str__(self) -> str:
        """Readable text for people, rows counted from 1 (``Action("take", 0)`` is
        ``"take row 1"``); never parsed back: records and protocols use ``to_json``, which
        counts rows from 0."""
        if self.kind == "draw":
            return "draw"
        if self.kind == "place":
            return f"place -> row {self.arg + 1}"
        if self.kind == "take":
            return f"take row {self.arg + 1}"
        return f"choose {COLORS[self.arg]}"

    def to_json(self) -> dict[str, Any]:
        """The JSON form of docs/engine-protocol.md."""
        if self.kind == "draw":
            return {"action": "draw"}
        if self.kind == "choose_start":
            return {"action": "choose_start", "color": COLORS[self.arg]}
        return {"action": self.kind, "row": self.arg}

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse the JSON form.

        A ``place`` or ``take`` with any non-negative integer ``row`` parses, also a row the
        table does not have (e.g. 99): such an action is well-formed but illegal, and
        ``GameState.apply`` refuses it; its ``code`` raises ``ValueError`` (no aliasing).

        Raises:
            ValueError: not an object of one of the four forms, a missing, negative or
                non-integer ``row``, an unknown colour (the message says what is wrong).

        >>> Action.from_json({"action": "take", "row": 2})
        Action(kind='take', arg=2)
        >>> Action.from_json({"action": "choose_start", "color": "green"}).code
        16
        >>> Action.from_json({"action": "take"})
        Traceback (most recent call last):
        ...
        ValueError: 'take' needs a non-negative integer 'row', got None
        """
        if not isinstance(data, dict):
            # ValueError (not TypeError) is the documented contract: callers catch one type.
            raise ValueError(f"an action must be a JSON object, not {json_type(data)}")  # noqa: TRY004
        kind = data.get("action")
        if kind == "draw":
            return DRAW_ACTION
        if kind in ("place", "take"):
            row = data.get("row")
            if type(row) is not int or row < 0:
                raise ValueError(f"{kind!r} needs a non-negative integer 'row', got {short_repr(row)}")
            # Any row number is well-formed; a row beyond the table is an illegal action,
            # refused by the legality check (``GameState.apply`` / ``checked_code``).
            return cls(kind, row)
        if kind == "choose_start":
            return cls(kind, color_code(data.get("color")))  # type: ignore[arg-type]
        raise ValueError(f"unknown action {kind!r}; expected one of {', '.join(KINDS)}")


DRAW_ACTION: Final = Action("draw")
PLACE_ACTIONS: Final = tuple(Action("place", r) for r in range(MAX_ROWS))
TAKE_ACTIONS: Final = tuple(Action("take", r) for r in range(MAX_ROWS))
CHOOSE_ACTIONS: Final = tuple(Action("choose_start", c) for c in range(NUM_COLORS))
ALL_ACTIONS: Final = (DRAW_ACTION,) + PLACE_ACTIONS + TAKE_ACTIONS + CHOOSE_ACTIONS
"""Every action, indexed by its integer code."""


def encode(action: Action) -> int:
    """Integer code of ``action`` (module docstring).

    Raises:
        ValueError: ``action`` has no code: a row beyond ``MAX_ROWS - 1``, a colour beyond
            the seven, a negative argument or an unknown kind (``Action("place", 6)`` would
            otherwise alias ``take row 0``; see ``checked_code``).
    """
    return checked_code(action) if isinstance(action, Action) else _no_action(action)


def _no_action(value: object) -> int:
    raise ValueError(f"not an action: {short_repr(value)}")


def short_repr(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters (safe for huge or deeply nested values)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # a huge int, a deeply nested list
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def checked_code(action: object) -> int:
    """Integer code of ``action``, an ``Action`` or an ``int`` code, after checking it is
    one of ``ALL_ACTIONS`` (an ``Action`` with an out-of-range ``arg`` would otherwise encode
    to the code of a different action).

    Raises:
        ValueError: ``action`` is no action (the message shows it).
    """
    if type(action) is int:
        if 0 <= action < NUM_DISTINCT_ACTIONS:
            return action
    elif isinstance(action, Action):
        kind, arg = action
        if type(arg) is int:
            if kind == "draw" and arg == -1:
                return DRAW
            if kind in ("place", "take") and 0 <= arg < MAX_ROWS:
                return (PLACE0 if kind == "place" else TAKE0) + arg
            if kind == "choose_start" and 0 <= arg < NUM_COLORS:
                return CHOOSE0 + arg
    raise ValueError(f"not an action: {short_repr(action)}")


def decode(code: int) -> Action:
    """The action with integer ``code``.

    Raises:
        ValueError: ``code`` is outside ``0 .. NUM_DISTINCT_ACTIONS - 1``.

    >>> decode(0), decode(PLACE0 + 1), decode(TAKE0)
    (Action(kind='draw', arg=-1), Action(kind='place', arg=1), Action(kind='take', arg=0))
    >>> decode(TAKE0).to_json()
    {'action': 'take', 'row': 0}
    """
    if type(code) is not int or not 0 <= code < NUM_DISTINCT_ACTIONS:
        raise ValueError(f"action code must be an integer 0..{NUM_DISTINCT_ACTIONS - 1}, got {code!r}")
    return ALL_ACTIONS[code]
