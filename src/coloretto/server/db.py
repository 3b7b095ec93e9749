"""The SQL table store (SQLite or PostgreSQL, SQLAlchemy 2 Core): engine set-up, Alembic
upgrade, the few transactions the server needs (``Store``, synchronous) and
``SqlTableStore``, the ``store.TableStore`` that runs them on worker threads.

Every write that changes a game is one transaction guarded by the table's ``version``
(optimistic concurrency), so two server processes can never both accept an action at the
same position: the loser's ``UPDATE ... WHERE version = n`` matches no row.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Engine,
    case,
    create_engine,
    event,
    exists,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from .accounts import AccountStore, SqlAccountStore
from .models import ActionRow, ResultRow, SeatRow, TableRow
from .store import (
    LIVE_STATUSES,
    CreatorCounts,
    RatedResult,
    ResultRows,
    SeatData,
    TableData,
    now,
    token_hash,
)

__all__ = ["SeatData", "SqlTableStore", "Store", "TableData", "make_engine", "now", "token_hash", "upgrade"]

log = logging.getLogger("coloretto.server")
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
T = TypeVar("T")
PendingAction = tuple[str, int, int, int, ResultRows | None]
"""``(table_id, version, seat, code, results)``: one action to commit (``Store.append_actions``)."""


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url``. SQLite runs in WAL mode with ``synchronous=NORMAL``:
    a committed transaction survives the server process being killed (SIGKILL), though not
    a power loss (use PostgreSQL for that)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        _create_private(engine.url.database)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def _create_private(path: str | None) -> None:
    """Create the SQLite file ``path`` readable and writable by its owner only (0600) if it
    does not exist yet: it holds live games' draw piles and the seat tokens' hashes. (SQLite
    gives its ``-wal`` and ``-shm`` files the same permissions.) Nothing for an in-memory
    database."""
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError:  # e.g. a missing folder: connecting reports it
        return
    os.close(fd)


def upgrade(engine: Engine) -> None:
    """Run the Alembic migrations to ``head`` (idempotent). On PostgreSQL an advisory lock
    makes concurrent start-ups of several processes safe."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(4242001)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def _seat(s: Any) -> SeatData:
    """A ``seats`` row (mapping) as ``SeatData``."""
    return SeatData(s["seat"], s["kind"], s["name"], s["agent"], s["token_hash"], s["handed_over"], s["account_id"])


def _utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC time (every time is stored in UTC; a naive one is UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class Store:
    """The server's transactions on one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    # ----- tables ---------------------------------------------------------------------------
    def create_table(self, t: TableData) -> None:
        """Insert a new table with its seats."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(TableRow).values(
                    id=t.id, title=t.title, status=t.status, rules=t.rules, preset=t.preset,
                    hints=t.hints, rated=t.rated, seed=t.seed, setup=t.setup, version=0,
                    created_at=t.created_at, finished_at=None, rematch_id=None, options=t.options,
                    creator=t.creator,
                )
            )
            conn.execute(
                insert(SeatRow),
                [
                    {"table_id": t.id, "seat": s.seat, "kind": s.kind, "name": s.name, "agent": s.agent,
                     "token_hash": s.token_hash, "handed_over": s.handed_over, "account_id": s.account_id}
                    for s in t.seats
                ],
            )

    def creator_counts(self, creator: str) -> CreatorCounts:
        """The tables of ``creator`` that its quotas count (``store.CreatorCounts``)."""
        person = exists().where(
            SeatRow.table_id == TableRow.id, or_(SeatRow.kind == "human", SeatRow.handed_over.is_(True))
        )
        query = select(
            func.coalesce(func.sum(case((TableRow.status == "open", 1), else_=0)), 0),
            func.coalesce(func.sum(case((~person, 1), else_=0)), 0),
        ).where(TableRow.creator == creator, TableRow.status.in_(LIVE_STATUSES))
        with self.engine.connect() as conn:
            waiting, unattended = conn.execute(query).one()
        return CreatorCounts(waiting=waiting, unattended=unattended)

    def load_table(self, table_id: str) -> TableData | None:
        """The table with its seats and actions, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(TableRow.__table__).where(TableRow.id == table_id)).mappings().first()
            if row is None:
                return None
            seats = conn.execute(
                select(SeatRow.__table__).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            ).mappings().all()
            codes = conn.execute(
                select(ActionRow.code).where(ActionRow.table_id == table_id).order_by(ActionRow.idx)
            ).scalars().all()
        data = TableData(**{k: row[k] for k in TableData.__dataclass_fields__ if k not in ("seats", "codes", "options")})
        data.options = dict(row["options"] or {})
        # SQLite hands back the stored UTC times without their zone
        data.created_at = _utc(data.created_at)
        data.finished_at = None if data.finished_at is None else _utc(data.finished_at)
        data.seats = [_seat(s) for s in seats]
        data.codes = list(codes)
        return data

    def load_seats(self, table_id: str) -> tuple[str, str | None, list[SeatData]]:
        """``(status, rematch_id, seats)`` of a table."""
        with self.engine.connect() as conn:
            row = conn.execute(select(TableRow.status, TableRow.rematch_id).where(TableRow.id == table_id)).first()
            seats = conn.execute(
                select(SeatRow.__table__).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            ).mappings().all()
        assert row is not None
        return row[0], row[1], [_seat(s) for s in seats]

    def table_ids(self, statuses: Sequence[str], limit: int, offset: int = 0) -> list[str]:
        """Ids of tables in ``statuses``, newest first, from the ``offset``-th on."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(TableRow.id).where(TableRow.status.in_(statuses))
                    .order_by(TableRow.created_at.desc(), TableRow.id).offset(offset).limit(limit)
                ).scalars()
            )

    def expire_table(self, table_id: str) -> bool:
        """Mark the table ``expired`` if it is still ``open``; True if it was."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(TableRow).where(TableRow.id == table_id, TableRow.status == "open").values(status="expired")
            )
            return bool(done.rowcount)

    def actions_since(self, table_id: str, start: int) -> list[int]:
        """Action codes with index >= ``start``, in order."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(ActionRow.code).where(ActionRow.table_id == table_id, ActionRow.idx >= start).order_by(ActionRow.idx)
                ).scalars()
            )

    # ----- seats ----------------------------------------------------------------------------
    def take_seat(self, table_id: str, seat: int, name: str, thash: str, account_id: int | None = None) -> str | None:
        """Give the open ``seat`` to ``name`` (``account_id``: at a rated table). Returns the
        table's status afterwards (``playing`` when this filled the last open seat), or None
        if the seat was not open, the table not open (a concurrent join won) or the account
        holds another seat of the table (the unique ``(table_id, account_id)``)."""
        try:
            return self._take_seat(table_id, seat, name, thash, account_id)
        except IntegrityError:
            return None

    def _take_seat(self, table_id: str, seat: int, name: str, thash: str, account_id: int | None) -> str | None:
        with self.engine.begin() as conn:
            res = conn.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "open")
                .values(kind="human", name=name, token_hash=thash, account_id=account_id)
            )
            if res.rowcount != 1:
                return None
            status = conn.execute(select(TableRow.status).where(TableRow.id == table_id)).scalar_one()
            if status != "open":
                conn.rollback()
                return None
            still_open = conn.execute(
                select(func.count()).select_from(SeatRow).where(SeatRow.table_id == table_id, SeatRow.kind == "open")
            ).scalar_one()
            if still_open == 0:
                conn.execute(update(TableRow).where(TableRow.id == table_id, TableRow.status == "open").values(status="playing"))
                return "playing"
            return "open"

    def set_seat_control(self, table_id: str, seat: int, kind: str, agent: str | None, handed_over: bool) -> None:
        """Hand a seat to a computer player (``kind="computer"``) or back to its person."""
        with self.engine.begin() as conn:
            conn.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(kind=kind, agent=agent, handed_over=handed_over)
            )

    def reissue_token(self, table_id: str, seat: int, name: str, thash: str) -> bool:
        """See ``store.TableStore.reissue_token``."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.name == name,
                    or_(SeatRow.kind == "human", SeatRow.handed_over.is_(True)),
                )
                .values(token_hash=thash)
            )
            return bool(res.rowcount == 1)

    def set_options(self, table_id: str, options: dict[str, Any]) -> None:
        """Replace the table's ``options``."""
        with self.engine.begin() as conn:
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(options=options))

    def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` unless one is recorded already; return the recorded one."""
        with self.engine.begin() as conn:
            conn.execute(
                update(TableRow).where(TableRow.id == table_id, TableRow.rematch_id.is_(None)).values(rematch_id=rematch_id)
            )
            return str(conn.execute(select(TableRow.rematch_id).where(TableRow.id == table_id)).scalar_one())

    # ----- actions --------------------------------------------------------------------------
    def append_actions(self, batch: Sequence[PendingAction]) -> list[bool]:
        """Commit a batch of actions in ONE transaction (group commit). Each item is
        ``(table_id, version, seat, code, results)``: action number ``version`` (0-based) of
        the table, accepted only if the table is still at ``version`` and playing (the
        optimistic-concurrency guard); with ``results`` (the game ended with this action)
        the table is marked finished and the results stored.

        Returns, per item, whether it was accepted. A refused item changes nothing (its
        guarded ``UPDATE`` matched no row, so nothing else of it is written).
        """
        stamp = now()
        out: list[bool] = []
        if self.dialect == "postgresql" and len(batch) > 1 and len({b[0] for b in batch}) == len(batch):
            return self._append_bulk_pg(batch, stamp)
        with self.engine.begin() as conn:
            for table_id, version, seat, code, results in batch:
                values: dict[str, Any] = {"version": version + 1}
                if results is not None:
                    values.update(status="finished", finished_at=stamp)
                res = conn.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.version == version, TableRow.status == "playing")
                    .values(**values)
                )
                if res.rowcount != 1:
                    out.append(False)
                    continue
                conn.execute(insert(ActionRow).values(table_id=table_id, idx=version, seat=seat, code=code, created_at=stamp))
                if results:
                    conn.execute(insert(ResultRow), [dict(r, table_id=table_id, finished_at=stamp) for r in results])
                out.append(True)
        return out

    def _append_bulk_pg(self, batch: Sequence[PendingAction], stamp: datetime) -> list[bool]:
        """``append_actions`` on PostgreSQL in a constant number of round trips: one guarded
        ``UPDATE ... FROM unnest(...)`` moves every table's version, one multi-row INSERT
        stores the accepted actions (batch items name distinct tables)."""
        ids = [b[0] for b in batch]
        versions = [b[1] for b in batch]
        finishing = [b[4] is not None for b in batch]
        with self.engine.begin() as conn:
            rows = conn.execute(
                text(
                    "UPDATE tables AS t SET version = t.version + 1, "
                    "status = CASE WHEN b.fin THEN 'finished' ELSE t.status END, "
                    "finished_at = CASE WHEN b.fin THEN CAST(:stamp AS timestamptz) ELSE t.finished_at END "
                    "FROM (SELECT unnest(CAST(:ids AS varchar[])) AS id, unnest(CAST(:vers AS int[])) AS v, "
                    "unnest(CAST(:fins AS boolean[])) AS fin) AS b "
                    "WHERE t.id = b.id AND t.version = b.v AND t.status = 'playing' RETURNING t.id"
                ),
                {"ids": ids, "vers": versions, "fins": finishing, "stamp": stamp},
            ).scalars().all()
            accepted = set(rows)
            good = [b for b in batch if b[0] in accepted]
            if good:
                conn.execute(
                    insert(ActionRow),
                    [{"table_id": b[0], "idx": b[1], "seat": b[2], "code": b[3], "created_at": stamp} for b in good],
                )
            results = [dict(r, table_id=b[0], finished_at=stamp) for b in good if b[4] for r in b[4]]
            if results:
                conn.execute(insert(ResultRow), results)
        return [b[0] in accepted for b in batch]

    def append_action(
        self, table_id: str, version: int, seat: int, code: int, results: ResultRows | None = None
    ) -> bool:
        """One action (see ``append_actions``); False when another writer got there first."""
        return self.append_actions([(table_id, version, seat, code, results)])[0]

    # ----- leaderboard ----------------------------------------------------------------------
    def rated_results(self) -> list[RatedResult]:
        """``(table_id, seat, name, kind, score, rank, account_id)`` of rated finished games,
        oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ResultRow.table_id, ResultRow.seat, ResultRow.name, ResultRow.kind, ResultRow.score, ResultRow.rank,
                       ResultRow.account_id)
                .join(TableRow, TableRow.id == ResultRow.table_id)
                .where(TableRow.rated.is_(True))
                .order_by(ResultRow.finished_at, ResultRow.table_id, ResultRow.seat)
            ).all()
        return [(table_id, seat, name, kind, score, rank, account) for table_id, seat, name, kind, score, rank, account in rows]

    def results_count(self) -> int:
        """Number of stored result rows (a cache key for the leaderboard)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(ResultRow)).scalar_one())


class SqlTableStore:
    """``store.TableStore`` on a SQL database: ``Store``'s transactions run on worker threads
    (one for SQLite, whose writes serialise anyway; eight for PostgreSQL), and actions are
    group-committed: those arriving while a transaction is being written are committed
    together in the next one (``Store.append_actions``)."""

    BATCH = 500
    """Most actions per group commit."""

    def __init__(self, url: str, threads: int | None = None) -> None:
        """Connect lazily to ``url`` (a SQLAlchemy URL, ``config.normalize_database_url``)."""
        self.engine = make_engine(url)
        self.sync = Store(self.engine)
        self.accounts: AccountStore = SqlAccountStore(self.engine, self._run)
        sqlite = self.engine.dialect.name == "sqlite"
        self._pool = ThreadPoolExecutor(threads or (1 if sqlite else 8), thread_name_prefix="db")
        self._pending: list[tuple[PendingAction, asyncio.Future[bool]]] = []
        self._committer: asyncio.Task[None] | None = None

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.sync.dialect

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def open(self) -> None:
        """Create or migrate the schema (``upgrade``)."""
        await self._run(upgrade, self.engine)

    async def close(self) -> None:
        """Finish the running transactions, then close the pool and the connections."""
        self._pool.shutdown(wait=True)
        self.engine.dispose()

    async def create_table(self, table: TableData) -> None:
        """See ``store.TableStore.create_table``."""
        await self._run(self.sync.create_table, table)

    async def creator_counts(self, creator: str) -> CreatorCounts:
        """See ``store.TableStore.creator_counts``."""
        return await self._run(self.sync.creator_counts, creator)

    async def load_table(self, table_id: str) -> TableData | None:
        """See ``store.TableStore.load_table``."""
        return await self._run(self.sync.load_table, table_id)

    async def load_seats(self, table_id: str) -> tuple[str, str | None, list[SeatData]]:
        """See ``store.TableStore.load_seats``."""
        return await self._run(self.sync.load_seats, table_id)

    async def table_ids(self, statuses: Sequence[str], limit: int, offset: int = 0) -> list[str]:
        """See ``store.TableStore.table_ids``."""
        return await self._run(self.sync.table_ids, statuses, limit, offset)

    async def expire_table(self, table_id: str) -> bool:
        """See ``store.TableStore.expire_table``."""
        return await self._run(self.sync.expire_table, table_id)

    async def actions_since(self, table_id: str, start: int) -> list[int]:
        """See ``store.TableStore.actions_since``."""
        return await self._run(self.sync.actions_since, table_id, start)

    async def take_seat(self, table_id: str, seat: int, name: str, thash: str, account_id: int | None = None) -> str | None:
        """See ``store.TableStore.take_seat``."""
        return await self._run(self.sync.take_seat, table_id, seat, name, thash, account_id)

    async def set_seat_control(self, table_id: str, seat: int, kind: str, agent: str | None, handed_over: bool) -> None:
        """See ``store.TableStore.set_seat_control``."""
        await self._run(self.sync.set_seat_control, table_id, seat, kind, agent, handed_over)

    async def reissue_token(self, table_id: str, seat: int, name: str, thash: str) -> bool:
        """See ``store.TableStore.reissue_token``."""
        return bool(await self._run(self.sync.reissue_token, table_id, seat, name, thash))

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """See ``store.TableStore.set_rematch``."""
        return await self._run(self.sync.set_rematch, table_id, rematch_id)

    async def set_options(self, table_id: str, options: dict[str, Any]) -> None:
        """See ``store.TableStore.set_options``."""
        await self._run(self.sync.set_options, table_id, options)

    async def rated_results(self) -> list[RatedResult]:
        """See ``store.TableStore.rated_results``."""
        return await self._run(self.sync.rated_results)

    async def results_count(self) -> int:
        """See ``store.TableStore.results_count``."""
        return await self._run(self.sync.results_count)

    async def append_action(
        self, table_id: str, version: int, seat: int, code: int, results: ResultRows | None = None
    ) -> bool:
        """See ``store.TableStore.append_action``; committed through the group committer.

        Raises:
            SQLAlchemyError: the transaction failed (every action of its batch gets it).
        """
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append(((table_id, version, seat, code, results), fut))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_loop())
        return await fut

    async def _commit_loop(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[: self.BATCH], self._pending[self.BATCH :]
            started = time.perf_counter()
            try:
                ok = await self._run(self.sync.append_actions, [item for item, _ in batch])
            except Exception as exc:  # noqa: BLE001 - handed to every waiting action (each re-raises it)
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            took = time.perf_counter() - started
            if took > 0.2:
                log.warning("slow commit: %d action(s) took %.0f ms", len(batch), took * 1000)
            for (_, fut), accepted in zip(batch, ok):
                if not fut.done():
                    fut.set_result(accepted)
