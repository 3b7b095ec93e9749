# mypy: disable-error-code="no-any-return, return-value"
# (Numba kernels compute with numpy scalar types; their int annotations document intent.)
"""Information-set Monte Carlo tree search, compiled end to end (Numba).

One call of ``run_search`` plays a whole search for the seat to move in a fast state
(``coloretto.fastcore.layout``) encoded from an **observation** (the draw pile redacted:
its cards in any order, the Last Round card at its known depth). No Python runs per
iteration. The parts, in the order an iteration uses them:

* **Sampler** (``sample_pile``): the unseen cards of the draw pile are reshuffled, the Last
  Round card kept at its depth (``Observation.sample_state``); every iteration has its own
  determinization of the hidden pile. The true order is never an input.
* **Tree** (``Tree`` arrays, preallocated): one shared tree of decision nodes. A node holds
  the seat to move, its legal action codes (public: the same in every sample) and per
  action the visits, the summed reward *of that seat* (max-n: every seat maximises its own
  reward) and the prior. Chance is handled by the samples: after ``draw`` the child is
  chosen by the card the sample reveals (a chance block of one child per card code).
* **Selection** (``select_action``): PUCT, ``q + c_puct * prior * sqrt(N + 1) / (1 + n)``,
  ``q`` = 0.5 for an unvisited action. Priors (``gain_priors``, set when a node is made):
  a softmax of each action's worth in the terms of the ``threshold`` policy, or uniform
  (temperature 0); the caller may give the root's own (``search_arrays(root_prior=...)``).
  ``root_round_robin`` visits the root's actions in turn instead (an advisor's estimates).
* **Expansion**: one new node per iteration (while the tree has room).
* **Evaluation** (``evaluate_leaf``): a rollout with the ``hybrid`` policy (the ``threshold``
  policy to the end of the current round, then ``greedy`` to the end of the game; later
  games of a match are dealt by ``kernels.deal`` and played ``greedy``), or the learned
  value (``coloretto.fastcore.value``) of the leaf, or the ``threshold`` policy (or the
  compiled heuristic) to the end of the round and the learned value there.
* **Reward** (``seat_rewards``): ``(1 - margin_weight) * win + margin_weight *
  clip(0.5 + margin / (2 * margin_scale), 0, 1)``, ``win`` 1 for a sole winner and ``1/k``
  for a k-way tie, ``margin`` = own total minus the best other total.
* **Backup**: every (node, action) of the path gets one visit and the reward of the node's
  seat; the root also sums the win indicator, the margin and the squared margin of the
  searching seat (an advisor's means and intervals).

The reference, readable implementation of the same search is ``coloretto.agents.mcts``
(``search``); this module calls the fast core's own kernels (``kernels.legal_codes``,
``apply_code``, ``greedy_options``, ``deal``, the xorshift64* generator) rather than
copying them. The ``starting_cards="choose"`` decision is not searched here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final, TypeVar

import numpy as np

from .._optional import require

_numba = require("numba", "fast", "the fast core")
_F = TypeVar("_F", bound=Callable[..., Any])
njit: Callable[..., Callable[[_F], _F]] = _numba.njit
objmode: Any = _numba.objmode

from . import kernels as K
from . import value as V
from .heuristic import H_PARAMS, heuristic_code, heuristic_values
from .layout import (
    CAPS,
    COLLECTION_SIZE,
    DRAW,
    DRAWN,
    GAME,
    GAME_END,
    LAST_ROUND_CARD,
    MATCH_GAMES,
    MAX_PILE,
    MAX_ROWS,
    MAX_SEATS,
    NO_CARD,
    NROWS,
    NUM_DISTINCT_ACTIONS,
    OVER,
    PHASE,
    PILE,
    PILE_LEN,
    PLACE,
    PLACE0,
    POLICY_GREEDY,
    ROUND,
    ROW_LEN,
    ROW_TAKER,
    TAKE0,
    TO_MOVE,
    TOTALS,
    TURN,
    UNTAKEN,
    N,
)

__all__ = [
    "EVAL_HEURISTIC_ROUND_VALUE",
    "EVAL_ROLLOUT",
    "EVAL_ROUND_VALUE",
    "EVAL_VALUE",
    "MAX_ACTIONS",
    "Tree",
    "run_search",
]

# action and card codes: the engine's (coloretto.engine.actions, coloretto.engine.cards),
# through the fast core's layout
_DRAW = DRAW
_PLACE0 = PLACE0
_TAKE0 = TAKE0
_LAST = LAST_ROUND_CARD
_CARD_KINDS = COLLECTION_SIZE
_NO_ROW = -1
"""``kernels._score_plus_row``'s row for none."""

MAX_ACTIONS: Final = 1 + MAX_ROWS + 1
"""Most legal actions of one decision (a draw and a take per row: ``1 + MAX_ROWS``, more
than the ``MAX_ROWS`` places of a place decision), and one cell more for an even width."""

# node cells (int32 array ``Tree.nodes[node, :]``)
NODE_SEAT: Final = 0
NODE_NACTS: Final = 1
NODE_TOTAL: Final = 2
NODE_CODES: Final = 3
NODE_KIDS: Final = NODE_CODES + MAX_ACTIONS
NODE_JUDGED: Final = NODE_KIDS + MAX_ACTIONS
"""1 once the node's priors are the heuristic's (``PRIORS_HEURISTIC``)."""
NODE_CELLS: Final = NODE_JUDGED + 1

# evaluation of a leaf
EVAL_ROLLOUT: Final = 0
"""Roll out with the ``hybrid`` policy to the end of the game (of the match)."""
EVAL_VALUE: Final = 1
"""The learned value of the leaf (rollouts in a game of a match that is not the last)."""
EVAL_ROUND_VALUE: Final = 2
"""Roll out with ``threshold`` to the end of the current round, then the learned value."""
EVAL_HEURISTIC_ROUND_VALUE: Final = 3
"""Roll out with the compiled heuristic (``fastcore.heuristic``) to the end of the current
round, then the learned value."""

# float parameters (``fparams``)
P_C_PUCT: Final = 0
P_MARGIN_WEIGHT: Final = 1
P_MARGIN_SCALE: Final = 2
P_THRESHOLD_A: Final = 3
P_THRESHOLD_B: Final = 4
P_DEADLINE: Final = 5
P_VALUE_SCALE: Final = 6
P_PRIOR_TEMP: Final = 7
P_HEURISTIC: Final = 8
"""First of the ``H_PARAMS`` weights of the compiled heuristic (``fastcore.heuristic``)."""
F_PARAMS: Final = P_HEURISTIC + H_PARAMS
# integer parameters (``iparams``)
P_ITERATIONS: Final = 0
P_EVAL: Final = 1
P_CHECK_EVERY: Final = 2
P_ROOT_ROBIN: Final = 3
P_SAMPLE: Final = 4
P_PRIORS: Final = 5
"""``PRIORS_GAIN`` or ``PRIORS_HEURISTIC``."""
P_JUDGE_VISITS: Final = 6
"""With ``PRIORS_HEURISTIC``: the visits of a node after which its priors are the
heuristic's."""
I_PARAMS: Final = 7

# priors of the nodes below the root
PRIORS_GAIN: Final = 0
"""``gain_priors`` (or uniform at temperature 0) from a node's creation."""
PRIORS_HEURISTIC: Final = 1
"""``gain_priors`` until the node has ``P_JUDGE_VISITS`` visits, then a softmax of the
compiled heuristic's values (``fastcore.heuristic``): the priors of ``mcts``, which judge
the opponents' rows too."""
PRIORS: Final = {"gain": PRIORS_GAIN, "heuristic": PRIORS_HEURISTIC}

# root statistics columns (``Tree.root``)
R_VISITS: Final = 0
R_REWARD: Final = 1
R_WIN: Final = 2
R_MARGIN: Final = 3
R_MARGIN2: Final = 4
R_COLUMNS: Final = 5


class Tree:
    """The preallocated arrays of one search tree (reused from one decision to the next).

    Attributes:
        nodes: ``int32[capacity, NODE_CELLS]``: per node the seat to move, the number of
            legal actions, the node's total visits, the action codes and per action the
            child (``-1`` none; for ``draw`` the index of a chance block).
        visits: ``int32[capacity, MAX_ACTIONS]`` visits per action.
        reward: ``float64[capacity, MAX_ACTIONS]`` summed reward of the node's seat per action.
        prior: ``float32[capacity, MAX_ACTIONS]`` priors (uniform by default).
        chance: ``int32[capacity, 10]``: chance blocks, child node per drawn card code.
        root: ``float64[MAX_ACTIONS, R_COLUMNS]``: root visits, summed reward, summed win
            indicator, summed margin (points) and summed squared margin of the searching seat,
            per root action.
        counts: ``int64[2]``: nodes and chance blocks in use.
    """

    __slots__ = ("chance", "counts", "nodes", "prior", "reward", "root", "visits")

    def __init__(self, capacity: int) -> None:
        if capacity < 2:
            raise ValueError(f"a tree needs room for at least 2 nodes, not {capacity}")
        self.nodes = np.empty((capacity, NODE_CELLS), np.int32)
        self.visits = np.empty((capacity, MAX_ACTIONS), np.int32)
        self.reward = np.empty((capacity, MAX_ACTIONS), np.float64)
        self.prior = np.empty((capacity, MAX_ACTIONS), np.float32)
        self.chance = np.empty((capacity, _CARD_KINDS), np.int32)
        self.root = np.zeros((MAX_ACTIONS, R_COLUMNS), np.float64)
        self.counts = np.zeros(2, np.int64)

    @property
    def capacity(self) -> int:
        """Nodes the tree can hold."""
        return int(self.nodes.shape[0])


# ----- sampler ------------------------------------------------------------------------------
@njit(cache=True)
def hidden_positions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the draw pile positions (offsets from ``PILE``) whose card is unknown, i.e.
    every position but the Last Round card's, to ``out``; return how many."""
    m = 0
    for i in range(s[PILE_LEN]):
        if s[PILE + i] != _LAST:
            out[m] = i
            m += 1
    return m


@njit(cache=True)
def sample_pile(s: np.ndarray, pos: np.ndarray, m: int, rng: np.ndarray) -> None:
    """Shuffle the cards at the ``m`` hidden pile positions ``pos`` of ``s`` in place
    (uniform Fisher-Yates; the Last Round card stays at its depth), as
    ``Observation.sample_state`` does for the engine."""
    for i in range(m - 1, 0, -1):
        j = K.below(rng, i + 1)
        a = PILE + pos[i]
        b = PILE + pos[j]
        t = s[a]
        s[a] = s[b]
        s[b] = t


# ----- rollout policies ---------------------------------------------------------------------
@njit(cache=True)
def threshold_code(
    s: np.ndarray,
    codes: np.ndarray,
    k: int,
    a_pts: float,
    b_pts: float,
    rng: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
) -> int:
    """The ``threshold`` rollout policy (``agents.mcts._threshold_code``) among the ``k``
    legal ``codes``: at a turn, take the row with the best gain of the mover's optimal
    score (first in code order among equals) when drawing is illegal or that gain reaches
    ``a_pts * (1 - fill) + b_pts`` points, ``fill`` the filled fraction of the open rows'
    capacity; else draw. A drawn card goes where ``greedy`` puts it (ties uniform)."""
    if k == 1:
        return codes[0]
    if s[PHASE] == PLACE:
        m = K.greedy_options(s, codes, k, opts, cnt)
        return opts[K.below(rng, m)]
    seat = s[TO_MOVE]
    has_draw = codes[0] == _DRAW
    first = 1 if has_draw else 0
    if first == k:
        return _DRAW
    base = K._score_plus_row(s, seat, _NO_ROW, NO_CARD, cnt)
    best = -1
    best_g = -(1 << 30)
    for i in range(first, k):
        g = K._score_plus_row(s, seat, codes[i] - _TAKE0, NO_CARD, cnt) - base
        if g > best_g:
            best_g = g
            best = codes[i]
    if not has_draw:
        return best
    filled = 0
    cap = 0
    for r in range(s[NROWS]):
        if s[ROW_TAKER + r] == UNTAKEN:
            filled += s[ROW_LEN + r]
            cap += s[CAPS + r]
    if best_g >= a_pts * (1.0 - filled / cap) + b_pts:
        return best
    return _DRAW


@njit(cache=True)
def rollout_round(
    s: np.ndarray,
    a_pts: float,
    b_pts: float,
    hp: np.ndarray,
    rng: np.ndarray,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
    vals: np.ndarray,
) -> None:
    """Play from a turn or place decision to the end of the current round (or game): the
    compiled heuristic with weights ``hp`` (``heuristic.params_array``; ``vals``:
    float64[MAX_ACTIONS] scratch), or ``threshold`` (``a_pts``, ``b_pts``) when ``hp`` is
    empty (``vals`` unused)."""
    rnd = s[ROUND]
    game = s[GAME]
    use_heuristic = hp.shape[0] > 0
    while (s[PHASE] == TURN or s[PHASE] == PLACE) and s[ROUND] == rnd and s[GAME] == game:
        k = K.legal_codes(s, codes)
        if use_heuristic:
            code = heuristic_code(s, codes, k, hp, vals, cnt)
        else:
            code = threshold_code(s, codes, k, a_pts, b_pts, rng, opts, cnt)
        K.apply_code(s, code, cnt)


@njit(cache=True)
def rollout_hybrid(
    s: np.ndarray,
    a_pts: float,
    b_pts: float,
    rng: np.ndarray,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
    pol: np.ndarray,
    vals: np.ndarray,
) -> None:
    """The ``hybrid`` rollout to the end of the match: ``threshold`` to the end of the
    current round, then ``greedy`` (``kernels.play_game``); each later game of a match is
    dealt by ``kernels.deal`` (random colours removed, random first player) and played
    ``greedy``. Ends at ``OVER`` with the final totals in ``TOTALS``. ``vals``: any float64
    array (only its empty slice is used: ``rollout_round``'s switch to ``threshold``, with no
    allocation per rollout)."""
    rollout_round(s, a_pts, b_pts, vals[:0], rng, codes, opts, cnt, vals)
    while True:
        K.play_game(s, pol, rng, codes, opts, cnt)
        if s[PHASE] != GAME_END:
            return
        s[GAME] += 1
        K.deal(s, rng, -1, -1)


# ----- rewards ------------------------------------------------------------------------------
@njit(cache=True)
def seat_rewards(
    totals: np.ndarray,
    n: int,
    mw: float,
    scale: float,
    out: np.ndarray,
    win: np.ndarray,
    margin: np.ndarray,
) -> None:
    """Reward of every seat for final ``totals`` (module docstring) into ``out[:n]``; the
    win indicator (ties split) into ``win[:n]``, the margin (own total minus the best
    other) into ``margin[:n]``."""
    best = totals[0]
    for p in range(1, n):
        best = max(best, totals[p])
    nwin = 0
    for p in range(n):
        if totals[p] == best:
            nwin += 1
    for p in range(n):
        other = -(1 << 30)
        for q in range(n):
            if q != p and totals[q] > other:
                other = totals[q]
        w = 1.0 / nwin if totals[p] == best else 0.0
        sq = 0.5 + (totals[p] - other) / (2.0 * scale)
        if sq < 0.0:
            sq = 0.0
        elif sq > 1.0:
            sq = 1.0
        win[p] = w
        margin[p] = totals[p] - other
        out[p] = (1.0 - mw) * w + mw * sq


@njit(cache=True)
def evaluate_leaf(
    s: np.ndarray,
    mode: int,
    fparams: np.ndarray,
    weights: tuple[np.ndarray, ...],
    rng: np.ndarray,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
    pol: np.ndarray,
    feats: np.ndarray,
    hidden: np.ndarray,
    scratch: np.ndarray,
    reward: np.ndarray,
    win: np.ndarray,
    margin: np.ndarray,
) -> None:
    """Evaluate the leaf state ``s`` (changed in place) with evaluation ``mode``: every
    seat's reward, win indicator (a probability for the learned value) and margin (own total
    minus the best other; predicted for the learned value) into ``reward``, ``win`` and
    ``margin``. The learned value is used only in single games (``MATCH_GAMES`` 1); a match
    is always rolled out. ``scratch``: float64[4 * MAX_SEATS + MAX_ACTIONS]."""
    n = s[N]
    mw = fparams[P_MARGIN_WEIGHT]
    scale = fparams[P_MARGIN_SCALE]
    if mode != EVAL_ROLLOUT and s[MATCH_GAMES] == 1 and s[PHASE] != OVER:
        if mode == EVAL_ROUND_VALUE or mode == EVAL_HEURISTIC_ROUND_VALUE:
            # an empty slice of the weights: threshold (rollout_round's switch)
            hp_end = P_HEURISTIC + H_PARAMS if mode == EVAL_HEURISTIC_ROUND_VALUE else P_HEURISTIC
            rollout_round(
                s,
                fparams[P_THRESHOLD_A],
                fparams[P_THRESHOLD_B],
                fparams[P_HEURISTIC:hp_end],
                rng,
                codes,
                opts,
                cnt,
                scratch[4 * MAX_SEATS :],
            )
        if s[PHASE] == TURN or s[PHASE] == PLACE:
            V.features(s, feats, cnt)
            r_slot = scratch[0:MAX_SEATS]
            w_slot = scratch[MAX_SEATS : 2 * MAX_SEATS]
            m_slot = scratch[2 * MAX_SEATS : 3 * MAX_SEATS]
            V.predict(feats, weights, hidden, n, mw, r_slot, w_slot, m_slot, fparams[P_VALUE_SCALE])
            mover = s[TO_MOVE]
            for k in range(n):
                p = (mover + k) % n
                reward[p] = r_slot[k]
                win[p] = w_slot[k]
                margin[p] = m_slot[k]
            return
    if s[PHASE] == TURN or s[PHASE] == PLACE or s[PHASE] == GAME_END:
        if s[PHASE] == GAME_END:
            s[GAME] += 1
            K.deal(s, rng, -1, -1)
        rollout_hybrid(
            s,
            fparams[P_THRESHOLD_A],
            fparams[P_THRESHOLD_B],
            rng,
            codes,
            opts,
            cnt,
            pol,
            scratch[4 * MAX_SEATS :],
        )
    totals = scratch[3 * MAX_SEATS : 4 * MAX_SEATS]
    for p in range(n):
        totals[p] = s[TOTALS + p]
    seat_rewards(totals, n, mw, scale, reward, win, margin)


# ----- priors -------------------------------------------------------------------------------
@njit(cache=True)
def gain_priors(
    s: np.ndarray,
    codes: np.ndarray,
    k: int,
    a_pts: float,
    b_pts: float,
    temp: float,
    out: np.ndarray,
    cnt: np.ndarray,
) -> None:
    """Priors of the ``k`` legal ``codes`` of ``s`` into ``out[:k]``: a softmax, at
    temperature ``temp`` points, of each action's worth to the mover in the terms of the
    ``threshold`` policy: taking row r is worth its gain (the rise of the mover's optimal
    score), drawing is worth the policy's take threshold ``a_pts * (1 - fill) + b_pts``;
    placing the drawn card in row r is worth ``greedy``'s measure (the row's gain with the
    card minus without it)."""
    seat = s[TO_MOVE]
    if s[PHASE] == PLACE:
        card = s[DRAWN]
        for i in range(k):
            r = codes[i] - _PLACE0
            out[i] = K._score_plus_row(s, seat, r, card, cnt) - K._score_plus_row(
                s, seat, r, NO_CARD, cnt
            )
    else:
        base = K._score_plus_row(s, seat, _NO_ROW, NO_CARD, cnt)
        for i in range(k):
            if codes[i] == _DRAW:
                filled = 0
                cap = 0
                for r in range(s[NROWS]):
                    if s[ROW_TAKER + r] == UNTAKEN:
                        filled += s[ROW_LEN + r]
                        cap += s[CAPS + r]
                out[i] = a_pts * (1.0 - filled / cap) + b_pts
            else:
                out[i] = K._score_plus_row(s, seat, codes[i] - _TAKE0, NO_CARD, cnt) - base
    softmax(out, k, temp)


@njit(cache=True)
def softmax(x: np.ndarray, k: int, temp: float) -> None:
    """Replace the values ``x[:k]`` by their softmax at temperature ``temp`` (same units)."""
    top = x[0]
    for i in range(1, k):
        top = max(top, x[i])
    z = 0.0
    for i in range(k):
        x[i] = np.exp((x[i] - top) / temp)
        z += x[i]
    for i in range(k):
        x[i] /= z


# ----- tree ---------------------------------------------------------------------------------
@njit(cache=True)
def new_node(
    nodes: np.ndarray,
    visits: np.ndarray,
    reward: np.ndarray,
    prior: np.ndarray,
    counts: np.ndarray,
    s: np.ndarray,
    codes: np.ndarray,
    fparams: np.ndarray,
    scratch: np.ndarray,
    cnt: np.ndarray,
) -> int:
    """Add a node for the decision of ``s``; return its index (``-1``: the tree is full).
    Its priors are ``gain_priors`` when ``fparams[P_PRIOR_TEMP]`` > 0, else uniform.
    ``scratch``: float64[MAX_ACTIONS]."""
    idx = counts[0]
    if idx >= nodes.shape[0]:
        return -1
    counts[0] = idx + 1
    k = K.legal_codes(s, codes)
    nodes[idx, NODE_SEAT] = s[TO_MOVE]
    nodes[idx, NODE_NACTS] = k
    nodes[idx, NODE_TOTAL] = 0
    nodes[idx, NODE_JUDGED] = 0
    u = 1.0 / k if k > 0 else 0.0
    for i in range(MAX_ACTIONS):
        nodes[idx, NODE_CODES + i] = codes[i] if i < k else -1
        nodes[idx, NODE_KIDS + i] = -1
        visits[idx, i] = 0
        reward[idx, i] = 0.0
        prior[idx, i] = u if i < k else 0.0
    temp = fparams[P_PRIOR_TEMP]
    if temp > 0.0 and k > 1:
        gain_priors(s, codes, k, fparams[P_THRESHOLD_A], fparams[P_THRESHOLD_B], temp, scratch, cnt)
        for i in range(k):
            prior[idx, i] = scratch[i]
    return idx


@njit(cache=True)
def select_action(
    nodes: np.ndarray,
    visits: np.ndarray,
    reward: np.ndarray,
    prior: np.ndarray,
    node: int,
    c_puct: float,
) -> int:
    """PUCT choice among the actions of ``node`` (module docstring); first best wins ties."""
    k = nodes[node, NODE_NACTS]
    if k == 1:
        return 0
    sq = np.sqrt(nodes[node, NODE_TOTAL] + 1.0)
    best_i = 0
    best_v = -1e18
    for i in range(k):
        n = visits[node, i]
        q = reward[node, i] / n if n > 0 else 0.5
        v = q + c_puct * prior[node, i] * sq / (1.0 + n)
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


@njit(cache=True)
def judge_node(
    nodes: np.ndarray,
    prior: np.ndarray,
    node: int,
    s: np.ndarray,
    fparams: np.ndarray,
    codes: np.ndarray,
    scratch: np.ndarray,
    cnt: np.ndarray,
) -> None:
    """Set the priors of ``node`` (the decision of ``s``) to a softmax, at temperature
    ``fparams[P_PRIOR_TEMP]`` points, of the compiled heuristic's values of its actions
    (``PRIORS_HEURISTIC``); marks the node judged. ``scratch``: float64[MAX_ACTIONS]."""
    nodes[node, NODE_JUDGED] = 1
    k = nodes[node, NODE_NACTS]
    temp = fparams[P_PRIOR_TEMP]
    if k < 2 or temp <= 0.0:
        return
    for i in range(k):
        codes[i] = nodes[node, NODE_CODES + i]
    heuristic_values(s, codes, k, fparams[P_HEURISTIC : P_HEURISTIC + H_PARAMS], scratch, cnt)
    softmax(scratch, k, temp)
    for i in range(k):
        prior[node, i] = scratch[i]


@njit(cache=True)
def _now() -> float:
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True)
def run_search(
    root_state: np.ndarray,
    fparams: np.ndarray,
    iparams: np.ndarray,
    rng: np.ndarray,
    nodes: np.ndarray,
    visits: np.ndarray,
    reward: np.ndarray,
    prior: np.ndarray,
    chance: np.ndarray,
    root: np.ndarray,
    counts: np.ndarray,
    weights: tuple[np.ndarray, ...],
    root_prior: np.ndarray,
) -> int:
    """Search the decision of ``root_state`` (a TURN or PLACE decision, its pile redacted or
    not: only its composition and the Last Round card's depth are used, unless
    ``iparams[P_SAMPLE]`` is 0: then its pile in its order, the oracle) and return the
    iterations run. The tree arrays (``Tree``) are reset first; afterwards ``root`` holds
    the root statistics per action of ``nodes[0]``.

    Stops after ``iparams[P_ITERATIONS]`` iterations or once ``time.perf_counter()``
    passes ``fparams[P_DEADLINE]`` (checked every ``iparams[P_CHECK_EVERY]`` iterations;
    a deadline <= 0 means none); at least one iteration runs. ``weights``: the learned
    value's arrays (``coloretto.fastcore.value``; any arrays of the right types when the
    evaluation mode does not use them). ``root_prior``: float64[MAX_ACTIONS], the root's
    priors in the order of its legal codes, or ``root_prior[0] < 0`` for the nodes' own
    (``new_node``).
    """
    c_puct = fparams[P_C_PUCT]
    deadline = fparams[P_DEADLINE]
    limit = iparams[P_ITERATIONS]
    mode = iparams[P_EVAL]
    every = max(1, iparams[P_CHECK_EVERY])
    robin = iparams[P_ROOT_ROBIN] != 0
    judge = iparams[P_PRIORS] == PRIORS_HEURISTIC
    judge_visits = iparams[P_JUDGE_VISITS]
    s = root_state.copy()
    codes = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
    opts = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
    cnt = np.empty(COLLECTION_SIZE, np.int64)
    pol = np.full(MAX_SEATS, POLICY_GREEDY, np.int32)
    rw = np.empty(MAX_SEATS, np.float64)
    win = np.empty(MAX_SEATS, np.float64)
    margin = np.empty(MAX_SEATS, np.float64)
    scratch = np.empty(4 * MAX_SEATS + MAX_ACTIONS, np.float64)
    pscratch = np.empty(MAX_ACTIONS, np.float64)
    feats = np.empty(V.N_FEATURES, np.float64)
    hidden = np.empty(V.HIDDEN_CELLS, np.float64)
    pos = np.empty(MAX_PILE, np.int64)
    # With sampling off (the oracle) every iteration plays the true draw pile of root_state.
    m = hidden_positions(root_state, pos) if iparams[P_SAMPLE] != 0 else 0
    path_node = np.empty(1024, np.int64)
    path_act = np.empty(1024, np.int64)
    counts[0] = 0
    counts[1] = 0
    root[:, :] = 0.0
    me = root_state[TO_MOVE]
    new_node(nodes, visits, reward, prior, counts, root_state, codes, fparams, pscratch, cnt)
    if root_prior[0] >= 0.0:
        for i in range(nodes[0, NODE_NACTS]):
            prior[0, i] = root_prior[i]
        nodes[0, NODE_JUDGED] = 1
    it = 0
    while it < limit:
        if deadline > 0.0 and it > 0 and it % every == 0 and _now() >= deadline:
            break
        s[:] = root_state
        sample_pile(s, pos, m, rng)
        node = 0
        depth = 0
        while True:
            if node == 0 and robin:
                i = it % nodes[0, NODE_NACTS]
            else:
                if judge and nodes[node, NODE_JUDGED] == 0 and nodes[node, NODE_TOTAL] >= judge_visits:
                    judge_node(nodes, prior, node, s, fparams, codes, pscratch, cnt)
                i = select_action(nodes, visits, reward, prior, node, c_puct)
            code = nodes[node, NODE_CODES + i]
            path_node[depth] = node
            path_act[depth] = i
            depth += 1
            K.apply_code(s, code, cnt)
            if s[PHASE] != TURN and s[PHASE] != PLACE:
                break
            slot = nodes[node, NODE_KIDS + i]
            if code == _DRAW:
                if slot < 0:
                    slot = counts[1]
                    if slot >= chance.shape[0]:
                        break
                    counts[1] = slot + 1
                    chance[slot, :] = -1
                    nodes[node, NODE_KIDS + i] = slot
                child = chance[slot, s[DRAWN]]
                if child < 0:
                    child = new_node(
                        nodes, visits, reward, prior, counts, s, codes, fparams, pscratch, cnt
                    )
                    if child >= 0:
                        chance[slot, s[DRAWN]] = child
                    break
            else:
                child = slot
                if child < 0:
                    child = new_node(
                        nodes, visits, reward, prior, counts, s, codes, fparams, pscratch, cnt
                    )
                    if child >= 0:
                        nodes[node, NODE_KIDS + i] = child
                    break
            node = child
            if depth >= path_node.shape[0]:
                break
        evaluate_leaf(
            s,
            mode,
            fparams,
            weights,
            rng,
            codes,
            opts,
            cnt,
            pol,
            feats,
            hidden,
            scratch,
            rw,
            win,
            margin,
        )
        for d in range(depth):
            nd = path_node[d]
            a = path_act[d]
            seat = nodes[nd, NODE_SEAT]
            visits[nd, a] += 1
            nodes[nd, NODE_TOTAL] += 1
            reward[nd, a] += rw[seat]
        a0 = path_act[0]
        root[a0, R_VISITS] += 1.0
        root[a0, R_REWARD] += rw[me]
        root[a0, R_WIN] += win[me]
        root[a0, R_MARGIN] += margin[me]
        root[a0, R_MARGIN2] += margin[me] * margin[me]
        it += 1
    return it


# ----- Python entry -------------------------------------------------------------------------
EVALUATIONS: Final = {
    "rollout": EVAL_ROLLOUT,
    "value": EVAL_VALUE,
    "round_value": EVAL_ROUND_VALUE,
    "heuristic_round_value": EVAL_HEURISTIC_ROUND_VALUE,
}
"""Names of the leaf evaluations (``evaluate_leaf``)."""

_NO_WEIGHTS: Final = (
    np.zeros((1, 1), np.float64),
    np.zeros(1, np.float64),
    np.zeros((1, 1), np.float64),
    np.zeros(1, np.float64),
    np.zeros((1, 1), np.float64),
    np.zeros(1, np.float64),
)
"""Stand-in weights for the evaluations that use none (same Numba types as real ones)."""


def search_arrays(
    a: np.ndarray,
    tree: Tree,
    seed: int,
    *,
    iterations: int | None,
    seconds: float | None,
    c_puct: float,
    margin_weight: float,
    margin_scale: float,
    threshold_a: float,
    threshold_b: float,
    evaluation: str = "rollout",
    weights: tuple[np.ndarray, ...] | None = None,
    value_scale: float = 20.0,
    check_every: int = 16,
    start: float | None = None,
    prior_temp: float = 0.0,
    root_prior: np.ndarray | None = None,
    root_round_robin: bool = False,
    sample: bool = True,
    priors: str = "gain",
    judge_visits: int = 2,
    heuristic: np.ndarray | None = None,
) -> int:
    """Run ``run_search`` on the fast state ``a`` (``int32[layout.SIZE]``, a TURN or PLACE
    decision) with ``tree``; return the iterations run (the root statistics are in
    ``tree.root``, the root's action codes in ``tree.nodes[0]``).

    Args:
        seed: seed of the search's xorshift64* generator (any integer, taken mod 2**64).
        iterations / seconds: stop at whichever comes first (at least one iteration);
            seconds count from ``start`` (a ``time.perf_counter()`` value, default now).
        evaluation: a key of ``EVALUATIONS``; ``value``, ``round_value`` and
            ``heuristic_round_value`` need ``weights`` (the learned value's arrays, trained
            with margin scale ``value_scale`` points); ``heuristic_round_value`` also
            ``heuristic``.
        prior_temp: temperature (points) of the in-tree ``gain_priors``; 0: uniform.
        root_prior: priors of the root's legal actions (ascending codes), e.g. from
            ``heuristic``; default: as every other node.
        root_round_robin: visit the root's actions in turn (every action the same number
            of iterations, give or take one) instead of by PUCT: unbiased per-action
            estimates for an advisor; below the root the search is unchanged.
        priors: the priors below the root, a key of ``PRIORS``: ``gain`` (``gain_priors``)
            or ``heuristic`` (``gain_priors`` until a node has ``judge_visits`` visits, then
            the compiled heuristic's, with the weights ``heuristic``:
            ``fastcore.heuristic.params_array`` of ``agents.heuristic.params_for``).
        sample: reshuffle the unseen cards of the draw pile at every iteration (the default:
            ``a`` may be an observation's redacted state); ``False`` plays ``a``'s draw pile in
            its order at every iteration: the oracle, measurement only, for a true state.

    Raises:
        ValueError: no budget, a state that is not a turn or place decision, an unknown
            evaluation or priors, a value evaluation without weights, or the heuristic's
            priors or rollouts without its weights.
    """
    if iterations is None and seconds is None:
        raise ValueError("give iterations, seconds or both")
    if int(a[PHASE]) not in (TURN, PLACE):
        raise ValueError(
            f"the compiled search starts at a turn or place decision, not phase {a[PHASE]}"
        )
    if priors not in PRIORS:
        raise ValueError(f"unknown priors {priors!r}; known: {', '.join(PRIORS)}")
    if priors == "heuristic" and heuristic is None:
        raise ValueError("priors 'heuristic' need the heuristic's weights")
    if evaluation == "heuristic_round_value" and heuristic is None:
        raise ValueError("evaluation 'heuristic_round_value' needs the heuristic's weights")
    if evaluation not in EVALUATIONS:
        raise ValueError(f"unknown evaluation {evaluation!r}; known: {', '.join(EVALUATIONS)}")
    mode = EVALUATIONS[evaluation]
    if mode != EVAL_ROLLOUT and weights is None:
        raise ValueError(f"evaluation {evaluation!r} needs the learned value's weights")
    t0 = time.perf_counter() if start is None else start
    fparams = np.zeros(F_PARAMS, np.float64)
    fparams[P_C_PUCT] = c_puct
    fparams[P_MARGIN_WEIGHT] = margin_weight
    fparams[P_MARGIN_SCALE] = margin_scale
    fparams[P_THRESHOLD_A] = threshold_a
    fparams[P_THRESHOLD_B] = threshold_b
    fparams[P_DEADLINE] = 0.0 if seconds is None else t0 + seconds
    fparams[P_VALUE_SCALE] = value_scale
    fparams[P_PRIOR_TEMP] = prior_temp
    if heuristic is not None:
        fparams[P_HEURISTIC : P_HEURISTIC + H_PARAMS] = heuristic
    rp = np.full(MAX_ACTIONS, -1.0)
    if root_prior is not None:
        rp[: len(root_prior)] = root_prior
    iparams = np.zeros(I_PARAMS, np.int64)
    iparams[P_ITERATIONS] = (1 << 62) if iterations is None else max(1, iterations)
    iparams[P_EVAL] = mode
    iparams[P_CHECK_EVERY] = check_every
    iparams[P_ROOT_ROBIN] = 1 if root_round_robin else 0
    iparams[P_SAMPLE] = 1 if sample else 0
    iparams[P_PRIORS] = PRIORS[priors]
    iparams[P_JUDGE_VISITS] = judge_visits
    rng = np.empty(1, np.uint64)
    K.seed_rng(rng, np.uint64(seed & ((1 << 64) - 1)), 0)
    w = _NO_WEIGHTS if weights is None else weights
    return int(
        run_search(
            a if a.flags.writeable else a.copy(),
            fparams,
            iparams,
            rng,
            tree.nodes,
            tree.visits,
            tree.reward,
            tree.prior,
            tree.chance,
            tree.root,
            tree.counts,
            w,
            rp,
        )
    )


_WARM: dict[str, float] = {}


def warm_search() -> float:
    """Compile (or load from the disk cache) the search kernels by running a tiny search in
    every evaluation mode; returns the seconds it took the first time in this process."""
    if "seconds" in _WARM:
        return _WARM["seconds"]
    from ..engine.rules import Rules
    from ..engine.state import new_game
    from .api import encode, warmup

    t0 = time.perf_counter()
    warmup()
    a = encode(new_game(Rules(players=4), 1)).a
    tree = Tree(8)
    shapes = ((4, V.N_FEATURES), (4,), (4, 4), (4,), (V.N_OUTPUTS, 4), (V.N_OUTPUTS,))
    dummy = tuple(np.zeros(sh, np.float64) for sh in shapes)
    for evaluation in EVALUATIONS:
        search_arrays(
            a.copy(),
            tree,
            1,
            iterations=4,
            seconds=10.0,
            c_puct=1.0,
            margin_weight=0.3,
            margin_scale=20.0,
            threshold_a=6.0,
            threshold_b=1.0,
            evaluation=evaluation,
            weights=dummy,
            heuristic=np.zeros(H_PARAMS, np.float64),
        )
    _WARM["seconds"] = time.perf_counter() - t0
    return _WARM["seconds"]
