"""Fast playout benchmark (``coloretto bench playout --fast``).

The policy is the one of ``coloretto/arena/data/limit.c`` and of the engine playout benchmark: at
each decision a uniform choice among {draw if legal} U {take row r for each legal r}; after
a draw a uniform choice among the rows the card may go to. Each game is dealt (shuffled)
inside the timed loop and ends with optimal scoring of every seat, as in ``limit.c``.

The games are those of the engine benchmark (``arena.bench.bench_playout``) for the same
seed, decision for decision (``kernels.bench_random``: the same deals and the same
``SmallChoices`` stream), so both report the same ``mean_winner_score``.
"""

from __future__ import annotations

import time
from typing import Any, Final

import numpy as np

from ..engine.rules import Rules
from . import kernels as K
from .api import rules_template, warmup

__all__ = ["fast_playout_bench"]

_MASK64: Final = (1 << 64) - 1


def fast_playout_bench(players: int, games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` classic games (brown table) of ``players`` players with the benchmark
    policy in the compiled core and time them: the games ``arena.bench.bench_playout(players,
    games, seed)`` plays (module docstring).

    The kernels are warmed up (compiled, or loaded from the disk cache) before the timed
    region; that first-call cost is reported as ``compile_seconds`` (0-ish figures mean the
    process had already warmed up).

    Returns:
        ``{"players", "games", "seconds", "games_per_s", "mean_winner_score",
        "compile_seconds"}`` (seconds of wall-clock time).

    Raises:
        ValueError: ``players`` outside 2..5 or ``games`` < 1.
    """
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    if type(players) is not int or not 2 <= players <= 5:
        raise ValueError(f"players must be 2 to 5, got {players!r}")
    compile_seconds = warmup()
    template = rules_template(Rules(players=players, edition="classic", table="brown")).copy()
    K.bench_random(template, np.uint64((seed + 1) & _MASK64), 10)  # touch the code path once more
    t0 = time.perf_counter()
    total = K.bench_random(template, np.uint64(seed & _MASK64), games)
    seconds = time.perf_counter() - t0
    return {
        "players": players,
        "games": games,
        "seconds": seconds,
        "games_per_s": games / seconds if seconds > 0 else float("inf"),
        "mean_winner_score": total / games,
        "compile_seconds": compile_seconds,
    }
