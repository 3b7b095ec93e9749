"""Terminal play: ``render`` draws positions with ``rich``; ``session`` runs an interactive
game (``TerminalGame``); ``saving`` writes and reads its records (after every action, under
the user's data folder by default). The command is ``coloretto play``
(``coloretto.cli.play``); docs/terminal.md describes keys and options."""

from .session import TerminalGame

__all__ = ["TerminalGame"]
