"""Server settings (command-line flags of ``coloretto serve`` and their defaults)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .timecontrol import MOVE_CLOCKS

DEFAULT_DATABASE_URL = "sqlite:///./coloretto.db"


def normalize_database_url(url: str) -> str:
    """Accept a plain file path (``./coloretto.db``), ``sqlite:///...``, ``postgresql://...``
    or ``postgresql+psycopg://...``; return a SQLAlchemy URL (PostgreSQL via psycopg 3).

    Raises:
        ValueError: an unsupported scheme (only SQLite and PostgreSQL are supported).
    """
    url = url.strip()
    if not url:
        raise ValueError("the database URL is empty")
    if "://" not in url:
        return "sqlite:///" + url
    scheme = url.split("://", 1)[0]
    if scheme in ("postgresql", "postgres"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if scheme in ("postgresql+psycopg", "sqlite", "sqlite+pysqlite"):
        return url
    raise ValueError(f"unsupported database URL scheme {scheme!r}: use a SQLite file path, sqlite:///FILE or postgresql://...")


@dataclass
class Settings:
    """Everything the application needs to know at start-up.

    Attributes:
        database_url: SQLAlchemy URL (see ``normalize_database_url``).
        redis_url: ``redis://host:port/db`` to share table updates between processes, or None.
        computer_delay: seconds a computer player waits before acting (so people can follow).
        handover_after: seconds a person must be disconnected before others may hand the
            seat to a computer player.
        ip_rate, ip_burst: per-IP HTTP requests per second and burst.
        ws_rate, ws_burst: per-connection WebSocket messages per second and burst.
        max_ws_per_ip: open WebSocket connections per IP address.
        max_message_bytes: largest accepted WebSocket message (larger: ``too_large`` error).
        agent_processes: worker processes that run computer players and hints (threads in
            an in-memory hub).
        decision_seconds: longest time one computer decision or hint may take once it runs
            (then the seat's failure policy plays, or the hint is refused).
        max_computer_tables: unfinished tables without a human seat one address may have.
        max_open_tables: tables waiting for players one address may have.
        sync_rate: ``sync`` messages per second per connection (bursts of five times as many).
        open_table_expiry: seconds a table waiting for players may go without a person
            connected before it expires (``expiry``).
        abandoned_after: seconds a game in progress may go without a person connected
            before computer players finish it.
        max_tables_in_memory: tables a process holds in memory (idle ones beyond it are
            dropped, and loaded again when asked for).
        sweep_seconds: how often idle tables are looked for.
        process_id: a name for this process in logs and presence (random when empty).
        session_secret: the key that signs session cookies (at least 32 characters), from
            ``COLORETTO_SESSION_SECRET``; None: a random key made once and kept in the
            database, shared by every server process using it.
        move_clocks: the per-move clocks (seconds) a table may choose
            (``timecontrol.MOVE_CLOCKS`` by default).
    """

    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str | None = None
    computer_delay: float = 0.5
    handover_after: float = 15.0
    ip_rate: float = 30.0
    ip_burst: float = 120.0
    ws_rate: float = 20.0
    ws_burst: float = 40.0
    max_ws_per_ip: int = 64
    max_message_bytes: int = 4096
    agent_processes: int = 2
    decision_seconds: float = 10.0
    max_computer_tables: int = 2
    max_open_tables: int = 20
    sync_rate: float = 1.0
    open_table_expiry: float = 1800.0
    abandoned_after: float = 600.0
    max_tables_in_memory: int = 2000
    sweep_seconds: float = 30.0
    process_id: str = field(default_factory=lambda: os.urandom(4).hex())
    session_secret: str | None = field(default_factory=lambda: os.environ.get("COLORETTO_SESSION_SECRET") or None)
    move_clocks: tuple[float, ...] = MOVE_CLOCKS

    def __post_init__(self) -> None:
        self.database_url = normalize_database_url(self.database_url)
        if self.session_secret is not None and len(self.session_secret) < 32:
            raise ValueError("the session secret (COLORETTO_SESSION_SECRET) must have at least 32 characters")

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from ``COLORETTO_DATABASE_URL`` and ``COLORETTO_REDIS_URL`` (defaults
        otherwise); used when the app is built without settings (``uvicorn --factory``)."""
        return cls(
            database_url=os.environ.get("COLORETTO_DATABASE_URL", DEFAULT_DATABASE_URL),
            redis_url=os.environ.get("COLORETTO_REDIS_URL") or None,
        )

    @property
    def is_sqlite(self) -> bool:
        """The database is SQLite."""
        return self.database_url.startswith("sqlite")
