"""The HTTP endpoints (docs/web-api.md, "HTTP endpoints") and the pages served to browsers,
as two ``APIRouter``s. Handlers reach the application's ``Hub`` through ``HubDep``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse, Response

from ..agents.registry import DIFFICULTIES, PEOPLE_OPPONENTS
from ..engine.rules import EXTRA_CARDS, PRESETS
from .auth_routes import AccountDep
from .errors import ErrorCode, Problem, error_response
from .finished import Download
from .hub import Hub
from .live import LiveTable
from .newtable import DEFAULT_AGENT
from .schemas import CreateTable, JoinTable, MyTables, SeatGranted
from .store import token_hash
from .timecontrol import CLOCK_AGENTS, DAY_SECONDS, DEFAULT_CLOCK_AGENT, seconds_json

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser client's files (``/`` and ``/static/...``)."""


def get_hub(request: Request) -> Hub:
    """The application's hub (``app.state.hub``, set by ``create_app``)."""
    hub: Hub = request.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(get_hub)]

api = APIRouter()
"""``/api/...``."""


def _granted(t: LiveTable, seat: int | None, token: str | None) -> dict[str, Any]:
    return {"table": t.table_json(), "seat": seat, "token": token, "ws_url": f"/ws/tables/{t.id}"}


async def _finished(hub: Hub, table_id: str, what: str) -> LiveTable:
    t = await hub.table(table_id)
    if t.status != "finished":
        raise Problem(ErrorCode.GAME_NOT_OVER, f"the {what} is available once the game is over")
    return t


@api.get("/api/health", tags=["server"])
async def health(hub: HubDep) -> dict[str, Any]:
    """Liveness: database kind, Redis in use, this process's id."""
    return {"status": "ok", "database": hub.store.dialect, "redis": hub.bus.kind == "redis",
            "process": hub.settings.process_id}


@api.get("/api/options", tags=["tables"])
async def options(hub: HubDep) -> dict[str, Any]:
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
        "hints_available": True,
        "handover_after_seconds": hub.settings.handover_after,
        "time_controls": {
            "kinds": ["none", "move", "day"],
            "move_seconds": [seconds_json(s) for s in hub.settings.move_clocks],
            "day_seconds": seconds_json(DAY_SECONDS),
            "agents": list(CLOCK_AGENTS),
            "default_agent": DEFAULT_CLOCK_AGENT,
        },
    }


@api.post("/api/tables", status_code=201, response_model=SeatGranted, tags=["tables"])
async def create(body: CreateTable, hub: HubDep, account: AccountDep, request: Request) -> dict[str, Any]:
    """Create a table; the creator takes a seat and gets its secret token."""
    t, seat, token = await hub.create_table(
        address=request.client.host if request.client else None,
        name=body.name, seats=[s.model_dump() for s in body.seats], seat=body.seat, rules=body.rules,
        preset=body.preset, hints=body.hints, rated=body.rated, title=body.title.strip(),
        private=body.private, time_control=body.time_control, account=account,
    )
    return _granted(t, seat, token)


@api.get("/api/tables", tags=["tables"])
async def lobby(
    hub: HubDep,
    status: Literal["open", "playing", "finished"] | None = None,
    limit: int = Query(50, ge=1, le=200),
    offset: int = Query(0, ge=0, le=1_000_000),
) -> dict[str, Any]:
    """The lobby, a page at a time (newest first): public tables waiting for players and
    public games in progress to watch (private tables are reached through their invite link
    only); ``next_offset`` asks for the next page (None on the last; a page holds at most
    ``limit`` tables, fewer where private ones were left out)."""
    statuses = [status] if status else ["open", "playing"]
    ids = await hub.store.table_ids(statuses, limit + 1, offset)
    out = []
    for table_id in ids[:limit]:
        t = await hub.get(table_id)
        if t is not None and t.status in statuses and not t.data.options.get("private", False):
            out.append(t.table_json())
    return {"tables": out, "offset": offset, "next_offset": offset + limit if len(ids) > limit else None}


MAX_MY_TABLES = 100
"""Most seat tokens ``POST /api/tables/mine`` looks at."""


@api.post("/api/tables/mine", tags=["tables"])
async def mine(body: MyTables, hub: HubDep) -> dict[str, Any]:
    """The tables of the seat tokens a browser keeps (private ones too), each with the seat
    and ``your_turn``; unknown tables and tokens of no seat are left out."""
    if len(body.tokens) > MAX_MY_TABLES:
        raise Problem(ErrorCode.BAD_REQUEST, f"tokens: at most {MAX_MY_TABLES} tables, not {len(body.tokens)}")
    out = []
    for table_id, token in body.tokens.items():
        t = await hub.get(table_id)
        if t is None or t.status == "finished":
            continue
        seat = t.seat_of(token_hash(token))
        if seat is None:
            continue
        to_move = t.state.to_move if t.status == "playing" else None
        your_turn = to_move == seat and t.data.seats[seat].kind == "human"
        out.append({"table": t.table_json(), "seat": seat, "your_turn": your_turn})
    return {"tables": out}


@api.get("/api/tables/{table_id}", tags=["tables"])
async def table(table_id: str, hub: HubDep) -> dict[str, Any]:
    """A table's public summary."""
    return (await hub.table(table_id)).table_json()


@api.post("/api/tables/{table_id}/join", response_model=SeatGranted, tags=["tables"])
async def join(table_id: str, body: JoinTable, hub: HubDep, account: AccountDep) -> dict[str, Any]:
    """Take an open seat; returns its secret token."""
    t, seat, token = await hub.join(table_id, body.name, body.seat, account)
    return _granted(t, seat, token)


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header value lists gzip with a weight above 0, by name
    or by ``*`` (RFC 9110 §12.5.3); ``"gzip;q=0"`` refuses it."""
    weights: dict[str, str] = {}
    for part in accept_encoding.split(","):
        name, *params = (p.strip() for p in part.split(";"))
        weights[name.lower()] = next((p[2:] for p in params if p.startswith("q=")), "1")
    try:
        return float(weights.get("gzip", weights.get("*", "0"))) > 0
    except ValueError:
        return False


def _download(request: Request, body: Download, headers: dict[str, str] | None = None) -> Response:
    """``body`` as ``application/json``: its gzip-compressed bytes with ``Content-Encoding:
    gzip`` when the request accepts gzip (``accepts_gzip``), else the plain bytes."""
    out = {**(headers or {}), "Vary": "Accept-Encoding"}
    if accepts_gzip(request.headers.get("accept-encoding", "")):
        return Response(body.gzipped, media_type="application/json", headers={**out, "Content-Encoding": "gzip"})
    return Response(body.plain, media_type="application/json", headers=out)


@api.get("/api/tables/{table_id}/record", tags=["games"])
async def record(table_id: str, request: Request, hub: HubDep) -> Response:
    """The ``coloretto-record/1`` JSON, once the game is over (409 before); gzip-compressed
    for clients that accept it."""
    t = await _finished(hub, table_id, "record")
    return _download(request, await hub.finished.record(t),
                     {"Content-Disposition": f'attachment; filename="coloretto-{t.id}.json"'})


@api.get("/api/tables/{table_id}/replay", tags=["games"])
async def replay(table_id: str, request: Request, hub: HubDep) -> Response:
    """Record plus a spectator's observation after every action (finished games);
    gzip-compressed for clients that accept it."""
    t = await _finished(hub, table_id, "replay")
    return _download(request, await hub.finished.replay(t))


@api.get("/api/leaderboard", tags=["games"])
async def board(hub: HubDep, computers: bool = False) -> dict[str, Any]:
    """OpenSkill ratings of named players (with or without computer players)."""
    return await hub.leaderboards.get(hub.store, computers)


pages = APIRouter(include_in_schema=False)
"""The browser client's pages: each path serves ``web/index.html``."""


def page_file(name: str, what: str) -> Response:
    """``web/NAME`` as HTML, or 404 ``not_found`` saying that ``what`` is not installed."""
    page = WEB_DIR / name
    if not page.is_file():
        return error_response(ErrorCode.NOT_FOUND, f"{what} is not installed")
    return FileResponse(page, media_type="text/html")


def index() -> Response:
    """``web/index.html``, or 404 ``not_found`` when the client is not installed."""
    return page_file("index.html", "the browser client")


@pages.get("/")
async def home() -> Response:
    """The lobby page."""
    return index()


@pages.get("/table/{table_id}")
async def invite(table_id: str) -> Response:
    """A table's invite link."""
    return index()


@pages.get("/replay/{table_id}")
async def replay_page(table_id: str) -> Response:
    """A finished game's replay link."""
    return index()


@pages.get("/docs")
async def api_docs_page() -> Response:
    """The HTTP API, browsable (``web/api-docs.html``: Swagger UI on ``/openapi.json``)."""
    return page_file("api-docs.html", "the API browser")


@pages.get("/rules")
async def rules_page() -> Response:
    """The rules of the game, in the person's language (``web/rules.html``)."""
    return page_file("rules.html", "the rules page")
