"""``coloretto score`` and ``coloretto play`` in a 40-column terminal (a phone's SSH
client, a split pane): every name, word and number whole, no line longer than the terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from coloretto.cli.main import main

from .test_play import PROMPT, plain, spawn

WIDTH = 40
CARDS = ["green=6", "yellow=4", "blue=3", "gray=2", "joker=1", "plus2=1"]
ROWS = {  # label: (cards typed, points) of the optimal breakdown (the joker goes to yellow)
    "green": (6, "+21"),
    "yellow": (4, "+15"),
    "blue": (3, "+6"),
    "gray": (2, "-3"),
    '"+2" cards': (1, "+2"),
}


def check_score_screen(out: str) -> None:
    """The 40-column breakdown of ``CARDS``: each label on a line with its cards and points,
    whole; the joker given to yellow; the total."""
    lines = out.splitlines()
    assert all(len(line) <= WIDTH for line in lines), lines
    assert not any("…" in line for line in lines), lines
    for label, (cards, points) in ROWS.items():
        line = next(x for x in lines if f" {label} " in x)
        assert re.search(rf"\s{cards}\b", line) and line.rstrip().endswith(f" {points}"), line
    assert "1 joker" in next(x for x in lines if " yellow " in x)
    assert next(x for x in lines if " total " in x).split()[-1] == "41"
    assert "best of 7 placements" in " ".join(out.split())


def test_score_at_40_columns(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    assert main(["score", *CARDS]) == 0
    check_score_screen(capsys.readouterr().out)


def test_score_command_at_40_columns() -> None:
    """The program itself, as a person runs it, with ``COLUMNS=40``."""
    env = {**os.environ, "COLUMNS": str(WIDTH), "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "coloretto", "score", *CARDS],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )
    assert done.returncode == 0, done.stderr
    check_score_screen(done.stdout)


def test_play_at_40_columns_shows_the_opponents_names(tmp_path: Path) -> None:
    """``coloretto play`` in a 40-column terminal: the board names the computer players in
    full, and the hints (``h``) show each action with its numbers whole."""
    child = spawn(
        ["--players", "3", "--opponents", "medium,expert", "--seed", "3", "--hints",
         "--hint-budget", "40", "--save", "n.json"],
        tmp_path,
        width=WIDTH,
    )
    child.expect(PROMPT)
    keys = child.match.group(1).split()
    screen = plain(child.before).replace("\r\n", "\n")
    board = screen[screen.rindex("Coloretto ("):]  # to the prompt (the choices included)
    players = board[board.index("Rows"):]
    assert "medium-2" in players and "expert-3" in players, board
    lines = board.split("\n")
    assert all(len(line) <= WIDTH for line in lines), lines
    assert not any("…" in line for line in lines), lines
    child.sendline("h")
    child.expect(PROMPT)
    hints = plain(child.before).replace("\r\n", "\n")
    assert "…" not in hints, hints
    for key in keys:
        assert re.search(rf"^{re.escape(key)}\s+(draw a card|take row {key}|place it in row {key}) "
                         r"\(\d+ samples?\)", hints, re.MULTILINE), hints
    assert len(re.findall(r"win chance \d+% \[\d+, \d+\]", hints)) == len(keys), hints
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
