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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..engine.actions import Action
from ..engine.observation import Observation
from ..engine.rules import Rules
from ..engine.seeds import Rng

if TYPE_CHECKING:
    from ..engine.state import GameState


MAX_ITERATIONS = 1_000_000_000
"""Largest iteration budget ``Budget.parse`` accepts (the compiled search counts in 64 bits;
a billion iterations is hours of thinking per decision)."""

MAX_SECONDS = 3600.0
"""Largest time budget per decision ``Budget.parse`` accepts (one hour)."""


@dataclass(frozen=True)
class Budget:
    """Thinking budget per decision. ``None`` fields mean "agent default".

    Attributes:
        iterations: search iterations (playouts) per decision.
        seconds: seconds per decision: wall-clock, or with ``cpu`` the CPU time of the
            thread that searches. A CPU-time budget searches as much on a busy machine as on
            an idle one (the time the thread waits for a core does not count), so
            measurements with time-budgeted agents need no idle machine; only ``mcts``,
            ``mcts-v1`` and ``oracle`` honour it (``Agent.cpu_budget``).
        cpu: ``seconds`` are CPU seconds (``"0.5s-cpu"``).

        by_players: ``(players, iterations)`` pairs: in a game of that many players the
            agent searches that many iterations instead of ``iterations`` (a difficulty
            level whose decisions cost less at some player counts, ``registry.DIFFICULTIES``;
            ``parse`` never sets it). Agents apply it when a game starts (``Agent.reset``).

    >>> Budget.parse("0.5s")
    Budget(iterations=None, seconds=0.5, cpu=False, by_players=())
    >>> Budget.parse("500ms-cpu", cpu_ok=True)
    Budget(iterations=None, seconds=0.5, cpu=True, by_players=())
    >>> Budget.parse("2000")
    Budget(iterations=2000, seconds=None, cpu=False, by_players=())
    """

    iterations: int | None = None
    seconds: float | None = None
    cpu: bool = False
    by_players: tuple[tuple[int, int], ...] = ()

    def for_players(self, players: int) -> Budget:
        """This budget in a game of ``players`` players: ``iterations`` replaced by the
        ``by_players`` entry for that count, if there is one.

        >>> level = Budget(iterations=30_000, by_players=((2, 60_000),))
        >>> level.for_players(2).iterations, level.for_players(4).iterations
        (60000, 30000)
        """
        for count, iterations in self.by_players:
            if count == players:
                return replace(self, iterations=iterations)
        return self

    def limits(self, default_seconds: float) -> tuple[int | None, float | None]:
        """``(iterations, seconds)`` a search stops at: this budget's, or ``default_seconds``
        of time when it names neither (the agent's default).

        >>> Budget().limits(0.5), Budget(iterations=800).limits(0.5)
        ((None, 0.5), (800, None))
        """
        if self.iterations is None and self.seconds is None:
            return None, default_seconds
        return self.iterations, self.seconds

    @classmethod
    def parse(cls, text: str | None, *, cpu_ok: bool = False) -> Budget:
        """Parse ``"0.5s"``, ``"500ms"``, ``"2000"`` / ``"2000it"`` (iterations) or ``None``;
        with ``cpu_ok`` also CPU time, ``"0.5s-cpu"`` or ``"500ms-cpu"`` (where computer
        players are matched against each other: agent specs, ``tournament`` and
        ``simulate``).

        Raises:
            ValueError: unreadable text (the message shows the accepted forms; digits are
                ASCII, without spaces or ``_``), a time that is not a positive finite number
                of seconds (``"0ms"``, ``"-1s"``, ``"nans"``, ``"infs"``) or is above
                ``MAX_SECONDS``, or iterations that are not positive or are above
                ``MAX_ITERATIONS``.
        """
        if text is None or text == "":
            return cls()
        t = text.strip().lower()
        if t.endswith("-cpu") and not cpu_ok:
            raise ValueError(
                f"budget {text!r}: CPU time ('-cpu') is offered where computer players play "
                "each other (tournament, simulate); here use seconds ('0.5s', '500ms') or "
                "iterations ('2000')"
            )
        cpu = t.endswith("-cpu")
        if cpu:
            t = t.removesuffix("-cpu")
        seconds: float | None = None
        try:
            if not t.isascii() or not t.isprintable() or any(c in t for c in " _"):
                raise ValueError  # int() and float() would take "1_000", " 1 " or other digits
            if t.endswith("ms"):
                seconds = float(t[:-2]) / 1000.0
            elif t.endswith("s"):
                seconds = float(t[:-1])
            else:
                value = int(t.removesuffix("it"))
        except ValueError:
            cpu_form = ", CPU seconds ('0.5s-cpu')" if cpu_ok else ""
            raise ValueError(
                f"budget {text!r}: use seconds ('0.5s', '500ms'){cpu_form} or iterations ('2000')"
            ) from None
        if seconds is None:
            if cpu:
                raise ValueError(f"budget {text!r}: CPU time is given in seconds ('0.5s-cpu')")
            if value <= 0:
                raise ValueError(f"budget {text!r}: iterations must be positive")
            if value > MAX_ITERATIONS:
                raise ValueError(f"budget {text!r}: at most {MAX_ITERATIONS:,} iterations")
            return cls(iterations=value)
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"budget {text!r}: the time must be a positive, finite number of seconds")
        if seconds > MAX_SECONDS:
            raise ValueError(f"budget {text!r}: at most {MAX_SECONDS:g} seconds per decision")
        return cls(seconds=seconds, cpu=cpu)


class Agent(ABC):
    """A computer player.

    Subclasses implement ``act``. A host (every host plays through
    ``coloretto.arena.driver``) calls ``reset`` at the start of each game, then, at each of
    the seat's decisions, ``peek`` (only for agents with ``needs_true_state``) and ``act``,
    ``game_over`` when the game has ended, and ``close`` when done with the agent.

    Attributes:
        name: short name (the registry key, e.g. ``"greedy"``).
        seed: seed of ``self.rng``.
        budget: the thinking budget; from ``reset`` on, the one for the game's number of
            players (``Budget.for_players``).
        rng: the agent's own random generator, ``Rng(seed)`` (never a global one).
    """

    name: str = "agent"
    label: str | None = None
    """How messages name this kind of agent when ``name`` would not say it (None: ``name``)."""
    cpu_budget: bool | None = None
    """How the agent treats a CPU-time budget (``Budget.cpu``): ``None`` it ignores budgets
    altogether; ``True`` it searches for that much CPU time; ``False`` it cannot (it is
    refused)."""
    needs_true_state: bool = False
    """True only for measurement agents (``oracle``) that the host may show the real state."""

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        """Raises:
        ConfigurationError: a CPU-time ``budget`` for an agent that cannot honour one
            (``cpu_budget`` False).
        """
        if budget is not None and budget.cpu and self.cpu_budget is False:
            from ..engine.errors import ConfigurationError

            raise ConfigurationError(
                f"{self.label or self.name} cannot search for a CPU-time budget ("
                f"{budget.seconds:g}s-cpu; only mcts, mcts-v1 and oracle can): give it seconds "
                "('0.5s') or iterations ('2000')"
            )
        self.seed = seed
        self.budget = budget or Budget()
        self._given_budget = self.budget
        self.rng = Rng(seed)
        self.seat = -1
        self.rules: Rules | None = None

    def reset(self, seat: int, rules: Rules) -> None:
        """Start a new game in ``seat`` under ``rules``; ``budget`` becomes the one for
        ``rules.players`` (``Budget.for_players``)."""
        self.seat = seat
        self.rules = rules
        self.budget = self._given_budget.for_players(rules.players)

    def peek(self, state: GameState) -> None:
        """Receive the true state (a copy, the real draw pile order included) before a
        decision. Hosts call it only for agents with ``needs_true_state`` and only when they
        hold the true state; the default does nothing.

        >>> from coloretto.agents.baseline import RandomAgent
        >>> from coloretto.engine.state import new_game
        >>> RandomAgent().peek(new_game(Rules(players=3), 1))  # a player that does not need it
        """

    def game_over(self, scores: Sequence[int], winners: Sequence[int]) -> None:
        """Hear the result of the game just ended: each seat's final ``scores`` (points) and
        the ``winners`` (seats, 0-based). Hosts call it once when a game ends (also when
        another seat forfeited it), never after this agent failed; the default does nothing.

        >>> from coloretto.agents.baseline import RandomAgent
        >>> RandomAgent().game_over([12, 30, 7], [1])
        """

    @abstractmethod
    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Return one element of ``legal`` (non-empty) for the decision in ``observation``."""

    def close(self) -> None:
        """Release resources (subprocesses, pools). Idempotent."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


class SeesTrueState:
    """Mixin for measurement agents (the oracles) that read the true state: ``peek`` keeps
    a copy of it, ``take_true`` hands it to one decision. Put it before the agent class in
    the bases so that its ``peek`` replaces ``Agent.peek``.

    >>> from coloretto.agents.baseline import RandomAgent
    >>> from coloretto.engine.state import new_game
    >>> class Seer(SeesTrueState, RandomAgent):
    ...     pass
    >>> seer = Seer()
    >>> seer.peek(new_game(Rules(players=3), 1))
    >>> len(seer.take_true().pile) > 0
    True
    >>> seer.take_true()
    Traceback (most recent call last):
    ...
    RuntimeError: the oracle needs peek(state) before each decision
    """

    needs_true_state = True
    _true: GameState | None = None

    def peek(self, state: GameState) -> None:
        """Receive the true state before a decision (called by the host); keeps a copy."""
        self._true = state.copy()

    def take_true(self) -> GameState:
        """The state of the last ``peek``; one peek serves one decision.

        Raises:
            RuntimeError: no ``peek`` since the last decision.
        """
        true = self._true
        if true is None:
            raise RuntimeError("the oracle needs peek(state) before each decision")
        self._true = None
        return true
