"""The ``rich`` console of the commands' standard output.

``rich.console.Console`` exits with status 1 when the reader of standard output goes away
(``coloretto score ... | head -2``); a reader that stops early is not an error of ours, so this
console raises ``BrokenPipeError`` instead, which ``cli.main.main`` turns into exit status 0
after pointing standard output at the null device.
"""

from __future__ import annotations

from rich.console import Console

__all__ = ["StdoutConsole"]


class StdoutConsole(Console):
    """A ``Console`` (same arguments) whose closed pipe ends the command quietly: see the
    module docstring. Raises ``BrokenPipeError`` from a write once the reader is gone."""

    def on_broken_pipe(self) -> None:
        """Stop writing and let ``cli.main.main`` end the command with status 0."""
        self.quiet = True
        raise BrokenPipeError
