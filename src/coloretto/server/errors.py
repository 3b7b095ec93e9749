"""The error codes of the web API, each with its HTTP status, and ``Problem``, the one
exception that refuses a request (docs/web-api.md, "Errors" and the WebSocket ``error``).

Every refusal the server sends carries one ``ErrorCode``: HTTP bodies
``{"error": {"code": ..., "message": ...}}`` with the code's status, WebSocket messages
``{"type": "error", "code": ..., "message": ...}`` (the status is not sent there). The codes'
string values are part of the public contract; clients translate them.

>>> ErrorCode.SEAT_TAKEN.value, ErrorCode.SEAT_TAKEN.status
('seat_taken', 409)
>>> Problem(ErrorCode.STALE, "the table is at version 3, not 2").reply(ref=7)
{'type': 'error', 'code': 'stale', 'message': 'the table is at version 3, not 2', 'id': 7}
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Self

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class ErrorCode(str, Enum):
    """A refusal's code (the value, as sent) and its HTTP status (``status``).

    Codes only sent over the WebSocket still have a status, the one an HTTP endpoint
    refusing for the same reason would answer with.
    """

    status: int

    def __new__(cls, code: str, status: int) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.status = status
        return member

    BAD_REQUEST = ("bad_request", 400)
    """A field is missing, mistyped, out of range or unknown (the message names it)."""
    BAD_RULES = ("bad_rules", 400)
    """An option of docs/rules.md §7, or the preset, is wrong."""
    BAD_NAME = ("bad_name", 400)
    """A player name is empty, too long, holds control characters or is reserved."""
    BAD_AGENT = ("bad_agent", 400)
    """Not one of the computer players offered to people."""
    BAD_JSON = ("bad_json", 400)
    """A WebSocket frame is not JSON, or not a JSON object."""
    UNKNOWN_TYPE = ("unknown_type", 400)
    """A WebSocket message's ``type`` is missing or unknown."""
    BAD_MESSAGE = ("bad_message", 400)
    """A WebSocket message's field is missing or mistyped, or its action is malformed."""
    HELLO_FIRST = ("hello_first", 400)
    """A WebSocket message other than ``hello``/``ping`` came before ``hello``."""
    BAD_PASSWORD = ("bad_password", 400)
    """A new account's password is not 8 to 256 characters."""
    ACCOUNT_REQUIRED = ("account_required", 401)
    """Rated games are for signed-in players: log in first (or play unrated)."""
    BAD_LOGIN = ("bad_login", 401)
    """Wrong account name or password (the same answer for both)."""
    BAD_TOKEN = ("bad_token", 403)
    """The seat token is unknown at this table, or not this connection's."""
    NOT_SEATED = ("not_seated", 403)
    """A spectator tried to act."""
    HINTS_DISABLED = ("hints_disabled", 403)
    """The table does not allow hints."""
    NOT_ALLOWED = ("not_allowed", 403)
    """A hand-over, reclaim or rematch that the rules of docs/web-api.md do not allow now."""
    NOT_FOUND = ("not_found", 404)
    """No such table or page."""
    SEAT_TAKEN = ("seat_taken", 409)
    """The seat asked for is not open."""
    NAME_TAKEN = ("name_taken", 409)
    """An account has this name, or one that looks the same (case, width, look-alike letters);
    or, joining a table, a person seated there has this name (case, width)."""
    ALREADY_SEATED = ("already_seated", 409)
    """The account already holds a seat of this rated game."""
    TABLE_FULL = ("table_full", 409)
    """The table has no open seat."""
    NOT_OPEN = ("not_open", 409)
    """The table takes no more players (its game started or ended)."""
    GAME_NOT_OVER = ("game_not_over", 409)
    """A record or replay asked for before the end of the game."""
    NOT_STARTED = ("not_started", 409)
    """The table is still waiting for players."""
    GAME_OVER = ("game_over", 409)
    """The game has ended."""
    NOT_YOUR_TURN = ("not_your_turn", 409)
    """Another seat is to move, or a computer player plays this seat."""
    ILLEGAL_ACTION = ("illegal_action", 409)
    """The action is not legal now (``rule`` names the rule)."""
    STALE = ("stale", 409)
    """The ``version`` sent is not the table's current version."""
    CONFLICT = ("conflict", 409)
    """Another server process kept changing the table; the action was not accepted."""
    BAD_CARDS = ("bad_cards", 422)
    """``POST /api/score``: a count or a colour label that cannot be scored."""
    BAD_TABLE = ("bad_table", 422)
    """``POST /api/score``: not a score table (``brown``, ``violet``)."""
    BAD_EXTRA = ("bad_extra", 422)
    """``POST /api/score``: not an Extrakarten scoring card."""
    REQUEST_TIMEOUT = ("request_timeout", 408)
    """A request's body took too long to arrive; the connection is closed."""
    TOO_LARGE = ("too_large", 413)
    """A request body or WebSocket message over the size limit."""
    RATE_LIMITED = ("rate_limited", 429)
    """Over a per-address or per-connection rate or connection limit."""
    INTERNAL = ("internal", 500)
    """A server fault; nothing was changed."""
    HINTS_UNAVAILABLE = ("hints_unavailable", 503)
    """The move advisor gave no advice."""


class Problem(Exception):
    """A refused request: nothing was changed.

    Attributes:
        code: the ``ErrorCode``; its ``status`` is the HTTP status.
        message: for people: what was wrong.
        rule: for ``illegal_action``, the broken rule (docs/rules.md section), else None.
        ref: the ``id`` of the WebSocket message refused, when known where it is raised.
    """

    def __init__(self, code: ErrorCode, message: str, rule: str | None = None, ref: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.ref = ref

    @property
    def status(self) -> int:
        """The HTTP status of the code."""
        return self.code.status

    def reply(self, ref: Any = None) -> dict[str, Any]:
        """The WebSocket ``error`` message (``id`` = ``ref`` when given)."""
        msg: dict[str, Any] = {"type": "error", "code": self.code.value, "message": self.message}
        if self.rule:
            msg["rule"] = self.rule
        if ref is not None:
            msg["id"] = ref
        return msg


def error_body(code: ErrorCode, message: str) -> dict[str, Any]:
    """The HTTP error body of docs/web-api.md."""
    return {"error": {"code": code.value, "message": message}}


def error_response(code: ErrorCode, message: str, status: int | None = None, **kw: Any) -> JSONResponse:
    """The HTTP error response: ``error_body`` with the code's status (``status`` only for
    the framework's own errors, which keep theirs, e.g. 405)."""
    return JSONResponse(error_body(code, message), status_code=status or code.status, **kw)


async def _problem(_req: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Problem)
    return error_response(exc.code, exc.message)


async def _invalid(_req: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    parts = []
    for e in exc.errors()[:3]:
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        parts.append(f"{where or 'body'}: {e.get('msg')}")
    return error_response(ErrorCode.BAD_REQUEST, "; ".join(parts) or "bad request")


async def _http(_req: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = ErrorCode.NOT_FOUND if exc.status_code == 404 else ErrorCode.BAD_REQUEST
    return error_response(code, str(exc.detail), status=exc.status_code)


def install_error_handlers(app: FastAPI) -> None:
    """Answer ``Problem``, invalid request bodies (400 ``bad_request`` naming the field) and
    the framework's own HTTP errors (404 ``not_found``, others ``bad_request`` with their
    status) with the body of docs/web-api.md."""
    app.add_exception_handler(Problem, _problem)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http)
