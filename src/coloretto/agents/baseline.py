"""Baseline computer players: ``random`` and ``greedy``."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action
from ..engine.observation import Observation
from ..engine.policy import greedy_code, row_gain
from .base import Agent

__all__ = ["GreedyAgent", "RandomAgent", "row_gain"]


class RandomAgent(Agent):
    """Uniform over the legal actions: ``legal[rng.below(len(legal))]``."""

    name = "random"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        return legal[self.rng.below(len(legal))]


class GreedyAgent(Agent):
    """Best immediate change of its own optimal score: the engine's reference greedy policy
    (``coloretto.engine.policy.greedy_code``, ties broken by ``self.rng``).

    On a turn: takes the row with the largest gain if that gain is positive (or if drawing is
    illegal), otherwise draws. Placing: puts the card in the row where it adds the most to
    that row's gain for this seat. Starting colours: uniformly at random.
    """

    name = "greedy"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        by_code = {a.code: a for a in legal}
        return by_code[greedy_code(observation.state, self.rng, sorted(by_code))]
