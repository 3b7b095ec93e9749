"""Computer players at a table's seats: the seat's agent kept beside the spec it was built
from (``ComputerSeat``), and the one function that gets a computer seat's action
(``computer_action``), through the driver (``arena.driver``) under the server's failure
policy.

Failure policy (``FAILURE_POLICY``, the driver's ``first_legal`` covering every failure):
when the agent raises, or answers with an action that is not legal, the failure is logged
(table, seat, spec, what went wrong, the action played instead) and the seat plays the
first of its legal actions, so one broken computer player never stops a game; the agent is
asked again at the seat's next decision.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..agents.base import Agent
from ..agents.registry import make_agent
from ..arena.driver import FIRST_LEGAL, FailurePolicy, decide_with, recover
from ..engine.actions import Action
from ..engine.observation import Observation
from ..engine.rules import Rules
from .pool import decide
from .runner import AgentRunner, JobOwner

log = logging.getLogger("coloretto.server")


@dataclass
class ComputerSeat:
    """The computer player of one seat.

    Attributes:
        seat: the seat (0-based).
        spec: the agent spec it was built from (``registry.make_agent``, e.g. ``medium``);
            a seat handed to another computer player needs a new ``ComputerSeat``.
        agent: the agent, reset for ``seat`` and the table's rules.
        seed, rules: what ``build`` made it from; with them a decision is computed by
            ``pool.decide`` in a worker process (which keeps its own copy of the agent).
            None for an agent given as it is, whose ``act`` is run by the runner.
    """

    seat: int
    spec: str
    agent: Agent
    seed: int | None = None
    rules: Rules | None = None

    @classmethod
    def build(cls, seat: int, spec: str, seed: int, rules: Rules) -> ComputerSeat:
        """Make and reset the agent of ``spec`` for ``seat``, seeded with ``seed``.

        Raises:
            ConfigurationError: unknown spec.
        """
        agent = make_agent(spec, seed)
        agent.reset(seat, rules)
        return cls(seat, spec, agent, seed, rules)


FAILURE_POLICY: Final[FailurePolicy] = FIRST_LEGAL
"""The computer seats' failure policy (module docstring)."""


async def computer_action(
    runner: AgentRunner, owner: JobOwner, computer: ComputerSeat, observation: Observation, legal: Sequence[Action]
) -> Action:
    """The action of ``computer`` for the decision in ``observation``: the only legal action
    at once, else the driver's decision (``arena.driver.decide_with``) computed on
    ``runner`` (in a worker process by ``pool.decide`` for a seat made by
    ``ComputerSeat.build``; a runner's ``TimeoutError``, the per-decision budget, is a failure too); a failure (of the agent, or of the runner) is logged and ``FAILURE_POLICY``
    chooses. Never raises but for cancellation.

    Args:
        legal: the seat's legal actions (non-empty), as the engine lists them.
    """
    if len(legal) == 1:
        return legal[0]
    try:
        if computer.seed is not None and computer.rules is not None:
            decision = await runner.run(owner, decide, computer.spec, computer.seed, computer.seat, computer.rules,
                                        observation, legal, FAILURE_POLICY)
        else:
            decision = await runner.run(owner, decide_with, computer.agent, observation, legal, FAILURE_POLICY)
    except Exception as exc:  # noqa: BLE001 - the runner failed: the failure policy decides
        decision = recover(FAILURE_POLICY, exc, observation, legal)
    if decision.failure is not None:
        log.warning(
            "table %s seat %d: computer player %s failed (%s); playing %s instead (failure policy: %s)",
            owner.table_id, computer.seat + 1, computer.spec, decision.failure, decision.action, FAILURE_POLICY,
        )
    return decision.action
