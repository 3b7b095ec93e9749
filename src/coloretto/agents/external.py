"""External engines: a program in any language playing over ``coloretto-engine/1``
(docs/engine-protocol.md, the outsider's guide).

The host (this module) starts the program, writes one JSON object per line to its standard
input and reads one JSON object per line from its standard output. Standard error is
logged (the ``logging`` module, logger ``coloretto.agents.external``, or a file), never
parsed.

Host behaviour, as documented for engine authors:

- ``hello`` is sent at the start of every game (``reset``); the engine must answer
  ``{"type": "ready", ...}`` within ``hello_timeout_ms`` (default 10 000 ms, which includes
  the program's start-up for the first game).
- ``decide`` carries the observation, the legal actions and ``time_ms`` (the budget's
  seconds, default ``DEFAULT_TIME_MS``); the answer must arrive within ``time_ms`` plus
  ``grace_ms`` (default ``DEFAULT_GRACE_MS`` = 1000 ms).
- ``result`` is sent at the end of a game when the host knows it (``result`` method).
- ``quit`` on ``close``; a program still running ``QUIT_WAIT_S`` seconds later is
  terminated, then killed.

A malformed line, an action not among the legal ones, a late answer or an exited program
raises ``EngineFailure`` naming the seat and the kind of failure ("malformed": not a JSON
object of the expected shape, e.g. a negative or non-integer row; "illegal": a well-formed
action that is not among the legal ones, e.g. ``{"action": "take", "row": 99}``); the
engine process is then stopped (a later ``reset`` starts a fresh one). Reading happens on a background thread with
timeouts, so the host never hangs on an engine.
"""

from __future__ import annotations

import json
import logging
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Any, Final, Literal, NoReturn

from ..engine.actions import Action
from ..engine.errors import ColorettoError
from ..engine.observation import Observation
from ..engine.rules import Rules
from .base import Agent, Budget

PROTOCOL: Final = "coloretto-engine/1"
DEFAULT_TIME_MS: Final = 1000
"""``time_ms`` sent when the budget gives no seconds."""
DEFAULT_GRACE_MS: Final = 1000
"""Grace added to ``time_ms`` before an answer counts as late (transport, start-up jitter)."""
DEFAULT_HELLO_TIMEOUT_MS: Final = 10_000
"""Time allowed for the ``ready`` answer to ``hello`` (includes the program's start-up)."""
QUIT_WAIT_S: Final = 1.0
"""Seconds a program may take to exit after ``quit`` (and again after terminate) before it is
terminated (then killed)."""
MAX_LINE_BYTES: Final = 1 << 20
"""Longest accepted answer line (1 MiB); a longer line is malformed."""

FailureKind = Literal["start", "malformed", "illegal", "timeout", "exited"]
FAILURE_KINDS: Final = ("start", "malformed", "illegal", "timeout", "exited")

log = logging.getLogger(__name__)

_EOF: Final = object()


def how_it_ended(code: int | None) -> str:
    """How a program ended, from ``Popen.returncode`` ``code``: ``exit status N``, ``killed
    by signal N (NAME)`` for a negative code, or ``still running`` for ``None``.

    >>> how_it_ended(3), how_it_ended(-9), how_it_ended(None)
    ('exit status 3', 'killed by signal 9 (SIGKILL)', 'still running')
    """
    if code is None:
        return "still running"
    if code >= 0:
        return f"exit status {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        return f"killed by signal {-code}"
    return f"killed by signal {-code} ({name})"

class EngineFailure(ColorettoError):
    """An external engine broke the protocol.

    Attributes:
        seat: the seat the engine played (``-1`` before its first game).
        kind: ``"start"`` (the program could not be started), ``"malformed"`` (a line that is
            not a JSON object of the expected type, or not a valid action), ``"illegal"``
            (an action not among the legal ones), ``"timeout"`` (no answer within
            ``time_ms`` + grace) or ``"exited"`` (the program ended or closed its output).
        detail: human-readable explanation (what was received or expected).
        engine: the command line of the engine.
    """

    def __init__(self, seat: int, kind: FailureKind, detail: str, engine: str = "") -> None:
        # The message is for people (seats counted from 1); ``seat`` and ``to_json`` count
        # from 0 as the protocol does.
        super().__init__(f"seat {seat + 1}: engine {engine!r} failed ({kind}): {detail}")
        self.seat = seat
        self.kind = kind
        self.detail = detail
        self.engine = engine

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "kind", "detail", "engine"}``."""
        return {"seat": self.seat, "kind": self.kind, "detail": self.detail, "engine": self.engine}

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across worker processes
        return (EngineFailure, (self.seat, self.kind, self.detail, self.engine))


class ExternalAgent(Agent):
    """A ``coloretto-engine/1`` program as an ``Agent`` (module docstring for the protocol).

    The program is started on the first ``reset`` and reused for later games (one ``hello``
    each). ``seed`` is passed in ``hello`` (an added field engines may use to be
    reproducible); ``budget.seconds`` sets ``time_ms``.

    Args:
        command: the command line, split with ``shlex.split`` (no shell is involved).
        seed: the agent's seed (sent to the engine in ``hello``).
        budget: thinking budget; ``seconds`` becomes ``time_ms`` (else ``DEFAULT_TIME_MS``).
        grace_ms: grace after ``time_ms`` before an answer is late.
        hello_timeout_ms: time allowed for the ``ready`` answer.
        stderr_path: append the engine's standard error to this file (else log it at DEBUG
            level on the ``coloretto.agents.external`` logger).
        cwd: working directory of the program.

    Raises:
        ColorettoError: ``command`` is empty or not splittable (on construction).
        EngineFailure: from ``reset``, ``act`` (see module docstring).
    """

    name = "external"
    label = "an external engine (cmd:)"
    cpu_budget = False

    def __init__(
        self,
        command: str,
        seed: int = 0,
        budget: Budget | None = None,
        *,
        grace_ms: int = DEFAULT_GRACE_MS,
        hello_timeout_ms: int = DEFAULT_HELLO_TIMEOUT_MS,
        stderr_path: str | None = None,
        cwd: str | None = None,
    ) -> None:
        super().__init__(seed, budget)
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ColorettoError(f"engine command {command!r} cannot be split: {exc}") from None
        if not argv:
            raise ColorettoError("the engine's command line is empty: give the program to run and its arguments")
        self.command = command
        self.argv = argv
        self.grace_ms = int(grace_ms)
        self.hello_timeout_ms = int(hello_timeout_ms)
        self.stderr_path = stderr_path
        self.cwd = cwd
        self.engine_name: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._exit_code: int | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._stderr_file: IO[str] | None = None

    # ----- settings ---------------------------------------------------------------------
    @property
    def time_ms(self) -> int:
        """Milliseconds per decision sent in ``decide`` (budget seconds, else the default)."""
        if self.budget.seconds is not None:
            return max(1, round(self.budget.seconds * 1000))
        return DEFAULT_TIME_MS

    @property
    def running(self) -> bool:
        """True while the engine process is alive."""
        return self._proc is not None and self._proc.poll() is None

    # ----- Agent interface -------------------------------------------------------------
    def reset(self, seat: int, rules: Rules) -> None:
        """Start a game: start the program if needed, send ``hello`` and wait for ``ready``.

        Raises:
            EngineFailure: the program cannot be started, or its answer is missing, late or
                not ``{"type": "ready"}``.
        """
        super().reset(seat, rules)
        if not self.running:
            self._start()
        hello = {
            "type": "hello",
            "protocol": PROTOCOL,
            "seat": seat,
            "rules": rules.to_dict(),
            "seed": self.seed,
        }
        answer = self._request(hello, self.hello_timeout_ms, "hello")
        if answer.get("type") != "ready":
            self._fail(
                "malformed", f'expected {{"type": "ready"}} after hello, got {_short(answer)}'
            )
        name = answer.get("name")
        self.engine_name = name if isinstance(name, str) else None

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Ask the engine: send ``decide`` and return its action.

        Raises:
            EngineFailure: malformed, illegal or late answer, or the program exited.
        """
        message = {
            "type": "decide",
            "observation": observation.to_json(),
            "legal": [a.to_json() for a in legal],
            "time_ms": self.time_ms,
        }
        answer = self._request(message, self.time_ms + self.grace_ms, "decide")
        if answer.get("type") != "action" or "action" not in answer:
            self._fail(
                "malformed", f'expected {{"type": "action", "action": ...}}, got {_short(answer)}'
            )
        try:
            action = Action.from_json(answer["action"])
        except (ValueError, TypeError, KeyError) as exc:
            self._fail("malformed", f"not a valid action: {_short(str(exc))}")
        except RecursionError:
            self._fail("malformed", "not a valid action: nested too deeply")
        if action not in legal:
            self._fail(
                "illegal",
                f"{_short(answer['action'])} is not among the legal actions "
                f"{json.dumps([a.to_json() for a in legal])}",
            )
        return action

    def game_over(self, scores: Sequence[int], winners: Sequence[int]) -> None:
        """Tell the engine the game's final ``scores`` (per seat) and ``winners`` (seats).
        No answer is expected. Does nothing when the engine is not running.

        Raises:
            EngineFailure: ``"exited"`` when the program closed its input.
        """
        if self.running:
            self._send({"type": "result", "scores": list(scores), "winners": list(winners)})

    def close(self) -> None:
        """Send ``quit``, wait up to ``QUIT_WAIT_S`` for the exit, then terminate/kill.
        Idempotent; never raises for a dead or stuck engine."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self._send({"type": "quit"})
            except EngineFailure:
                pass
        self._stop()

    def __del__(self) -> None:  # best effort: never leave a child process behind
        if getattr(self, "_proc", None) is None:
            return  # never started (or the constructor failed)
        try:
            self._stop()
        except Exception as exc:  # noqa: BLE001 - may run at interpreter shutdown
            log.debug("stopping engine %r at garbage collection: %s", self.command, exc)

    # ----- process handling ------------------------------------------------------------
    def _start(self) -> None:
        self._stop()
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                bufsize=0,
            )
        except OSError as exc:
            raise EngineFailure(
                self.seat, "start", f"cannot start {self.argv[0]!r}: {exc}", self.command
            ) from None
        self._proc = proc
        self._lines = queue.Queue()
        if self.stderr_path is not None:
            self._stderr_file = open(  # noqa: SIM115 - closed in _stop
                self.stderr_path, "a", encoding="utf-8", errors="replace"
            )
        assert proc.stdout is not None and proc.stderr is not None
        out = threading.Thread(target=_read_lines, args=(proc.stdout, self._lines), daemon=True)
        err = threading.Thread(target=self._log_stderr, args=(proc.stderr, proc.pid), daemon=True)
        out.start()
        err.start()
        self._threads = [out, err]

    def _stop(self) -> None:
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
        try:
            proc.wait(QUIT_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(QUIT_WAIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self._exit_code = proc.returncode
        for t in self._threads:
            t.join(QUIT_WAIT_S)
        self._threads = []
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        if self._stderr_file is not None:
            self._stderr_file.close()
            self._stderr_file = None

    def _kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()
        self._stop()

    def _log_stderr(self, stream: IO[bytes], pid: int) -> None:
        prefix = f"[engine seat {self.seat + 1} pid {pid}] "
        for raw in iter(stream.readline, b""):
            text = raw.decode("utf-8", errors="replace").rstrip("\n")
            out = self._stderr_file
            if out is not None:
                try:
                    out.write(prefix + text + "\n")
                    out.flush()
                except (ValueError, OSError):
                    pass
            else:
                log.debug("%s%s", prefix, text)

    def _fail(self, kind: FailureKind, detail: str) -> NoReturn:
        self._kill()
        raise EngineFailure(self.seat, kind, detail, self.command)

    def _send(self, message: dict[str, Any]) -> None:
        # Writes cannot block for long: the host never has more than a couple of small
        # unanswered messages (result, hello/decide) in the pipe, far below its buffer.
        proc = self._proc
        if proc is None or proc.stdin is None or proc.poll() is not None:
            code = self._exit_code if proc is None else proc.poll()
            self._fail("exited", f"the program is not running ({how_it_ended(code)})")
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            proc.stdin.write(data)
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._fail("exited", f"the program closed its input ({how_it_ended(proc.poll())})")

    def _request(self, message: dict[str, Any], timeout_ms: int, what: str) -> dict[str, Any]:
        """Send ``message``, then wait up to ``timeout_ms`` for one answer line (a JSON object)."""
        self._send(message)
        deadline = time.monotonic() + timeout_ms / 1000.0
        try:
            item = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self._fail("timeout", f"no answer to {what} within {timeout_ms} ms")
        if item is _EOF:
            proc = self._proc
            code = None
            if proc is not None:
                try:
                    code = proc.wait(QUIT_WAIT_S)
                except subprocess.TimeoutExpired:
                    code = None
            self._fail(
                "exited",
                f"the program ended its output while the host waited for the answer to {what}"
                f" ({how_it_ended(code)})",
            )
        assert isinstance(item, bytes)
        if len(item) > MAX_LINE_BYTES:
            self._fail("malformed", f"answer line longer than {MAX_LINE_BYTES} bytes")
        try:
            answer = json.loads(item.decode("utf-8"))
        except RecursionError:
            self._fail("malformed", f"a JSON line nested too deeply: {_short(item)}")
        except ValueError as exc:  # not UTF-8, not JSON, or an integer of over 4300 digits
            self._fail("malformed", f"not a JSON line ({_short(str(exc))}): {_short(item)}")
        if not isinstance(answer, dict):
            self._fail("malformed", f"expected a JSON object, got {_short(answer)}")
        return answer


def _read_lines(stream: IO[bytes], lines: queue.Queue[object]) -> None:
    """Reader thread: put each line of ``stream`` (bytes, with its newline) in ``lines``,
    then ``_EOF``."""
    try:
        while True:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            lines.put(raw)
    except (OSError, ValueError):
        pass
    lines.put(_EOF)


def _short(value: object, limit: int = 200) -> str:
    try:
        text = (
            value.decode("utf-8", "replace")
            if isinstance(value, bytes)
            else (value if isinstance(value, str) else json.dumps(value))
        )
    except (ValueError, RecursionError, TypeError):  # too deep or a huge number
        text = f"<{type(value).__name__} too large to show>"
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "..."


__all__ = [
    "DEFAULT_GRACE_MS",
    "DEFAULT_HELLO_TIMEOUT_MS",
    "DEFAULT_TIME_MS",
    "FAILURE_KINDS",
    "PROTOCOL",
    "EngineFailure",
    "ExternalAgent",
]
