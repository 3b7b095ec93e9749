"""Precise exceptions of the engine: every error the engine raises is a ``ColorettoError``."""

from __future__ import annotations


class ColorettoError(Exception):
    """Base class of every error raised by ``coloretto``."""


class ConfigurationError(ColorettoError, ValueError):
    """An option, preset or setup value is not one the rules allow (docs/rules.md §7).

    Attributes:
        option: the ``Rules`` field whose value is refused (``"match_games"``), or ``None``
            when the error is not about one field.
        value: that field's value as given; allowed: what the field takes (``"an integer
            from 1 to 10"``); both ``None`` when ``option`` is.
    """

    def __init__(
        self, message: str, option: str | None = None, value: object = None, allowed: str | None = None
    ) -> None:
        super().__init__(message)
        self.option = option
        self.value = value
        self.allowed = allowed


class IllegalActionError(ColorettoError, ValueError):
    """An action that the rules do not allow in the current state.

    Attributes:
        rule: the rule broken, as a short citation of ``docs/rules.md`` (for example ``"§3 take"``).
        action: the offending action's readable form, or ``None``.
    The state is left unchanged when this is raised.
    """

    def __init__(self, message: str, rule: str, action: str | None = None) -> None:
        super().__init__(f"{message} (docs/rules.md {rule})")
        self.rule = rule
        self.action = action


class InvalidRecordError(ColorettoError, ValueError):
    """A game record that is malformed, inconsistent with its rules, or replays illegally.

    Attributes:
        action_index: index into the record's ``actions`` of the first bad action, or ``None``
            when the problem is in the header or setup.
    """

    def __init__(self, message: str, action_index: int | None = None) -> None:
        super().__init__(message)
        self.action_index = action_index


class UnreadableRecordError(InvalidRecordError):
    """A file or text that is no record at all: it cannot be read, is not UTF-8 text, is not
    JSON, nests too deeply for the JSON reader or holds a number too large to read
    (``engine.record.load_record`` / ``read_record``; commands exit with status 2 for it)."""


class InvalidObservationError(ColorettoError, ValueError):
    """A ``coloretto-observation/1`` object that is malformed or inconsistent with its rules
    (``Observation.from_json``); the message says what is wrong."""
