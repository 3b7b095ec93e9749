# mypy: disable-error-code="no-any-return, return-value"
# (Numba kernels compute with numpy scalar types; their int annotations document intent.)
"""Numba-compiled transitions, scoring, policies, dealing and playouts of the fast core.

Every function here works on a fast state: one flat ``int32`` array laid out as described in
``coloretto.fastcore.layout``. The reference semantics are the engine's
(``coloretto.engine.state.GameState``: ``legal_codes``, ``apply_code``, ``_take``,
``_bonus``, ``_leave``, ``_next_player``, ``_end_round``, ``_end_game``) and its scoring
(``coloretto.engine.scoring``); these kernels implement the same rules (docs/rules.md §3 to §6)
line for line and the differential tests in ``tests/fastcore`` check them step by step.

All functions are compiled with ``cache=True``: the first call in a fresh installation
compiles (see docs/benchmarks.md for the cost) and stores machine code in ``__pycache__``
next to this file; later processes load it.

Random numbers come from a xorshift64* generator whose 64-bit state lives in a
``uint64`` array of length 1 (``rng``), seeded through splitmix64; nothing global is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from .._optional import require
from .layout import (
    ACTIVE,
    CAPS,
    CHOOSE,
    CHOSEN,
    CHOSEN_LEN,
    COLL,
    DRAWN,
    EACH,
    EDITION,
    EXTRA,
    FIRST_OUT_DRAWS,
    GAME,
    GAME_END,
    INPLAY,
    JOKER_ANY,
    LAST_ROUND,
    LAST_TAKER,
    MATCH_GAMES,
    NEG,
    NROWS,
    OUT,
    OVER,
    PHASE,
    PILE,
    PILE_LEN,
    PLACE,
    POLICY_GREEDY,
    REMOVED,
    REMOVED_LEN,
    ROUND,
    ROW_LEN,
    ROW_TAKER,
    ROWS,
    STARTER,
    TABLE,
    TAKES,
    TO_MOVE,
    TOTALS,
    TURN,
    N,
)

_F = TypeVar("_F", bound=Callable[..., Any])
njit: Callable[..., Callable[[_F], _F]] = require("numba", "fast", "the fast core").njit

# card codes (coloretto.engine.cards) and action codes (coloretto.engine.actions)
_JOKER = 7
_GOLDEN = 8
_PLUS2 = 9
_LAST = 10
_DRAW = 0
_PLACE0 = 1
_TAKE0 = 7
_CHOOSE0 = 13
_U12 = np.uint64(12)
_U25 = np.uint64(25)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_MUL = np.uint64(0x2545F4914F6CDD1D)
_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


# ----- random numbers ------------------------------------------------------------------------
@njit(cache=True)
def splitmix64(x: np.uint64) -> np.uint64:
    """One splitmix64 output for input ``x`` (a well-mixed 64-bit hash)."""
    z = x + _GOLDEN_GAMMA
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@njit(cache=True)
def seed_rng(rng: np.ndarray, seed: np.uint64, stream: np.uint64) -> None:
    """Seed ``rng`` (uint64[1]) from ``seed`` and a ``stream`` index (e.g. a game index)."""
    x = splitmix64(splitmix64(seed) ^ splitmix64(stream + _GOLDEN_GAMMA))
    if x == np.uint64(0):
        x = np.uint64(1)
    rng[0] = x


@njit(cache=True)
def _next(rng: np.ndarray) -> np.uint64:
    x = rng[0]
    x ^= x >> _U12
    x ^= x << _U25
    x ^= x >> _U27
    rng[0] = x
    return x * _MUL


@njit(cache=True)
def below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in ``0 .. n - 1`` (``n`` >= 1; multiply-shift on 32 high bits)."""
    return np.int64(((_next(rng) >> _U32) * np.uint64(n)) >> _U32)


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
    """Write the legal action codes, ascending, to ``out`` (length >= 20); return how many.

    Same result as ``GameState.legal_codes`` (docs/rules.md §3, §5.3). ``GAME_END``/``OVER``: 0.
    """
    phase = s[PHASE]
    nrows = s[NROWS]
    k = 0
    if phase == TURN:
        limit = 0 if s[LAST_ROUND] != 0 else 1
        if s[PILE_LEN] > limit:
            for r in range(nrows):
                if s[ROW_TAKER + r] == -1 and s[ROW_LEN + r] < s[CAPS + r]:
                    out[0] = _DRAW
                    k = 1
                    break
        for r in range(nrows):
            if s[ROW_TAKER + r] == -1 and s[ROW_LEN + r] > 0:
                out[k] = _TAKE0 + r
                k += 1
    elif phase == PLACE:
        for r in range(nrows):
            if s[ROW_TAKER + r] == -1 and s[ROW_LEN + r] < s[CAPS + r]:
                out[k] = _PLACE0 + r
                k += 1
    elif phase == CHOOSE:
        mask = s[INPLAY]
        for c in range(7):
            if (mask >> c) & 1:
                taken = False
                for i in range(s[CHOSEN_LEN]):
                    if s[CHOSEN + i] == c:
                        taken = True
                if not taken:
                    out[k] = _CHOOSE0 + c
                    k += 1
    return k


# ----- scoring -------------------------------------------------------------------------------
@njit(cache=True)
def _eval(s: np.ndarray, cnt: np.ndarray, a: int, b: int, c: int) -> int:
    """(1 + f) * top3 - f * sum over the 7 colour values, jokers added to colours a, b, c
    (-1 = none); f = negative factor. Colours not in play hold 0 cards and score 0."""
    t1 = 0
    t2 = 0
    t3 = 0
    tot = 0
    for k in range(7):
        n = cnt[k]
        if a == k:
            n += 1
        if b == k:
            n += 1
        if c == k:
            n += 1
        n = min(n, 6)
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
    (docs/rules.md §6; ``coloretto.engine.scoring.score_collection``): the maximum over every
    assignment of the jokers (regular and golden) to allowed colours (every colour in play,
    or with ``joker_any_color`` false the colours held, or all in play when none is held) of
    the three best colour values minus ``NEG`` times the others, plus 2 per "+2" card.
    Any number of jokers (3 at most occur in a game; more use a slower enumeration)."""
    jokers = cnt[_JOKER] + cnt[_GOLDEN]
    plus = 2 * cnt[_PLUS2]
    mask = s[INPLAY]
    allowed = 0
    if jokers > 0:
        if s[JOKER_ANY] != 0:
            allowed = mask
        else:
            for c in range(7):
                if (mask >> c) & 1 and cnt[c] > 0:
                    allowed |= 1 << c
            if allowed == 0:
                allowed = mask
    if jokers == 0 or allowed == 0:
        return _eval(s, cnt, -1, -1, -1) + plus
    best = -(1 << 30)
    if jokers == 1:
        for i in range(7):
            if (allowed >> i) & 1:
                t = _eval(s, cnt, i, -1, -1)
                best = max(best, t)
        return best + plus
    if jokers == 2:
        for i in range(7):
            if (allowed >> i) & 1:
                for j in range(i, 7):
                    if (allowed >> j) & 1:
                        t = _eval(s, cnt, i, j, -1)
                        best = max(best, t)
        return best + plus
    if jokers == 3:
        for i in range(7):
            if (allowed >> i) & 1:
                for j in range(i, 7):
                    if (allowed >> j) & 1:
                        for k in range(j, 7):
                            if (allowed >> k) & 1:
                                t = _eval(s, cnt, i, j, k)
                                best = max(best, t)
        return best + plus
    # more than 3 jokers (not in a real game): odometer over multisets of allowed colours
    colors = np.empty(7, np.int64)
    m = 0
    for c in range(7):
        if (allowed >> c) & 1:
            colors[m] = c
            m += 1
    idx = np.zeros(jokers, np.int64)
    work = np.empty(10, np.int64)
    while True:
        for c in range(10):
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
    base = 10 * seat + COLL
    for c in range(10):
        cnt[c] = s[base + c]
    return counts_score(s, cnt)


@njit(cache=True)
def _score_plus_row(s: np.ndarray, seat: int, r: int, extra: int, cnt: np.ndarray) -> int:
    """Score of ``seat``'s collection plus the cards of row ``r`` (r = -1: none) plus card
    ``extra`` (-1: none)."""
    base = 10 * seat + COLL
    for c in range(10):
        cnt[c] = s[base + c]
    if r >= 0:
        rb = ROWS + 6 * r
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
    if n > 0 and s[PILE + n - 1] == _LAST:
        s[PILE + n - 1] = 0
        n -= 1
        s[LAST_ROUND] = 1
    if n > 0:
        card = s[PILE + n - 1]
        s[PILE + n - 1] = 0
        n -= 1
        s[COLL + 10 * seat + card] += 1
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
    s[TO_MOVE] = -1


@njit(cache=True)
def _end_round(s: np.ndarray, cnt: np.ndarray) -> None:
    """Rules.md §4: leftover row cards are removed; next round or game end."""
    nrows = s[NROWS]
    for r in range(nrows):
        length = s[ROW_LEN + r]
        if length > 0:
            m = s[REMOVED_LEN]
            rb = ROWS + 6 * r
            for i in range(length):
                s[REMOVED + m + i] = s[rb + i]
                s[rb + i] = 0
            s[REMOVED_LEN] = m + length
            s[ROW_LEN + r] = 0
        s[ROW_TAKER + r] = -1
    if s[LAST_ROUND] != 0 or cards_left(s) == 0:
        _end_game(s, cnt)
        return
    n = s[N]
    s[ROUND] += 1
    s[TAKES] = 0
    for p in range(n):
        s[OUT + p] = 0
    s[ACTIVE] = n
    if s[STARTER] == 0:
        s[TO_MOVE] = s[LAST_TAKER]
    else:
        s[TO_MOVE] = (s[LAST_TAKER] + 1) % n


@njit(cache=True)
def _must_leave(s: np.ndarray) -> bool:
    """Rules.md §5.3: empty pile and every untaken row empty."""
    if cards_left(s) != 0:
        return False
    for r in range(s[NROWS]):
        if s[ROW_TAKER + r] == -1 and s[ROW_LEN + r] > 0:
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
    ``GameState.apply_code`` (docs/rules.md §3 to §5). Choose codes are not handled here (the
    Python API lets the engine apply them). ``cnt``: scratch int64[10] for scoring."""
    if code == _DRAW:
        n = s[PILE_LEN]
        card = s[PILE + n - 1]
        s[PILE + n - 1] = 0
        n -= 1
        if card == _LAST:
            s[LAST_ROUND] = 1
            card = s[PILE + n - 1]
            s[PILE + n - 1] = 0
            n -= 1
        s[PILE_LEN] = n
        s[DRAWN] = card
        s[PHASE] = PLACE
    elif code < _TAKE0:
        r = code - _PLACE0
        length = s[ROW_LEN + r]
        s[ROWS + 6 * r + length] = s[DRAWN]
        s[ROW_LEN + r] = length + 1
        s[DRAWN] = -1
        s[PHASE] = TURN
        p = _advance(s)
        if _must_leave(s):
            _leave(s, p, cnt)
    elif code < _CHOOSE0:
        r = code - _TAKE0
        seat = s[TO_MOVE]
        cb = COLL + 10 * seat
        rb = ROWS + 6 * r
        golden = False
        for i in range(s[ROW_LEN + r]):
            card = s[rb + i]
            s[cb + card] += 1
            s[rb + i] = 0
            if card == _GOLDEN:
                golden = True
        s[ROW_LEN + r] = 0
        s[ROW_TAKER + r] = seat
        if golden:
            _bonus(s, seat)
        if s[TAKES] == 0 and s[EXTRA] == FIRST_OUT_DRAWS:
            _bonus(s, seat)
        s[TAKES] += 1
        _leave(s, seat, cnt)


# ----- policies ------------------------------------------------------------------------------
@njit(cache=True)
def greedy_options(
    s: np.ndarray, codes: np.ndarray, k: int, out: np.ndarray, cnt: np.ndarray
) -> int:
    """The actions the engine's ``greedy`` agent (``agents.baseline.GreedyAgent``) chooses
    among uniformly, given the ``k`` legal ``codes``; written to ``out``, count returned.

    Place: the rows maximising score(collection + row + card) - score(collection + row).
    Turn: the takes maximising score(collection + row) - score(collection), if that gain is
    positive or drawing is illegal; otherwise draw. Golden joker bonuses are not counted.
    """
    if k == 1:
        out[0] = codes[0]
        return 1
    seat = s[TO_MOVE]
    if s[PHASE] == PLACE:
        card = s[DRAWN]
        best = -(1 << 30)
        m = 0
        for i in range(k):
            r = codes[i] - _PLACE0
            v = _score_plus_row(s, seat, r, card, cnt) - _score_plus_row(s, seat, r, -1, cnt)
            if v > best:
                best = v
                m = 0
            if v == best:
                out[m] = codes[i]
                m += 1
        return m
    has_draw = codes[0] == _DRAW
    first = 1 if has_draw else 0
    if first == k:
        out[0] = _DRAW
        return 1
    base = _score_plus_row(s, seat, -1, -1, cnt)
    best = -(1 << 30)
    m = 0
    for i in range(first, k):
        r = codes[i] - _TAKE0
        v = _score_plus_row(s, seat, r, -1, cnt) - base
        if v > best:
            best = v
            m = 0
        if v == best:
            out[m] = codes[i]
            m += 1
    if not has_draw or best > 0:
        return m
    out[0] = _DRAW
    return 1


@njit(cache=True)
def choose_action(
    s: np.ndarray,
    policy: int,
    rng: np.ndarray,
    codes: np.ndarray,
    opts: np.ndarray,
    cnt: np.ndarray,
) -> int:
    """One decision of ``policy`` (0 random: uniform over the legal codes, which is the
    benchmark policy; 1 greedy); -1 when there is no decision to make."""
    k = legal_codes(s, codes)
    if k == 0:
        return -1
    if policy == POLICY_GREEDY:
        m = greedy_options(s, codes, k, opts, cnt)
        return opts[below(rng, m)]
    return codes[below(rng, k)]


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
    ``GAME_END``); seat p uses policy ``pol[p]``."""
    while True:
        phase = s[PHASE]
        if phase != TURN and phase != PLACE:
            return
        code = choose_action(s, pol[s[TO_MOVE]], rng, codes, opts, cnt)
        apply_code(s, code, cnt)


@njit(cache=True)
def play_random(s: np.ndarray, rng: np.ndarray, codes: np.ndarray, cnt: np.ndarray) -> None:
    """The benchmark policy to the end of the current game: at each decision a uniform
    choice among the legal codes ({draw if legal} U {take r}; after a draw, the rows)."""
    while True:
        phase = s[PHASE]
        if phase != TURN and phase != PLACE:
            return
        k = legal_codes(s, codes)
        apply_code(s, codes[below(rng, k)], cnt)


@njit(cache=True)
def rollouts(base: np.ndarray, n: int, seed: np.uint64, policy: int, out: np.ndarray) -> None:
    """``n`` independent playouts of ``policy`` (every seat) from ``base`` (unchanged) to the
    end of its current game; ``out[i, p]`` = seat p's score of that game."""
    s = np.empty_like(base)
    rng = np.empty(1, np.uint64)
    codes = np.empty(20, np.int32)
    opts = np.empty(20, np.int32)
    cnt = np.empty(10, np.int64)
    pol = np.full(5, policy, np.int32)
    players = base[N]
    for i in range(n):
        seed_rng(rng, seed, np.uint64(i))
        s[:] = base
        if policy == 0:
            play_random(s, rng, codes, cnt)
        else:
            play_game(s, pol, rng, codes, opts, cnt)
        for p in range(players):
            out[i, p] = seat_score(s, p, cnt)


# ----- dealing -------------------------------------------------------------------------------
@njit(cache=True)
def deal(s: np.ndarray, rng: np.ndarray, removed_fixed: int, first_fixed: int) -> None:
    """Deal a new game into ``s`` (docs/rules.md §2), keeping its rule cells, ``GAME`` and
    ``TOTALS``: remove colours (bit mask ``removed_fixed``, or at random when -1), give each
    seat distinct starting colours at random, shuffle the rest with the jokers (and golden
    joker) and "+2" cards, put the Last Round card with K cards under it, choose the first
    player (``first_fixed`` or at random when -1). Starting cards chosen by random or greedy
    players (``starting_cards="choose"``; both choose uniformly) have the same distribution
    as dealt ones, so this deal serves both modes."""
    n = s[N]
    # reset the dynamic cells
    for i in range(ROW_LEN, TOTALS):
        s[i] = 0
    for i in range(CHOSEN, s.shape[0]):
        s[i] = 0
    for r in range(s[NROWS]):
        s[ROW_TAKER + r] = -1
    s[DRAWN] = -1
    s[LAST_ROUND] = 0
    s[ROUND] = 1
    s[ACTIVE] = n
    s[TAKES] = 0
    s[REMOVED_LEN] = 0
    s[CHOSEN_LEN] = 0
    colors = np.arange(7)
    n_removed = 2 if n == 2 else (1 if n == 3 else 0)
    if removed_fixed >= 0:
        mask = 127 & ~removed_fixed
    else:
        for i in range(n_removed):
            j = i + below(rng, 7 - i)
            t = colors[i]
            colors[i] = colors[j]
            colors[j] = t
        mask = 127
        for i in range(n_removed):
            mask &= ~(1 << colors[i])
    s[INPLAY] = mask
    in_play = np.empty(7, np.int64)
    m = 0
    for c in range(7):
        if (mask >> c) & 1:
            in_play[m] = c
            m += 1
    first = first_fixed if first_fixed >= 0 else below(rng, n)
    each = s[EACH]
    picks = n * each
    for i in range(picks):
        j = i + below(rng, m - i)
        t = in_play[i]
        in_play[i] = in_play[j]
        in_play[j] = t
    counts = np.zeros(10, np.int64)
    for i in range(m):
        counts[in_play[i]] = 9
    for i in range(picks):
        c = in_play[i]
        s[COLL + 10 * (i // each) + c] += 1
        counts[c] -= 1
    if s[EDITION] == 0:
        counts[_JOKER] = 3
        under = 15
    else:
        counts[_JOKER] = 2
        counts[_GOLDEN] = 1
        under = 16
    counts[_PLUS2] = 10
    cards = np.empty(80, np.int32)
    total = 0
    for c in range(10):
        for _ in range(counts[c]):
            cards[total] = c
            total += 1
    for i in range(total - 1, 0, -1):
        j = below(rng, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    depth = min(total, under)
    p = 0
    for i in range(total + 1):
        if i == depth:
            s[PILE + i] = _LAST
        else:
            s[PILE + i] = cards[p]
            p += 1
    s[PILE_LEN] = total + 1
    s[TO_MOVE] = first
    s[LAST_TAKER] = first
    s[PHASE] = TURN


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
    """Play games ``first_game .. first_game + count - 1`` (each a whole match when
    ``MATCH_GAMES`` > 1), game g dealt and played from its own random stream (seed, g) so
    any game can be rerun alone; ``out[i, p]`` = seat p's final (match) total."""
    s = template.copy()
    rng = np.empty(1, np.uint64)
    codes = np.empty(20, np.int32)
    opts = np.empty(20, np.int32)
    cnt = np.empty(10, np.int64)
    players = template[N]
    all_random = True
    for p in range(players):
        if pol[p] != 0:
            all_random = False
    for i in range(count):
        seed_rng(rng, seed, np.uint64(first_game + i))
        s[:] = template
        for p in range(players):
            s[TOTALS + p] = 0
        for g in range(template[MATCH_GAMES]):
            s[GAME] = g
            deal(s, rng, removed_fixed, first_fixed)
            if all_random:
                play_random(s, rng, codes, cnt)
            else:
                play_game(s, pol, rng, codes, opts, cnt)
        for p in range(players):
            out[i, p] = s[TOTALS + p]


@njit(cache=True)
def bench_random(template: np.ndarray, seed: np.uint64, games: int) -> float:
    """Deal and play ``games`` games with the benchmark policy (as ``limit.c`` does: shuffle,
    play, optimal final scoring); return the sum of the winners' scores."""
    s = template.copy()
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed, np.uint64(0))
    codes = np.empty(20, np.int32)
    cnt = np.empty(10, np.int64)
    players = template[N]
    total = 0.0
    for _ in range(games):
        s[:] = template
        deal(s, rng, -1, -1)
        play_random(s, rng, codes, cnt)
        win = -(1 << 30)
        for p in range(players):
            v = seat_score(s, p, cnt)
            win = max(win, v)
        total += win
    return total
