"""A command stopped with SIGTERM (``kill PID``, a service manager) stops as after Ctrl-C.

Python's default SIGTERM ends the process on the spot: a tournament's worker processes are
left for their watcher thread to end (``arena.parallel.exit_with_parent``), its report of
the finished games is never printed, and ``multiprocessing`` warns of leaked semaphores; a
terminal game is not saved. ``sigterm_as_interrupt`` raises ``Terminated``, a
``KeyboardInterrupt``, in the main thread instead, so the commands' Ctrl-C paths run
unchanged (checkpoint closed and counted, game saved), after asking the process pool's
workers to stop too: a worker in the middle of a long game would otherwise keep the pool's
shutdown waiting for it.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

__all__ = ["EXIT_INTERRUPTED", "EXIT_TERMINATED", "StopSignal", "Terminated", "sigterm_as_interrupt"]

EXIT_INTERRUPTED = 128 + signal.SIGINT
"""Exit status of a command stopped by Ctrl-C (130)."""
EXIT_TERMINATED = 128 + signal.SIGTERM
"""Exit status of a command stopped by SIGTERM (143, the shell's convention)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived; raised where Ctrl-C raises ``KeyboardInterrupt``."""


@dataclass
class StopSignal:
    """Whether SIGTERM arrived while ``sigterm_as_interrupt`` was active (``received``)."""

    received: bool = False


@contextmanager
def sigterm_as_interrupt(*, enabled: bool = True) -> Iterator[StopSignal]:
    """While active, SIGTERM stops the ``multiprocessing`` children of this process (the
    worker processes of a pool) and raises ``Terminated`` in the main thread; the previous
    handler is restored on exit. Nothing changes when ``enabled`` is false (a command that
    handles SIGTERM itself, such as ``serve``) or outside the main thread, where Python lets
    no handler be set.

    Yields:
        A ``StopSignal`` whose ``received`` becomes true when SIGTERM arrives.
    """
    stop = StopSignal()
    if not enabled or threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        stop.received = True
        for child in multiprocessing.active_children():
            child.terminate()
        raise Terminated

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGTERM, previous)
