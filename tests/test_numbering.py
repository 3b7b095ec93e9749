"""One numbering for people: every text meant for a person counts rows, seats, games, rounds,
entries and record actions from 1; JSON, records and the engine protocol count from 0.

This module lists every human-readable output that names something countable. Each case
builds a situation where the 0-based and 1-based numbers differ and returns the text with the
numbers it must show and the ones it must not.

FOR FUTURE AUTHORS: a new text that names a row, seat, game, round or action (a message, a
screen, a report) gets a case here, in the section of its part. The terminal (``tui/``,
``cli/play.py``, ``cli/show.py``) and the web client have their own sections at the end.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from coloretto.agents import Agent, Budget, make_agent
from coloretto.agents.advisor import Advice, advise
from coloretto.agents.external import EngineFailure
from coloretto.arena.driver import play_out, start_game
from coloretto.cli.analyze import describe
from coloretto.cli.main import main
from coloretto.engine import GameState, Observation, Rules, new_game, observe
from coloretto.engine.actions import Action
from coloretto.engine.errors import IllegalActionError
from coloretto.engine.record import replay

Case = tuple[str, Sequence[str], Sequence[str]]
"""``(text, must_contain, must_not_contain)``."""

CASES: dict[str, Callable[[], Case]] = {}
DATA = Path(__file__).parent / "data" / "records"
MINI = Path(__file__).parent / "agents" / "engines" / "mini_engine.py"


def case(name: str) -> Callable[[Callable[[], Case]], Callable[[], Case]]:
    """Register a case under ``name`` (``part: what``)."""

    def register(fn: Callable[[], Case]) -> Callable[[], Case]:
        assert name not in CASES, name
        CASES[name] = fn
        return fn

    return register


def cli(argv: list[str]) -> tuple[int, str, str]:
    """Run ``coloretto argv`` in this process: ``(status, stdout, stderr)``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 2
    return status, out.getvalue(), err.getvalue()


def illegal(state: GameState, action: Action) -> str:
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    return str(info.value)


def record_file(tmp: Path, record: dict[str, Any], name: str = "r.json") -> str:
    path = tmp / name
    path.write_text(json.dumps(record))
    return str(path)


_SCRATCH = tempfile.TemporaryDirectory(prefix="numbering-")
"""One folder for the cases' files, removed when the test process ends."""


def tmpdir() -> Path:
    """A new empty folder inside ``_SCRATCH``."""
    return Path(tempfile.mkdtemp(dir=_SCRATCH.name))


# ----- engine: readable actions and IllegalActionError messages ---------------------------
@case("engine: readable actions")
def _actions() -> Case:
    text = " | ".join(str(a) for a in (Action("take", 0), Action("place", 0), Action("take", 5)))
    return text, ["take row 1", "place -> row 1", "take row 6"], ["row 0"]


@case("engine: a row taken this round")
def _taken() -> Case:
    st = new_game(Rules(players=4), 3)
    st.apply(Action("draw"))
    st.apply(Action("place", 0))
    st.apply(Action("take", 0))
    return illegal(st, Action("take", 0)), ["take row 1: row 1 was taken this round"], ["row 0"]


@case("engine: a full row")
def _full() -> Case:
    st = new_game(Rules(players=4), 3)
    for _ in range(3):
        st.apply(Action("draw"))
        st.apply(Action("place", 0))
    st.apply(Action("draw"))
    return illegal(st, Action("place", 0)), ["place -> row 1: row 1 is full"], ["row 0"]


@case("engine: an empty row")
def _empty() -> Case:
    st = new_game(Rules(players=4), 3)
    text = illegal(st, Action("take", 1))
    return text, ["take row 2: row 2 is empty"], ["row 1"]


@case("engine: a row the table lacks")
def _no_such_row() -> Case:
    st = new_game(Rules(players=4), 3)
    return illegal(st, Action("take", 5)), ["take row 6: there are only 4 rows"], ["row 5"]


# ----- records: replay messages (they name both the count for people and the JSON value) --
@case("record: a seat that is not to move")
def _wrong_seat() -> Case:
    res = replay(json.loads((DATA / "illegal_wrong_seat.json").read_text()))
    assert not res.valid and res.error is not None
    return res.error, ['seat 1 ("seat": 0) acted', 'seat 2 ("seat": 1) is to move'], []


@case("record: a seat the game lacks")
def _no_such_seat() -> Case:
    rec = json.loads((DATA / "legal_2p_round.json").read_text())
    rec["actions"][0]["seat"] = 7
    res = replay(rec)
    assert res.error is not None and res.action_index == 0
    return res.error, ['"seat": 7 is no seat', '"seat" is 0 to 1 here', "seat 1 (\"seat\": 0)"], []


@case("record: a row the table lacks")
def _record_row() -> Case:
    rec = json.loads((DATA / "legal_2p_round.json").read_text())
    draw = next(e for e in rec["actions"] if e["action"] == "draw")
    draw["row"] = 7
    res = replay(rec)
    assert res.error is not None
    return res.error, ['"row": 7 does not exist', "records count rows from 0", '"row" is 0 to 2'], []


@case("record: default seat names")
def _default_names() -> Case:
    rec = json.loads((DATA / "legal_2p_round.json").read_text())
    del rec["seats"]
    res = replay(rec)
    assert res.game is not None
    return ", ".join(res.game.seats), ["seat 1, seat 2"], ["seat 0"]


# ----- cli: replay, perft, analyze, score, tournament, simulate ----------------------------
def _unfinished(tmp: Path) -> tuple[str, GameState]:
    rec = json.loads((DATA / "legal_2p_full.json").read_text())
    rec["actions"] = rec["actions"][:3]  # seat index 0 to move; it may take row index 2
    del rec["result"]
    res = replay(rec)
    assert res.game is not None and res.game.state.to_move == 0
    return record_file(tmp, rec), res.game.state


@case("replay: seats in the table and the seat to move")
def _replay_text() -> Case:
    path, _ = _unfinished(tmpdir())
    status, out, _ = cli(["replay", path])
    assert status == 0
    seat_column = [line.split()[0] for line in out.splitlines()[2:4]]
    return out + "\nseat column: " + " ".join(seat_column), ["seat 1 to move", "column: 1 2"], [
        "seat 0"
    ]


@case("replay: the invalid action")
def _replay_invalid() -> Case:
    rec = json.loads((DATA / "legal_2p_full.json").read_text())
    rec["actions"][2]["seat"] = 1 - rec["actions"][2]["seat"]
    status, out, _ = cli(["replay", record_file(tmpdir(), rec)])
    assert status == 1
    return out, ["at action 3 (actions[2] in the record)"], ["at action 2"]


@case("perft: the seat to move and the divided first actions")
def _perft_text() -> Case:
    path, state = _unfinished(tmpdir())
    status, out, _ = cli(["perft", path, "--depth", "1", "--divide"])
    assert status == 0
    rows = [a.arg for a in state.legal_actions() if a.kind == "take"]
    assert rows, "the record's end offers a take"
    return out, ["seat 1 to move", f"take row {rows[0] + 1}"], ["seat 0", "row 0"]


@case("perft: a finished game")
def _perft_over() -> Case:
    status, out, _ = cli(["perft", str(DATA / "legal_2p_full.json"), "--depth", "1"])
    assert status == 0
    return out, ["the game is over"], ["seat -1", "seat 0"]


@case("perft: an invalid record")
def _perft_invalid() -> Case:
    rec = json.loads((DATA / "legal_2p_full.json").read_text())
    rec["actions"][2]["seat"] = 1 - rec["actions"][2]["seat"]
    status, _, err = cli(["perft", record_file(tmpdir(), rec), "--depth", "1"])
    assert status == 1
    return err, ["action 3 (actions[2] in the record)"], ["(action 2)"]


def _invalid_at_2() -> str:
    """A record file whose actions[2] is played by the wrong seat."""
    rec = json.loads((DATA / "legal_2p_full.json").read_text())
    rec["actions"][2]["seat"] = 1 - rec["actions"][2]["seat"]
    return record_file(tmpdir(), rec)


@case("show and analyze: an invalid record")
def _show_analyze_invalid() -> Case:
    path = _invalid_at_2()
    texts = []
    for argv in (["show", path], ["analyze", path, "--budget", "20"]):
        status, _, err = cli(argv)
        assert status == 1, argv
        texts.append(err)
    return "\n".join(texts), ["action 3 (actions[2] in the record)"], ["(action 2)", "action 2 "]


def test_every_command_words_an_invalid_record_alike() -> None:
    """replay, show, perft and analyze print one sentence for the same invalid record (after
    their own prefix); ``replay --json`` gives the 0-based index of the same entry."""
    path = _invalid_at_2()
    said = set()
    for argv in (["replay", path], ["show", path], ["perft", path, "--depth", "1"], ["analyze", path, "--budget", "20"]):
        status, out, err = cli(argv)
        assert status == 1, argv
        text = (out + err).strip()
        said.add(text[text.index(f"{path} is not a valid record at action 3 (actions[2] in the record): "):])
    assert len(said) == 1, said
    status, out, _ = cli(["replay", path, "--json"])
    assert status == 1 and json.loads(out)["action_index"] == 2


@case("analyze: seats, and rows of merged placements")
def _analyze_text() -> Case:
    status, out, _ = cli(["analyze", str(DATA / "legal_2p_full.json"), "--budget", "12"])
    assert status == 0
    st = new_game(Rules(players=4), 8)
    st.apply(Action("draw"))
    legal = st.legal_actions()
    advice = advise(observe(st, st.to_move), legal, Budget(iterations=8), seed=1)
    first = next(a for a in advice if a.action == Action("place", 0))
    return (
        out + describe(st, first),
        ["seat 1 (ann)", "seat 2 (bob)", "-> row 1 (same as rows 2, 3 and 4)"],
        ["seat 0", "row 0"],
    )


@case("analyze: an invalid record")
def _analyze_invalid() -> Case:
    rec = json.loads((DATA / "legal_2p_full.json").read_text())
    rec["actions"][2]["seat"] = 1 - rec["actions"][2]["seat"]
    status, _, err = cli(["analyze", record_file(tmpdir(), rec), "--budget", "4"])
    assert status == 1
    return err, ["action 3 (actions[2] in the record)"], ["(action 2)"]


@case("score: the breakdown names nothing countable")
def _score() -> Case:
    status, out, _ = cli(["score", "green=6", "yellow=4", "red=3", "blue=2", "joker=1", "+2=1"])
    assert status == 0
    return out, ["41"], ["row ", "seat ", "game ", "round "]


@case("tournament: entries in the table, games and seats of engine failures")
def _tournament() -> Case:
    status, out, err = cli(
        [
            "tournament",
            "--agents",
            f"cmd:{sys.executable} {MINI} crash,random",
            "--games",
            "2",
            "--workers",
            "1",
        ]
    )
    assert status == 1
    first_cells = [line.split()[0] for line in out.splitlines() if "random" in line]
    return (
        err + "\nentry column: " + " ".join(first_cells),
        ["game 1 seat 1 (entry 1", "game 2 seat 2 (entry 1", "entry 1 (cmd:", "column: 2"],
        ["seat 0", "entry 0", "game 0"],
    )


@case("simulate: seats in the table, games and seats of engine failures")
def _simulate() -> Case:
    crash = f"cmd:{sys.executable} {MINI} crash"
    argv = ["simulate", "--agents", f"{crash},random", "--players", "2", "--games", "2"]
    status, out, _ = cli([*argv, "--seed", "1"])
    assert status == 0
    return out, ["game 1 seat 1", "game 2 seat 1"], ["seat 0", "game 0"]


# ----- agents and arena --------------------------------------------------------------------
@case("agents: an external engine's failure")
def _engine_failure() -> Case:
    return str(EngineFailure(2, "illegal", "no such row", "bot")), ["seat 3: engine 'bot'"], []


@case("agents: the advisor asked for a seat not to move")
def _advisor_seat() -> Case:
    st = new_game(Rules(players=3), 1)
    other = (st.to_move + 1) % 3
    with pytest.raises(ValueError) as info:
        advise(Observation(st, other), st.legal_actions(), Budget(iterations=3))
    return str(info.value), [f"seat {other + 1} is not to move (seat {st.to_move + 1} is)"], []


@case("agents: advice text and its JSON")
def _advice_json() -> Case:
    data = Advice(Action("take", 0), 0.5, 0.0, 10).to_json()
    assert data["action"] == {"action": "take", "row": 0}  # JSON counts from 0
    return data["text"], ["take row 1"], ["row 0"]


@case("arena: an agent choosing an illegal action")
def _driver() -> Case:
    class Stubborn(Agent):
        name = "stubborn"

        def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
            return Action("take", 3)  # every row is empty at the start

    game = start_game(Rules(players=2), 1, ["a", "b"])
    seat = game.state.to_move
    agents: list[Agent] = [make_agent("random", 0), make_agent("random", 1)]
    agents[seat] = Stubborn()
    with pytest.raises(IllegalActionError) as info:
        play_out(game, agents)
    return str(info.value), [f"seat {seat + 1} (stubborn) chose take row 4"], []


@case("envs: the PettingZoo picture of the table")
def _pettingzoo_render() -> Case:
    from coloretto.envs.pettingzoo import raw_env

    env = raw_env(players=3, render_mode="ansi")
    env.reset(seed=1)
    return env.render(), ["seat 1 (player_0)", "seat 3 (player_2)", "row 3"], ["seat 0", "row 0"]


@case("envs: the Gymnasium picture of the table")
def _gymnasium_render() -> Case:
    from coloretto.envs.gymnasium import ColorettoEnv

    env = ColorettoEnv(players=4, opponents="random", seat=0, render_mode="ansi")
    env.reset(seed=1)
    return env.render(), ["learner", "seat 2", "seat 4", "row 4"], ["seat 0", "seat 5", "row 0"]


@case("envs: OpenSpiel's names of the deal's chance outcomes")
def _openspiel_chance() -> Case:
    import pyspiel

    import coloretto.envs.openspiel  # noqa: F401 (registers the game)

    state = pyspiel.load_game("python_coloretto", {"players": 4}).new_initial_state()
    first = state.action_to_string(pyspiel.PlayerId.CHANCE, 1)  # 4 players remove no colour
    return first, ["first player seat 2"], ["seat 1"]


# ----- terminal (tui/, cli/play.py, cli/show.py) -------------------------------------------
# Cases for the terminal's screens, hints and messages go here.
@case("play: --seat and --first-player outside the game")
def _play_seat_options() -> Case:
    texts = []
    for argv in (["--seat", "0"], ["--seat", "4"], ["--first-player", "0"], ["--first-player", "4"]):
        status, _, err = cli(["play", "--players", "3", *argv])
        assert status == 2, argv
        texts.append(err)
    return (
        "\n".join(texts),
        ["--seat 0 is not a seat of this 3-player game", "--seat is 1 to 3",
         "--first-player 4 is not a seat", "--first-player is 1 to 3"],
        ["0..2", "0 to 2", "counted from 0"],
    )


def play_then_quit(*argv: str) -> tuple[str, dict[str, Any]]:
    """Run the installed ``coloretto play ARGV --name Ann --seed 8`` for 3 players, answer
    ``q`` at the first prompt; returns its output and the record it saved."""
    tmp = tmpdir()
    save = tmp / "g.json"
    proc = subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [str(Path(sys.executable).parent / "coloretto"), "play", "--players", "3", *argv,
         "--name", "Ann", "--seed", "8", "--save", str(save)],
        input="q\n", capture_output=True, text=True, timeout=60, cwd=tmp,
        env={**os.environ, "NO_COLOR": "1", "COLORETTO_DATA_DIR": str(tmp)},
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, json.loads(save.read_text())


@case("play: --seat 1 and --first-player 1 are the first seat")
def _play_first_seat() -> Case:
    out, rec = play_then_quit("--seat", "1", "--first-player", "1", "--opponents", "random")
    assert rec["human_seats"] == [0] and rec["actions"][0]["seat"] == 0  # records count from 0
    return out, ["in seat order: Ann (you), ", "Ann must draw"], ["random-0"]


@case("play: computer players are named by their seat counted from 1")
def _play_computer_names() -> Case:
    out, rec = play_then_quit("--seat", "2", "--opponents", "random,greedy")
    seats = rec["seats"]
    return (
        f"{out}\nrecord seats: {seats}",
        ["in seat order: random-1, Ann (you), greedy-3", "['random-1', 'Ann', 'greedy-3']"],
        ["random-0", "greedy-2"],
    )


@case("simulate --save-records: computer players are named by their seat counted from 1")
def _simulate_record_names() -> Case:
    out_dir = tmpdir() / "records"
    status, _, err = cli(
        ["simulate", "--players", "3", "--agents", "greedy,random,greedy", "--games", "1",
         "--seed", "3", "--save-records", str(out_dir)]
    )
    assert status == 0, err
    (path,) = out_dir.iterdir()
    seats = json.loads(path.read_text())["seats"]
    return f"record seats: {seats}", ["['greedy-1', 'random-2', 'greedy-3']"], ["greedy-0"]


@case("show: --seat 1 is the first seat")
def _show_first_seat() -> Case:
    status, out, _ = cli(["show", str(DATA / "legal_2p_full.json"), "--seat", "1"])
    assert status == 0
    return out, ["ann (this view)"], ["bob (this view)"]


@case("show: --seat outside the game")
def _show_bad_seat() -> Case:
    texts = []
    for seat in ("0", "3"):
        status, _, err = cli(["show", str(DATA / "legal_2p_full.json"), "--seat", seat])
        assert status == 2
        texts.append(err)
    return "\n".join(texts), ["--seat 0 is not a seat of this 2-player game", "--seat is 1 to 2"], ["0..1"]


# ----- web client and server messages -------------------------------------------------------
# Cases for the browser client's texts and the server's human-readable messages go here.
SERVER_TESTS = Path(__file__).parent / "server"
BOT = SERVER_TESTS / "first_legal_bot.py"
BROKEN_BOT = SERVER_TESTS / "broken_bot.py"
_SERVERS: list[Any] = []
"""The one ``coloretto serve`` process of the connect cases, started by the first that needs it."""


@pytest.fixture(autouse=True, scope="module")
def _stop_the_server() -> Any:
    yield
    for server in _SERVERS:
        server.stop()
    _SERVERS.clear()


def _server() -> Any:
    """The running server of the connect cases (a real ``coloretto serve``, as the server
    tests run it)."""
    if not _SERVERS:
        if str(SERVER_TESTS) not in sys.path:
            sys.path.insert(0, str(SERVER_TESTS))
        from serverproc import FAST_TEST_FLAGS, ServerProcess

        tmp = tmpdir()
        _SERVERS.append(ServerProcess(f"sqlite:///{tmp / 'n.db'}", tmp / "serve.log", *FAST_TEST_FLAGS).start())
    return _SERVERS[0]


def _table_with_seat_2_open() -> str:
    """The link of a new 3-seat table: Ann's seat 1 (index 0) handed to a computer player,
    seat 2 (index 1) open, a computer at seat 3 (index 2)."""
    import httpx
    from websockets.sync.client import connect

    server = _server()
    made = httpx.post(server.url + "/api/tables", json={
        "name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "computer", "agent": "easy"}]}).json()
    tid = made["table"]["id"]
    with connect(f"{server.ws}/ws/tables/{tid}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        ws.send(json.dumps({"type": "hand_over", "seat": 0, "agent": "greedy"}))
        while True:
            msg = json.loads(ws.recv(timeout=30))
            if msg.get("seats") and msg["seats"][0]["kind"] == "computer":
                break
    return f"{server.url}/table/{tid}"


@case("connect: --seat counts from 1")
def _connect_seat_zero() -> Case:
    status, _, err = cli(["connect", "http://127.0.0.1:9/table/abc", "--engine", "true", "--seat", "0"])
    assert status == 2
    return err, ["--seat 0: seats are counted from 1 (seat 1 is the first seat)"], ["0 or more"]


@case("connect: a seat that is not open, a seat the table lacks")
def _connect_not_open() -> Case:
    link = _table_with_seat_2_open()
    engine = f"{sys.executable} {BOT}"
    taken = cli(["connect", link, "--engine", engine, "--seat", "1"])
    past = cli(["connect", link, "--engine", engine, "--seat", "4"])
    assert taken[0] == past[0] == 2
    return taken[2] + past[2], ["seat 1 is not open", "(open seats: 2)", "has 3 seats (seat 1 is the first seat)"], [
        "open seats: 1",
        "seat 0",
    ]


@case("connect: the seat taken and the game's end")
def _connect_played() -> Case:
    link = _table_with_seat_2_open()
    status, out, err = cli(["connect", link, "--engine", f"{sys.executable} {BOT}"])
    assert status == 0, err
    said = err + out
    return said, ["ready for seat 2", f"seated at table {link.rsplit('/', 1)[1]}, seat 2", "you were seat 2"], [
        "ready for seat 1",
        "seat 1 (token",
        "you were seat 1",
    ]


@case("connect: an engine failing while it holds the seat")
def _connect_failed() -> Case:
    link = _table_with_seat_2_open()
    engine = f"{sys.executable} {BROKEN_BOT} exit-on-decide"
    status, out, err = cli(["connect", link, "--engine", engine, "--fallback", "greedy", "--json"])
    assert status == 1, err
    assert json.loads(out)["seat"] == 1  # the JSON counts from 0
    return err, ["handing seat 2 to greedy", "seat 2 is now played by greedy"], ["handing seat 1", "seat 1 is now"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_people_count_from_1(name: str) -> None:
    text, present, absent = CASES[name]()
    for expected in present:
        assert expected in text, f"{name}: {expected!r} missing from {text!r}"
    for unexpected in absent:
        assert unexpected not in text, f"{name}: {unexpected!r} found in {text!r}"
