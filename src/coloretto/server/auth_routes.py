"""The account endpoints (docs/web-api.md, "Accounts"): sign up, log in, log out, who is
signed in; and ``AccountDep``, the signed-in account of a request (from its session
cookie), for the endpoints that seat people.

The session cookie (``accounts.SESSION_COOKIE``) is signed, ``HttpOnly`` (scripts cannot
read it), ``SameSite=Lax`` (other sites cannot send it with their POSTs), ``Secure`` when
the request came over HTTPS, and lives ``accounts.SESSION_DAYS`` days.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from .accounts import SESSION_COOKIE, SESSION_DAYS, Account
from .hub import Hub
from .schemas import Credentials


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def current_account(request: Request) -> Account | None:
    """The account signed in by the request's session cookie, or None (a guest)."""
    return await _hub(request).accounts.from_cookie(request.cookies.get(SESSION_COOKIE))


AccountDep = Annotated[Account | None, Depends(current_account)]
"""The signed-in account of a request, or None."""

auth = APIRouter(tags=["accounts"])
"""``/api/accounts`` and ``/api/session``."""


def _account_json(account: Account | None) -> dict[str, Any]:
    return {"account": None if account is None else {"id": account.id, "name": account.name}}


async def _signed_in(request: Request, response: Response, account: Account) -> dict[str, Any]:
    value = await _hub(request).accounts.session_cookie(account)
    response.set_cookie(
        SESSION_COOKIE,
        value,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return _account_json(account)


@auth.post("/api/accounts", status_code=201)
async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Create an account and sign in with it (sets the session cookie)."""
    account = await _hub(request).accounts.sign_up(body.name, body.password)
    return await _signed_in(request, response, account)


@auth.post("/api/session")
async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Sign in with a name and password (sets the session cookie)."""
    account = await _hub(request).accounts.log_in(body.name, body.password)
    return await _signed_in(request, response, account)


@auth.get("/api/session")
async def session(account: AccountDep) -> dict[str, Any]:
    """Who is signed in: ``{"account": {"id", "name"}}`` or ``{"account": null}``."""
    return _account_json(account)


@auth.delete("/api/session")
async def log_out(request: Request, response: Response) -> dict[str, Any]:
    """Sign out: the account's sessions end (on every device) and the cookie is cleared."""
    await _hub(request).accounts.log_out(request.cookies.get(SESSION_COOKIE))
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return _account_json(None)
