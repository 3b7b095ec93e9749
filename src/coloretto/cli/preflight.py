"""What ``coloretto COMMAND`` checks before the command runs (``main`` calls
:func:`preflight` with the parsed arguments):

1. the extras the command needs are installed (``coloretto._optional.require_extra``), so
   that a missing one is one line with the install command (exit 2) before any work starts,
   never a traceback or a failure at the end of a long run;
2. when the command will use the fast core and its Numba cache is cold, a progress line with
   an estimate is printed on standard error and the kernels are compiled then
   (``coloretto.cli.warmup.prepare_fast_core``), instead of a silent pause at the first
   decision. ``serve`` does this in the background at start-up (a log line).
"""

from __future__ import annotations

import argparse

from rich.console import Console

from .._optional import require_extra

SEARCH_AGENTS = frozenset({"mcts", "mcts-v1", "oracle", "oracle-value", "ismcts", "ismcts-value"})
"""Agents whose rollouts run in the fast core."""


def _specs(text: str | None) -> list[str]:
    return [s.strip() for s in (text or "").split(",") if s.strip()]


def _searches(spec: str) -> bool:
    """True when the agent ``spec`` (a name or a difficulty) uses the fast core."""
    from ..agents.registry import DIFFICULTIES, split_spec

    spec = split_spec(spec)[0]
    name = DIFFICULTIES[spec][0] if spec in DIFFICULTIES else spec
    return name in SEARCH_AGENTS


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


def uses_fast_core(args: argparse.Namespace) -> bool:
    """True when the command of ``args`` will call the fast core (a search agent, hints,
    the batch simulator, the fast benchmark, the analysis)."""
    command: str = args.command
    opt = vars(args).get
    agents = _specs(opt("agents"))
    if command == "play":
        return bool(opt("hints") or opt("resume") or any(map(_searches, _specs(opt("opponents")))))
    if command == "simulate":
        return not opt("engine_only") or any(map(_searches, agents))
    if command == "tournament":
        return any(map(_searches, agents))
    if command == "bench":
        return opt("bench_command") == "mcts" or (opt("bench_command") == "playout" and bool(opt("fast")))
    return command in ("analyze", "train")


def preflight(args: argparse.Namespace) -> None:
    """Run the checks of the module docstring for ``args``.

    Raises:
        MissingExtra: an extra the command needs is not installed.
    """
    for extra, feature in extras_needed(args):
        require_extra(extra, feature)
    if uses_fast_core(args):
        from .warmup import prepare_fast_core

        # --quiet (tournament) hides the compile note too; the compiling still happens now.
        prepare_fast_core(Console(stderr=True, quiet=bool(vars(args).get("quiet"))))
