"""``coloretto warmup``: compile the fast core once, ahead of time.

The fast core's Numba kernels are compiled on their first call in a fresh installation
(about 30 s on a 2-core machine) and cached on disk; later processes load them in well
under a second. ``make play``, ``make serve`` and ``make test`` run this command after
installing, so the first decision of a computer player and the first hint are quick.
Commands that need the fast core and find its cache cold say so before compiling
(:func:`prepare_fast_core`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console


def register(subparsers: Any) -> None:
    """Add the ``warmup`` subcommand."""
    p = subparsers.add_parser(
        "warmup",
        help="compile the fast core once (Numba cache), so later commands start at once",
        description=(
            "Compile every kernel of the fast core (or load it from Numba's cache when it is "
            "already compiled) and say which it was, how long it took and where the cache is."
        ),
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Warm the fast core; exit 0, or 2 when Numba cannot be imported (``MissingExtra``)."""
    from .._optional import require

    numba = require("numba", "fast", "coloretto warmup")
    from ..fastcore import warmup
    from ..fastcore.cache import cache_dir, is_warm, kernels, marker_path
    from ..fastcore.search import warm_search

    def warm_everything() -> float:
        # the transition kernels, then the search and value kernels that the computer
        # players (hard, expert) and the move advisor run
        return warmup(announce=False) + warm_search()

    was_warm = is_warm()
    err = Console(stderr=True)
    if was_warm or args.json:
        seconds = warm_everything()
    else:
        with err.status("compiling the fast core (about 30 s)"):
            seconds = warm_everything()
    report = {
        "compiled": not was_warm,
        "kernels": len(kernels()),
        "seconds": round(seconds, 3),
        "cache_dir": str(cache_dir()),
        "warm": is_warm(),
        "marker": str(marker_path()),
        "numba": numba.__version__,
    }
    if args.json:
        print(json.dumps(report))
        return 0
    did = "compiled" if report["compiled"] else "loaded from the cache"
    print(
        f"fast core: {report['kernels']} kernels {did} in {seconds:.1f} s "
        f"(Numba {report['numba']}; cache {report['cache_dir']})"
    )
    if not report["warm"]:
        print("fast core: the cache directory is not writable; the next run compiles again")
    return 0


def prepare_fast_core(console: Console) -> float | None:
    """Before a command that uses the fast core: when its cache is cold, print
    ``COLD_MESSAGE`` (an estimate) on ``console`` and compile under a status line, then say
    how long it took. Does nothing when the cache is warm (the kernels then load in well
    under a second where they are used) or when Numba cannot be imported (the commands
    then take their engine paths).

    Returns:
        The seconds spent compiling, or ``None`` when nothing was compiled.
    """
    from .._optional import optional

    if optional("numba", "fast") is None:
        return None
    from ..fastcore import warmup
    from ..fastcore.cache import COLD_MESSAGE, is_warm

    if is_warm():
        return None
    console.print(COLD_MESSAGE, highlight=False)
    with console.status("compiling the fast core"):
        seconds = warmup(announce=False)
    console.print(f"Fast core compiled in {seconds:.0f} s and cached.", highlight=False)
    return seconds
