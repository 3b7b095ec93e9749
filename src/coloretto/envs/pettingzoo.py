"""Coloretto as a PettingZoo AEC environment (docs/rl.md, "PettingZoo").

>>> from coloretto.envs.pettingzoo import env
>>> e = env(players=3, edition="modern")
>>> e.reset(seed=1)
>>> e.agent_selection, sorted(e.observe("player_0"))
('player_...', ['action_mask', 'observation'])

Agents ``player_0`` ... ``player_{n-1}`` are the seats 0 ... n-1. Each step is one decision
of the engine (``GameState.apply``): a turn (draw, code 0, or take row r, code ``TAKE0 + r``),
then, after a draw, a second step of the same agent placing the drawn card (code
``PLACE0 + r``); with ``starting_cards="choose"`` the starting colours are chosen first.
The observation is ``{"observation": encode(...), "action_mask": ...}`` (``envs.encoding``;
the mask as ``int8``, all zero for an agent that is not to move). Rewards come once, on the
step that ends the game (``envs.common``: ``"margin"`` or ``"win"``); then every agent is
terminated and steps out with ``None``. Games never truncate.

Requires the ``rl`` extra (PettingZoo, Gymnasium).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .._optional import require
from ..engine.actions import NUM_DISTINCT_ACTIONS
from ..engine.errors import ConfigurationError, IllegalActionError
from ..engine.observation import observe
from ..engine.state import GameState, new_game
from .common import ENV_NAME, EpisodeSeeds, board_text, check_reward, final_rewards, make_rules
from .encoding import OBSERVATION_HIGH, OBSERVATION_SIZE, encode, legal_mask

_FEATURE = "the PettingZoo environment"
pettingzoo = require("pettingzoo", "rl", _FEATURE)
spaces = require("gymnasium.spaces", "rl", _FEATURE)
wrappers = require("pettingzoo.utils.wrappers", "rl", _FEATURE)

RENDER_MODES = ("human", "ansi")


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's usual wrappers (illegal moves end the game with
    reward -1 for the mover, actions checked against the action space, call order
    enforced). Keyword arguments as ``raw_env``.

    Raises:
        ConfigurationError: as ``raw_env``.
    """
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(**kwargs), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(pettingzoo.AECEnv):  # type: ignore[misc,name-defined]
    """The unwrapped AEC environment (module docstring).

    Args:
        players: 2 to 5 seats.
        reward: ``"margin"`` or ``"win"`` (``envs.common``).
        render_mode: ``None``, ``"human"`` (prints the table) or ``"ansi"`` (returns it).
        **options: every other option of docs/rules.md §7 by its key (``edition``,
            ``table``, ``starting_cards``, ``next_round_starter``, ``joker_any_color``,
            ``match_games``, ``extra_card``, ``row_capacities``).

    Raises:
        ConfigurationError: an unknown option, a bad value or an unknown reward or render
            mode (the message names it).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": ENV_NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        reward: str = "margin",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.rules = make_rules(players, options)
        self.reward = check_reward(reward)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigurationError(
                f"render_mode is {render_mode!r}; allowed: None, {', '.join(RENDER_MODES)}"
            )
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        box = spaces.Box(
            low=0.0, high=OBSERVATION_HIGH, shape=(OBSERVATION_SIZE,), dtype=np.float32
        )
        mask = spaces.Box(low=0, high=1, shape=(NUM_DISTINCT_ACTIONS,), dtype=np.int8)
        self._observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self._action_spaces = {
            a: spaces.Discrete(NUM_DISTINCT_ACTIONS) for a in self.possible_agents
        }
        self._seeds = EpisodeSeeds()
        self.state: GameState | None = None

    def observation_space(self, agent: str) -> Any:
        """``Dict(observation=Box(185,) float32, action_mask=Box(20,) int8)``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """``Discrete(20)`` over the stable action codes (``engine.actions``)."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed`` when given, else the next game of the last seed
        (``envs.common.EpisodeSeeds``).

        Raises:
            ConfigurationError: ``seed`` is not a non-negative integer.
        """
        self.state = new_game(self.rules, self._seeds.next(seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent``'s seat may know: the tensor and the mask (``envs.encoding``)."""
        if self.state is None:
            raise RuntimeError("call reset() before observe()")
        obs = observe(self.state, self.agent_name_mapping[agent])
        return {"observation": encode(obs), "action_mask": legal_mask(obs).astype(np.int8)}

    def step(self, action: int | None) -> None:
        """Apply ``action`` (an action code) for ``agent_selection``; ``None`` for an agent
        that is terminated.

        Raises:
            IllegalActionError: the code is not legal now (the state is unchanged).
            RuntimeError: no game (call ``reset``).
        """
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for a terminated agent", "§3")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state = self.state
        state.apply(int(action))
        if state.is_over():
            for a, value in zip(self.possible_agents, final_rewards(state, self.reward)):
                self.rewards[a] = value
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[state.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as the agent to move sees it (seat 0 when over): printed for
        ``"human"``, returned for ``"ansi"``; ``None`` without a render mode."""
        if self.render_mode is None or self.state is None:
            return None
        names = [f"seat {s + 1} ({agent})" for s, agent in enumerate(self.possible_agents)]
        text = board_text(self.state, max(self.state.to_move, 0), names)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""
