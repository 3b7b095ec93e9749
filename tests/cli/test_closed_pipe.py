"""A reader of standard output that stops early (``coloretto score ... | head -2``) is not an
error: the commands that print with ``rich`` end with status 0 and say nothing on standard
error (``cli.console.StdoutConsole``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "green=6", "yellow=4", "red=3", "blue=2", "joker=1", "plus2=1"],
        ["simulate", "--players", "3", "--agents", "greedy,random,random", "--games", "20", "--seed", "1"],
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
