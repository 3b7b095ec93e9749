# mypy: disable-error-code="no-any-return, return-value"
# (Numba kernels compute with numpy scalar types; their int annotations document intent.)
"""The learned value's features and forward pass, compiled (NumPy/Numba only: playing
never needs PyTorch).

**Features** (``features``): ``N_FEATURES`` floats from the *public* part of a fast state
at a turn or place decision, seen from the seat to move. Seats are listed in turn order
starting with the seat to move (slot 0), padded to 5. Colours are relabelled in a
canonical order (``colour_order``: by the counts held by the seats in turn order from the
mover, descending, then by the rows, the unseen cards and the drawn card; colours not in
play last), so that the same position with colours renamed has the same features. Nothing of the draw pile's order is read: only its composition (which
is public, docs/rules.md §1) and length.

=============  =====================================================================
index          meaning
=============  =====================================================================
0 .. 64        5 seat slots x 13: present, left the round, optimal score / 20, 7 colour
               counts / 6 (canonical order), jokers (incl. golden) / 3, "+2" / 5,
               best row gain now / 10 (the most its score rises by taking an open row)
65 .. 172      6 row slots x 18 (table order): present, open (untaken), capacity / 3,
               cards / 3, 7 colour counts / 3, jokers / 3, "+2" / 3, the row's gain for
               each of the 5 seat slots / 10 (0 if taken or empty)
173 .. 211     cards left / 60, Last Round card seen, place decision, drawn card one-hot
               (7 canonical colours, joker, golden joker, "+2"), seats in the round / 5,
               rows taken this round / 5, players one-hot (2..5), score table / 21 (7),
               negative factor / 3, modern edition, unseen composition (7 canonical
               colours / 9, jokers / 3, golden joker, "+2" / 10), round / 20
=============  =====================================================================

**Model** (``predict``): a multilayer perceptron ``N_FEATURES -> H1 -> H2 -> 10`` with
ReLU; outputs 0..4 are win logits of the seat slots (a softmax over the present seats
gives each seat's probability of winning, ties split), outputs 5..9 the squashed final
margin of each slot (logistic; ``0.5 + margin / (2 * margin_scale)`` clipped to [0, 1]
in training). Weights come from ``coloretto.agents.value`` (package data).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

import numpy as np

from .._optional import require

_numba = require("numba", "fast", "the fast core")
_F = TypeVar("_F", bound=Callable[..., Any])
njit: Callable[..., Callable[[_F], _F]] = _numba.njit

from . import kernels as K
from .layout import (
    ACTIVE,
    CAPS,
    COLL,
    DRAWN,
    GOLDEN_JOKER,
    GOLDEN_JOKERS,
    INPLAY,
    JOKER,
    LAST_ROUND,
    LAST_ROUND_CARD,
    NEG,
    NROWS,
    OUT,
    PHASE,
    PILE,
    PILE_LEN,
    PLACE,
    PLUS2,
    ROUND,
    ROW_LEN,
    ROW_TAKER,
    ROWS,
    TABLE,
    TAKES,
    TO_MOVE,
    N,
)

__all__ = ["HIDDEN_CELLS", "N_FEATURES", "N_OUTPUTS", "colour_order", "features", "predict"]

SEAT_SLOTS: Final = 5
SEAT_CELLS: Final = 13
ROW_SLOTS: Final = 6
ROW_CELLS: Final = 18
SEATS_AT: Final = 0
ROWS_AT: Final = SEAT_SLOTS * SEAT_CELLS
GLOBAL_AT: Final = ROWS_AT + ROW_SLOTS * ROW_CELLS
GLOBAL_CELLS: Final = 39
N_FEATURES: Final = GLOBAL_AT + GLOBAL_CELLS
N_OUTPUTS: Final = 2 * SEAT_SLOTS
HIDDEN_CELLS: Final = 512
"""Scratch floats for the hidden layers (H1 + H2 at most)."""

_JOKER = JOKER
_GOLDEN = GOLDEN_JOKER
_PLUS2 = PLUS2
_LAST = LAST_ROUND_CARD


@njit(cache=True)
def colour_order(s: np.ndarray, mover: int, rank: np.ndarray) -> None:
    """``rank[c]`` = canonical position (0..6) of colour ``c``: colours in play first, then
    by descending count held by the mover, then by each other seat in turn order, then by
    each row's count, the unseen count and the drawn card. Colours equal in all of these
    are interchangeable in every feature, so the features do not depend on colour names."""
    n = s[N]
    mask = s[INPLAY]
    width = 1 + SEAT_SLOTS + ROW_SLOTS + 2
    key = np.zeros((7, width), np.int64)
    for c in range(7):
        key[c, 0] = (mask >> c) & 1
        for k in range(n):
            key[c, 1 + k] = s[COLL + 10 * ((mover + k) % n) + c]
    for r in range(s[NROWS]):
        for i in range(s[ROW_LEN + r]):
            card = s[ROWS + 6 * r + i]
            if card < 7:
                key[card, 1 + SEAT_SLOTS + r] += 1
    for i in range(s[PILE_LEN]):
        card = s[PILE + i]
        if card < 7:
            key[card, width - 2] += 1
    if s[PHASE] == PLACE and 0 <= s[DRAWN] < 7:
        key[s[DRAWN], width - 1] = 1
    for c in range(7):
        r = 0
        for d in range(7):
            if d == c:
                continue
            j = 0
            while j < width and key[d, j] == key[c, j]:
                j += 1
            if j == width:
                if d < c:
                    r += 1
            elif key[d, j] > key[c, j]:
                r += 1
        rank[c] = r


@njit(cache=True)
def features(s: np.ndarray, f: np.ndarray, cnt: np.ndarray) -> None:
    """Write the ``N_FEATURES`` features of ``s`` (a turn or place decision) into ``f``
    (module docstring). ``cnt``: scratch int64[10]."""
    n = s[N]
    nrows = s[NROWS]
    mover = s[TO_MOVE]
    rank = np.empty(7, np.int64)
    colour_order(s, mover, rank)
    for i in range(N_FEATURES):
        f[i] = 0.0
    base = np.zeros(SEAT_SLOTS, np.int64)
    best = np.full(SEAT_SLOTS, -1e9)
    for k in range(n):
        p = (mover + k) % n
        base[k] = K.seat_score(s, p, cnt)
    # rows, with each seat's gain
    for r in range(nrows):
        o = ROWS_AT + ROW_CELLS * r
        f[o] = 1.0
        length = s[ROW_LEN + r]
        open_row = s[ROW_TAKER + r] == -1
        f[o + 1] = 1.0 if open_row else 0.0
        f[o + 2] = s[CAPS + r] / 3.0
        f[o + 3] = length / 3.0
        for i in range(length):
            card = s[ROWS + 6 * r + i]
            if card < 7:
                f[o + 4 + rank[card]] += 1.0 / 3.0
            elif card == _PLUS2:
                f[o + 12] += 1.0 / 3.0
            else:
                f[o + 11] += 1.0 / 3.0
        if open_row and length > 0:
            for k in range(n):
                p = (mover + k) % n
                g = K._score_plus_row(s, p, r, -1, cnt) - base[k]
                f[o + 13 + k] = g / 10.0
                best[k] = max(best[k], g / 10.0)
    # seats
    for k in range(n):
        p = (mover + k) % n
        o = SEATS_AT + SEAT_CELLS * k
        cb = COLL + 10 * p
        f[o] = 1.0
        f[o + 1] = 1.0 if s[OUT + p] != 0 else 0.0
        f[o + 2] = base[k] / 20.0
        for c in range(7):
            f[o + 3 + rank[c]] = s[cb + c] / 6.0
        f[o + 10] = (s[cb + _JOKER] + s[cb + _GOLDEN]) / 3.0
        f[o + 11] = s[cb + _PLUS2] / 5.0
        if best[k] > -1e9:
            f[o + 12] = best[k]
    global_features(s, f, rank, n)


@njit(cache=True)
def global_features(s: np.ndarray, f: np.ndarray, rank: np.ndarray, n: int) -> None:
    """Write the table-wide features of ``s`` (from ``GLOBAL_AT``) into ``f``: cards left,
    the Last Round card, the drawn card, the draw pile's make-up (module docstring).
    ``rank``: the mover's colour order (``colour_order``); ``n``: the number of seats."""
    o = GLOBAL_AT
    f[o] = K.cards_left(s) / 60.0
    f[o + 1] = 1.0 if s[LAST_ROUND] != 0 else 0.0
    if s[PHASE] == PLACE:
        f[o + 2] = 1.0
        d = s[DRAWN]
        if d < 7:
            f[o + 3 + rank[d]] = 1.0
        elif d <= _PLUS2:
            f[o + 3 + d] = 1.0
    f[o + 13] = s[ACTIVE] / 5.0
    f[o + 14] = s[TAKES] / 5.0
    f[o + 15 + n - 2] = 1.0
    for i in range(7):
        f[o + 19 + i] = s[TABLE + i] / 21.0
    f[o + 26] = s[NEG] / 3.0
    f[o + 27] = 1.0 if s[GOLDEN_JOKERS] != 0 else 0.0  # the modern edition
    for i in range(s[PILE_LEN]):
        card = s[PILE + i]
        if card < 7:
            f[o + 28 + rank[card]] += 1.0 / 9.0
        elif card == _JOKER:
            f[o + 35] += 1.0 / 3.0
        elif card == _GOLDEN:
            f[o + 36] += 1.0
        elif card == _PLUS2:
            f[o + 37] += 1.0 / 10.0
    f[o + 38] = s[ROUND] / 20.0


@njit(cache=True, fastmath=True)
def _dense(
    x: np.ndarray, nx: int, w: np.ndarray, b: np.ndarray, out: np.ndarray, at: int, relu: bool
) -> int:
    m = w.shape[0]
    for j in range(m):
        acc = b[j]
        for i in range(nx):
            acc += w[j, i] * x[i]
        if relu and acc < 0.0:
            acc = 0.0
        out[at + j] = acc
    return m


@njit(cache=True)
def predict(
    f: np.ndarray,
    weights: tuple[np.ndarray, ...],
    hidden: np.ndarray,
    n: int,
    mw: float,
    out_reward: np.ndarray,
    out_win: np.ndarray,
    out_margin: np.ndarray,
    margin_scale: float,
) -> None:
    """Forward pass for features ``f``: per seat slot ``k < n`` the win probability
    (``out_win``), the predicted margin in points (``out_margin``) and the search reward
    ``(1 - mw) * win + mw * squashed margin`` (``out_reward``). ``weights`` =
    ``(w1, b1, w2, b2, w3, b3)`` (float64; ``w`` of shape (out, in)); ``hidden``: scratch of
    ``HIDDEN_CELLS`` floats; ``margin_scale``: the scale the model was trained with."""
    w1, b1, w2, b2, w3, b3 = weights
    h1 = w1.shape[0]
    h2 = w2.shape[0]
    tmp = hidden[h1 + h2 :]
    _dense(f, f.shape[0], w1, b1, hidden, 0, True)
    _dense(hidden, h1, w2, b2, hidden[h1:], 0, True)
    _dense(hidden[h1:], h2, w3, b3, tmp, 0, False)
    top = tmp[0]
    for k in range(1, n):
        top = max(top, tmp[k])
    z = 0.0
    for k in range(n):
        e = np.exp(tmp[k] - top)
        out_win[k] = e
        z += e
    for k in range(n):
        out_win[k] /= z
        sq = 1.0 / (1.0 + np.exp(-tmp[SEAT_SLOTS + k]))
        out_margin[k] = (sq - 0.5) * 2.0 * margin_scale
        out_reward[k] = (1.0 - mw) * out_win[k] + mw * sq
