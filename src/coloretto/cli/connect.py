"""``coloretto connect URL --engine "python3 my_bot.py"``: seat a ``coloretto-engine/1``
program at a table of a running ``coloretto serve`` (issue 4; docs/web-api.md).

The command is an ordinary client of the web API: it joins the table (``POST
/api/tables/{id}/join``) unless given a seat token, opens the table's WebSocket, says
``hello`` with the token, and whenever a ``state`` carries legal actions for its seat it asks
the engine (through ``coloretto.agents.external.ExternalAgent``, which enforces the
protocol's time limits) and sends the answer. A lost connection is re-opened with backoff.
If the engine fails, the seat is handed to a computer player (``--fallback``) so the game
can finish, and the command exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from typing import Any
from urllib.parse import urlsplit

ID_PATTERNS = (r"/table/([A-Za-z0-9_-]{1,16})/?$", r"/api/tables/([A-Za-z0-9_-]{1,16})/?$",
               r"/ws/tables/([A-Za-z0-9_-]{1,16})/?$", r"/replay/([A-Za-z0-9_-]{1,16})/?$")


def register(subparsers: Any) -> None:
    """Add the ``connect`` subcommand."""
    p = subparsers.add_parser(
        "connect",
        help="seat a coloretto-engine/1 program at a table of a coloretto server",
        description="Join the table at URL (its invite link, e.g. http://127.0.0.1:8000/table/Ab3dE9xK) "
        "and let ENGINE play the seat.",
    )
    p.add_argument("url", help="the table's invite link (http://HOST:PORT/table/ID)")
    p.add_argument("--engine", required=True, help='command line of the engine, e.g. "python3 my_bot.py"')
    p.add_argument("--name", default="bot", help="player name to join under (default: bot)")
    p.add_argument("--seat", type=int, default=None, help="seat to take (default: the first open seat)")
    p.add_argument("--token", default=None, help="a seat token you already hold (do not join again)")
    p.add_argument("--time", default="1s", help="thinking time per decision sent to the engine (default 1s)")
    p.add_argument("--fallback", default="medium", help="computer player that takes the seat if the engine fails")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def parse_table_url(url: str) -> tuple[str, str, str]:
    """``(http_base, ws_base, table_id)`` of a table link.

    Raises:
        UsageError: not an http(s) URL naming a table.
    """
    from .main import UsageError

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"{url!r} is not an http:// or https:// link to a table")
    for pat in ID_PATTERNS:
        m = re.search(pat, parts.path)
        if m:
            base = f"{parts.scheme}://{parts.netloc}"
            ws = ("wss" if parts.scheme == "https" else "ws") + f"://{parts.netloc}"
            return base, ws, m.group(1)
    raise UsageError(f"{url!r} names no table: use the invite link, http://HOST:PORT/table/ID")


class _Observation:
    """The server's observation JSON in the shape ``ExternalAgent.act`` reads."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.seat = data.get("seat")

    def to_json(self) -> dict[str, Any]:
        return self.data


def run(args: argparse.Namespace) -> int:
    """Play the seat until the game ends. Exit status: 0 the game ended, 1 the engine
    failed or the server refused us, 2 bad arguments or an unreachable table."""
    from .main import UsageError

    try:
        import httpx
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
        from websockets.sync.client import connect as ws_connect
    except ModuleNotFoundError as exc:
        raise UsageError(f"coloretto connect needs the 'web' extra ({exc.name} missing)") from None
    from ..agents.base import Budget
    from ..agents.external import EngineFailure, ExternalAgent
    from ..engine.actions import Action
    from ..engine.errors import ColorettoError
    from ..engine.rules import Rules

    base, ws_base, table_id = parse_table_url(args.url)
    try:
        budget = Budget.parse(args.time)
    except ValueError as exc:
        raise UsageError(f"--time: {exc}") from None
    token = args.token
    seat: int | None = None
    if token is None:
        try:
            r = httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": args.name, "seat": args.seat}, timeout=10)
        except httpx.HTTPError as exc:
            raise UsageError(f"cannot reach {base}: {exc}") from None
        if r.status_code != 200:
            try:
                err = r.json()["error"]
                raise UsageError(f"joining table {table_id} failed: {err['code']}: {err['message']}")
            except (ValueError, KeyError, TypeError):
                raise UsageError(f"joining table {table_id} failed: HTTP {r.status_code}") from None
        joined = r.json()
        token, seat = joined["token"], joined["seat"]
        print(f"seated at table {table_id}, seat {seat} (token {token})", file=sys.stderr)

    try:
        agent = ExternalAgent(args.engine, budget=budget)
    except ColorettoError as exc:
        raise UsageError(str(exc)) from None
    started_for: int | None = None
    failures = 0
    try:
        while True:
            try:
                with ws_connect(f"{ws_base}/ws/tables/{table_id}", open_timeout=10) as ws:
                    failures = 0
                    ws.send(json.dumps({"type": "hello", "token": token}))
                    for raw in ws:
                        msg = json.loads(raw)
                        kind = msg.get("type")
                        if kind == "welcome":
                            seat = msg["seat"]
                            if seat is None:
                                raise UsageError("the server gave no seat for this token")
                        elif kind == "error":
                            print(f"server: {msg.get('code')}: {msg.get('message')}", file=sys.stderr)
                            if msg.get("code") == "bad_token":
                                return 1
                        elif kind == "state":
                            obs = msg["observation"]
                            if msg["status"] == "finished":
                                res = msg["result"]
                                try:
                                    agent.result(res["scores"], res["winners"])
                                except EngineFailure:
                                    pass
                                if args.json:
                                    print(json.dumps({"table": table_id, "seat": seat, **res}))
                                else:
                                    print(f"game over: scores {res['scores']}, ranks {res['ranks']}; you were seat {seat}")
                                return 0
                            if not msg["legal"]:
                                continue
                            if started_for != obs.get("game"):
                                agent.reset(int(seat), Rules.from_dict(obs["rules"]))  # type: ignore[arg-type]
                                started_for = obs.get("game")
                            legal = [Action.from_json(a) for a in msg["legal"]]
                            try:
                                action = agent.act(_Observation(obs), legal)  # type: ignore[arg-type]
                            except EngineFailure as exc:
                                print(f"engine failed: {exc}; handing seat {seat} to {args.fallback}", file=sys.stderr)
                                ws.send(json.dumps({"type": "hand_over", "seat": seat, "agent": args.fallback}))
                                return 1
                            ws.send(json.dumps({"type": "action", "action": action.to_json(), "version": msg["version"]}))
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError) as exc:
                failures += 1
                if failures > 30:
                    print(f"connection lost for good: {exc}", file=sys.stderr)
                    return 1
                time.sleep(min(5.0, 0.5 * failures))  # reconnect with backoff
            except InvalidURI as exc:
                raise UsageError(str(exc)) from None
    finally:
        agent.close()
