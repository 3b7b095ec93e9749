"""The ``Agent`` interface shared by every computer player.

An agent receives an observation (what its seat may know, ``coloretto.engine.observation``)
and the legal actions, and returns one of them. It is seeded (its own
``coloretto.engine.seeds.Rng``, so games replay exactly) and accepts a ``Budget``
(iterations and/or seconds per decision).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..engine.actions import Action
from ..engine.observation import Observation
from ..engine.rules import Rules
from ..engine.seeds import Rng


@dataclass(frozen=True)
class Budget:
    """Thinking budget per decision. ``None`` fields mean "agent default".

    Attributes:
        iterations: search iterations (playouts) per decision.
        seconds: wall-clock seconds per decision.
    """

    iterations: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str | None) -> Budget:
        """Parse ``"0.5s"``, ``"500ms"``, ``"2000"`` / ``"2000it"`` (iterations) or ``None``.

        Raises:
            ValueError: unreadable text (the message shows the accepted forms), or a time
                that is not a positive finite number of seconds (``"0ms"``, ``"-1s"``,
                ``"nans"``, ``"infs"``), or iterations that are not positive.
        """
        if text is None or text == "":
            return cls()
        t = text.strip().lower()
        seconds: float | None = None
        try:
            if t.endswith("ms"):
                seconds = float(t[:-2]) / 1000.0
            elif t.endswith("s"):
                seconds = float(t[:-1])
            else:
                value = int(t.removesuffix("it"))
        except ValueError:
            raise ValueError(f"budget {text!r}: use seconds ('0.5s', '500ms') or iterations ('2000')") from None
        if seconds is None:
            if value <= 0:
                raise ValueError(f"budget {text!r}: iterations must be positive")
            return cls(iterations=value)
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"budget {text!r}: the time must be a positive, finite number of seconds")
        return cls(seconds=seconds)


class Agent(ABC):
    """A computer player.

    Subclasses implement ``act``. The host calls ``reset`` at the start of each game, then
    ``act`` at each of the seat's decisions, and ``close`` when done with the agent.

    Attributes:
        name: short name (the registry key, e.g. ``"greedy"``).
        seed: seed of ``self.rng``.
        budget: the thinking budget.
        rng: the agent's own random generator, ``Rng(seed)`` (never a global one).
    """

    name: ClassVar[str] = "agent"
    needs_true_state: ClassVar[bool] = False
    """True only for measurement agents (``oracle``) that the host may show the real state."""

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.seed = seed
        self.budget = budget or Budget()
        self.rng = Rng(seed)
        self.seat = -1
        self.rules: Rules | None = None

    def reset(self, seat: int, rules: Rules) -> None:
        """Start a new game in ``seat`` under ``rules``."""
        self.seat = seat
        self.rules = rules

    @abstractmethod
    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Return one element of ``legal`` (non-empty) for the decision in ``observation``."""

    def close(self) -> None:
        """Release resources (subprocesses, pools). Idempotent."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"
