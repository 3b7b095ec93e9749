"""Decision latency of the difficulty levels (``coloretto.agents.registry.DIFFICULTIES``).

Usage: python benchmarks/level_latency.py [--games 4] [--players 4] [--seed 0] [--json]
       [--level NAME=SPEC ...]

Each level (default: every level of ``DIFFICULTIES`` with its own budget; ``--level``
replaces them, ``SPEC`` may carry a budget, ``NAME=ismcts@300``) plays ``--games`` games in
one seat (rotated) against ``heuristic`` opponents; every decision with a choice is timed
from the observation handed to the agent to its answer, in wall-clock seconds and in CPU
seconds of the process (``time.process_time``: what the decision costs when the machine is
not shared; on a loaded machine the wall clock also counts the waits for a core). Prints
p50, p95, mean and maximum per level, the load average, and the win share over those games
(a small sample: for time, not strength).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence

from coloretto.agents import make_agent
from coloretto.agents.base import Agent
from coloretto.agents.registry import DIFFICULTIES
from coloretto.arena.driver import play_out, start_game
from coloretto.arena.stats import win_shares
from coloretto.engine import Rules
from coloretto.engine.actions import Action
from coloretto.engine.observation import Observation


class Timed(Agent):
    """Wraps an agent and records the wall-clock seconds of each decision with a choice."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner.seed, inner.budget)
        self.inner = inner
        self.name = inner.name  # type: ignore[misc]
        self.times: list[float] = []
        self.cpu: list[float] = []

    def reset(self, seat: int, rules: Rules) -> None:
        self.inner.reset(seat, rules)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        t = time.perf_counter()
        c = time.process_time()
        action = self.inner.act(observation, legal)
        if len(legal) > 1:
            self.times.append(time.perf_counter() - t)
            self.cpu.append(time.process_time() - c)
        return action


def _p(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", action="append", default=[], help="NAME=SPEC[@BUDGET]")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    levels = {name: name for name in DIFFICULTIES}
    if args.level:
        levels = {}
        for item in args.level:
            name, sep, spec = item.partition("=")
            if not sep or not spec:
                parser.error(f"--level {item!r}: use NAME=SPEC (e.g. hard=ismcts@300)")
            levels[name] = spec
    rules = Rules(players=args.players)
    out: dict[str, object] = {
        "players": args.players,
        "games": args.games,
        "load_average": list(os.getloadavg()),
        "levels": {},
    }
    for name, spec in levels.items():
        times: list[float] = []
        cpu: list[float] = []
        share = 0.0
        for g in range(args.games):
            seat = g % args.players
            timed = Timed(make_agent(spec, seed=g))
            agents: list[Agent] = [make_agent("heuristic", seed=s) for s in range(args.players)]
            agents[seat] = timed
            game = start_game(rules, args.seed * 1000 + g, ["x"] * args.players)
            play_out(game, agents)
            times += timed.times
            cpu += timed.cpu
            share += win_shares(game.state.totals())[seat]
        inner = timed.inner
        row = {
            "spec": spec,
            "agent": inner.name,
            "budget": str(inner.budget),
            "decisions": len(times),
            "p50_s": _p(times, 0.50),
            "p95_s": _p(times, 0.95),
            "mean_s": sum(times) / len(times),
            "max_s": max(times),
            "cpu_p50_s": _p(cpu, 0.50),
            "cpu_p95_s": _p(cpu, 0.95),
            "cpu_max_s": max(cpu),
            "win_share_vs_heuristic": share / args.games,
        }
        out["levels"][name] = row  # type: ignore[index]
        if not args.json:
            print(
                f"{name:<8} {inner.name:<13} decisions={row['decisions']:<5} "
                f"p50={row['p50_s']:.4f}s p95={row['p95_s']:.4f}s mean={row['mean_s']:.4f}s "
                f"max={row['max_s']:.4f}s; CPU p50={row['cpu_p50_s']:.4f}s "
                f"p95={row['cpu_p95_s']:.4f}s max={row['cpu_max_s']:.4f}s; "
                f"win share {row['win_share_vs_heuristic']:.2f} ({args.games} games)"
            )
    if args.json:
        print(json.dumps(out))
    else:
        load = out["load_average"]
        print(f"load average at the start: {load}")


if __name__ == "__main__":
    main()
