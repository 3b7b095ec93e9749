"""Coloretto as a Gymnasium environment: one learner seat against built-in agents
(docs/rl.md, "Gymnasium"). Importing this module registers ``coloretto/Coloretto-v0``.

>>> import gymnasium
>>> import coloretto.envs.gymnasium
>>> env = gymnasium.make("coloretto/Coloretto-v0", opponents="greedy", seat="random")
>>> obs, info = env.reset(seed=3)
>>> obs.shape, sorted(info)
((185,), ['action_mask', 'seat'])
>>> env.unwrapped.action_masks().nonzero()[0].tolist()   # only drawing: every row is empty
[0]

Actions are ``Discrete(20)`` over the stable action codes (``engine.actions``); the legal
ones are ``action_masks()`` (the convention of sb3-contrib's MaskablePPO) and
``info["action_mask"]``. A step is one decision of the learner (a turn, or the placement of
a card it drew); the opponents' decisions in between are played inside the step. The
reward is paid once, on the step that ends the game (``envs.common``: ``"margin"`` or
``"win"``). An illegal action ends the episode with ``illegal_reward`` and
``info["illegal_action"] = True`` (the state is left as it was).

Requires the ``rl`` extra (Gymnasium).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .._optional import require
from ..agents import Agent, Budget, make_agent
from ..arena.simulate import agent_seed
from ..engine.actions import NUM_DISTINCT_ACTIONS
from ..engine.errors import ConfigurationError
from ..engine.observation import observe
from ..engine.seeds import SAMPLE, Rng, derive_seed
from ..engine.state import GameState, new_game
from .common import EpisodeSeeds, board_text, check_reward, final_rewards, make_rules
from .encoding import OBSERVATION_HIGH, OBSERVATION_SIZE, encode, legal_mask

_FEATURE = "the Gymnasium environment"
gymnasium = require("gymnasium", "rl", _FEATURE)

ENV_ID = "coloretto/Coloretto-v0"
"""The registered id."""
RENDER_MODES = ("human", "ansi")


def _opponent_specs(opponents: str | Sequence[str], players: int) -> list[str]:
    specs = (
        [s.strip() for s in opponents.split(",")] if isinstance(opponents, str) else list(opponents)
    )
    if len(specs) == 1:
        specs *= players - 1
    if len(specs) != players - 1 or not all(specs):
        raise ConfigurationError(
            f"opponents: one agent spec or {players - 1} (one per other seat), got {opponents!r}"
        )
    return specs


class ColorettoEnv(gymnasium.Env):  # type: ignore[misc,name-defined]
    """One learner seat against built-in agents (module docstring).

    Args:
        players: 2 to 5 seats.
        opponents: an agent spec (``make_agent``: ``random``, ``greedy``, ``heuristic``,
            ``mcts``, ``easy`` ...) for every other seat, or a comma list (or sequence) of
            ``players - 1`` specs, the seats after the learner in turn order.
        seat: the learner's seat, 0 to ``players - 1``, or ``"random"`` (drawn anew each
            episode from ``derive_seed(game_seed, SAMPLE)``).
        reward: ``"margin"`` or ``"win"``.
        budget: the opponents' thinking budget (``Budget.parse``: ``"200"`` iterations,
            ``"0.1s"``), or ``None`` for each agent's default.
        illegal_reward: the reward of an illegal action (which ends the episode).
        render_mode: ``None``, ``"human"`` or ``"ansi"``.
        **options: every other option of docs/rules.md §7 by its key.

    Raises:
        ConfigurationError: an unknown option, agent spec, seat, reward or render mode.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        players: int = 4,
        opponents: str | Sequence[str] = "heuristic",
        seat: int | str = "random",
        reward: str = "margin",
        budget: str | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.rules = make_rules(players, options)
        self.reward = check_reward(reward)
        if seat != "random" and (type(seat) is not int or not 0 <= seat < players):
            raise ConfigurationError(f"seat is {seat!r}; allowed: 0 to {players - 1} or 'random'")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigurationError(
                f"render_mode is {render_mode!r}; allowed: None, {', '.join(RENDER_MODES)}"
            )
        self.seat_option = seat
        self.specs = _opponent_specs(opponents, players)
        self.budget = Budget.parse(budget) if budget is not None else None
        for spec in set(self.specs):
            make_agent(spec, 0, self.budget).close()  # an unknown spec fails here, not in reset
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Box(
            low=0.0, high=OBSERVATION_HIGH, shape=(OBSERVATION_SIZE,), dtype=np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(NUM_DISTINCT_ACTIONS)
        self._seeds = EpisodeSeeds()
        self.state: GameState | None = None
        self.seat = 0
        self.agents: dict[int, Agent] = {}
        self._done = False

    # ----- the Gymnasium API ----------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game (from ``seed`` when given, else the next game of the last seed)
        and play the opponents up to the learner's first decision.

        Raises:
            ConfigurationError: ``seed`` is not a non-negative integer.
        """
        super().reset(seed=seed)
        fresh = int(self.np_random.integers(2**63)) if seed is None else None
        game_seed = self._seeds.next(seed, fresh)
        self.state = new_game(self.rules, game_seed)
        n = self.rules.players
        if self.seat_option == "random":
            self.seat = Rng(derive_seed(game_seed, SAMPLE)).below(n)
        else:
            self.seat = int(self.seat_option)
        self._close_agents()
        for i, spec in enumerate(self.specs):
            s = (self.seat + 1 + i) % n
            agent = make_agent(spec, agent_seed(game_seed, s), self.budget)
            agent.reset(s, self.rules)
            self.agents[s] = agent
        self._done = False
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action`` (an action code), then the opponents until the
        learner decides again or the game ends.

        Returns:
            ``(observation, reward, terminated, truncated, info)``; ``truncated`` is always
            false (every game ends).

        Raises:
            RuntimeError: no game, or the episode has ended (call ``reset``).
        """
        state = self.state
        if state is None or self._done:
            raise RuntimeError("the episode is over or not started: call reset()")
        code = int(action)
        if not 0 <= code < NUM_DISTINCT_ACTIONS or code not in state.legal_codes():
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        state.apply(code)
        self._play_opponents()
        reward = 0.0
        if state.is_over():
            self._done = True
            reward = final_rewards(state, self.reward)[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """``bool`` array of shape ``(20,)``: the learner's legal action codes (all false
        when the game is over)."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return legal_mask(observe(self.state, self.seat))

    def render(self) -> str | None:
        """The table as the learner sees it: printed (``"human"``) or returned (``"ansi"``)."""
        if self.render_mode is None or self.state is None:
            return None
        names = [
            f"seat {s + 1}" if s != self.seat else "learner" for s in range(self.rules.players)
        ]
        text = board_text(self.state, self.seat, names)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Close the opponents (external programs, pools)."""
        self._close_agents()

    # ----- inside -------------------------------------------------------------------------
    def _close_agents(self) -> None:
        for agent in self.agents.values():
            agent.close()
        self.agents = {}

    def _play_opponents(self) -> None:
        """Opponents decide (each on its own observation) until the learner is to move or
        the game is over.

        Raises:
            IllegalActionError: an opponent chose an action that is not legal.
        """
        state = self.state
        assert state is not None
        while not state.is_over() and state.to_move != self.seat:
            s = state.to_move
            agent = self.agents[s]
            legal = state.legal_actions()
            if agent.needs_true_state:
                agent.peek(state.copy())
            state.apply(agent.act(observe(state, s), legal))

    def _observation(self) -> np.ndarray:
        assert self.state is not None
        return encode(observe(self.state, self.seat))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:ColorettoEnv")
