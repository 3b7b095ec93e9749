"""Python API of the fast core: conversions to and from the engine, checked transitions,
scores and playouts.

What is supported, exactly:

* ``encode`` accepts every ``GameState`` (every preset, player count and option, matches,
  all four decisions) and ``decode(encode(s)) == s`` holds for all of them.
* The compiled kernels play TURN and PLACE decisions (draw incl. the Last Round card, place,
  take incl. the golden joker and ``first_out_draws`` bonuses, round end with either
  next-round starter, the §5.3 empty-pile leaving, game end with optimal scoring).
* Two transitions are delegated to the engine by ``fast_apply`` (so a ``FastState`` can
  still be driven through a whole match, whatever its setups say): choosing starting colours
  (``starting_cards="choose"``: the pile is shuffled from the setup's seed) and the deal of
  the next game of a match (``match_games`` > 1). The compiled playouts (``rollout_scores``)
  stop at the end of the **current game**. (The batch simulator deals and chooses in the
  compiled core: ``kernels.deal`` and ``kernels.choose_color``, twins of the engine's.)
"""

from __future__ import annotations

import logging
import struct
import threading
import time
from collections.abc import Sequence
from typing import Final

import numpy as np

from ..engine.errors import IllegalActionError
from ..engine.rules import Rules
from ..engine.state import GameState
from . import kernels as K
from . import layout as L

__all__ = [
    "FastState",
    "decode",
    "encode",
    "fast_apply",
    "fast_legal_codes",
    "fast_scores",
    "rollout_scores",
    "rules_template",
    "warmup",
]

_MASK64: Final = (1 << 64) - 1


class FastState:
    """A game state in the fast core's array encoding.

    Attributes:
        a: the state, one ``int32`` array of ``layout.SIZE`` cells (see ``layout``); the
            compiled kernels read and change it in place.
        like: a ``GameState`` of the same game that supplies what the array does not hold
            (the ``Rules`` object and the setups of the match) for ``decode`` and for the
            transitions delegated to the engine. Only its constant parts are used.
    """

    __slots__ = ("a", "like")

    def __init__(self, a: np.ndarray, like: GameState) -> None:
        self.a = a
        self.like = like

    def copy(self) -> FastState:
        """An independent copy (the array is copied; ``like`` is shared)."""
        return FastState(self.a.copy(), self.like)

    @property
    def phase(self) -> int:
        """``TURN`` 0, ``PLACE`` 1, ``CHOOSE`` 2, ``OVER`` 3 (engine values)."""
        return int(self.a[L.PHASE])

    @property
    def to_move(self) -> int:
        """Seat to decide, -1 when over."""
        return int(self.a[L.TO_MOVE])

    def is_over(self) -> bool:
        """True when the game (every game of a match) has ended."""
        return int(self.a[L.PHASE]) == L.OVER

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FastState):
            return NotImplemented
        return bool(np.array_equal(self.a, other.a))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        a = self.a
        return (
            f"<FastState players={a[L.N]} game={a[L.GAME] + 1} round={a[L.ROUND]} "
            f"phase={a[L.PHASE]} to_move={a[L.TO_MOVE]} pile={a[L.PILE_LEN]}>"
        )


_TEMPLATES: dict[Rules, np.ndarray] = {}
_MASKS: dict[tuple[int, ...], int] = {}
_ZEROS: Final = [0] * L.MAX_PILE
_HEADS: dict[Rules, list[int]] = {}
_PACK: Final = struct.Struct(f"={L.SIZE}i")


def rules_template(rules: Rules) -> np.ndarray:
    """The rule cells of a fast state for ``rules`` (every other cell zero; ``INPLAY``
    holds every colour). Cached per ``Rules`` value; do not modify the returned array.

    Shape: ``int32[layout.SIZE]``.
    """
    tpl = _TEMPLATES.get(rules)
    if tpl is not None:
        return tpl
    a = np.zeros(L.SIZE, np.int32)
    caps = rules.capacities
    a[L.N] = rules.players
    a[L.NROWS] = len(caps)
    a[L.EXTRA] = L.EXTRA_CODES[rules.extra_card]
    a[L.STARTER] = L.STARTER_CODES[rules.next_round_starter]
    a[L.JOKER_ANY] = 1 if rules.joker_any_color else 0
    a[L.NEG] = rules.negative_factor
    a[L.INPLAY] = L.ALL_COLORS
    a[L.MATCH_GAMES] = rules.match_games
    a[L.EACH] = rules.starting_cards_each
    a[L.JOKERS] = rules.jokers
    a[L.GOLDEN_JOKERS] = rules.golden_jokers
    a[L.UNDER] = rules.cards_under_last_round
    a[L.COLORS_REMOVED] = rules.colors_removed
    a[L.STARTING] = L.STARTING_CODES[rules.starting_cards]
    table = rules.score_table
    if len(table) != L.TABLE_CELLS:
        raise ValueError(f"the fast core needs a {L.TABLE_CELLS}-entry score table, not {table!r}")
    a[L.TABLE : L.TABLE + L.TABLE_CELLS] = table
    a[L.CAPS : L.CAPS + len(caps)] = caps
    a.setflags(write=False)
    _TEMPLATES[rules] = a
    return a


def encode(state: GameState) -> FastState:
    """The fast encoding of ``state`` (any phase, any rules). Cost: a few microseconds.

    Raises:
        ValueError: the state does not fit the layout (more than 80 cards in the pile, a
            row holding more than 6 cards: impossible under ``Rules`` validation).
    """
    head = _HEADS.get(state.rules)
    if head is None:
        head = _HEADS[state.rules] = rules_template(state.rules)[: L.ROW_LEN].tolist()
    cells = head[:]
    cells[L.PHASE : L.LAST_TAKER + 1] = (
        state.phase,
        state.to_move,
        state.drawn,
        int(state.last_round),
        state.round,
        state.game,
        state.active,
        state.takes,
        state.last_taker,
    )
    mask = _MASKS.get(state.in_play)
    if mask is None:
        mask = _MASKS[state.in_play] = sum(1 << c for c in set(state.in_play))
    cells[L.INPLAY] = mask
    pile = state.pile
    removed = state.removed
    chosen = state.chosen
    cells[L.PILE_LEN] = len(pile)
    cells[L.REMOVED_LEN] = len(removed)
    cells[L.CHOSEN_LEN] = len(chosen)
    n = state.n
    rows = state.rows
    pad = _ZEROS
    spare = L.MAX_ROWS - state.nrows
    cells += [len(r) for r in rows]
    cells += pad[:spare]
    cells += state.row_taker
    cells += pad[:spare]
    for r in rows:
        cells += r
        cells += pad[: L.ROW_CELLS - len(r)]
    cells += pad[: L.ROW_CELLS * spare]
    cells += state.out
    cells += pad[: L.MAX_SEATS - n]
    for c in state.coll:
        cells += c
    cells += pad[: L.COLL_CELLS * (L.MAX_SEATS - n)]
    cells += state.match_totals
    cells += pad[: L.MAX_SEATS - n]
    cells += chosen
    cells += pad[: L.MAX_CHOSEN - len(chosen)]
    cells += pile
    cells += pad[: L.MAX_PILE - len(pile)]
    cells += removed
    cells += pad[: L.MAX_REMOVED - len(removed)]
    a = np.empty(L.SIZE, np.int32)
    _PACK.pack_into(a, 0, *cells)  # type: ignore[arg-type]  # numpy arrays are buffers
    return FastState(a, state)


def decode(fs: FastState, like: GameState | None = None) -> GameState:
    """The engine ``GameState`` of ``fs``; ``like`` (default ``fs.like``) supplies the rules
    and setups. ``decode(encode(s)) == s`` for every state ``s``.

    Raises:
        ValueError: ``fs`` is at the fast-core-only ``GAME_END`` phase (the next game of
            the match is not dealt yet: use ``fast_apply``, which lets the engine deal it).
    """
    base = fs.like if like is None else like
    v = fs.a.tolist()
    if v[L.PHASE] == L.GAME_END:
        raise ValueError("a fast state between two games of a match has no engine form")
    st = base.copy()
    n = v[L.N]
    nrows = v[L.NROWS]
    st.phase = v[L.PHASE]
    st.to_move = v[L.TO_MOVE]
    st.drawn = v[L.DRAWN]
    st.last_round = bool(v[L.LAST_ROUND])
    st.round = v[L.ROUND]
    st.game = v[L.GAME]
    st.active = v[L.ACTIVE]
    st.takes = v[L.TAKES]
    st.last_taker = v[L.LAST_TAKER]
    mask = v[L.INPLAY]
    st.in_play = tuple(c for c in range(L.NUM_COLORS) if (mask >> c) & 1)
    st.pile = v[L.PILE : L.PILE + v[L.PILE_LEN]]
    st.removed = v[L.REMOVED : L.REMOVED + v[L.REMOVED_LEN]]
    st.chosen = v[L.CHOSEN : L.CHOSEN + v[L.CHOSEN_LEN]]
    st.rows = [
        v[L.ROWS + L.ROW_CELLS * r : L.ROWS + L.ROW_CELLS * r + v[L.ROW_LEN + r]]
        for r in range(nrows)
    ]
    st.row_taker = v[L.ROW_TAKER : L.ROW_TAKER + nrows]
    st.out = [bool(x) for x in v[L.OUT : L.OUT + n]]
    st.coll = [v[L.COLL + L.COLL_CELLS * p : L.COLL + L.COLL_CELLS * (p + 1)] for p in range(n)]
    st.match_totals = v[L.TOTALS : L.TOTALS + n]
    return st


_codes_buf = np.empty(L.NUM_DISTINCT_ACTIONS, np.int32)
_cnt_buf = np.empty(L.COLLECTION_SIZE, np.int64)


def fast_legal_codes(fs: FastState) -> list[int]:
    """Legal action codes of ``fs``, ascending (as ``GameState.legal_codes``)."""
    k = K.legal_codes(fs.a, _codes_buf)
    codes: list[int] = _codes_buf[:k].tolist()
    return codes


def fast_apply(fs: FastState, code: int, check: bool = True) -> None:
    """Apply action ``code`` to ``fs`` in place (as ``GameState.apply``).

    TURN/PLACE actions run in the compiled core. Choosing a starting colour, and the
    transition that ends a game of a match with more games to come, are applied by the
    engine (decode, apply, encode) since they deal cards from Python's generator.

    Raises:
        IllegalActionError: ``check`` is true and ``code`` is not legal (the engine's
            message and rule); ``fs`` is unchanged.
    """
    a = fs.a
    code = int(code)
    if check and code not in fast_legal_codes(fs):
        decode(fs).apply(code)  # raises the engine's precise IllegalActionError
        raise IllegalActionError(f"action code {code} is not legal", "§3")  # pragma: no cover
    if a[L.PHASE] == L.CHOOSE:
        _engine_apply(fs, a.copy(), code)
        return
    old = a.copy()
    K.apply_code(a, code, _cnt_buf)
    if a[L.PHASE] == L.GAME_END:
        _engine_apply(fs, old, code)


def _engine_apply(fs: FastState, before: np.ndarray, code: int) -> None:
    st = decode(FastState(before, fs.like))
    st.apply_code(code)
    fs.a[:] = encode(st).a


def fast_scores(fs: FastState) -> list[int]:
    """Every seat's live optimal score of its current collection (``GameState.scores``)."""
    a = fs.a
    return [int(K.seat_score(a, p, _cnt_buf)) for p in range(int(a[L.N]))]


def rollout_scores(
    state: GameState | FastState, seed: int, n: int = 1, policy: str = "random"
) -> np.ndarray:
    """``n`` independent playouts from a fully determined state (e.g. one sampled from an
    observation) to the end of the current game.

    Args:
        state: a ``GameState`` (or a ``FastState``) at a TURN or PLACE decision, or over.
        seed: any integer; playout ``i`` draws its random numbers from
            ``Rng(derive_seed(seed, GAME, i))`` (``engine.seeds``), so it is the game
            ``agents.mcts.engine_rollout(policy)`` plays from ``state`` with that generator.
        n: number of playouts, >= 1.
        policy: ``"random"`` (uniform among the legal actions at every decision,
            ``codes[rng.below(k)]``, no random number when only one action is legal) or
            ``"greedy"`` (every seat plays the engine's reference greedy policy,
            ``engine.policy.greedy_code``: take the row with the best positive gain of its
            own optimal score, else draw; place the card where it adds most to that row's
            gain; one ``below`` over tied candidates).

    Returns:
        ``int64`` array of shape ``(n, players)``: each seat's final score of the current
        game in each playout (a finished state: its current scores, repeated).

    Raises:
        ValueError: bad ``n`` or ``policy``, a ``choose_start`` state (starting colours are
            chosen before the pile exists), or a state between two games of a match.
    """
    if policy not in L.POLICIES:
        raise ValueError(f"unknown rollout policy {policy!r}; known: {', '.join(L.POLICIES)}")
    if type(n) is not int or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    fs = state if isinstance(state, FastState) else encode(state)
    a = fs.a
    phase = int(a[L.PHASE])
    players = int(a[L.N])
    out = np.empty((n, players), np.int64)
    if phase == L.OVER:
        out[:] = np.array(fast_scores(fs), np.int64)
        return out
    if phase not in (L.TURN, L.PLACE):
        raise ValueError(
            f"rollouts start at a turn or place decision, not phase {phase} "
            "(choose the starting colours with the engine first)"
        )
    K.rollouts(a, n, np.uint64(seed & _MASK64), L.POLICIES[policy], out)
    return out


_WARM: dict[str, float] = {}
_WARM_LOCK = threading.Lock()


def warmup(announce: bool = True, mark: bool = True) -> float:
    """Compile (or load from the on-disk cache) every kernel of the fast core's
    ``transitions`` part by calling it once on a small game. Returns the seconds it took the
    first time in this process (later calls return that figure without doing anything).
    Thread-safe.

    When the cache is cold (``coloretto.fastcore.cache.is_warm``) and ``announce`` is true,
    ``cache.cold_message()`` is logged first (logger ``coloretto.fastcore``, level WARNING: on
    standard error when logging is not configured); after a complete warm-up of a cold cache
    the part's marker is written when ``mark`` is true, so later processes know they will not
    compile (``coloretto warmup`` passes ``False`` and writes every part's marker itself).
    """
    with _WARM_LOCK:
        if "seconds" not in _WARM:
            _WARM["seconds"] = _warm_all(announce, mark)
    return _WARM["seconds"]


def _warm_all(announce: bool, mark: bool) -> float:
    from ..engine.state import new_game
    from .cache import cold_message, is_warm, mark_warm

    cold = (announce or mark) and not is_warm()
    if cold and announce:
        logging.getLogger("coloretto.fastcore").warning(cold_message())
    t0 = time.perf_counter()
    for rules in (Rules(players=4), Rules(players=2, edition="modern", match_games=2)):
        st = new_game(rules, 1)
        fs = encode(st)
        fast_legal_codes(fs)
        fast_apply(fs, fast_legal_codes(fs)[0], check=True)
        fast_scores(fs)
        decode(fs)
        rollout_scores(st, 1, 1, "random")
        rollout_scores(st, 1, 1, "greedy")
    from .batch import _run_chunk

    _run_chunk(rules_template(Rules(players=4)), 1, 0, 1, np.zeros(4, np.int32), -1, -1)
    tpl = rules_template(Rules(players=4)).copy()
    K.bench_random(tpl, np.uint64(1), 1)
    counts_total([1, 0, 0, 0, 0, 0, 0, 1, 0, 0], tpl)
    opts = np.empty(L.NUM_DISTINCT_ACTIONS, np.int32)
    K.greedy_options(fs.a, _codes_buf, K.legal_codes(fs.a, _codes_buf), opts, _cnt_buf)
    rng = np.empty(1, np.uint64)
    K.rng_seed(rng, np.uint64(1))
    K.below(rng, 3)
    K.random(rng)
    K.choose_action(fs.a, L.POLICY_GREEDY, rng, _codes_buf, opts, _cnt_buf)
    K.derive_seed(np.uint64(1), np.zeros(1, np.int64))
    K.compiled_constants(np.empty(len(K.CHECKED_NAMES) + 4, np.int64))
    seconds = time.perf_counter() - t0
    if cold and mark:
        mark_warm(seconds)
    return seconds


def legal_options_greedy(fs: FastState) -> list[int]:
    """The codes the ``greedy`` policy picks among uniformly at this decision (for tests)."""
    k = K.legal_codes(fs.a, _codes_buf)
    opts = np.empty(L.NUM_DISTINCT_ACTIONS, np.int32)
    m = K.greedy_options(fs.a, _codes_buf, k, opts, _cnt_buf)
    options: list[int] = opts[:m].tolist()
    return options


def counts_total(counts: Sequence[int], template: np.ndarray) -> int:
    """Optimal score of a 10-count collection under the rule cells of ``template`` (for
    tests and tools; ``template`` a fast state array, e.g. ``rules_template(rules)`` with
    its ``INPLAY`` mask set)."""
    return int(K.counts_score(np.array(template, np.int32), np.asarray(counts, np.int64)))
