"""The move advisor: every legal action with its estimated chance of
winning and expected final score margin, best first.

It runs the ``mcts`` search (``coloretto.agents.mcts.search``) from the observation with
the root visited **round-robin**: every legal action gets the same number of iterations
(determinized samples of the draw pile, then the shared tree below the action and a
rollout), so each action's estimate is an unbiased mean over samples rather than a by-product
of where the search spent its time. Below the root the tree is a normal MCTS, so the
estimates assume good continuation play.

``win_prob`` is the mean win indicator of the advised seat (1 sole winner, 1/k for a k-way
tie, 0 otherwise); ``margin`` the mean of its final score minus the best other seat's. With
an iteration budget the result is a function of (observation, seed, budget).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.observation import Observation
from .base import Budget
from .mcts import SearchParams, decision_rng, search

__all__ = ["DEFAULT_ADVICE_BUDGET", "Advice", "advise"]

DEFAULT_ADVICE_BUDGET = Budget(seconds=0.5)
"""Budget of ``advise`` when none is given."""


@dataclass(frozen=True)
class Advice:
    """One legal action's evaluation.

    Attributes:
        action: the action.
        win_prob: estimated probability that the advised seat wins (ties split), in [0, 1].
        margin: expected final score minus the best other seat's, in points.
        samples: iterations spent on the action (its standard error is about
            ``sqrt(p(1-p)/samples)``).
    """

    action: Action
    win_prob: float
    margin: float
    samples: int

    @property
    def stderr(self) -> float:
        """Standard error of ``win_prob`` (0 with fewer than 2 samples)."""
        if self.samples < 2:
            return 0.0
        p = self.win_prob
        return math.sqrt(max(p * (1.0 - p), 0.0) / self.samples)

    def to_json(self) -> dict[str, Any]:
        """``{"action": {...}, "text", "win_prob", "margin", "samples"}``."""
        return {
            "action": self.action.to_json(),
            "text": str(self.action),
            "win_prob": round(self.win_prob, 4),
            "margin": round(self.margin, 2),
            "samples": self.samples,
        }


def advise(
    observation: Observation,
    legal: Sequence[Action],
    budget: Budget | None = None,
    seed: int = 0,
    params: SearchParams | None = None,
) -> list[Advice]:
    """Evaluate every legal action of ``observation.seat``, best first.

    Args:
        observation: the seat's observation; its seat must be the one to move.
        legal: the legal actions (non-empty), as the host has them.
        budget: total thinking for the whole list: ``iterations`` (shared evenly among the
            actions) and/or ``seconds``; default ``DEFAULT_ADVICE_BUDGET`` (0.5 s).
        seed: seed of the samples and rollouts.
        params: search settings (default ``SearchParams()``).

    Returns:
        One ``Advice`` per legal action, each exactly once, sorted by ``win_prob`` then
        ``margin`` (descending).

    Raises:
        ValueError: ``legal`` is empty, or the observing seat is not the one to move.
    """
    if not legal:
        raise ValueError("no legal actions to advise on")
    if observation.to_move != observation.seat:
        raise ValueError(
            f"seat {observation.seat + 1} is not to move (seat {observation.to_move + 1} is)"
        )
    b = budget or DEFAULT_ADVICE_BUDGET
    iters, secs = b.iterations, b.seconds
    if iters is None and secs is None:
        secs = DEFAULT_ADVICE_BUDGET.seconds
    if iters is not None:
        iters = max(iters, len(legal))
    rng = decision_rng(seed, observation)
    res = search(
        observation.sample_state,
        observation.seat,
        rng,
        iters,
        secs,
        params or SearchParams(),
        min_root_visits=1 << 40,
    )
    by_code = {c: j for j, c in enumerate(res.codes)}
    out: list[Advice] = []
    for a in legal:
        j = by_code.get(a.code)
        if j is None:
            raise ValueError(f"{a} is not legal in this observation")
        out.append(Advice(a, res.win[j], res.margin[j], res.visits[j]))
    out.sort(key=lambda x: (-x.win_prob, -x.margin, x.action.code))
    return out
