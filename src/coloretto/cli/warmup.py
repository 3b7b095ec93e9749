"""``coloretto warmup``: compile the fast core once, ahead of time.

The fast core's Numba kernels are compiled on their first call in a fresh installation
(a minute or two for all of its parts on a 2-core machine) and cached on disk; later
processes load them in well under a second. ``make play``, ``make serve`` and ``make test``
run this command after installing, so the first decision of a computer player, the first
hint and the first batch of the vector environment are quick. Commands that need a part of
the fast core whose cache is cold say so before compiling it (:func:`prepare_fast_core`).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any, Final

from rich.console import Console


def _warm_transitions() -> float:
    from ..fastcore import warmup

    return warmup(announce=False, mark=False)


def _warm_search() -> float:
    from ..fastcore.search import warm_search

    return warm_search()


def _warm_vector() -> float:
    from ..envs.vector import VectorEnv

    t0 = time.perf_counter()
    for observation in ("encoding", "features"):
        env = VectorEnv(2, players=4, opponents=[None, "random", "greedy", None], observation=observation)
        env.reset(seed=1)
        for _ in range(3):
            env.step(env.random_actions())
    return time.perf_counter() - t0


def _warm_selfplay() -> float:
    from ..agents.compiled_names import SELFPLAY_POLICIES
    from ..agents.value_train import generate

    t0 = time.perf_counter()
    for policy in SELFPLAY_POLICIES:
        generate(1, 1, policy=policy)
    return time.perf_counter() - t0


WARMERS: Final[dict[str, Callable[[], float]]] = {
    "transitions": _warm_transitions,
    "search": _warm_search,
    "vector": _warm_vector,
    "selfplay": _warm_selfplay,
}
"""How each part of the fast core (``coloretto.fastcore.cache.PARTS``) is compiled: a
small run of what uses it; each returns the seconds it took."""


def warm_part(part: str, cold: bool) -> float:
    """Compile (or load from the cache) the kernels of ``part``; when its cache was ``cold``
    (the caller's ``coloretto.fastcore.cache.is_warm``), write the part's marker afterwards.

    Returns:
        The seconds taken.

    Raises:
        KeyError: an unknown part.
    """
    from ..fastcore.cache import mark_warm

    seconds = WARMERS[part]()
    if cold:
        mark_warm(seconds, part)
    return seconds


def register(subparsers: Any) -> None:
    """Add the ``warmup`` subcommand."""
    p = subparsers.add_parser(
        "warmup",
        help="compile the fast core once (Numba cache), so later commands start at once",
        description=(
            "Compile every part of the fast core (the game's transitions, the search, the "
            "vector environment, the self-play recorder), or load it from Numba's cache when "
            "it is already compiled, and say which it was, how long it took and where the "
            "cache is."
        ),
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Warm every part of the fast core; exit 0, or 2 when Numba cannot be imported
    (``MissingExtra``).

    ``--json`` prints ``{"compiled", "kernels", "seconds", "cache_dir", "warm", "marker",
    "numba", "parts"}``: ``parts`` maps each part to ``{"compiled", "kernels", "seconds",
    "warm"}``; the top-level figures are over all parts (``marker``: the transitions
    part's marker file).
    """
    from .._optional import require

    numba = require("numba", "fast", "coloretto warmup")
    from ..fastcore.cache import PARTS, cache_dir, cold_message, is_warm, kernels, marker_path

    cold = tuple(part for part in PARTS if not is_warm(part))
    err = Console(stderr=True, quiet=args.json)
    parts: dict[str, dict[str, Any]] = {}
    for part in PARTS:
        with err.status(cold_message((part,)) if part in cold else f"loading the {part} kernels"):
            seconds = warm_part(part, part in cold)
        parts[part] = {
            "compiled": part in cold,
            "kernels": len(kernels(part)),
            "seconds": round(seconds, 3),
            "warm": is_warm(part),
        }
    report = {
        "compiled": any(p["compiled"] for p in parts.values()),
        "kernels": sum(p["kernels"] for p in parts.values()),
        "seconds": round(sum(p["seconds"] for p in parts.values()), 3),
        "cache_dir": str(cache_dir()),
        "warm": all(p["warm"] for p in parts.values()),
        "marker": str(marker_path()),
        "numba": numba.__version__,
        "parts": parts,
    }
    if args.json:
        print(json.dumps(report))
        return 0
    for part, info in parts.items():
        did = "compiled" if info["compiled"] else "loaded from the cache"
        kernels_word = "kernel" if info["kernels"] == 1 else "kernels"
        print(f"fast core, {part}: {info['kernels']} {kernels_word} {did} in {info['seconds']:.1f} s")
    print(f"fast core: ready (Numba {report['numba']}; cache {report['cache_dir']})")
    if not report["warm"]:
        print("fast core: the cache directory is not writable; the next run compiles again")
    return 0


def prepare_fast_core(console: Console, parts: tuple[str, ...] = ("transitions",)) -> float | None:
    """Before a command that uses the fast core: when the cache of any of ``parts`` is
    cold, print :func:`coloretto.fastcore.cache.cold_message` (an estimate) on ``console``
    and compile those parts under a status line, then say how long it took. Does nothing
    when they are warm (the kernels then load in well under a second where they are used)
    or when Numba cannot be imported (the commands then take their engine paths).

    Returns:
        The seconds spent compiling, or ``None`` when nothing was compiled.
    """
    from .._optional import optional

    if optional("numba", "fast") is None:
        return None
    from ..fastcore.cache import cold_message, is_warm

    cold = tuple(part for part in parts if not is_warm(part))
    if not cold:
        return None
    console.print(cold_message(cold), highlight=False)
    with console.status("compiling the fast core"):
        seconds = sum(warm_part(part, True) for part in cold)
    console.print(f"Fast core compiled in {seconds:.0f} s and cached.", highlight=False)
    return seconds
