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
    COLL_CELLS,
    COLLECTION_SIZE,
    DRAWN,
    GOLDEN_JOKER,
    GOLDEN_JOKERS,
    INPLAY,
    JOKER,
    LAST_ROUND,
    MAX_ROWS,
    MAX_SEATS,
    MIN_SEATS,
    NEG,
    NO_CARD,
    NROWS,
    NUM_COLORS,
    OUT,
    PHASE,
    PILE,
    PILE_LEN,
    PLACE,
    PLUS2,
    ROUND,
    ROW_CELLS,
    ROW_LEN,
    ROW_TAKER,
    ROWS,
    TABLE,
    TABLE_CELLS,
    TAKES,
    TO_MOVE,
    UNTAKEN,
    N,
)

__all__ = ["HIDDEN_CELLS", "N_FEATURES", "N_OUTPUTS", "colour_order", "features", "predict"]

SEAT_SLOTS: Final = MAX_SEATS
"""Seat slots (turn order from the seat to move, padded to the most seats)."""
ROW_SLOTS: Final = MAX_ROWS
"""Row slots (table order, padded to the most rows)."""

# the cells of a seat slot, from its first
S_PRESENT: Final = 0
S_OUT: Final = S_PRESENT + 1
S_SCORE: Final = S_OUT + 1
S_COLORS: Final = S_SCORE + 1
"""``NUM_COLORS`` colour counts, canonical order."""
S_JOKERS: Final = S_COLORS + NUM_COLORS
S_PLUS2: Final = S_JOKERS + 1
S_GAIN: Final = S_PLUS2 + 1
SEAT_CELLS: Final = S_GAIN + 1

# the cells of a row slot, from its first
R_PRESENT: Final = 0
R_OPEN: Final = R_PRESENT + 1
R_CAPACITY: Final = R_OPEN + 1
R_CARDS: Final = R_CAPACITY + 1
R_COLORS: Final = R_CARDS + 1
"""``NUM_COLORS`` colour counts, canonical order."""
R_JOKERS: Final = R_COLORS + NUM_COLORS
R_PLUS2: Final = R_JOKERS + 1
R_GAINS: Final = R_PLUS2 + 1
"""The row's gain for each of the ``SEAT_SLOTS`` seat slots."""
ROW_FEATURES: Final = R_GAINS + SEAT_SLOTS

# the table-wide cells, from GLOBAL_AT
G_CARDS_LEFT: Final = 0
G_LAST_ROUND: Final = G_CARDS_LEFT + 1
G_PLACE: Final = G_LAST_ROUND + 1
G_DRAWN: Final = G_PLACE + 1
"""One-hot of the drawn card: ``NUM_COLORS`` canonical colours, then the other kinds of a
collection by card code (joker, golden joker, "+2")."""
G_ACTIVE: Final = G_DRAWN + COLLECTION_SIZE
G_TAKES: Final = G_ACTIVE + 1
G_PLAYERS: Final = G_TAKES + 1
"""One-hot of the number of players, ``MIN_SEATS`` .. ``MAX_SEATS``."""
G_TABLE: Final = G_PLAYERS + MAX_SEATS - MIN_SEATS + 1
G_NEG: Final = G_TABLE + TABLE_CELLS
G_MODERN: Final = G_NEG + 1
G_UNSEEN: Final = G_MODERN + 1
"""``NUM_COLORS`` unseen colour counts, canonical order."""
G_UNSEEN_JOKERS: Final = G_UNSEEN + NUM_COLORS
G_UNSEEN_GOLDEN: Final = G_UNSEEN_JOKERS + 1
G_UNSEEN_PLUS2: Final = G_UNSEEN_GOLDEN + 1
G_ROUND: Final = G_UNSEEN_PLUS2 + 1
GLOBAL_CELLS: Final = G_ROUND + 1

SEATS_AT: Final = 0
ROWS_AT: Final = SEATS_AT + SEAT_SLOTS * SEAT_CELLS
GLOBAL_AT: Final = ROWS_AT + ROW_SLOTS * ROW_FEATURES
N_FEATURES: Final = GLOBAL_AT + GLOBAL_CELLS
N_OUTPUTS: Final = 2 * SEAT_SLOTS
HIDDEN_CELLS: Final = 512
"""Scratch floats for the hidden layers (H1 + H2 at most)."""

_JOKER = JOKER
_GOLDEN = GOLDEN_JOKER
_PLUS2 = PLUS2


@njit(cache=True)
def colour_order(s: np.ndarray, mover: int, rank: np.ndarray) -> None:
    """``rank[c]`` = canonical position (0 .. ``NUM_COLORS`` - 1) of colour ``c``: colours in
    play first, then by descending count held by the mover, then by each other seat in turn
    order, then by each row's count, the unseen count and the drawn card. Colours equal in
    all of these are interchangeable in every feature, so the features do not depend on
    colour names."""
    n = s[N]
    mask = s[INPLAY]
    width = 1 + SEAT_SLOTS + ROW_SLOTS + 2
    key = np.zeros((NUM_COLORS, width), np.int64)
    for c in range(NUM_COLORS):
        key[c, 0] = (mask >> c) & 1
        for k in range(n):
            key[c, 1 + k] = s[COLL + COLL_CELLS * ((mover + k) % n) + c]
    for r in range(s[NROWS]):
        for i in range(s[ROW_LEN + r]):
            card = s[ROWS + ROW_CELLS * r + i]
            if card < NUM_COLORS:
                key[card, 1 + SEAT_SLOTS + r] += 1
    for i in range(s[PILE_LEN]):
        card = s[PILE + i]
        if card < NUM_COLORS:
            key[card, width - 2] += 1
    if s[PHASE] == PLACE and 0 <= s[DRAWN] < NUM_COLORS:
        key[s[DRAWN], width - 1] = 1
    for c in range(NUM_COLORS):
        r = 0
        for d in range(NUM_COLORS):
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
    (module docstring). ``cnt``: scratch int64[``COLLECTION_SIZE``]."""
    n = s[N]
    nrows = s[NROWS]
    mover = s[TO_MOVE]
    rank = np.empty(NUM_COLORS, np.int64)
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
        o = ROWS_AT + ROW_FEATURES * r
        f[o + R_PRESENT] = 1.0
        length = s[ROW_LEN + r]
        open_row = s[ROW_TAKER + r] == UNTAKEN
        f[o + R_OPEN] = 1.0 if open_row else 0.0
        f[o + R_CAPACITY] = s[CAPS + r] / 3.0
        f[o + R_CARDS] = length / 3.0
        for i in range(length):
            card = s[ROWS + ROW_CELLS * r + i]
            if card < NUM_COLORS:
                f[o + R_COLORS + rank[card]] += 1.0 / 3.0
            elif card == _PLUS2:
                f[o + R_PLUS2] += 1.0 / 3.0
            else:
                f[o + R_JOKERS] += 1.0 / 3.0
        if open_row and length > 0:
            for k in range(n):
                p = (mover + k) % n
                g = K._score_plus_row(s, p, r, NO_CARD, cnt) - base[k]
                f[o + R_GAINS + k] = g / 10.0
                best[k] = max(best[k], g / 10.0)
    # seats
    for k in range(n):
        p = (mover + k) % n
        o = SEATS_AT + SEAT_CELLS * k
        cb = COLL + COLL_CELLS * p
        f[o + S_PRESENT] = 1.0
        f[o + S_OUT] = 1.0 if s[OUT + p] != 0 else 0.0
        f[o + S_SCORE] = base[k] / 20.0
        for c in range(NUM_COLORS):
            f[o + S_COLORS + rank[c]] = s[cb + c] / 6.0
        f[o + S_JOKERS] = (s[cb + _JOKER] + s[cb + _GOLDEN]) / 3.0
        f[o + S_PLUS2] = s[cb + _PLUS2] / 5.0
        if best[k] > -1e9:
            f[o + S_GAIN] = best[k]
    global_features(s, f, rank, n)


@njit(cache=True)
def global_features(s: np.ndarray, f: np.ndarray, rank: np.ndarray, n: int) -> None:
    """Write the table-wide features of ``s`` (from ``GLOBAL_AT``) into ``f``: cards left,
    the Last Round card, the drawn card, the draw pile's make-up (module docstring).
    ``rank``: the mover's colour order (``colour_order``); ``n``: the number of seats."""
    o = GLOBAL_AT
    f[o + G_CARDS_LEFT] = K.cards_left(s) / 60.0
    f[o + G_LAST_ROUND] = 1.0 if s[LAST_ROUND] != 0 else 0.0
    if s[PHASE] == PLACE:
        f[o + G_PLACE] = 1.0
        d = s[DRAWN]
        if d < NUM_COLORS:
            f[o + G_DRAWN + rank[d]] = 1.0
        elif d <= _PLUS2:
            f[o + G_DRAWN + d] = 1.0
    f[o + G_ACTIVE] = s[ACTIVE] / 5.0
    f[o + G_TAKES] = s[TAKES] / 5.0
    f[o + G_PLAYERS + n - MIN_SEATS] = 1.0
    for i in range(TABLE_CELLS):
        f[o + G_TABLE + i] = s[TABLE + i] / 21.0
    f[o + G_NEG] = s[NEG] / 3.0
    f[o + G_MODERN] = 1.0 if s[GOLDEN_JOKERS] != 0 else 0.0  # the modern edition
    for i in range(s[PILE_LEN]):
        card = s[PILE + i]
        if card < NUM_COLORS:
            f[o + G_UNSEEN + rank[card]] += 1.0 / 9.0
        elif card == _JOKER:
            f[o + G_UNSEEN_JOKERS] += 1.0 / 3.0
        elif card == _GOLDEN:
            f[o + G_UNSEEN_GOLDEN] += 1.0
        elif card == _PLUS2:
            f[o + G_UNSEEN_PLUS2] += 1.0 / 10.0
    f[o + G_ROUND] = s[ROUND] / 20.0


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
