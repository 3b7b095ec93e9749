"""The first hint of a process searches for its whole budget: loading the compiled kernels
from the cache (about a second) happens before the advisor's clock starts."""

from __future__ import annotations

import subprocess
import sys

CODE = """
from coloretto.agents import Budget
from coloretto.agents.advisor import advise
from coloretto.engine import Rules, new_game, observe

st = new_game(Rules(players=4), 3)
obs = observe(st, st.to_move)
for _ in range(2):
    advice = advise(obs, st.legal_actions(), Budget(seconds=0.3), seed=1)
    print(sum(a.samples for a in advice))
"""


def test_the_first_hint_searches_as_much_as_the_next() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, timeout=300, check=True
    ).stdout.split()
    first, second = int(out[0]), int(out[1])
    # Both searched the same 0.3 s; a first call that spent it loading kernels gets a few
    # dozen samples against thousands.
    assert first >= 0.3 * second, (first, second)
