"""Cards of Coloretto and their integer codes (docs/rules.md §1).

Card codes are small integers so that states are plain integer data:

* ``0..6``: the seven colours, in the order ``COLORS`` (blue, brown, gray, green, orange,
  pink, yellow);
* ``JOKER`` (7), ``GOLDEN_JOKER`` (8), ``PLUS2`` (9) and ``LAST_ROUND`` (10).

A collection is a tuple/list of ``COLLECTION_SIZE`` (10) counts indexed by card code
``0..9``: seven colour counts, jokers, golden jokers and "+2" cards.
"""

from __future__ import annotations

from typing import Final

COLORS: Final = ("blue", "brown", "gray", "green", "orange", "pink", "yellow")
NUM_COLORS: Final = 7
CARDS_PER_COLOR: Final = 9
NUM_PLUS2: Final = 10

JOKER: Final = 7
GOLDEN_JOKER: Final = 8
PLUS2: Final = 9
LAST_ROUND: Final = 10
COLLECTION_SIZE: Final = 10

CARD_NAMES: Final = COLORS + ("joker", "golden_joker", "plus2", "last_round")
_CODES: Final = {name: code for code, name in enumerate(CARD_NAMES)}
LETTERS: Final = ("B", "N", "G", "E", "O", "P", "Y", "J", "*", "+", "L")
"""One-letter symbol per card code, for colour-blind players and compact text forms
(browN, Gray, grEen; ``J`` joker, ``*`` golden joker, ``+`` "+2", ``L`` Last Round card)."""


def card_name(code: int) -> str:
    """Return the record/JSON name of card ``code`` (``"green"``, ``"joker"``, ...).

    Raises:
        ValueError: ``code`` is not a card code (0..10).
    """
    if not 0 <= code < len(CARD_NAMES):
        raise ValueError(f"not a card code: {code!r}")
    return CARD_NAMES[code]


def card_code(name: str) -> int:
    """Return the code of the card named ``name`` (the inverse of :func:`card_name`).

    Raises:
        ValueError: ``name`` names no card; the message lists the valid names.

    >>> card_code("green"), card_code("golden_joker"), card_name(9)
    (3, 8, 'plus2')
    """
    try:
        return _CODES[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown card {name!r}; expected one of {', '.join(CARD_NAMES)}"
        ) from None


def color_code(name: str) -> int:
    """Return the colour index (0..6) of colour ``name``.

    Raises:
        ValueError: ``name`` is not one of the seven colours.
    """
    code = _CODES.get(name, -1) if isinstance(name, str) else -1
    if not 0 <= code < NUM_COLORS:
        raise ValueError(f"unknown colour {name!r}; expected one of {', '.join(COLORS)}")
    return code
