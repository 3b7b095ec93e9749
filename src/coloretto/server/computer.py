"""Computer players at a table's seats: the seat's agent kept beside the spec it was built
from (``ComputerSeat``), and the one function that gets a computer seat's action
(``computer_action``), with its failure policy.

Failure policy (``FAILURE_POLICY``, ``first_legal``): when the agent raises, or answers
with an action that is not legal, the failure is logged (table, seat, spec, what went
wrong) and the seat plays the first of its legal actions (``on_failure``), so one broken
computer player never stops a game. (The arena's hosts have their own policies, ``forfeit``
and ``fallback:SPEC``, in ``arena.failures``.)
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..agents.base import Agent
from ..agents.registry import make_agent
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


FAILURE_POLICY: Final = "first_legal"
"""The computer seats' failure policy (module docstring); ``on_failure`` applies it."""


def on_failure(legal: Sequence[Action]) -> Action:
    """What a computer seat plays when its agent failed (``FAILURE_POLICY``): the first
    legal action, in the engine's order."""
    return legal[0]


async def computer_action(
    runner: AgentRunner, owner: JobOwner, computer: ComputerSeat, observation: Observation, legal: Sequence[Action]
) -> Action:
    """The action of ``computer`` for the decision in ``observation``: the only legal action
    at once, else the agent's answer computed on ``runner`` (``pool.decide``, picklable, for
    a seat made by ``ComputerSeat.build``); a runner's ``TimeoutError`` (the per-decision
    budget) is a failure too; on a failure (the agent or the
    runner raises, or the answer is not in ``legal``) the failure is logged and ``on_failure``
    chooses. Never raises but for cancellation.

    Args:
        legal: the seat's legal actions (non-empty), as the engine lists them.
    """
    if len(legal) == 1:
        return legal[0]
    try:
        if computer.seed is not None and computer.rules is not None:
            action = await runner.run(owner, decide, computer.spec, computer.seed, computer.seat, computer.rules,
                                      observation, legal)
        else:
            action = await runner.run(owner, computer.agent.act, observation, legal)
    except Exception as exc:  # noqa: BLE001 - any failure of the player: the failure policy decides
        problem = f"{type(exc).__name__}: {exc}"
    else:
        if action in legal:
            return action
        problem = f"answered {action!r}, which is not legal"
    fallback = on_failure(legal)
    log.warning(
        "table %s seat %d: computer player %s failed (%s); playing %s instead (failure policy: %s)",
        owner.table_id, computer.seat + 1, computer.spec, problem, fallback, FAILURE_POLICY,
    )
    return fallback
