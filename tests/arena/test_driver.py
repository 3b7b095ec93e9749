"""The one driver (``arena.driver``): the agent contract's defaults, the failure policy of
each kind, the picklable one-decision entry point, and each host's documented choice played
through its real components (terminal, server computer seat, simulate)."""

from __future__ import annotations

import doctest
import io
import logging
import pickle
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from rich.console import Console

import coloretto.agents.base
import coloretto.arena.driver
from coloretto.agents import make_agent
from coloretto.agents.base import Agent
from coloretto.agents.external import EngineFailure
from coloretto.arena.driver import (
    FIRST_LEGAL,
    Decision,
    FailurePolicy,
    Forfeit,
    SeatPlayer,
    decide,
    decide_with,
    deliver_results,
    play_out,
    play_with_policy,
    start_game,
)
from coloretto.engine import Rules, new_game, observe, replay
from coloretto.engine.actions import Action
from coloretto.engine.errors import ConfigurationError, IllegalActionError
from coloretto.engine.observation import Observation
from coloretto.engine.record import Game
from coloretto.engine.state import GameState
from coloretto.engine.step import Step
from coloretto.server import computer
from coloretto.tui.session import TerminalGame


class OnlyAct(Agent):
    """An agent that implements nothing but ``act`` (the contract's minimum)."""

    name = "only-act"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        return legal[-1]


class Raising(Agent):
    name = "raising"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        raise RuntimeError("the search blew up")


class Dying(Agent):
    """An external engine's failure, as ``ExternalAgent`` raises it."""

    name = "dying"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        raise EngineFailure(0, "exited", "the program exited", "bot")


class Listener(OnlyAct):
    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.heard: list[tuple[list[int], list[int]]] = []

    def game_over(self, scores: Sequence[int], winners: Sequence[int]) -> None:
        self.heard.append((list(scores), list(winners)))


def decision_state(players: int = 3, seed: int = 5) -> GameState:
    """A state whose seat to move has at least two legal actions."""
    state = new_game(Rules(players=players), seed)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


def test_the_contract_has_no_op_defaults_and_examples() -> None:
    agent = OnlyAct()
    state = decision_state()
    assert agent.peek(state) is None and agent.game_over([1, 2, 3], [2]) is None
    assert not agent.needs_true_state
    for module in (coloretto.agents.base, coloretto.arena.driver):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted >= 2, module.__name__


def test_policies_read_and_print() -> None:
    assert FailurePolicy.parse("forfeit") == FailurePolicy("forfeit")
    assert FailurePolicy.parse("fallback:greedy", covers="all") == FailurePolicy("fallback", "greedy", "all")
    assert str(FailurePolicy.parse("first_legal")) == "first_legal"
    for bad in ("shrug", "fallback:", "fallback:cmd:bot", "fallback:nobody"):
        with pytest.raises(ConfigurationError):
            FailurePolicy.parse(bad)
    assert FIRST_LEGAL.handles(RuntimeError()) and not FailurePolicy("forfeit").handles(RuntimeError())
    assert FailurePolicy("forfeit").handles(EngineFailure(0, "timeout", "late", "bot"))


def test_each_kind_of_policy_on_one_decision() -> None:
    state = decision_state()
    seat, legal = state.to_move, state.legal_actions()
    obs = observe(state, seat)
    assert decide_with(OnlyAct(), obs, legal, FIRST_LEGAL) == Decision(legal[-1])
    first = decide_with(Raising(), obs, legal, FIRST_LEGAL)
    assert first == Decision(legal[0], "RuntimeError: the search blew up")
    fallback = decide_with(Raising(), obs, legal, FailurePolicy("fallback", "greedy", "all"), fallback_seed=3)
    assert fallback.action in legal and fallback.failure == first.failure
    with pytest.raises(Forfeit) as forfeit:
        decide_with(Dying(), obs, legal, FailurePolicy("forfeit"))
    assert forfeit.value.seat == seat
    with pytest.raises(RuntimeError):  # a policy covering engines does not hide a bug
        decide_with(Raising(), obs, legal, FailurePolicy("forfeit"))

    class Illegal(OnlyAct):
        def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
            return Action("take", 99)

    illegal = decide_with(Illegal(), obs, legal, FIRST_LEGAL)
    assert illegal.action == legal[0] and illegal.failure is not None and "not legal" in illegal.failure
    with pytest.raises(IllegalActionError):
        decide_with(Illegal(), obs, legal, FailurePolicy("forfeit"))


def test_decide_is_picklable_and_runs_in_a_worker_process() -> None:
    state = decision_state(players=4, seed=9)
    obs = observe(state, state.to_move)
    here = decide("greedy", 7, state, FIRST_LEGAL)
    assert here[0] in state.legal_actions() and here[1] is None
    assert decide("greedy", 7, obs) == here  # the observation alone gives the same decision
    args = ("greedy", 7, state, FIRST_LEGAL)
    assert pickle.loads(pickle.dumps(args))[2].to_dict() == state.to_dict()
    with ProcessPoolExecutor(1) as pool:
        assert pool.submit(decide, *args).result() == here
    over = new_game(Rules(players=2), 1)
    play_out(Game(over, ["a", "b"]), [make_agent("random", 1), make_agent("random", 2)])
    with pytest.raises(ValueError):
        decide("random", 1, over)


def test_seat_players_hear_the_result_unless_they_failed() -> None:
    listener = Listener()
    players = [SeatPlayer(listener, FailurePolicy("forfeit")), SeatPlayer(make_agent("random", 2), FIRST_LEGAL)]
    game = start_game(Rules(players=2), 3, ["a", "b"])
    assert play_with_policy(game, players) is None
    deliver_results(players, game.state.totals(), game.state.winners())
    assert listener.heard == [(game.state.totals(), game.state.winners())]
    failing = SeatPlayer(Dying(), FailurePolicy("fallback", "random"), fallback_seed=4)
    game = start_game(Rules(players=2), 3, ["a", "b"])
    assert play_with_policy(game, [failing, SeatPlayer(Listener(), FIRST_LEGAL)]) is None
    assert failing.failed and failing.active.name == "random" and game.state.is_over()


def test_play_out_hands_its_hook_each_step_and_whether_it_was_the_only_legal_action() -> None:
    game = start_game(Rules(players=3), 6, ["a", "b", "c"])
    before = game.state.copy()
    seen: list[tuple[Step, bool]] = []
    play_out(game, [make_agent("random", s) for s in range(3)], lambda g, step, forced: seen.append((step, forced)))
    assert [step for step, _ in seen] == game.steps and game.state.is_over()
    forced = []
    for step in game.steps:
        forced.append(len(before.legal_actions()) == 1)
        before.apply(step.action)
    assert [f for _, f in seen] == forced and any(forced) and not all(forced)


# ----- each host's policy through its real components -----------------------------------------
def test_terminal_plays_the_first_legal_action_for_a_failing_computer_and_says_so(tmp_path: Path) -> None:
    rules = Rules(players=3)
    game = Game(new_game(rules, 8), ["bot-0", "bot-1", "bot-2"])
    buf = io.StringIO()
    session = TerminalGame(
        game=game,
        agents={0: Raising(), 1: make_agent("random", 1), 2: make_agent("greedy", 2)},
        human_seats=[],
        agent_specs=["random", "random", "greedy"],
        save_path=tmp_path / "rec.json",
        console=Console(file=buf, width=120, color_system=None),
        seed=8,
        read_line=lambda prompt: "",
    )
    assert session.run() == 0
    out = buf.getvalue()
    assert out.count("The computer player bot-0 failed (RuntimeError: the search blew up)") == 1
    assert "(failure policy: first_legal)" in out
    assert out.count("The computer player bot-0 keeps failing the same way") == 1
    rec = game.to_record()
    assert replay(rec).finished and "Final scores" in out


class BrokenListener(Listener):
    """A computer player that fails from the start: in ``reset`` and at every decision."""

    def reset(self, seat: int, rules: Rules) -> None:
        raise RuntimeError("no model file")

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        raise RuntimeError("the search blew up")


def test_terminal_computer_seats_are_seat_players_under_first_legal(tmp_path: Path) -> None:
    """A computer player failing in ``reset`` is covered too (and told with its first
    action); one that failed does not hear the result, the others do."""
    broken, listener = BrokenListener(), Listener()
    game = Game(new_game(Rules(players=3), 8), ["bot-0", "bot-1", "bot-2"])
    buf = io.StringIO()
    session = TerminalGame(
        game=game,
        agents={0: broken, 1: listener, 2: make_agent("random", 2)},
        human_seats=[],
        agent_specs=["random", "random", "random"],
        save_path=tmp_path / "rec.json",
        console=Console(file=buf, width=200, color_system=None),
    )
    assert session.run() == 0
    lines = buf.getvalue().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("The computer player bot-0 failed"))
    assert lines[first].startswith("The computer player bot-0 failed (RuntimeError: no model file); it plays ")
    assert lines[first + 1].startswith("The computer player bot-0 failed (RuntimeError: the search blew up)")
    assert broken.heard == [] and listener.heard == [(game.state.totals(), game.state.winners())]


def test_server_computer_seat_policy_is_the_drivers(caplog: pytest.LogCaptureFixture) -> None:
    import asyncio

    from coloretto.server.runner import JobOwner, ThreadRunner

    state = decision_state()
    seat, legal = state.to_move, state.legal_actions()

    async def act() -> Action:
        runner = ThreadRunner(1)
        await runner.close()  # a closed runner fails: the policy still plays
        return await computer.computer_action(
            runner, JobOwner("T"), computer.ComputerSeat(seat, "random", make_agent("random", 1)),
            observe(state, seat), legal,
        )

    assert computer.FAILURE_POLICY is FIRST_LEGAL
    with caplog.at_level(logging.WARNING, logger="coloretto.server"):
        assert asyncio.run(act()) == legal[0]
    assert "computer player random failed" in caplog.text and "failure policy: first_legal" in caplog.text


def test_simulate_forfeits_by_its_default_policy_through_the_driver() -> None:
    from coloretto.agents.base import Budget
    from coloretto.arena.simulate import play_game_outcome

    mini = Path(__file__).resolve().parents[1] / "agents" / "engines" / "mini_engine.py"
    specs = [f"cmd:{sys.executable} {mini} crash", "greedy"]
    out = play_game_outcome(Rules(players=2), specs, 4, 0, budget=Budget(seconds=0.05))
    assert out.forfeit == 0
    assert [(f["seat"], f["kind"], f["handling"]) for f in out.failures] == [(0, "exited", "forfeit")]


def test_an_interruption_is_never_an_agents_failure() -> None:
    """Ctrl-C that reaches Python as another exception caused by a ``KeyboardInterrupt``
    (as it does out of compiled code) is raised as ``KeyboardInterrupt``; real failures
    are left to the policy."""
    from coloretto.arena.driver import raise_if_interrupted

    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ctrl_c:
            raise SystemError("returned a result with an exception set") from ctrl_c
    except SystemError as wrapped:
        with pytest.raises(KeyboardInterrupt):
            raise_if_interrupted(wrapped)
    raise_if_interrupted(RuntimeError("a bug"))  # not an interruption: returns
    loop = RuntimeError("loop")
    loop.__context__ = loop
    raise_if_interrupted(loop)  # a cycle in the chain ends the search
