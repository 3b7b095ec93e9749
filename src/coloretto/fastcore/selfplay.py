# mypy: disable-error-code="no-any-return, return-value"
# (Numba kernels compute with numpy scalar types; their int annotations document intent.)
"""Self-play games in the fast core that record training positions for the learned value.

Every seat plays one policy, ``SELFPLAY_THRESHOLD`` (the ``threshold`` rollout policy of the
search, ``search.threshold_code``) or ``SELFPLAY_HEURISTIC`` (the compiled heuristic's best
action, ``fastcore.heuristic``; ties to the lower code), with an exploration rate: with probability ``explore`` a decision is uniform over the
legal actions instead. At a decision with a choice, the position is kept with probability
``keep``: its features (``value.features``, from the seat to move) are written out, and
once the game ends its targets: per seat slot (turn order from the seat to move) the win
share (1 for a sole winner, 1/k in a k-way tie) and the final margin (own score minus the
best other score, in points). Game ``g`` is dealt and played from its own random stream
``(seed, g)``, so any game can be replayed alone.
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
from . import value as V
from .heuristic import heuristic_code
from .layout import COLLECTION_SIZE, MAX_SEATS, NUM_DISTINCT_ACTIONS, PHASE, PLACE, TO_MOVE, TURN, N
from .search import threshold_code

__all__ = ["SELFPLAY_HEURISTIC", "SELFPLAY_THRESHOLD", "record_games"]

SELFPLAY_THRESHOLD: Final = 0
SELFPLAY_HEURISTIC: Final = 1
"""The self-play policies' codes: their positions in ``agents.compiled_names.SELFPLAY_POLICIES``
(``coloretto train value --policy``)."""


@njit(cache=True)
def record_games(
    template: np.ndarray,
    seed: np.uint64,
    first_game: int,
    stride: int,
    count: int,
    explore: float,
    keep: float,
    a_pts: float,
    b_pts: float,
    feats: np.ndarray,
    slots: np.ndarray,
    win: np.ndarray,
    margin: np.ndarray,
    game_of: np.ndarray,
    policy: int,
    hp: np.ndarray,
) -> int:
    """Play the ``count`` games ``first_game + i * stride`` under the rules of
    ``template`` (a fast state's rule cells, ``rules_template``) and record positions
    (module docstring) into ``feats[i]`` (``N_FEATURES`` floats), ``slots[i]`` (players),
    ``win[i, k]`` / ``margin[i, k]`` for the seat slots ``k < players`` and ``game_of[i]``
    (the game's index); stops early when the arrays are full. ``policy``:
    ``SELFPLAY_THRESHOLD`` or ``SELFPLAY_HEURISTIC``; ``hp``: the heuristic's weights
    (``heuristic.params_array``) for ``SELFPLAY_HEURISTIC``. Returns the positions written."""
    s = template.copy()
    rng = np.empty(1, np.uint64)
    codes = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
    opts = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
    cnt = np.empty(COLLECTION_SIZE, np.int64)
    vals = np.empty(NUM_DISTINCT_ACTIONS, np.float64)
    n = template[N]
    movers = np.empty(4096, np.int64)
    rows = np.empty(4096, np.int64)
    score = np.empty(MAX_SEATS, np.int64)
    cap = feats.shape[0]
    out = 0
    for gi in range(count):
        g = first_game + gi * stride
        K.seed_rng(rng, seed, g)
        s[:] = template
        K.deal(s, rng, -1, -1)
        kept = 0
        while s[PHASE] == TURN or s[PHASE] == PLACE:
            k = K.legal_codes(s, codes)
            if k > 1 and out + kept < cap and kept < movers.shape[0]:
                u = (K.below(rng, 1 << 30) + 0.5) / (1 << 30)
                if u < keep:
                    V.features(s, feats[out + kept], cnt)
                    movers[kept] = s[TO_MOVE]
                    rows[kept] = out + kept
                    kept += 1
            u = (K.below(rng, 1 << 30) + 0.5) / (1 << 30)
            if k > 1 and u < explore:
                code = codes[K.below(rng, k)]
            elif policy == SELFPLAY_HEURISTIC:
                code = heuristic_code(s, codes, k, hp, vals, cnt)
            else:
                code = threshold_code(s, codes, k, a_pts, b_pts, rng, opts, cnt)
            K.apply_code(s, code, cnt)
        for p in range(n):
            score[p] = K.seat_score(s, p, cnt)
        best = score[0]
        for p in range(1, n):
            best = max(best, score[p])
        nwin = 0
        for p in range(n):
            if score[p] == best:
                nwin += 1
        for j in range(kept):
            i = rows[j]
            slots[i] = n
            game_of[i] = g
            for kk in range(V.SEAT_SLOTS):
                win[i, kk] = 0.0
                margin[i, kk] = 0.0
            for kk in range(n):
                p = (movers[j] + kk) % n
                other = -(1 << 30)
                for q in range(n):
                    if q != p and score[q] > other:
                        other = score[q]
                win[i, kk] = 1.0 / nwin if score[p] == best else 0.0
                margin[i, kk] = score[p] - other
        out += kept
        if out >= cap:
            break
    return out
