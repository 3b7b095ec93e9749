"""External engines over coloretto-engine/1: complete games through the protocol, and each
kind of failure (crash, silence, malformed, illegal) handled as documented, never hanging."""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

import pytest

from coloretto.agents import Budget, make_agent
from coloretto.agents.external import EngineFailure, ExternalAgent
from coloretto.arena.driver import play_out, start_game
from coloretto.engine.errors import ColorettoError
from coloretto.engine.observation import observe
from coloretto.engine.rules import preset

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]
MINI = Path(__file__).resolve().parent / "engines" / "mini_engine.py"
EXAMPLE = ROOT / "examples" / "random_engine.py"


def mini(mode: str, *extra: str) -> str:
    return " ".join([sys.executable, str(MINI), mode, *extra])


def fast_engine(mode: str, *extra: str, seat_budget: float = 0.05) -> ExternalAgent:
    """An engine with small timeouts: time_ms 50, grace 100 ms, hello 5 s."""
    return ExternalAgent(
        mini(mode, *extra),
        seed=7,
        budget=Budget(seconds=seat_budget),
        grace_ms=100,
        hello_timeout_ms=5000,
    )


def play_with(engine: ExternalAgent, seat: int, players: int = 4, seed: int = 11):
    rules = preset("classic", players)
    agents = [make_agent("random", seed=s) for s in range(players)]
    agents[seat] = engine
    game = start_game(rules, seed, [f"p{s}" for s in range(players)])
    return play_out(game, agents)


@pytest.mark.parametrize("players, seat", [(2, 1), (3, 0), (5, 4)])
def test_complete_games_through_the_protocol(tmp_path: Path, players: int, seat: int) -> None:
    log = tmp_path / "messages.txt"
    engine = fast_engine("ok", str(log), seat_budget=1.0)
    try:
        game = play_with(engine, seat, players)
        assert game.state.is_over()
        engine.game_over(game.state.totals(), game.state.winners())
        assert engine.engine_name == "mini"
        # a second game on the same process: a new hello
        pid = engine._proc.pid  # type: ignore[union-attr]
        game2 = play_with(engine, seat, players, seed=12)
        assert game2.state.is_over()
        assert engine._proc.pid == pid  # type: ignore[union-attr]
    finally:
        engine.close()
    assert not engine.running
    kinds = log.read_text().split()
    assert kinds[0] == "hello" and kinds.count("hello") == 2
    assert kinds.count("result") == 1 and kinds[-1] == "quit"
    # every decision of the seat with a choice was asked over the protocol
    asked = sum(1 for _ in kinds if _ == "decide")
    assert asked > 0
    # the engine's actions are recorded for its seat
    assert any(e["seat"] == seat for e in game.entries)


def test_decide_message_carries_observation_legal_and_time(tmp_path: Path) -> None:
    """A capturing engine: check the exact decide message the host sends."""
    capture = tmp_path / "capture.jsonl"
    script = tmp_path / "capture_engine.py"
    script.write_text(
        "import json, sys\n"
        f"out = open({str(capture)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line); out.write(line); out.flush()\n"
        "    if m['type'] == 'hello': print(json.dumps({'type': 'ready', 'name': 'cap'}), flush=True)\n"
        "    elif m['type'] == 'decide': print(json.dumps({'type': 'action', 'action': m['legal'][-1]}), flush=True)\n"
        "    elif m['type'] == 'quit': break\n"
    )
    rules = preset("classic", 3)
    game = start_game(rules, 3, ["a", "b", "c"])
    engine = ExternalAgent(f"{sys.executable} {script}", seed=99, budget=Budget(seconds=0.25))
    try:
        engine.reset(1, rules)
        state = game.state
        while state.to_move != 1:
            game.play(state.legal_actions()[0])
            state = game.state
        legal = state.legal_actions()
        action = engine.act(observe(state, 1), legal)
        assert action == legal[-1]
    finally:
        engine.close()
    messages = [json.loads(line) for line in capture.read_text().splitlines()]
    hello, decide, quit_ = messages
    assert hello == {
        "type": "hello",
        "protocol": "coloretto-engine/1",
        "seat": 1,
        "rules": rules.to_dict(),
        "seed": 99,
    }
    assert decide["type"] == "decide" and decide["time_ms"] == 250
    assert decide["observation"] == observe(state, 1).to_json()
    assert decide["legal"] == [a.to_json() for a in legal]
    assert quit_ == {"type": "quit"}


def test_default_time_ms() -> None:
    assert ExternalAgent("x").time_ms == 1000
    assert ExternalAgent("x", budget=Budget(seconds=0.5)).time_ms == 500


@pytest.mark.parametrize(
    "mode, kind, words",
    [
        ("crash", "exited", "exit status 3"),
        ("killed", "exited", "killed by signal 9 (SIGKILL)"),
        ("silent", "timeout", "within 150 ms"),
        ("malformed", "malformed", "not a JSON line"),
        ("wrongtype", "malformed", '"type": "action"'),
        ("illegal", "illegal", "not among the legal actions"),
        ("farrow", "illegal", '{"action": "take", "row": 99} is not among the legal actions'),
        ("negrow", "malformed", "non-negative integer 'row'"),
        ("noready", "malformed", "ready"),
    ],
)
def test_failures_are_reported_with_seat_and_kind(mode: str, kind: str, words: str) -> None:
    engine = fast_engine(mode)
    with pytest.raises(EngineFailure) as info:
        play_with(engine, seat=2)
    failure = info.value
    assert failure.seat == 2
    assert failure.kind == kind
    assert words in failure.detail
    assert "seat 3" in str(failure) and mode in str(failure)  # seat index 2, counted from 1
    assert not engine.running  # the failed engine is stopped
    engine.close()  # idempotent after a failure


def test_engine_that_cannot_start() -> None:
    engine = ExternalAgent("/nonexistent/engine --flag")
    with pytest.raises(EngineFailure) as info:
        engine.reset(0, preset("classic", 2))
    assert info.value.kind == "start" and "/nonexistent/engine" in info.value.detail


def test_failed_engine_restarts_on_next_game() -> None:
    engine = fast_engine("malformed")
    with pytest.raises(EngineFailure):
        play_with(engine, seat=0)
    engine.reset(0, preset("classic", 4))  # a fresh process answers hello again
    assert engine.running
    engine.close()


def test_stderr_is_logged_not_parsed(tmp_path: Path) -> None:
    err = tmp_path / "engine.log"
    engine = ExternalAgent(mini("stderr"), budget=Budget(seconds=1.0), stderr_path=str(err))
    try:
        assert play_with(engine, seat=1).state.is_over()
    finally:
        engine.close()
    text = err.read_text()
    assert "got hello" in text and "got decide" in text and "[engine seat 2 pid" in text


def test_stuck_engine_is_killed_on_close() -> None:
    engine = fast_engine("stubborn", seat_budget=1.0)
    play_with(engine, seat=0, players=2)
    proc = engine._proc
    assert proc is not None
    engine.close()  # quit ignored, SIGTERM ignored: killed
    assert proc.poll() is not None
    assert not engine.running


def test_make_agent_builds_external_engines() -> None:
    agent = make_agent(f"cmd:{mini('ok')}", seed=3, budget=Budget(seconds=0.2))
    try:
        assert isinstance(agent, ExternalAgent)
        assert agent.seed == 3 and agent.time_ms == 200
    finally:
        agent.close()


def test_bad_commands_are_refused() -> None:
    with pytest.raises(ColorettoError, match="empty"):
        ExternalAgent("   ")
    with pytest.raises(ColorettoError, match="cannot be split"):
        ExternalAgent('python3 "unclosed')


def test_engine_failure_pickles() -> None:
    failure = EngineFailure(3, "timeout", "no answer", "bot")
    copy = pickle.loads(pickle.dumps(failure))
    assert (copy.seat, copy.kind, copy.detail, copy.engine) == (3, "timeout", "no answer", "bot")
    assert copy.to_json() == {"seat": 3, "kind": "timeout", "detail": "no answer", "engine": "bot"}


@pytest.mark.parametrize("players", [2, 4])
def test_example_engine_plays_legal_complete_games(players: int) -> None:
    engine = ExternalAgent(f"{sys.executable} {EXAMPLE}", seed=5, budget=Budget(seconds=1.0))
    try:
        for seed in (1, 2):
            game = play_with(engine, seat=players - 1, players=players, seed=seed)
            assert game.state.is_over()
            engine.game_over(game.state.totals(), game.state.winners())
    finally:
        engine.close()


def test_how_a_program_ended_is_said_in_words() -> None:
    import doctest

    from coloretto.agents import external

    result = doctest.testmod(external, verbose=False)
    assert result.attempted >= 1 and result.failed == 0
    assert external.how_it_ended(-999) == "killed by signal 999"
