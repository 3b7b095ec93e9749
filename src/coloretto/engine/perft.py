"""perft: count legal action sequences, to compare rule implementations.

A draw-and-place counts as one action per row choice: from a ``turn`` decision, drawing
reveals the card fixed by the draw pile, and each legal row for it is one action. A
starting-colour choice and a take are one action each.
"""

from __future__ import annotations

from . import actions as A
from .state import PLACE, GameState


def perft(state: GameState, depth: int) -> int:
    """Number of distinct legal action sequences of length ``depth`` from ``state``.

    Sequences that end the game early are not counted at greater depths (as in chess perft).

    Raises:
        ValueError: ``depth`` is negative.
    """
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if depth == 0:
        return 1
    total = 0
    for _code, _drawn, child in perft_moves(state):
        total += 1 if depth == 1 else perft(child, depth - 1)
    return total


def perft_moves(state: GameState) -> list[tuple[int, int | None, GameState]]:
    """The actions perft counts from ``state``, in the engine's order, as ``(code, drawn,
    child)``: for a draw, one entry per legal row with ``code`` the place code and
    ``drawn`` the card code the draw revealed; otherwise the action's code and ``None``.
    ``child`` is the state after the action (and its placement).

    >>> from coloretto.engine import Rules, new_game
    >>> moves = perft_moves(new_game(Rules(players=3), seed=2))
    >>> len(moves) == perft(new_game(Rules(players=3), seed=2), 1)
    True
    >>> moves[0][1] is not None  # the first action is a draw, placed in the first row
    True
    """
    out: list[tuple[int, int | None, GameState]] = []
    for code in state.legal_codes():
        child = state.copy()
        child.apply_code(code)
        if code == A.DRAW:
            assert child.phase == PLACE
            for place in child.legal_codes():
                grand = child.copy()
                grand.apply_code(place)
                out.append((place, child.drawn, grand))
        else:
            out.append((code, None, child))
    return out
