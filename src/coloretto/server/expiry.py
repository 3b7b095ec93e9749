"""Tables nobody attends leave the lobby and this process's memory (``sweep``, run every
``Settings.sweep_seconds`` by ``Hub.start``):

* a table waiting for players (``open``) with no person connected for
  ``Settings.open_table_expiry`` seconds (30 minutes) is marked ``expired``
  (``TableStore.expire_table``): it leaves the lobby and takes no more players;
* a game in progress whose people have all been disconnected for
  ``Settings.abandoned_after`` seconds is handed to computer players (their seats are
  handed over, docs/web-api.md ``hand_over``), who finish it;
* a table nobody is connected to and no computer player is working on leaves memory when it
  is finished or expired, and whenever more than ``Settings.max_tables_in_memory`` are held
  (it is loaded from the store again if someone asks for it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from .live import LiveTable

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("coloretto.server")

FINISHING_AGENT = "random"
"""The computer player that finishes an abandoned game (the cheapest)."""


def idle_seconds(t: LiveTable) -> float | None:
    """Seconds since the last person left ``t`` (None: a person is connected, or the table
    has no person's seat)."""
    people = [s.seat for s in t.data.seats if s.kind == "human"]
    if not people or t.conns:
        return None
    away = [t.away_seconds(seat) for seat in people]
    if any(a is None for a in away):
        return None
    return min(a for a in away if a is not None)


def _busy(t: LiveTable) -> bool:
    return bool(t.conns) or (t.computer_task is not None and not t.computer_task.done()) or t.lock.locked()


async def sweep(hub: Hub) -> None:
    """One pass over the tables in memory (module docstring)."""
    s = hub.settings
    for t in list(hub.tables.values()):
        idle = idle_seconds(t)
        if t.status == "open":
            quiet = idle
            if quiet is None and not t.conns and not any(x.kind == "human" for x in t.data.seats):
                quiet = hub.clock.now() - hub.quiet_since.setdefault(t.id, hub.clock.now())
            if quiet is not None and quiet >= s.open_table_expiry and await hub.store.expire_table(t.id):
                t.data.status = "expired"
                log.info("table %s expired: nobody came for %.0f s", t.id, quiet)
                await hub.publish(t.id, "seats")
        elif t.status == "playing" and idle is not None and idle >= s.abandoned_after:
            async with t.lock:
                for seat in t.data.seats:
                    if seat.kind == "human":
                        await hub.store.set_seat_control(t.id, seat.seat, "computer", FINISHING_AGENT, True)
                        seat.kind, seat.agent, seat.handed_over = "computer", FINISHING_AGENT, True
            log.info("table %s: nobody connected for %.0f s; computer players finish the game", t.id, idle)
            await hub.publish(t.id, "seats")
            hub.schedule_computer(t)
    evict(hub)


def evict(hub: Hub) -> None:
    """Drop from memory the finished and expired tables nobody is connected to, then idle
    tables (oldest loaded first) while more than ``max_tables_in_memory`` are held."""
    for tid, t in list(hub.tables.items()):
        if t.status in ("finished", "expired") and not _busy(t):
            forget(hub, tid)
    extra = len(hub.tables) - hub.settings.max_tables_in_memory
    for tid, t in list(hub.tables.items()):
        if extra <= 0:
            break
        if not _busy(t):
            forget(hub, tid)
            extra -= 1


def forget(hub: Hub, table_id: str) -> None:
    """Drop ``table_id`` from this process's memory (the store keeps it)."""
    t = hub.tables.pop(table_id, None)
    hub.creators.pop(table_id, None)
    hub.quiet_since.pop(table_id, None)
    if t is not None:
        for computer in t.computers.values():
            computer.agent.close()


async def sweep_forever(hub: Hub) -> None:
    """``sweep`` every ``sweep_seconds`` (real time; the ages it compares come from
    ``hub.clock``) until cancelled; a failing pass is logged and the next one runs."""
    while True:
        await asyncio.sleep(hub.settings.sweep_seconds)
        try:
            await sweep(hub)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("sweeping idle tables failed")
