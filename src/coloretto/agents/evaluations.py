"""Names of the compiled search's leaf evaluations, without NumPy or Numba, so that the
command line can offer them (``coloretto bench mcts --evaluation``) at no start-up cost.

A name's position is its code in the compiled search (``fastcore.search.EVALUATIONS``:
``EVAL_ROLLOUT``, ``EVAL_VALUE``, ``EVAL_ROUND_VALUE``, ``EVAL_HEURISTIC_ROUND_VALUE``);
what each does is told in ``agents.ismcts.ISMCTSParams`` and docs/agents.md.

>>> LEAF_EVALUATIONS[0]
'rollout'
"""

from __future__ import annotations

from typing import Final

__all__ = ["LEAF_EVALUATIONS"]

LEAF_EVALUATIONS: Final = ("rollout", "value", "round_value", "heuristic_round_value")
"""The leaf evaluations, in the order of their compiled codes."""
