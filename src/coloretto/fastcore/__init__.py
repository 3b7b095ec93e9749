"""The fast core: a Numba-compiled simulation core over a compact array encoding of the game
state, proven identical to the engine by differential tests.

Public API: ``encode``, ``decode``, ``FastState``, ``fast_legal_codes``, ``fast_apply``,
``fast_scores``, ``rollout_scores``, ``warmup``; ``coloretto.fastcore.bench.fast_playout_bench``;
``coloretto.fastcore.batch.supports`` / ``simulate_batch``; the compiled information-set MCTS
``coloretto.fastcore.search`` (``search_arrays``, ``Tree``), the learned value's features and
forward pass ``coloretto.fastcore.value`` and its self-play recorder
``coloretto.fastcore.selfplay``. Needs Numba (a default dependency); without it, importing
this package raises ``coloretto._optional.MissingExtra``.
"""

from __future__ import annotations

from .api import (
    FastState,
    decode,
    encode,
    fast_apply,
    fast_legal_codes,
    fast_scores,
    rollout_scores,
    rules_template,
    warmup,
)

__all__ = [
    "FastState",
    "decode",
    "encode",
    "fast_apply",
    "fast_legal_codes",
    "fast_scores",
    "rollout_scores",
    "rules_template",
    "warmup",
]
