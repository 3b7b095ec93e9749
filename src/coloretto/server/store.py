"""The table store: what the server keeps of every table, as a protocol with two
implementations, the SQL one (``db.SqlTableStore``: SQLite or PostgreSQL) and
``MemoryTableStore`` (one process, nothing kept after it ends; tests and trials).

Every write that changes a game is guarded by the table's ``version`` (optimistic
concurrency): ``append_action`` accepts action number ``version`` only while the table is
still at ``version`` and playing, so two hubs sharing one store can never both accept an
action at the same position. Both implementations keep that guarantee.
"""

from __future__ import annotations

import copy
import hashlib
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .accounts import AccountStore

ResultRows = list[dict[str, Any]]
"""A finished game's results, one dict per seat: ``seat``, ``name``, ``kind`` (``human`` or
``computer``), ``score``, ``rank``, ``account_id`` (the seat's account at a rated table, or
None)."""

RatedResult = tuple[str, int, str, str, int, int, int | None]
"""``(table_id, seat, name, kind, score, rank, account_id)`` of one seat of a rated finished
game."""


def now() -> datetime:
    """The current UTC time (timezone-aware)."""
    return datetime.now(UTC)


def new_seat_token() -> str:
    """A fresh seat token: 32 URL-safe characters (``secrets.token_urlsafe(24)``), never
    starting with ``-``, so that it can follow an option on a command line
    (``coloretto connect URL --token TOKEN``) without being read as an option itself."""
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith("-"):
            return token


def token_hash(token: str) -> str:
    """SHA-256 hex digest of a seat token (only the hash is stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


LIVE_STATUSES = ("open", "playing")
"""Statuses of the tables that are not over (``finished``, ``expired``)."""


def address_key(address: str) -> str:
    """SHA-256 hex digest of a client address: the ``creator`` of the tables it creates (the
    quotas count by it; the address itself is not stored)."""
    return hashlib.sha256(address.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CreatorCounts:
    """The tables of one creator that its quotas count (``quotas.check_create``).

    Attributes:
        waiting: tables in status ``open`` (waiting for players).
        unattended: tables ``open`` or ``playing`` with no seat of a person (kind ``human``
            or handed over to a computer).
    """

    waiting: int
    unattended: int


@dataclass
class SeatData:
    """A seat as stored. ``kind``: ``open`` (nobody yet), ``human`` or ``computer``;
    ``agent``: the computer player's spec; ``handed_over``: a person's seat now played by a
    computer player; ``account_id``: the account holding the seat of a rated game (one seat
    per account and table), else None."""

    seat: int
    kind: str
    name: str | None
    agent: str | None
    token_hash: str | None
    handed_over: bool
    account_id: int | None = None


@dataclass
class TableData:
    """A table as stored, with its accepted actions (engine codes, in order).

    ``status`` is ``open``, ``playing``, ``finished`` or ``expired`` (an open table nobody
    came to, ``expiry``); ``setup`` holds the secret deal
    (``coloretto-record/1`` setups); ``version`` is the number of accepted actions;
    ``options`` the table's options besides the rules (``newtable.table_options``: private,
    host, time control) and the indices of the actions a clock's computer played
    (``timeouts``); ``creator`` the ``address_key`` of the address that created it (None for
    a rematch or a table made by the server).
    """

    id: str
    title: str
    status: str
    rules: dict[str, Any]
    preset: str | None
    hints: bool
    rated: bool
    seed: int
    setup: list[Any]
    version: int
    created_at: datetime
    finished_at: datetime | None
    rematch_id: str | None
    seats: list[SeatData] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    creator: str | None = None


class TableStore(Protocol):
    """Where tables, their actions and the results live. All methods are coroutines; an
    implementation runs blocking work off the event loop itself. Objects returned are the
    caller's own (changing them changes nothing stored). ``accounts`` keeps the accounts
    in the same place (``accounts.AccountStore``)."""

    accounts: AccountStore

    @property
    def dialect(self) -> str:
        """``sqlite``, ``postgresql`` or ``memory`` (reported by ``/api/health``)."""
        ...

    async def open(self) -> None:
        """Make the store ready (the SQL store creates or migrates its schema)."""
        ...

    async def close(self) -> None:
        """Release connections and threads. Idempotent."""
        ...

    async def create_table(self, table: TableData) -> None:
        """Store a new table with its seats (no actions yet)."""
        ...

    async def load_table(self, table_id: str) -> TableData | None:
        """The table with its seats and actions, or None."""
        ...

    async def creator_counts(self, creator: str) -> CreatorCounts:
        """The tables of ``creator`` (an ``address_key``) that its quotas count, over every
        server process that shares this store."""
        ...

    async def load_seats(self, table_id: str) -> tuple[str, str | None, list[SeatData]]:
        """``(status, rematch_id, seats)`` of an existing table."""
        ...

    async def table_ids(self, statuses: Sequence[str], limit: int, offset: int = 0) -> list[str]:
        """Ids of at most ``limit`` tables in ``statuses``, newest first."""
        ...

    async def expire_table(self, table_id: str) -> bool:
        """Mark the table ``expired`` if it is still ``open`` (nobody took its last seat
        meanwhile); True if it was. An expired table is in no lobby and takes no players."""
        ...

    async def actions_since(self, table_id: str, start: int) -> list[int]:
        """Action codes from index ``start`` on, in order."""
        ...

    async def take_seat(self, table_id: str, seat: int, name: str, thash: str, account_id: int | None = None) -> str | None:
        """Give the open ``seat`` of an open table to ``name`` (token hash ``thash``;
        ``account_id`` at a rated table). Returns the table's status afterwards (``playing``
        when this filled the last open seat), or None when the seat or the table was no
        longer open, or the account holds another seat of the table (nothing changed)."""
        ...

    async def set_seat_control(self, table_id: str, seat: int, kind: str, agent: str | None, handed_over: bool) -> None:
        """Hand a seat to a computer player (``kind="computer"``) or back to its person."""
        ...

    async def reissue_token(self, table_id: str, seat: int, name: str, thash: str) -> bool:
        """Give the person's ``seat`` held under ``name`` (a ``human`` seat, or one handed to a
        computer player) the token hash ``thash`` instead of its old one. Returns False, with
        nothing changed, when the seat is not such a seat of that name."""
        ...

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` unless one is recorded already; return the recorded one."""
        ...

    async def set_options(self, table_id: str, options: dict[str, Any]) -> None:
        """Replace the table's ``options`` (``TableData.options``)."""
        ...

    async def append_action(
        self, table_id: str, version: int, seat: int, code: int, results: ResultRows | None = None
    ) -> bool:
        """Accept action number ``version`` (0-based) of the table, only if the table is
        still at ``version`` and playing; with ``results`` (the action ended the game) the
        table is finished and the results stored. Returns whether it was accepted; a refused
        action changes nothing."""
        ...

    async def rated_results(self) -> list[RatedResult]:
        """The results of rated finished games, oldest first (by table, then seat)."""
        ...

    async def results_count(self) -> int:
        """Number of stored result rows (a cache key for the leaderboard)."""
        ...


class MemoryTableStore:
    """``TableStore`` in this process's memory. Safe to share between hubs running on
    different threads (each call holds a lock for a few dict operations), so several hubs
    in one process can play the part of several server processes sharing a database."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, TableData] = {}
        self._results: list[tuple[datetime, RatedResult]] = []
        from .accounts import MemoryAccountStore  # here: accounts imports this module

        self.accounts: AccountStore = MemoryAccountStore()

    @property
    def dialect(self) -> str:
        """Always ``memory``."""
        return "memory"

    async def open(self) -> None:
        """Nothing to prepare."""

    async def close(self) -> None:
        """Nothing to release (the tables stay, so a new hub can continue them)."""

    async def create_table(self, table: TableData) -> None:
        """See ``TableStore.create_table``."""
        with self._lock:
            if table.id in self._tables:
                raise ValueError(f"table {table.id!r} exists already")
            stored = copy.deepcopy(table)
            stored.version, stored.codes, stored.finished_at, stored.rematch_id = 0, [], None, None
            self._tables[table.id] = stored

    async def creator_counts(self, creator: str) -> CreatorCounts:
        """See ``TableStore.creator_counts``."""
        with self._lock:
            mine = [t for t in self._tables.values() if t.creator == creator and t.status in LIVE_STATUSES]
            return CreatorCounts(
                waiting=sum(1 for t in mine if t.status == "open"),
                unattended=sum(1 for t in mine if not any(s.kind == "human" or s.handed_over for s in t.seats)),
            )

    async def load_table(self, table_id: str) -> TableData | None:
        """See ``TableStore.load_table``."""
        with self._lock:
            t = self._tables.get(table_id)
            return copy.deepcopy(t) if t is not None else None

    async def load_seats(self, table_id: str) -> tuple[str, str | None, list[SeatData]]:
        """See ``TableStore.load_seats``."""
        with self._lock:
            t = self._tables[table_id]
            return t.status, t.rematch_id, copy.deepcopy(t.seats)

    async def table_ids(self, statuses: Sequence[str], limit: int, offset: int = 0) -> list[str]:
        """See ``TableStore.table_ids`` (ties in ``created_at``: last created first)."""
        with self._lock:
            found = [t for t in reversed(self._tables.values()) if t.status in statuses]
        found.sort(key=lambda t: t.created_at, reverse=True)
        return [t.id for t in found[offset:offset + limit]]

    async def expire_table(self, table_id: str) -> bool:
        """See ``TableStore.expire_table``."""
        with self._lock:
            t = self._tables.get(table_id)
            if t is None or t.status != "open":
                return False
            t.status = "expired"
            return True

    async def actions_since(self, table_id: str, start: int) -> list[int]:
        """See ``TableStore.actions_since``."""
        with self._lock:
            t = self._tables.get(table_id)
            return list(t.codes[start:]) if t is not None else []

    async def take_seat(self, table_id: str, seat: int, name: str, thash: str, account_id: int | None = None) -> str | None:
        """See ``TableStore.take_seat``."""
        with self._lock:
            t = self._tables.get(table_id)
            if t is None or t.status != "open" or not 0 <= seat < len(t.seats) or t.seats[seat].kind != "open":
                return None
            if account_id is not None and any(x.account_id == account_id for x in t.seats):
                return None
            s = t.seats[seat]
            s.kind, s.name, s.token_hash, s.account_id = "human", name, thash, account_id
            if all(x.kind != "open" for x in t.seats):
                t.status = "playing"
            return t.status

    async def set_seat_control(self, table_id: str, seat: int, kind: str, agent: str | None, handed_over: bool) -> None:
        """See ``TableStore.set_seat_control``."""
        with self._lock:
            s = self._tables[table_id].seats[seat]
            s.kind, s.agent, s.handed_over = kind, agent, handed_over

    async def reissue_token(self, table_id: str, seat: int, name: str, thash: str) -> bool:
        """See ``TableStore.reissue_token``."""
        with self._lock:
            t = self._tables.get(table_id)
            if t is None or not 0 <= seat < len(t.seats):
                return False
            s = t.seats[seat]
            if s.name != name or not (s.kind == "human" or s.handed_over):
                return False
            s.token_hash = thash
            return True

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """See ``TableStore.set_rematch``."""
        with self._lock:
            t = self._tables[table_id]
            if t.rematch_id is None:
                t.rematch_id = rematch_id
            return t.rematch_id

    async def set_options(self, table_id: str, options: dict[str, Any]) -> None:
        """See ``TableStore.set_options``."""
        with self._lock:
            self._tables[table_id].options = copy.deepcopy(options)

    async def append_action(
        self, table_id: str, version: int, seat: int, code: int, results: ResultRows | None = None
    ) -> bool:
        """See ``TableStore.append_action``."""
        with self._lock:
            t = self._tables.get(table_id)
            if t is None or t.status != "playing" or t.version != version:
                return False
            t.codes.append(code)
            t.version += 1
            if results is not None:
                stamp = now()
                t.status, t.finished_at = "finished", stamp
                for r in results:
                    self._results.append((stamp, (table_id, r["seat"], r["name"], r["kind"], r["score"], r["rank"],
                                                  r.get("account_id"))))
            return True

    async def rated_results(self) -> list[RatedResult]:
        """See ``TableStore.rated_results``."""
        with self._lock:
            rows = [(stamp, row) for stamp, row in self._results if self._tables[row[0]].rated]
        rows.sort(key=lambda x: (x[0], x[1][0], x[1][1]))
        return [row for _, row in rows]

    async def results_count(self) -> int:
        """See ``TableStore.results_count``."""
        with self._lock:
            return len(self._results)
