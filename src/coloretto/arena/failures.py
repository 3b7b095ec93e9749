"""External engine failures during a game: the host's policy (docs/engine-protocol.md: "the host
reports which seat failed and how, and the game ends as forfeited by that seat or is finished
by a fallback player, as the host was told").

Shared by ``coloretto tournament`` (``arena.tournament``) and ``coloretto simulate``
(``arena.simulate``):

- ``parse_failure_policy`` checks a policy: ``"forfeit"`` (the default,
  ``DEFAULT_FAILURE_POLICY``) or ``"fallback:SPEC"`` with ``SPEC`` a built-in agent.
- ``SeatPlayer`` wraps the agent of one seat: it times each decision and, when the agent
  raises ``EngineFailure`` (an external engine that could not start, answered a malformed or
  illegal action, answered late or exited), reports the failure through a callback, stops
  the engine and then either raises ``Forfeit`` or hands the seat to the fallback agent from
  the failed decision on. Any other exception (a bug in a built-in agent) is re-raised.
- ``play_with_policy`` plays a recorded game with such players and returns the forfeiting
  seat (or ``None``); the win shares and ranks of a forfeited game come from
  ``arena.stats.game_outcome`` (the forfeiting seat gets win share 0 and the last rank; the
  others are ranked, and share the win, by their scores at that moment).
- ``deliver_results`` tells every agent that has a ``result`` method (external engines) the
  final scores and winners; a failing engine is logged, never fatal (the game is over).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from ..agents.base import Agent, Budget
from ..agents.registry import make_agent
from ..engine.actions import Action
from ..engine.errors import ConfigurationError
from ..engine.observation import Observation
from ..engine.record import Game
from ..engine.rules import Rules
from .driver import play_out

DEFAULT_FAILURE_POLICY: Final = "forfeit"
"""What happens when an external engine fails, unless told otherwise."""

FailureHook = Callable[[Exception, int], None]
"""Called as ``hook(engine_failure, seat)`` when the engine of ``seat`` fails."""

log = logging.getLogger(__name__)


def parse_failure_policy(text: str) -> str:
    """Check ``forfeit`` or ``fallback:SPEC`` (SPEC a built-in agent, not ``cmd:``) and return
    it unchanged.

    Raises:
        ConfigurationError: anything else (the message shows the accepted forms).
    """
    if text == "forfeit":
        return text
    if text.startswith("fallback:"):
        spec = text[len("fallback:") :]
        if not spec or spec.startswith("cmd:"):
            raise ConfigurationError(
                f"on-engine-failure {text!r}: the fallback must be a built-in agent, e.g. fallback:random"
            )
        make_agent(spec).close()  # raises ConfigurationError for unknown agents
        return text
    raise ConfigurationError(
        f"on-engine-failure {text!r}: use 'forfeit' or 'fallback:AGENT' (e.g. fallback:random)"
    )


def fallback_factory(policy: str, seed: int, budget: Budget | None) -> Callable[[], Agent] | None:
    """For ``fallback:SPEC``, a function building the ``SPEC`` agent seeded with ``seed``;
    ``None`` for ``forfeit``. ``policy`` must have passed ``parse_failure_policy``."""
    if not policy.startswith("fallback:"):
        return None
    spec = policy[len("fallback:") :]
    return lambda: make_agent(spec, seed, budget)


class Forfeit(Exception):
    """Raised out of ``play_out`` when the engine of ``seat`` failed under ``forfeit``."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


class SeatPlayer(Agent):
    """The player of one seat: its agent, timed, with the failure policy for external engines
    (module docstring). Forwards ``peek`` to agents that need the true state (``oracle``).

    Args:
        primary: the seat's agent.
        fallback: builds the agent that takes over after an engine failure, or ``None`` to
            forfeit (``fallback_factory``).
        on_failure: called with the ``EngineFailure`` and the seat before the policy acts.

    Attributes:
        active: the agent now playing (``primary`` until a fallback takes over).
        failed: the primary agent failed in this game.
        seconds: wall-clock seconds of each ``act`` call.
    """

    def __init__(
        self,
        primary: Agent,
        fallback: Callable[[], Agent] | None,
        on_failure: FailureHook,
    ) -> None:
        super().__init__(primary.seed, primary.budget)
        self.primary = primary
        self.active = primary
        self.name = primary.name  # type: ignore[misc]
        self.needs_true_state = primary.needs_true_state  # type: ignore[misc]
        self._fallback = fallback
        self._on_failure = on_failure
        self.failed = False
        self.seconds: list[float] = []

    def reset(self, seat: int, rules: Rules) -> None:
        super().reset(seat, rules)
        try:
            self.primary.reset(seat, rules)
        except Exception as exc:  # noqa: BLE001 - _handle re-raises all but EngineFailure
            self._handle(exc)

    def peek(self, state: Any) -> None:
        """Forward the true state to an agent that needs it (measurement only)."""
        if getattr(self.active, "needs_true_state", False):
            self.active.peek(state)  # type: ignore[attr-defined]

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        t0 = time.perf_counter()
        try:
            action = self.active.act(observation, legal)
        except Exception as exc:  # noqa: BLE001 - _handle re-raises all but EngineFailure
            self._handle(exc)
            action = self.active.act(observation, legal)
        self.seconds.append(time.perf_counter() - t0)
        return action

    def _handle(self, exc: Exception) -> None:
        from ..agents.external import EngineFailure

        if not isinstance(exc, EngineFailure) or self.active is not self.primary:
            raise exc
        self.failed = True
        self._on_failure(exc, self.seat)
        self.primary.close()
        if self._fallback is None:
            raise Forfeit(self.seat) from exc
        self.active = self._fallback()
        self.needs_true_state = self.active.needs_true_state  # type: ignore[misc]
        assert self.rules is not None
        self.active.reset(self.seat, self.rules)

    def close(self) -> None:
        self.primary.close()
        if self.active is not self.primary:
            self.active.close()


def play_with_policy(game: Game, players: Sequence[SeatPlayer]) -> int | None:
    """Play ``game`` to its end (``driver.play_out``) with one ``SeatPlayer`` per seat.

    Returns:
        The seat that forfeited (the game stops there; ``game`` holds the state and record
        at that moment), or ``None`` when the game was played to its end.

    Raises:
        Exception: whatever a built-in agent raises (bugs are not hidden).
    """
    try:
        play_out(game, players)
    except Forfeit as f:
        return f.seat
    return None


def failure_info(exc: Exception, seat: int, policy: str, **extra: Any) -> dict[str, Any]:
    """The JSON report of one engine failure: ``EngineFailure.to_json()`` (``seat``, ``kind``,
    ``detail``, ``engine``) plus ``handling`` (the policy) and ``extra`` (e.g. ``game``)."""
    info: dict[str, Any] = exc.to_json()  # type: ignore[attr-defined]
    info.update(extra, seat=seat, handling=policy)
    return info


def deliver_results(players: Sequence[SeatPlayer], scores: list[int], winners: list[int]) -> None:
    """Send the final ``scores`` and ``winners`` (seats) to each active agent with a ``result``
    method whose engine did not fail; an engine that fails now is only logged."""
    for p in players:
        hook = getattr(p.active, "result", None)
        if hook is not None and not p.failed:
            try:
                hook(scores, winners)
            except Exception as exc:  # noqa: BLE001 - the game is over; a dying engine is harmless
                log.debug("result not delivered to seat %d: %s", p.seat, exc)


__all__ = [
    "DEFAULT_FAILURE_POLICY",
    "Forfeit",
    "SeatPlayer",
    "deliver_results",
    "failure_info",
    "fallback_factory",
    "parse_failure_policy",
    "play_with_policy",
]
