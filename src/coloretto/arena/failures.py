"""External engine failures in the arena: the ``--on-engine-failure`` policy of ``coloretto
tournament`` (``arena.tournament``) and ``coloretto simulate`` (``arena.simulate``)
(docs/engine-protocol.md: "the host reports which seat failed and how, and the game ends as
forfeited by that seat or is finished by a fallback player, as the host was told").

The policy itself, the seat player that applies it and the game loop are the driver's
(``arena.driver``: ``FailurePolicy``, ``SeatPlayer``, ``play_with_policy``); here are the
arena's choices and reports:

- ``parse_failure_policy`` checks the option: ``"forfeit"`` (the default,
  ``DEFAULT_FAILURE_POLICY``) or ``"fallback:SPEC"`` with ``SPEC`` a built-in agent; the
  arena's policy covers external engines only (``EngineFailure``): a built-in agent that
  raises has a bug, which is raised.
- ``arena_policy`` turns the checked text into the driver's ``FailurePolicy``.
- ``failure_info`` is the JSON report of one failure; the win shares and ranks of a
  forfeited game come from ``arena.stats.game_outcome`` (the forfeiting seat gets win share
  0 and the last rank; the others are ranked, and share the win, by their scores at that
  moment).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..agents.base import Agent, Budget
from ..agents.external import EngineFailure
from ..agents.registry import make_agent
from ..engine.errors import ConfigurationError
from .driver import (
    FailurePolicy,
    Forfeit,
    SeatPlayer,
    deliver_results,
    failure_text,
    play_with_policy,
)

DEFAULT_FAILURE_POLICY: Final = "forfeit"
"""What happens when an external engine fails, unless told otherwise."""


def parse_failure_policy(text: str) -> str:
    """Check ``forfeit`` or ``fallback:SPEC`` (SPEC a built-in agent, not ``cmd:``) and return
    it unchanged.

    Raises:
        ConfigurationError: anything else (the message shows the accepted forms).
    """
    if FailurePolicy.parse(text).kind == "first_legal":
        raise ConfigurationError(
            f"on-engine-failure {text!r}: use 'forfeit' or 'fallback:AGENT' (e.g. fallback:random)"
        )
    return text


def arena_policy(text: str) -> FailurePolicy:
    """The driver's policy for the checked ``--on-engine-failure`` text (covers engines).

    Raises:
        ConfigurationError: see ``parse_failure_policy``.
    """
    return FailurePolicy.parse(parse_failure_policy(text), covers="engines")


def fallback_factory(policy: str, seed: int, budget: Budget | None) -> Callable[[], Agent] | None:
    """For ``fallback:SPEC``, a function building the ``SPEC`` agent seeded with ``seed``;
    ``None`` for ``forfeit``. ``policy`` must have passed ``parse_failure_policy``."""
    parsed = FailurePolicy.parse(policy)
    spec = parsed.agent
    if spec is None:
        return None
    return lambda: make_agent(spec, seed, budget)


def failure_info(exc: Exception, seat: int, policy: str, **extra: Any) -> dict[str, Any]:
    """The JSON report of one engine failure: ``EngineFailure.to_json()`` (``seat``, ``kind``,
    ``detail``, ``engine``) plus ``handling`` (the policy) and ``extra`` (e.g. ``game``).
    Another exception (only under a policy covering all failures) reports ``kind`` ``"error"``."""
    if isinstance(exc, EngineFailure):
        info: dict[str, Any] = exc.to_json()
    else:
        info = {"kind": "error", "detail": failure_text(exc)}
    info.update(extra, seat=seat, handling=policy)
    return info


__all__ = [
    "DEFAULT_FAILURE_POLICY",
    "Forfeit",
    "SeatPlayer",
    "arena_policy",
    "deliver_results",
    "failure_info",
    "fallback_factory",
    "parse_failure_policy",
    "play_with_policy",
]
