"""``coloretto serve``: the web application (docs/web-api.md, docs/deploy.md).

Runs the FastAPI application under uvicorn. The database is SQLite by default (a file),
or PostgreSQL with ``--database-url postgresql://...``; the schema is migrated to the
latest version (Alembic ``upgrade head``) at start-up. ``--redis-url`` lets several
processes serve one PostgreSQL database (table updates travel over Redis pub/sub).
"""

from __future__ import annotations

import argparse
import logging
import os
import threading
from typing import Any

DEFAULT_DB = "./coloretto.db"


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    p = subparsers.add_parser(
        "serve",
        help="start the web application (browser play, HTTP + WebSocket API)",
        description="Start the web application on http://HOST:PORT (default http://127.0.0.1:8000).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="TCP port (0: any free port)")
    p.add_argument(
        "--database-url",
        default=os.environ.get("COLORETTO_DATABASE_URL", DEFAULT_DB),
        help="SQLite file path or sqlite:///FILE, or postgresql://USER@HOST/DB (env COLORETTO_DATABASE_URL)",
    )
    p.add_argument(
        "--redis-url",
        default=os.environ.get("COLORETTO_REDIS_URL"),
        help="redis://HOST:PORT/0 to share table updates between several server processes (env COLORETTO_REDIS_URL)",
    )
    p.add_argument("--computer-delay", type=float, default=0.5, help="seconds a computer player waits before acting")
    p.add_argument("--handover-after", type=float, default=15.0,
                   help="seconds a disconnected person's seat waits before others may hand it to a computer player")
    p.add_argument("--move-clocks", default="20,45,90", metavar="S,S,...",
                   help="the per-move clocks (seconds) a table may choose, comma-separated")
    p.add_argument("--ip-rate", type=float, default=30.0, help="HTTP requests per second per IP address")
    p.add_argument("--ip-burst", type=float, default=120.0, help="HTTP request burst per IP address")
    p.add_argument("--ws-rate", type=float, default=20.0, help="WebSocket messages per second per connection")
    p.add_argument("--ws-burst", type=float, default=40.0, help="WebSocket message burst per connection")
    p.add_argument("--max-ws-per-ip", type=int, default=64, help="open WebSocket connections per IP address")
    p.add_argument("--forwarded-allow-ips", default="",
                   help="comma-separated addresses of reverse proxies whose X-Forwarded-For header is trusted "
                        "(default: none, the header is ignored)")
    p.add_argument("--sync-rate", type=float, default=1.0,
                   help="sync messages per second per WebSocket connection (bursts of five times as many)")
    p.add_argument("--max-connections", type=int, default=2000,
                   help="open connections (HTTP and WebSocket) the process serves at once; more get HTTP 503")
    p.add_argument("--agent-processes", type=int, default=2,
                   help="worker processes for computer players and hints (shared fairly by addresses and tables)")
    p.add_argument("--decision-seconds", type=float, default=10.0,
                   help="longest time one computer decision or hint may take (then the first legal action is played)")
    p.add_argument("--max-computer-tables", type=int, default=2,
                   help="unfinished tables without a person one address may have")
    p.add_argument("--max-open-tables", type=int, default=20, help="tables waiting for players one address may have")
    p.add_argument("--open-table-expiry", type=float, default=1800.0,
                   help="seconds a table waiting for players may go with nobody connected before it expires")
    p.add_argument("--abandoned-after", type=float, default=600.0,
                   help="seconds a game may go with no person connected before computer players finish it")
    p.add_argument("--max-tables-in-memory", type=int, default=2000,
                   help="tables held in memory (idle ones beyond it are dropped and loaded again when needed)")
    p.add_argument("--process-id", default="", help="name of this process (logs, presence); random if empty")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument("--access-log", action=argparse.BooleanOptionalAction, default=True, help="log every HTTP request")
    # uvicorn stops the server gracefully on SIGTERM itself, then ends by that signal
    p.set_defaults(func=run, own_sigterm=True)


def run(args: argparse.Namespace) -> int:
    """Start the server; returns when it stops (exit status 0), 2 on bad options."""
    from .._optional import require, require_extra
    from .main import UsageError

    require_extra("web", "coloretto serve")
    uvicorn = require("uvicorn", "web", "coloretto serve")
    from ..server.app import create_app
    from ..server.config import Settings
    from ..server.slowclients import GuardedH11Protocol

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, not {args.port}")
    for flag in ("computer_delay", "handover_after"):
        if getattr(args, flag) < 0:
            raise UsageError(f"--{flag.replace('_', '-')} cannot be negative")
    for flag in ("ip_rate", "ip_burst", "ws_rate", "ws_burst", "sync_rate"):
        if getattr(args, flag) <= 0:
            raise UsageError(f"--{flag.replace('_', '-')} must be positive")
    for flag in ("max_ws_per_ip", "max_connections", "agent_processes", "max_computer_tables", "max_open_tables", "max_tables_in_memory"):
        if getattr(args, flag) < 1:
            raise UsageError(f"--{flag.replace('_', '-')} must be at least 1")
    for flag in ("decision_seconds", "open_table_expiry", "abandoned_after"):
        if getattr(args, flag) <= 0:
            raise UsageError(f"--{flag.replace('_', '-')} must be positive")
    move_clocks = _move_clocks(args.move_clocks)
    try:
        settings = Settings(
            database_url=args.database_url, redis_url=args.redis_url or None, computer_delay=args.computer_delay,
            handover_after=args.handover_after, ip_rate=args.ip_rate, ip_burst=args.ip_burst, ws_rate=args.ws_rate,
            ws_burst=args.ws_burst, max_ws_per_ip=args.max_ws_per_ip, agent_processes=args.agent_processes,
            decision_seconds=args.decision_seconds, max_computer_tables=args.max_computer_tables,
            max_open_tables=args.max_open_tables, sync_rate=args.sync_rate, open_table_expiry=args.open_table_expiry,
            abandoned_after=args.abandoned_after, max_tables_in_memory=args.max_tables_in_memory,
            move_clocks=move_clocks,
            **({"process_id": args.process_id} if args.process_id else {}),
        )
    except ValueError as exc:  # the database URL, or COLORETTO_SESSION_SECRET (the message says which)
        what = "" if "SESSION_SECRET" in str(exc) else "--database-url: "
        raise UsageError(f"{what}{exc}") from None
    _check_address(args.host, args.port)
    if settings.redis_url:
        _check_redis(settings.redis_url)
    _check_database(settings.database_url)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    trusted = [ip.strip() for ip in args.forwarded_allow_ips.split(",") if ip.strip()]
    app = create_app(settings)
    _warm_fast_core_in_background()
    uvicorn.run(
        app, host=args.host, port=args.port, log_level=args.log_level, access_log=args.access_log,
        ws_max_size=64 * 1024, ws_ping_interval=20, ws_ping_timeout=20, lifespan="on",
        proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None,
        http=GuardedH11Protocol, timeout_keep_alive=5, limit_concurrency=args.max_connections,
    )
    return 0


def _warm_fast_core_in_background() -> None:
    """Load the fast core's parts that the tables use (``transitions`` and ``search``: the
    computer players and the hints) in a background thread at start-up, so the first
    computer decision does not wait for them. When a part's cache is cold this compiles it
    (a minute or two) and logs ``coloretto.fastcore.cache.cold_message`` first; nothing
    happens when Numba cannot be imported (search players then use engine rollouts)."""
    from .._optional import optional

    if optional("numba", "fast") is None:
        return
    log = logging.getLogger("coloretto.fastcore")
    parts = ("transitions", "search")

    def warm() -> None:
        try:
            from ..fastcore.cache import cold_message, is_warm
            from .warmup import warm_part

            cold = tuple(part for part in parts if not is_warm(part))
            if cold:
                log.warning(cold_message(cold))
            seconds = sum(warm_part(part, part in cold) for part in parts)
        except Exception as exc:  # noqa: BLE001 - search players fall back on engine rollouts
            log.warning("fast core unavailable (%s); search players use engine rollouts", exc)
            return
        log.info("fast core ready (%.1f s)", seconds)

    threading.Thread(target=warm, name="fastcore-warmup", daemon=True).start()


def _check_database(url: str) -> None:
    """Open and close one connection, so an unusable ``--database-url`` is a clear usage
    error (exit 2) instead of a server start-up traceback. The URL itself is not echoed
    (it may hold a password).

    Raises:
        UsageError: the database cannot be opened.
    """
    from .._optional import require
    from ..server.db import make_engine

    SQLAlchemyError = require("sqlalchemy.exc", "web", "coloretto serve").SQLAlchemyError
    from .main import UsageError

    engine = make_engine(url)
    try:
        with engine.connect():
            pass
    except SQLAlchemyError as exc:
        detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise UsageError(f"cannot open the database given by --database-url: {detail}") from None
    finally:
        engine.dispose()


def _check_redis(url: str) -> None:
    """Ping the Redis server of ``--redis-url`` once, so an unreachable one is a clear usage
    error (exit 2) instead of a start-up traceback. The URL is not echoed (it may hold a
    password).

    Raises:
        UsageError: a URL Redis cannot read, or a server that does not answer.
    """
    from .._optional import require
    from .main import UsageError

    redis = require("redis", "web", "coloretto serve")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    except ValueError as exc:
        raise UsageError(f"--redis-url: {exc}") from None
    try:
        client.ping()
    except redis.exceptions.RedisError as exc:
        detail = " ".join(str(exc).split())
        raise UsageError(f"cannot reach the Redis server given by --redis-url: {detail}") from None
    finally:
        client.close()


def _check_address(host: str, port: int) -> None:
    """Bind ``host``:``port`` once (as the server will, with ``SO_REUSEADDR``) before the
    server opens its database and resumes games, so an address in use is one line.

    Raises:
        UsageError: the address is in use or cannot be bound (an unknown host).
    """
    import socket

    from .main import UsageError

    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UsageError(f"--host {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise UsageError(
                f"cannot listen on {host}:{port}: {exc.strerror or exc} (another server there? "
                "choose another --port)"
            ) from None


def _move_clocks(text: str) -> tuple[float, ...]:
    """The ``--move-clocks`` list: positive seconds, comma-separated (``20,45,90``).

    Raises:
        UsageError: an empty list, or a value that is not a positive number.
    """
    from ..engine.actions import short_repr
    from .main import UsageError

    try:
        clocks = tuple(sorted({float(x) for x in text.split(",") if x.strip()}))
    except ValueError:
        raise UsageError(f"--move-clocks: comma-separated seconds such as 20,45,90, not {short_repr(text)}") from None
    if not clocks or any(not 0 < c < 86400 for c in clocks):
        raise UsageError(f"--move-clocks: one or more seconds, each above 0 and below 86400, not {short_repr(text)}")
    return clocks
