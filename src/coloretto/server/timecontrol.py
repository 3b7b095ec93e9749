"""Time controls (docs/web-api.md, "Time controls"): a table plays without a clock, with a
per-move clock (``move``: a few seconds per decision) or turn-based (``day``: a day per
decision). When a person's time for a decision runs out, the seat is handed to the computer
player the table chose, which plays that decision (its log entry says ``"timeout": true``)
and the following ones until the person takes the seat back (``reclaim``).

The clock of a decision starts when a person's seat comes to move (or is taken back), in
this server process: after a restart every waiting person gets a full clock again. Time
comes from the hub's ``Clock``, so tests move it by hand.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import ErrorCode, Problem

if TYPE_CHECKING:
    from .hub import Hub
    from .live import LiveTable

log = logging.getLogger("coloretto.server")

KINDS = ("none", "move", "day")
"""The time controls: no clock, a per-move clock, a day per move (turn-based)."""

MOVE_CLOCKS: tuple[float, ...] = (20.0, 45.0, 90.0)
"""The per-move clocks a table may choose by default, in seconds (``coloretto serve
--move-clocks`` changes the list)."""

DAY_SECONDS = 86400.0
"""The clock of a turn-based table: one day per decision."""

CLOCK_AGENTS = ("easy", "medium", "hard")
"""The computer players that may play a person's move when the clock runs out."""

DEFAULT_CLOCK_AGENT = "medium"
"""The clock's computer player when the table names none."""


def seconds_json(seconds: float) -> int | float:
    """``seconds`` as JSON shows it: a whole number without ``.0`` (20, not 20.0)."""
    return int(seconds) if float(seconds).is_integer() else float(seconds)


def check_time_control(raw: Any, move_clocks: Sequence[float] = MOVE_CLOCKS) -> dict[str, Any]:
    """The stored time control of a create-table request's ``time_control``: ``None`` or
    ``{"kind": "none"}``; ``{"kind": "move", "seconds": S, "agent": A}`` with ``S`` one of
    ``move_clocks``; ``{"kind": "day", "agent": A}`` (``seconds`` is then ``DAY_SECONDS``, and may be given).
    ``A`` (default ``DEFAULT_CLOCK_AGENT``) is one of ``CLOCK_AGENTS``.

    Returns:
        ``{"kind": "none"}`` or ``{"kind": K, "seconds": S, "agent": str}`` (``S`` as
        ``seconds_json`` writes it).

    Raises:
        Problem: ``bad_request`` (unknown kind or fields, a clock not offered), ``bad_agent``.
    """
    if raw is None:
        return {"kind": "none"}
    if not isinstance(raw, dict):
        raise Problem(ErrorCode.BAD_REQUEST, "time_control must be an object such as {\"kind\": \"move\", \"seconds\": 45}")
    unknown = sorted(set(raw) - {"kind", "seconds", "agent"})
    if unknown:
        raise Problem(ErrorCode.BAD_REQUEST, f"time_control: unknown field(s) {', '.join(unknown)}")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise Problem(ErrorCode.BAD_REQUEST, f"time_control.kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if kind == "none":
        if raw.get("seconds") is not None or raw.get("agent") is not None:
            raise Problem(ErrorCode.BAD_REQUEST, "time_control: a table without a clock takes no seconds or agent")
        return {"kind": "none"}
    agent = raw.get("agent") or DEFAULT_CLOCK_AGENT
    if agent not in CLOCK_AGENTS:
        raise Problem(ErrorCode.BAD_AGENT, f"time_control.agent must be one of {', '.join(CLOCK_AGENTS)}, not {agent!r}")
    seconds = raw.get("seconds")
    if kind == "day":
        if seconds is not None and seconds != DAY_SECONDS:
            raise Problem(ErrorCode.BAD_REQUEST, f"time_control: a turn-based table has {DAY_SECONDS:g} s per move, not {seconds!r}")
        return {"kind": "day", "seconds": seconds_json(DAY_SECONDS), "agent": agent}
    offered = ", ".join(f"{s:g}" for s in move_clocks)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or float(seconds) not in move_clocks:
        raise Problem(ErrorCode.BAD_REQUEST, f"time_control.seconds must be one of {offered}, not {seconds!r}")
    return {"kind": "move", "seconds": seconds_json(seconds), "agent": agent}


@dataclass(frozen=True)
class Turn:
    """A person's decision in progress: the table's ``version`` when it began, the ``seat``
    to move, and when it began (``started``, hub clock seconds)."""

    version: int
    seat: int
    started: float


def current_turn(t: LiveTable) -> Turn | None:
    """The decision a person of ``t`` is making now (started now if it just began), or None
    (game not running, or a computer player is to move). Kept in ``t.turn``."""
    st = t.state
    if t.status != "playing" or st.is_over() or t.data.seats[st.to_move].kind != "human":
        t.turn = None
        return None
    turn = t.turn
    if turn is None or turn.version != t.version or turn.seat != st.to_move:
        turn = t.turn = Turn(t.version, st.to_move, t.clock.now())
    return turn


def time_control(t: LiveTable) -> dict[str, Any]:
    """The table's time control (``check_time_control``'s form)."""
    tc: dict[str, Any] = t.data.options.get("time_control") or {"kind": "none"}
    return tc


def clock_json(t: LiveTable) -> dict[str, Any] | None:
    """``state.clock`` (docs/web-api.md): the running clock of the person to move, or None
    (no time control, or no person to move)."""
    tc = time_control(t)
    if tc["kind"] == "none":
        return None
    turn = current_turn(t)
    if turn is None:
        return None
    left = max(0.0, turn.started + tc["seconds"] - t.clock.now())
    return {"kind": tc["kind"], "seat": turn.seat, "seconds": tc["seconds"], "left": round(left, 1), "agent": tc["agent"]}


def mark_timeout(t: LiveTable, entry: dict[str, Any]) -> dict[str, Any]:
    """Mark the log ``entry`` of an action a clock's computer played (``"timeout": true``
    and its ``agent``); other entries are returned unchanged."""
    if entry["i"] in t.data.options.get("timeouts", ()):
        entry["timeout"] = True
        entry["agent"] = time_control(t).get("agent", DEFAULT_CLOCK_AGENT)
    return entry


class Timers:
    """The clocks of the hub's tables: one task per table with a running clock, which hands
    the seat to the table's computer player when the person's time is up."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.tasks: dict[str, tuple[Turn, asyncio.Task[None]]] = {}

    def schedule(self, t: LiveTable) -> None:
        """Start (or keep, or stop) the clock of ``t``'s current decision."""
        turn = current_turn(t)
        running = self.tasks.get(t.id)
        if running is not None and running[0] == turn and not running[1].done():
            return
        if running is not None:
            if running[1] is not asyncio.current_task():  # a clock that ran out ends by itself
                running[1].cancel()
            del self.tasks[t.id]
        if turn is None or time_control(t)["kind"] == "none":
            return
        self.tasks[t.id] = (turn, asyncio.create_task(self._wait(t, turn)))

    async def _wait(self, t: LiveTable, turn: Turn) -> None:
        seconds = time_control(t)["seconds"]
        try:
            await self.hub.clock.sleep(turn.started + seconds - self.hub.clock.now())
            await self.time_out(t, turn)
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - logged; the person can still move
            log.exception("table %s: the clock of seat %d failed", t.id, turn.seat + 1)

    async def time_out(self, t: LiveTable, turn: Turn) -> None:
        """The person's time for ``turn`` is up: if the decision is still theirs, hand the
        seat to the table's clock computer, which plays it (its log entry is marked)."""
        tc = time_control(t)
        async with t.lock:
            if current_turn(t) != turn:
                return
            options = dict(t.data.options)
            options["timeouts"] = [*options.get("timeouts", []), turn.version]
            await self.hub.store.set_options(t.id, options)
            t.data.options = options
            await self.hub.seat_to_computer(t, turn.seat, tc["agent"])
            log.info("table %s: seat %d ran out of time; %s plays for it", t.id, turn.seat + 1, tc["agent"])
        await self.hub.publish(t.id, "seats")
        self.hub.schedule_computer(t)

    def stop(self) -> None:
        """Stop every clock."""
        for _, task in self.tasks.values():
            task.cancel()
        self.tasks.clear()
