"""The HTTP request and response bodies (pydantic models; also the OpenAPI schema at
``/openapi.json``). docs/web-api.md describes each field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

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
    name: str | None = Field(None, description="the creator's player name (required with a human seat; a rated table uses the account's)")
    seats: list[SeatSpec] = Field(description="2 to 5 seats")
    seat: int | None = Field(None, description="the creator's seat (default: first human seat)")
    rules: dict[str, Any] = Field(default_factory=dict, description="options of docs/rules.md §7")
    preset: str | None = Field(None, description="a preset name, applied before rules")
    hints: bool = False
    rated: bool = Field(False, description="rated (leaderboard): needs a signed-in creator, no hints, two or more people")
    title: str = Field("", max_length=60)
    private: bool = Field(False, description="not listed in the lobby; joined through the invite link")
    time_control: dict[str, Any] | None = Field(
        None, description='{"kind": "none"}, {"kind": "move", "seconds": 45, "agent": "medium"} or {"kind": "day"}'
    )


class MyTables(BaseModel):
    """``POST /api/tables/mine`` body: the seat tokens this browser keeps, by table id."""

    model_config = STRICT
    tokens: dict[str, str] = Field(description="table id -> seat token (at most 100)")


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join`` body."""

    model_config = STRICT
    name: str | None = Field(None, description="the player's name (at a rated table: the account's name is used)")
    seat: int | None = None


class SeatGranted(BaseModel):
    """A seat and its secret token (shown once)."""

    table: dict[str, Any]
    seat: int | None
    token: str | None
    ws_url: str


class Credentials(BaseModel):
    """``POST /api/accounts`` (sign up) and ``POST /api/session`` (log in) body."""

    model_config = STRICT
    name: str = Field(description="the account name (2 to 24 characters; compared ignoring case and look-alike letters)")
    password: str = Field(description="8 to 256 characters")
