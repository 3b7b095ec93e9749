"""English wording shared by the command line, the terminal game and the reports.

The browser client has its own catalogs (``web/locales``); this module only serves the
English text of the Python interfaces.
"""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless ``count`` is 1.

    ``many`` is the plural form when it is not ``word`` + ``s``.

    >>> plural(1, "decision")
    '1 decision'
    >>> plural(3, "duplicate deal")
    '3 duplicate deals'
    >>> plural(0, "game")
    '0 games'
    >>> plural(2, "is", "are")
    '2 are'
    """
    return f"{count} {word if count == 1 else (many or word + 's')}"
