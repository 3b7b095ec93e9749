"""Batch simulator: many whole games of random or greedy players in the compiled core,
optionally over several processes (used by ``coloretto simulate``).

It plays THE SAME GAMES as the engine path of ``arena.simulate`` for the same root seed
(one seed scheme, ``engine.seeds``): game ``i`` is dealt from ``derive_seed(seed, GAME, i)``
by ``kernels.deal`` (the twin of ``engine.setup.deal``; games of a match as
``engine.state.new_game`` deals them), the player in seat ``s`` draws from
``Rng(derive_seed(game_seed, AGENT, s))`` as the agent ``make_agent(spec, agent_seed)``
does, and no random number is drawn for a decision with one legal action (the driver does
not ask the agent then). So the per-game scores are equal, any game can be rerun alone
(``first_game``) and results do not depend on the number of worker processes.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Final

import numpy as np

from ..engine.cards import COLORS
from ..engine.errors import ConfigurationError
from ..engine.rules import Rules
from ..engine.setup import check_removed
from . import kernels as K
from . import layout as L
from .api import rules_template

__all__ = ["SUPPORTED_AGENTS", "simulate_batch", "supports"]

SUPPORTED_AGENTS: Final = {
    "random": L.POLICY_RANDOM,
    "greedy": L.POLICY_GREEDY,
    "easy": L.POLICY_GREEDY,
}
"""Agent specs the batch simulator plays itself: ``random`` (``RandomAgent``:
``legal[rng.below(len(legal))]``) and ``greedy`` (``GreedyAgent``: the reference
``engine.policy.greedy_code``, ties included; ``easy`` is greedy without a budget), each
drawing exactly the random numbers its engine agent draws."""

_MASK64: Final = (1 << 64) - 1


def supports(agent_specs: Sequence[str]) -> bool:
    """True when every spec in ``agent_specs`` (non-empty) is one the batch simulator plays:
    ``random``, ``greedy`` or ``easy``."""
    return len(agent_specs) > 0 and all(spec in SUPPORTED_AGENTS for spec in agent_specs)


def _run_chunk(
    template: np.ndarray,
    seed: int,
    first_game: int,
    count: int,
    pol: np.ndarray,
    removed_mask: int,
    first_player: int,
) -> np.ndarray:
    out = np.empty((count, int(template[L.N])), np.int64)
    # always a writable copy: a read-only array is another Numba type (another compilation)
    K.simulate_games(
        template.copy(),
        np.uint64(seed & _MASK64),
        first_game,
        count,
        pol,
        removed_mask,
        first_player,
        out,
    )
    return out


def _context() -> multiprocessing.context.BaseContext:
    # fork shares the already loaded compiled code with the workers; elsewhere spawn.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def simulate_batch(
    rules: Rules,
    agent_specs: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    *,
    first_game: int = 0,
    removed_colors: Sequence[int] | None = None,
    first_player: int | None = None,
) -> list[list[int]]:
    """Play ``games`` games (each a whole match when ``rules.match_games`` > 1) and return
    each game's final totals, one list of ``rules.players`` ints per game, in game order.

    Args:
        rules: any rules (every option; with ``starting_cards="choose"`` the seats choose
            their starting colours as their agents do: uniformly, with their own
            generators).
        agent_specs: one spec per seat (or a single spec for every seat), each supported
            (see :func:`supports`).
        games: number of games, >= 0.
        seed: root seed (any integer, taken modulo 2**64 as ``derive_seed`` does); game
            ``i`` is the game ``arena.simulate.play_game(rules, specs, seed, first_game +
            i)`` plays.
        workers: processes to spread the games over (>= 1); results are identical for any
            value.
        first_game: index of the first game (to rerun games alone).
        removed_colors: colour indices removed in every game (2 and 3 players), default at
            random per game (``deal``'s ``removed_colors``); e.g. ``[2]`` (gray) for the
            ``bga`` preset at 3 players.
        first_player: the first seat of every game, default at random per game (``deal``'s
            ``first_player``).

    Raises:
        ConfigurationError: an unsupported agent spec, a wrong number of specs, bad removed
            colours or first player, or bad ``games``/``workers``.
    """
    n = rules.players
    specs = list(agent_specs)
    if len(specs) == 1:
        specs = specs * n
    if len(specs) != n:
        raise ConfigurationError(f"{n} players need {n} agent specs (or one), got {len(specs)}")
    if not supports(specs):
        bad = [s for s in specs if s not in SUPPORTED_AGENTS]
        raise ConfigurationError(
            f"the batch simulator cannot play {', '.join(map(repr, bad))}; it plays "
            f"{', '.join(SUPPORTED_AGENTS)}"
        )
    if type(games) is not int or games < 0:
        raise ConfigurationError(f"games must be a non-negative integer, got {games!r}")
    if type(workers) is not int or workers < 1:
        raise ConfigurationError(f"workers must be a positive integer, got {workers!r}")
    removed_mask = -1
    if removed_colors is not None:
        removed = tuple(sorted(removed_colors))
        check_removed(rules, removed)
        removed_mask = 0
        for c in removed:
            removed_mask |= 1 << c
    first = -1
    if first_player is not None:
        if type(first_player) is not int or not 0 <= first_player < n:
            raise ConfigurationError(
                f"first player must be a seat 0..{n - 1}, not {first_player!r}"
            )
        first = first_player
    template = rules_template(rules)
    pol = np.array([SUPPORTED_AGENTS[s] for s in specs], np.int32)
    if games == 0:
        return []
    workers = min(workers, games)
    if workers == 1:
        scores: list[list[int]] = _run_chunk(
            template, seed, first_game, games, pol, removed_mask, first
        ).tolist()
        return scores
    bounds = [games * w // workers for w in range(workers + 1)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
        futures = [
            pool.submit(
                _run_chunk,
                template,
                seed,
                first_game + bounds[w],
                bounds[w + 1] - bounds[w],
                pol,
                removed_mask,
                first,
            )
            for w in range(workers)
        ]
        results = [f.result() for f in futures]
    merged: list[list[int]] = np.concatenate(results).tolist()
    return merged


def bga_removed(rules: Rules) -> list[int] | None:
    """The colours the ``bga`` preset removes under ``rules`` (gray at 3 players), else None."""
    return [COLORS.index("gray")] if rules.players == 3 else None
