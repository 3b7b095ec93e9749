"""CPU time per game of the fast core's kernels, for comparing builds on a loaded machine.

Wall-clock rates on a shared 2-core machine vary by 2x from run to run; the CPU time this
process spends (``time.process_time``) varies much less, so it is what this script times:

* ``batch_random`` / ``batch_greedy``: ``simulate_batch`` (one worker) of 4 random or 4
  greedy players, the games ``coloretto simulate`` plays;
* ``bench``: the playout benchmark's games (``kernels.bench_random``, as
  ``coloretto bench playout --fast``);
* ``rollout_random`` / ``rollout_greedy``: ``rollout_scores`` from the start of a 4-player
  game.

Every figure is games (or playouts) per CPU second, after an untimed warm-up call. The load
average is printed with them.

Usage: python benchmarks/fast_cpu.py [--scale 1.0] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable

from machine import machine_line


def per_cpu_second(run: Callable[[int], object], count: int) -> float:
    """``count`` divided by the CPU seconds ``run(count)`` takes (after ``run(10)``)."""
    run(10)
    start = time.process_time()
    run(count)
    return count / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.scale > 0:
        parser.error("--scale must be positive")
    import numpy as np

    from coloretto.engine.rules import Rules
    from coloretto.engine.state import new_game
    from coloretto.fastcore import kernels as K
    from coloretto.fastcore import rollout_scores, rules_template, warmup
    from coloretto.fastcore.batch import simulate_batch

    warmup(announce=False)
    rules = Rules(players=4)
    start = new_game(rules, args.seed)
    template = rules_template(rules).copy()
    seed = args.seed

    def count(n: int) -> int:
        return max(10, int(n * args.scale))

    figures = {
        "batch_random": per_cpu_second(
            lambda n: simulate_batch(rules, ["random"], n, seed), count(60_000)
        ),
        "batch_greedy": per_cpu_second(
            lambda n: simulate_batch(rules, ["greedy"], n, seed), count(6_000)
        ),
        "bench": per_cpu_second(
            lambda n: K.bench_random(template, np.uint64(seed), n), count(100_000)
        ),
        "rollout_random": per_cpu_second(
            lambda n: rollout_scores(start, seed, n, "random"), count(50_000)
        ),
        "rollout_greedy": per_cpu_second(
            lambda n: rollout_scores(start, seed, n, "greedy"), count(5_000)
        ),
    }
    report = {
        "machine": machine_line(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "per_cpu_second": {k: round(v) for k, v in figures.items()},
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(report["machine"])
        print(f"load average: {report['load_average']}")
        for name, value in report["per_cpu_second"].items():
            print(f"{name:>15}: {value:>9,} per CPU second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
