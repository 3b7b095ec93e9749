"""``mcts`` and ``oracle``: Monte Carlo tree search over the real game.

**Information-set MCTS with determinization.** Coloretto hides only the order of the draw
pile. Each iteration samples a full state from the observation
(``Observation.sample_state``: the unseen cards shuffled, the Last Round card at its known
depth) and walks one shared tree with it:

* Decision nodes hold the seat to move and per-action statistics (visits, summed reward
  *for that seat*): every seat maximises its own reward (a max-n tree). Legal actions
  depend only on public information, so they are the same in every sample.
* Chance is handled by the samples: after ``draw`` the child is chosen by the card the
  sampled pile reveals, so each drawn card gets its own place-decision node.
* Selection: PUCT, ``q + c * prior * sqrt(N) / (1 + n)``, with priors from the
  ``heuristic``'s action values (softmax, temperature ``prior_temp`` points) at nodes
  visited ``prior_min_visits`` times (cheap nodes get uniform priors).
* Expansion: one node per iteration; then a **rollout** to the end of the game.
* Reward of a seat: ``(1 - margin_weight) * win + margin_weight * squash(margin)`` where
  ``win`` is 1 for a sole winner, ``1/k`` for a k-way tie, 0 otherwise, and ``margin`` is
  its final score minus the best other seat's, squashed to [0, 1] by
  ``0.5 + margin / (2 * margin_scale)`` (clipped).
* The action played is the root's most visited one.

**Rollouts** are pluggable (``RolloutFn``): ``coloretto.fastcore.rollout_scores`` (Numba)
when it imports and the state is the last game of its match, else a pure-engine playout;
``MCTSAgent(engine_only=True)`` forces the engine (for ``benchmarks/mcts_speed.py``). The
default rollout policy is ``"hybrid"`` (``SearchParams.policy``): ``"threshold"`` to the end
of the current round (``greedy``, but a row is taken only when its gain reaches a threshold
that falls as the rows fill), then ``"greedy"`` (the engine's reference policy,
``coloretto.engine.policy.greedy_code``: each seat takes its best positive-gain row or draws,
and places where the card helps it most) to the end of the game; ``"threshold"``,
``"greedy"`` and ``"random"`` can be chosen alone (``ROLLOUT_POLICIES``).

**The search in four named parts**, one iteration each: ``select`` (PUCT at a node),
``expand`` (one new node), ``evaluate`` (the rollout) and ``backup`` (rewards up the
path); ``descend`` chains selection and expansion from the root. **Defaults**: a budget of
``DEFAULT_SECONDS`` (0.5 s) per decision when the ``Budget`` names none, the ``SearchParams``
defaults below, the ``hybrid`` rollout policy.

**Determinism.** Each decision seeds its generator from the agent's seed and a digest of the
observation (``decision_rng``: ``Rng(derive_seed(seed, DECISION, digest))``), so the same
seed and the same observation give the same action under an iteration budget (a seconds
budget depends on the machine's speed). The search never sees the real draw pile order: the
observation's pile is redacted and samples are reshuffled.

``OracleAgent`` (measurement only, ``needs_true_state``) runs the same search on the true
state passed to ``peek`` instead of samples.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.observation import Observation
from ..engine.policy import greedy_code
from ..engine.rules import Rules
from ..engine.seeds import DECISION, Rng, derive_seed
from ..engine.state import OVER, PLACE, TURN, UNTAKEN, GameState
from .base import Agent, Budget, SeesTrueState
from .features import collection_value
from .heuristic import heuristic_scores, params_for

__all__ = [
    "V1_PARAMS",
    "MCTSAgent",
    "MCTSv1Agent",
    "OracleAgent",
    "SearchParams",
    "SearchResult",
    "backup",
    "descend",
    "engine_rollout",
    "evaluate",
    "expand",
    "fast_rollout_available",
    "search",
    "select",
]

DEFAULT_SECONDS = 0.5
"""Seconds per decision when the budget names none."""

RolloutFn = Callable[[GameState, Rng], list[int]]
"""``rollout(state, rng) -> totals``: play the fully determined ``state`` to the end (it may
be changed) and return each seat's final total."""


# ----- rollouts ---------------------------------------------------------------------------
def _threshold_code(s: GameState, codes: list[int], rng: Rng) -> int:
    """The ``threshold`` rollout policy: like ``greedy`` but a row is taken only when its
    gain reaches ``THRESHOLD_A * (1 - fill) + THRESHOLD_B`` points, ``fill`` being the filled
    fraction of the open rows' capacity (or when drawing is illegal)."""
    if s.phase == PLACE:
        return greedy_code(s, rng, codes)
    seat = s.to_move
    base = collection_value(s, seat)
    rows = s.rows
    best = -1
    best_g = -1e9
    for c in codes:
        if c >= A.TAKE0:
            g = collection_value(s, seat, rows[c - A.TAKE0]) - base
            if g > best_g:
                best, best_g = c, g
    if codes[0] != A.DRAW:
        return best
    if best < 0:
        return A.DRAW
    filled = cap = 0
    caps = s.caps
    taker = s.row_taker
    for r in range(s.nrows):
        if taker[r] == UNTAKEN:
            filled += len(rows[r])
            cap += caps[r]
    if best_g >= THRESHOLD_A * (1.0 - filled / cap) + THRESHOLD_B:
        return best
    return A.DRAW


THRESHOLD_A = 6.0
THRESHOLD_B = 1.0
ROLLOUT_POLICIES = ("hybrid", "threshold", "greedy", "random")
"""Rollout policies: ``hybrid`` plays ``threshold`` to the end of the current round, then
``greedy`` (in the fast core when available) to the end of the game."""


def engine_rollout(policy: str = "threshold") -> RolloutFn:
    """A pure-engine rollout with ``policy`` in ``ROLLOUT_POLICIES`` (``hybrid`` plays
    ``threshold`` for the current round and ``greedy`` after it).

    Raises:
        ValueError: unknown policy.
    """
    if policy not in ROLLOUT_POLICIES:
        raise ValueError(f"unknown rollout policy {policy!r}; known: {', '.join(ROLLOUT_POLICIES)}")

    def rollout(s: GameState, rng: Rng) -> list[int]:
        pol = policy
        rnd = s.round
        game = s.game
        while s.phase != OVER:
            if pol == "hybrid" and (s.round != rnd or s.game != game):
                pol = "greedy"
            codes = s.legal_codes()
            if len(codes) == 1:
                s.apply_code(codes[0])
            elif pol == "random" or not (s.phase == TURN or s.phase == PLACE):
                s.apply_code(codes[rng.below(len(codes))])
            elif pol == "greedy":
                s.apply_code(greedy_code(s, rng, codes))
            else:
                s.apply_code(_threshold_code(s, codes, rng))
        return s.totals()

    return rollout


def _fast_rollout_fn() -> Callable[..., object] | None:
    try:
        from ..fastcore import rollout_scores, warmup

        # Compiles every kernel the first time (with a notice when the cache is cold, see
        # coloretto.fastcore.cache), so the cache is complete; later calls return at once.
        warmup()
    except Exception:  # noqa: BLE001 - any failure (no numba, broken build) means "not available"
        return None
    return rollout_scores


def _warmup_fast_core() -> None:
    try:
        from ..fastcore import warmup
    except Exception:  # noqa: BLE001 - see _fast_rollout_fn
        return
    warmup()


def fast_rollout_available() -> bool:
    """True when ``coloretto.fastcore.rollout_scores`` imports (the ``fast`` extra)."""
    return _fast_rollout_fn() is not None


def fast_rollout(policy: str = "hybrid") -> RolloutFn | None:
    """A rollout using ``coloretto.fastcore.rollout_scores``, or ``None`` when unavailable
    or when the fast core lacks ``policy`` (``threshold``). ``hybrid`` plays the current
    round in the engine (``threshold``) and the rest in the fast core (``greedy``). Matches
    (a game that is not the last) and ``choose_start`` decisions use the engine rollout."""
    fn = _fast_rollout_fn()
    if fn is None or policy == "threshold":
        return None
    fallback = engine_rollout("greedy" if policy == "hybrid" else policy)
    fast_policy = "greedy" if policy == "hybrid" else policy

    def rollout(s: GameState, rng: Rng) -> list[int]:
        if policy == "hybrid":
            rnd = s.round
            while s.phase != OVER and s.round == rnd:
                codes = s.legal_codes()
                if len(codes) == 1:
                    s.apply_code(codes[0])
                elif s.phase == TURN or s.phase == PLACE:
                    s.apply_code(_threshold_code(s, codes, rng))
                else:
                    s.apply_code(codes[rng.below(len(codes))])
        if s.phase not in (TURN, PLACE) or s.game + 1 < s.rules.match_games:
            return fallback(s, rng)
        scores = fn(s, rng.next_u64(), 1, fast_policy)
        row = scores[0]  # type: ignore[index]
        return [int(t) + int(v) for t, v in zip(s.match_totals, row)]

    return rollout


# ----- the search -------------------------------------------------------------------------
@dataclass(frozen=True)
class SearchParams:
    """Settings of the search (defaults tuned against ``heuristic``; docs/agents.md).

    Attributes:
        c_puct: exploration constant of PUCT (rewards are in [0, 1]).
        margin_weight: weight of the squashed score margin in the reward (the rest is the
            win indicator).
        margin_scale: points of margin that map to reward 1 (or 0).
        prior_temp: softmax temperature of the heuristic priors, in points; 0 = uniform.
        prior_min_visits: a node gets heuristic priors once it is visited this often.
        policy: rollout policy, one of ``ROLLOUT_POLICIES`` (default ``"hybrid"``).
        engine_only: never use the fast core.
        prior_heuristic: which weights of the heuristic give the priors, one of
            ``heuristic.PARAMS_VERSIONS``: ``"current"`` (``params_for(state)``) or the
            frozen ``"v1"`` (``mcts-v1``).
    """

    c_puct: float = 1.0
    margin_weight: float = 0.3
    margin_scale: float = 20.0
    prior_temp: float = 3.0
    prior_min_visits: int = 2
    policy: str = "hybrid"
    engine_only: bool = False
    prior_heuristic: str = "current"


class _Node:
    __slots__ = ("codes", "kids", "margin", "n", "prior", "seat", "total", "w", "win")

    def __init__(self, seat: int, codes: list[int]) -> None:
        self.seat = seat
        self.codes = codes
        k = len(codes)
        self.n = [0] * k
        self.w = [0.0] * k
        self.win = [0.0] * k
        self.margin = [0.0] * k
        self.kids: dict[int, _Node] = {}
        self.total = 0
        self.prior: list[float] | None = None


@dataclass
class SearchResult:
    """Root statistics of a search, per legal action code of the searching seat.

    Attributes:
        codes: the root's legal action codes.
        visits: iterations through each action.
        win: mean win indicator (ties split) of the root seat after each action.
        margin: mean final margin (score minus best other score) after each action.
        iterations: iterations run; seconds: time taken.
        margin_sd: sample standard deviation (divisor ``visits - 1``) of the final margins
            after each action, 0.0 with fewer than two visits.
    """

    codes: list[int]
    visits: list[int]
    win: list[float]
    margin: list[float]
    iterations: int = 0
    seconds: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)
    margin_sd: list[float] = field(default_factory=list)

    def best(self) -> int:
        """The most visited action code (ties: higher win rate, then lower code)."""
        i = max(range(len(self.codes)), key=lambda j: (self.visits[j], self.win[j], -self.codes[j]))
        return self.codes[i]


def _priors(s: GameState, codes: list[int], temp: float, version: str = "current") -> list[float]:
    """Softmax at ``temp`` points of the heuristic's values of ``codes`` for the seat to move,
    with the heuristic's weights of ``version`` (``heuristic.params_for``); one probability
    per code, in the order of ``codes``."""
    scores = heuristic_scores(s, s.to_move, codes, params_for(s, version))
    m = max(scores.values())
    ex = [math.exp((scores[c] - m) / temp) for c in codes]
    z = sum(ex)
    return [e / z for e in ex]


@dataclass
class _Tree:
    """One search's tree and the settings its four parts read."""

    root: _Node
    params: SearchParams
    margin_sq: list[float]

    @property
    def scale(self) -> float:
        return 2.0 * self.params.margin_scale


def select(tree: _Tree, node: _Node, s: GameState, forced: int | None) -> int:
    """**Selection**: the index of the action to follow at ``node`` in the sampled state
    ``s``: ``forced`` when given (the root's first visits), the only action, else the
    highest PUCT value ``q + c_puct * prior * sqrt(N + 1) / (1 + n)`` (``q`` = 0.5 for an
    unvisited action; heuristic priors once the node has ``prior_min_visits`` visits and
    ``prior_temp`` > 0, else uniform). Ties go to the lowest index."""
    if forced is not None:
        return forced
    nk = len(node.codes)
    if nk == 1:
        return 0
    params = tree.params
    if node.prior is None and params.prior_temp > 0 and node.total >= params.prior_min_visits:
        node.prior = _priors(s, node.codes, params.prior_temp, params.prior_heuristic)
    pr = node.prior
    sq = math.sqrt(node.total + 1)
    c_puct = params.c_puct
    ns, w = node.n, node.w
    best_i = 0
    best_v = -1e18
    for j in range(nk):
        nj = ns[j]
        q = w[j] / nj if nj else 0.5
        p = pr[j] if pr is not None else 1.0 / nk
        v = q + c_puct * p * sq / (1 + nj)
        if v > best_v:
            best_v, best_i = v, j
    return best_i


def expand(node: _Node, code: int, s: GameState) -> _Node | None:
    """**Expansion**: the child of ``node`` reached by ``code`` in ``s`` (already applied),
    or ``None`` after adding it (one new node per iteration). After a draw the chance
    outcome picks the child: one per drawn card, keyed past the action codes."""
    key = code if code != A.DRAW else A.NUM_DISTINCT_ACTIONS + s.drawn
    child = node.kids.get(key)
    if child is None:
        node.kids[key] = _Node(s.to_move, s.legal_codes())
    return child


def descend(tree: _Tree, s: GameState, forced: int | None) -> list[tuple[_Node, int]]:
    """Selection and expansion of one iteration: walk from the root, applying each selected
    action to ``s``, until the game ends or a new node is added. Returns the path (node,
    action index); ``s`` is left at the leaf."""
    node = tree.root
    path: list[tuple[_Node, int]] = []
    while True:
        i = select(tree, node, s, forced if node is tree.root else None)
        code = node.codes[i]
        path.append((node, i))
        s.apply_code(code)
        if s.phase == OVER:
            return path
        child = expand(node, code, s)
        if child is None:
            return path
        node = child


def evaluate(s: GameState, rollout: RolloutFn, rng: Rng) -> list[int]:
    """**Evaluation**: each seat's final total from the leaf ``s``: the totals of a finished
    game, else a rollout to the end (the rollout policy, ``SearchParams.policy``)."""
    return rollout(s, rng) if s.phase != OVER else s.totals()


def backup(tree: _Tree, path: list[tuple[_Node, int]], totals: list[int]) -> None:
    """**Backup**: add the iteration's reward to every (node, action) of ``path``, each from
    the point of view of the node's seat (module docstring: win share and squashed margin);
    the root also keeps the raw win share and margin (``SearchResult``)."""
    best = max(totals)
    nwin = sum(1 for t in totals if t == best)
    mw = tree.params.margin_weight
    scale = tree.scale
    root = tree.root
    for node, i in path:
        p = node.seat
        tp = totals[p]
        other = max(t for q, t in enumerate(totals) if q != p)
        win = (1.0 / nwin) if tp == best else 0.0
        margin = tp - other
        sq_m = 0.5 + margin / scale
        sq_m = 0.0 if sq_m < 0.0 else (min(sq_m, 1.0))
        node.n[i] += 1
        node.total += 1
        node.w[i] += (1.0 - mw) * win + mw * sq_m
        if node is root:
            root.win[i] += win
            root.margin[i] += margin
            tree.margin_sq[i] += margin * margin


def search(
    sampler: Callable[[Rng], GameState],
    seat: int,
    rng: Rng,
    iterations: int | None,
    seconds: float | None,
    params: SearchParams = SearchParams(),
    min_root_visits: int = 0,
    root_codes: Sequence[int] | None = None,
    cpu: bool = False,
) -> SearchResult:
    """Run the search for ``seat`` (module docstring): each iteration samples a state, then
    ``descend`` (``select`` and ``expand``), ``evaluate`` and ``backup``.

    Defaults: ``SearchParams()`` (PUCT ``c_puct`` 1.0, heuristic priors at temperature 3
    points from the second visit of a node, reward 0.7 win share + 0.3 squashed margin over
    20 points) with the ``hybrid`` rollout policy (``threshold`` to the end of the current
    round, then ``greedy``, in the fast core when available); with neither ``iterations``
    nor ``seconds``, ``DEFAULT_SECONDS`` (0.5 s).

    Args:
        sampler: ``sampler(rng)`` returns a full state for one iteration (a determinization
            of the observation, or a copy of the true state for the oracle). Its decision
            must be ``seat``'s.
        rng: the generator of this decision (samples, rollouts, ties).
        iterations / seconds: stop after that many iterations / that much time (whichever
            comes first; at least one iteration runs).
        min_root_visits: visit every root action at least this often first (the advisor).
        root_codes: search only these legal action codes at the root (default: every legal
            action); the advisor passes one action of each group that leads to the same
            position.
        cpu: ``seconds`` is CPU time of this thread (``time.thread_time``), not wall-clock.

    Returns:
        The root statistics (``SearchResult``).

    Raises:
        ValueError: an unknown rollout policy in ``params``.
    """
    t0 = time.perf_counter()
    rollout: RolloutFn | None = None if params.engine_only else fast_rollout(params.policy)
    if rollout is None:
        rollout = engine_rollout(params.policy)
    first = sampler(rng)
    root = _Node(seat, first.legal_codes() if root_codes is None else list(root_codes))
    k = len(root.codes)
    tree = _Tree(root, params, [0.0] * k)
    it = 0
    clock = time.thread_time if cpu else time.perf_counter
    start = clock() if cpu else t0
    deadline = None if seconds is None else start + seconds
    limit = iterations if iterations is not None else (1 << 62)
    if deadline is None and iterations is None:
        deadline = start + DEFAULT_SECONDS
    state: GameState | None = first
    while it < limit:
        if deadline is not None and it and (it & 7) == 0 and clock() >= deadline:
            break
        s = state if state is not None else sampler(rng)
        state = None
        path = descend(tree, s, it % k if it < min_root_visits * k else None)
        backup(tree, path, evaluate(s, rollout, rng))
        it += 1
    n = root.n
    return SearchResult(
        codes=list(root.codes),
        visits=list(n),
        win=[root.win[j] / n[j] if n[j] else 0.0 for j in range(k)],
        margin=[root.margin[j] / n[j] if n[j] else 0.0 for j in range(k)],
        iterations=it,
        seconds=time.perf_counter() - t0,
        margin_sd=[_sample_sd(root.margin[j], tree.margin_sq[j], n[j]) for j in range(k)],
    )


def _sample_sd(total: float, total_sq: float, n: int) -> float:
    """Sample standard deviation (divisor ``n - 1``) from a sum and a sum of squares; 0.0
    for ``n < 2``. Margins are small integers, so the sums are exact in floating point."""
    if n < 2:
        return 0.0
    return math.sqrt(max(0.0, (total_sq - total * total / n) / (n - 1)))


def observation_digest(observation: Observation) -> str:
    """A stable digest of what the observation shows (the redacted state and the seat)."""
    data = observation.state.to_dict()
    data["seat"] = observation.seat
    return hashlib.blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=16).hexdigest()


def decision_rng(seed: int, observation: Observation) -> Rng:
    """The generator of one decision, a function of the agent's seed and the observation:
    ``Rng(derive_seed(seed, DECISION, d))`` with ``d`` the first 64 bits of
    ``observation_digest``."""
    return Rng(derive_seed(seed, DECISION, int(observation_digest(observation)[:16], 16)))


class MCTSAgent(Agent):
    """Information-set MCTS player (module docstring).

    Budget: ``Budget(iterations=..., seconds=...)``: stops at whichever comes first; neither
    given: ``DEFAULT_SECONDS`` (0.5 s). Seconds are wall-clock, or CPU time of the searching
    thread with ``Budget.cpu`` (``mcts-v1@0.5s-cpu``). ``params`` tunes the search; ``engine_only=True``
    never uses the fast core.
    """

    name = "mcts"
    cpu_budget = True

    def __init__(
        self,
        seed: int = 0,
        budget: Budget | None = None,
        params: SearchParams | None = None,
        engine_only: bool = False,
    ) -> None:
        super().__init__(seed, budget)
        p = params or SearchParams()
        if engine_only and not p.engine_only:
            p = SearchParams(**{**p.__dict__, "engine_only": True})
        self.params = p
        self.last: SearchResult | None = None

    def reset(self, seat: int, rules: Rules) -> None:
        """Start a game; loads the fast core's compiled code now (not during a decision)."""
        super().reset(seat, rules)
        if not self.params.engine_only and fast_rollout_available():
            _warmup_fast_core()

    def _sampler(self, observation: Observation) -> Callable[[Rng], GameState]:
        return observation.sample_state

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, observation)
        iters, secs = self.budget.limits(DEFAULT_SECONDS)
        res = search(
            self._sampler(observation),
            observation.seat,
            rng,
            iters,
            secs,
            self.params,
            cpu=self.budget.cpu,
        )
        self.last = res
        code = res.best()
        for a in legal:
            if a.code == code:
                return a
        raise AssertionError("search returned an action that is not legal")  # pragma: no cover


class OracleAgent(SeesTrueState, MCTSAgent):
    """The same search on the true state (``peek``), without sampling. Measurement only: it
    sees the real draw pile order and is never offered as an opponent to people.

    Raises:
        RuntimeError: ``act`` without a ``peek`` of the true state first.
    """

    name = "oracle"

    def _sampler(self, observation: Observation) -> Callable[[Rng], GameState]:
        true = self.take_true()
        return lambda rng: true.copy()


V1_PARAMS = SearchParams(
    c_puct=1.0,
    margin_weight=0.3,
    margin_scale=20.0,
    prior_temp=3.0,
    prior_min_visits=2,
    policy="hybrid",
    prior_heuristic="v1",
)
"""The settings of ``mcts-v1``, written out so that later changes of the defaults leave it
alone; its priors come from the heuristic's frozen ``v1`` weights (``VIOLET_V1_PARAMS``
under the violet table)."""


class MCTSv1Agent(MCTSAgent):
    """``mcts-v1``: this search with ``V1_PARAMS``, the fixed reference that later players
    are measured against (default budget 0.5 s per decision)."""

    name = "mcts-v1"

    def __init__(
        self,
        seed: int = 0,
        budget: Budget | None = None,
        params: SearchParams | None = None,
        engine_only: bool = False,
    ) -> None:
        super().__init__(seed, budget, params or V1_PARAMS, engine_only)
