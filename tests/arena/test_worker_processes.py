"""Worker processes end with the process that started them, even when it is killed with
SIGKILL (``arena.parallel.exit_with_parent``): the server's pool of computer players, the
tournament's pool and the simulation's pool (Linux: the test reads ``/proc``)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.timeout(180),
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")]

SERVER_POOL = """
import asyncio, os
from coloretto.server.pool import ProcessRunner
from coloretto.server.runner import JobOwner

async def main():
    runner = ProcessRunner(2)
    await runner.run(JobOwner("t"), os.getpid)
    print("ready", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""

TOURNAMENT_POOL = """
import time
from coloretto.arena.parallel import _run_pool
print("ready", flush=True)
_run_pool(time.sleep, [600, 600], 2, None)
"""

SIMULATION_POOL = """
import sys
from coloretto.cli.main import main
print("ready", flush=True)
sys.exit(main(["simulate", "--players", "3", "--agents", "mcts,mcts,mcts", "--budget", "5s", "--games", "400", "--workers", "2"]))
"""

def alive(pid: int) -> bool:
    """``pid`` exists and is not a zombie (a zombie has ended; only its exit status is left)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def children(pid: int) -> list[int]:
    """The living processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


@pytest.mark.parametrize("script", [SERVER_POOL, TOURNAMENT_POOL, SIMULATION_POOL],
                         ids=["server", "tournament", "simulation"])
def test_workers_end_when_their_parent_is_killed(script: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 90
        workers: list[int] = []
        while len(workers) < 2:  # the pool's workers (the resource tracker may be a third child)
            assert time.monotonic() < deadline, "the pool's workers did not start"
            time.sleep(0.2)
            workers = children(proc.pid)
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 30
    while any(alive(w) for w in workers):
        assert time.monotonic() < deadline, f"workers still alive 30 s after their parent was killed: {workers}"
        time.sleep(0.2)
