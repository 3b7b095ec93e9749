# mypy: disable-error-code="no-any-return, return-value"
# (Numba kernels compute with numpy scalar types; their int annotations document intent.)
"""Numba-compiled twins of the engine: random numbers, dealing, transitions, scoring,
policies and playouts of the fast core.

Every function here works on a fast state: one flat ``int32`` array laid out as described in
``coloretto.fastcore.layout``. Each kernel is the twin of one engine definition and follows
it exactly (same results, same random numbers drawn in the same order):

* random numbers: ``engine.seeds`` (``splitmix64``, ``derive_seed``, ``Rng``: ``next_u64``,
  ``below``, ``random``, ``shuffle``, ``sample``; ``SmallChoices``), bit for bit;
* the deal: ``engine.setup.deal`` and ``build_pile`` (removed colours, first player,
  starting cards, draw pile, in that order), and the chosen starting colours of
  ``GameState._choose``;
* transitions: ``GameState.legal_codes``, ``apply_code``, ``_take``, ``_bonus``, ``_leave``,
  ``_next_player``, ``_end_round``, ``_end_game`` (docs/rules.md §3 to §5);
* scoring: ``engine.scoring.collection_total`` (optimal scoring, docs/rules.md §6) with
  ``allowed_joker_colors`` as the one rule of where a joker may go;
* the greedy policy: ``engine.policy.greedy_code``, ties included;
* the random player: ``RandomAgent`` as the driver plays it (``legal[rng.below(k)]``, and
  no random number when only one action is legal);
* whole games: ``arena.simulate`` (game ``i`` dealt from ``derive_seed(seed, GAME, i)``,
  seat ``s`` seeded with ``derive_seed(game_seed, AGENT, s)``) and the playout benchmark
  of ``arena.bench``.

The differential tests in ``tests/fastcore`` check each twin against its reference. Every
code (cards, actions, phases, ``UNTAKEN``...) and seed constant comes from the engine
through ``layout`` and ``engine.seeds``; Numba freezes them into the machine code as
constants.

All functions are compiled with ``cache=True``: the first call in a fresh installation
compiles (see docs/benchmarks.md for the cost) and stores machine code in ``__pycache__``
next to this file; later processes load it. Numba checks only this file for changes, so
the constants taken from the engine are fingerprinted too (``constants_fingerprint``) and
a changed fingerprint discards the cached machine code at import.

A generator is a ``uint64`` array whose cell 0 holds an ``Rng``'s 64-bit state
(``rng_seed`` puts ``Rng(seed)``'s state there); nothing global is used.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import numpy as np

from .._optional import require
from ..engine import seeds as _seeds
from . import layout as _layout
from .layout import (
    ACTIVE,
    ALL_COLORS,
    CAPS,
    CARDS_PER_COLOR,
    CHOOSE,
    CHOOSE0,
    CHOSEN,
    CHOSEN_LEN,
    COLL,
    COLL_CELLS,
    COLLECTION_SIZE,
    COLORS_REMOVED,
    DRAW,
    DRAWN,
    EACH,
    EXTRA,
    FIRST_OUT_DRAWS,
    GAME,
    GAME_END,
    GOLDEN_JOKER,
    GOLDEN_JOKERS,
    INPLAY,
    JOKER,
    JOKER_ANY,
    JOKERS,
    LAST_ROUND,
    LAST_ROUND_CARD,
    LAST_TAKER,
    MATCH_GAMES,
    MAX_PILE,
    MAX_SEATS,
    NEG,
    NO_CARD,
    NO_SEAT,
    NROWS,
    NUM_COLORS,
    NUM_DISTINCT_ACTIONS,
    NUM_PLUS2,
    OUT,
    OVER,
    PHASE,
    PILE,
    PILE_LEN,
    PLACE,
    PLACE0,
    PLUS2,
    POLICY_GREEDY,
    REMOVED,
    REMOVED_LEN,
    ROUND,
    ROW_CELLS,
    ROW_LEN,
    ROW_TAKER,
    ROWS,
    STARTER,
    STARTER_LAST_TAKER,
    STARTING,
    STARTING_CHOOSE,
    TABLE,
    TABLE_CELLS,
    TAKE0,
    TAKES,
    TO_MOVE,
    TOTALS,
    TURN,
    UNDER,
    UNTAKEN,
    N,
)

_F = TypeVar("_F", bound=Callable[..., Any])
njit: Callable[..., Callable[[_F], _F]] = require("numba", "fast", "the fast core").njit

# ----- constants of engine.seeds, as uint64 ------------------------------------------------
_GOLDEN_GAMMA: Final = np.uint64(_seeds.GOLDEN_GAMMA)
_MIX1: Final = np.uint64(_seeds.MIX1)
_MIX2: Final = np.uint64(_seeds.MIX2)
_MUL: Final = np.uint64(_seeds.XORSHIFT_MULTIPLIER)
STREAM_DEAL: Final = np.uint64(_seeds.DEAL)
STREAM_PILE: Final = np.uint64(_seeds.PILE)
STREAM_MATCH_GAME: Final = np.uint64(_seeds.MATCH_GAME)
STREAM_GAME: Final = np.uint64(_seeds.GAME)
STREAM_AGENT: Final = np.uint64(_seeds.AGENT)
_U0: Final = np.uint64(0)
_U1: Final = np.uint64(1)
_U8: Final = np.uint64(8)
_U11: Final = np.uint64(11)
_U12: Final = np.uint64(12)
_U25: Final = np.uint64(25)
_U27: Final = np.uint64(27)
_U30: Final = np.uint64(30)
_U31: Final = np.uint64(31)
_BYTE: Final = np.uint64(255)
_TWO_TO_MINUS_53: Final = 1.0 / (1 << 53)
_SMALL_N: Final = 128
_TWO64_MOD: Final = np.array([0] + [(1 << 64) % n for n in range(1, _SMALL_N)], np.uint64)
"""``2**64 mod n`` for ``n < _SMALL_N`` (saves a division in ``below``)."""
_BYTE_LIMITS: Final = np.array([0] + [256 - 256 % n for n in range(1, 257)], np.int64)
"""``256 - 256 mod n``: the bytes ``small_below(n)`` accepts are those below it."""

NO_CHOICE: Final = -1
"""``choose_action`` when there is no decision to make (the game is over)."""


# ----- random numbers: engine.seeds, bit for bit -----------------------------------------
@njit(cache=True)
def splitmix64(x: np.uint64) -> np.uint64:
    """``engine.seeds.splitmix64``: one well-mixed 64-bit output for ``x``."""
    z = x + _GOLDEN_GAMMA
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@njit(cache=True)
def derive_seed1(root: np.uint64, a: int | np.uint64) -> np.uint64:
    """``engine.seeds.derive_seed(root, a)`` (63 bits; ``root`` and ``a`` taken modulo
    2**64)."""
    h = splitmix64(np.uint64(root))
    h = splitmix64(h ^ np.uint64(a))
    return h >> _U1


@njit(cache=True)
def derive_seed2(root: np.uint64, a: int | np.uint64, b: int | np.uint64) -> np.uint64:
    """``engine.seeds.derive_seed(root, a, b)`` (63 bits)."""
    h = splitmix64(np.uint64(root))
    h = splitmix64(h ^ np.uint64(a))
    h = splitmix64(h ^ np.uint64(b))
    return h >> _U1


@njit(cache=True)
def derive_seed(root: np.uint64, path: np.ndarray) -> np.uint64:
    """``engine.seeds.derive_seed(root, *path)`` for a path given as an integer array."""
    h = splitmix64(np.uint64(root))
    for i in range(path.shape[0]):
        h = splitmix64(h ^ np.uint64(path[i]))
    return h >> _U1


@njit(cache=True)
def rng_seed(rng: np.ndarray, seed: np.uint64) -> None:
    """Put ``Rng(seed)``'s state into ``rng[0]`` (``splitmix64(seed)``, 0 replaced by 1)."""
    x = splitmix64(np.uint64(seed))
    if x == _U0:
        x = _U1
    rng[0] = x


@njit(cache=True)
def seed_rng(rng: np.ndarray, seed: np.uint64, index: int) -> None:
    """Seed ``rng`` for item ``index`` of root ``seed``: ``Rng(derive_seed(seed, GAME,
    index))`` (``engine.seeds.GAME``; playout ``index`` of ``rollouts``)."""
    rng_seed(rng, derive_seed2(seed, STREAM_GAME, index))


@njit(cache=True)
def _next_at(rngs: np.ndarray, i: int) -> np.uint64:
    x = rngs[i]
    x ^= x >> _U12
    x ^= x << _U25
    x ^= x >> _U27
    rngs[i] = x
    return x * _MUL


@njit(cache=True)
def next_u64(rng: np.ndarray) -> np.uint64:
    """``Rng.next_u64``: the next 64-bit output (xorshift64*)."""
    return _next_at(rng, 0)


@njit(cache=True)
def _below_at(rngs: np.ndarray, i: int, n: int) -> int:
    """``Rng.below(n)`` on the generator in cell ``i`` of ``rngs``."""
    nn = np.uint64(n)
    t = _TWO64_MOD[n] if n < _SMALL_N else (_U0 - nn) % nn  # 2**64 mod n
    x = rngs[i]
    while True:
        x ^= x >> _U12
        x ^= x << _U25
        x ^= x >> _U27
        r = x * _MUL
        if r >= t:
            rngs[i] = x
            return np.int64(r % nn)


@njit(cache=True)
def below(rng: np.ndarray, n: int) -> int:
    """``Rng.below(n)`` (``1 <= n < 2**63``): draw ``r = next_u64()`` until
    ``r >= 2**64 mod n``, return ``r mod n`` (exactly uniform)."""
    return _below_at(rng, 0, n)


@njit(cache=True)
def random(rng: np.ndarray) -> float:
    """``Rng.random()``: the top 53 bits of ``next_u64()`` times 2**-53, in [0, 1)."""
    return np.float64(_next_at(rng, 0) >> _U11) * _TWO_TO_MINUS_53


@njit(cache=True)
def shuffle(rng: np.ndarray, x: np.ndarray, n: int) -> None:
    """``Rng.shuffle`` of ``x[:n]`` in place: Fisher-Yates from the end, ``j = below(i + 1)``
    for ``i`` from ``n - 1`` down to 1."""
    for i in range(n - 1, 0, -1):
        j = _below_at(rng, 0, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t


@njit(cache=True)
def sample_front(rng: np.ndarray, pool: np.ndarray, n: int, k: int) -> None:
    """``Rng.sample(pool[:n], k)`` in place: a partial Fisher-Yates from the front
    (``j = i + below(n - i)`` for ``i`` in ``0 .. k - 1``); the sample is ``pool[:k]``."""
    for i in range(k):
        j = i + _below_at(rng, 0, n - i)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t


@njit(cache=True)
def small_choices_seed(ch: np.ndarray, seed: np.uint64) -> None:
    """Start ``SmallChoices(Rng(seed))`` in ``ch`` (``uint64[3]``: the generator's state,
    the output whose bytes are being used, how many of its bytes are left)."""
    rng_seed(ch, seed)
    ch[1] = _U0
    ch[2] = _U0


@njit(cache=True)
def small_below(ch: np.ndarray, n: int) -> int:
    """``SmallChoices.below(n)`` (``1 <= n <= 256``): the bytes of successive outputs, least
    significant first; a byte ``b < 256 - 256 mod n`` gives ``b mod n``."""
    limit = _BYTE_LIMITS[n]
    while True:
        if ch[2] == _U0:
            ch[1] = _next_at(ch, 0)
            ch[2] = _U8
        b = np.int64(ch[1] & _BYTE)
        ch[1] >>= _U8
        ch[2] -= _U1
        if b < limit:
            return np.int64(np.uint64(b) % np.uint64(n))


# ----- queries -------------------------------------------------------------------------------
@njit(cache=True)
def cards_left(s: np.ndarray) -> int:
    """Cards in the draw pile, the Last Round card not counted (``GameState.cards_left``)."""
    n = s[PILE_LEN]
    if s[LAST_ROUND] != 0 or n == 0:
        return n
    return n - 1


@njit(cache=True)
def legal_codes(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action codes, ascending, to ``out`` (length >= ``NUM_DISTINCT_ACTIONS``);
    return how many.

    Same result as ``GameState.legal_codes`` (docs/rules.md §3, §5.3). ``GAME_END``/``OVER``: 0.
    """
    phase = s[PHASE]
    nrows = s[NROWS]
    k = 0
    if phase == TURN:
        limit = 0 if s[LAST_ROUND] != 0 else 1
        if s[PILE_LEN] > limit:
            for r in range(nrows):
                if s[ROW_TAKER + r] == UNTAKEN and s[ROW_LEN + r] < s[CAPS + r]:
                    out[0] = DRAW
                    k = 1
                    break
        for r in range(nrows):
            if s[ROW_TAKER + r] == UNTAKEN and s[ROW_LEN + r] > 0:
                out[k] = TAKE0 + r
                k += 1
    elif phase == PLACE:
        for r in range(nrows):
            if s[ROW_TAKER + r] == UNTAKEN and s[ROW_LEN + r] < s[CAPS + r]:
                out[k] = PLACE0 + r
                k += 1
    elif phase == CHOOSE:
        mask = s[INPLAY]
        for c in range(NUM_COLORS):
            if (mask >> c) & 1:
                taken = False
                for i in range(s[CHOSEN_LEN]):
                    if s[CHOSEN + i] == c:
                        taken = True
                if not taken:
                    out[k] = CHOOSE0 + c
                    k += 1
    return k


# ----- scoring -------------------------------------------------------------------------------
@njit(cache=True)
def joker_colors_mask(s: np.ndarray, cnt: np.ndarray) -> int:
    """Where a joker may go, as a bit mask of colours: the twin of
    ``engine.scoring.allowed_joker_colors(cnt, joker_any_color, colours in play)``
    (docs/rules.md §6.1, §7): every colour in play with ``JOKER_ANY``, else the colours in
    play ``cnt`` holds, or every colour in play when it holds none of them."""
    mask = s[INPLAY]
    if s[JOKER_ANY] != 0:
        return mask
    held = 0
    for c in range(NUM_COLORS):
        if (mask >> c) & 1 and cnt[c] > 0:
            held |= 1 << c
    return held if held != 0 else mask


@njit(cache=True)
def _eval(s: np.ndarray, cnt: np.ndarray, a: int, b: int, c: int) -> int:
    """(1 + f) * top3 - f * sum over the colour values, jokers added to colours a, b, c
    (-1 = none); f = negative factor. Colours not in play hold 0 cards and score 0."""
    t1 = 0
    t2 = 0
    t3 = 0
    tot = 0
    for k in range(NUM_COLORS):
        n = cnt[k]
        if a == k:
            n += 1
        if b == k:
            n += 1
        if c == k:
            n += 1
        n = min(n, TABLE_CELLS - 1)
        v = s[TABLE + n]
        tot += v
        if v > t1:
            t3 = t2
            t2 = t1
            t1 = v
        elif v > t2:
            t3 = t2
            t2 = v
        elif v > t3:
            t3 = v
    f = s[NEG]
    return (1 + f) * (t1 + t2 + t3) - f * tot


@njit(cache=True)
def counts_score(s: np.ndarray, cnt: np.ndarray) -> int:
    """Optimal score of the 10-count collection ``cnt`` under the rules encoded in ``s``
    (docs/rules.md §6; ``coloretto.engine.scoring.collection_total``): the maximum over every
    assignment of the jokers (regular and golden) to the colours ``joker_colors_mask``
    allows of the three best colour values minus ``NEG`` times the others, plus 2 per "+2"
    card. Any number of jokers (3 at most occur in a game; more use a slower enumeration)."""
    jokers = cnt[JOKER] + cnt[GOLDEN_JOKER]
    plus = 2 * cnt[PLUS2]
    allowed = joker_colors_mask(s, cnt) if jokers > 0 else 0
    if jokers == 0 or allowed == 0:
        return _eval(s, cnt, -1, -1, -1) + plus
    best = -(1 << 30)
    if jokers == 1:
        for i in range(NUM_COLORS):
            if (allowed >> i) & 1:
                t = _eval(s, cnt, i, -1, -1)
                best = max(best, t)
        return best + plus
    if jokers == 2:
        for i in range(NUM_COLORS):
            if (allowed >> i) & 1:
                for j in range(i, NUM_COLORS):
                    if (allowed >> j) & 1:
                        t = _eval(s, cnt, i, j, -1)
                        best = max(best, t)
        return best + plus
    if jokers == 3:
        for i in range(NUM_COLORS):
            if (allowed >> i) & 1:
                for j in range(i, NUM_COLORS):
                    if (allowed >> j) & 1:
                        for k in range(j, NUM_COLORS):
                            if (allowed >> k) & 1:
                                t = _eval(s, cnt, i, j, k)
                                best = max(best, t)
        return best + plus
    # more than 3 jokers (not in a real game): odometer over multisets of allowed colours
    colors = np.empty(NUM_COLORS, np.int64)
    m = 0
    for c in range(NUM_COLORS):
        if (allowed >> c) & 1:
            colors[m] = c
            m += 1
    idx = np.zeros(jokers, np.int64)
    work = np.empty(COLLECTION_SIZE, np.int64)
    while True:
        for c in range(COLLECTION_SIZE):
            work[c] = cnt[c]
        for i in range(jokers):
            work[colors[idx[i]]] += 1
        t = _eval(s, work, -1, -1, -1)
        best = max(best, t)
        p = jokers - 1
        while p >= 0 and idx[p] == m - 1:
            p -= 1
        if p < 0:
            break
        idx[p] += 1
        for q in range(p + 1, jokers):
            idx[q] = idx[p]
    return best + plus


@njit(cache=True)
def seat_score(s: np.ndarray, seat: int, cnt: np.ndarray) -> int:
    """Optimal score of ``seat``'s collection (``cnt``: scratch int64[10])."""
    base = COLL_CELLS * seat + COLL
    for c in range(COLLECTION_SIZE):
        cnt[c] = s[base + c]
    return counts_score(s, cnt)


@njit(cache=True)
def _score_plus_row(s: np.ndarray, seat: int, r: int, extra: int, cnt: np.ndarray) -> int:
    """Score of ``seat``'s collection plus the cards of row ``r`` (r = -1: none) plus card
    ``extra`` (-1: none): ``engine.scoring.collection_total_plus``."""
    base = COLL_CELLS * seat + COLL
    for c in range(COLLECTION_SIZE):
        cnt[c] = s[base + c]
    if r >= 0:
        rb = ROWS + ROW_CELLS * r
        for i in range(s[ROW_LEN + r]):
            cnt[s[rb + i]] += 1
    if extra >= 0:
        cnt[extra] += 1
    return counts_score(s, cnt)


# ----- transitions ---------------------------------------------------------------------------
@njit(cache=True)
def _bonus(s: np.ndarray, seat: int) -> None:
    """Reveal the top card into ``seat``'s collection (docs/rules.md §5.2; ``GameState._bonus``)."""
    n = s[PILE_LEN]
    if n > 0 and s[PILE + n - 1] == LAST_ROUND_CARD:
        s[PILE + n - 1] = 0
        n -= 1
        s[LAST_ROUND] = 1
    if n > 0:
        card = s[PILE + n - 1]
        s[PILE + n - 1] = 0
        n -= 1
        s[COLL + COLL_CELLS * seat + card] += 1
    s[PILE_LEN] = n


@njit(cache=True)
def _end_game(s: np.ndarray, cnt: np.ndarray) -> None:
    """Add the game's scores to the match totals; ``OVER`` or (match goes on) ``GAME_END``."""
    for seat in range(s[N]):
        s[TOTALS + seat] += seat_score(s, seat, cnt)
    if s[GAME] + 1 < s[MATCH_GAMES]:
        s[PHASE] = GAME_END
    else:
        s[PHASE] = OVER
    s[TO_MOVE] = NO_SEAT


@njit(cache=True)
def _end_round(s: np.ndarray, cnt: np.ndarray) -> None:
    """Rules.md §4: leftover row cards are removed; next round or game end."""
    nrows = s[NROWS]
    for r in range(nrows):
        length = s[ROW_LEN + r]
        if length > 0:
            m = s[REMOVED_LEN]
            rb = ROWS + ROW_CELLS * r
            for i in range(length):
                s[REMOVED + m + i] = s[rb + i]
                s[rb + i] = 0
            s[REMOVED_LEN] = m + length
            s[ROW_LEN + r] = 0
        s[ROW_TAKER + r] = UNTAKEN
    if s[LAST_ROUND] != 0 or cards_left(s) == 0:
        _end_game(s, cnt)
        return
    n = s[N]
    s[ROUND] += 1
    s[TAKES] = 0
    for p in range(n):
        s[OUT + p] = 0
    s[ACTIVE] = n
    if s[STARTER] == STARTER_LAST_TAKER:
        s[TO_MOVE] = s[LAST_TAKER]
    else:
        s[TO_MOVE] = (s[LAST_TAKER] + 1) % n


@njit(cache=True)
def _must_leave(s: np.ndarray) -> bool:
    """Rules.md §5.3: empty pile and every untaken row empty."""
    if cards_left(s) != 0:
        return False
    for r in range(s[NROWS]):
        if s[ROW_TAKER + r] == UNTAKEN and s[ROW_LEN + r] > 0:
            return False
    return True


@njit(cache=True)
def _advance(s: np.ndarray) -> int:
    n = s[N]
    p = (s[TO_MOVE] + 1) % n
    while s[OUT + p] != 0:
        p = (p + 1) % n
    s[TO_MOVE] = p
    return p


@njit(cache=True)
def _leave(s: np.ndarray, seat: int, cnt: np.ndarray) -> None:
    """``seat`` leaves the round (``GameState._leave`` with its ``_next_player`` recursion
    unrolled into a loop)."""
    while True:
        s[OUT + seat] = 1
        s[ACTIVE] -= 1
        s[LAST_TAKER] = seat
        if s[ACTIVE] == 0:
            _end_round(s, cnt)
            return
        p = _advance(s)
        if not _must_leave(s):
            return
        seat = p


@njit(cache=True)
def apply_code(s: np.ndarray, code: int, cnt: np.ndarray) -> None:
    """Apply legal action ``code`` (draw, place, take) **without checking** it, exactly as
    ``GameState.apply_code`` (docs/rules.md §3 to §5). Choose codes are applied by
    ``choose_color``. ``cnt``: scratch int64[10] for scoring."""
    if code == DRAW:
        n = s[PILE_LEN]
        card = s[PILE + n - 1]
        s[PILE + n - 1] = 0
        n -= 1
        if card == LAST_ROUND_CARD:
            s[LAST_ROUND] = 1
            card = s[PILE + n - 1]
            s[PILE + n - 1] = 0
            n -= 1
        s[PILE_LEN] = n
        s[DRAWN] = card
        s[PHASE] = PLACE
    elif code < TAKE0:
        r = code - PLACE0
        length = s[ROW_LEN + r]
        s[ROWS + ROW_CELLS * r + length] = s[DRAWN]
        s[ROW_LEN + r] = length + 1
        s[DRAWN] = NO_CARD
        s[PHASE] = TURN
        p = _advance(s)
        if _must_leave(s):
            _leave(s, p, cnt)
    elif code < CHOOSE0:
        r = code - TAKE0
        seat = s[TO_MOVE]
        cb = COLL + COLL_CELLS * seat
        rb = ROWS + ROW_CELLS * r
        golden = False
        for i in range(s[ROW_LEN + r]):
            card = s[rb + i]
            s[cb + card] += 1
            s[rb + i] = 0
            if card == GOLDEN_JOKER:
                golden = True
        s[ROW_LEN + r] = 0
        s[ROW_TAKER + r] = seat
        if golden:
            _bonus(s, seat)
        if s[TAKES] == 0 and s[EXTRA] == FIRST_OUT_DRAWS:
            _bonus(s, seat)
        s[TAKES] += 1
        _leave(s, seat, cnt)


# ----- dealing: engine.setup.deal --------------------------------------------------------------
@njit(cache=True)
def build_pile(s: np.ndarray, rng: np.ndarray) -> None:
    """Shuffle the draw pile into ``s`` (``engine.setup.build_pile``): the cards left by the
    starting cards now in the collections (every colour in play ``CARDS_PER_COLOR`` times,
    ``JOKERS`` jokers, ``GOLDEN_JOKERS`` golden jokers, ``NUM_PLUS2`` "+2" cards) in
    ascending code order, ``shuffle`` with ``rng``, read from index 0 as the top, with the
    Last Round card inserted so that ``UNDER`` cards lie under it."""
    n = s[N]
    mask = s[INPLAY]
    counts = np.zeros(COLLECTION_SIZE, np.int64)
    for c in range(NUM_COLORS):
        if (mask >> c) & 1:
            counts[c] = CARDS_PER_COLOR
            for p in range(n):
                counts[c] -= s[COLL + COLL_CELLS * p + c]
    counts[JOKER] = s[JOKERS]
    counts[GOLDEN_JOKER] = s[GOLDEN_JOKERS]
    counts[PLUS2] = NUM_PLUS2
    cards = np.empty(MAX_PILE, np.int32)
    total = 0
    for c in range(COLLECTION_SIZE):
        for _ in range(counts[c]):
            cards[total] = c
            total += 1
    shuffle(rng, cards, total)
    at = max(total - s[UNDER], 0)  # top-first index of the Last Round card
    # s holds the pile bottom first: cell i is top-first index ``total - i``
    for i in range(total + 1):
        t = total - i
        if t == at:
            s[PILE + i] = LAST_ROUND_CARD
        elif t < at:
            s[PILE + i] = cards[t]
        else:
            s[PILE + i] = cards[t - 1]
    s[PILE_LEN] = total + 1


@njit(cache=True)
def deal(s: np.ndarray, rng: np.ndarray, removed_fixed: int, first_fixed: int) -> np.uint64:
    """Deal a new game into ``s`` (docs/rules.md §2), keeping its rule cells, ``GAME`` and
    ``TOTALS``: the twin of ``engine.setup.deal`` with ``rng`` in the state of
    ``Rng(derive_seed(seed, DEAL))``, drawing in its order:

    1. the removed colours (``sample_front`` of the seven colours, ``COLORS_REMOVED`` of
       them), unless ``removed_fixed`` (a bit mask of colours, -1 for none) fixes them;
    2. the first player (``below(players)``), unless ``first_fixed`` (-1 for none) fixes it;
    3. with chosen starting cards (``STARTING``): the shuffle seed ``next_u64() >> 1`` is
       returned and the state waits for the choices (``CHOOSE``; ``choose_color``);
    4. the starting cards (``sample_front`` of the colours in play ascending, seat ``p``
       getting picks ``p * EACH .. (p + 1) * EACH - 1``);
    5. the draw pile (``build_pile`` with the same ``rng``).

    Returns:
        The shuffle seed of step 3, else 0.
    """
    n = s[N]
    for i in range(ROW_LEN, TOTALS):
        s[i] = 0
    for i in range(CHOSEN, s.shape[0]):
        s[i] = 0
    for r in range(s[NROWS]):
        s[ROW_TAKER + r] = UNTAKEN
    s[DRAWN] = NO_CARD
    s[LAST_ROUND] = 0
    s[ROUND] = 1
    s[ACTIVE] = n
    s[TAKES] = 0
    s[REMOVED_LEN] = 0
    s[CHOSEN_LEN] = 0
    s[PILE_LEN] = 0
    if removed_fixed >= 0:
        mask = ALL_COLORS & ~removed_fixed
    else:
        colors = np.arange(NUM_COLORS)
        k = s[COLORS_REMOVED]
        sample_front(rng, colors, NUM_COLORS, k)
        mask = ALL_COLORS
        for i in range(k):
            mask &= ~(1 << colors[i])
    s[INPLAY] = mask
    first = first_fixed if first_fixed >= 0 else _below_at(rng, 0, n)
    s[TO_MOVE] = first
    s[LAST_TAKER] = first
    if s[STARTING] == STARTING_CHOOSE:
        s[PHASE] = CHOOSE
        return next_u64(rng) >> _U1
    in_play = np.empty(NUM_COLORS, np.int64)
    m = 0
    for c in range(NUM_COLORS):
        if (mask >> c) & 1:
            in_play[m] = c
            m += 1
    each = s[EACH]
    sample_front(rng, in_play, m, n * each)
    for i in range(n * each):
        s[COLL + COLL_CELLS * (i // each) + in_play[i]] += 1
    build_pile(s, rng)
    s[PHASE] = TURN
    return _U0


@njit(cache=True)
def choose_color(s: np.ndarray, code: int, shuffle_seed: np.uint64) -> None:
    """Apply the legal choose code ``code`` **without checking** it (``GameState._choose``):
    the seat to move takes that starting colour; after the last choice the draw pile is
    shuffled from ``Rng(derive_seed(shuffle_seed, PILE))`` and the first player (kept in
    ``LAST_TAKER``) moves."""
    color = code - CHOOSE0
    seat = s[TO_MOVE]
    n = s[N]
    s[COLL + COLL_CELLS * seat + color] += 1
    k = s[CHOSEN_LEN]
    s[CHOSEN + k] = color
    s[CHOSEN_LEN] = k + 1
    if k + 1 < n * s[EACH]:
        s[TO_MOVE] = (seat + 1) % n
        return
    rng = np.empty(1, np.uint64)
    rng_seed(rng, derive_seed1(shuffle_seed, STREAM_PILE))
    build_pile(s, rng)
    s[TO_MOVE] = s[LAST_TAKER]
    s[PHASE] = TURN


# ----- policies ------------------------------------------------------------------------------
@njit(cache=True)
def greedy_options(
    s: np.ndarray, codes: np.ndarray, k: int, out: np.ndarray, cnt: np.ndarray
) -> int:
    """The best candidates of ``engine.policy.greedy_code`` among the ``k`` legal ``codes``
    (ascending), written to ``out`` in ascending code order; their count is returned (one
    ``below(count)`` picks among them when it is more than 1).

    Turn: the takes maximising score(collection + row) - score(collection), if that gain is
    positive or drawing is illegal; otherwise draw. Place: the rows maximising
    score(collection + row + card) - score(collection + row). Choose: every legal colour.
    Golden joker bonuses are not counted.
    """
    if k == 1:
        out[0] = codes[0]
        return 1
    phase = s[PHASE]
    if phase == CHOOSE:
        for i in range(k):
            out[i] = codes[i]
        return k
    seat = s[TO_MOVE]
    if phase == PLACE:
        card = s[DRAWN]
        best = -(1 << 30)
        m = 0
        for i in range(k):
            r = codes[i] - PLACE0
            v = _score_plus_row(s, seat, r, card, cnt) - _score_plus_row(s, seat, r, -1, cnt)
            if v > best:
                best = v
                m = 0
            if v == best:
                out[m] = codes[i]
                m += 1
        return m
    has_draw = codes[0] == DRAW
    first = 1 if has_draw else 0
    if first == k:
        out[0] = DRAW
        return 1
    base = _score_plus_row(s, seat, -1, -1, cnt)
    best = -(1 << 30)
    m = 0
    for i in range(first, k):
        r = codes[i] - TAKE0
        v = _score_plus_row(s, seat, r, -1, cnt) - base
        if v > best:
            best = v
            m = 0
        if v == best:
            out[m] = codes[i]
            m += 1
    if not has_draw or best > 0:
        return m
    out[0] = DRAW
    return 1


@njit(cache=True)
def _choose_at(
    s: np.ndarray,
    policy: int,
    rngs: np.ndarray,
    i: int,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
) -> int:
    k = legal_codes(s, codes)
    if k == 0:
        return NO_CHOICE
    if k == 1:
        return codes[0]
    if policy == POLICY_GREEDY:
        m = greedy_options(s, codes, k, opts, cnt)
        if m == 1:
            return opts[0]
        return opts[_below_at(rngs, i, m)]
    return codes[_below_at(rngs, i, k)]


@njit(cache=True)
def choose_action(
    s: np.ndarray,
    policy: int,
    rng: np.ndarray,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
) -> int:
    """One decision of ``policy`` for the seat to move, ties and random choices drawn from
    ``rng``; ``NO_CHOICE`` (-1) when the game is over. ``POLICY_RANDOM``: ``codes[below(k)]``
    (``RandomAgent``); ``POLICY_GREEDY``: ``engine.policy.greedy_code``. With one legal
    action (or one best greedy candidate) no random number is drawn."""
    return _choose_at(s, policy, rng, 0, codes, opts, cnt)


_SHARED: Final = np.zeros(MAX_SEATS, np.int64)
"""Generator of each seat in ``play_game``: cell 0 for all."""
_OWN: Final = np.arange(MAX_SEATS)
"""Generator of each seat in ``play_game_seats``: its own."""


@njit(cache=True)
def _play(
    s: np.ndarray,
    pol: np.ndarray,
    rngs: np.ndarray,
    gen: np.ndarray,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
) -> None:
    """Play to the end of the current game, seat p with policy ``pol[p]`` drawing from
    ``rngs[gen[p]]``: each decision as ``choose_action`` (written out here: a call per
    decision costs the random games a third of their speed)."""
    while True:
        phase = s[PHASE]
        if phase != TURN and phase != PLACE:
            return
        seat = s[TO_MOVE]
        k = legal_codes(s, codes)
        if k == 1:
            code = codes[0]
        elif pol[seat] == POLICY_GREEDY:
            m = greedy_options(s, codes, k, opts, cnt)
            code = opts[0] if m == 1 else opts[_below_at(rngs, gen[seat], m)]
        else:
            code = codes[_below_at(rngs, gen[seat], k)]
        apply_code(s, code, cnt)


@njit(cache=True)
def play_game(
    s: np.ndarray,
    pol: np.ndarray,
    rng: np.ndarray,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
) -> None:
    """Play from a TURN/PLACE state to the end of the current game (``OVER`` or
    ``GAME_END``); seat p uses policy ``pol[p]``, every seat drawing from ``rng``."""
    _play(s, pol, rng, _SHARED, codes, opts, cnt)


@njit(cache=True)
def play_game_seats(
    s: np.ndarray,
    pol: np.ndarray,
    rngs: np.ndarray,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
) -> None:
    """As ``play_game``, but seat p draws from its own generator ``rngs[p]`` (``rngs``:
    uint64[players], one ``Rng`` state per seat, as each agent owns its ``rng``)."""
    _play(s, pol, rngs, _OWN, codes, opts, cnt)


@njit(cache=True)
def play_random(s: np.ndarray, rng: np.ndarray, codes: np.ndarray, cnt: np.ndarray) -> None:
    """``POLICY_RANDOM`` for every seat to the end of the current game: at each decision
    ``codes[below(k)]`` among the ``k`` legal codes, no random number when ``k == 1``
    (``engine_rollout("random")`` of ``agents.mcts``)."""
    while True:
        phase = s[PHASE]
        if phase != TURN and phase != PLACE:
            return
        k = legal_codes(s, codes)
        if k == 1:
            apply_code(s, codes[0], cnt)
        else:
            apply_code(s, codes[_below_at(rng, 0, k)], cnt)


@njit(cache=True)
def rollouts(base: np.ndarray, n: int, seed: np.uint64, policy: int, out: np.ndarray) -> None:
    """``n`` independent playouts of ``policy`` (every seat) from ``base`` (unchanged) to the
    end of its current game; playout ``i`` draws from ``Rng(derive_seed(seed, GAME, i))``
    (``seed_rng``); ``out[i, p]`` = seat p's score of that game."""
    s = np.empty_like(base)
    rng = np.empty(1, np.uint64)
    codes = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
    opts = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
    cnt = np.empty(COLLECTION_SIZE, np.int64)
    pol = np.full(MAX_SEATS, policy, np.int32)
    players = base[N]
    for i in range(n):
        seed_rng(rng, seed, i)
        s[:] = base
        if policy == POLICY_GREEDY:
            play_game(s, pol, rng, codes, opts, cnt)
        else:
            play_random(s, rng, codes, cnt)
        for p in range(players):
            out[i, p] = seat_score(s, p, cnt)


# ----- whole games: arena.simulate and arena.bench --------------------------------------------
@njit(cache=True)
def play_match(
    s: np.ndarray,
    game_seed: np.uint64,
    pol: np.ndarray,
    removed_fixed: int,
    first_fixed: int,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
) -> None:
    """Play the game (every game of the match) dealt from ``game_seed`` in ``s`` (a copy of
    a rules template, ``TOTALS`` zero) as ``arena.simulate.play_game`` does: seat ``p``
    plays ``pol[p]`` with ``Rng(derive_seed(game_seed, AGENT, p))`` for the whole match;
    game ``g`` is dealt from ``game_seed`` (g = 0) or ``derive_seed(game_seed, MATCH_GAME,
    g)`` (``engine.state.new_game``); starting colours are chosen by the seats' policies
    (both choose uniformly, ``below(k)``). Ends ``OVER`` with the totals in ``TOTALS``."""
    players = s[N]
    rngs = np.empty(MAX_SEATS, np.uint64)
    for p in range(players):
        rng_seed(rngs[p:], derive_seed2(game_seed, STREAM_AGENT, p))
    deal_rng = np.empty(1, np.uint64)
    for g in range(s[MATCH_GAMES]):
        s[GAME] = g
        seed = game_seed if g == 0 else derive_seed2(game_seed, STREAM_MATCH_GAME, g)
        rng_seed(deal_rng, derive_seed1(seed, STREAM_DEAL))
        shuffle_seed = deal(s, deal_rng, removed_fixed, first_fixed)
        while s[PHASE] == CHOOSE:
            code = _choose_at(s, pol[s[TO_MOVE]], rngs, s[TO_MOVE], codes, opts, cnt)
            choose_color(s, code, shuffle_seed)
        play_game_seats(s, pol, rngs, codes, opts, cnt)


@njit(cache=True)
def simulate_games(
    template: np.ndarray,
    seed: np.uint64,
    first_game: int,
    count: int,
    pol: np.ndarray,
    removed_fixed: int,
    first_fixed: int,
    out: np.ndarray,
) -> None:
    """Play games ``first_game .. first_game + count - 1`` of the run with root ``seed``
    (each a whole match when ``MATCH_GAMES`` > 1), game ``i`` with ``play_match`` from
    ``derive_seed(seed, GAME, i)``: the same games as ``arena.simulate`` plays for the same
    seed. ``out[j, p]`` = seat p's final (match) total of game ``first_game + j``."""
    s = template.copy()
    codes = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
    opts = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
    cnt = np.empty(COLLECTION_SIZE, np.int64)
    players = template[N]
    for j in range(count):
        s[:] = template
        for p in range(players):
            s[TOTALS + p] = 0
        game_seed = derive_seed2(seed, STREAM_GAME, first_game + j)
        play_match(s, game_seed, pol, removed_fixed, first_fixed, codes, opts, cnt)
        for p in range(players):
            out[j, p] = s[TOTALS + p]


@njit(cache=True)
def bench_random(template: np.ndarray, seed: np.uint64, games: int) -> float:
    """The playout benchmark of ``arena.bench.bench_playout``, exactly: game ``i`` dealt from
    ``derive_seed(seed, GAME, i)`` (``deal`` of a single game), every choice
    ``codes[below(k)]`` of one ``SmallChoices(Rng(derive_seed(seed, AGENT)))`` (also when
    ``k == 1``), every seat scored optimally at the end. Returns the sum over games of the
    highest score (so the same seed gives the engine benchmark's ``mean_winner_score``)."""
    s = template.copy()
    ch = np.empty(3, np.uint64)
    small_choices_seed(ch, derive_seed1(seed, STREAM_AGENT))
    deal_rng = np.empty(1, np.uint64)
    codes = np.empty(NUM_DISTINCT_ACTIONS, np.int32)
    cnt = np.empty(COLLECTION_SIZE, np.int64)
    players = template[N]
    total = 0.0
    for i in range(games):
        s[:] = template
        rng_seed(deal_rng, derive_seed1(derive_seed2(seed, STREAM_GAME, i), STREAM_DEAL))
        deal(s, deal_rng, -1, -1)
        while True:
            phase = s[PHASE]
            if phase != TURN and phase != PLACE:
                break
            k = legal_codes(s, codes)
            apply_code(s, codes[small_below(ch, k)], cnt)
        win = -(1 << 30)
        for p in range(players):
            v = seat_score(s, p, cnt)
            win = max(win, v)
        total += win
    return total


# ----- the engine constants frozen into the machine code -----------------------------------
def constants() -> dict[str, int]:
    """Every engine constant the kernels are compiled with, by name (the values of ``layout``
    and of ``engine.seeds`` that the kernels read; ``tests/fastcore`` checks them against the
    engine and against ``compiled_constants``)."""
    found = {name: v for name, v in vars(_layout).items() if name.isupper() and type(v) is int}
    found.update(
        {
            name: int(v)
            for name, v in globals().items()
            if isinstance(v, np.uint64) and name.isupper()
        }
    )
    return found


CHECKED_NAMES: Final = (
    "JOKER",
    "GOLDEN_JOKER",
    "PLUS2",
    "LAST_ROUND_CARD",
    "NUM_COLORS",
    "CARDS_PER_COLOR",
    "NUM_PLUS2",
    "COLLECTION_SIZE",
    "DRAW",
    "PLACE0",
    "TAKE0",
    "CHOOSE0",
    "NUM_DISTINCT_ACTIONS",
    "TURN",
    "PLACE",
    "CHOOSE",
    "OVER",
    "UNTAKEN",
    "NO_CARD",
    "FIRST_OUT_DRAWS",
    "STARTER_LAST_TAKER",
    "STARTING_CHOOSE",
    "TABLE_CELLS",
    "ROW_CELLS",
    "MAX_SEATS",
)
"""The names of the values ``compiled_constants`` returns, in its order."""
_CHECKED: Final = tuple(int(getattr(_layout, name)) for name in CHECKED_NAMES)


@njit(cache=True)
def compiled_constants(out: np.ndarray) -> int:
    """Write the values of ``CHECKED_NAMES`` as this machine code holds them to ``out``
    (int64, length >= their number) and the seed multipliers to ``out[len:]``; return how
    many values were written. A stale cache would show here as a difference from
    ``layout``."""
    k = len(_CHECKED)
    for i in range(k):
        out[i] = _CHECKED[i]
    out[k] = np.int64(_GOLDEN_GAMMA >> _U1)
    out[k + 1] = np.int64(_MIX1 >> _U1)
    out[k + 2] = np.int64(_MIX2 >> _U1)
    out[k + 3] = np.int64(_MUL >> _U1)
    return k + 4


def constants_fingerprint() -> str:
    """A short hex digest of ``constants()`` (names and values)."""
    text = repr(sorted(constants().items()))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


_FINGERPRINT_FILE: Final = "coloretto-fastcore-constants.txt"


def _forget_machine_code_of_other_constants() -> None:
    """Numba keys its cache on this file only, and global constants are frozen into the
    cached machine code: after a change of an engine constant the cache would serve code
    compiled with the old value. The fingerprint of the constants is kept beside the cache;
    when it differs, every kernel's cache index is emptied (the kernels compile again on
    their next call) and the new fingerprint is written."""
    dispatchers = [v for v in globals().values() if hasattr(v, "py_func") and hasattr(v, "_cache")]
    try:
        path = Path(dispatchers[0]._cache._cache_path) / _FINGERPRINT_FILE
    except (AttributeError, IndexError, TypeError):
        return  # Numba's internals changed: nothing to compare with
    new = constants_fingerprint()
    try:
        old: str | None = path.read_text().strip()
    except OSError:
        old = None
    if old == new:
        return
    if old is not None:
        for disp in dispatchers:
            try:
                disp._cache.flush()
            except (AttributeError, OSError):
                pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(new + "\n")
    except OSError:
        pass


_forget_machine_code_of_other_constants()
