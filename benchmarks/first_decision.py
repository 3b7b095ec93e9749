"""First decision of a computer player and first hint, right after a fresh install.

Builds a fresh virtual environment, ``pip install REPO`` (no extras, not editable), then
measures in new processes, each starting from a position where the seat to move has a real
choice (4 players, classic rules, seed 3, the deal played forward until then):

1. **cold** (the state right after ``pip install``): the first ``hard`` decision
   (``make_agent("hard")``: ``reset`` then ``act``, the 0.4 s search included) and, with the
   cache emptied again, the first hint (``advise`` with the terminal's default 1 s budget);
2. ``coloretto warmup`` (what ``make play`` / ``make serve`` / ``make test`` run after
   installing): its own seconds;
3. **warm**: the same decision and hint again (``--repeat`` times each).

For each: the seconds of the decision or hint itself (from creating the agent to its answer),
the process's whole wall time (interpreter start and imports included), and whether the
"Compiling the fast core once" notice was printed. Prints a table (or ``--json``).

Usage: python benchmarks/first_decision.py [--repo PATH] [--repeat 3] [--keep DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from machine import machine, machine_line

REPO = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
from coloretto.agents.advisor import advise
from coloretto.agents.base import Budget
from coloretto.agents.registry import make_agent
from coloretto.engine import Rules, new_game, observe
imported = time.perf_counter() - t0
state = new_game(Rules(players=4), 3)
while len(state.legal_actions()) < 2:
    state.apply(state.legal_actions()[0])
seat, legal = state.to_move, state.legal_actions()
t1 = time.perf_counter()
if sys.argv[1] == "decision":
    agent = make_agent("hard", seed=1)
    agent.reset(seat, state.rules)
    answer = str(agent.act(observe(state, seat), legal))
else:
    answer = str(advise(observe(state, seat), legal, Budget.parse("1s"), 0)[0].action)
print(json.dumps({"imports": imported, "seconds": time.perf_counter() - t1, "answer": answer}))
"""


def clear_cache(python: Path) -> int:
    """Delete the fast core's Numba cache and warm marker in the environment of ``python``
    (the state right after ``pip install``); returns how many files went."""
    where = subprocess.run(
        [str(python), "-c", "import coloretto, pathlib; print(pathlib.Path(coloretto.__file__).parent)"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    gone = 0
    for pattern in ("*.nbi", "*.nbc", "*.warm"):
        for f in (Path(where) / "fastcore" / "__pycache__").glob(pattern):
            f.unlink()
            gone += 1
    return gone


def probe(python: Path, what: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    done = subprocess.run([str(python), "-c", PROBE, what], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_seconds"] = wall
    result["notice"] = "Compiling the fast core once" in done.stderr
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout to install (default: this one)")
    parser.add_argument("--repeat", type=int, default=3, help="warm measurements of each kind")
    parser.add_argument("--keep", type=Path, default=None, help="build the environment here and keep it")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    tmp = None if args.keep else tempfile.mkdtemp(prefix="coloretto-first-")
    venv = args.keep or Path(tmp) / "venv"  # type: ignore[arg-type]
    try:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = venv / "bin" / "python"
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(args.repo)], check=True)
        install_seconds = time.perf_counter() - t0
        report: dict[str, Any] = {"machine": machine(), "install_seconds": install_seconds,
                                  "load_average_before": os.getloadavg()[0]}
        clear_cache(python)
        report["cold_decision"] = probe(python, "decision")
        clear_cache(python)
        report["cold_hint"] = probe(python, "hint")
        clear_cache(python)
        t1 = time.perf_counter()
        warm = subprocess.run([str(venv / "bin" / "coloretto"), "warmup"], check=True, capture_output=True, text=True)
        report["warmup"] = {"process_seconds": time.perf_counter() - t1, "output": warm.stdout.strip()}
        report["warm_decision"] = [probe(python, "decision") for _ in range(args.repeat)]
        report["warm_hint"] = [probe(python, "hint") for _ in range(args.repeat)]
        report["load_average_after"] = os.getloadavg()[0]
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

    if args.json:
        print(json.dumps(report))
        return 0
    print(machine_line())
    print(f"load average (1 min): {report['load_average_before']:.1f} at the start, "
          f"{report['load_average_after']:.1f} at the end")
    print(f"pip install (fresh venv, no extras): {install_seconds:.1f} s")
    rows = [("cold", "hard decision", [report["cold_decision"]]), ("cold", "first hint", [report["cold_hint"]]),
            ("warm", "hard decision", report["warm_decision"]), ("warm", "first hint", report["warm_hint"])]
    print(f"{'cache':5}  {'what':13}  {'answer s':>8}  {'process s':>9}  notice")
    for cache, what, runs in rows:
        for r in runs:
            print(f"{cache:5}  {what:13}  {r['seconds']:8.2f}  {r['process_seconds']:9.2f}  {'yes' if r['notice'] else 'no'}")
    print(f"coloretto warmup (cold cache): {report['warmup']['process_seconds']:.1f} s: {report['warmup']['output']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
