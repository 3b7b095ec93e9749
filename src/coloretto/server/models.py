"""The database schema (SQLAlchemy 2 declarative), one schema for SQLite and PostgreSQL.

Migrations live in ``migrations/`` (Alembic); ``db.upgrade`` runs them to ``head`` at start.

Tables:
- ``tables``: one row per game table; ``setup`` holds the secret deal (draw pile order) and
  never leaves the server before the game ends; ``version`` counts accepted actions and is
  the optimistic-concurrency guard (an action is accepted only by the writer that moves
  ``version`` from n to n + 1).
- ``seats``: one row per seat; ``token_hash`` is the SHA-256 of the seat token.
- ``actions``: every accepted action in order (engine action codes), the source of truth
  from which live states are rebuilt after a restart.
- ``results``: per seat of a finished game, for the leaderboard.
- ``accounts``: people who signed up (name, Argon2 password hash); ``account_names``: the
  keys of each account's name (``accounts.name_keys``), unique, so look-alike names collide;
  ``seats.account_id`` and ``results.account_id`` name the account of a rated game's seat.
- ``server_keys``: secrets the server makes once and shares between its processes (the
  session-signing key).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the schema."""


class TableRow(Base):
    """A game table."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    title: Mapped[str] = mapped_column(String(80), default="")
    status: Mapped[str] = mapped_column(String(16), index=True)  # open | playing | finished | expired
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    preset: Mapped[str | None] = mapped_column(String(32), nullable=True)
    hints: Mapped[bool] = mapped_column(Boolean, default=False)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    setup: Mapped[list[Any]] = mapped_column(JSON)  # secret until the end
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # private, host, time control
    # SHA-256 of the creating address (store.address_key): the per-address quotas
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class SeatRow(Base):
    """One seat of a table."""

    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # open | human | computer
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    agent: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    handed_over: Mapped[bool] = mapped_column(Boolean, default=False)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    __table_args__ = (UniqueConstraint("table_id", "account_id", name="uq_seats_table_account"),)


class ActionRow(Base):
    """An accepted action (``code``: the engine's integer encoding)."""

    __tablename__ = "actions"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    code: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """A seat's result in a finished game."""

    __tablename__ = "results"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(16))  # human | computer
    score: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True, index=True)


class AccountRow(Base):
    """A person's account (``password_hash``: Argon2id, PHC string)."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(24))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    session_epoch: Mapped[int] = mapped_column(Integer, default=0)  # log-out moves it on: older cookies end


class AccountNameRow(Base):
    """One key of an account's name; a key belongs to one account only."""

    __tablename__ = "account_names"
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)


class ServerKeyRow(Base):
    """A secret of the server (``name``: ``session``, the session-signing key)."""

    __tablename__ = "server_keys"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
