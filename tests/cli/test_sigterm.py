"""SIGTERM (``kill PID``, a service manager stopping a job) stops a command the way Ctrl-C
does (``coloretto.cli.stopping``): a tournament keeps its finished games and stops its worker
processes without leaking semaphores, a terminal game is saved; the exit status is 143."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pexpect

from coloretto.cli.main import main
from coloretto.cli.stopping import EXIT_TERMINATED, sigterm_as_interrupt
from coloretto.engine.record import replay

from .test_play import COLORETTO, PROMPT, _env, spawn


def _children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (Linux ``/proc``)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    """``pid`` exists and has not ended (a zombie has ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return fields[0] != "Z"


def test_a_tournament_stopped_by_sigterm_keeps_its_games_and_stops_its_workers(tmp_path: Path) -> None:
    ckpt = tmp_path / "t.ckpt"
    argv = [str(COLORETTO), "tournament", "--agents", "mcts@0.05s,greedy", "--games", "12",
            "--workers", "2", "--quiet", "--seed", "3", "--checkpoint", str(ckpt)]
    proc = subprocess.Popen(argv, cwd=tmp_path, env=_env(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    # wait until the pool's workers have finished a game, so that the checkpoint holds one
    deadline = time.monotonic() + 120
    size = None
    while time.monotonic() < deadline and proc.poll() is None:
        if ckpt.exists():
            size = size or ckpt.stat().st_size
            if ckpt.stat().st_size > size:
                break
        time.sleep(0.1)
    workers = _children(proc.pid)
    assert proc.poll() is None and len(workers) >= 2, "the tournament ended before it was stopped"
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)  # reads until the resource tracker has ended too
    assert proc.returncode == EXIT_TERMINATED, err
    assert "interrupted: " in err and "the same command goes on from there" in err
    assert "leaked" not in err and "Traceback" not in err, err
    assert out == ""
    # the workers were told to stop; the kernel may take a moment to end them
    deadline = time.monotonic() + 10
    while [pid for pid in workers if _alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)]
    # the same command goes on from there and plays the rest
    done = subprocess.run([*argv, "--json", str(tmp_path / "t.json")], cwd=tmp_path,  # noqa: PLW1510
                          env=_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(json.loads((tmp_path / "t.json").read_text())["games"]) == 12


def test_a_terminal_game_stopped_by_sigterm_is_saved(tmp_path: Path) -> None:
    child = spawn(["--players", "2", "--opponents", "random", "--seed", "5", "--save", "g.json"], tmp_path)
    child.expect(PROMPT)
    child.kill(signal.SIGTERM)
    child.expect("Game saved to")
    child.expect("Resume it with: coloretto play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == EXIT_TERMINATED
    assert replay(json.loads((tmp_path / "g.json").read_text())).valid


def test_the_previous_handler_comes_back_and_serve_keeps_its_own() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with sigterm_as_interrupt() as stop:
        assert signal.getsignal(signal.SIGTERM) is not before
    assert signal.getsignal(signal.SIGTERM) is before and not stop.received
    with sigterm_as_interrupt(enabled=False):
        assert signal.getsignal(signal.SIGTERM) is before
    # a command run in this process leaves no handler behind
    assert main(["bench", "playout", "--games", "1", "--no-limit", "--json"]) == 0
    assert signal.getsignal(signal.SIGTERM) is before
