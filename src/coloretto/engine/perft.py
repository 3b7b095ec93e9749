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
    for code, child in _moves(state):
        del code
        total += 1 if depth == 1 else perft(child, depth - 1)
    return total


def _moves(state: GameState) -> list[tuple[int, GameState]]:
    out = []
    for code in state.legal_codes():
        child = state.copy()
        child.apply_code(code)
        if code == A.DRAW:
            assert child.phase == PLACE
            for place in child.legal_codes():
                grand = child.copy()
                grand.apply_code(place)
                out.append((place, grand))
        else:
            out.append((code, child))
    return out
