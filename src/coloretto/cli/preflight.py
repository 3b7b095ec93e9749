"""What ``coloretto COMMAND`` checks before the command runs (``main`` calls
:func:`preflight` with the parsed arguments):

1. the extras the command needs are installed (``coloretto._optional.require_extra``), so
   that a missing one is one line with the install command (exit 2) before any work starts,
   never a traceback or a failure at the end of a long run;
2. when the command will use a part of the fast core (``coloretto.fastcore.cache.PARTS``)
   whose Numba cache is cold, a progress line with an estimate is printed on standard error
   and the part is compiled then (``coloretto.cli.warmup.prepare_fast_core``), instead of a
   silent pause at the first decision. ``serve`` does this in the background at start-up
   (a log line).
"""

from __future__ import annotations

import argparse

from rich.console import Console

from .._optional import require_extra


def _specs(text: str | None) -> list[str]:
    return [s.strip() for s in (text or "").split(",") if s.strip()]


def _agent_parts(specs: list[str]) -> tuple[str, ...]:
    """The fast-core parts the agents ``specs`` run together, in compile order (each
    agent's parts are in that order, and without importing the fast core)."""
    from ..agents.registry import agent_fast_core_parts

    used: dict[str, None] = {}
    for spec in specs:
        used.update(dict.fromkeys(agent_fast_core_parts(spec)))
    return tuple(used)


def extras_needed(args: argparse.Namespace) -> list[tuple[str, str]]:
    """``(extra, feature)`` pairs the command of ``args`` needs, in the order checked."""
    command: str = args.command
    if command in ("serve", "connect"):
        return [("web", f"coloretto {command}")]
    if command == "tournament":
        needed = [("arena", "coloretto tournament")]
        if getattr(args, "backend", None) == "ray":
            needed.append(("ray", "coloretto tournament --backend ray"))
        return needed
    if command == "train":
        return [("train", "coloretto train")]
    return []


def fast_core_parts(args: argparse.Namespace) -> tuple[str, ...]:
    """The parts of the fast core (``coloretto.fastcore.cache.PARTS``) the command of
    ``args`` will call, in compile order; empty when it does not use the fast core."""
    command: str = args.command
    opt = vars(args).get
    agents = _specs(opt("agents"))
    both = ("transitions", "search")
    if command == "play":
        # hints and a resumed game's advisor run the compiled search
        return both if opt("hints") or opt("resume") else _agent_parts(_specs(opt("opponents")))
    if command == "simulate":
        parts = _agent_parts(agents)
        return parts or (() if opt("engine_only") else ("transitions",))
    if command == "tournament":
        return _agent_parts(agents)
    if command == "bench":
        bench = opt("bench_command")
        if bench == "mcts":
            return both
        if bench == "env":
            return ("transitions", "vector")
        return ("transitions",) if bench == "playout" and opt("fast") else ()
    if command == "train":
        return ("transitions", "search", "selfplay" if opt("train_command") == "value" else "vector")
    return both if command == "analyze" else ()


def uses_fast_core(args: argparse.Namespace) -> bool:
    """True when the command of ``args`` will call the fast core (a search agent, hints,
    the batch simulator, the fast benchmarks, the analysis, training)."""
    return bool(fast_core_parts(args))


def preflight(args: argparse.Namespace) -> None:
    """Run the checks of the module docstring for ``args``.

    Raises:
        MissingExtra: an extra the command needs is not installed.
    """
    for extra, feature in extras_needed(args):
        require_extra(extra, feature)
    parts = fast_core_parts(args)
    if parts:
        from .warmup import prepare_fast_core

        # --quiet (tournament) hides the compile note too; the compiling still happens now.
        prepare_fast_core(Console(stderr=True, quiet=bool(vars(args).get("quiet"))), parts)
