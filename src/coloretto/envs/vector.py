"""The batched environment: N games of Coloretto stepped at once inside Numba.

>>> from coloretto.envs.vector import VectorEnv
>>> env = VectorEnv(8, players=4)
>>> obs, mask = env.reset(seed=1)
>>> obs.shape == (8, env.observation_size), mask.shape, mask.dtype.name
(True, (8, 20), 'bool')
>>> actions = env.random_actions()
>>> obs, mask, rewards, dones = env.step(actions)
>>> rewards.shape, dones.shape
((8, 4), (8,))

Each env holds one game (docs/rules.md) in the fast core's array encoding
(``coloretto.fastcore.layout``); its transitions are the fast core's twins of the engine
(``coloretto.fastcore.kernels``), so the games are the engine's games. After ``reset(seed)``
and after every ``step(actions)``:

* ``obs``: float32 ``(num_envs, observation_size)``, the observation of the seat to move in
  each env (``observation="encoding"``: ``coloretto.envs.encoding.encode`` of
  ``observe(state, seat)``, compiled; ``"features"``: the fast core's position features
  ``coloretto.fastcore.value.features``, what the trained policy reads);
* ``mask``: bool ``(num_envs, NUM_DISTINCT_ACTIONS)``, that seat's legal action codes
  (``coloretto.engine.actions``: draw, place in row r, take row r, choose a starting colour);
* ``rewards``: float32 ``(num_envs, players)``, every seat's reward of a game that ended in
  this step, 0 otherwise (``reward="margin"``: own total minus the best other total;
  ``"win"``: 1/k for each of the k seats with the highest total, 0 for the others);
* ``dones``: bool ``(num_envs,)``, a game ended in this step. The env has then already
  dealt its next game (automatic reset): ``obs`` and ``mask`` are of that game's first
  decision.

``seat`` holds the seat to move in each env. Seats named in ``opponents`` are played inside
the kernel (``random``: uniform over the legal actions; ``greedy``: the engine's reference
policy ``engine.policy.greedy_code``), so ``step`` returns only at decisions of the other
seats (the learner's, in training).

Seeds (the one seed scheme, ``coloretto.engine.seeds``): game ``e`` of env ``i`` (the
env's ``e``-th game since ``reset``, from 0) is ``engine.state.new_game(rules,
derive_seed(seed, GAME, e * num_envs + i))``, and a seat played inside the kernel draws from
``Rng(derive_seed(game_seed, AGENT, seat))``, as ``make_agent(spec, ...)`` of
``coloretto simulate`` would. ``game_seeds`` holds each env's current game seed, so any
game can be replayed in the engine.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Final

import numpy as np

from .._optional import require
from ..engine.actions import NUM_DISTINCT_ACTIONS
from ..engine.errors import ConfigurationError, IllegalActionError
from ..engine.rules import Rules
from ..fastcore import kernels as K
from ..fastcore import layout as L
from ..fastcore import vector as VK
from ..fastcore.api import rules_template
from ..fastcore.value import N_FEATURES

__all__ = ["OBSERVATIONS", "OPPONENTS", "REWARDS", "VectorEnv", "bench_vector"]

OPPONENTS: Final = {"random": L.POLICY_RANDOM, "greedy": L.POLICY_GREEDY}
"""Agents a seat can be played by inside the kernel (the batch simulator's twins)."""
OBSERVATIONS: Final = {"encoding": VK.OBS_ENCODING, "features": VK.OBS_FEATURES}
REWARDS: Final = {"margin": VK.REWARD_MARGIN, "win": VK.REWARD_WIN}
_MASK64: Final = (1 << 64) - 1
MAX_ENVS: Final = 1 << 22


def _observation_size(kind: str) -> int:
    if kind == "features":
        return int(N_FEATURES)
    from .encoding import OBSERVATION_SIZE

    return int(OBSERVATION_SIZE)


def default_threads() -> int:
    """Threads the kernels use by default: Numba's thread count (``NUMBA_NUM_THREADS``,
    else the cores)."""
    numba = require("numba", "fast", "the batched environment")
    return int(numba.config.NUMBA_NUM_THREADS)


def _set_threads(threads: int) -> None:
    numba = require("numba", "fast", "the batched environment")
    numba.set_num_threads(threads)


class VectorEnv:
    """``num_envs`` games stepped at once (module docstring).

    Args:
        num_envs: games, 1 to ``MAX_ENVS``.
        rules: the rules of every game (default ``Rules(players=players, edition=edition,
            table=table)``).
        players, edition, table: shorthands used when ``rules`` is not given.
        opponents: ``None`` (the caller decides every seat), or the agents of the seats
            played inside the kernel: one sequence of ``players`` entries for every env, or
            one such sequence per env; an entry is ``"random"``, ``"greedy"`` or ``None``
            (the caller decides that seat).
        observation: ``"encoding"`` (default) or ``"features"``.
        reward: ``"margin"`` (default) or ``"win"``.
        threads: Numba threads for the kernels, 1 (default) to Numba's thread count (the
            cores). More than one pays only on an otherwise idle machine: on a busy one the
            parallel loop waits for threads the scheduler has not run.

    Raises:
        ConfigurationError: any argument out of range (the message names it).
    """

    def __init__(
        self,
        num_envs: int,
        rules: Rules | None = None,
        *,
        players: int = 4,
        edition: str = "classic",
        table: str = "brown",
        opponents: Sequence[str | None] | Sequence[Sequence[str | None]] | None = None,
        observation: str = "encoding",
        reward: str = "margin",
        threads: int = 1,
    ) -> None:
        if type(num_envs) is not int or not 1 <= num_envs <= MAX_ENVS:
            raise ConfigurationError(
                f"num_envs must be an integer 1 to {MAX_ENVS}, not {num_envs!r}"
            )
        if rules is None:
            rules = Rules(players=players, edition=edition, table=table)  # type: ignore[arg-type]
        if observation not in OBSERVATIONS:
            raise ConfigurationError(
                f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}"
            )
        if reward not in REWARDS:
            raise ConfigurationError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.rules = rules
        self.num_envs = num_envs
        self.players = rules.players
        self.observation = observation
        self.reward = reward
        self.observation_size = _observation_size(observation)
        self.threads = threads
        if type(self.threads) is not int or not 1 <= self.threads <= default_threads():
            raise ConfigurationError(
                f"threads must be an integer 1 to {default_threads()}, not {threads!r}"
            )
        self._blocks = max(1, min(num_envs, 4 * self.threads))
        self._template = rules_template(rules).copy()
        self._pol = self._policies(opponents)
        n = num_envs
        self._states = np.zeros((n, L.SIZE), np.int32)
        self._rngs = np.zeros((n, L.MAX_SEATS), np.uint64)
        self.game_seeds = np.zeros(n, np.uint64)
        self._shuffle_seeds = np.zeros(n, np.uint64)
        self.episodes = np.zeros(n, np.int64)
        self.obs = np.zeros((n, self.observation_size), np.float32)
        self.mask = np.zeros((n, NUM_DISTINCT_ACTIONS), np.bool_)
        self.rewards = np.zeros((n, self.players), np.float32)
        self.dones = np.zeros(n, np.bool_)
        self._action_rngs = np.zeros(n, np.uint64)
        self._seed: int | None = None

    def _policies(
        self, opponents: Sequence[str | None] | Sequence[Sequence[str | None]] | None
    ) -> np.ndarray:
        n, p = self.num_envs, self.players
        pol = np.full((n, L.MAX_SEATS), VK.EXTERNAL, np.int32)
        if opponents is None:
            return pol
        rows = list(opponents)
        per_env = len(rows) > 0 and not isinstance(rows[0], str | None)
        table = rows if per_env else [rows] * n
        if len(table) != n:
            raise ConfigurationError(f"opponents: {n} envs need {n} seat lists, got {len(table)}")
        for i, seats in enumerate(table):
            seats = list(seats)  # type: ignore[arg-type]
            if len(seats) != p:
                raise ConfigurationError(
                    f"opponents: {p} players need {p} entries per env, got {len(seats)}"
                )
            for seat, spec in enumerate(seats):
                if spec is None:
                    continue
                if spec not in OPPONENTS:
                    raise ConfigurationError(
                        f"opponents: {spec!r} is not one of {', '.join(OPPONENTS)} or None"
                    )
                pol[i, seat] = OPPONENTS[spec]
            if all(pol[i, s] != VK.EXTERNAL for s in range(p)):
                raise ConfigurationError(f"opponents: env {i} leaves no seat to the caller")
        return pol

    @property
    def seat(self) -> np.ndarray:
        """int32 ``(num_envs,)``: the seat to move in each env."""
        return self._states[:, L.TO_MOVE].copy()

    @property
    def states(self) -> np.ndarray:
        """int32 ``(num_envs, layout.SIZE)``: the fast states (a copy; the pile order is the
        hidden part, never in the observations)."""
        return self._states.copy()

    def reset(self, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """Deal game 0 of every env from ``seed`` (any integer, taken modulo 2**64).

        Returns:
            ``(obs, mask)`` of the first decision of a caller's seat in every env (the
            arrays ``self.obs`` and ``self.mask``, overwritten by the next call).

        Raises:
            ConfigurationError: ``seed`` is not an integer.
        """
        if type(seed) is not int:
            raise ConfigurationError(f"seed must be an integer, not {seed!r}")
        self._seed = seed & _MASK64
        root = np.uint64(self._seed)
        _set_threads(self.threads)
        VK.reset_all(
            self._template,
            root,
            self._states,
            self._pol,
            self._rngs,
            self.game_seeds,
            self._shuffle_seeds,
            self.episodes,
            OBSERVATIONS[self.observation],
            self.obs,
            self.mask,
            self._blocks,
        )
        for i in range(self.num_envs):
            K.rng_seed(self._action_rngs[i:], K.derive_seed2(root, K.STREAM_AGENT, i))
        self.rewards[:] = 0
        self.dones[:] = False
        return self.obs, self.mask

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action code per env for its seat to move (``seat``).

        Args:
            actions: integers ``(num_envs,)``, each legal in its env (``mask``).

        Returns:
            ``(obs, mask, rewards, dones)`` (module docstring; the env's own arrays,
            overwritten by the next call).

        Raises:
            RuntimeError: ``reset`` was not called.
            ValueError: ``actions`` has the wrong shape or type.
            IllegalActionError: an action is not legal in its env (nothing is applied).
        """
        if self._seed is None:
            raise RuntimeError("call reset(seed) before step")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be integers of shape ({self.num_envs},), not {acts.dtype} "
                f"{acts.shape}"
            )
        acts = acts.astype(np.int32, copy=False)
        bad = VK.first_illegal(self.mask, acts)
        if bad != VK.NO_ERROR:
            legal = np.flatnonzero(self.mask[bad]).tolist()
            raise IllegalActionError(
                f"env {bad}: action {int(acts[bad])} is not legal (legal: {legal})", "§3"
            )
        _set_threads(self.threads)
        VK.step_all(
            self._template,
            np.uint64(self._seed),
            self._states,
            self._pol,
            self._rngs,
            self.game_seeds,
            self._shuffle_seeds,
            self.episodes,
            acts,
            OBSERVATIONS[self.observation],
            REWARDS[self.reward],
            self.obs,
            self.mask,
            self.rewards,
            self.dones,
            self._blocks,
        )
        return self.obs, self.mask, self.rewards, self.dones

    def random_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly drawn legal action per env (compiled; each env its own ``Rng``,
        seeded at ``reset`` from ``derive_seed(seed, AGENT, i)``).

        Returns:
            int32 ``(num_envs,)`` (``out`` if given).
        """
        if out is None:
            out = np.empty(self.num_envs, np.int32)
        _set_threads(self.threads)
        VK.random_actions(self.mask, self._action_rngs, out, self._blocks)
        return out


def bench_vector(
    num_envs: int,
    players: int = 4,
    seconds: float = 3.0,
    *,
    seed: int = 0,
    threads: int = 1,
    edition: str = "classic",
) -> dict[str, object]:
    """Steps per second of ``VectorEnv`` with observations (``"encoding"``) and masks, all
    seats decided outside the kernel by random legal actions.

    Each timed iteration draws the actions with the compiled ``random_actions`` (a separate
    kernel, before the step) and runs one ``step``: both are inside the timed loop, so
    ``steps_per_s`` counts the whole loop; ``step_steps_per_s`` counts the ``step`` calls
    alone. A first untimed ``reset`` and step compile or load the kernels
    (``compile_seconds``).

    Returns:
        ``{"envs", "players", "edition", "threads", "seconds", "steps", "games",
        "steps_per_s", "step_steps_per_s", "games_per_s", "steps_per_cpu_s",
        "compile_seconds", "actions", "observation_size", "load_average", "cpus"}``
        (``steps_per_cpu_s``: steps per second of the process's CPU time over all its
        threads, which depends less on how busy the machine is).

    Raises:
        ConfigurationError: as ``VectorEnv``; ``seconds`` not positive.
    """
    import time

    if not seconds > 0:
        raise ConfigurationError(f"seconds must be positive, not {seconds!r}")
    t0 = time.perf_counter()
    env = VectorEnv(num_envs, players=players, edition=edition, threads=threads)
    env.reset(seed)
    actions = np.empty(num_envs, np.int32)
    env.step(env.random_actions(actions))
    compile_seconds = time.perf_counter() - t0
    env.reset(seed)
    iterations = 0
    games = 0
    in_step = 0.0
    cpu0 = time.process_time()
    start = time.perf_counter()
    end = start + seconds
    now = start
    while now < end:
        env.random_actions(actions)
        t = time.perf_counter()
        _, _, _, dones = env.step(actions)
        now = time.perf_counter()
        in_step += now - t
        games += int(dones.sum())
        iterations += 1
    elapsed = now - start
    cpu = time.process_time() - cpu0
    steps = iterations * num_envs
    return {
        "envs": num_envs,
        "players": players,
        "edition": edition,
        "threads": env.threads,
        "seconds": round(elapsed, 3),
        "steps": steps,
        "games": games,
        "steps_per_s": steps / elapsed,
        "step_steps_per_s": steps / in_step,
        "games_per_s": games / elapsed,
        "steps_per_cpu_s": steps / cpu if cpu > 0 else None,
        "compile_seconds": round(compile_seconds, 2),
        "actions": (
            "random legal actions drawn outside the step kernel by a separate compiled "
            "kernel, inside the timed loop (steps_per_s); step_steps_per_s times step alone"
        ),
        "observation_size": env.observation_size,
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "cpus": os.cpu_count(),
    }
