"""Names of the compiled core's numbered choices, without NumPy or Numba, so that the
command line can offer them (``coloretto bench mcts --evaluation``, ``coloretto train value
--policy``) at no start-up cost.

A name's position is its code in the compiled core; tests tie the two together.

>>> LEAF_EVALUATIONS[0]
'rollout'
>>> SELFPLAY_POLICIES.index("heuristic")
1
"""

from __future__ import annotations

from typing import Final

__all__ = ["LEAF_EVALUATIONS", "SELFPLAY_POLICIES"]

LEAF_EVALUATIONS: Final = ("rollout", "value", "round_value", "heuristic_round_value")
"""The compiled search's leaf evaluations, in the order of their codes
(``fastcore.search.EVALUATIONS``: ``EVAL_ROLLOUT``, ``EVAL_VALUE``, ``EVAL_ROUND_VALUE``,
``EVAL_HEURISTIC_ROUND_VALUE``); what each does is told in ``agents.ismcts.ISMCTSParams``
and docs/agents.md."""

SELFPLAY_POLICIES: Final = ("threshold", "heuristic")
"""The policies that can play the learned value's self-play games (``coloretto train value
--policy``), in the order of their codes (``fastcore.selfplay.SELFPLAY_THRESHOLD``,
``SELFPLAY_HEURISTIC``)."""
