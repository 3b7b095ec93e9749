"""The ``coloretto`` entry point: ``--version`` and each subcommand's own usage on errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from coloretto.cli.main import SUBCOMMANDS, DashValue, SubcommandParser, main

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


NEGATIVE = "budget '-1s': the time must be a positive, finite number of seconds"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "--agents", "random,random", "--budget", "-1s"], f"--budget: {NEGATIVE}"),
        (["tournament", "--agents", "random,random", "--bud", "-1s"], f"--budget: {NEGATIVE}"),
        (["simulate", "--games", "2", "--budget", "-1s"], f"--budget: {NEGATIVE}"),
        (["analyze", RECORD, "--budget", "-1s"], f"--budget: {NEGATIVE}"),
        (["play", "--hints", "--hint-budget", "-1s"], f"--hint-budget: {NEGATIVE}"),
        (
            ["connect", "http://127.0.0.1:1/table/t1", "--engine", "cmd:true", "--time", "-1s"],
            f"--time: {NEGATIVE}",
        ),
    ],
)
def test_a_budget_starting_with_a_dash_reaches_the_budget_check(
    argv: list[str], message: str, tmp_path: Path
) -> None:
    """argparse would read ``-1s`` as an option and stop at "expected one argument"."""
    done = subprocess.run(
        [sys.executable, "-m", "coloretto", *argv],
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr == f"coloretto {argv[0]}: error: {message}\n"


def test_a_budget_still_needs_a_value(capsys: pytest.CaptureFixture[str]) -> None:
    """An option after ``--budget`` is not taken for its value."""
    assert _exit_code(["tournament", "--agents", "random,random", "--budget", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.endswith("coloretto tournament: error: argument --budget: expected one argument\n")


def test_dash_values_stop_at_the_end_of_options() -> None:
    parser = SubcommandParser(prog="x")
    parser.add_argument("--budget", action=DashValue)
    parser.add_argument("words", nargs="*")
    assert parser.parse_args(["--budget", "-1s", "a"]).budget == "-1s"
    assert parser.parse_args(["--budget", "-5"]).budget == "-5"
    parsed = parser.parse_args(["--", "--budget", "-1s"])
    assert parsed.words == ["--budget", "-1s"] and parsed.budget is None
    with pytest.raises(ValueError, match="exactly one value"):
        parser.add_argument("--time", action=DashValue, nargs=2)
