"""The error codes: one ``ErrorCode`` enum, and docs/web-api.md's two error tables agree with
it (every code documented, every documented code defined, HTTP statuses equal)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from types import ModuleType

import pytest
from backends import Backend

from coloretto.server import bus, clock, errors, jsonin
from coloretto.server.errors import ErrorCode, Problem
from coloretto.server.score_api import SCORE_STATUS

DOC = Path(__file__).resolve().parents[2] / "docs" / "web-api.md"


def doc_table(header: str) -> list[list[str]]:
    """The body rows (cells) of the markdown table of docs/web-api.md under ``header``."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    assert lines.count(header) == 1, f"docs/web-api.md must have one table headed {header!r}"
    rows = []
    for line in lines[lines.index(header) + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def codes_in(cell: str) -> list[str]:
    """The backticked codes of a cell, leaving out what is in parentheses (explanations)."""
    while True:
        bare = re.sub(r"\([^()]*\)", "", cell)
        if bare == cell:
            break
        cell = bare
    return re.findall(r"`([a-z_]+)`", cell)


def test_the_documented_error_codes_are_the_enum() -> None:
    http: dict[str, int] = {}
    score: set[str] = set()
    for status, cell in doc_table("| status | codes |"):
        if cell.startswith("`POST /api/score` only"):  # every refusal there is 422, whatever its code
            assert int(status) == SCORE_STATUS
            score.update(codes_in(cell))
        else:
            http.update({code: int(status) for code in codes_in(cell)})
    http.update({code: SCORE_STATUS for code in score - set(http)})
    ws = [codes_in(row[0])[0] for row in doc_table("| code | when |")]
    assert len(ws) == len(set(ws)), "a code is listed twice in the WebSocket table"
    defined = {c.value: c.status for c in ErrorCode}
    assert set(http) | set(ws) == set(defined), "docs/web-api.md and ErrorCode list different codes"
    assert {code: defined[code] for code in http} == http, "an HTTP status in docs/web-api.md differs from ErrorCode"
    assert len(defined) == len(ErrorCode) == 36


def test_codes_and_statuses() -> None:
    assert ErrorCode("seat_taken") is ErrorCode.SEAT_TAKEN and ErrorCode.SEAT_TAKEN == "seat_taken"
    assert all(400 <= c.status < 600 for c in ErrorCode)
    p = Problem(ErrorCode.ILLEGAL_ACTION, "take row 9 is not legal now", rule="§3 take")
    assert p.status == 409 and str(p) == "take row 9 is not legal now"
    assert p.reply() == {"type": "error", "code": "illegal_action", "message": "take row 9 is not legal now", "rule": "§3 take"}
    with pytest.raises(ValueError):
        ErrorCode("no_such_code")


@pytest.mark.parametrize("module", [errors, bus, clock, jsonin], ids=lambda m: m.__name__)
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_http_errors_carry_the_code_and_its_status() -> None:
    """What the server answers is the enum's: the status goes with the code (a wrong method
    keeps the framework's 405)."""
    with Backend("memory").client() as c:
        r = c.get("/api/tables/nope")
        assert r.status_code == ErrorCode.NOT_FOUND.status and r.json()["error"]["code"] == "not_found"
        r = c.post("/api/tables", json={"name": "A", "seats": [{"kind": "human"}]})
        assert r.status_code == ErrorCode.BAD_REQUEST.status and r.json()["error"]["code"] == "bad_request"
        r = c.delete("/api/tables")
        assert r.status_code == 405 and r.json()["error"]["code"] == "bad_request"
        tid = c.post("/api/tables", json={"name": "A", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()["table"]["id"]
        r = c.get(f"/api/tables/{tid}/record")
        assert r.status_code == ErrorCode.GAME_NOT_OVER.status and r.json()["error"]["code"] == "game_not_over"
