"""Entry point of the ``coloretto`` command.

Each subcommand lives in its own module of this package and exposes
``register(subparsers) -> None``, which adds its parser and sets ``func`` (a callable taking
the parsed ``argparse.Namespace`` and returning the exit status).

Before a command runs, ``preflight`` checks the extras it needs and compiles the fast core
when it will be used and its cache is cold (``coloretto.cli.preflight``).

Exit status: 0 ok, 1 a failed check, 2 bad usage or input (a missing extra included), 130
after Ctrl-C, 143 after SIGTERM (``coloretto.cli.stopping``: both stop the same clean way).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import sys
from collections.abc import Sequence
from typing import Any, Final

from .._optional import MissingExtra
from ..engine.errors import ColorettoError
from .preflight import preflight
from .stopping import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated, sigterm_as_interrupt

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


class DashValue(argparse.Action):
    """The action of a long option whose one value may start with ``-``, as a mistyped
    budget does (``--budget -1s``); it stores the value as the default action does.

    argparse reads a word that starts with ``-`` and is not a plain negative number as an
    option, so ``--budget -1s`` would stop at "expected one argument" and never reach the
    check that says what is wrong with the value. ``SubcommandParser`` joins such an option
    to the word after it (``--budget=-1s``, a form argparse reads as option and value).
    """

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        """The action of the options ``option_strings``, storing to ``dest``; ``kwargs`` as
        for any action.

        Raises:
            ValueError: ``nargs`` is given (the option takes exactly one value).
        """
        if kwargs.get("nargs") is not None:
            raise ValueError("DashValue takes exactly one value: do not give nargs")
        super().__init__(option_strings, dest, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)


class SubcommandParser(argparse.ArgumentParser):
    """The parser of one subcommand (and of its own subcommands, e.g. ``bench playout``).

    argparse hands a subcommand's unknown arguments back to the top-level parser, which then
    reports them under the top-level usage (``usage: coloretto [-h] COMMAND ...``). This parser
    reports them itself, with the subcommand's own usage line, and exits with status 2.

    The value of a ``DashValue`` option may start with ``-`` (``--budget -1s``).
    """

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse ``args``; an argument this subcommand does not know is an error here."""
        if args is not None:
            args = self._join_dash_values(args)
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    def _option_action(self, word: str) -> argparse.Action | None:
        """The action of the long option ``word`` as argparse reads it (a unique
        abbreviation too, ``--bud`` for ``--budget``), or None."""
        actions = self._option_string_actions
        if word in actions:
            return actions[word]
        if not (word.startswith("--") and self.allow_abbrev):
            return None
        matches = [action for option, action in actions.items() if option.startswith(word)]
        return matches[0] if len(matches) == 1 else None

    def _join_dash_values(self, args: Sequence[str]) -> list[str]:
        """``args`` with every ``DashValue`` option that is followed by a word starting with
        a single ``-`` (not an option of this parser) joined to that word: ``--budget -1s``
        becomes ``--budget=-1s``. Words after ``--`` are left as they are."""
        words = list(args)
        i = 0
        while i < len(words) - 1 and words[i] != "--":
            word, value = words[i], words[i + 1]
            if (
                word.startswith("--")
                and isinstance(self._option_action(word), DashValue)
                and value.startswith("-")
                and not value.startswith("--")
                and value not in self._option_string_actions
            ):
                words[i : i + 2] = [f"{word}={value}"]
            i += 1
        return words


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


WRITE_ERRORS: Final = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
"""``OSError.errno`` values of a write that the device refused (full, over quota, too large,
failing): a command ends with one line and status 1 instead of a traceback."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with sigterm_as_interrupt(enabled=not getattr(args, "own_sigterm", False)) as stop:
            preflight(args)
            status = args.func(args)
        if stop.received and status == EXIT_INTERRUPTED:
            status = EXIT_TERMINATED  # the terminal game's own Ctrl-C status
    except MissingExtra as exc:
        # One line that names the extra and the install command.
        where = "" if exc.feature.startswith("coloretto ") else f"coloretto {args.command}: "
        print(f"{where}{exc}", file=sys.stderr)
        return 2
    except (UsageError, ColorettoError) as exc:
        print(f"coloretto {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader closed early (e.g. `coloretto show --json f | head`): not an error of ours.
        silence_stdout()
        return 0
    except OSError as exc:
        if exc.errno not in WRITE_ERRORS:
            raise
        # A full disk or a failing device under the output: say so in one line.
        silence_stdout()
        where = f" {exc.filename}" if exc.filename else ""
        print(f"coloretto {args.command}: error: cannot write{where}: {exc.strerror}", file=sys.stderr)
        return 1
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
