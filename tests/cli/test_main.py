"""The ``coloretto`` entry point: ``--version`` and each subcommand's own usage on errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from coloretto.cli.main import SUBCOMMANDS, main

RECORD = str(Path(__file__).parents[1] / "data" / "records" / "legal_2p_round.json")

# The smallest valid command line of each subcommand (its required arguments), so that an
# unknown option is the only thing wrong with it. A new subcommand must be added here.
VALID = {
    "play": ["play"],
    "score": ["score", "green=1"],
    "show": ["show", RECORD],
    "replay": ["replay", RECORD],
    "simulate": ["simulate"],
    "bench playout": ["bench", "playout"],
    "bench score": ["bench", "score"],
    "perft": ["perft", RECORD, "--depth", "1"],
    "tournament": ["tournament", "--agents", "random,random"],
    "analyze": ["analyze", RECORD],
    "serve": ["serve"],
    "connect": ["connect", "http://127.0.0.1:1", "--engine", "python3 bot.py"],
    "warmup": ["warmup"],
    "bench mcts": ["bench", "mcts", "--no-limit"],
    "train value": ["train", "value", "--games", "16", "--out", "model.npz"],
}


def _exit_code(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2


def test_every_subcommand_has_a_valid_command_line_here() -> None:
    assert set(SUBCOMMANDS) <= {key.split()[0] for key in VALID}


@pytest.mark.parametrize("key", sorted(VALID))
def test_unknown_option_shows_the_subcommand_usage(
    key: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = VALID[key]
    assert _exit_code([*argv, "--no-such-option"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"usage: coloretto {key} "), captured.err
    assert f"coloretto {key}: error: unrecognized arguments: --no-such-option" in captured.err


def test_unknown_option_of_the_top_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code(["--no-such-option", "score", "green=1"]) == 2
    assert capsys.readouterr().err.startswith("usage: coloretto [-h] [-V] COMMAND")


@pytest.mark.parametrize("argv", [["--version"], ["-V"]])
def test_version(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code(argv) == 0
    assert capsys.readouterr().out == f"coloretto {version('coloretto')}\n"


def test_version_from_the_console_script() -> None:
    exe = shutil.which("coloretto") or str(Path(sys.executable).with_name("coloretto"))
    if not Path(exe).exists():
        pytest.skip("the coloretto console script is not installed")
    done = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"coloretto {version('coloretto')}"


def test_python_dash_m_coloretto_is_the_command() -> None:
    """``python -m coloretto`` runs the same command line (output and exit status)."""
    done = subprocess.run(
        [sys.executable, "-m", "coloretto", "--version"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"coloretto {version('coloretto')}"
    bad = subprocess.run(
        [sys.executable, "-m", "coloretto", "score", "--foo"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert bad.returncode == 2 and "coloretto score" in bad.stderr


def test_the_command_line_starts_without_numpy() -> None:
    """Building every subcommand's parser (what `coloretto --help` and `coloretto play` do
    first) loads neither NumPy nor Numba: they cost start-up time only where used."""
    code = (
        "import sys\n"
        "from coloretto.cli.main import build_parser\n"
        "build_parser()\n"
        "print(sorted(m for m in ('numpy', 'numba', 'torch') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
