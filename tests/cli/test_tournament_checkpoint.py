"""``coloretto tournament --checkpoint``: a run killed with SIGKILL goes on when the same
command is given again, and reports what an uninterrupted run reports (timings aside)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.timeout(300)

COLORETTO = str(Path(sys.executable).parent / "coloretto")
ARGS = ["tournament", "--agents", "heuristic,greedy,random", "--games", "45", "--seed", "6",
        "--workers", "1"]


def without_timings(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    data.pop("run")
    for game in data["games"]:
        game.pop("seconds", None)
    for entry in data["entries"] + data["agents"]:
        entry.pop("seconds_per_decision")
    return data


def test_a_killed_run_goes_on_with_the_same_command(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    command = ["tournament", *ARGS[1:], "--checkpoint", str(checkpoint), "--json", str(tmp_path / "a.json")]
    command.insert(0, COLORETTO)
    proc = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # kill it once a few games are in the file
        if checkpoint.exists() and len(checkpoint.read_text().splitlines()) >= 1 + 3:
            break
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.stderr is not None
    proc.stderr.close()
    kept = len(checkpoint.read_text().split("\n")) - 2  # header, then complete game lines
    assert 3 <= kept < 45 and not (tmp_path / "a.json").exists()

    again = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    assert f"games are in {checkpoint}; playing the other" in again.stderr
    straight = subprocess.run(
        [COLORETTO, *ARGS, "--json", str(tmp_path / "b.json")],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert straight.returncode == 0, straight.stderr
    assert without_timings(tmp_path / "a.json") == without_timings(tmp_path / "b.json")


def test_a_checkpoint_of_other_options_is_refused_with_exit_2(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    first = subprocess.run(
        [COLORETTO, *ARGS[:4], "6", "--seed", "6", "--quiet", "--checkpoint", str(checkpoint)],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert first.returncode == 0, first.stderr
    before = checkpoint.read_bytes()
    other = subprocess.run(
        [COLORETTO, *ARGS[:4], "6", "--seed", "7", "--checkpoint", str(checkpoint)],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert other.returncode == 2
    assert "holds games of another tournament: it was made with --seed 6, this run has 7" in other.stderr
    assert checkpoint.read_bytes() == before


def test_ctrl_c_says_how_many_games_are_kept_and_the_same_command_goes_on(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    command = ["tournament", *ARGS[1:], "--checkpoint", str(checkpoint)]
    command.insert(0, COLORETTO)
    proc = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if checkpoint.exists() and len(checkpoint.read_text().splitlines()) >= 1 + 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    kept = len(checkpoint.read_text().splitlines()) - 1
    assert f"interrupted: {kept} finished games are in {checkpoint}; the same command goes on" in err
    again = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    assert f"note: {kept} of the 45 games are in {checkpoint}; playing the other {45 - kept}" in again.stderr


@pytest.mark.parametrize("other", ["--json", "--csv", "--records", "--plot"])
def test_a_report_cannot_be_written_over_the_checkpoint(tmp_path: Path, other: str) -> None:
    proc = subprocess.run(
        [COLORETTO, "tournament", "--agents", "greedy,random", "--games", "2",
         "--checkpoint", "same.out", other, "same.out"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 2
    assert "name the same file 'same.out': give each its own" in proc.stderr
    assert not (tmp_path / "same.out").exists()


SMALL = [COLORETTO, "tournament", "--agents", "greedy,random", "--games", "4", "--workers", "1", "--quiet"]


def small_checkpoint(tmp_path: Path) -> Path:
    """The checkpoint of a finished 4-game run of ``SMALL``."""
    checkpoint = tmp_path / "run.ckpt"
    proc = subprocess.run([*SMALL, "--checkpoint", str(checkpoint)], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return checkpoint


def refused(tmp_path: Path, checkpoint: Path) -> str:
    """Run ``SMALL`` on ``checkpoint``; it must exit 2 with one line and leave the file as it
    was. The line, without the command's name."""
    before = checkpoint.read_bytes()
    proc = subprocess.run([*SMALL, "--checkpoint", str(checkpoint)], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert checkpoint.read_bytes() == before
    return proc.stderr.strip().removeprefix("coloretto tournament: error: ")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("scores", [1], "'scores' must hold 2 whole numbers, one per seat, not [1]"),
        ("scores", "abc", "'scores' must hold 2 whole numbers, one per seat, not \"abc\""),
        ("ranks", "x", "'ranks' must hold 2 ranks from 1 to 2, one per seat, not \"x\""),
        ("index", "0", "'index' must be a whole number of 0 or more, not \"0\""),
        (
            "decision_seconds",
            "x",
            "'decision_seconds' must hold 2 lists of seconds (numbers of 0 or more), one per seat, not \"x\"",
        ),
        ("failures", [{"x": 1}], "engine failure 1 in 'failures' must name its 'seat' (0 to 1), not null"),
        (
            "win_shares",
            [float("nan"), 0],
            "'win_shares' must hold 2 numbers from 0 to 1, one per seat, not [NaN, 0]",
        ),
        ("garbage", 1, "not a game: unknown field 'garbage'"),
    ],
)
def test_a_malformed_game_line_is_refused_in_plain_words(
    tmp_path: Path, field: str, value: Any, message: str
) -> None:
    checkpoint = small_checkpoint(tmp_path)
    head, first, *rest = checkpoint.read_text().splitlines()
    broken = json.loads(first) | {field: value}
    checkpoint.write_text("\n".join([head, *rest, json.dumps(broken)]) + "\n")
    assert refused(tmp_path, checkpoint) == f"checkpoint {str(checkpoint)!r}, line 5: {message}"


def test_a_torn_last_line_is_still_recovered(tmp_path: Path) -> None:
    checkpoint = small_checkpoint(tmp_path)
    lines = checkpoint.read_text().splitlines()
    checkpoint.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:30])
    proc = subprocess.run([*SMALL, "--checkpoint", str(checkpoint)], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    after = checkpoint.read_text().splitlines()
    assert after[:-1] == lines[:-1]  # the torn game was played again
    assert json.loads(after[-1])["index"] == json.loads(lines[-1])["index"]


@pytest.mark.parametrize(
    "tail", [b"\xff\xfe\x00binary\n", b"\x7fELF\x02\x01\x01\x00\xd0\xff"], ids=["line", "torn"]
)
def test_a_checkpoint_that_is_not_utf8_after_its_header_is_refused(tmp_path: Path, tail: bytes) -> None:
    checkpoint = small_checkpoint(tmp_path)
    checkpoint.write_bytes(checkpoint.read_bytes().split(b"\n")[0] + b"\n" + tail)
    assert refused(tmp_path, checkpoint) == (
        f"checkpoint {str(checkpoint)!r} is not a tournament checkpoint (not UTF-8 text)"
    )


def test_a_binary_file_is_refused(tmp_path: Path) -> None:
    checkpoint = tmp_path / "a.out"
    checkpoint.write_bytes(b"\x7fELF\x02\x01\x01\x00\xd0\xff\n\x00\x00\xff\n")
    assert refused(tmp_path, checkpoint) == (
        f"checkpoint {str(checkpoint)!r} is not a tournament checkpoint (not UTF-8 text)"
    )


def test_a_checkpoint_of_another_budget_is_named_in_words(tmp_path: Path) -> None:
    checkpoint = small_checkpoint(tmp_path)
    proc = subprocess.run([*SMALL, "--checkpoint", str(checkpoint), "--budget", "1s"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert "it was made without --budget, this run has --budget 1s (give" in proc.stderr


def test_an_empty_checkpoint_name_is_refused(tmp_path: Path) -> None:
    proc = subprocess.run([*SMALL, "--checkpoint", ""], cwd=tmp_path, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr == "coloretto tournament: error: --checkpoint needs a file name\n"


CTRL_C_IN_FSYNC = """
import os, signal, sys
from coloretto.cli.main import main

real_fsync, calls = os.fsync, 0

def fsync(fd):
    global calls
    real_fsync(fd)
    calls += 1
    if calls == 4:  # the header's, then the third game's: Ctrl-C as that game is being saved
        os.kill(os.getpid(), signal.SIGINT)

os.fsync = fsync
sys.exit(main(sys.argv[1:]))
"""


def test_the_interrupt_message_counts_the_games_the_file_holds(tmp_path: Path) -> None:
    """Ctrl-C while a finished game is being appended: the game is in the file, and the
    message counts it."""
    checkpoint = tmp_path / "run.ckpt"
    proc = subprocess.run(
        [sys.executable, "-c", CTRL_C_IN_FSYNC, *ARGS, "--checkpoint", str(checkpoint)],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 130, proc.stderr
    held = len(checkpoint.read_text().splitlines()) - 1
    assert held == 3
    assert f"interrupted: 3 finished games are in {checkpoint}; the same command" in proc.stderr


def test_reports_that_cannot_be_written_leave_the_games_in_the_checkpoint(tmp_path: Path) -> None:
    """A report that fails at the end (a full disk: /dev/full) is one line saying the games
    are in the checkpoint; the same command with a writable report plays nothing again."""
    checkpoint = tmp_path / "run.ckpt"
    proc = subprocess.run([*SMALL, "--checkpoint", str(checkpoint), "--json", "/dev/full",
                           "--overwrite"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert proc.stderr == (
        "coloretto tournament: error: cannot write --json '/dev/full': No space left on device; "
        f"the 4 games are kept in {checkpoint}: run the same command again with --overwrite, "
        "once the file can be written, to write the reports without playing them again\n"
    )
    assert len(checkpoint.read_text().splitlines()) == 1 + 4
    again = subprocess.run(
        [*SMALL[:-1], "--checkpoint", str(checkpoint), "--json", str(tmp_path / "r.json")],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert again.returncode == 0, again.stderr
    assert "nothing left to play" in again.stderr
    assert len(json.loads((tmp_path / "r.json").read_text())["games"]) == 4
