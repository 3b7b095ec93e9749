"""Terminal play: ``render`` draws positions with ``rich``; ``session``
runs an interactive game (``TerminalGame``). The command is ``coloretto play``
(``coloretto.cli.play``); docs/terminal.md describes keys and options."""

from .session import TerminalGame

__all__ = ["TerminalGame"]
