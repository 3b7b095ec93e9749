"""``ismcts`` and ``ismcts-value``: the information-set MCTS of ``agents.mcts``, compiled.

The whole search runs in the fast core (``coloretto.fastcore.search``: sampler, tree,
PUCT selection, expansion, leaf evaluation, backup; no Python per iteration). This module
only turns an observation into the search's input and its root statistics into an action:

1. The observation's **redacted** state is encoded once (``fastcore.encode``): its draw
   pile holds the unseen cards in a canonical order with the Last Round card at its depth.
   The true pile order is never read, so states that differ only in it give the same
   decision.
2. The decision's seed is a digest of the agent's seed, the seat and the encoded
   observation: the same seed and observation give the same action under an iteration
   budget.
3. The most visited root action is played (ties: higher mean reward, then lower code).

Budgets: ``Budget(iterations=..., seconds=...)``, whichever comes first; seconds are
checked inside the compiled loop every ``check_every`` iterations. Neither: 0.5 s.

The ``starting_cards="choose"`` decision (one per seat and game, only with that option)
is searched by the reference search (``agents.mcts.search``) with the same budget, at most
``CHOOSE_ITERATIONS`` iterations.

``ismcts-value`` cuts the rollouts with the learned value shipped with the package
(``coloretto.agents.value``): ``threshold`` to the end of the current round, then the
value (single games; a match is rolled out).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import numpy as np

from ..engine.actions import Action
from ..engine.observation import Observation
from ..engine.rules import Rules
from ..engine.seeds import Rng
from ..engine.state import CHOOSE, GameState
from .base import Agent, Budget, SeesTrueState
from .heuristic import heuristic_scores, params_for
from .mcts import THRESHOLD_A, THRESHOLD_B, SearchParams, SearchResult, decision_rng, search
from .value import ValueModel

__all__ = [
    "CHOOSE_ITERATIONS",
    "DEFAULT_SECONDS",
    "ISMCTSAgent",
    "ISMCTSParams",
    "ValueISMCTSAgent",
    "ValueOracleAgent",
]

DEFAULT_SECONDS: Final = 0.5
"""Seconds per decision when the budget names none."""

CHOOSE_ITERATIONS: Final = 400
"""Most iterations of the reference search for a starting-colour choice."""

NODES_PER_SECOND: Final = 120_000
"""Tree nodes reserved per second of a time budget (above the measured iteration rate;
when the tree is full, iterations go on without expanding)."""

MAX_NODES: Final = 1_000_000


@dataclass(frozen=True)
class ISMCTSParams:
    """Settings of the compiled search (docs/agents.md).

    Attributes:
        c_puct: exploration constant of PUCT (rewards in [0, 1]; priors uniform).
        margin_weight: weight of the squashed score margin in the reward.
        margin_scale: points of margin that map to reward 1 (or 0).
        threshold_a, threshold_b: the ``threshold`` rollout policy's take threshold,
            ``a * (1 - fill) + b`` points.
        evaluation: ``"rollout"`` (the ``hybrid`` rollout), ``"value"`` (the learned value
            at the leaf), ``"round_value"`` (``threshold`` to the end of the round, then
            the learned value) or ``"heuristic_round_value"`` (the compiled heuristic to the
            end of the round, then the learned value).
        check_every: iterations between two clock checks under a seconds budget.
        prior_temp: softmax temperature (points) of the priors; 0 = uniform priors.
        root_heuristic: the root's priors come from ``heuristic``'s action values (one
            Python call per decision); the other nodes' from the compiled ``gain_priors``
            (the ``threshold`` policy's measure of each action).
        tree_priors: the priors of the other nodes: ``"gain"`` (the compiled ``gain_priors``
            from a node's creation) or ``"heuristic"`` (from the node's ``judge_visits``-th
            visit, a softmax of the compiled heuristic's values, ``fastcore.heuristic``,
            which weighs the opponents' rows as ``mcts``'s priors do).
        judge_visits: see ``tree_priors``.
    """

    c_puct: float = 1.0
    margin_weight: float = 0.3
    margin_scale: float = 20.0
    threshold_a: float = THRESHOLD_A
    threshold_b: float = THRESHOLD_B
    evaluation: str = "rollout"
    check_every: int = 16
    prior_temp: float = 3.0
    root_heuristic: bool = True
    tree_priors: str = "gain"
    judge_visits: int = 2


def _fast() -> Any:
    from ..fastcore import search as fast_search

    return fast_search


class ISMCTSAgent(Agent):
    """Compiled information-set MCTS player (module docstring). ``model``: the learned value
    for the value evaluations (default: the one shipped, ``load_value_model()``).

    Raises (at construction):
        ConfigurationError: the fast core (``fast`` extra) is not installed, or the
            learned value cannot be loaded for a value evaluation.
        ValueError: an unknown ``evaluation`` or ``tree_priors`` in ``params``.
    """

    name = "ismcts"
    cpu_budget = False

    def __init__(
        self,
        seed: int = 0,
        budget: Budget | None = None,
        params: ISMCTSParams | None = None,
        model: ValueModel | None = None,
    ) -> None:
        super().__init__(seed, budget)
        self.params = params or ISMCTSParams()
        try:
            fs = _fast()
        except ImportError as exc:
            from ..engine.errors import ConfigurationError

            raise ConfigurationError(
                f"the compiled search needs the fast core (the 'fast' extra): {exc}"
            ) from None
        self._fs = fs
        if self.params.evaluation not in fs.EVALUATIONS:
            raise ValueError(
                f"unknown evaluation {self.params.evaluation!r}; known: {', '.join(fs.EVALUATIONS)}"
            )
        if self.params.tree_priors not in fs.PRIORS:
            raise ValueError(
                f"unknown tree priors {self.params.tree_priors!r}; known: {', '.join(fs.PRIORS)}"
            )
        self._weights: tuple[np.ndarray, ...] | None = None
        self._value_scale = 20.0
        if self.params.evaluation != "rollout":
            from .value import load_value_model

            model = model or load_value_model()
            self._weights = model.weights
            self._value_scale = model.margin_scale
        self._tree: Any = None
        self._heuristic: dict[str, np.ndarray] = {}
        self.last: SearchResult | None = None

    def reset(self, seat: int, rules: Rules) -> None:
        """Start a game; loads the compiled code now (not during a decision)."""
        super().reset(seat, rules)
        self._fs.warm_search()

    def _tree_for(self, iterations: int | None, seconds: float | None) -> Any:
        need = MAX_NODES
        if iterations is not None:
            need = min(need, iterations + 2)
        if seconds is not None:
            need = min(need, int(seconds * NODES_PER_SECOND) + 1000)
        tree = self._tree
        if tree is None or tree.capacity < need:
            tree = self._tree = self._fs.Tree(need)
        return tree

    def decision_seed(self, observation: Observation, a: np.ndarray) -> int:
        """The seed of one decision: a digest of the agent's seed, the seat and the encoded
        (redacted) observation."""
        h = hashlib.blake2b(digest_size=8)
        h.update(f"coloretto-ismcts:{self.seed}:{observation.seat}:".encode())
        h.update(a.tobytes())
        return int.from_bytes(h.digest(), "little")

    def search(self, observation: Observation, round_robin: bool = False) -> SearchResult:
        """Search the decision of ``observation`` (a turn or place decision) with the
        agent's budget; return the root statistics. With ``round_robin`` every root action
        gets the same number of iterations (give or take one), so each action's ``win`` and
        ``margin`` is an unbiased mean over ``visits`` samples (for an advisor; the action
        to play is then not the most visited)."""
        # The first search of a process loads the compiled kernels from Numba's cache (about
        # a second); that is done before the clock starts, so it does not eat the budget.
        self._fs.warm_search()
        t0 = time.perf_counter()
        from ..fastcore import encode

        a = encode(self._root_state(observation)).a
        iters, secs = self.budget.limits(DEFAULT_SECONDS)
        p = self.params
        root_prior = None
        st = observation.state
        if p.root_heuristic and p.prior_temp > 0:
            root_prior = _heuristic_priors(st, st.legal_codes(), p.prior_temp)
        uses_heuristic = p.tree_priors == "heuristic" or p.evaluation == "heuristic_round_value"
        weights = self._heuristic_weights(st) if uses_heuristic else None
        tree = self._tree_for(iters, secs)
        it = self._fs.search_arrays(
            a,
            tree,
            self.decision_seed(observation, a),
            iterations=iters,
            seconds=secs,
            c_puct=p.c_puct,
            margin_weight=p.margin_weight,
            margin_scale=p.margin_scale,
            threshold_a=p.threshold_a,
            threshold_b=p.threshold_b,
            evaluation=p.evaluation,
            weights=self._weights,
            value_scale=self._value_scale,
            check_every=p.check_every,
            start=t0,
            prior_temp=p.prior_temp,
            root_prior=root_prior,
            root_round_robin=round_robin,
            sample=not self.needs_true_state,
            priors=p.tree_priors,
            judge_visits=p.judge_visits,
            heuristic=weights,
        )
        return self._result(tree, it, time.perf_counter() - t0)

    def _heuristic_weights(self, st: GameState) -> np.ndarray:
        """The compiled heuristic's weights for the score table of ``st`` (made once per
        table)."""
        table = st.rules.table
        if table not in self._heuristic:
            from ..fastcore.heuristic import params_array

            self._heuristic[table] = params_array(params_for(st))
        return self._heuristic[table]

    def _root_state(self, observation: Observation) -> GameState:
        """The state the search starts from: the observation's (its pile redacted; every
        iteration samples the unseen cards)."""
        return observation.state

    def _result(self, tree: Any, iterations: int, seconds: float) -> SearchResult:
        fs = self._fs
        k = int(tree.nodes[0, fs.NODE_NACTS])
        codes = [int(c) for c in tree.nodes[0, fs.NODE_CODES : fs.NODE_CODES + k]]
        root = tree.root
        visits = [int(root[i, fs.R_VISITS]) for i in range(k)]
        win = [float(root[i, fs.R_WIN]) / visits[i] if visits[i] else 0.0 for i in range(k)]
        margin = [float(root[i, fs.R_MARGIN]) / visits[i] if visits[i] else 0.0 for i in range(k)]
        reward = [float(root[i, fs.R_REWARD]) / visits[i] if visits[i] else 0.0 for i in range(k)]
        sd = [
            _sample_sd(visits[i], float(root[i, fs.R_MARGIN]), float(root[i, fs.R_MARGIN2]))
            for i in range(k)
        ]
        res = SearchResult(codes, visits, win, margin, iterations, seconds, margin_sd=sd)
        res.extra["nodes"] = float(tree.counts[0])
        for c, r in zip(codes, reward):
            res.extra[f"reward_{c}"] = r
        return res

    def _choose(self, observation: Observation) -> SearchResult:
        iters, secs = self.budget.limits(DEFAULT_SECONDS)
        iters = CHOOSE_ITERATIONS if iters is None else min(iters, CHOOSE_ITERATIONS)
        rng = decision_rng(self.seed, observation)
        params = replace(
            SearchParams(), margin_weight=self.params.margin_weight, c_puct=self.params.c_puct
        )
        return search(self._sampler(observation), observation.seat, rng, iters, secs, params)

    def _sampler(self, observation: Observation) -> Callable[[Rng], GameState]:
        """The states of the Python search of a starting-colour choice: samples of the
        observation."""
        return observation.sample_state

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if observation.state.phase == CHOOSE:
            res = self._choose(observation)
            code = res.best()
        else:
            res = self.search(observation)
            code = _best(res)
        self.last = res
        for a in legal:
            if a.code == code:
                return a
        raise AssertionError("search returned an action that is not legal")  # pragma: no cover


def _sample_sd(n: int, total: float, squares: float) -> float:
    """Sample standard deviation (divisor ``n - 1``) of ``n`` values from their sum and sum of
    squares; 0.0 with fewer than two values."""
    if n < 2:
        return 0.0
    return math.sqrt(max(0.0, (squares - total * total / n) / (n - 1)))


def _heuristic_priors(st: Any, codes: list[int], temp: float) -> np.ndarray:
    """Softmax at ``temp`` points of ``heuristic``'s values of ``codes`` (as the reference
    search's priors)."""
    scores = heuristic_scores(st, st.to_move, codes)
    v = np.array([scores[c] for c in codes], np.float64)
    e = np.exp((v - v.max()) / temp)
    out: np.ndarray = e / e.sum()
    return out


def _best(res: SearchResult) -> int:
    """Most visited root action; ties: higher mean reward, then lower code."""
    best = max(
        range(len(res.codes)),
        key=lambda j: (res.visits[j], res.extra.get(f"reward_{res.codes[j]}", 0.0), -res.codes[j]),
    )
    return res.codes[best]


class ValueISMCTSAgent(ISMCTSAgent):
    """``ismcts`` with the learned value cutting the rollouts: ``threshold`` to the end of
    the current round, then the value (``evaluation="round_value"``; measured stronger at 4
    players than the value at the leaf itself, docs/agents.md)."""

    name = "ismcts-value"

    def __init__(
        self,
        seed: int = 0,
        budget: Budget | None = None,
        params: ISMCTSParams | None = None,
        model: ValueModel | None = None,
    ) -> None:
        params = params or ISMCTSParams(evaluation="round_value", tree_priors="heuristic")
        super().__init__(seed, budget, params, model)


class ValueOracleAgent(SeesTrueState, ValueISMCTSAgent):
    """``oracle-value``: the search of ``ismcts-value`` (``expert``) on the true state, its
    draw pile in its real order at every iteration (``search_arrays(sample=False)``), so
    that against ``expert`` at the same iterations the only difference is knowing the pile.
    Measurement only: it needs ``peek`` before each decision and is never offered as an
    opponent to people.

    Raises:
        RuntimeError: ``act`` without a ``peek`` of the true state first.
    """

    name = "oracle-value"

    def _root_state(self, observation: Observation) -> GameState:
        return self.take_true()

    def _sampler(self, observation: Observation) -> Callable[[Rng], GameState]:
        true = self.take_true()
        return lambda rng: true.copy()
