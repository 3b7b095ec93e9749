# mypy: disable-error-code="no-any-return, return-value"
# (Numba kernels compute with numpy scalar types; their float annotations document intent.)
"""The judgement of ``heuristic`` (``coloretto.agents.heuristic``), compiled, for the search's
priors.

``heuristic_values`` gives, for the seat to move of a fast state, the value (points) of each
legal action in the terms of ``agents.heuristic``: row gains (the rise of a seat's optimal
score, docs/rules.md §6, when it takes a row), the settlement of the open rows among the
seats still in the round (each in turn takes its best non-empty row), our gain minus
``opp_weight`` times the best opponent's, the optimistic and the pessimistic settlement mixed
by the risk, drawing as the expectation over the unseen cards of the best placement, and
the jokers' flexibility bonus and the golden joker's (and ``first_out_draws``') expected
bonus card.

It computes the row gains against each collection as it is: exactly ``heuristic_scores`` for
the weights with no expected intake (``future_share`` 0 and no ``plain_mix``: the brown
table's weights, ``DEFAULT_PARAMS``, of every version; tested against the Python code). Under
the violet table the Python heuristic also counts the cards a seat may still expect to take;
this compiled judgement keeps the violet weights' other numbers (``params_array``) but not
that intake, so it is an approximation there, good enough for priors (a search's first
guess) and never used to play a move by itself.

The Python ``heuristic`` stays the reference and the player of that name.
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
    CAPS,
    COLLECTION_SIZE,
    DRAW,
    DRAWN,
    EXTRA,
    FIRST_OUT_DRAWS,
    GOLDEN_JOKER,
    JOKER,
    LAST_ROUND,
    LAST_ROUND_CARD,
    MAX_ROWS,
    MAX_SEATS,
    NROWS,
    OUT,
    PHASE,
    PILE,
    PILE_LEN,
    PLACE,
    PLACE0,
    ROW_CELLS,
    ROW_LEN,
    ROW_TAKER,
    ROWS,
    TAKE0,
    TAKES,
    TO_MOVE,
    UNTAKEN,
    N,
)

__all__ = ["H_PARAMS", "heuristic_code", "heuristic_values", "params_array"]

# weights (``params_array``)
H_OPP_WEIGHT: Final = 0
H_RISK_BASE: Final = 1
H_RISK_FILL: Final = 2
H_DRAW_MARGIN: Final = 3
H_JOKER_BONUS: Final = 4
H_LAST_DRAW_MARGIN: Final = 5
"""``last_draw_margin``; NaN for none (``draw_margin`` then)."""
H_PARAMS: Final = 6

_MANY_CARDS: Final = 20
"""Cards left in the draw pile above which a joker in a row earns ``joker_bonus`` (the
flexibility of a joker while much is still to come; ``_Judge`` of ``agents.heuristic``)."""
_NONE: Final = -1e9
"""Value of drawing when no card is unseen or no row has room (as ``_Judge.draw_value``)."""


def params_array(params: Any) -> np.ndarray:
    """The weights of ``params`` (an ``agents.heuristic.HeuristicParams``) that this module
    uses, as ``float64[H_PARAMS]``; the expected-intake weights are not used (module
    docstring)."""
    out = np.zeros(H_PARAMS, np.float64)
    out[H_OPP_WEIGHT] = params.opp_weight
    out[H_RISK_BASE] = params.risk_base
    out[H_RISK_FILL] = params.risk_fill
    out[H_DRAW_MARGIN] = params.draw_margin
    out[H_JOKER_BONUS] = params.joker_bonus
    out[H_LAST_DRAW_MARGIN] = (
        np.nan if params.last_draw_margin is None else params.last_draw_margin
    )
    return out


# The working arrays of one judgement (``_judge``):
#   order  int64[2 * MAX_SEATS + 1]: us, the opponents still in the round in turn order, us
#          again ("opponents first" is order[1:]); the last cell holds the opponents' count.
#   rows   bool[5, MAX_ROWS]: open, room (open and not full), non-empty, and two scratch rows
#          (the rows left in a settlement; the non-empty rows of a trial placement).
#   seatv  float64[3, MAX_SEATS]: each seat's current optimal score, its bonus card's worth
#          (NaN until needed), its gain in the last settlement.
#   gains  float64[2, MAX_SEATS, MAX_ROWS]: each seat's adjusted row gains; a trial copy.
#   ctx    float64[5]: the joker bonus, first_out_draws (1 or 0), opp_weight, the risk, the
#          unseen cards' count; unseen int64[COLLECTION_SIZE] their counts by card code.
_OPEN: Final = 0
_ROOM: Final = 1
_FULL: Final = 2
_LEFT: Final = 3
_TRIAL: Final = 4
_NOPP: Final = 2 * MAX_SEATS
_BASE: Final = 0
_BONUS: Final = 1
_GOT: Final = 2
_JB: Final = 0
_FIRST_OUT: Final = 1
_W: Final = 2
_RISK: Final = 3
_TOTAL: Final = 4
_ROW_FLAGS: Final = 5
_SEAT_VALUES: Final = 3
_CTX: Final = 5


@njit(cache=True)
def _card_bonus(
    s: np.ndarray, seat: int, seatv: np.ndarray, unseen: np.ndarray, ctx: np.ndarray,
    cnt: np.ndarray,
) -> float:
    """Expected gain of ``seat`` of one more unseen card (``RowGains.card_bonus``), cached
    in ``seatv[_BONUS, seat]``."""
    if np.isnan(seatv[_BONUS, seat]):
        total = ctx[_TOTAL]
        acc = 0.0
        for c in range(COLLECTION_SIZE):
            if unseen[c] > 0:
                acc += unseen[c] * (K._score_plus_row(s, seat, -1, c, cnt) - seatv[_BASE, seat])
        seatv[_BONUS, seat] = acc / total if total > 0 else 0.0
    return seatv[_BONUS, seat]


@njit(cache=True)
def _row_gain(
    s: np.ndarray, seat: int, r: int, card: int, seatv: np.ndarray, unseen: np.ndarray,
    ctx: np.ndarray, cnt: np.ndarray,
) -> float:
    """``seat``'s adjusted gain of row ``r`` plus ``card`` (-1: none): the rise of its
    optimal score (0 for an empty row), plus ``_Judge._extra``: the joker bonus per joker,
    the golden joker's expected bonus card, and ``first_out_draws``' bonus for a non-empty
    row."""
    length = s[ROW_LEN + r]
    nonempty = length > 0 or card >= 0
    v = 0.0
    if nonempty:
        v = K._score_plus_row(s, seat, r, card, cnt) - seatv[_BASE, seat]
    golden = 0
    rb = ROWS + ROW_CELLS * r
    for i in range(length + (1 if card >= 0 else 0)):
        c = s[rb + i] if i < length else card
        if c == JOKER or c == GOLDEN_JOKER:
            v += ctx[_JB]
        if c == GOLDEN_JOKER:
            golden += 1
    times = golden + (1 if ctx[_FIRST_OUT] > 0.0 and nonempty else 0)
    if times > 0:
        v += times * _card_bonus(s, seat, seatv, unseen, ctx, cnt)
    return v


@njit(cache=True)
def _settle(
    gains: np.ndarray, rows: np.ndarray, nonempty: int, order: np.ndarray, first: int,
    count: int, seatv: np.ndarray,
) -> float:
    """``heuristic._settle``: the seats ``order[first:first + count]`` in turn each take
    their best row among those flagged in ``rows[_LEFT]`` (cleared as they go) and
    ``rows[nonempty]``; their gains go to ``seatv[_GOT]`` (0 when only empty rows are left).
    Ties go to the lower row. Returns the best gain among the seats settled after
    ``order[0]`` (the opponents), or 0 when there are none."""
    for j in range(first, first + count):
        seat = order[j]
        best_r = -1
        best_v = -1e18
        for r in range(rows.shape[1]):
            if rows[_LEFT, r] and rows[nonempty, r]:
                v = gains[seat, r]
                if v > best_v:
                    best_v = v
                    best_r = r
        if best_r < 0:
            seatv[_GOT, seat] = 0.0
        else:
            seatv[_GOT, seat] = best_v
            rows[_LEFT, best_r] = False
    nopp = order[_NOPP]
    m = -1e18
    for j in range(1, nopp + 1):
        m = max(m, seatv[_GOT, order[j]])
    return m if nopp > 0 else 0.0


@njit(cache=True)
def _value(
    gains: np.ndarray, rows: np.ndarray, nonempty: int, order: np.ndarray, seatv: np.ndarray,
    ctx: np.ndarray,
) -> float:
    """``_Judge._value``: our value of the open rows with ``gains`` before anyone takes: the
    settlement where we choose first and, weighted by the risk, the one where every
    opponent chooses before us; each our gain minus ``opp_weight`` times the best
    opponent's."""
    me = order[0]
    nopp = order[_NOPP]
    rows[_LEFT, :] = rows[_OPEN, :]
    opp = _settle(gains, rows, nonempty, order, 0, nopp + 1, seatv)
    v_first = seatv[_GOT, me] - ctx[_W] * opp
    if ctx[_RISK] <= 0.0:
        return v_first
    rows[_LEFT, :] = rows[_OPEN, :]
    opp = _settle(gains, rows, nonempty, order, 1, nopp + 1, seatv)
    v_last = seatv[_GOT, me] - ctx[_W] * opp
    return (1.0 - ctx[_RISK]) * v_first + ctx[_RISK] * v_last


@njit(cache=True)
def _place_value(
    s: np.ndarray, card: int, r: int, order: np.ndarray, rows: np.ndarray, seatv: np.ndarray,
    gains: np.ndarray, unseen: np.ndarray, ctx: np.ndarray, cnt: np.ndarray,
) -> float:
    """``_Judge.place_value``: our value of putting ``card`` into row ``r``."""
    trial = gains[1]
    trial[:, :] = gains[0]
    for j in range(order[_NOPP] + 1):
        p = order[j]
        trial[p, r] = _row_gain(s, p, r, card, seatv, unseen, ctx, cnt)
    rows[_TRIAL, :] = rows[_FULL, :]
    rows[_TRIAL, r] = True
    return _value(trial, rows, _TRIAL, order, seatv, ctx)


@njit(cache=True)
def _draw_value(
    s: np.ndarray, hp: np.ndarray, order: np.ndarray, rows: np.ndarray, seatv: np.ndarray,
    gains: np.ndarray, unseen: np.ndarray, ctx: np.ndarray, cnt: np.ndarray,
) -> float:
    """``_Judge.draw_value``: the mean over the unseen cards of the best placement's value,
    minus the draw margin; ``_NONE`` when no card is unseen or no row has room."""
    nrows = s[NROWS]
    has_room = False
    for r in range(nrows):
        has_room = has_room or rows[_ROOM, r]
    if ctx[_TOTAL] == 0 or not has_room:
        return _NONE
    acc = 0.0
    for c in range(COLLECTION_SIZE):
        if unseen[c] > 0:
            best = -1e18
            for r in range(nrows):
                if rows[_ROOM, r]:
                    best = max(best, _place_value(s, c, r, order, rows, seatv, gains, unseen, ctx, cnt))
            acc += unseen[c] * best
    margin = hp[H_DRAW_MARGIN]
    if order[_NOPP] == 0 and not np.isnan(hp[H_LAST_DRAW_MARGIN]):
        margin = hp[H_LAST_DRAW_MARGIN]
    return acc / ctx[_TOTAL] - margin


@njit(cache=True)
def _take_value(
    r: int, order: np.ndarray, rows: np.ndarray, seatv: np.ndarray, gains: np.ndarray,
    ctx: np.ndarray,
) -> float:
    """``_Judge.take_value``: our gain of row ``r`` minus ``opp_weight`` times the best gain
    of an opponent when the opponents settle the other rows."""
    v = gains[0, order[0], r]
    nopp = order[_NOPP]
    if nopp > 0:
        rows[_LEFT, :] = rows[_OPEN, :]
        rows[_LEFT, r] = False
        rows[_TRIAL, :] = rows[_FULL, :]
        rows[_TRIAL, r] = False
        v -= ctx[_W] * _settle(gains[0], rows, _TRIAL, order, 1, nopp, seatv)
    return v


@njit(cache=True)
def _judge(
    s: np.ndarray, hp: np.ndarray, order: np.ndarray, rows: np.ndarray, seatv: np.ndarray,
    gains: np.ndarray, unseen: np.ndarray, ctx: np.ndarray, cnt: np.ndarray,
) -> None:
    """Fill the working arrays (above) for the seat to move of ``s``: ``_Judge.__init__``."""
    n = s[N]
    me = s[TO_MOVE]
    order[0] = me
    nopp = 0
    for i in range(1, n):
        p = (me + i) % n
        if s[OUT + p] == 0:
            nopp += 1
            order[nopp] = p
    order[nopp + 1] = me
    order[_NOPP] = nopp
    total = 0
    for c in range(COLLECTION_SIZE):
        unseen[c] = 0
    for i in range(s[PILE_LEN]):
        c = s[PILE + i]
        if c != LAST_ROUND_CARD:
            unseen[c] += 1
            total += 1
    rows[:, :] = False
    nopen = 0
    cap_total = 0
    filled = 0
    for r in range(s[NROWS]):
        if s[ROW_TAKER + r] == UNTAKEN:
            rows[_OPEN, r] = True
            rows[_ROOM, r] = s[ROW_LEN + r] < s[CAPS + r]
            rows[_FULL, r] = s[ROW_LEN + r] > 0
            nopen += 1
            cap_total += s[CAPS + r]
            filled += s[ROW_LEN + r]
    fill = filled / (cap_total if cap_total > 0 else 1)
    many = K.cards_left(s) > _MANY_CARDS and s[LAST_ROUND] == 0
    ctx[_JB] = hp[H_JOKER_BONUS] if many else 0.0
    ctx[_FIRST_OUT] = 1.0 if s[EXTRA] == FIRST_OUT_DRAWS and s[TAKES] == 0 else 0.0
    ctx[_W] = hp[H_OPP_WEIGHT]
    ctx[_RISK] = 0.0
    if nopp > 0:
        share = min(1.0, nopp / max(1, nopen - 1))
        ctx[_RISK] = min(1.0, (hp[H_RISK_BASE] + hp[H_RISK_FILL] * fill) * share)
    ctx[_TOTAL] = total
    seatv[_BONUS, :] = np.nan
    for j in range(nopp + 1):
        p = order[j]
        seatv[_BASE, p] = K._score_plus_row(s, p, -1, -1, cnt)
    gains[0, :, :] = 0.0
    for j in range(nopp + 1):
        p = order[j]
        for r in range(s[NROWS]):
            if rows[_OPEN, r]:
                gains[0, p, r] = _row_gain(s, p, r, -1, seatv, unseen, ctx, cnt)


@njit(cache=True)
def heuristic_values(
    s: np.ndarray, codes: np.ndarray, k: int, hp: np.ndarray, out: np.ndarray, cnt: np.ndarray
) -> None:
    """The value (points, higher is better) for the seat to move of each of the ``k`` legal
    ``codes`` of ``s`` (a TURN or PLACE decision) into ``out[:k]``, with the weights ``hp``
    (``params_array``): ``heuristic_scores`` of ``agents.heuristic`` (module docstring).
    ``cnt``: int64[COLLECTION_SIZE] scratch."""
    order = np.empty(2 * MAX_SEATS + 1, np.int64)
    rows = np.zeros((_ROW_FLAGS, MAX_ROWS), np.bool_)
    seatv = np.zeros((_SEAT_VALUES, MAX_SEATS), np.float64)
    gains = np.zeros((2, MAX_SEATS, MAX_ROWS), np.float64)
    unseen = np.empty(COLLECTION_SIZE, np.int64)
    ctx = np.zeros(_CTX, np.float64)
    _judge(s, hp, order, rows, seatv, gains, unseen, ctx, cnt)
    if s[PHASE] == PLACE:
        for i in range(k):
            r = codes[i] - PLACE0
            out[i] = _place_value(s, s[DRAWN], r, order, rows, seatv, gains, unseen, ctx, cnt)
        return
    for i in range(k):
        if codes[i] == DRAW:
            out[i] = _draw_value(s, hp, order, rows, seatv, gains, unseen, ctx, cnt)
        else:
            out[i] = _take_value(codes[i] - TAKE0, order, rows, seatv, gains, ctx)


@njit(cache=True)
def heuristic_code(
    s: np.ndarray, codes: np.ndarray, k: int, hp: np.ndarray, vals: np.ndarray, cnt: np.ndarray
) -> int:
    """The heuristic's action among the ``k`` legal ``codes`` of ``s`` (a TURN or PLACE
    decision): the highest of ``heuristic_values`` (first in code order among equals).
    ``vals``: float64[>= k] scratch; ``cnt``: int64[COLLECTION_SIZE] scratch."""
    if k == 1:
        return codes[0]
    heuristic_values(s, codes, k, hp, vals, cnt)
    best = 0
    for i in range(1, k):
        if vals[i] > vals[best]:
            best = i
    return codes[best]
