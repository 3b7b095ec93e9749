"""``coloretto play --resume`` with records that are not what ``play`` wrote: shared files
that ask to run programs or hold control characters in their seat names, finished games
written by ``simulate``, games with external engines resumed from another folder; and the
exit status of a stop whose record could not be written. Each runs the real command."""

from __future__ import annotations

import itertools
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect

from coloretto.engine.record import replay

from .test_play import PROMPT, _env, _play_piped, run_cli, spawn

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = "\n".join(itertools.islice(itertools.cycle(["1", "2", "3", "d"]), 3000))
"""Keys that play a game to its end (most of them refused on the way)."""


def _saved_game(tmp_path: Path, name: str = "g.json") -> dict:
    """A game of 4 players saved with q at the first prompt: you against 3 greedy."""
    proc = _play_piped(tmp_path, "--opponents", "greedy", "--seed", "3", "--save", name, answers="q\n")
    assert proc.returncode == 0, proc.stderr
    return json.loads((tmp_path / name).read_text())


def test_a_record_never_starts_the_program_it_names(tmp_path: Path) -> None:
    rec = _saved_game(tmp_path)
    pwned = tmp_path / "PWNED"
    rec["agents"] = [None, f"cmd:touch {pwned}", "greedy", "greedy"]
    text = json.dumps(rec)
    (tmp_path / "evil.json").write_text(text)
    proc = _play_piped(tmp_path, "--resume", "evil.json", answers="q\n")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert not pwned.exists()
    assert f"the record asks to run the program 'touch {pwned}' for seat 2" in proc.stderr
    assert f"--opponents 'cmd:touch {pwned},greedy,greedy'" in proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stdout == ""
    assert (tmp_path / "evil.json").read_text() == text
    # named again by the person, the built-in players replace it: nothing runs either
    again = _play_piped(tmp_path, "--resume", "evil.json", "--opponents", "random", answers="q\n")
    assert again.returncode == 0, again.stderr
    assert not pwned.exists()
    assert json.loads((tmp_path / "evil.json").read_text())["agents"] == [None, "random", "random", "random"]


def test_seat_names_with_control_characters_are_refused(tmp_path: Path) -> None:
    rec = _saved_game(tmp_path)
    rec["seats"] = ["\u001b]0;TITLE\u0007\u001b[2JEvil", "B\nFake line: You win!", "greedy-3", "greedy-4"]
    text = json.dumps(rec)
    (tmp_path / "esc.json").write_text(text)
    first = r"the name of seat 1 (seats[0]) cannot hold control or invisible characters (such as a line break, an escape or a zero-width joiner): '\x1b]0;TITLE\x07\x1b[2JEvil'"
    # replay and show report an invalid record with status 1, play --resume a bad file with 2
    for args, status in ((["replay", "esc.json"], 1), (["show", "esc.json"], 1), (["play", "--resume", "esc.json"], 2)):
        proc = run_cli(*args, cwd=tmp_path)
        out = proc.stdout + proc.stderr
        assert proc.returncode == status, (args, out)
        assert first in out, (args, out)
        assert "\x1b" not in out and "\x07" not in out
        assert out.count("\n") == 1, (args, out)
    rec["seats"][0] = "Ann"
    (tmp_path / "esc.json").write_text(json.dumps(rec))
    proc = run_cli("replay", "esc.json", cwd=tmp_path)
    assert proc.returncode == 1
    assert r"the name of seat 2 (seats[1]) cannot hold control or invisible characters (such as a line break, an escape or a zero-width joiner): 'B\nFake line: You win!'" in proc.stdout
    assert "\nFake line" not in proc.stdout
    assert (tmp_path / "esc.json").read_text() == json.dumps(rec)


def test_q_that_cannot_save_exits_3_and_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "t" / "gone"
    folder.mkdir(parents=True)
    child = spawn(["--opponents", "random", "--seed", "4", "--save", "t/gone/x.json"], tmp_path)
    child.expect(PROMPT)
    shutil.rmtree(tmp_path / "t")
    child.sendline("q")
    child.expect(r"The game was NOT saved: could not write the record to t/gone/x\.json: No such file or directory")
    child.expect(pexpect.EOF)
    tail = child.before
    child.close()
    assert child.exitstatus == 3
    assert "Resume it with" not in tail


def test_resuming_a_finished_simulate_record_leaves_it_unchanged(tmp_path: Path) -> None:
    sim = run_cli(
        "simulate", "--players", "3", "--agents", "heuristic,greedy,random", "--games", "1",
        "--seed", "1", "--save-records", "recs", cwd=tmp_path,
    )
    assert sim.returncode == 0, sim.stderr
    path = tmp_path / "recs" / "game-000001.json"
    before = path.read_bytes()
    proc = _play_piped(tmp_path, "--resume", str(path), answers="q\n")
    assert proc.returncode == 0, proc.stderr
    assert "The game is over." in proc.stdout and "Winner" in proc.stdout
    assert "is left as it is" in proc.stdout
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["game-000001.json"]


def test_an_external_engine_with_a_relative_path_resumes_from_another_folder(tmp_path: Path) -> None:
    start, other = tmp_path / "start", tmp_path / "other"
    start.mkdir()
    other.mkdir()
    shutil.copy(ROOT / "examples" / "random_engine.py", start / "random_engine.py")
    engine = f"cmd:{shlex.quote(sys.executable)} random_engine.py"
    save = tmp_path / "e.json"
    first = _play_piped(start, "--players", "2", "--opponents", engine, "--seed", "5", "--save", str(save), answers="q\n")
    assert first.returncode == 0, first.stderr
    rec = json.loads(save.read_text())
    assert rec["agents"] == [None, engine] and rec["agents_folder"] == str(start)
    line = re.search(r"Resume it with: ([^\n]+)", first.stdout)
    assert line is not None and f"--opponents {shlex.quote(engine)}" in line.group(1)
    # the line as printed, pasted in another folder, plays the game to its end with the engine
    proc = subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        ["/bin/sh", "-c", line.group(1)], cwd=str(other), env=_env(tmp_path), input=ANSWERS,
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "failed" not in proc.stdout, proc.stdout[-2000:]
    assert replay(json.loads(save.read_text())).finished
    # the folder the engine ran in is gone: refused, nothing runs, the file is left as it is
    rec["agents_folder"] = str(tmp_path / "gone")
    (tmp_path / "moved.json").write_text(json.dumps(rec))
    gone = _play_piped(other, "--resume", str(tmp_path / "moved.json"), "--opponents", engine, answers="q\n")
    assert gone.returncode == 2, gone.stdout
    assert f"run in the folder {tmp_path / 'gone'} (agents_folder), which no longer exists" in gone.stderr
    assert (tmp_path / "moved.json").read_text() == json.dumps(rec)


def test_name_clash_ignores_case_width_and_spaces_and_one_action_is_singular(tmp_path: Path) -> None:
    for name in (" medium-2", "Medium-2", "MEDIUM-3 ", "ｍｅｄｉｕｍ-2"):
        proc = run_cli("play", "--name", name, cwd=tmp_path)
        assert proc.returncode == 2, (name, proc.stdout)
        assert f"--name {name!r} is a computer player's name at this table" in proc.stderr
    # you start and your first draw is made for you: q leaves a record of one action
    saved = _play_piped(
        tmp_path, "--players", "3", "--first-player", "1", "--opponents", "random", "--seed", "8",
        "--save", "one.json", answers="q\n",
    )
    assert saved.returncode == 0, saved.stderr
    assert len(json.loads((tmp_path / "one.json").read_text())["actions"]) == 1
    resumed = _play_piped(tmp_path, "--resume", "one.json", answers="q\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming after 1 recorded action." in resumed.stdout


def test_resuming_with_other_opponents_says_who_plays_each_seat_now(tmp_path: Path) -> None:
    """The record keeps the names of the players who made its actions (``greedy-2``); when
    ``--opponents`` hands their seats to others, the screen says so, seat by seat."""
    saved = _play_piped(
        tmp_path, "--players", "3", "--first-player", "2", "--opponents", "greedy", "--seed", "4",
        "--save", "g.json", answers="q\n",
    )
    assert saved.returncode == 0, saved.stderr
    assert json.loads((tmp_path / "g.json").read_text())["actions"], "the computers played first"
    same = _play_piped(tmp_path, "--resume", "g.json", answers="q\n")
    assert same.returncode == 0, same.stderr
    assert "from here on" not in same.stdout
    other = _play_piped(tmp_path, "--resume", "g.json", "--opponents", "random", answers="q\n")
    assert other.returncode == 0, other.stderr
    for seat in (2, 3):
        assert f"Seat {seat} (greedy-{seat}) is played by random from here on." in other.stdout
    assert "Seat 1 (" not in other.stdout
