"""A reader of standard output that stops early (``coloretto score ... | head -2``) is not an
error: the commands that print with ``rich`` end with status 0 and say nothing on standard
error (``cli.console.StdoutConsole``). A device that refuses the output (``> /dev/full``)
is one line on standard error and status 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "green=6", "yellow=4", "red=3", "blue=2", "joker=1", "plus2=1"],
        ["simulate", "--players", "3", "--agents", "greedy,random,random", "--games", "20", "--seed", "1"],
        ["tournament", "--agents", "greedy,random", "--games", "2", "--quiet"],
    ],
)
def test_a_reader_that_is_gone_before_the_output(argv: list[str]) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "coloretto", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first line (`| head -c 0`)
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=100) == 0, err
    assert err == b""


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "green=6", "yellow=4", "joker=1"],
        ["score", "green=6", "yellow=4", "joker=1", "--json"],
        ["simulate", "--players", "3", "--agents", "greedy,random,random", "--games", "20", "--seed", "1"],
    ],
)
def test_a_full_device_under_the_output_is_one_line(argv: list[str]) -> None:
    """``coloretto score ... > /dev/full``: one line saying the output could not be written,
    status 1, no traceback."""
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "coloretto", *argv], stdout=full,
                              stderr=subprocess.PIPE, timeout=100, check=False)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err == f"coloretto {argv[0]}: error: cannot write: No space left on device\n"


def test_a_terminal_game_whose_screen_cannot_be_written_ends_before_it_starts(tmp_path: Path) -> None:
    """``play > /dev/full`` is one line and status 1, ``play | head -c 0`` status 0; neither
    plays, so neither writes a record (docs/terminal.md, exit status)."""
    argv = [sys.executable, "-m", "coloretto", "play", "--save", str(tmp_path / "g.json")]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(argv, stdout=full, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=100, check=False, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.decode() == "coloretto play: error: cannot write: No space left on device\n"
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=tmp_path)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=100) == 0, err
    assert not (tmp_path / "g.json").exists()
