"""The score sheet for a physical table: the ``/score`` page, its service worker and
``POST /api/score`` (docs/web-api.md, "Score sheet").

The page computes scores in the browser (``web/scoring.js``) so that it works offline; the
endpoint answers the same question on the server with :func:`coloretto.engine.tally.cards_report`,
the object ``coloretto score --json`` prints.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..engine.jsontypes import json_type
from ..engine.tally import TallyError, cards_report
from .errors import ErrorCode, error_response

SCORE_STATUS = 422
"""The HTTP status of every refusal of ``POST /api/score``, whatever its code (docs/web-api.md:
this endpoint answers bad input with 422, ``bad_request`` included)."""

SCORE_PATH = "/api/score"
"""Where the calculator is served (its bad input, also an unreadable body, gets ``SCORE_STATUS``)."""

TALLY_CODES: dict[str, ErrorCode] = {"cards": ErrorCode.BAD_CARDS, "table": ErrorCode.BAD_TABLE,
                                     "extra": ErrorCode.BAD_EXTRA}
"""``TallyError.field`` -> the code that refuses it."""

SW_VERSION_MARK = "__SHEET_VERSION__"
"""Replaced in ``web/score-sw.js`` by a hash of the client's files: any change of a file
installs a new service worker, which caches the new files."""

_ERROR_BODY = {
    "description": "bad input: `bad_request` (not a JSON object, a field missing, unknown or "
    "of the wrong type), `bad_cards`, `bad_table`, `bad_extra`; the message says what is wrong",
    "content": {"application/json": {"example": {"error": {
        "code": "bad_cards", "message": "'green': 10 is too many; a colour has 9 cards (give 0 to 9)"}}}},
}


class ScoreRequest(BaseModel):
    """``POST /api/score`` body. Types are strict: counts are JSON integers."""

    model_config = ConfigDict(strict=True, extra="forbid")
    cards: dict[str, int] = Field(
        description="label -> count: colour labels of your choice (at most 7, 0 to 9 cards each) "
        "and joker (0 to 3), golden_joker (0 or 1), plus2 (0 to 10; also written +2)",
        examples=[{"green": 6, "yellow": 4, "red": 3, "blue": 2, "joker": 1, "plus2": 1}],
    )
    table: str = Field("brown", description="score table: brown or violet")
    extra: str | None = Field(
        None, description="Extrakarten scoring card: null, single_three, triple_three or triple_minus"
    )


class ScoreReport(BaseModel):
    """The answer: the object ``coloretto score --json`` prints."""

    total: int
    table: str
    extra: str | None
    positive: dict[str, int] = Field(description="label -> points of the (at most 3) positive colours, best first")
    negative: dict[str, int] = Field(description="label -> negative points of every other colour held")
    jokers: dict[str, int] = Field(description="label -> jokers (golden included) placed on that colour")
    plus2: int = Field(description='points of the "+2" cards')
    plus2_cards: int
    counts: dict[str, int] = Field(description="label -> cards after the jokers")
    placements: int = Field(description="joker placements tried")


def _validation_message(exc: ValidationError) -> str:
    """``field.path: problem`` for the first three errors, as the other endpoints say it."""
    parts = []
    for e in exc.errors()[:3]:
        where = ".".join(str(x) for x in e.get("loc", ()))
        parts.append(f"{where or 'body'}: {e.get('msg')}")
    return "; ".join(parts) or "bad request"


def _files_version(web_dir: Path, memo: dict[tuple[tuple[str, int, int], ...], str]) -> str:
    """A short hash of every file of the client (recomputed when a file's size or time changes)."""
    files = sorted(p for p in web_dir.rglob("*") if p.is_file())
    key = tuple((str(p.relative_to(web_dir)), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    version = memo.get(key)
    if version is None:
        digest = hashlib.sha256()
        for p in files:
            digest.update(str(p.relative_to(web_dir)).encode() + b"\0" + p.read_bytes() + b"\0")
        version = digest.hexdigest()[:16]
        memo.clear()
        memo[key] = version
    return version


def score_router(web_dir: Path) -> APIRouter:
    """Routes of the score sheet; ``web_dir`` holds ``score.html`` and ``score-sw.js``."""
    router = APIRouter()
    memo: dict[tuple[tuple[str, int, int], ...], str] = {}

    @router.post(
        SCORE_PATH,
        tags=["scoring"],
        response_model=ScoreReport,
        responses={422: _ERROR_BODY},
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/json": {"schema": ScoreRequest.model_json_schema()}}}},
    )
    async def score(request: Request) -> Any:
        """The optimal score of one collection (docs/rules.md §6): the best joker placement and
        the three positive colours, with the explanation."""
        try:
            data = json.loads(await request.body())
        except (ValueError, UnicodeDecodeError):
            return error_response(ErrorCode.BAD_REQUEST, "the body must be one JSON object", SCORE_STATUS)
        if not isinstance(data, dict):
            return error_response(ErrorCode.BAD_REQUEST, f"the body must be a JSON object, not {json_type(data)}",
                                  SCORE_STATUS)
        try:
            body = ScoreRequest.model_validate(data)
        except ValidationError as exc:
            return error_response(ErrorCode.BAD_REQUEST, _validation_message(exc), SCORE_STATUS)
        try:
            return cards_report(body.cards, body.table, body.extra)
        except TallyError as exc:
            return error_response(TALLY_CODES[exc.field], str(exc), SCORE_STATUS)

    @router.get("/score", include_in_schema=False)
    async def sheet() -> Response:
        page = web_dir / "score.html"
        if not page.is_file():
            return error_response(ErrorCode.NOT_FOUND, "the score sheet is not installed")
        return FileResponse(page, media_type="text/html")

    @router.get("/score-sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        script = web_dir / "score-sw.js"
        if not script.is_file():
            return error_response(ErrorCode.NOT_FOUND, "the score sheet is not installed")
        text = script.read_text(encoding="utf-8").replace(SW_VERSION_MARK, _files_version(web_dir, memo))
        return Response(text, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    return router
