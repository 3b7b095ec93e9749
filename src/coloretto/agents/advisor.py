"""The move advisor: every legal action with its estimated chance of winning and expected
final score margin, each with its number of samples and 95% interval, best first.

**Evaluator.** The advisor uses the strongest search that fits its budget
(``strongest_evaluator``): the compiled information-set MCTS with the learned value
cutting the rollouts at the round's end (``ismcts-value``: ``coloretto.agents.ismcts``,
measured the strongest at equal time, docs/agents.md) when the fast core is installed,
otherwise the reference ``mcts`` search (``coloretto.agents.mcts.search``); ``evaluator``
names one explicitly. Starting-colour choices (``starting_cards="choose"``) are always
evaluated by the reference search. Each ``Advice`` names its ``evaluator``.

Either search starts from the observation (never the true draw pile) with the root visited
**round-robin**: every evaluated action gets the same number of iterations (determinized
samples of the draw pile, then the shared tree below the action and the evaluation), so
each action's estimate is an unbiased mean over samples rather than a by-product of where
the search spent its time. Below the root the tree is a normal MCTS, so the estimates
assume good continuation play.

**Actions that lead to the same position are evaluated together**
(``same_position_groups``): placing the drawn card into one of several rows equal in cards
and capacity, or taking one of several such rows, differ only in which row index holds the
cards, and no rule depends on the index (docs/rules.md §3). The reference search evaluates
each group once; the compiled search visits every action and pools the samples of a group.
Every action of a group gets the group's numbers, and ``Advice.equivalent`` names the others.

``win_prob`` is the mean win indicator of the advised seat (1 sole winner, 1/k for a k-way
tie, 0 otherwise); ``margin`` the mean of its final score minus the best other seat's. The
intervals are those of ``coloretto.agents.intervals`` (Jeffreys for the win chance, Student
t for the margin). With an iteration budget the result is a function of (observation, seed,
budget, evaluator); a budget in seconds depends on the machine's speed.

A decision is a **mistake** (``is_mistake``) only when the chosen action's whole 95% interval
for the win chance lies below the best action's: ``chosen.win_high < best.win_low``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.observation import Observation
from ..engine.state import CHOOSE, GameState
from .base import Budget
from .intervals import margin_interval, win_interval
from .mcts import SearchParams, decision_rng, search

__all__ = [
    "DEFAULT_ADVICE_BUDGET",
    "EVALUATORS",
    "Advice",
    "advise",
    "is_mistake",
    "same_position_groups",
    "strongest_evaluator",
]

EVALUATORS = ("auto", "ismcts-value", "ismcts", "mcts")
"""Names accepted by ``advise(evaluator=...)``: ``auto`` is ``strongest_evaluator()``."""

DEFAULT_ADVICE_BUDGET = Budget(seconds=0.5)
"""Budget of ``advise`` when none is given."""


@dataclass(frozen=True)
class Advice:
    """One legal action's evaluation.

    Attributes:
        action: the action.
        win_prob: estimated probability that the advised seat wins (ties split), in [0, 1].
        margin: expected final score minus the best other seat's, in points.
        samples: iterations spent on the action (shared with its ``equivalent`` actions:
            they were evaluated once, together).
        margin_sd: sample standard deviation of the final margins, in points (``None`` when
            unknown: then there is no margin interval).
        equivalent: the other legal actions that lead to the same position (same numbers),
            in code order; empty when there are none.
        evaluator: the search that made the estimate (``EVALUATORS`` without ``auto``).

    Properties ``win_low``/``win_high`` (95% Jeffreys interval of ``win_prob``) and
    ``margin_low``/``margin_high`` (95% t interval of ``margin``, ``None`` without
    ``margin_sd`` or with fewer than two samples) come from ``coloretto.agents.intervals``.
    """

    action: Action
    win_prob: float
    margin: float
    samples: int
    margin_sd: float | None = None
    equivalent: tuple[Action, ...] = ()
    evaluator: str = "mcts"

    @property
    def stderr(self) -> float:
        """Standard error of ``win_prob`` (0 with fewer than 2 samples)."""
        if self.samples < 2:
            return 0.0
        p = self.win_prob
        return math.sqrt(max(p * (1.0 - p), 0.0) / self.samples)

    @property
    def win_interval(self) -> tuple[float, float]:
        """``(win_low, win_high)``: the 95% interval of ``win_prob``."""
        return win_interval(min(1.0, max(0.0, self.win_prob)), self.samples)

    @property
    def win_low(self) -> float:
        """Lower end of the 95% interval of ``win_prob``."""
        return self.win_interval[0]

    @property
    def win_high(self) -> float:
        """Upper end of the 95% interval of ``win_prob``."""
        return self.win_interval[1]

    @property
    def margin_interval(self) -> tuple[float, float] | None:
        """``(margin_low, margin_high)``: the 95% interval of ``margin``, or ``None``."""
        if self.margin_sd is None:
            return None
        return margin_interval(self.margin, self.margin_sd, self.samples)

    @property
    def margin_low(self) -> float | None:
        """Lower end of the 95% interval of ``margin`` (``None`` without one)."""
        interval = self.margin_interval
        return None if interval is None else interval[0]

    @property
    def margin_high(self) -> float | None:
        """Upper end of the 95% interval of ``margin`` (``None`` without one)."""
        interval = self.margin_interval
        return None if interval is None else interval[1]

    def same_position(self, action: Action) -> bool:
        """True when ``action`` is this advice's action or one of its ``equivalent``."""
        return action == self.action or action in self.equivalent

    def sureness(self) -> str:
        """How sure the estimate is, for people: ``"chance to win 62% (95% interval 55% to
        69%), expected margin +3.1 points (+1.9 to +4.3), 400 samples"`` (the margin's
        interval left out without one)."""
        margin = f"expected margin {self.margin:+.1f} points"
        interval = self.margin_interval
        if interval is not None:
            margin += f" ({interval[0]:+.1f} to {interval[1]:+.1f})"
        return (
            f"chance to win {self.win_prob:.0%} (95% interval {self.win_low:.0%} to "
            f"{self.win_high:.0%}), {margin}, {self.samples} samples"
        )

    def to_json(self) -> dict[str, Any]:
        """``{"action": {...}, "text", "win_prob", "win_ci95": [low, high], "margin",
        "margin_ci95": [low, high] or null, "samples", "evaluator", "equivalent": [{...},
        ...]}``:
        actions in their JSON form (rows counted from 0), ``text`` for people (rows counted
        from 1), numbers rounded (4 decimals for chances, 2 for points)."""
        margin_ci = self.margin_interval
        return {
            "action": self.action.to_json(),
            "text": str(self.action),
            "win_prob": round(self.win_prob, 4),
            "win_ci95": [round(self.win_low, 4), round(self.win_high, 4)],
            "margin": round(self.margin, 2),
            "margin_ci95": None
            if margin_ci is None
            else [round(margin_ci[0], 2), round(margin_ci[1], 2)],
            "samples": self.samples,
            "evaluator": self.evaluator,
            "equivalent": [a.to_json() for a in self.equivalent],
        }


def is_mistake(best: Advice, chosen: Advice) -> bool:
    """Whether choosing ``chosen`` over ``best`` is a mistake and not noise: the chosen
    action's whole 95% interval for the win chance lies below the best action's
    (``chosen.win_high < best.win_low``). Equivalently, the loss ``best.win_prob -
    chosen.win_prob`` exceeds ``(best.win_prob - best.win_low) + (chosen.win_high -
    chosen.win_prob)``. Never for two actions that lead to the same position."""
    if best.same_position(chosen.action):
        return False
    return chosen.win_high < best.win_low


def same_position_groups(state: GameState, legal: Sequence[Action]) -> list[list[Action]]:
    """``legal`` split into groups of actions that lead to the same position, each group in
    the order of ``legal``, groups in the order of their first action.

    Two placements are in one group when their rows hold the same cards (in any order) and
    have the same capacity; so are two takes. Every other action is alone in its group.
    """
    groups: dict[tuple[Any, ...], list[Action]] = {}
    for action in legal:
        key: tuple[Any, ...]
        if action.kind in ("place", "take"):
            r = action.arg
            key = (action.kind, tuple(sorted(state.rows[r])), state.caps[r])
        else:
            key = (action.kind, action.arg)
        groups.setdefault(key, []).append(action)
    return list(groups.values())


@functools.cache
def strongest_evaluator() -> str:
    """The strongest search installed: ``"ismcts-value"`` when the fast core and the learned
    value load, else ``"mcts"`` (the reference search, always there)."""
    try:
        from .ismcts import ValueISMCTSAgent

        ValueISMCTSAgent()
    except Exception:  # noqa: BLE001 (any reason the compiled search is unavailable)
        return "mcts"
    return "ismcts-value"


def advise(
    observation: Observation,
    legal: Sequence[Action],
    budget: Budget | None = None,
    seed: int = 0,
    params: SearchParams | None = None,
    evaluator: str = "auto",
) -> list[Advice]:
    """Evaluate every legal action of ``observation.seat``, best first.

    Args:
        observation: the seat's observation; its seat must be the one to move.
        legal: the legal actions (non-empty), as the host has them.
        budget: total thinking for the whole list: ``iterations`` (shared evenly among the
            evaluated actions; at least one each) and/or ``seconds``; default
            ``DEFAULT_ADVICE_BUDGET`` (0.5 s).
        seed: seed of the samples and rollouts.
        params: settings of the reference search (default ``SearchParams()``).
        evaluator: a name of ``EVALUATORS`` (module docstring); default ``auto``.

    Returns:
        One ``Advice`` per legal action, each exactly once, sorted by ``win_prob`` then
        ``margin`` (descending), then action code; the actions of one group carry the same
        numbers and are adjacent, in code order.

    Raises:
        ValueError: ``legal`` is empty, the observing seat is not the one to move, an
            action is not legal in the observation, or an unknown ``evaluator``.
        ConfigurationError: a compiled evaluator named explicitly is not installed.
    """
    if evaluator not in EVALUATORS:
        raise ValueError(f"unknown evaluator {evaluator!r}; known: {', '.join(EVALUATORS)}")
    if not legal:
        raise ValueError("no legal actions to advise on")
    if observation.to_move != observation.seat:
        raise ValueError(
            f"seat {observation.seat + 1} is not to move (seat {observation.to_move + 1} is)"
        )
    state = observation.state
    allowed = set(state.legal_codes())
    for a in legal:
        if a.code not in allowed:
            raise ValueError(f"{a} is not legal in this observation")
    groups = same_position_groups(state, legal)
    b = budget or DEFAULT_ADVICE_BUDGET
    iters, secs = b.iterations, b.seconds
    if iters is None and secs is None:
        secs = DEFAULT_ADVICE_BUDGET.seconds
    name = strongest_evaluator() if evaluator == "auto" else evaluator
    if state.phase == CHOOSE:
        name = "mcts"
    if name == "mcts":
        stats = _reference_stats(observation, groups, iters, secs, seed, params)
    else:
        stats = _compiled_stats(observation, groups, iters, secs, seed, name)
    ranked: list[tuple[float, float, int, int, Advice]] = []
    for group, (visits, win, margin, sd) in zip(groups, stats):
        first = min(a.code for a in group)
        for a in group:
            advice = Advice(
                a,
                win,
                margin,
                visits,
                sd,
                tuple(sorted((x for x in group if x != a), key=lambda x: x.code)),
                name,
            )
            ranked.append((-advice.win_prob, -advice.margin, first, a.code, advice))
    ranked.sort(key=lambda item: item[:4])
    return [item[4] for item in ranked]


GroupStats = tuple[int, float, float, float]
"""Per group of actions: samples, mean win indicator, mean margin, margin's sample sd."""


def _reference_stats(
    observation: Observation,
    groups: list[list[Action]],
    iters: int | None,
    secs: float | None,
    seed: int,
    params: SearchParams | None,
) -> list[GroupStats]:
    """The reference search, one root action per group, visited round-robin."""
    if iters is not None:
        iters = max(iters, len(groups))
    rng = decision_rng(seed, observation)
    res = search(
        observation.sample_state,
        observation.seat,
        rng,
        iters,
        secs,
        params or SearchParams(),
        min_root_visits=1 << 40,
        root_codes=[group[0].code for group in groups],
    )
    return [
        (res.visits[j], res.win[j], res.margin[j], res.margin_sd[j]) for j in range(len(groups))
    ]


def _compiled_stats(
    observation: Observation,
    groups: list[list[Action]],
    iters: int | None,
    secs: float | None,
    seed: int,
    name: str,
) -> list[GroupStats]:
    """The compiled search (``name``: ``ismcts`` or ``ismcts-value``) with every root action
    visited round-robin; the samples of a group's actions pooled.

    Raises:
        ConfigurationError: the fast core (or the learned value) is not installed.
    """
    from .ismcts import ISMCTSAgent, ValueISMCTSAgent

    actions = sum(len(g) for g in groups)
    if iters is not None:
        iters = max(iters, actions)
    cls = ValueISMCTSAgent if name == "ismcts-value" else ISMCTSAgent
    res = cls(seed, Budget(iterations=iters, seconds=secs)).search(observation, round_robin=True)
    at = {c: j for j, c in enumerate(res.codes)}
    out: list[GroupStats] = []
    for group in groups:
        js = [at[a.code] for a in group]
        n = sum(res.visits[j] for j in js)
        wins = math.fsum(res.win[j] * res.visits[j] for j in js)
        total = math.fsum(res.margin[j] * res.visits[j] for j in js)
        squares = math.fsum(
            res.margin_sd[j] ** 2 * (res.visits[j] - 1)
            + (res.margin[j] * res.visits[j]) ** 2 / res.visits[j]
            for j in js
            if res.visits[j]
        )
        if n == 0:
            out.append((0, 0.0, 0.0, 0.0))
            continue
        mean = total / n
        sd = math.sqrt(max(0.0, (squares - total * total / n) / (n - 1))) if n > 1 else 0.0
        out.append((n, wins / n, mean, sd))
    return out
