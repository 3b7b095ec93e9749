"""Print the speed of the computer players: heuristic decisions per second and mcts
iterations per second, with the fast core (``coloretto.fastcore``, Numba) and engine-only,
and the factor between them.

Usage: python benchmarks/mcts_speed.py [--seconds 2] [--players 4] [--positions 6] [--json]

Positions are taken from heuristic self-play games (seeds 0, 1, ...); mcts searches each for
``--seconds`` with each rollout back end (default policy ``hybrid``).
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from coloretto.agents.heuristic import heuristic_code
from coloretto.agents.mcts import SearchParams, _warmup_fast_core, fast_rollout_available, search
from coloretto.arena.bench_search import search_positions
from coloretto.engine import Rules, new_game, observe
from coloretto.engine.seeds import Rng
from coloretto.engine.state import GameState


def positions(players: int, count: int) -> list[GameState]:
    """Decisions with at least two legal actions from heuristic self-play, spread over games
    (``coloretto.arena.bench_search.search_positions``, the positions of ``coloretto bench
    mcts``)."""
    return search_positions(players, count)


def heuristic_rate(players: int, seconds: float) -> dict[str, float]:
    """Heuristic decisions per second (with more than one legal action) in self-play."""
    times: list[float] = []
    t_end = time.perf_counter() + seconds
    seed = 100
    while time.perf_counter() < t_end:
        st = new_game(Rules(players=players), seed)
        seed += 1
        while not st.is_over():
            codes = st.legal_codes()
            if len(codes) == 1:
                st.apply_code(codes[0])
                continue
            t = time.perf_counter()
            obs = observe(st, st.to_move)
            code = heuristic_code(obs.state, st.to_move, codes)
            times.append(time.perf_counter() - t)
            st.apply_code(code)
    times.sort()
    return {
        "decisions": len(times),
        "decisions_per_s": len(times) / sum(times),
        "mean_ms": 1000 * sum(times) / len(times),
        "p95_ms": 1000 * times[int(0.95 * len(times))],
    }


def mcts_rate(states: list[GameState], seconds: float, engine_only: bool, policy: str) -> float:
    """Mean iterations per second of ``search`` over ``states``."""
    its = 0
    secs = 0.0
    for i, st in enumerate(states):
        obs = observe(st, st.to_move)
        res = search(
            obs.sample_state,
            obs.seat,
            Rng(i),
            None,
            seconds,
            SearchParams(engine_only=engine_only, policy=policy),
        )
        its += res.iterations
        secs += res.seconds
    return its / secs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per position")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument(
        "--policy", default="hybrid", help="rollout policy (hybrid, threshold, greedy, random)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    states = positions(args.players, args.positions)
    result: dict[str, object] = {
        "players": args.players,
        "positions": len(states),
        "policy": args.policy,
    }
    result["heuristic"] = heuristic_rate(args.players, args.seconds)
    result["engine_only_iterations_per_s"] = mcts_rate(states, args.seconds, True, args.policy)
    if fast_rollout_available():
        _warmup_fast_core()
        fast = mcts_rate(states, args.seconds, False, args.policy)
        result["fast_iterations_per_s"] = fast
        result["fast_factor"] = fast / float(result["engine_only_iterations_per_s"])  # type: ignore[arg-type]
    else:
        result["fast_iterations_per_s"] = None
    if args.json:
        print(json.dumps(result))
        return
    h = result["heuristic"]
    assert isinstance(h, dict)
    print(f"computer players, {args.players} players, Python {platform.python_version()}")
    print(
        f"  heuristic      {h['decisions_per_s']:>10,.0f} decisions/s  (mean {h['mean_ms']:.3f} ms, p95 {h['p95_ms']:.3f} ms)"
    )
    print(
        f"  mcts engine    {result['engine_only_iterations_per_s']:>10,.0f} iterations/s  (rollout policy {args.policy})"
    )
    if result["fast_iterations_per_s"] is not None:
        print(
            f"  mcts fastcore  {result['fast_iterations_per_s']:>10,.0f} iterations/s  (x{result['fast_factor']:.1f})"
        )
    else:
        print("  mcts fastcore  not available (install the 'fast' extra)")


if __name__ == "__main__":
    main()
