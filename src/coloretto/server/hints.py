"""Move hints for a person's decision (the WebSocket ``hint`` message, docs/web-api.md):
the move advisor (``agents.advisor.advise``) run on the agent runner, and its answer as the
``hint`` message's fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..agents.advisor import Advice, advise
from ..agents.base import Budget
from ..engine.observation import observe
from .errors import ErrorCode, Problem
from .live import LiveTable, action_text, seat_text
from .runner import AgentRunner, JobOwner

HINT_BUDGET = Budget(seconds=0.3)
"""Thinking time of one hint."""


async def hint(runner: AgentRunner, table: LiveTable, seat: int | None, address: str) -> dict[str, Any]:
    """The ``hint`` fields (``action``, ``explanation``, ``options``) for ``seat``'s decision
    at ``table``, asked from ``address``; seeded with the table's version.

    Raises:
        Problem: ``hints_disabled``, ``not_seated``, ``not_started``, ``game_over``,
            ``not_your_turn``, ``hints_unavailable`` (also: no answer within the runner's
            per-decision budget).
    """
    if not table.data.hints:
        raise Problem(ErrorCode.HINTS_DISABLED, "this table does not allow hints")
    if seat is None:
        raise Problem(ErrorCode.NOT_SEATED, "spectators get no hints")
    if table.status != "playing":
        code = ErrorCode.NOT_STARTED if table.status == "open" else ErrorCode.GAME_OVER
        raise Problem(code, "no decision to advise on")
    st = table.state
    if st.to_move != seat or table.data.seats[seat].kind != "human":
        raise Problem(ErrorCode.NOT_YOUR_TURN, f"{seat_text(st.to_move)} is to move")
    obs, legal = observe(st, seat), st.legal_actions()
    try:
        advice = await runner.run(JobOwner(table.id, address), advise, obs, legal, HINT_BUDGET, table.version)
    except TimeoutError:
        raise Problem(ErrorCode.HINTS_UNAVAILABLE, "the move advisor did not answer in time; try again") from None
    return hint_fields(advice)


def hint_fields(advice: Sequence[Advice]) -> dict[str, Any]:
    """``{"action", "explanation", "options"}`` from the advisor's answer (best first). The
    texts are for people: rows counted from 1 (``live.action_text``); the explanation says
    how sure the advisor is (``Advice.sureness``: 95% intervals and samples) and which search
    it used.

    Raises:
        Problem: ``hints_unavailable`` (no advice).
    """
    options = [{**a.to_json(), "text": action_text(a.action)} for a in advice]
    if not options:
        raise Problem(ErrorCode.HINTS_UNAVAILABLE, "the advisor gave no advice")
    expl = f"{options[0]['text']}: {advice[0].sureness()} ({advice[0].evaluator})"
    return {"action": options[0]["action"], "explanation": expl, "options": options}
