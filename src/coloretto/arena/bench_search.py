"""The search speed benchmark (``coloretto bench mcts``): iterations per second of the
compiled information-set MCTS (``agents.ismcts``) over a fixed set of positions, with
limit.c's games per second from the same run.

Positions (``search_positions``): decisions with at least two legal actions from
``heuristic`` self-play games dealt from seeds 0, 1, ... (every 23rd decision from the 8th),
classic rules; the same positions as ``benchmarks/mcts_speed.py``. Each position is searched
for ``seconds`` from its seat's observation on one core; the rate is the total iterations
over the total search time. The rollout policy is the search's default, ``hybrid``.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from ..agents.base import Budget
from ..agents.heuristic import heuristic_code
from ..engine.observation import observe
from ..engine.rules import Rules
from ..engine.state import GameState, new_game
from .bench import LimitUnavailable, _combine, limit_exe, run_limit_exe

__all__ = ["bench_search", "search_positions"]

LIMIT_GAMES = 100_000
"""Games limit.c plays (in two halves around our measurement)."""


def search_positions(players: int, count: int) -> list[GameState]:
    """``count`` decisions with at least two legal actions from heuristic self-play (module
    docstring), in game order.

    Raises:
        ValueError: ``count`` < 1.
        ConfigurationError: ``players`` outside 2 to 5.
    """
    if count < 1:
        raise ValueError(f"the number of positions must be positive, not {count}")
    out: list[GameState] = []
    seed = 0
    while len(out) < count:
        st = new_game(Rules(players=players), seed)
        step = 0
        while not st.is_over():
            codes = st.legal_codes()
            if len(codes) > 1 and step % 23 == 7 and len(out) < count:
                out.append(st.copy())
            st.apply_code(heuristic_code(st, st.to_move, codes))
            step += 1
        seed += 1
    return out


def _compiled_rates(states: list[GameState], seconds: float, evaluation: str) -> dict[str, Any]:
    from ..agents.ismcts import ISMCTSAgent, ISMCTSParams

    agent = ISMCTSAgent(0, Budget(seconds=seconds), ISMCTSParams(evaluation=evaluation))
    agent.reset(states[0].to_move, states[0].rules)
    iterations = 0
    wall = 0.0
    cpu = 0.0
    per: list[float] = []
    for st in states:
        obs = observe(st, st.to_move)
        c0 = time.process_time()
        res = agent.search(obs)
        cpu += time.process_time() - c0
        iterations += res.iterations
        wall += res.seconds
        per.append(res.iterations / res.seconds)
    return {
        "iterations": iterations,
        "seconds": wall,
        "iterations_per_s": iterations / wall,
        "cpu_seconds": cpu,
        "iterations_per_cpu_s": iterations / cpu if cpu > 0 else None,
        "per_position_iterations_per_s": per,
    }


def _reference_rate(states: list[GameState], seconds: float) -> float:
    from ..agents.mcts import V1_PARAMS, _warmup_fast_core, decision_rng, search

    _warmup_fast_core()
    its = 0
    secs = 0.0
    for i, st in enumerate(states):
        obs = observe(st, st.to_move)
        res = search(obs.sample_state, obs.seat, decision_rng(i, obs), None, seconds, V1_PARAMS)
        its += res.iterations
        secs += res.seconds
    return its / secs


def bench_search(
    players: int = 4,
    positions: int = 6,
    seconds: float = 2.0,
    *,
    evaluation: str = "rollout",
    reference: bool = False,
    limit: bool = True,
    limit_c: str | os.PathLike[str] | None = None,
    limit_games: int = LIMIT_GAMES,
) -> dict[str, Any]:
    """Measure the compiled search (module docstring).

    Args:
        evaluation: the search's leaf evaluation (``rollout``: the ``hybrid`` policy).
        reference: also measure the Python reference search (``mcts-v1``) on the same
            positions and report the factor.
        limit / limit_c / limit_games: run limit.c (found by ``find_limit_c``) in two halves
            around the measurement, as ``coloretto bench playout`` does.

    Returns:
        ``{"players", "positions", "seconds_per_position", "policy", "evaluation",
        "iterations", "seconds", "iterations_per_s", "cpu_seconds",
        "iterations_per_cpu_s", "per_position_iterations_per_s", "compile_seconds",
        "load_average", "limit_games_per_s", "limit_games", "limit_note"}`` and with
        ``reference`` ``"reference_iterations_per_s"`` and ``"factor"``.

    Raises:
        ValueError: bad counts or seconds.
        ModuleNotFoundError: the fast core is not installed.
    """
    if not 0 < seconds <= 3600:
        raise ValueError(f"seconds per position must be above 0 and at most 3600, not {seconds}")
    if limit_games < 2:
        raise ValueError(f"limit.c needs at least 2 games, not {limit_games}")
    from ..fastcore.search import warm_search

    compile_seconds = warm_search()
    states = search_positions(players, positions)
    report: dict[str, Any] = {
        "players": players,
        "positions": len(states),
        "seconds_per_position": seconds,
        "policy": "hybrid",
        "evaluation": evaluation,
    }
    note: str | None = "limit.c not run (--no-limit)"
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="coloretto-limit-") as tmp:
        exe: Path | None = None
        if limit:
            try:
                exe = limit_exe(limit_c, players, Path(tmp))
                runs.append(run_limit_exe(exe, players, limit_games // 2))
                note = None
            except LimitUnavailable as exc:
                note = str(exc)
                exe = None
        report.update(_compiled_rates(states, seconds, evaluation))
        if reference:
            ref = _reference_rate(states, seconds)
            report["reference_iterations_per_s"] = ref
            report["factor"] = report["iterations_per_s"] / ref
        if exe is not None:
            try:
                runs.append(run_limit_exe(exe, players, limit_games - limit_games // 2))
            except LimitUnavailable as exc:
                note = str(exc)
                runs = []
    report["compile_seconds"] = compile_seconds
    report["load_average"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    report["limit_games_per_s"] = None
    report["limit_games"] = None
    report["limit_note"] = note
    if runs:
        lim = runs[0] if len(runs) == 1 else _combine(runs[0], runs[1])
        report["limit_games_per_s"] = lim["games_per_s"]
        report["limit_games"] = lim["games"]
    return report
