"""The host of a table (docs/web-api.md, ``replace``): the person who created it may hand
the seat of an absent or idle player to a computer player, so one person can never stall a
game. Absent: no connection holds the seat's token. Idle: the seat is to move and has not
moved for ``Settings.handover_after`` seconds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ErrorCode, Problem
from .live import seat_text
from .newtable import DEFAULT_AGENT, check_agent
from .timecontrol import current_turn

if TYPE_CHECKING:
    from .conn import Conn
    from .hub import Hub
    from .live import LiveTable


def host_of(t: LiveTable) -> int | None:
    """The host's seat (the creator's), or None (the creator took no seat)."""
    host = t.data.options.get("host")
    return host if isinstance(host, int) else None


async def replace(hub: Hub, t: LiveTable, by: Conn, seat: Any, agent: Any) -> None:
    """The host hands another person's ``seat`` to the computer player ``agent`` (default
    ``DEFAULT_AGENT``); that person may take it back (``reclaim``).

    Raises:
        Problem: ``not_seated``, ``not_allowed`` (not the host, own seat, not a person's
            seat, the player is connected and not idle, no game running), ``bad_message``,
            ``bad_agent``.
    """
    if by.seat is None:
        raise Problem(ErrorCode.NOT_SEATED, "spectators cannot replace players")
    if by.seat != host_of(t):
        raise Problem(ErrorCode.NOT_ALLOWED, "only the host (who created the table) can replace a player")
    if type(seat) is not int or not 0 <= seat < len(t.data.seats):
        raise Problem(ErrorCode.BAD_MESSAGE, f"seat: must be 0 to {len(t.data.seats) - 1}, not {seat!r}")
    if seat == by.seat:
        raise Problem(ErrorCode.NOT_ALLOWED, "the host hands their own seat over with hand_over")
    agent = DEFAULT_AGENT if agent is None else agent
    if not isinstance(agent, str):
        raise Problem(ErrorCode.BAD_MESSAGE, "agent must be a string")
    check_agent(agent)
    async with t.lock:
        if t.status != "playing":
            raise Problem(ErrorCode.NOT_ALLOWED, "players can be replaced while the game is running")
        if t.data.seats[seat].kind != "human":
            raise Problem(ErrorCode.NOT_ALLOWED, f"{seat_text(seat)} is not played by a person")
        turn = current_turn(t)
        idle = turn is not None and turn.seat == seat and hub.clock.now() - turn.started >= hub.settings.handover_after
        if t.connected(seat) and not idle:
            raise Problem(
                ErrorCode.NOT_ALLOWED,
                f"the player of {seat_text(seat)} is here; replace them when absent, or idle "
                f"for {hub.settings.handover_after:g} s on their turn",
            )
        await hub.seat_to_computer(t, seat, agent)
    await hub.publish(t.id, "seats")
    hub.schedule_computer(t)
