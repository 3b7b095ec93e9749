"""Where the compiled search spends its time: one iteration against one rollout.

Usage: python benchmarks/search_profile.py [--iterations 3000] [--positions 6]

For each position of ``coloretto bench mcts`` (4 players), prints the CPU microseconds of
one ``hybrid`` rollout from a sampled state (``fastcore.search.rollout_hybrid`` after
``sample_pile``) and of one iteration of the whole search (``search_arrays``), and their
ratio: the share of an iteration spent in the rollout.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from coloretto.arena.bench_search import search_positions
from coloretto.engine import observe
from coloretto.fastcore import encode
from coloretto.fastcore import kernels as K
from coloretto.fastcore import layout as L
from coloretto.fastcore import search as S


@njit(cache=True)
def _rollouts(a, n, rng, codes, opts, cnt, pol, pos, m):  # type: ignore[no-untyped-def]
    s = a.copy()
    vals = np.empty(codes.shape[0], np.float64)
    for _ in range(n):
        s[:] = a
        S.sample_pile(s, pos, m, rng)
        S.rollout_hybrid(s, 6.0, 1.0, rng, codes, opts, cnt, pol, vals)
    return s[L.TOTALS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--positions", type=int, default=6)
    args = parser.parse_args()
    S.warm_search()
    codes = np.empty(20, np.int32)
    opts = np.empty(20, np.int32)
    cnt = np.empty(10, np.int64)
    pol = np.full(5, L.POLICY_GREEDY, np.int32)
    rng = np.empty(1, np.uint64)
    K.seed_rng(rng, np.uint64(1), np.uint64(0))
    pos = np.empty(80, np.int64)
    n = args.iterations
    for st in search_positions(4, args.positions):
        a = encode(observe(st, st.to_move).state).a
        m = S.hidden_positions(a, pos)
        _rollouts(a, 5, rng, codes, opts, cnt, pol, pos, m)
        c = time.process_time()
        _rollouts(a, n, rng, codes, opts, cnt, pol, pos, m)
        roll = (time.process_time() - c) / n
        tree = S.Tree(n + 2)
        c = time.process_time()
        S.search_arrays(
            a, tree, 1, iterations=n, seconds=None, c_puct=1.0, margin_weight=0.3,
            margin_scale=20.0, threshold_a=6.0, threshold_b=1.0, prior_temp=3.0,
        )
        it = (time.process_time() - c) / n
        print(
            f"round {st.round:>2} cards left {st.cards_left():>2}: rollout {roll * 1e6:6.1f} us, "
            f"search iteration {it * 1e6:6.1f} us, rollout share {roll / it:.2f}"
        )


if __name__ == "__main__":
    main()
