"""Entry point of the ``coloretto`` command.

Each subcommand lives in its own module of this package and exposes
``register(subparsers) -> None``, which adds its parser and sets ``func`` (a callable taking
the parsed ``argparse.Namespace`` and returning the exit status).

Exit status: 0 ok, 1 a failed check, 2 bad usage or input.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..engine.errors import ColorettoError

SUBCOMMANDS = (
    "play",
    "score",
    "show",
    "replay",
    "simulate",
    "bench",
    "perft",
    "tournament",
    "analyze",
    "serve",
    "connect",
    "train",
)


class UsageError(ColorettoError):
    """Bad command-line input detected after parsing (exit status 2)."""


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="coloretto", description="Coloretto: play, score, replay, simulate and analyse."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"coloretto.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"coloretto.cli.{name}":
                continue  # subcommand not built in this installation
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.func(args)
    except (UsageError, ColorettoError) as exc:
        print(f"coloretto {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader closed early (e.g. `coloretto show --json f | head`): not an error of ours.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return int(status or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
