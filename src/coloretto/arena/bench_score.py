"""Speed of optimal scoring (docs/rules.md §6): scorings per second, without and with the cache.

Used by ``benchmarks/score_bench.py``; importable so other tools (``coloretto bench``) can
report the same figures.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..engine.cards import CARDS_PER_COLOR, NUM_COLORS, NUM_PLUS2
from ..engine.rules import BROWN_TABLE
from ..engine.scoring import clear_score_cache, optimal_total, optimal_total_uncached
from ..engine.seeds import SAMPLE, Rng, derive_seed

Collection = tuple[tuple[int, ...], int, int]
"""(colour counts, jokers, "+2" cards)"""

CARDS_PER_PLAYER = 18
"""About what one player holds at the end of a 4-player game."""


def random_collections(n: int, seed: int = 0) -> list[Collection]:
    """``n`` end-of-game-like collections: 0 to 3 jokers (uniform), the rest of
    ``CARDS_PER_PLAYER`` cards drawn without replacement from the 63 colour cards and 10 "+2"
    cards of a 7-colour game.

    Returns:
        A list of ``(counts, jokers, plus2)`` with ``counts`` a tuple of 7 colour counts.
    """
    rng = Rng(derive_seed(seed, SAMPLE))
    deck = [c for c in range(NUM_COLORS) for _ in range(CARDS_PER_COLOR)] + [NUM_COLORS] * NUM_PLUS2
    out: list[Collection] = []
    for _ in range(n):
        jokers = rng.below(4)
        counts = [0] * (NUM_COLORS + 1)
        for card in rng.sample(deck, CARDS_PER_PLAYER - jokers):
            counts[card] += 1
        out.append((tuple(counts[:NUM_COLORS]), jokers, counts[NUM_COLORS]))
    return out


def _rate(pool: list[Collection], seconds: float, cached: bool) -> tuple[float, int]:
    """Score ``pool`` round-robin for about ``seconds``; return (scorings per second, count)."""
    score = optimal_total if cached else optimal_total_uncached
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for counts, jokers, plus2 in pool:
            score(counts, jokers, plus2, BROWN_TABLE, 1, None)
        done += len(pool)
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start), done


def bench_score(seconds: float = 2.0, seed: int = 0) -> dict[str, Any]:
    """Measure :func:`~coloretto.engine.scoring.optimal_total` on random collections.

    Half of ``seconds`` scores fresh collections with no cache at all
    (``optimal_total_uncached``); the other half scores a pool of collections repeatedly
    through the memoised ``optimal_total`` after one warm-up pass (every call a cache hit,
    as when simulations meet collections already seen). The caches are emptied first.

    Args:
        seconds: total measuring time in seconds (> 0).
        seed: seed of the random collections.

    Returns:
        ``{"scorings_per_s": cached rate, "uncached_scorings_per_s": rate without cache,
        "cold_scorings_per_s": rate of the warm-up pass (every call a miss of the argument
        cache), "n": scorings performed in both measurements, "pool": distinct collections,
        "seconds": measured time}``.

    Raises:
        ValueError: ``seconds`` is not a positive finite number.
    """
    if not (seconds > 0 and math.isfinite(seconds)):
        raise ValueError(f"seconds must be a positive finite number, not {seconds!r}")
    pool = random_collections(2000, seed)
    clear_score_cache()
    start = time.perf_counter()
    uncached, n_uncached = _rate(pool, seconds / 2, cached=False)
    t0 = time.perf_counter()
    for counts, jokers, plus2 in pool:
        optimal_total(counts, jokers, plus2, BROWN_TABLE, 1, None)
    cold = len(pool) / (time.perf_counter() - t0)
    cached, n_cached = _rate(pool, seconds / 2, cached=True)
    elapsed = time.perf_counter() - start
    return {
        "scorings_per_s": cached,
        "uncached_scorings_per_s": uncached,
        "cold_scorings_per_s": cold,
        "n": n_uncached + n_cached + len(pool),
        "pool": len(pool),
        "seconds": elapsed,
    }
