"""Entry point of the ``coloretto`` command.

Each subcommand lives in its own module of this package and exposes
``register(subparsers) -> None``, which adds its parser and sets ``func`` (a callable taking
the parsed ``argparse.Namespace`` and returning the exit status).

Before a command runs, ``preflight`` checks the extras it needs and compiles the fast core
when it will be used and its cache is cold (``coloretto.cli.preflight``).

Exit status: 0 ok, 1 a failed check, 2 bad usage or input (a missing extra included).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .._optional import MissingExtra
from ..engine.errors import ColorettoError
from .preflight import preflight

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
    "warmup",
    "train",
)


class UsageError(ColorettoError):
    """Bad command-line input detected after parsing (exit status 2)."""


class SubcommandParser(argparse.ArgumentParser):
    """The parser of one subcommand (and of its own subcommands, e.g. ``bench playout``).

    argparse hands a subcommand's unknown arguments back to the top-level parser, which then
    reports them under the top-level usage (``usage: coloretto [-h] COMMAND ...``). This parser
    reports them itself, with the subcommand's own usage line, and exits with status 2.
    """

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse ``args``; an argument this subcommand does not know is an error here."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def package_version() -> str:
    """The installed distribution's version (package metadata), or ``__version__`` of the
    source tree when the package runs without being installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("coloretto")
    except PackageNotFoundError:
        from .. import __version__

        return __version__


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="coloretto", description="Coloretto: play, score, replay, simulate and analyse."
    )
    parser.add_argument(
        "-V",
        "--version",
        action="version",
        version=f"%(prog)s {package_version()}",
        help="print the version of coloretto and exit",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=SubcommandParser)
    sub.required = True
    for name in SUBCOMMANDS:
        importlib.import_module(f"coloretto.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        preflight(args)
        status = args.func(args)
    except MissingExtra as exc:
        # One line that names the extra and the install command.
        where = "" if exc.feature.startswith("coloretto ") else f"coloretto {args.command}: "
        print(f"{where}{exc}", file=sys.stderr)
        return 2
    except (UsageError, ColorettoError) as exc:
        print(f"coloretto {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader closed early (e.g. `coloretto show --json f | head`): not an error of ours.
        silence_stdout()
        return 0
    return int(status or 0)


def silence_stdout() -> None:
    """Point standard output at the null device, after its reader closed the pipe: what is
    still buffered and written later goes nowhere, instead of failing again at exit."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
