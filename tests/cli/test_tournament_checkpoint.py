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
