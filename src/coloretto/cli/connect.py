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
with ``--json``, see ``outcome_json``). Seats are counted from 1 for people (``--seat 1`` is
the first seat, and every message says so) and from 0 in the JSON, as in the web API.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..agents.base import Budget
from ..agents.external import EngineFailure, ExternalAgent
from ..arena.driver import FailurePolicy, ask, deliver_results
from ..engine.actions import Action, short_repr
from ..engine.errors import ColorettoError
from ..engine.observation import Observation
from ..engine.rules import Rules
from .main import DashValue, UsageError

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

--seat counts from 1 (seat 1 is the first seat), as the messages do; the JSON counts seats
from 0, as the web API does.

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
    p.add_argument("--seat", type=int, default=None, metavar="N",
                   help="seat to take, counted from 1: seat 1 is the first seat (default: the first open seat)")
    p.add_argument("--token", default=None, help="a seat token you already hold (do not join again)")
    p.add_argument("--time", action=DashValue, default="1s", help="thinking time per decision sent to the engine (default 1s)")
    p.add_argument("--fallback", default="medium",
                   help="computer player that takes the seat if the engine fails during the game (default medium)")
    p.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    p.set_defaults(func=run)


def parse_table_url(url: str) -> tuple[str, str, str]:
    """``(http_base, ws_base, table_id)`` of a table link.

    Raises:
        UsageError: not an http(s) URL naming a table.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"{short_repr(url)} is not an http:// or https:// link to a table")
    for pat in ID_PATTERNS:
        m = re.search(pat, parts.path)
        if m:
            base = f"{parts.scheme}://{parts.netloc}"
            ws = ("wss" if parts.scheme == "https" else "ws") + f"://{parts.netloc}"
            return base, ws, m.group(1)
    raise UsageError(f"{short_repr(url)} names no table: use the invite link, http://HOST:PORT/table/ID")


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


def _error_text(r: Any) -> str:
    """``code: message`` of an HTTP error answer of the server (docs/web-api.md)."""
    try:
        err = r.json()["error"]
        return f"{err['code']}: {err['message']}"
    except (ValueError, KeyError, TypeError):
        return f"HTTP {r.status_code}"


@dataclass
class _Libraries:
    """The ``web`` extra's client libraries, loaded once (``require`` explains a missing one)."""

    httpx: Any
    ws_connect: Any
    lost: tuple[type[BaseException], ...]
    invalid_uri: type[BaseException]

    @classmethod
    def load(cls) -> _Libraries:
        from .._optional import require

        httpx = require("httpx", "web", "coloretto connect")
        errors = require("websockets.exceptions", "web", "coloretto connect")
        connect = require("websockets.sync.client", "web", "coloretto connect").connect
        lost = (errors.ConnectionClosed, OSError, errors.InvalidHandshake, TimeoutError)
        return cls(httpx, connect, lost, errors.InvalidURI)


@dataclass
class _Client:
    """One run of ``coloretto connect``: the table, the engine and the seat it plays.

    The engine is asked through the driver (``arena.driver.ask``, with the observation read
    by ``Observation.from_json``); its failure policy is ``fallback:AGENT`` (``--fallback``)
    covering engine failures, carried out by handing the seat to the server's computer
    player ``AGENT``.
    """

    args: argparse.Namespace
    lib: _Libraries
    base: str
    ws_base: str
    table_id: str
    agent: ExternalAgent
    policy: FailurePolicy
    token: str | None = None
    seat: int | None = None
    greeted: bool = False
    started_for: Any = None
    first_state: bool = True

    @property
    def table_url(self) -> str:
        return f"{self.base}/table/{self.table_id}"

    def emit(self, obj: dict[str, Any]) -> None:
        if self.args.json:
            print(json.dumps(obj))

    def not_started(self, exc: EngineFailure, joined: bool) -> UsageError:
        """Report an engine that failed its handshake (nothing is played for it)."""
        self.emit(outcome_json(table=self.table_id, seat=self.seat, joined=joined, failure=exc.to_json(),
                               hand_over=None, table_url=self.table_url))
        where = "seat left as it was" if joined else "the table was not joined"
        return UsageError(f"{exc} ({where})")

    def greet(self, seat: int, rules_json: Any, joined: bool) -> None:
        """The engine's ``hello``/``ready`` for ``seat`` under the table's rules."""
        try:
            rules = Rules.from_dict(rules_json)
        except ColorettoError as exc:
            raise UsageError(f"table {self.table_id} has rules this client does not know: {exc}") from None
        self.seat = seat
        try:
            self.agent.reset(seat, rules)
        except EngineFailure as exc:
            raise self.not_started(exc, joined) from None
        self.greeted = True

    # ----- 2. start the engine, 3. then join --------------------------------------------------
    def get_table(self) -> dict[str, Any]:
        httpx = self.lib.httpx
        try:
            r = httpx.get(f"{self.base}/api/tables/{self.table_id}", timeout=10)
        except httpx.HTTPError as exc:
            raise UsageError(f"cannot reach {self.base}: {exc}") from None
        if r.status_code != 200:
            raise UsageError(f"table {self.table_id} at {self.base}: {_error_text(r)}")
        data: dict[str, Any] = r.json()
        return data

    def open_seat(self, table: dict[str, Any]) -> int:
        """The seat to take at ``table``, counted from 0 as the API counts: ``--seat``
        (counted from 1) or the first open one.

        Raises:
            UsageError: the table takes no players, has no open seat, has no seat ``--seat``
                or that seat is not open (messages count seats from 1).
        """
        if table["status"] != "open":
            raise UsageError(f"table {self.table_id} is {table['status']}: it takes no more players "
                             "(use --token to come back to a seat you hold)")
        open_seats = [s["seat"] for s in table["seats"] if s["kind"] == "open"]
        asked: int | None = self.args.seat
        if asked is not None and asked > len(table["seats"]):
            raise UsageError(f"--seat {asked}: table {self.table_id} has {len(table['seats'])} seats "
                             f"(seat 1 is the first seat)")
        if asked is not None and asked - 1 not in open_seats:
            raise UsageError(f"seat {asked} is not open at table {self.table_id} "
                             f"(open seats: {', '.join(str(s + 1) for s in open_seats) or 'none'})")
        if not open_seats:
            raise UsageError(f"table {self.table_id} has no open seat")
        return asked - 1 if asked is not None else int(open_seats[0])

    def join(self) -> None:
        """Greet the engine for the seat to take, then take it (retrying when someone else
        takes the chosen seat first and no ``--seat`` was given)."""
        httpx = self.lib.httpx
        for attempt in range(JOIN_ATTEMPTS):
            table = self.get_table()
            want = self.open_seat(table)
            if want != self.seat or not self.greeted:
                self.greet(want, table["rules"], joined=False)
                print(f"engine {self.agent.engine_name or self.args.engine!r} ready for seat {want + 1}",
                      file=sys.stderr)
            try:
                r = httpx.post(f"{self.base}/api/tables/{self.table_id}/join",
                               json={"name": self.args.name, "seat": want}, timeout=10)
            except httpx.HTTPError as exc:
                raise UsageError(f"cannot reach {self.base}: {exc}") from None
            if r.status_code == 200:
                joined = r.json()
                self.token, self.seat = joined["token"], joined["seat"]
                print(f"seated at table {self.table_id}, seat {self.seat + 1} (token {self.token})",
                      file=sys.stderr)
                return
            if not (r.status_code == 409 and self.args.seat is None and attempt + 1 < JOIN_ATTEMPTS):
                break
        raise UsageError(f"joining table {self.table_id} failed: {_error_text(r)}")

    # ----- 3. play ----------------------------------------------------------------------------
    def open_ws(self) -> Any:
        """A context manager: the table's WebSocket."""
        return self.lib.ws_connect(f"{self.ws_base}/ws/tables/{self.table_id}", open_timeout=10)

    def hello(self, ws: Any) -> None:
        ws.send(json.dumps({"type": "hello", "token": self.token}))

    def play(self) -> int:
        """Play on the table's WebSocket until the game ends, re-opening a lost connection
        with backoff; the exit status."""
        failures = 0
        while True:
            try:
                with self.open_ws() as ws:
                    self.hello(ws)
                    failures = 0
                    for raw in ws:
                        status = self.on_message(ws, json.loads(raw))
                        if status is not None:
                            return status
            except self.lib.lost as exc:
                failures += 1
                if failures > 30:
                    print(f"connection lost for good: {exc}", file=sys.stderr)
                    return 1
                time.sleep(min(5.0, 0.5 * failures))  # reconnect with backoff
            except self.lib.invalid_uri as exc:
                raise UsageError(str(exc)) from None

    def on_message(self, ws: Any, msg: dict[str, Any]) -> int | None:
        """Handle one server message; an exit status ends the run."""
        kind = msg.get("type")
        if kind == "welcome":
            if msg["seat"] is None:
                raise UsageError("the server gave no seat for this token")
            self.seat = msg["seat"]
        elif kind == "error":
            print(f"server: {msg.get('code')}: {msg.get('message')}", file=sys.stderr)
            if msg.get("code") == "bad_token":
                if self.args.token is not None:
                    raise UsageError(f"--token is not a seat token of table {self.table_id}")
                return 1
        elif kind == "state":
            return self.on_state(ws, msg)
        return None

    def on_state(self, ws: Any, msg: dict[str, Any]) -> int | None:
        """A ``state`` message: the end of the game, or a decision of ours to answer."""
        obs = msg["observation"]
        if msg["status"] == "finished":
            return self.finished(msg["result"])
        if self.first_state:
            self.first_state = False
            if not self.greeted:  # --token: the seat is known now
                self.greet(self.my_seat(), obs["rules"], joined=True)
            self.started_for = obs.get("game")
        if not msg["legal"]:
            return None
        try:
            if self.started_for != obs.get("game"):  # the next game of a match
                self.agent.reset(self.my_seat(), Rules.from_dict(obs["rules"]))
                self.started_for = obs.get("game")
            action = ask(self.agent, self.observation(obs), [Action.from_json(a) for a in msg["legal"]])
        except Exception as exc:
            if not self.policy.handles(exc):
                raise
            return self.fail_over(ws, exc)
        ws.send(json.dumps({"type": "action", "action": action.to_json(), "version": msg["version"]}))
        return None

    def my_seat(self) -> int:
        if self.seat is None:
            raise UsageError("the server has not said which seat this token holds")
        return self.seat

    def observation(self, data: Any) -> Observation:
        """The server's observation JSON read back (``Observation.from_json``)."""
        try:
            return Observation.from_json(data)
        except ColorettoError as exc:
            raise UsageError(f"the server sent an observation this client cannot read: {exc}") from None

    def finished(self, res: dict[str, Any]) -> int:
        """The game ended: tell the engine, print the result; exit status 0."""
        deliver_results([self.agent], res["scores"], res["winners"])
        if self.args.json:
            print(json.dumps({"outcome": "finished", "table": self.table_id, "seat": self.seat, **res}))
        else:
            seat = "?" if self.seat is None else self.seat + 1
            print(f"game over: scores {res['scores']}, ranks {res['ranks']}; you were seat {seat}")
        return 0

    def fail_over(self, ws: Any, exc: Exception) -> int:
        """The engine failed while the seat is held: the policy's fallback takes the seat
        (a hand-over to the server's computer player); report; exit status 1."""
        seat, fallback = self.my_seat(), self.policy.agent
        assert self.token is not None and fallback is not None and isinstance(exc, EngineFailure)
        print(f"engine failed: {exc}; handing seat {seat + 1} to {fallback}", file=sys.stderr)
        done, error = _hand_over(ws, self.open_ws, self.hello, seat, fallback, self.lib.lost)
        if done:
            print(f"seat {seat + 1} is now played by {fallback}; the game goes on at {self.table_url}",
                  file=sys.stderr)
        else:
            print(f"could not hand seat {seat + 1} over: {error}; hand it over at {self.table_url} "
                  f"or come back with --token {self.token}", file=sys.stderr)
        self.emit(outcome_json(table=self.table_id, seat=seat, joined=True, failure=exc.to_json(),
                               hand_over={"agent": fallback, "done": done, "error": error},
                               table_url=self.table_url))
        return 1


def _client(args: argparse.Namespace) -> _Client:
    """Check everything that can be checked before touching the table, and start the
    engine's program (step 1 of the module docstring).

    Raises:
        UsageError: a bad link, ``--time``, ``--fallback``, ``--seat``/``--token`` or engine
            command line.
    """
    from ..agents.registry import PEOPLE_OPPONENTS

    lib = _Libraries.load()
    base, ws_base, table_id = parse_table_url(args.url)
    try:
        budget = Budget.parse(args.time)
    except ValueError as exc:
        raise UsageError(f"--time: {exc}") from None
    if args.fallback not in PEOPLE_OPPONENTS:
        raise UsageError(f"--fallback {short_repr(args.fallback)} is not a computer player the server offers; "
                         f"choose one of {', '.join(PEOPLE_OPPONENTS)}")
    if args.seat is not None and args.seat < 1:
        raise UsageError(f"--seat {args.seat}: seats are counted from 1 (seat 1 is the first seat)")
    if args.token is not None and args.seat is not None:
        raise UsageError("--seat and --token do not go together: a token already names its seat")
    try:
        agent = ExternalAgent(args.engine, budget=budget)
    except ColorettoError as exc:
        raise UsageError(f"--engine: {exc} (such as --engine 'python3 my_bot.py')") from None
    policy = FailurePolicy("fallback", args.fallback, covers="engines")
    return _Client(args, lib, base, ws_base, table_id, agent, policy, token=args.token)


def run(args: argparse.Namespace) -> int:
    """Play the seat until the game ends (module docstring for the order of things).

    Exit status: 0 the game ended; 1 the engine failed during the game (seat handed to the
    fallback) or the server refused us; 2 bad arguments, an unreachable/closed table, or an
    engine that could not start (nothing joined).
    """
    client = _client(args)
    try:
        if client.token is None:
            client.join()
        return client.play()
    finally:
        client.agent.close()


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
