"""Storage: engine set-up, Alembic upgrade, and the few transactions the server needs.

All functions here are synchronous (SQLAlchemy 2 Core); the application runs them on a
worker thread. Every write that changes a game is one transaction guarded by the table's
``version`` (optimistic concurrency), so two server processes can never both accept an
action at the same position: the loser's ``UPDATE ... WHERE version = n`` matches no row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, func, insert, select, text, update

from .models import ActionRow, ResultRow, SeatRow, TableRow

MIGRATIONS_DIR = Path(__file__).with_name("migrations")


def now() -> datetime:
    """The current UTC time (timezone-aware)."""
    return datetime.now(UTC)


def token_hash(token: str) -> str:
    """SHA-256 hex digest of a seat token (only the hash is stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url``. SQLite runs in WAL mode with ``synchronous=NORMAL``:
    a committed transaction survives the server process being killed (SIGKILL), which is
    the durability the issue asks for (not power loss; use PostgreSQL for that)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


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


@dataclass
class SeatData:
    """A seat as stored."""

    seat: int
    kind: str
    name: str | None
    agent: str | None
    token_hash: str | None
    handed_over: bool


@dataclass
class TableData:
    """A table as stored, with its accepted actions (engine codes, in order)."""

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
                    created_at=t.created_at, finished_at=None, rematch_id=None,
                )
            )
            conn.execute(
                insert(SeatRow),
                [
                    {"table_id": t.id, "seat": s.seat, "kind": s.kind, "name": s.name, "agent": s.agent,
                     "token_hash": s.token_hash, "handed_over": s.handed_over}
                    for s in t.seats
                ],
            )

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
        data = TableData(**{k: row[k] for k in TableData.__dataclass_fields__ if k not in ("seats", "codes")})
        data.seats = [SeatData(s["seat"], s["kind"], s["name"], s["agent"], s["token_hash"], s["handed_over"]) for s in seats]
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
        return row[0], row[1], [SeatData(s["seat"], s["kind"], s["name"], s["agent"], s["token_hash"], s["handed_over"]) for s in seats]

    def table_ids(self, statuses: Sequence[str], limit: int) -> list[str]:
        """Ids of tables in ``statuses``, newest first."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(TableRow.id).where(TableRow.status.in_(statuses)).order_by(TableRow.created_at.desc()).limit(limit)
                ).scalars()
            )

    def actions_since(self, table_id: str, start: int) -> list[int]:
        """Action codes with index >= ``start``, in order."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(ActionRow.code).where(ActionRow.table_id == table_id, ActionRow.idx >= start).order_by(ActionRow.idx)
                ).scalars()
            )

    # ----- seats ----------------------------------------------------------------------------
    def take_seat(self, table_id: str, seat: int, name: str, thash: str) -> str | None:
        """Give the open ``seat`` to ``name``. Returns the table's status afterwards
        (``playing`` when this filled the last open seat), or None if the seat was not open
        or the table not open (a concurrent join won)."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "open")
                .values(kind="human", name=name, token_hash=thash)
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

    def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` unless one is recorded already; return the recorded one."""
        with self.engine.begin() as conn:
            conn.execute(
                update(TableRow).where(TableRow.id == table_id, TableRow.rematch_id.is_(None)).values(rematch_id=rematch_id)
            )
            return str(conn.execute(select(TableRow.rematch_id).where(TableRow.id == table_id)).scalar_one())

    # ----- actions --------------------------------------------------------------------------
    def append_actions(self, batch: Sequence[tuple[str, int, int, int, list[dict[str, Any]] | None]]) -> list[bool]:
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

    def _append_bulk_pg(self, batch: Sequence[tuple[str, int, int, int, list[dict[str, Any]] | None]], stamp: datetime) -> list[bool]:
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
        self, table_id: str, version: int, seat: int, code: int, results: list[dict[str, Any]] | None = None
    ) -> bool:
        """One action (see ``append_actions``); False when another writer got there first."""
        return self.append_actions([(table_id, version, seat, code, results)])[0]

    # ----- leaderboard ----------------------------------------------------------------------
    def rated_results(self) -> list[tuple[str, int, str, str, int, int]]:
        """``(table_id, seat, name, kind, score, rank)`` of rated finished games, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ResultRow.table_id, ResultRow.seat, ResultRow.name, ResultRow.kind, ResultRow.score, ResultRow.rank)
                .join(TableRow, TableRow.id == ResultRow.table_id)
                .where(TableRow.rated.is_(True))
                .order_by(ResultRow.finished_at, ResultRow.table_id, ResultRow.seat)
            ).all()
        return [tuple(r) for r in rows]  # type: ignore[misc]

    def results_count(self) -> int:
        """Number of stored result rows (a cache key for the leaderboard)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(ResultRow)).scalar_one())
