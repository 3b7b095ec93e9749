"""Agent names -> classes, imported lazily (so heavy agents cost nothing until used).

Spec strings accepted by ``make_agent``: a registry name (``random``, ``greedy``,
``heuristic``, ``mcts``, ``mcts-v1``, ``ismcts``, ``ismcts-value``, ``oracle``), a difficulty (``easy``, ``medium``, ``hard``,
``expert``), or ``cmd:COMMAND`` for an external ``coloretto-engine/1`` program.
"""

from __future__ import annotations

import importlib
from typing import Final

from ..engine.errors import ConfigurationError
from .base import Agent, Budget

REGISTRY: Final[dict[str, str]] = {
    "random": "coloretto.agents.baseline:RandomAgent",
    "greedy": "coloretto.agents.baseline:GreedyAgent",
    "heuristic": "coloretto.agents.heuristic:HeuristicAgent",
    "mcts": "coloretto.agents.mcts:MCTSAgent",
    "mcts-v1": "coloretto.agents.mcts:MCTSv1Agent",
    "ismcts": "coloretto.agents.ismcts:ISMCTSAgent",
    "ismcts-value": "coloretto.agents.ismcts:ValueISMCTSAgent",
    "oracle": "coloretto.agents.mcts:OracleAgent",
}

DIFFICULTIES: Final[dict[str, tuple[str, Budget]]] = {
    "easy": ("greedy", Budget()),
    "medium": ("heuristic", Budget()),
    "hard": ("mcts", Budget(seconds=0.4)),
    "expert": ("mcts", Budget(seconds=2.0)),
}
"""Difficulty levels for people: name -> (agent, budget). ``easy`` takes any row
that raises its score now; ``medium`` is the rule-based ``heuristic``; ``hard`` searches 0.4 s
per decision (answers within 1 s, p95, on a 2-core machine); ``expert`` 2 s. Measured
strengths in docs/agents.md."""

AGENT_NAMES: Final = tuple(REGISTRY) + tuple(DIFFICULTIES)
PEOPLE_OPPONENTS: Final = ("random", "greedy", "heuristic", "mcts") + tuple(DIFFICULTIES)
"""Agents offered as opponents to people (``oracle`` is for measurement only)."""


def is_external(spec: str) -> bool:
    """``spec`` names an external ``coloretto-engine/1`` program (``cmd:COMMAND``)."""
    return spec.startswith("cmd:")


def make_agent(spec: str, seed: int = 0, budget: Budget | None = None) -> Agent:
    """Build the agent named by ``spec`` (module docstring), seeded with ``seed``.

    Raises:
        ConfigurationError: unknown name, or an agent not available in this installation.
    """
    if is_external(spec):
        try:
            module = importlib.import_module("coloretto.agents.external")
        except ModuleNotFoundError:
            raise ConfigurationError("external engines are not available in this installation") from None
        agent: Agent = module.ExternalAgent(spec[4:], seed=seed, budget=budget)
        return agent
    if spec in DIFFICULTIES:
        name, level_budget = DIFFICULTIES[spec]
        explicit = budget is not None and (budget.iterations is not None or budget.seconds is not None)
        return make_agent(name, seed, budget if explicit else level_budget)
    if spec not in REGISTRY:
        raise ConfigurationError(f"unknown agent {spec!r}; known: {', '.join(AGENT_NAMES)}, cmd:COMMAND")
    module_name, cls_name = REGISTRY[spec].split(":")
    try:
        cls = getattr(importlib.import_module(module_name), cls_name)
    except (ModuleNotFoundError, AttributeError):
        raise ConfigurationError(f"agent {spec!r} is not available in this installation") from None
    made: Agent = cls(seed=seed, budget=budget)
    return made
