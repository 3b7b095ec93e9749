"""Per-address quotas on creating tables (``check_create``), so one address cannot fill the
lobby or keep the computer players busy for everyone:

* at most ``Settings.max_open_tables`` tables waiting for players (status ``open``);
* at most ``Settings.max_computer_tables`` unfinished tables without a human seat (computer
  players only: they play on with nobody watching).

Counted over the tables this server process created and still holds (``Hub.creators``) and
those it is creating right now (``Hub.creating``), so simultaneous requests cannot slip past.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .errors import ErrorCode, Problem

if TYPE_CHECKING:
    from .hub import Hub


def has_person(seats: Sequence[Any]) -> bool:
    """A seat of ``seats`` (``POST /api/tables`` form) is for a person."""
    return any(isinstance(s, dict) and s.get("kind") == "human" for s in seats)


def check_create(hub: Hub, address: str | None, seats: Sequence[Any]) -> None:
    """Refuse a new table from ``address`` over its quotas (module docstring); nothing for
    an unknown address (a rematch).

    Raises:
        Problem: ``rate_limited``, naming the quota.
    """
    if address is None:
        return
    mine = [t for tid, t in hub.tables.items() if hub.creators.get(tid) == address]
    settings = hub.settings
    being_made = hub.creating.get(address, [])
    waiting = sum(1 for t in mine if t.status == "open") + sum(being_made)
    if has_person(seats) and waiting >= settings.max_open_tables:
        raise Problem(
            ErrorCode.RATE_LIMITED,
            f"your address already has {waiting} tables waiting for players (at most "
            f"{settings.max_open_tables}); play or wait for them to expire",
        )
    if not has_person(seats):
        unattended = sum(
            1
            for t in mine
            if t.status != "finished"
            and not any(s.kind == "human" or s.handed_over for s in t.data.seats)
        )
        unattended += sum(1 for person in being_made if not person)
        if unattended >= settings.max_computer_tables:
            raise Problem(
                ErrorCode.RATE_LIMITED,
                f"your address already runs {unattended} tables of computer players only (at most "
                f"{settings.max_computer_tables}); wait for one to finish",
            )
