# mypy: disable-error-code="no-any-return, return-value"
# (Numba kernels compute with numpy scalar types; their int annotations document intent.)
"""Compiled kernels of the batched environment (``coloretto.envs.vector``): N games stepped
at once, each a fast state (``layout``), with the seats either decided by the caller or
played inside the kernel by a compiled policy (``random``, ``greedy``).

One env holds one game at a time. Game ``e`` of env ``i`` (``e = 0, 1, ...``: the games it
has dealt so far) is game ``index = e * num_envs + i`` of the run with root ``seed``: it is
dealt from ``game_seed = derive_seed(seed, GAME, index)`` exactly as
``engine.state.new_game(rules, game_seed)`` deals it (``kernels.deal``; later games of a
match from ``derive_seed(game_seed, MATCH_GAME, g)``; chosen starting colours shuffle the
pile from the setup's shuffle seed, ``kernels.choose_color``), and a seat played inside the
kernel draws from ``Rng(derive_seed(game_seed, AGENT, seat))`` as the agent
``make_agent(spec, agent_seed)`` of ``arena.simulate`` would. So every game can be
replayed in the engine (``tests/envs/test_vector.py`` does).

Arrays of a batch (``n`` envs, ``P`` players):

=================  ==========================  ==============================================
``states``         int32 (n, layout.SIZE)      the games
``pol``            int32 (n, MAX_SEATS)        per seat: ``EXTERNAL`` (-1, the caller
                                               decides) or a ``layout.POLICY_*``
``rngs``           uint64 (n, MAX_SEATS)       per seat: its ``Rng`` state
``game_seeds``     uint64 (n,)                 seed the current game (match) was dealt from
``shuffle_seeds``  uint64 (n,)                 chosen-start shuffle seed of the current game
``episodes``       int64 (n,)                  games dealt so far by each env
``obs``            float32 (n, F)              observation of the seat to move
``masks``          bool (n, NUM_DISTINCT_...)  its legal action codes
``rewards``        float32 (n, P)              each seat's reward of a game that ended in
                                               this step (0 otherwise)
``dones``          bool (n,)                   a game ended in this step (the env then
                                               holds its next game)
=================  ==========================  ==============================================

Observation kinds (``obs_kind``): ``OBS_ENCODING``, the one observation encoding of
``coloretto.envs.encoding`` (its compiled twin, ``encode_into``), and ``OBS_FEATURES``,
the fast core's position features ``fastcore.value.features`` (what the trained policy of
``coloretto.agents.policy`` reads). Rewards (``reward_kind``): ``REWARD_MARGIN``, own total
minus the best other total; ``REWARD_WIN``, 1/k for each of the k seats sharing the highest
total, 0 for the others (docs/rules.md §6.5).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

import numpy as np

from .._optional import require

_numba = require("numba", "fast", "the fast core")
_F = TypeVar("_F", bound=Callable[..., Any])
njit: Callable[..., Callable[[_F], _F]] = _numba.njit
prange = _numba.prange

from ..envs import encoding as _enc
from . import kernels as K
from . import value as V
from .layout import (
    CAPS,
    CARDS_PER_COLOR,
    CHOOSE,
    CHOSEN,
    CHOSEN_LEN,
    COLL,
    COLL_CELLS,
    COLLECTION_SIZE,
    DRAWN,
    GAME,
    GAME_END,
    GOLDEN_JOKER,
    GOLDEN_JOKERS,
    INPLAY,
    JOKER,
    JOKERS,
    LAST_ROUND,
    LAST_ROUND_CARD,
    MAX_SEATS,
    NEG,
    NO_CARD,
    NROWS,
    NUM_COLORS,
    NUM_DISTINCT_ACTIONS,
    NUM_PLUS2,
    OUT,
    OVER,
    PHASE,
    PILE,
    PILE_LEN,
    PLUS2,
    ROW_CELLS,
    ROW_LEN,
    ROW_TAKER,
    ROWS,
    TABLE,
    TABLE_CELLS,
    TO_MOVE,
    TOTALS,
    UNTAKEN,
    N,
)

EXTERNAL: Final = -1
"""``pol`` value of a seat the caller decides."""
OBS_ENCODING: Final = 0
OBS_FEATURES: Final = 1
REWARD_MARGIN: Final = 0
REWARD_WIN: Final = 1
NO_ERROR: Final = -1


# ----- the observation encoding (envs.encoding), field offsets as compile-time ints ---------
_AT: Final = {f.name: int(f.start) for f in _enc.FEATURES}
_SEAT_PRESENT: Final = _AT["seat_present"]
_COLLECTION: Final = _AT["collection"]
_OUT_AT: Final = _AT["out"]
_TO_MOVE_AT: Final = _AT["to_move"]
_ROW_PRESENT: Final = _AT["row_present"]
_ROW_CAPACITY: Final = _AT["row_capacity"]
_ROW_TAKEN: Final = _AT["row_taken"]
_ROW_CARDS: Final = _AT["row_cards"]
_DRAWN_AT: Final = _AT["drawn_card"]
_CARDS_LEFT: Final = _AT["cards_left"]
_ABOVE_LAST: Final = _AT["cards_above_last_round"]
_LAST_ROUND_AT: Final = _AT["last_round"]
_UNSEEN: Final = _AT["unseen"]
_PHASE_AT: Final = _AT["phase"]
_IN_PLAY_AT: Final = _AT["colors_in_play"]
_SCORE_TABLE: Final = _AT["score_table"]
_NEGATIVE: Final = _AT["negative_factor"]
_DECK_SIZE: Final = float(_enc.DECK_SIZE)
OBSERVATION_SIZE: Final = int(_enc.OBSERVATION_SIZE)


@njit(cache=True)
def _encode_unseen(s: np.ndarray, x: np.ndarray) -> None:
    """The ``unseen`` field: the draw pile's composition (Last Round card not counted); while
    starting colours are chosen, what the choices leave (``Observation.unseen``)."""
    if s[PHASE] == CHOOSE:
        mask = s[INPLAY]
        for c in range(NUM_COLORS):
            if (mask >> c) & 1:
                k = CARDS_PER_COLOR
                for j in range(s[CHOSEN_LEN]):
                    if s[CHOSEN + j] == c:
                        k -= 1
                x[_UNSEEN + c] = k
        x[_UNSEEN + JOKER] = s[JOKERS]
        x[_UNSEEN + GOLDEN_JOKER] = s[GOLDEN_JOKERS]
        x[_UNSEEN + PLUS2] = NUM_PLUS2
    else:
        for i in range(s[PILE_LEN]):
            card = s[PILE + i]
            if card != LAST_ROUND_CARD:
                x[_UNSEEN + card] += 1.0


@njit(cache=True)
def encode_into(s: np.ndarray, seat: int, x: np.ndarray) -> None:
    """Write the observation tensor of ``s`` seen from ``seat`` into ``x`` (float32,
    ``OBSERVATION_SIZE``): the compiled twin of ``coloretto.envs.encoding.encode`` of
    ``observe(state, seat)`` (same fields, same values; only public information: the draw
    pile's composition and the depth of the Last Round card, never its order)."""
    for i in range(OBSERVATION_SIZE):
        x[i] = 0.0
    n = s[N]
    for i in range(n):
        p = (seat + i) % n
        x[_SEAT_PRESENT + i] = 1.0
        for c in range(COLLECTION_SIZE):
            x[_COLLECTION + COLLECTION_SIZE * i + c] = s[COLL + COLL_CELLS * p + c]
        x[_OUT_AT + i] = s[OUT + p]
    mover = s[TO_MOVE]
    if mover >= 0:
        x[_TO_MOVE_AT + (mover - seat) % n] = 1.0
    for r in range(s[NROWS]):
        x[_ROW_PRESENT + r] = 1.0
        x[_ROW_CAPACITY + r] = s[CAPS + r]
        x[_ROW_TAKEN + r] = 1.0 if s[ROW_TAKER + r] != UNTAKEN else 0.0
        for i in range(s[ROW_LEN + r]):
            x[_ROW_CARDS + COLLECTION_SIZE * r + s[ROWS + ROW_CELLS * r + i]] += 1.0
    if s[DRAWN] != NO_CARD:
        x[_DRAWN_AT + s[DRAWN]] = 1.0
    x[_CARDS_LEFT] = K.cards_left(s) / _DECK_SIZE
    length = s[PILE_LEN]
    last = s[LAST_ROUND] != 0
    if not last:
        for i in range(length):
            if s[PILE + i] == LAST_ROUND_CARD:
                x[_ABOVE_LAST] = (length - 1 - i) / _DECK_SIZE
                break
    x[_LAST_ROUND_AT] = 1.0 if last else 0.0
    _encode_unseen(s, x)
    phase = s[PHASE]
    mask = s[INPLAY]
    x[_PHASE_AT + phase] = 1.0
    for c in range(NUM_COLORS):
        if (mask >> c) & 1:
            x[_IN_PLAY_AT + c] = 1.0
    for i in range(TABLE_CELLS):
        x[_SCORE_TABLE + i] = s[TABLE + i]
    x[_NEGATIVE] = s[NEG]


@njit(cache=True)
def _write_obs(
    s: np.ndarray,
    kind: int,
    obs: np.ndarray,
    mask: np.ndarray,
    codes: np.ndarray,
    cnt: np.ndarray,
    feats: np.ndarray,
) -> None:
    """The mask and observation of the seat to move (``feats``: float64 scratch of
    ``value.N_FEATURES``; the features are computed in float64 as in the engine path and
    rounded to float32 once)."""
    for a in range(NUM_DISTINCT_ACTIONS):
        mask[a] = False
    k = K.legal_codes(s, codes)
    for j in range(k):
        mask[codes[j]] = True
    seat = s[TO_MOVE]
    if kind == OBS_FEATURES:
        V.features(s, feats, cnt)
        for i in range(V.N_FEATURES):
            obs[i] = feats[i]
    else:
        encode_into(s, seat, obs)


@njit(cache=True)
def _deal_game(s: np.ndarray, g: int, game_seed: np.uint64) -> np.uint64:
    """Deal game ``g`` of the match started from ``game_seed`` (``engine.state.new_game``);
    return the chosen-start shuffle seed."""
    seed = game_seed if g == 0 else K.derive_seed2(game_seed, K.STREAM_MATCH_GAME, g)
    deal_rng = np.empty(1, np.uint64)
    K.rng_seed(deal_rng, K.derive_seed1(seed, K.STREAM_DEAL))
    s[GAME] = g
    return K.deal(s, deal_rng, -1, -1)


@njit(cache=True)
def _new_game(
    template: np.ndarray,
    seed: np.uint64,
    num_envs: int,
    i: int,
    states: np.ndarray,
    rngs: np.ndarray,
    game_seeds: np.ndarray,
    shuffle_seeds: np.ndarray,
    episodes: np.ndarray,
) -> None:
    s = states[i]
    s[:] = template
    game_seed = K.derive_seed2(seed, K.STREAM_GAME, episodes[i] * num_envs + i)
    episodes[i] += 1
    game_seeds[i] = game_seed
    for p in range(template[N]):
        K.rng_seed(rngs[i, p:], K.derive_seed2(game_seed, K.STREAM_AGENT, p))
    shuffle_seeds[i] = _deal_game(s, 0, game_seed)


@njit(cache=True)
def _rewards(s: np.ndarray, kind: int, out: np.ndarray) -> None:
    n = s[N]
    best = s[TOTALS]
    for p in range(1, n):
        best = max(best, s[TOTALS + p])
    ties = 0
    for p in range(n):
        if s[TOTALS + p] == best:
            ties += 1
    for p in range(n):
        t = s[TOTALS + p]
        if kind == REWARD_WIN:
            out[p] = 1.0 / ties if t == best else 0.0
        else:
            other = -(1 << 30)
            for q in range(n):
                if q != p:
                    other = max(other, s[TOTALS + q])
            out[p] = t - other


@njit(cache=True)
def _advance(
    template: np.ndarray,
    seed: np.uint64,
    num_envs: int,
    i: int,
    states: np.ndarray,
    pol: np.ndarray,
    rngs: np.ndarray,
    game_seeds: np.ndarray,
    shuffle_seeds: np.ndarray,
    episodes: np.ndarray,
    reward_kind: int,
    rew: np.ndarray,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
) -> bool:
    """Play env ``i`` on until a seat the caller decides is to move: seats with a compiled
    policy move, a game of a match that ended deals the next, a finished game writes its
    rewards to ``rew`` and is replaced by the env's next game. Returns whether a game
    ended."""
    s = states[i]
    done = False
    while True:
        phase = s[PHASE]
        if phase == GAME_END:
            shuffle_seeds[i] = _deal_game(s, s[GAME] + 1, game_seeds[i])
            continue
        if phase == OVER:
            _rewards(s, reward_kind, rew)
            done = True
            _new_game(
                template, seed, num_envs, i, states, rngs, game_seeds, shuffle_seeds, episodes
            )
            continue
        seat = s[TO_MOVE]
        policy = pol[i, seat]
        if policy == EXTERNAL:
            return done
        code = K._choose_at(s, policy, rngs[i], seat, codes, opts, cnt)
        if phase == CHOOSE:
            K.choose_color(s, code, shuffle_seeds[i])
        else:
            K.apply_code(s, code, cnt)


@njit(cache=True)
def _block(num_envs: int, blocks: int, b: int) -> tuple[int, int]:
    return num_envs * b // blocks, num_envs * (b + 1) // blocks


@njit(cache=True, parallel=True)
def reset_all(
    template: np.ndarray,
    seed: np.uint64,
    states: np.ndarray,
    pol: np.ndarray,
    rngs: np.ndarray,
    game_seeds: np.ndarray,
    shuffle_seeds: np.ndarray,
    episodes: np.ndarray,
    obs_kind: int,
    obs: np.ndarray,
    masks: np.ndarray,
    blocks: int,
) -> None:
    """Deal game 0 of every env (``episodes`` is set to 0 first), play the compiled seats
    up to the first decision of a caller's seat and write its observation and mask."""
    num_envs = states.shape[0]
    for b in prange(blocks):
        lo, hi = _block(num_envs, blocks, b)
        codes = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
        opts = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
        cnt = np.empty(COLLECTION_SIZE, np.int64)
        feats = np.empty(V.N_FEATURES, np.float64)
        rew = np.zeros(MAX_SEATS, np.float32)
        for i in range(lo, hi):
            episodes[i] = 0
            _new_game(
                template, seed, num_envs, i, states, rngs, game_seeds, shuffle_seeds, episodes
            )
            _advance(
                template, seed, num_envs, i, states, pol, rngs, game_seeds, shuffle_seeds,
                episodes, REWARD_MARGIN, rew, codes, opts, cnt,
            )  # fmt: skip
            _write_obs(states[i], obs_kind, obs[i], masks[i], codes, cnt, feats)


@njit(cache=True)
def first_illegal(masks: np.ndarray, actions: np.ndarray) -> int:
    """Index of the first env whose action is not legal (``masks``), or ``NO_ERROR``."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= NUM_DISTINCT_ACTIONS or not masks[i, a]:
            return i
    return NO_ERROR


@njit(cache=True, parallel=True)
def step_all(
    template: np.ndarray,
    seed: np.uint64,
    states: np.ndarray,
    pol: np.ndarray,
    rngs: np.ndarray,
    game_seeds: np.ndarray,
    shuffle_seeds: np.ndarray,
    episodes: np.ndarray,
    actions: np.ndarray,
    obs_kind: int,
    reward_kind: int,
    obs: np.ndarray,
    masks: np.ndarray,
    rewards: np.ndarray,
    dones: np.ndarray,
    blocks: int,
) -> None:
    """Apply ``actions[i]`` (legal: see ``first_illegal``) for the seat to move in every
    env, play the compiled seats on (``_advance``), and write the observation and mask of
    the next caller's decision, the rewards and the done flags."""
    num_envs = states.shape[0]
    for b in prange(blocks):
        lo, hi = _block(num_envs, blocks, b)
        codes = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
        opts = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
        cnt = np.empty(COLLECTION_SIZE, np.int64)
        feats = np.empty(V.N_FEATURES, np.float64)
        for i in range(lo, hi):
            s = states[i]
            rewards[i, :] = 0.0
            if s[PHASE] == CHOOSE:
                K.choose_color(s, actions[i], shuffle_seeds[i])
            else:
                K.apply_code(s, actions[i], cnt)
            dones[i] = _advance(
                template, seed, num_envs, i, states, pol, rngs, game_seeds, shuffle_seeds,
                episodes, reward_kind, rewards[i], codes, opts, cnt,
            )  # fmt: skip
            _write_obs(s, obs_kind, obs[i], masks[i], codes, cnt, feats)


@njit(cache=True, parallel=True)
def random_actions(masks: np.ndarray, rngs: np.ndarray, out: np.ndarray, blocks: int) -> None:
    """``out[i]`` = a uniformly drawn legal code of ``masks[i]`` (``below(k)`` of
    ``Rng`` state ``rngs[i]`` over the ``k`` legal codes, ascending; none drawn when
    ``k == 1``)."""
    num_envs = masks.shape[0]
    for b in prange(blocks):
        lo, hi = _block(num_envs, blocks, b)
        for i in range(lo, hi):
            k = 0
            for a in range(NUM_DISTINCT_ACTIONS):
                if masks[i, a]:
                    k += 1
            j = 0 if k == 1 else K._below_at(rngs, i, k)
            for a in range(NUM_DISTINCT_ACTIONS):
                if masks[i, a]:
                    if j == 0:
                        out[i] = a
                        break
                    j -= 1
