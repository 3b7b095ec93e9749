"""``coloretto connect URL --engine "python3 my_bot.py"``: seat a ``coloretto-engine/1``
program at a table of a running ``coloretto serve`` (docs/web-api.md).

The command is an ordinary client of the web API. In order:

1. Check everything it can before touching the table: the link, ``--time``, ``--fallback``
   (a computer player the server offers), the engine command line, and the table itself
   (``GET /api/tables/{id}``: it exists, is open, the seat asked for is open).
2. Start the engine and complete its ``hello``/``ready`` handshake (for the seat it is
   about to take, with the table's rules). If the engine cannot start or answers badly,
   the command exits with status 2 **without joining**: the seat stays open.
3. Join (``POST /api/tables/{id}/join``) unless given a seat token, open the table's
   WebSocket, say ``hello`` with the token, and whenever a ``state`` carries legal actions
   for its seat ask the engine (``coloretto.agents.external.ExternalAgent``, which enforces
   the protocol's time limits) and send the answer. A lost connection is re-opened with
   backoff.
4. If the engine fails once the seat is held (a malformed, illegal or late answer, or the
   program exited), the seat is handed to the ``--fallback`` computer player so the game
   goes on, the failure and the hand-over are reported, and the command exits with status 1
   at once (it does not wait for the end of the game; follow it at the table link).

With ``--token`` (a seat already held) the handshake happens once the server has said
which seat the token holds, before the first decision; if it fails the command exits with
status 2 and leaves the seat as it was.

Output: progress goes to standard error; the outcome to standard output (one JSON object
with ``--json``, see ``outcome_json``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

ID_PATTERNS = (r"/table/([A-Za-z0-9_-]{1,16})/?$", r"/api/tables/([A-Za-z0-9_-]{1,16})/?$",
               r"/ws/tables/([A-Za-z0-9_-]{1,16})/?$", r"/replay/([A-Za-z0-9_-]{1,16})/?$")
HAND_OVER_WAIT_S = 15.0
"""Seconds to wait for the server to confirm a hand-over (per connection attempt)."""
JOIN_ATTEMPTS = 5
"""Tries to take a seat when others take the chosen one first (no ``--seat`` given)."""

EPILOG = """\
exit status: 0 the game ended (the result is printed); 1 the engine failed during the game
(its seat was handed to --fallback, which plays on) or the server refused us; 2 bad
arguments, an unreachable or closed table, or an engine that could not start (nothing was
joined then).

--json prints one object on standard output:
  the game ended:    {"outcome": "finished", "table", "seat", "scores", "ranks", "winners", ...}
  engine failed:     {"outcome": "engine_failed", "table", "seat", "joined", "failure": {"kind",
                      "detail", "engine", "seat"}, "hand_over": {"agent", "done", "error"} | null,
                      "table_url", "result": null}
"""


def register(subparsers: Any) -> None:
    """Add the ``connect`` subcommand."""
    p = subparsers.add_parser(
        "connect",
        help="seat a coloretto-engine/1 program at a table of a coloretto server",
        description="Join the table at URL (its invite link, e.g. http://127.0.0.1:8000/table/Ab3dE9xK) "
        "and let ENGINE play the seat. The engine is started (hello/ready) before the seat is taken.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("url", help="the table's invite link (http://HOST:PORT/table/ID)")
    p.add_argument("--engine", required=True, help='command line of the engine, e.g. "python3 my_bot.py"')
    p.add_argument("--name", default="bot", help="player name to join under (default: bot)")
    p.add_argument("--seat", type=int, default=None, help="seat to take (default: the first open seat)")
    p.add_argument("--token", default=None, help="a seat token you already hold (do not join again)")
    p.add_argument("--time", default="1s", help="thinking time per decision sent to the engine (default 1s)")
    p.add_argument("--fallback", default="medium",
                   help="computer player that takes the seat if the engine fails during the game (default medium)")
    p.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
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


def outcome_json(
    *, table: str, seat: int | None, joined: bool, failure: dict[str, Any], hand_over: dict[str, Any] | None,
    table_url: str,
) -> dict[str, Any]:
    """The ``--json`` object of a run whose engine failed.

    Args:
        table: the table id.
        seat: the seat the engine played or was about to take (None if unknown).
        joined: whether the seat is held (taken by this run, or by ``--token``).
        failure: ``EngineFailure.to_json()`` (``kind``: start, malformed, illegal, timeout, exited).
        hand_over: ``{"agent", "done", "error"}`` when the seat was (or could not be) handed
            to the fallback; None when nothing was handed over (the engine failed before
            the seat was held).
        table_url: the table's invite link, to follow the game.

    Returns ``{"outcome": "engine_failed", "table", "seat", "joined", "failure",
    "hand_over", "table_url", "result": None}`` (``result`` is None: the command does not
    wait for the end of the game).
    """
    return {"outcome": "engine_failed", "table": table, "seat": seat, "joined": joined, "failure": failure,
            "hand_over": hand_over, "table_url": table_url, "result": None}


class _Observation:
    """The server's observation JSON in the shape ``ExternalAgent.act`` reads."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.seat = data.get("seat")

    def to_json(self) -> dict[str, Any]:
        return self.data


def _error_text(r: Any) -> str:
    """``code: message`` of an HTTP error answer of the server (docs/web-api.md)."""
    try:
        err = r.json()["error"]
        return f"{err['code']}: {err['message']}"
    except (ValueError, KeyError, TypeError):
        return f"HTTP {r.status_code}"


def run(args: argparse.Namespace) -> int:
    """Play the seat until the game ends (module docstring for the order of things).

    Exit status: 0 the game ended; 1 the engine failed during the game (seat handed to the
    fallback) or the server refused us; 2 bad arguments, an unreachable/closed table, or an
    engine that could not start (nothing joined).
    """
    from .._optional import require
    from .main import UsageError

    httpx = require("httpx", "web", "coloretto connect")
    ws_errors = require("websockets.exceptions", "web", "coloretto connect")
    ConnectionClosed = ws_errors.ConnectionClosed
    InvalidHandshake = ws_errors.InvalidHandshake
    InvalidURI = ws_errors.InvalidURI
    ws_connect = require("websockets.sync.client", "web", "coloretto connect").connect
    from ..agents.base import Budget
    from ..agents.external import EngineFailure, ExternalAgent
    from ..agents.registry import PEOPLE_OPPONENTS
    from ..engine.actions import Action
    from ..engine.errors import ColorettoError
    from ..engine.rules import Rules

    # ----- 1. everything that can be checked before touching the table ----------------------------
    base, ws_base, table_id = parse_table_url(args.url)
    table_url = f"{base}/table/{table_id}"
    try:
        budget = Budget.parse(args.time)
    except ValueError as exc:
        raise UsageError(f"--time: {exc}") from None
    if args.fallback not in PEOPLE_OPPONENTS:
        raise UsageError(f"--fallback {args.fallback!r} is not a computer player the server offers; "
                         f"choose one of {', '.join(PEOPLE_OPPONENTS)}")
    if args.seat is not None and args.seat < 0:
        raise UsageError(f"--seat must be 0 or more, not {args.seat}")
    if args.token is not None and args.seat is not None:
        raise UsageError("--seat and --token do not go together: a token already names its seat")
    try:
        agent = ExternalAgent(args.engine, budget=budget)
    except ColorettoError as exc:
        raise UsageError(f"--engine: {exc}") from None

    def emit(obj: dict[str, Any]) -> None:
        if args.json:
            print(json.dumps(obj))

    def not_started(exc: EngineFailure, seat: int | None, joined: bool) -> UsageError:
        emit(outcome_json(table=table_id, seat=seat, joined=joined, failure=exc.to_json(), hand_over=None,
                          table_url=table_url))
        where = "seat left as it was" if joined else "the table was not joined"
        return UsageError(f"{exc} ({where})")

    def get_table() -> dict[str, Any]:
        try:
            r = httpx.get(f"{base}/api/tables/{table_id}", timeout=10)
        except httpx.HTTPError as exc:
            raise UsageError(f"cannot reach {base}: {exc}") from None
        if r.status_code != 200:
            raise UsageError(f"table {table_id} at {base}: {_error_text(r)}")
        data: dict[str, Any] = r.json()
        return data

    try:
        token: str | None = args.token
        seat: int | None = None
        greeted = False  # the engine answered hello for the seat and game about to be played
        if token is None:
            # ----- 2. start the engine, 3. then join ----------------------------------------------
            for attempt in range(JOIN_ATTEMPTS):
                table = get_table()
                if table["status"] != "open":
                    raise UsageError(f"table {table_id} is {table['status']}: it takes no more players "
                                     "(use --token to come back to a seat you hold)")
                open_seats = [s["seat"] for s in table["seats"] if s["kind"] == "open"]
                if args.seat is not None and args.seat not in open_seats:
                    raise UsageError(f"seat {args.seat} is not open at table {table_id} "
                                     f"(open seats: {', '.join(map(str, open_seats)) or 'none'})")
                if not open_seats:
                    raise UsageError(f"table {table_id} has no open seat")
                want = args.seat if args.seat is not None else open_seats[0]
                if want != seat or not greeted:
                    try:
                        rules = Rules.from_dict(table["rules"])
                    except ColorettoError as exc:
                        raise UsageError(f"table {table_id} has rules this client does not know: {exc}") from None
                    seat = want
                    try:
                        agent.reset(seat, rules)
                    except EngineFailure as exc:
                        raise not_started(exc, seat, joined=False) from None
                    greeted = True
                    print(f"engine {agent.engine_name or args.engine!r} ready for seat {seat}", file=sys.stderr)
                try:
                    r = httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": args.name, "seat": seat},
                                   timeout=10)
                except httpx.HTTPError as exc:
                    raise UsageError(f"cannot reach {base}: {exc}") from None
                if r.status_code == 200:
                    break
                if r.status_code == 409 and args.seat is None and attempt + 1 < JOIN_ATTEMPTS:
                    continue  # someone was faster: look again
                raise UsageError(f"joining table {table_id} failed: {_error_text(r)}")
            joined = r.json()
            token, seat = joined["token"], joined["seat"]
            print(f"seated at table {table_id}, seat {seat} (token {token})", file=sys.stderr)
        assert token is not None

        def open_ws() -> Any:
            """A context manager: the table's WebSocket (say hello on entering)."""
            return ws_connect(f"{ws_base}/ws/tables/{table_id}", open_timeout=10)

        def hello(ws: Any) -> None:
            ws.send(json.dumps({"type": "hello", "token": token}))

        def fail_over(ws: Any, exc: EngineFailure) -> int:
            """The engine failed while the seat is held: hand it to the fallback, report, exit 1."""
            assert seat is not None and token is not None
            print(f"engine failed: {exc}; handing seat {seat} to {args.fallback}", file=sys.stderr)
            done, error = _hand_over(ws, open_ws, hello, seat, args.fallback,
                                     (ConnectionClosed, OSError, InvalidHandshake, TimeoutError))
            if done:
                print(f"seat {seat} is now played by {args.fallback}; the game goes on at {table_url}", file=sys.stderr)
            else:
                print(f"could not hand seat {seat} over: {error}; hand it over at {table_url} "
                      f"or come back with --token {token}", file=sys.stderr)
            emit(outcome_json(table=table_id, seat=seat, joined=True, failure=exc.to_json(),
                              hand_over={"agent": args.fallback, "done": done, "error": error}, table_url=table_url))
            return 1

        # ----- 3. play -----------------------------------------------------------------------------
        started_for: Any = None  # the game (observation "game") the engine was greeted for
        first_state = True
        failures = 0
        while True:
            try:
                with open_ws() as ws:
                    hello(ws)
                    failures = 0
                    for raw in ws:
                        msg = json.loads(raw)
                        kind = msg.get("type")
                        if kind == "welcome":
                            if msg["seat"] is None:
                                raise UsageError("the server gave no seat for this token")
                            seat = msg["seat"]
                        elif kind == "error":
                            print(f"server: {msg.get('code')}: {msg.get('message')}", file=sys.stderr)
                            if msg.get("code") == "bad_token":
                                if args.token is not None:
                                    raise UsageError(f"--token is not a seat token of table {table_id}")
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
                                    print(json.dumps({"outcome": "finished", "table": table_id, "seat": seat, **res}))
                                else:
                                    print(f"game over: scores {res['scores']}, ranks {res['ranks']}; you were seat {seat}")
                                return 0
                            if first_state:
                                first_state = False
                                if not greeted:  # --token: the seat is known now
                                    try:
                                        agent.reset(int(seat), Rules.from_dict(obs["rules"]))  # type: ignore[arg-type]
                                    except EngineFailure as exc:
                                        raise not_started(exc, seat, joined=True) from None
                                    greeted = True
                                started_for = obs.get("game")
                            if not msg["legal"]:
                                continue
                            try:
                                if started_for != obs.get("game"):  # the next game of a match
                                    agent.reset(int(seat), Rules.from_dict(obs["rules"]))  # type: ignore[arg-type]
                                    started_for = obs.get("game")
                                legal = [Action.from_json(a) for a in msg["legal"]]
                                action = agent.act(_Observation(obs), legal)  # type: ignore[arg-type]
                            except EngineFailure as exc:
                                return fail_over(ws, exc)
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


def _hand_over(
    ws: Any, reopen: Callable[[], Any], hello: Callable[[Any], None], seat: int, agent: str,
    lost: tuple[type[BaseException], ...],
) -> tuple[bool, str | None]:
    """Ask the server to hand ``seat`` (ours) to the computer player ``agent`` on the open
    connection ``ws`` and wait for it to confirm (a ``state``/``seats`` message showing the
    seat as a computer's). On a lost connection, try once more on a new one (``reopen()``
    gives a context manager of a connection, ``hello(ws)`` sits at the seat).

    Returns ``(done, error)``: ``error`` is the server's refusal or the connection problem.
    """

    def ask(conn: Any) -> tuple[bool, str | None]:
        conn.send(json.dumps({"type": "hand_over", "seat": seat, "agent": agent, "id": "hand_over"}))
        deadline = time.monotonic() + HAND_OVER_WAIT_S
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False, f"no confirmation from the server within {HAND_OVER_WAIT_S:g} s"
            msg = json.loads(conn.recv(timeout=left))
            kind = msg.get("type")
            if kind == "error" and msg.get("id") == "hand_over":
                return False, f"{msg.get('code')}: {msg.get('message')}"
            seats = msg.get("seats") if kind in ("state", "seats") else None
            if isinstance(seats, list) and seat < len(seats) and seats[seat].get("kind") == "computer":
                return True, None

    try:
        return ask(ws)
    except lost as exc:
        first = f"connection lost: {exc}"
    try:
        with reopen() as again:
            hello(again)
            return ask(again)
    except lost as exc:
        return False, f"{first}; again: {exc}"
