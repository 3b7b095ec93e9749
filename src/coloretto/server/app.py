"""The FastAPI application: HTTP endpoints, the WebSocket protocol, pages and limits.

``create_app(settings)`` returns the ASGI app; ``coloretto serve`` runs it under uvicorn.
The contract (every endpoint and message, with errors) is docs/web-api.md.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..agents.registry import DIFFICULTIES, PEOPLE_OPPONENTS
from ..engine.actions import Action
from ..engine.rules import EXTRA_CARDS, PRESETS
from .config import Settings
from .db import token_hash
from .hub import DEFAULT_AGENT, Conn, Hub, Problem
from .live import LiveTable, action_text, seat_text
from .ratelimit import PerKey, TokenBucket
from .ratings import leaderboard
from .score_api import score_router

log = logging.getLogger("coloretto.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 16 * 1024


# ----- request bodies (also the OpenAPI schema) --------------------------------------------------
STRICT = ConfigDict(strict=True, extra="forbid")
"""Request bodies take JSON values of exactly the documented type (no ``"0"`` for 0, no
``"yes"`` or 1 for true, no 1.0 for 1) and no unknown fields: anything else is a 400
``bad_request`` naming the field (docs/web-api.md, "Errors")."""


class SeatSpec(BaseModel):
    """One seat of a new table."""

    model_config = STRICT
    kind: Literal["human", "computer"] = Field(description="'human' (a person or program joins) or 'computer'")
    agent: str | None = Field(None, description="computer player (see /api/options agents); default medium")


class CreateTable(BaseModel):
    """``POST /api/tables`` body (docs/web-api.md)."""

    model_config = STRICT
    name: str | None = Field(None, description="the creator's player name (required with a human seat)")
    seats: list[SeatSpec] = Field(description="2 to 5 seats")
    seat: int | None = Field(None, description="the creator's seat (default: first human seat)")
    rules: dict[str, Any] = Field(default_factory=dict, description="options of docs/rules.md §7")
    preset: str | None = Field(None, description="a preset name, applied before rules")
    hints: bool = False
    rated: bool = True
    title: str = Field("", max_length=60)


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join`` body."""

    model_config = STRICT
    name: str
    seat: int | None = None


class SeatGranted(BaseModel):
    """A seat and its secret token (shown once)."""

    table: dict[str, Any]
    seat: int | None
    token: str | None
    ws_url: str


class StartupError(RuntimeError):
    """The server could not start (e.g. its database cannot be opened); the message says why."""


def error_body(code: str, message: str) -> dict[str, Any]:
    """The HTTP error body of docs/web-api.md."""
    return {"error": {"code": code, "message": message}}


# ----- ASGI middleware: per-IP rate limit and body size ---------------------------------------------
class LimitsMiddleware:
    """HTTP only: per-IP token bucket (429 ``rate_limited``) and a 16 KiB body cap
    (413 ``too_large``). WebSockets are limited in the endpoint."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.limits = PerKey(settings.ip_rate, settings.ip_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ip = (scope.get("client") or ("?", 0))[0]
        bucket = self.limits.bucket(ip)
        if not bucket.allow():
            resp = JSONResponse(
                error_body("rate_limited", "too many requests from your address; slow down"),
                status_code=429,
                headers={"Retry-After": str(max(1, round(bucket.retry_after())))},
            )
            await resp(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await JSONResponse(error_body("too_large", f"request body over {MAX_BODY} bytes"), status_code=413)(scope, receive, send)
            return
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise Problem("too_large", f"request body over {MAX_BODY} bytes", 413)
            return message

        await self.app(scope, limited_receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application for ``settings`` (default ``Settings.from_env()``). ``app.state.hub`` is the
    ``Hub``; it starts (schema upgrade, Redis, resuming games) in the lifespan."""
    settings = settings or Settings.from_env()
    hub = Hub(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            await hub.start()
        except Exception as exc:  # noqa: BLE001 - any start-up failure: say what, not a long traceback
            what = " ".join(str(exc).split())
            try:
                await hub.stop()
            except Exception as stop_exc:  # noqa: BLE001 - already failing; the first error is the one to report
                log.debug("stopping after a failed start: %s", stop_exc)
            raise StartupError(f"cannot start: {what}") from None
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="Coloretto",
        version="1",
        description="Live Coloretto tables for people, programs and computer players. "
        "The WebSocket protocol is described in docs/web-api.md.",
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.add_middleware(LimitsMiddleware, settings=settings)
    ws_per_ip: dict[str, int] = {}
    board_cache: dict[bool, tuple[int, dict[str, Any]]] = {}

    # ----- errors ----------------------------------------------------------------------------
    @app.exception_handler(Problem)
    async def _problem(_req: Request, exc: Problem) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_req: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors()[:3]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where or 'body'}: {e.get('msg')}")
        return JSONResponse(error_body("bad_request", "; ".join(parts) or "bad request"), status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "bad_request"}.get(exc.status_code, "bad_request")
        return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code)

    async def table_or_404(table_id: str) -> LiveTable:
        t = await hub.get(table_id)
        if t is None:
            raise Problem("not_found", f"no table {table_id!r}", 404)
        return t

    # ----- HTTP API ----------------------------------------------------------------------------
    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Liveness: database kind, Redis in use, this process's id."""
        return {"status": "ok", "database": hub.store.dialect, "redis": hub.redis is not None,
                "process": settings.process_id}

    @app.get("/api/options", tags=["tables"])
    async def options() -> dict[str, Any]:
        """What a create-table form offers: computer players, presets, rule options."""
        return {
            "agents": list(PEOPLE_OPPONENTS),
            "difficulties": list(DIFFICULTIES),
            "default_agent": DEFAULT_AGENT,
            "presets": list(PRESETS),
            "rules": {
                "players": {"values": [2, 3, 4, 5], "default": 4},
                "edition": {"values": ["classic", "modern"], "default": "classic"},
                "table": {"values": ["brown", "violet"], "default": "brown"},
                "starting_cards": {"values": ["random", "choose"], "default": "random"},
                "next_round_starter": {"values": ["last_taker", "left_of_last_taker"], "default": "last_taker"},
                "joker_any_color": {"values": [True, False], "default": True},
                "match_games": {"values": list(range(1, 11)), "default": 1},
                "extra_card": {"values": list(EXTRA_CARDS), "default": None},
                "row_capacities": {"values": "list of 1..6 per row, players..6 rows", "default": None},
            },
            "hints_available": advisor() is not None,
            "handover_after_seconds": settings.handover_after,
        }

    @app.post("/api/tables", status_code=201, response_model=SeatGranted, tags=["tables"])
    async def create(body: CreateTable) -> dict[str, Any]:
        """Create a table; the creator takes a seat and gets its secret token."""
        t, seat, token = await hub.create_table(
            name=body.name, seats=[s.model_dump() for s in body.seats], seat=body.seat, rules=body.rules,
            preset=body.preset, hints=body.hints, rated=body.rated, title=body.title.strip(),
        )
        return {"table": t.table_json(), "seat": seat, "token": token, "ws_url": f"/ws/tables/{t.id}"}

    @app.get("/api/tables", tags=["tables"])
    async def lobby(
        status: Literal["open", "playing", "finished"] | None = None, limit: int = Query(50, ge=1, le=200)
    ) -> dict[str, Any]:
        """The lobby: open tables to join and games in progress to watch."""
        statuses = [status] if status else ["open", "playing"]
        ids = await hub.db(hub.store.table_ids, statuses, limit)
        out = []
        for table_id in ids:
            t = await hub.get(table_id)
            if t is not None and t.status in statuses:
                out.append(t.table_json())
        return {"tables": out}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def table(table_id: str) -> dict[str, Any]:
        """A table's public summary."""
        return (await table_or_404(table_id)).table_json()

    @app.post("/api/tables/{table_id}/join", response_model=SeatGranted, tags=["tables"])
    async def join(table_id: str, body: JoinTable) -> dict[str, Any]:
        """Take an open seat; returns its secret token."""
        t, seat, token = await hub.join(table_id, body.name, body.seat)
        return {"table": t.table_json(), "seat": seat, "token": token, "ws_url": f"/ws/tables/{t.id}"}

    @app.get("/api/tables/{table_id}/record", tags=["games"])
    async def record(table_id: str) -> Response:
        """The ``coloretto-record/1`` JSON, once the game is over (409 before)."""
        t = await table_or_404(table_id)
        if t.status != "finished":
            raise Problem("game_not_over", "the record is available once the game is over", 409)
        body = json.dumps(t.game.to_record(), indent=1)
        return Response(
            body, media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="coloretto-{t.id}.json"'},
        )

    @app.get("/api/tables/{table_id}/replay", tags=["games"])
    async def replay(table_id: str) -> dict[str, Any]:
        """Record plus a spectator's observation after every action (finished games)."""
        t = await table_or_404(table_id)
        if t.status != "finished":
            raise Problem("game_not_over", "the replay is available once the game is over", 409)
        from ..engine.actions import decode
        from ..engine.observation import observe
        from ..engine.record import Game

        assert t.game.initial is not None
        g = Game(t.game.initial.copy(), list(t.game.seats))

        def spectator() -> dict[str, Any]:
            obs = dict(observe(g.state, max(g.state.to_move, 0)).to_json())
            obs["seat"] = None
            return obs

        steps = [{"i": 0, "seat": None, "action": None, "card": None, "observation": spectator()}]
        for entry in t.log:
            g.play(decode(_code(entry)))
            steps.append({**entry, "i": entry["i"] + 1, "card": entry.get("card"), "observation": spectator()})
        return {"table": t.table_json(), "record": t.game.to_record(), "steps": steps, "result": t.result()}

    @app.get("/api/leaderboard", tags=["games"])
    async def board(computers: bool = False) -> dict[str, Any]:
        """OpenSkill ratings of named players (with or without computer players)."""
        count = await hub.db(hub.store.results_count)
        cached = board_cache.get(computers)
        if cached is None or cached[0] != count:
            rows = await hub.db(hub.store.rated_results)
            cached = board_cache[computers] = (count, leaderboard(rows, computers))
        return cached[1]

    # ----- WebSocket -----------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        ip = ws.client.host if ws.client else "?"
        await ws.accept()
        if ws_per_ip.get(ip, 0) >= settings.max_ws_per_ip:
            await ws.send_text(json.dumps(Problem("rate_limited", "too many connections from your address").reply()))
            await ws.close(code=4429)
            return
        t = await hub.get(table_id)
        if t is None:
            await ws.send_text(json.dumps(Problem("not_found", f"no table {table_id!r}").reply()))
            await ws.close(code=4404)
            return
        ws_per_ip[ip] = ws_per_ip.get(ip, 0) + 1
        conn = Conn(ip)
        writer = asyncio.create_task(_writer(ws, conn))
        bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                raw = msg.get("text")
                if raw is None:
                    data = msg.get("bytes") or b""
                    size = len(data)
                else:
                    size = len(raw.encode("utf-8")) if len(raw) * 4 > settings.max_message_bytes else len(raw)
                if not bucket.allow():
                    conn.send(Problem("rate_limited", "too many messages; slow down").reply())
                    continue
                if size > settings.max_message_bytes:
                    conn.send(Problem("too_large", f"message over {settings.max_message_bytes} bytes").reply())
                    continue
                try:
                    if raw is None:
                        raw = data.decode("utf-8")
                    parsed = json.loads(raw)
                except (ValueError, UnicodeDecodeError):
                    conn.send(Problem("bad_json", "a message must be one JSON object").reply())
                    continue
                if not isinstance(parsed, dict):
                    conn.send(Problem("bad_json", "a message must be a JSON object").reply())
                    continue
                ref = parsed.get("id")
                if not (ref is None or isinstance(ref, (str, int, float, bool))):
                    ref = None
                try:
                    await handle(conn, t, parsed, ref)
                except Problem as p:
                    conn.send(p.reply(ref))
                    if p.code == "stale" and conn.table is not None:
                        conn.send_state(t)
                except Exception:
                    log.exception("table %s: error handling a message", t.id)
                    conn.send(Problem("internal", "server error; nothing was changed").reply(ref))
        except WebSocketDisconnect:
            pass
        finally:
            ws_per_ip[ip] = ws_per_ip.get(ip, 1) - 1
            if ws_per_ip[ip] <= 0:
                ws_per_ip.pop(ip, None)
            t.conns.discard(conn)
            conn.queue.put_nowait(None)
            writer.cancel()
            if conn.seat is not None:
                seat, conn.seat = conn.seat, None
                await hub.presence(t, seat, -1)

    async def _writer(ws: WebSocket, conn: Conn) -> None:
        try:
            while True:
                item = await conn.queue.get()
                if item is None:
                    if ws.application_state == WebSocketState.CONNECTED:
                        await ws.close(code=1008)
                    return
                await ws.send_text(item)
        except (WebSocketDisconnect, RuntimeError, OSError, asyncio.CancelledError):
            return
        except Exception:  # noqa: BLE001 - the sender of a connection already gone  # pragma: no cover
            return

    async def handle(conn: Conn, t: LiveTable, msg: dict[str, Any], ref: Any) -> None:
        kind = msg.get("type")
        if kind == "ping":
            conn.send({"type": "pong", **({"id": ref} if ref is not None else {})})
            return
        if kind == "hello":
            await hello(conn, t, msg.get("token"))
            return
        if kind not in ("action", "hint", "hand_over", "reclaim", "rematch", "sync"):
            raise Problem("unknown_type", f"unknown message type {kind!r}; see docs/web-api.md")
        if not conn.greeted:
            raise Problem("hello_first", "say hello first: {\"type\": \"hello\", \"token\": ...}")
        if "token" in msg and msg["token"] is not None:
            tok = msg["token"]
            if not isinstance(tok, str) or conn.token_hash is None or token_hash(tok) != conn.token_hash:
                raise Problem("bad_token", "this token is not the seat token of this connection")
        if kind == "sync":
            conn.send_state(t, full=True, ack=ref)
        elif kind == "action":
            if conn.seat is None:
                raise Problem("not_seated", "spectators cannot act; say hello with your seat token")
            try:
                action = Action.from_json(msg.get("action"))
            except (ValueError, TypeError) as exc:
                raise Problem("bad_message", f"action: {exc}") from None
            version = msg.get("version")
            if version is not None and type(version) is not int:
                raise Problem("bad_message", "version must be an integer")
            await hub.submit(t, conn.seat, action, version=version, ack=ref, sender=conn)
        elif kind == "hint":
            conn.send(await hint(conn, t, ref))
        elif kind == "hand_over":
            await hub.hand_over(t, conn, msg.get("seat"), msg.get("agent"))
        elif kind == "reclaim":
            await hub.reclaim(t, conn)
        elif kind == "rematch":
            new_id, seat, token = await hub.rematch(t, conn)
            reply = {"type": "rematch", "table_id": new_id, "seat": seat, "token": token}
            if ref is not None:
                reply["id"] = ref
            conn.send(reply)

    async def hello(conn: Conn, t: LiveTable, token: Any) -> None:
        seat = None
        thash = None
        if token is not None:
            if not isinstance(token, str) or len(token) > 200:
                raise Problem("bad_token", "token must be a string")
            thash = token_hash(token)
            seat = _seat_of(t, thash)
            if seat is None:  # joined at another server process a moment ago?
                async with t.lock:
                    await hub._reload_seats(t)
                seat = _seat_of(t, thash)
            if seat is None:
                raise Problem("bad_token", "this token belongs to no seat of this table")
        old = conn.seat
        conn.seat, conn.token_hash, conn.table, conn.greeted = seat, thash, t, True
        t.conns.add(conn)
        conn.send({
            "type": "welcome", "table_id": t.id, "seat": seat, "role": "player" if seat is not None else "spectator",
            "table": t.table_json(),
            "limits": {"max_message_bytes": settings.max_message_bytes, "messages_per_second": settings.ws_rate,
                       "burst": settings.ws_burst},
        })
        conn.send_state(t, full=True)
        if old is not None and old != seat:
            await hub.presence(t, old, -1)
        if seat is not None and old != seat:
            await hub.presence(t, seat, +1)

    async def hint(conn: Conn, t: LiveTable, ref: Any) -> dict[str, Any]:
        if not t.data.hints:
            raise Problem("hints_disabled", "this table does not allow hints")
        if conn.seat is None:
            raise Problem("not_seated", "spectators get no hints")
        if t.status != "playing":
            raise Problem("not_started" if t.status == "open" else "game_over", "no decision to advise on")
        st = t.state
        if st.to_move != conn.seat or t.data.seats[conn.seat].kind != "human":
            raise Problem("not_your_turn", f"{seat_text(st.to_move)} is to move")
        advise = advisor()
        if advise is None:
            raise Problem("hints_unavailable", "no move advisor in this installation")
        from ..agents.base import Budget
        from ..engine.observation import observe

        obs, legal = observe(st, conn.seat), st.legal_actions()
        result = await asyncio.get_running_loop().run_in_executor(
            hub.agent_pool, lambda: advise(obs, legal, Budget(seconds=0.3), t.version)
        )
        out = {"type": "hint", **_hint_fields(result)}
        if ref is not None:
            out["id"] = ref
        return out

    # ----- pages ------------------------------------------------------------------------------
    def index() -> Response:
        page = WEB_DIR / "index.html"
        if not page.is_file():
            return JSONResponse(error_body("not_found", "the browser client is not installed"), status_code=404)
        return FileResponse(page, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return index()

    @app.get("/table/{table_id}", include_in_schema=False)
    async def invite(table_id: str) -> Response:
        return index()

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        return index()

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> Response:
        page = WEB_DIR / "rules.html"
        if not page.is_file():
            return JSONResponse(error_body("not_found", "the rules page is not installed"), status_code=404)
        return FileResponse(page, media_type="text/html")

    app.include_router(score_router(WEB_DIR))

    if WEB_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
    return app


def _seat_of(t: LiveTable, thash: str) -> int | None:
    for s in t.data.seats:
        if s.token_hash is not None and s.token_hash == thash:
            return s.seat
    return None


def _code(entry: dict[str, Any]) -> int:
    return Action.from_json(entry["action"]).code


def advisor() -> Any:
    """``coloretto.agents.advisor.advise`` if that module exists, else None."""
    try:
        module = importlib.import_module("coloretto.agents.advisor")
    except ModuleNotFoundError:
        return None
    return getattr(module, "advise", None)


def _hint_fields(result: Any) -> dict[str, Any]:
    """``{"action", "explanation", "options"}`` from the advisor's answer: a list of
    ``Advice`` (best first; ``coloretto.agents.advisor``), or a single ``Action``. The texts
    are for people: rows counted from 1 (``action_text``)."""
    if isinstance(result, Action):
        return {"action": result.to_json(), "explanation": action_text(result), "options": []}
    options = [{**a.to_json(), "text": action_text(a.action)} for a in result]
    if not options:
        raise Problem("hints_unavailable", "the advisor gave no advice")
    best = options[0]
    expl = f"{best['text']}: chance to win {best['win_prob']:.0%}, expected margin {best['margin']:+.1f} points"
    return {"action": best["action"], "explanation": expl, "options": options}
