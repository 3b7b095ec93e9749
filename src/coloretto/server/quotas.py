"""Per-address quotas on creating tables (``check_create``), so one address cannot fill the
lobby or keep the computer players busy for everyone:

* at most ``Settings.max_open_tables`` tables waiting for players (status ``open``);
* at most ``Settings.max_computer_tables`` unfinished tables without a human seat (computer
  players only: they play on with nobody watching).

Counted in the store (``TableStore.creator_counts``, by the ``store.address_key`` of the
address), so every server process sharing the store applies the same count, also to tables
no longer held in memory. Within one process, creations from one address run one at a time
(``Hub.creation_lock``), so simultaneous requests cannot slip past. Two server processes
creating for the same address at the same instant may each pass a count taken before the
other's insert: at most one table per process over the quota.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .errors import ErrorCode, Problem
from .store import address_key

if TYPE_CHECKING:
    from .hub import Hub


def has_person(seats: Sequence[Any]) -> bool:
    """A seat of ``seats`` (``POST /api/tables`` form) is for a person."""
    return any(isinstance(s, dict) and s.get("kind") == "human" for s in seats)


async def check_create(hub: Hub, address: str | None, seats: Sequence[Any]) -> None:
    """Refuse a new table from ``address`` over its quotas (module docstring); nothing for
    an unknown address (a rematch). The caller holds ``hub.creation_lock(address)`` until the
    table is stored, so this process's simultaneous requests are counted one after another.

    Raises:
        Problem: ``rate_limited``, naming the quota.
    """
    if address is None:
        return
    settings = hub.settings
    counts = await hub.store.creator_counts(address_key(address))
    if has_person(seats) and counts.waiting >= settings.max_open_tables:
        raise Problem(
            ErrorCode.RATE_LIMITED,
            f"your address already has {counts.waiting} tables waiting for players (at most "
            f"{settings.max_open_tables}); play or wait for them to expire",
        )
    if not has_person(seats) and counts.unattended >= settings.max_computer_tables:
        raise Problem(
            ErrorCode.RATE_LIMITED,
            f"your address already runs {counts.unattended} tables of computer players only (at most "
            f"{settings.max_computer_tables}); wait for one to finish",
        )
