"""Drive one game (or match) between agents: the loop every interface shares.

``play_out`` asks the agent of the seat to move for an action, given that seat's
observation and the legal actions, until the game is over, recording every action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..agents.base import Agent
from ..engine.actions import Action
from ..engine.errors import IllegalActionError
from ..engine.observation import observe
from ..engine.record import Game
from ..engine.rules import Rules
from ..engine.state import new_game

StepHook = Callable[[Game, int, Action], None]
"""Called after each action as ``hook(game, seat, action)``."""


def start_game(rules: Rules, seed: int, seats: Sequence[str], **deal_options: object) -> Game:
    """A new recorded game dealt from ``seed`` (see ``coloretto.engine.state.new_game``)."""
    return Game(new_game(rules, seed, **deal_options), list(seats))  # type: ignore[arg-type]


def play_out(game: Game, agents: Sequence[Agent], on_step: StepHook | None = None) -> Game:
    """Play ``game`` to its end with ``agents[seat]`` deciding for each seat.

    Agents are ``reset`` for their seat first. Agents with ``needs_true_state`` (the
    measurement-only ``oracle``) get ``peek(state)`` before each decision.

    Raises:
        IllegalActionError: an agent returned an action not among the legal ones (the
            message names the seat and agent).
    """
    state = game.state
    if len(agents) != state.n:
        raise ValueError(f"{len(agents)} agents for {state.n} seats")
    for seat, agent in enumerate(agents):
        agent.reset(seat, state.rules)
    while not state.is_over():
        seat = state.to_move
        legal = state.legal_actions()
        agent = agents[seat]
        if agent.needs_true_state:
            agent.peek(state.copy())  # type: ignore[attr-defined]
        action = legal[0] if len(legal) == 1 and not agent.needs_true_state else agent.act(observe(state, seat), legal)
        if action not in legal:
            raise IllegalActionError(
                f"seat {seat + 1} ({agent.name}) chose {action}, not among the legal actions",
                "§3",
                str(action),
            )
        game.play(action)
        state = game.state
        if on_step is not None:
            on_step(game, seat, action)
    return game
