"""``coloretto play`` driven as a person drives it: through a pseudo-terminal with pexpect.

The "person" reads the legal keys from each prompt (``Your choice [d 1 3]:``) and answers
with the first one; along the way it types wrong keys, presses Ctrl-C and resumes.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from coloretto.engine.record import replay

PROMPT = re.compile(r"Your choice \[([^\]]*)\]: ")
FINISHED = "Record saved to"
PAUSE = re.compile(r"Press Enter to start game (\d+ of \d+) \(q saves and quits\): ")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def plain(text: str) -> str:
    """``text`` without ANSI escape codes (NO_COLOR keeps bold and dim)."""
    return ANSI.sub("", text)


BIN = Path(sys.executable).parent
COLORETTO = BIN / "coloretto"
"""The installed ``coloretto`` command of this environment (what a person runs)."""


def _env(cwd: Path, color: bool = False, on_path: bool = True, width: int = 120) -> dict[str, str]:
    """The environment of a run from ``cwd``: records go to ``cwd/data/games``; the
    environment's ``bin`` folder is first on ``PATH`` unless ``on_path`` is false (then
    ``PATH`` holds only system folders, as after ``make play``)."""
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    if not color:
        env["NO_COLOR"] = "1"
    env["TERM"] = "xterm-256color"
    env["COLUMNS"] = str(width)
    env["LINES"] = "50"
    env["COLORETTO_DATA_DIR"] = str(cwd / "data")
    system = os.pathsep.join(
        d for d in env.get("PATH", "").split(os.pathsep) if d and Path(d) != BIN
    )
    env["PATH"] = f"{BIN}{os.pathsep}{system}" if on_path else system
    return env


def spawn(args: list[str], cwd: Path, color: bool = False, width: int = 120) -> pexpect.spawn:
    child = pexpect.spawn(
        str(COLORETTO),
        ["play", *args],
        cwd=str(cwd),
        env=_env(cwd, color, width=width),
        encoding="utf-8",
        timeout=30,
        dimensions=(50, width),
    )
    child.delaybeforesend = None  # the program reads whole lines: no need to wait
    return child


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [str(COLORETTO), *args],
        cwd=str(cwd),
        env=_env(cwd),
        capture_output=True,
        text=True,
        timeout=60,
    )


def play_to_end(child: pexpect.spawn, max_prompts: int = 400) -> int:
    """Answer every prompt with its first legal key until the game ends; return the number
    of prompts answered."""
    for n in range(max_prompts):
        i = child.expect([PROMPT, FINISHED])
        if i == 1:
            return n
        keys = child.match.group(1).split()
        assert keys, "a prompt without choices"
        child.sendline(keys[0])
    raise AssertionError("the game did not end")


def test_complete_game_with_wrong_keys_ctrl_c_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn(["--opponents", "random", "--seed", "12", "--save", "game.json"], tmp_path)
    child.expect(PROMPT)
    keys = child.match.group(1).split()
    board_before = plain(child.before)
    # A wrong keystroke: refused, the same prompt comes back, nothing is played.
    child.sendline("x")
    child.expect("'x' is not a choice here")
    child.expect(PROMPT)
    assert child.match.group(1).split() == keys
    assert "put" not in child.before and "took" not in child.before
    # A row number that is not legal now (there are only 4 rows).
    child.sendline("9")
    child.expect("'9' is not a choice here")
    child.expect(PROMPT)
    assert child.match.group(1).split() == keys
    assert "draw pile:" in board_before and "row 1" in board_before

    # Play until a card has been drawn and waits for its row, then press Ctrl-C.
    for _ in range(200):
        if "Choose the row for" in plain(child.before):
            break
        child.sendline(child.match.group(1).split()[0])
        child.expect(PROMPT)
    else:
        pytest.fail("never asked to place a drawn card")
    drawn = re.search(r"Choose the row for \[(.)\]", plain(child.before))
    assert drawn is not None
    child.sendintr()
    child.expect("Game saved to")
    child.expect("Resume it with: coloretto play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130

    saved = json.loads(save.read_text())
    res = replay(saved)
    assert res.valid and not res.finished
    assert saved["human_seats"] == [0]
    assert saved["agents"] == [None, "random", "random", "random"]
    tail = saved["actions"][-1]
    assert tail == {"seat": 0, "action": "draw", "card": tail["card"]}  # drawn, not placed
    assert "pending_draw" not in saved
    n_saved = len(saved["actions"])

    # Resume: the same drawn card is shown again, then play on to the end.
    child = spawn(["--resume", "game.json"], tmp_path)
    child.expect(f"Resuming after {n_saved} recorded actions")
    child.expect(PROMPT)
    again = re.search(r"Choose the row for \[(.)\]", plain(child.before))
    assert again is not None and again.group(1) == drawn.group(1)
    child.sendline(child.match.group(1).split()[0])
    play_to_end(child)
    child.expect(pexpect.EOF)
    tail = child.before
    child.close()
    assert child.exitstatus == 0

    # The final breakdown and the winner were shown.
    final = json.loads(save.read_text())
    assert "result" in final and "pending_draw" not in final
    scores = final["result"]["scores"]
    checked = run_cli("replay", "--json", str(save), cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    result = json.loads(checked.stdout)
    assert result["valid"] is True and result["finished"] is True
    assert result["scores"] == scores
    best = max(scores)
    assert result["winners"] == [s for s, v in enumerate(scores) if v == best]
    assert "coloretto replay" in tail


def test_final_screen_shows_breakdown_and_winner(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    child = spawn(
        ["--players", "3", "--opponents", "greedy,random", "--seed", "5", "--save", str(save)],
        tmp_path,
    )
    transcript: list[str] = []
    for _ in range(400):
        i = child.expect([PROMPT, pexpect.EOF])
        transcript.append(child.before)
        if i == 1:
            break
        child.sendline(child.match.group(1).split()[-1])  # the last legal key this time
    child.close()
    assert child.exitstatus == 0
    text = plain("".join(transcript))
    final = text[text.index("The game is over.") :]
    for heading in ("positive", "negative", "jokers to", '"+2"', "total", "rank"):
        assert heading in final
    rec = json.loads(save.read_text())
    totals = rec["result"]["scores"]
    names = rec["seats"]
    best = max(totals)
    winners = [names[s] for s, v in enumerate(totals) if v == best]
    expected = ("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(winners)
    assert expected in final
    for name, total in zip(names, totals):
        assert re.search(rf"{re.escape(name)}\s.*\s{total}\s+\d", final), (name, total)
    assert names[1:] == ["greedy-2", "random-3"] and rec["agents"] == [None, "greedy", "random"]


def test_choose_mode_match_modern_in_colour(tmp_path: Path) -> None:
    """Starting cards chosen, a match of two games, modern edition; colours on."""
    save = tmp_path / "m.json"
    child = spawn(
        [
            "--players",
            "3",
            "--edition",
            "modern",
            "--starting-cards",
            "choose",
            "--match-games",
            "2",
            "--opponents",
            "random",
            "--seed",
            "3",
            "--save",
            str(save),
            "--name",
            "Ann",
        ],
        tmp_path,
        color=True,
    )
    transcript: list[str] = []
    first = True
    pauses = 0
    for _ in range(600):
        i = child.expect([PROMPT, pexpect.EOF, PAUSE])
        transcript.append(child.before)
        if i == 1:
            break
        if i == 2:
            # between the games: the first game's result is shown, the next waits for Enter
            pauses += 1
            seen = ANSI.sub("", "".join(transcript))
            assert "Game 1 of 2 is over" in seen and "Game 2 of 2 begins" not in seen
            assert child.match.group(1) == "2 of 2"
            child.sendline("")
            continue
        keys = child.match.group(1).split()
        if first:
            # the first decision of this seat is a starting colour: keys are colour letters
            assert all(k in "bngeopy" for k in keys), keys
            first = False
        child.sendline(keys[0])
    child.close()
    assert child.exitstatus == 0
    text = "".join(transcript)
    assert ANSI.search(text), "colours expected on a colour terminal"
    plain = ANSI.sub("", text)
    assert "choose your starting colour" in plain
    assert "game 1 of 2" in plain and "game 2 of 2" in plain
    assert "Game 1 of 2 is over" in plain
    assert "Match" in plain
    assert pauses == 1
    assert "Game 2 of 2 begins" in plain
    rec = json.loads(save.read_text())
    assert isinstance(rec["setup"], list) and len(rec["setup"]) == 2
    assert any(a["action"] == "choose_start" for a in rec["actions"])
    res = replay(rec)
    assert res.valid and res.finished


def test_piped_input_without_terminal(tmp_path: Path) -> None:
    """Input not from a terminal, NO_COLOR: plain letters, no escape codes; wrong lines are
    refused and the game still ends (answers cycle through keys, most of them illegal); a
    refused line of 200,000 characters is shown cut to its start."""
    answers = "z" * 200_000 + "\n" + "\n".join(
        itertools.islice(itertools.cycle(["z", "5", "4", "3", "2", "1", "d"]), 5000)
    )
    save = tmp_path / "p.json"
    proc = subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [
            str(COLORETTO),
            "play",
            "--opponents",
            "greedy",
            "--players",
            "2",
            "--seed",
            "9",
            "--save",
            str(save),
        ],
        input=answers,
        cwd=str(tmp_path),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[" not in proc.stdout
    assert "'z' is not a choice here" in proc.stdout
    assert "'zzzzzzzzzz" in proc.stdout and "z" * 100 not in proc.stdout
    assert re.search(r"\[[BNGEOPY]\]", proc.stdout)
    assert "Winner" in proc.stdout or "Shared win" in proc.stdout
    assert replay(json.loads(save.read_text())).valid


def test_input_ends_early_saves(tmp_path: Path) -> None:
    save = tmp_path / "e.json"
    proc = subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [
            str(COLORETTO),
            "play",
            "--opponents",
            "random",
            "--seed",
            "1",
            "--save",
            str(save),
        ],
        input="",
        cwd=str(tmp_path),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "Input ended" in proc.stdout and "--resume" in proc.stdout
    rec = json.loads(save.read_text())
    assert replay(rec).valid


def test_q_saves_and_quits(tmp_path: Path) -> None:
    save = tmp_path / "q.json"
    child = spawn(["--opponents", "random", "--seed", "4", "--save", str(save)], tmp_path)
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Resume it with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert replay(json.loads(save.read_text())).valid


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponents", "oracle"], "oracle"),
        (["--opponents", "oracle-value"], "'oracle-value' sees the hidden draw pile"),
        (["--opponents", "nobody"], "unknown agent"),
        (["--opponents", "random,random"], "3 other seats"),
        (["--players", "7"], "players"),
        (["--preset", "bga", "--players", "2"], "bga"),
        (["--seat", "5"], "--seat 5 is not a seat of this 4-player game: seats are counted from 1, so --seat is 1 to 4"),
        (["--seat", "0"], "--seat 0 is not a seat of this 4-player game: seats are counted from 1, so --seat is 1 to 4"),
        (["--first-player", "0"], "--first-player 0 is not a seat of this 4-player game: seats are counted from 1, so --first-player is 1 to 4"),
        (["--players", "3", "--first-player", "4"], "--first-player 4 is not a seat of this 3-player game: seats are counted from 1, so --first-player is 1 to 3"),
        (["--row-capacities", "3,x"], "--row-capacities"),
        (["--row-capacities", "3,3,0,4"], "--row-capacities 3,3,0,4: allowed: a list of 4 to 6 capacities, each 1 to 6"),
        (["--match-games", "0"], "--match-games 0: allowed: an integer from 1 to 10"),
        (["--removed-colors", "purple", "--players", "3"], "purple"),
        (["--removed-colors", "gray,Gray", "--players", "3"], "removed colours must differ: gray named twice"),
        (["--removed-colors", "gray", "--players", "4"], "4 players remove no colour (colours are removed with 2 or 3 players)"),
        (["--removed-colors", "", "--players", "3"], "--removed-colors is empty"),
        (["--resume", "missing.json"], "cannot read"),
        (["--resume", "x.json", "--players", "3"], "--players"),
        (["--opponents", "cmd:"], "empty command"),
        (["--opponents", "random,cmd: ,random"], "empty command"),
        (["--save", ""], "--save needs a file name"),
        (["--name", ""], "--name must not be empty"),
        (["--name", "Ann\nBob"], "--name cannot hold control or invisible characters"),
        (["--opponents", ""], "--opponents has an empty name"),
        (["--name", "A" * 25], "--name has 25 characters; at most 24"),
        (["--name", "random-2", "--opponents", "random"], "--name 'random-2' is a computer player's name at this table"),
        (["--opponents", "cmd:no_such_program_xyz"], "program 'no_such_program_xyz' not found"),
        (["--hint-budget=-1s"], "positive"),
        (["--hint-budget=0ms"], "positive"),
        (["--hint-budget", "2s"], "--hint-budget sets the hints' thinking time: add --hints"),
    ],
)
def test_bad_options_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    proc = run_cli("play", *args, cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert message in proc.stderr


@pytest.mark.parametrize("opponents", ["foo", "random,foo@1s,random"])
def test_an_unknown_opponent_lists_only_the_agents_play_takes(tmp_path: Path, opponents: str) -> None:
    """The oracles see the hidden draw pile and are refused, so the list leaves them out."""
    proc = run_cli("play", "--opponents", opponents, cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stderr == (
        "coloretto play: error: --opponents: unknown agent 'foo'; known: random, greedy, "
        "heuristic, mcts, mcts-v1, ismcts, ismcts-value, policy, easy, medium, hard, expert, "
        "policy:FILE, cmd:COMMAND\n"
    )


def test_an_unreadable_opponent_budget_is_named_with_its_option(tmp_path: Path) -> None:
    proc = run_cli("play", "--opponents", "hard@x", cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stderr == (
        "coloretto play: error: --opponents: agent 'hard@x': budget 'x': use seconds ('0.5s', "
        "'500ms'), CPU seconds ('0.5s-cpu') or iterations ('2000')\n"
    )


def test_resume_rejects_invalid_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "coloretto-record/1", "setup": {}}))
    proc = run_cli("play", "--resume", str(bad), cwd=tmp_path)
    assert proc.returncode == 2
    assert "not a valid record" in proc.stderr


def test_resume_finished_game_shows_result(tmp_path: Path) -> None:
    save = tmp_path / "f.json"
    answers = "\n".join(itertools.islice(itertools.cycle(["1", "2", "3", "4", "d"]), 3000))
    subprocess.run(
        [
            str(COLORETTO),
            "play",
            "--opponents",
            "random",
            "--seed",
            "2",
            "--save",
            str(save),
        ],
        input=answers,
        cwd=str(tmp_path),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    proc = run_cli("play", "--resume", str(save), cwd=tmp_path)
    assert proc.returncode == 0
    assert "The game is over." in proc.stdout


def _play_piped(tmp_path: Path, *args: str, answers: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [str(COLORETTO), "play", *args],
        input=answers,
        cwd=str(tmp_path),
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_save_never_overwrites_an_existing_file(tmp_path: Path) -> None:
    other = tmp_path / "notes.json"
    other.write_text("precious")
    proc = run_cli("play", "--opponents", "random", "--save", str(other), cwd=tmp_path)
    assert proc.returncode == 2
    assert "exists" in proc.stderr and "never overwritten" in proc.stderr
    assert other.read_text() == "precious"
    # a finished game's record is not replaced by a new game either
    answers = "\n".join(itertools.islice(itertools.cycle(["1", "2", "3", "4", "d"]), 3000))
    done = _play_piped(tmp_path, "--opponents", "random", "--seed", "2", "--save", "f.json", answers=answers)
    assert done.returncode == 0, done.stderr
    finished = (tmp_path / "f.json").read_text()
    again = _play_piped(tmp_path, "--opponents", "random", "--seed", "3", "--save", "f.json")
    assert again.returncode == 2 and "exists" in again.stderr
    assert (tmp_path / "f.json").read_text() == finished
    # resuming may update the resumed file (same file, also under another spelling) ...
    same = _play_piped(tmp_path, "--resume", "f.json", "--save", "./f.json")
    assert same.returncode == 0, same.stderr
    # ... but not write over a different existing file
    moved = _play_piped(tmp_path, "--resume", "f.json", "--save", str(other))
    assert moved.returncode == 2 and "exists" in moved.stderr
    assert other.read_text() == "precious"


def test_resume_keeps_the_records_seats_and_names(tmp_path: Path) -> None:
    """A saved game continues with the seats and names it was saved with: --seat and --name
    are refused with --resume (exit 2, the file untouched), as rule options are."""
    saved = _play_piped(tmp_path, "--opponents", "random", "--seed", "2", "--seat", "2", "--save", "s.json",
                        answers="q\n")
    assert saved.returncode == 0, saved.stderr
    before = (tmp_path / "s.json").read_text()
    for extra, word in ((["--seat", "1"], "--seat"), (["--name", "Bob"], "--name")):
        proc = _play_piped(tmp_path, "--resume", "s.json", *extra, answers="q\n")
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert f"do not give {word}" in proc.stderr
        assert (tmp_path / "s.json").read_text() == before
    again = _play_piped(tmp_path, "--resume", "s.json", answers="q\n")
    assert again.returncode == 0, again.stderr
    assert json.loads((tmp_path / "s.json").read_text())["human_seats"] == [1]


def test_default_record_names_are_unique(tmp_path: Path) -> None:
    from coloretto.cli.play import _reserve_default

    unit = tmp_path / "unit"
    unit.mkdir()
    first = _reserve_default(unit, "20250101-120000")
    second = _reserve_default(unit, "20250101-120000")
    third = _reserve_default(unit, "20250101-120000")
    assert [first.name, second.name, third.name] == [
        "coloretto-20250101-120000.json",
        "coloretto-20250101-120000-2.json",
        "coloretto-20250101-120000-3.json",
    ]
    # End to end: every default name of the next minute is taken, so the game must add a
    # suffix instead of replacing the file of an earlier game of the same second.
    import datetime as dt

    games = tmp_path / "data" / "games"  # the default folder (COLORETTO_DATA_DIR of _env)
    games.mkdir(parents=True)
    now = dt.datetime.now()
    taken = {}
    for k in range(60):
        stamp = (now + dt.timedelta(seconds=k)).strftime("%Y%m%d-%H%M%S")
        path = games / f"coloretto-{stamp}.json"
        path.write_text(f"earlier game {k}")
        taken[path] = f"earlier game {k}"
    proc = _play_piped(tmp_path, "--opponents", "random", "--seed", "1")
    assert proc.returncode == 1, proc.stderr  # the input ended: saved
    for path, text in taken.items():
        assert path.read_text() == text
    (saved,) = [p for p in games.glob("coloretto-*-2.json")]
    assert replay(json.loads(saved.read_text())).valid
    assert saved.name in proc.stdout


def test_resume_refuses_human_seats_that_are_not_seats(tmp_path: Path) -> None:
    proc = _play_piped(tmp_path, "--opponents", "random", "--seed", "1", "--save", "g.json")
    assert proc.returncode == 1
    rec = json.loads((tmp_path / "g.json").read_text())
    for bad in ([7], [], [0, 0], "0", [True]):
        rec["human_seats"] = bad
        (tmp_path / "h.json").write_text(json.dumps(rec))
        resumed = _play_piped(tmp_path, "--resume", "h.json")
        assert resumed.returncode == 2, (bad, resumed.stdout)
        assert "human_seats" in resumed.stderr


@pytest.mark.parametrize(
    "agents, message",
    [
        (["x", "y", "z", "w"], "the record's agents[0] is 'x', but seat 1 is a person's"),
        ([None, "y", "z", "w"], "the record's agents: unknown agent 'y'"),
        ([None, None, "random", "random"], "the record's agents[1] is None, but seat 2 is a computer's"),
        (["random", "random", "random", "random"], "the record's agents[0] is 'random', but seat 1 is a person's"),
        ([None, "random"], "the record's agents must list one entry per seat of this 4-player game"),
        ("random", "the record's agents must list one entry per seat"),
        ([None, "random", "", "random"], "the record's agents[2] is '', but seat 3 is a computer's"),
        ([None, "random", "oracle", "random"], "the record's agents: the oracle sees the hidden draw pile"),
    ],
)
def test_resume_refuses_agents_that_do_not_fit_the_seats(tmp_path: Path, agents: object, message: str) -> None:
    """A bad ``agents`` list is refused (exit 2) by its key, never replaced and written back."""
    proc = _play_piped(tmp_path, "--players", "4", "--opponents", "random", "--seed", "1", "--save", "g.json")
    assert proc.returncode == 1, proc.stderr
    rec = json.loads((tmp_path / "g.json").read_text())
    assert rec["agents"] == [None, "random", "random", "random"] and rec["human_seats"] == [0]
    rec["agents"] = agents
    text = json.dumps(rec)
    (tmp_path / "a.json").write_text(text)
    resumed = _play_piped(tmp_path, "--resume", "a.json", answers="q\n")
    assert resumed.returncode == 2, (resumed.stdout, resumed.stderr)
    assert message in resumed.stderr and "--opponents" not in resumed.stderr, resumed.stderr
    assert (tmp_path / "a.json").read_text() == text


@pytest.mark.parametrize("seat", [1, 3])
def test_seat_and_first_player_count_from_1(tmp_path: Path, seat: int) -> None:
    """``--seat 1`` is the first seat and ``--first-player 1`` makes it start, as every screen
    counts them; the record keeps them counted from 0. You start: your first draw is made
    for you (every row is empty), and q at the prompt for its row leaves only that draw."""
    proc = _play_piped(
        tmp_path, "--players", "3", "--seat", str(seat), "--first-player", str(seat),
        "--opponents", "random", "--seed", "8", "--save", "s.json", answers="q\n",
    )
    assert proc.returncode == 0, proc.stderr
    rec = json.loads((tmp_path / "s.json").read_text())
    assert rec["human_seats"] == [seat - 1] and rec["seats"][seat - 1] == "You"
    assert rec["setup"]["first_player"] == seat - 1
    assert [(a["seat"], a["action"]) for a in rec["actions"]] == [(seat - 1, "draw")]
    assert "You must draw" in proc.stdout and "Choose the row for" in proc.stdout


def test_computer_seats_are_seeded_from_the_deal_seed_and_their_seat(tmp_path: Path) -> None:
    """The computer player in seat s is seeded ``derive_seed(seed, AGENT, s)`` (engine/seeds.py,
    as ``coloretto simulate`` seeds its seats): fresh agents seeded so, asked every computer
    decision of the record in turn, choose what was played. An external engine gets a
    one-way seed instead (it must not be able to compute the deal)."""
    from coloretto.agents import make_agent
    from coloretto.arena.driver import FIRST_LEGAL, decide_with
    from coloretto.cli.play import _make_agents
    from coloretto.engine import observe
    from coloretto.engine.seeds import AGENT, derive_seed, one_way_seed
    from coloretto.engine.seeds import ENGINE as ENGINE_STREAM

    answers = "\n".join(itertools.islice(itertools.cycle(["1", "2", "3", "d"]), 3000))
    proc = _play_piped(
        tmp_path, "--players", "3", "--seat", "2", "--opponents", "random", "--seed", "41",
        "--save", "s.json", answers=answers,
    )
    assert proc.returncode == 0, proc.stderr
    game = replay(json.loads((tmp_path / "s.json").read_text())).game
    assert game is not None and game.initial is not None and game.state.is_over()
    st = game.initial.copy()
    agents = {s: make_agent("random", seed=derive_seed(41, AGENT, s)) for s in (0, 2)}
    for seat, agent in agents.items():
        agent.reset(seat, st.rules)
    asked = 0
    for step in game.steps:
        if step.seat in agents:
            decision = decide_with(agents[step.seat], observe(st, step.seat), st.legal_actions(), FIRST_LEGAL, st)
            assert decision.action == step.action, step
            asked += 1
        st.apply(step.action)
    assert asked > 30
    made = _make_agents([None, "random", ENGINE], 41, "--opponents")
    try:
        assert made[1].seed == derive_seed(41, AGENT, 1)
        assert made[2].seed == one_way_seed(41, ENGINE_STREAM, 2)
    finally:
        for agent in made.values():
            agent.close()


def test_resume_without_a_seed_does_not_invent_one(tmp_path: Path) -> None:
    proc = _play_piped(tmp_path, "--opponents", "random", "--seed", "5", "--save", "g.json")
    assert proc.returncode == 1 and "Seed: 5" in proc.stdout
    rec = json.loads((tmp_path / "g.json").read_text())
    assert rec["seed"] == 5
    del rec["seed"]
    (tmp_path / "n.json").write_text(json.dumps(rec))
    resumed = _play_piped(tmp_path, "--resume", "n.json")
    assert resumed.returncode == 1, resumed.stderr
    assert "Resuming after" in resumed.stdout
    assert "Seed" not in resumed.stdout
    assert "seed" not in json.loads((tmp_path / "n.json").read_text())


# ----- every key, every option, hints, crashes and the printed commands -------------------------
ROOT = Path(__file__).resolve().parents[2]
# a row of the hint table: key, action, win chance (with its 95% interval), margin (with its
# interval), samples
TABLE_LINE = re.compile(
    r"^[│|┃]\s*(\S+)\s*[│|┃]\s*(.+?)\s*[│|┃]\s*(\d+)%(?:\s*\[\d+, \d+\])?\s*[│|┃]"
    r"\s*([-+]\d+\.\d)(?:\s*\[[-+]?\d+\.\d, [-+]?\d+\.\d\])?\s*[│|┃]\s*(\d+)\s*[│|┃]"
)


def hint_rows(text: str) -> list[tuple[str, str, int, float, int]]:
    """(key, action, win chance %, margin, samples) of each row of a printed hint table."""
    rows = []
    for line in plain(text).splitlines():
        m = TABLE_LINE.match(line.strip())
        if m:
            rows.append((m[1], m[2], int(m[3]), float(m[4]), int(m[5])))
    return rows


def play_session(
    child: pexpect.spawn, answer: int = 0, max_prompts: int = 1500
) -> tuple[str, int, int]:
    """Answer every prompt with the legal key at index ``answer`` and every pause between
    games with Enter, until the program ends; return (transcript, exit status, pauses)."""
    transcript: list[str] = []
    pauses = 0
    for _ in range(max_prompts):
        i = child.expect([PROMPT, pexpect.EOF, PAUSE])
        transcript.append(child.before)
        if i == 1:
            child.close()
            return plain("".join(transcript)), child.exitstatus, pauses
        if i == 2:
            pauses += 1
            child.sendline("")
            continue
        keys = child.match.group(1).split()
        child.sendline(keys[min(answer, len(keys) - 1)])
    raise AssertionError("the game did not end")


def test_ctrl_c_while_the_advisor_thinks_saves_and_quits(tmp_path: Path) -> None:
    """Ctrl-C during a hint (the compiled search running) is the person's Ctrl-C: the game
    is saved and the program ends with 130, as at any other moment."""
    save = tmp_path / "i.json"
    child = spawn(["--hints", "--hint-budget", "30s", "--opponents", "easy", "--seed", "3",
                   "--save", str(save)], tmp_path)
    child.expect(PROMPT)
    child.sendline("h")
    child.expect("The advisor is thinking")
    time.sleep(2)  # well inside the 30 s search
    child.sendintr()
    child.expect("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert "advisor failed" not in plain(child.before)
    assert child.exitstatus == 130
    assert replay(json.loads(save.read_text())).valid


def test_hints_key_through_the_real_command(tmp_path: Path) -> None:
    """``coloretto play --hints``, then h as a person presses it: the real advisor's table
    (every legal key, the action with rows from 1, chance, margin, samples), then play on."""
    child = spawn(
        ["--hints", "--hint-budget", "40", "--players", "3", "--opponents", "easy", "--seed", "3",
         "--save", "h.json"],
        tmp_path,
    )
    asked = {"turn": False, "place": False}
    for _ in range(200):
        child.expect(PROMPT)
        keys = child.match.group(1).split()
        screen = plain(child.before)
        assert "(h hints, q save and quit, ? help)" in screen
        kind = "place" if "Choose the row for" in screen else "turn"
        if kind == "turn" and len(keys) == 1:
            child.sendline(keys[0])
            continue
        if asked[kind]:
            if all(asked.values()):
                break
            child.sendline(keys[0])
            continue
        asked[kind] = True
        child.sendline("h")
        child.expect(PROMPT)
        assert child.match.group(1).split() == keys  # the same decision is asked again
        rows = hint_rows(child.before)
        assert sorted(r[0] for r in rows) == sorted(keys), child.before
        for key, action, chance, _margin, samples in rows:
            expected = {
                "turn": "draw a card" if key == "d" else f"take row {key}",
                "place": f"place it in row {key}",
            }[kind]
            assert action == expected
            assert 0 <= chance <= 100 and samples >= 1
        child.sendline(keys[0])
    else:
        pytest.fail("never asked both a turn and a placement")
    child.sendline(child.match.group(1).split()[0])
    _, status, _ = play_session(child)
    assert status == 0
    assert replay(json.loads((tmp_path / "h.json").read_text())).finished


def test_without_hints_h_is_not_offered(tmp_path: Path) -> None:
    child = spawn(["--opponents", "random", "--seed", "3"], tmp_path)
    child.expect(PROMPT)
    assert "(q save and quit, ? help)" in plain(child.before)
    assert "h hints" not in plain(child.before)
    child.sendline("?")
    child.expect(PROMPT)
    assert "Keys:" in child.before and "hints" not in child.before
    child.sendline("h")
    child.expect("start the game with --hints")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_help_wraps_between_words_in_a_narrow_terminal(tmp_path: Path) -> None:
    """``?`` in a 60-column terminal: the help is broken into lines at spaces, none longer
    than the terminal, so no word is cut in two."""
    child = spawn(["--opponents", "random", "--seed", "3", "--hints"], tmp_path, width=60)
    child.expect(PROMPT)
    child.sendline("?")
    child.expect(PROMPT)
    text = plain(child.before).replace("\r\n", "\n")
    lines = text[text.index("Keys:"):].split("\n")
    help_lines = lines[: next(i for i, line in enumerate(lines) if "score table above." in line) + 1]
    assert len(help_lines) > 3
    assert all(len(line) <= 60 for line in help_lines), help_lines
    words = " ".join(line.strip() for line in help_lines).split()
    for word in ("advisor's", "starting", "colour;", "optimally),", "counted"):
        assert word in words, (word, help_lines)
    child.sendline("q")
    child.expect(pexpect.EOF)


def _board(screen: str) -> str:
    """The last board in a screen: from its header to the line that asks the decision."""
    text = plain(screen)
    start = text.rindex("Coloretto (")
    return text[start:].split("\r\n  1  ")[0]


def test_kill_9_mid_game_then_resume(tmp_path: Path) -> None:
    """kill -9 right after a key press (the action in flight may be lost, nothing else), and
    again while a drawn card waits for its row: each time ``--resume`` continues from the
    saved position, the second time with the same drawn card and the same collections; then
    the game is played to its end."""
    save = tmp_path / "k.json"
    args = ["--players", "3", "--opponents", "greedy", "--seed", "21", "--save", "k.json"]
    child = spawn(args, tmp_path)
    for _ in range(5):
        child.expect(PROMPT)
        child.sendline(child.match.group(1).split()[0])
    child.expect(PROMPT)
    before = json.loads(save.read_text())  # on disk before the key of this prompt is sent
    child.sendline(child.match.group(1).split()[0])
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus == signal.SIGKILL
    after = json.loads(save.read_text())
    assert after["actions"][: len(before["actions"])] == before["actions"]
    assert replay(after).valid and not replay(after).finished

    # resume; make several moves; kill while the person's drawn card waits for its row
    child = spawn(["--resume", "k.json"], tmp_path)
    child.expect(f"Resuming after {len(after['actions'])} recorded actions")
    for moves in range(300):
        child.expect(PROMPT)
        if moves >= 4 and "Choose the row for" in plain(child.before):
            break
        child.sendline(child.match.group(1).split()[0])
    else:
        pytest.fail("never asked to place a drawn card")
    board = _board(child.before)
    drawn = re.search(r"Choose the row for \[(.)\]", board)
    assert drawn is not None
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    killed = json.loads(save.read_text())
    pending = killed["actions"][-1]  # the unplaced draw: a draw entry without its row
    assert pending == {"seat": 0, "action": "draw", "card": pending["card"]}
    assert len(killed["actions"]) > len(after["actions"])
    shown = run_cli("show", "k.json", cwd=tmp_path)  # the table as saved: the card waits
    assert shown.returncode == 0, shown.stderr
    assert f"You drew [{drawn.group(1)}]" in shown.stdout and "and must place it." in shown.stdout
    assert "You to decide: place it in row " in shown.stdout

    child = spawn(["--resume", "k.json"], tmp_path)
    child.expect(f"Resuming after {len(killed['actions'])} recorded actions")
    child.expect("had drawn")
    child.expect(PROMPT)
    assert _board(child.before) == board  # same rows, drawn card, collections and scores
    child.sendline(child.match.group(1).split()[0])
    _, status, _ = play_session(child)
    assert status == 0
    final = json.loads(save.read_text())
    kept = len(killed["actions"]) - 1
    assert final["actions"][:kept] == killed["actions"][:kept]
    entry = final["actions"][kept]  # the same draw, now with its row
    assert entry["seat"] == 0 and entry["action"] == "draw" and "row" in entry
    assert entry["card"] == pending["card"]
    assert replay(final).finished


@pytest.mark.parametrize("how", ["on PATH", "not on PATH", "python -m"])
def test_resume_command_runs_as_printed(tmp_path: Path, how: str) -> None:
    """The resume line is a command that works as printed, from another folder: plain
    ``coloretto`` when that is on PATH, else the absolute path of the program (as after
    ``make play``, which runs ``.venv/bin/coloretto`` from the repository), or the Python
    that ran ``-m coloretto.cli.main``; the path of the record is quoted (here the data
    folder has a space in its name)."""
    on_path = how == "on PATH"
    env = _env(tmp_path, on_path=on_path)
    env["COLORETTO_DATA_DIR"] = str(tmp_path / "my games")
    assert (shutil.which("coloretto", path=env["PATH"]) is not None) == on_path
    repo = BIN.parent.parent
    command, program = {
        "on PATH": (["coloretto"], "coloretto"),
        "not on PATH": ([os.path.relpath(COLORETTO, repo)], shlex.quote(str(COLORETTO))),
        "python -m": (
            [sys.executable, "-m", "coloretto.cli.main"],
            f"{shlex.quote(sys.executable)} -m coloretto.cli.main",
        ),
    }[how]
    child = pexpect.spawn(
        command[0],
        [*command[1:], "play", "--opponents", "random", "--seed", "8"],
        cwd=str(repo),
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 400),
    )
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline(child.match.group(1).split()[0])
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"Resume it with: ([^\r\n]+)\r\n")
    line = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert line.startswith(f"{program} play --resume '{tmp_path / 'my games'}/games/coloretto-")
    (saved,) = (tmp_path / "my games" / "games").glob("coloretto-*.json")
    n = len(json.loads(saved.read_text())["actions"])

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shell = pexpect.spawn(
        "/bin/sh", ["-c", line], cwd=str(elsewhere), env=env, encoding="utf-8", timeout=30
    )
    shell.expect(f"Resuming after {n} recorded actions")
    shell.expect(PROMPT)
    shell.sendline("q")
    shell.expect("Game saved to")
    shell.expect(pexpect.EOF)
    shell.close()
    assert shell.exitstatus == 0
    assert list(elsewhere.iterdir()) == []


def test_records_go_to_the_user_data_folder(tmp_path: Path) -> None:
    """Without --save the record goes to the user's data folder (platformdirs: on Linux
    $XDG_DATA_HOME/coloretto/games, else ~/.local/share/coloretto/games), never to the
    current folder; COLORETTO_DATA_DIR replaces that folder."""
    work = tmp_path / "work"
    work.mkdir()
    env = _env(tmp_path)
    del env["COLORETTO_DATA_DIR"]
    env["HOME"] = str(tmp_path / "home")
    env.pop("XDG_DATA_HOME", None)
    for expected, extra in [
        (tmp_path / "home" / ".local" / "share" / "coloretto" / "games", {}),
        (tmp_path / "xdg" / "coloretto" / "games", {"XDG_DATA_HOME": str(tmp_path / "xdg")}),
        (tmp_path / "mine" / "games", {"COLORETTO_DATA_DIR": str(tmp_path / "mine")}),
    ]:
        proc = subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
            [str(COLORETTO), "play", "--opponents", "random", "--seed", "1"],
            input="",
            cwd=str(work),
            env={**env, **extra},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 1, proc.stderr  # the input ended: saved
        (saved,) = expected.glob("coloretto-*.json")
        assert f"The record is saved to {saved} after every action." in proc.stdout
        assert replay(json.loads(saved.read_text())).valid
        assert list(work.iterdir()) == []


def test_every_key_of_the_screen(tmp_path: Path) -> None:
    """?, help, an empty line, a wrong key, h, a colour's letter and its name, d, a row
    number to place and to take, then the end of input (Ctrl-D), all on one game."""
    child = spawn(
        ["--players", "3", "--starting-cards", "choose", "--first-player", "1", "--hints",
         "--hint-budget", "30", "--opponents", "random", "--seed", "5", "--save", "keys.json"],
        tmp_path,
    )
    child.expect(PROMPT)
    keys = child.match.group(1).split()
    assert "choose your starting colour" in plain(child.before)
    for typed, seen in [("?", "Keys:"), ("help", "Keys:"), ("", "Type one of: "),
                        ("zz", "'zz' is not a choice here"), ("h", "Hints (the advisor's estimate)")]:
        child.sendline(typed)
        child.expect_exact(seen)
        child.expect(PROMPT)
        assert child.match.group(1).split() == keys
    assert {r[1] for r in hint_rows(child.before)} == {
        f"choose {name} as starting card" for name in _colour_names(keys)
    }
    name = _colour_names(keys)[-1]
    child.sendline(name.upper())  # a colour's name, in any case
    child.expect_exact(" as starting card.")
    assert plain(child.before).endswith(f"You chose [{keys[-1].upper()}] {name}")
    seen = {"letter": False, "place": False, "take": False}
    for _ in range(300):
        child.expect(PROMPT)
        keys = child.match.group(1).split()
        screen = plain(child.before)
        if "choose your starting colour" in screen:
            seen["letter"] = True
            child.sendline(keys[0])
            child.expect_exact(" as starting card.")
            assert f"You chose [{keys[0].upper()}]" in plain(child.before)
        elif "Choose the row for" in screen:
            seen["place"] = True
            child.sendline(keys[-1])
            child.expect(r" in row (\d)\.")
            assert "You put [" in plain(child.before) and child.match.group(1) == keys[-1]
        elif len(keys) > 1 and not seen["take"] and seen["place"]:
            seen["take"] = True
            child.sendline(keys[1])
            child.expect(r"took row (\d): ")
            assert plain(child.before).endswith("You ") and child.match.group(1) == keys[1]
        else:
            child.sendline("d" if "d" in keys else keys[0])
        if seen["place"] and seen["take"]:
            break
    assert seen["place"] and seen["take"]
    child.expect(PROMPT)
    child.sendeof()
    child.expect("Input ended before the game did.")
    child.expect("Resume it with: coloretto play --resume ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    rec = json.loads((tmp_path / "keys.json").read_text())
    assert replay(rec).valid
    assert any(a["action"] == "choose_start" and a["seat"] == 0 for a in rec["actions"])


def _colour_names(letters: list[str]) -> list[str]:
    from coloretto.engine.cards import COLORS, LETTERS

    return [COLORS[LETTERS.index(k.upper())] for k in letters]


ENGINE = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'random_engine.py'))}"
"""An external engine (``--opponents cmd:COMMAND``): the example shipped with the project."""

OPTION_GAMES = [
    pytest.param(
        ["--preset", "bga", "--players", "3", "--table", "violet", "--extra-card",
         "single_three", "--opponents", "greedy", "--seed", "31"],
        {"table": "violet", "extra_card": "single_three", "players": 3},
        [("Score table (violet, extra card single_three), points per colour by number of "
         "cards:  1:3  2:4  3:8  4:7  5:6  6+:5")],
        id="bga-violet-single-three",
    ),
    pytest.param(
        ["--edition", "modern", "--next-round-starter", "left_of_last_taker",
         "--joker-any-color", "false", "--extra-card", "triple_minus", "--opponents",
         f"{ENGINE},random,greedy", "--seed", "32"],
        {"edition": "modern", "next_round_starter": "left_of_last_taker",
         "joker_any_color": False, "extra_card": "triple_minus"},
        [("Score table (brown, extra card triple_minus), points per colour by number of cards:"
         "  1:1  2:3  3:6  4:10  5:15  6+:21"), "negative colours count 3 times", "[*] golden joker"],
        id="modern-left-of-last-taker-no-any-colour-triple-minus-external-engine",
    ),
    pytest.param(
        ["--players", "2", "--removed-colors", "Gray,PINK", "--first-player", "2", "--seat",
         "2", "--name", "Ann", "--extra-card", "first_out_draws", "--opponents", "greedy",
         "--seed", "33"],
        {"players": 2, "extra_card": "first_out_draws"},
        ["Coloretto, 2 players in seat order: greedy-1, Ann (you)", "Ann (you)"],
        id="two-players-removed-colours-first-player-seat-name-first-out-draws",
    ),
    pytest.param(
        ["--players", "3", "--row-capacities", "3,3,2,4", "--extra-card", "triple_three",
         "--table", "brown", "--starting-cards", "choose", "--opponents", "easy", "--seed", "34"],
        {"row_capacities": [3, 3, 2, 4], "extra_card": "triple_three",
         "starting_cards": "choose"},
        ["row 4  ", "(4)", "  1:1  2:3  3:2  4:10  5:15  6+:21"],
        id="row-capacities-triple-three-choose",
    ),
    pytest.param(
        ["--preset", "abacus2003", "--players", "3", "--opponents", "random", "--seed", "35"],
        {"match_games": 4},
        ["Game 4 of 4: final scores", "game 1", "game 4"],
        id="abacus2003-match-of-four",
    ),
    pytest.param(
        ["--preset", "modern", "--match-games", "2", "--players", "5", "--opponents", "medium",
         "--seed", "36"],
        {"match_games": 2, "edition": "modern", "players": 5},
        ["Game 2 of 2: final scores"],
        id="modern-match-five-players",
    ),
]


@pytest.mark.parametrize(("args", "rules", "shown"), OPTION_GAMES)
def test_options_end_to_end(
    tmp_path: Path, args: list[str], rules: dict[str, object], shown: list[str]
) -> None:
    """Each rule and deal option played to the end through the real command, real players
    and engine; the saved record and the screen show the option took effect."""
    child = spawn([*args, "--save", "o.json"], tmp_path)
    text, status, pauses = play_session(child, answer=-1)
    assert status == 0, text[-2000:]
    rec = json.loads((tmp_path / "o.json").read_text())
    assert replay(rec).finished
    for key, value in rules.items():
        assert rec["rules"][key] == value, key
    for piece in shown:
        assert piece in text, piece
    assert pauses == rec["rules"]["match_games"] - 1
    setups = rec["setup"] if isinstance(rec["setup"], list) else [rec["setup"]]
    if "--removed-colors" in args:
        assert setups[0]["removed_colors"] == ["gray", "pink"]
    if "--first-player" in args:
        assert setups[0]["first_player"] == 1
    if "--seat" in args:
        assert rec["human_seats"] == [1] and rec["seats"][1] == "Ann"
    if "bga" in args:
        assert setups[0]["removed_colors"] == ["gray"]
    if "--opponents" in args:
        given = args[args.index("--opponents") + 1].split(",")
        assert [a for a in rec["agents"] if a is not None] == (
            given if len(given) > 1 else given * (len(rec["seats"]) - 1)
        )


def test_default_game_and_readme_examples(tmp_path: Path) -> None:
    """``coloretto play`` with no option (three medium players), and the README's example
    with hard and easy opponents: a few moves each, then q."""
    for args in ([], ["--players", "3", "--preset", "modern", "--table", "violet",
                      "--opponents", "hard,easy", "--seed", "7"]):
        child = spawn(args, tmp_path)
        child.expect("Seed: ")
        for _ in range(3):
            child.expect(PROMPT)
            child.sendline(child.match.group(1).split()[0])
        child.expect(PROMPT)
        child.sendline("q")
        child.expect("Resume it with: coloretto play --resume ")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    # Two games started in the same second are named coloretto-STAMP.json and
    # coloretto-STAMP-2.json, which sort the other way round: order them by writing time.
    first, second = sorted((tmp_path / "data" / "games").glob("coloretto-*.json"),
                           key=lambda path: path.stat().st_mtime_ns)
    assert json.loads(first.read_text())["agents"] == [None, "medium", "medium", "medium"]
    readme = json.loads(second.read_text())
    assert readme["agents"] == [None, "hard", "easy"] and readme["rules"]["table"] == "violet"


def documented_options() -> set[str]:
    """Options of the table in docs/terminal.md's "Options" section and of README.md's
    ``coloretto play`` lines."""
    terminal = (ROOT / "docs" / "terminal.md").read_text()
    section = terminal.split("## Options", 1)[1].split("\n## ", 1)[0]
    found = set(re.findall(r"`(--[a-z-]+)", section))
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.startswith("coloretto play"):
            found |= set(re.findall(r"(--[a-z-]+)", line.split("#")[0]))
    return found


def test_every_documented_option_is_in_help_and_played() -> None:
    """The options of --help, docs/terminal.md and README.md are the same, and each one is
    given to the real command somewhere in this file."""
    proc = subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [str(COLORETTO), "play", "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    in_help = set(re.findall(r"(--[a-z-]+)", proc.stdout)) - {"--help"}
    assert documented_options() == in_help
    source = Path(__file__).read_text()
    for option in in_help:
        assert f'"{option}"' in source, option


def test_the_documented_opponents_are_every_agent_play_takes() -> None:
    """docs/terminal.md's ``--opponents`` row names every agent ``play`` accepts and the
    oracles it refuses."""
    from coloretto.agents.registry import FAIR_AGENT_NAMES, ORACLES

    row = next(
        line for line in (ROOT / "docs" / "terminal.md").read_text().splitlines()
        if line.startswith("| `--opponents")
    )
    named = set(re.findall(r"`([A-Za-z0-9:-]+)`", row))
    assert set(FAIR_AGENT_NAMES) | set(ORACLES) | {"policy:FILE", "cmd:COMMAND"} <= named


def test_an_engine_that_stopped_is_told_once_then_once_as_keeps_failing(tmp_path: Path) -> None:
    """A real external engine that exits at once fails at every decision of its seat: the
    terminal tells the failure (with the program's exit status), then once that it keeps
    failing, and nothing more of it; the game is played to the end with the first legal
    actions."""
    quitter = f"cmd:{shlex.quote(sys.executable)} -c 'import sys; sys.exit(3)'"
    answers = "\n".join(itertools.islice(itertools.cycle(["1", "2", "3", "d"]), 3000))
    proc = _play_piped(
        tmp_path, "--players", "2", "--opponents", quitter, "--seed", "4", "--save", "e.json",
        answers=answers,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # The first failure is told as the answer to "hello" that never came or, when the
    # program had already exited, as "not running"; the later ones are all "not running".
    assert 1 <= out.count("The computer player python-2 failed (") <= 2, out[-3000:]
    assert "the program is not running (exit status 3)" in out
    assert out.count("The computer player python-2 keeps failing the same way") == 1
    assert "exit status None" not in out
    assert replay(json.loads((tmp_path / "e.json").read_text())).finished
