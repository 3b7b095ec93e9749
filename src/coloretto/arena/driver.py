"""The one driver: how every host gets a seat's decision and plays a game between agents.

Every host asks an agent for a decision through this module: ``coloretto simulate``,
``coloretto tournament`` and the terminal (``tui.session``; a person's seat is a
``tui.keyboard.Keyboard`` agent) play whole games by its game loop, ``play_out``; the
server's computer seats (``server.computer``) and ``coloretto connect`` (an external engine
at a server's table) ask for one decision at a time. One decision is

1. ``peek(state)`` for an agent with ``needs_true_state`` (measurement only) when the host
   holds the true state;
2. the only legal action at once (unless the agent needs the true state), else
   ``agent.act(observation, legal)``;
3. the answer checked against the legal actions.

**The failure policy** (``FailurePolicy``) says what happens when the agent fails: it
raises, or answers an action that is not legal. Its ``kind`` is

- ``forfeit``: the game stops and the seat forfeits (``Forfeit`` is raised);
- ``fallback:AGENT``: the built-in ``AGENT`` takes the seat from the failed decision on
  (seeded from the seat's fallback seed, ``engine.seeds.FALLBACK``);
- ``first_legal``: this decision is the first legal action in the engine's order; the
  seat's agent is asked again at its next decision.

and its ``covers`` says which failures it handles: ``"engines"`` (only ``EngineFailure``,
the failures of external ``coloretto-engine/1`` programs; a built-in agent that raises has a
bug, which is raised) or ``"all"`` (any exception and any illegal answer).

Each host chooses its policy:

=======================  ==================  ==============================================
host                     plays through       policy
=======================  ==================  ==============================================
simulate, tournament     ``play_out``,       ``--on-engine-failure`` (default ``forfeit``,
                         ``SeatPlayer``      or ``fallback:AGENT``), covering engines;
                                             reported in the JSON ``failures``
terminal                 ``play_out``,       computer seats: ``first_legal`` covering all,
                         ``SeatPlayer``,     said on the screen; a person's seat
                         ``Keyboard``        (``tui.keyboard.Keyboard``) has none
server computer seats    ``decide_with``     ``first_legal`` covering all, with a log line
                                             saying so
``coloretto connect``    ``ask``             ``fallback:AGENT`` (``--fallback``) covering
                                             engines; the fallback is the server's
                                             computer player, by a hand-over
=======================  ==================  ==============================================

``decide(spec, seed, observation_or_state, policy)`` is the picklable entry point for one
decision of a built-in agent (a module-level function with picklable arguments and result),
for hosts that compute decisions in worker processes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from ..agents.base import Agent, Budget
from ..agents.external import EngineFailure
from ..agents.registry import make_agent
from ..engine.actions import Action
from ..engine.errors import ConfigurationError, IllegalActionError
from ..engine.observation import Observation, observe
from ..engine.record import Game
from ..engine.rules import Rules
from ..engine.seeds import FALLBACK, derive_seed
from ..engine.state import GameState, new_game
from ..engine.step import Step

log = logging.getLogger(__name__)

StepHook = Callable[[Game, Step, bool], None]
"""Called after each action as ``hook(game, step, forced)``: ``step`` is what ``Game.play``
returned (the seat, the action and what it did); ``forced`` is True when the action was the
seat's only legal one."""

FailureHook = Callable[[Exception, int], None]
"""Called as ``hook(failure, seat)`` when the agent of ``seat`` fails, before the policy acts."""

PolicyKind = Literal["forfeit", "fallback", "first_legal"]
Covers = Literal["engines", "all"]


@dataclass(frozen=True)
class FailurePolicy:
    """What a host does when a seat's agent fails (module docstring).

    Attributes:
        kind: ``"forfeit"``, ``"fallback"`` or ``"first_legal"``.
        agent: the built-in agent spec of ``fallback`` (``None`` otherwise).
        covers: ``"engines"`` (only ``EngineFailure``) or ``"all"`` (every exception and
            illegal answer).

    >>> FailurePolicy.parse("fallback:random")
    FailurePolicy(kind='fallback', agent='random', covers='engines')
    >>> str(FailurePolicy.parse("first_legal", covers="all"))
    'first_legal'
    """

    kind: PolicyKind
    agent: str | None = None
    covers: Covers = "engines"

    @classmethod
    def parse(cls, text: str, covers: Covers = "engines") -> FailurePolicy:
        """Read ``forfeit``, ``first_legal`` or ``fallback:SPEC`` (``SPEC`` a built-in agent,
        not ``cmd:``).

        Raises:
            ConfigurationError: anything else, or an unknown ``SPEC`` (the message shows the
                accepted forms).
        """
        if text == "forfeit":
            return cls("forfeit", None, covers)
        if text == "first_legal":
            return cls("first_legal", None, covers)
        if text.startswith("fallback:"):
            spec = text[len("fallback:") :]
            if not spec or spec.startswith("cmd:"):
                raise ConfigurationError(
                    f"on-engine-failure {text!r}: the fallback must be a built-in agent, e.g. fallback:random"
                )
            make_agent(spec).close()  # raises ConfigurationError for unknown agents
            return cls("fallback", spec, covers)
        raise ConfigurationError(
            f"on-engine-failure {text!r}: use 'forfeit' or 'fallback:AGENT' (e.g. fallback:random)"
        )

    def __str__(self) -> str:
        return f"fallback:{self.agent}" if self.kind == "fallback" else self.kind

    def handles(self, failure: BaseException) -> bool:
        """Whether ``failure`` is one this policy handles (else it is raised)."""
        return isinstance(failure, Exception) and (self.covers == "all" or isinstance(failure, EngineFailure))


FIRST_LEGAL: Final = FailurePolicy("first_legal", covers="all")
"""The policy of the terminal's and the server's computer seats."""


class Forfeit(Exception):
    """Raised out of a decision (and ``play_out``) when ``seat`` forfeits under ``forfeit``."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


@dataclass(frozen=True)
class Decision:
    """The outcome of one decision.

    Attributes:
        action: the action to play (legal).
        failure: ``None``, or what went wrong with the agent (``"RuntimeError: ..."``,
            ``"seat 2 (bot) chose take row 100, which is not legal"``) when the policy chose ``action``.
    """

    action: Action
    failure: str | None = None


def raise_if_interrupted(failure: BaseException) -> None:
    """Raise ``KeyboardInterrupt`` when ``failure`` came from one (Ctrl-C), else return.

    Ctrl-C while compiled code runs (the fast core's search) can reach Python as another
    exception, such as ``SystemError: ... returned a result with an exception set``, whose
    cause is the ``KeyboardInterrupt``. It is the person's interruption, never an agent's
    failure, so no failure policy may cover it: the causes and contexts of ``failure`` are
    searched for it.

    Raises:
        KeyboardInterrupt: ``failure`` is one or was caused by one (chained from ``failure``).
    """
    seen: set[int] = set()
    exc: BaseException | None = failure
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            raise KeyboardInterrupt from failure
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__


def failure_text(failure: BaseException) -> str:
    """A one-line description of an agent's failure for logs and notes."""
    if isinstance(failure, _NotLegal):
        return str(failure)
    return f"{type(failure).__name__}: {failure}"


class _NotLegal(IllegalActionError):
    """An agent answered an action that is not among the legal ones."""


def ask(agent: Agent, observation: Observation, legal: Sequence[Action], state: GameState | None = None) -> Action:
    """One decision of ``agent`` with no failure policy (steps 1 to 3 of the module docstring).

    Args:
        observation: the seat's observation; ``legal``: its legal actions (non-empty).
        state: the true state, given to ``agent.peek`` when the agent needs it.

    Raises:
        IllegalActionError: the agent answered an action not in ``legal`` (the message names
            the seat and agent; ``docs/rules.md §3``).
        Exception: whatever the agent raises.
    """
    if agent.needs_true_state and state is not None:
        agent.peek(state.copy())
    if len(legal) == 1 and not agent.needs_true_state:
        return legal[0]
    action = agent.act(observation, legal)
    if action not in legal:
        raise _NotLegal(
            f"seat {observation.seat + 1} ({agent.name}) chose {action}, which is not legal", "§3", str(action)
        )
    return action


def _fallback_agent(policy: FailurePolicy, seed: int, budget: Budget | None, seat: int, rules: Rules) -> Agent:
    assert policy.agent is not None
    agent = make_agent(policy.agent, seed, budget)
    agent.reset(seat, rules)
    return agent


def decide_with(
    agent: Agent,
    observation: Observation,
    legal: Sequence[Action],
    policy: FailurePolicy,
    state: GameState | None = None,
    fallback_seed: int = 0,
) -> Decision:
    """One decision of ``agent`` under ``policy`` (module docstring). A ``fallback`` agent
    is built for this decision only (seeded ``fallback_seed``); a host that keeps the
    fallback for the rest of the game uses ``SeatPlayer``.

    Raises:
        Forfeit: the agent failed under ``forfeit``.
        Exception: a failure the policy does not cover.
    """
    try:
        return Decision(ask(agent, observation, legal, state))
    except Exception as exc:
        raise_if_interrupted(exc)
        if not policy.handles(exc):
            raise
        return recover(policy, exc, observation, legal, state, fallback_seed, agent.budget)


def recover(
    policy: FailurePolicy,
    failure: Exception,
    observation: Observation,
    legal: Sequence[Action],
    state: GameState | None = None,
    fallback_seed: int = 0,
    budget: Budget | None = None,
) -> Decision:
    """The policy's decision after ``failure`` (of the agent, or of the machinery that ran
    it, e.g. a closed worker pool): ``first_legal`` plays ``legal[0]``, ``fallback`` asks a
    fresh fallback agent (seeded ``fallback_seed``, with ``budget``).

    Raises:
        Forfeit: under ``forfeit``.
    """
    note = failure_text(failure)
    if policy.kind == "first_legal":
        return Decision(legal[0], note)
    if policy.kind == "forfeit":
        raise Forfeit(observation.seat) from failure
    helper = _fallback_agent(policy, fallback_seed, budget, observation.seat, observation.state.rules)
    try:
        return Decision(ask(helper, observation, legal, state), note)
    finally:
        helper.close()


def decide(
    spec: str, seed: int, observation_or_state: Observation | GameState, policy: FailurePolicy = FIRST_LEGAL
) -> tuple[Action, str | None]:
    """One decision of the built-in agent ``spec`` seeded ``seed``, for the seat to move:
    the picklable entry point for worker processes (every argument and the result pickle).

    Given a ``GameState`` (the true state) the seat's observation is made here and agents
    with ``needs_true_state`` see the state; given an ``Observation`` they cannot. A
    ``fallback`` policy's agent is seeded ``derive_seed(seed, FALLBACK)``.

    Returns:
        ``(action, failure)``: the action (legal) and ``None``, or the policy's action and
        what went wrong (``Decision.failure``).

    Raises:
        ConfigurationError: unknown ``spec``; ValueError: the game is over.
        Forfeit: the agent failed under ``forfeit``.
    """
    if isinstance(observation_or_state, GameState):
        state: GameState | None = observation_or_state
        observation = observe(observation_or_state, observation_or_state.to_move)
    else:
        state, observation = None, observation_or_state
    if observation.state.is_over():
        raise ValueError("the game is over: there is no decision to make")
    legal = observation.state.legal_actions()
    agent = make_agent(spec, seed)
    try:
        agent.reset(observation.seat, observation.state.rules)
        d = decide_with(agent, observation, legal, policy, state, derive_seed(seed, FALLBACK))
    finally:
        agent.close()
    return d.action, d.failure


class SeatPlayer(Agent):
    """The player of one seat for a whole game: its agent, timed, under a failure policy
    (module docstring). A ``fallback`` agent keeps the seat for the rest of the game.

    Args:
        primary: the seat's agent.
        policy: the host's failure policy.
        on_failure: called with the failure and the seat before the policy acts.
        fallback_seed / fallback_budget: seed and budget of a ``fallback`` agent.

    Attributes:
        active: the agent now playing (``primary`` until a fallback takes over).
        failed: the primary agent failed in this game.
        seconds: wall-clock seconds of each ``act`` call.
    """

    def __init__(
        self,
        primary: Agent,
        policy: FailurePolicy,
        on_failure: FailureHook | None = None,
        fallback_seed: int = 0,
        fallback_budget: Budget | None = None,
    ) -> None:
        super().__init__(primary.seed, primary.budget)
        self.primary = primary
        self.active = primary
        self.name = primary.name
        self.needs_true_state = primary.needs_true_state
        self.policy = policy
        self._on_failure = on_failure
        self._fallback_seed = fallback_seed
        self._fallback_budget = fallback_budget
        self.failed = False
        self.seconds: list[float] = []

    def reset(self, seat: int, rules: Rules) -> None:
        super().reset(seat, rules)
        try:
            self.primary.reset(seat, rules)
        except Exception as exc:  # noqa: BLE001 - _recover raises what the policy does not handle
            self._recover(exc)

    def peek(self, state: GameState) -> None:
        """Forward the true state to the active agent (measurement only)."""
        self.active.peek(state)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        t0 = time.perf_counter()
        try:
            action = ask(self.active, observation, legal)
        except Exception as exc:  # noqa: BLE001 - _recover raises what the policy does not handle
            if self._recover(exc):
                action = legal[0]
            else:
                action = ask(self.active, observation, legal)
        self.seconds.append(time.perf_counter() - t0)
        return action

    def game_over(self, scores: Sequence[int], winners: Sequence[int]) -> None:
        """Tell the active agent the result, unless the seat's agent failed in this game."""
        if not self.failed:
            self.active.game_over(scores, winners)

    def _recover(self, exc: Exception) -> bool:
        """Apply the policy to ``exc``: True means "play the first legal action"; otherwise
        the fallback agent is active. Raises what the policy does not handle, a
        ``KeyboardInterrupt`` it caused (``raise_if_interrupted``), and ``Forfeit``."""
        raise_if_interrupted(exc)
        if not self.policy.handles(exc) or self.active is not self.primary:
            raise exc
        self.failed = True
        if self._on_failure is not None:
            self._on_failure(exc, self.seat)
        if self.policy.kind == "first_legal":
            return True
        self.primary.close()
        if self.policy.kind == "forfeit":
            raise Forfeit(self.seat) from exc
        assert self.rules is not None
        self.active = _fallback_agent(self.policy, self._fallback_seed, self._fallback_budget, self.seat, self.rules)
        self.needs_true_state = self.active.needs_true_state
        return False

    def close(self) -> None:
        self.primary.close()
        if self.active is not self.primary:
            self.active.close()


def start_game(
    rules: Rules,
    seed: int,
    seats: Sequence[str],
    *,
    removed_colors: Sequence[int] | None = None,
    first_player: int | None = None,
    preset_name: str | None = None,
) -> Game:
    """A new recorded game dealt from ``seed`` (the options are those of
    ``coloretto.engine.state.new_game``)."""
    state = new_game(
        rules, seed, removed_colors=removed_colors, first_player=first_player, preset_name=preset_name
    )
    return Game(state, list(seats))


def play_out(game: Game, agents: Sequence[Agent], on_step: StepHook | None = None) -> Game:
    """Play ``game`` to its end with ``agents[seat]`` deciding for each seat (``ask``): the
    game loop of ``coloretto simulate``, ``tournament`` and the terminal.

    Agents are ``reset`` for their seat first. Agents with ``needs_true_state`` (the
    measurement-only ``oracle``) get ``peek(state)`` before each decision. After each action
    ``on_step(game, step, forced)`` is called (``StepHook``); an exception it raises stops
    the game there (the terminal's "save and quit" between games of a match). The host
    delivers the result (``deliver_results``).

    Raises:
        IllegalActionError: an agent returned an action not among the legal ones (the
            message names the seat and agent).
        Forfeit: a ``SeatPlayer`` forfeited (``play_with_policy`` catches it).
        Exception: whatever an agent or ``on_step`` raises and no policy handles.
    """
    state = game.state
    if len(agents) != state.n:
        raise ValueError(f"{len(agents)} agents for {state.n} seats")
    for seat, agent in enumerate(agents):
        agent.reset(seat, state.rules)
    while not state.is_over():
        seat = state.to_move
        legal = state.legal_actions()
        step = game.play(ask(agents[seat], observe(state, seat), legal, state))
        state = game.state
        if on_step is not None:
            on_step(game, step, len(legal) == 1)
    return game


def play_with_policy(game: Game, players: Sequence[SeatPlayer]) -> int | None:
    """Play ``game`` to its end (``play_out``) with one ``SeatPlayer`` per seat.

    Returns:
        The seat that forfeited (the game stops there; ``game`` holds the state and record
        at that moment), or ``None`` when the game was played to its end.

    Raises:
        Exception: whatever a policy does not handle (bugs are not hidden).
    """
    try:
        play_out(game, players)
    except Forfeit as f:
        return f.seat
    return None


def deliver_results(players: Sequence[Agent], scores: list[int], winners: list[int]) -> None:
    """Tell each player ``game_over(scores, winners)`` (seats); a player that fails now is
    only logged (the game is over)."""
    for p in players:
        try:
            p.game_over(scores, winners)
        except Exception as exc:  # noqa: BLE001 - the game is over; a dying engine is harmless
            log.debug("result not delivered to seat %d (%s): %s", p.seat, p.name, exc)


__all__ = [
    "FIRST_LEGAL",
    "Decision",
    "FailureHook",
    "FailurePolicy",
    "Forfeit",
    "SeatPlayer",
    "StepHook",
    "ask",
    "decide",
    "decide_with",
    "deliver_results",
    "failure_text",
    "play_out",
    "play_with_policy",
    "raise_if_interrupted",
    "recover",
    "start_game",
]
