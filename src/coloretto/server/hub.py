"""The heart of the server: tables in memory, the path of an action (check, commit,
broadcast), computer players, presence, and Redis pub/sub between server processes.

The path of an action (docs/web-api.md "Guarantees"):
1. under the table's lock, check it against the engine's legal actions for the seat;
2. commit it in one transaction that moves the table's ``version`` from n to n + 1
   (``Store.append_action``); if another process moved it first, reload and re-check;
3. only then apply it in memory, queue the new ``state`` to every connection, and
   publish ``{"k": "action"}`` on Redis so other processes load it from the database.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from .._optional import require
from ..agents.base import Agent
from ..agents.registry import PEOPLE_OPPONENTS, make_agent
from ..engine.actions import Action
from ..engine.errors import ColorettoError
from ..engine.observation import observe
from ..engine.record import setup_to_json
from ..engine.rules import Rules
from ..engine.rules import preset as make_preset
from ..engine.state import hash_seed, new_game
from .config import Settings
from .db import SeatData, Store, TableData, make_engine, now, token_hash, upgrade
from .live import LiveTable, action_text, seat_name, seat_text

log = logging.getLogger("coloretto.server")
T = TypeVar("T")
CHANNEL = "coloretto:tables"
DEFAULT_AGENT = "medium"


@dataclass
class Problem(Exception):
    """A refused request: ``code`` of docs/web-api.md, a message, and the HTTP status."""

    code: str
    message: str
    status: int = 400
    rule: str | None = None

    def reply(self, ref: Any = None) -> dict[str, Any]:
        """The WebSocket ``error`` message."""
        msg: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule:
            msg["rule"] = self.rule
        if ref is not None:
            msg["id"] = ref
        return msg


class Conn:
    """One WebSocket connection: its seat, what it has been sent, and its outbox.

    Messages are queued (``send``) and written by ``writer`` so that a slow client never
    delays the others; a client that falls 1000 messages behind is disconnected.
    """

    MAX_QUEUE = 1000

    def __init__(self, ip: str) -> None:
        self.ip = ip
        self.table: LiveTable | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.log_sent = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.greeted = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (serialised now, so later changes do not leak into it)."""
        if self.queue.qsize() >= self.MAX_QUEUE:
            self.queue.put_nowait(None)  # writer closes the connection
            return
        self.queue.put_nowait(json.dumps(message, separators=(",", ":")))

    def send_state(self, table: LiveTable, full: bool = False, ack: Any = None) -> None:
        """Queue a ``state`` with the log entries this connection has not had yet."""
        start = 0 if full else min(self.log_sent, table.version)
        if self.queue.qsize() >= self.MAX_QUEUE:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(table.state_text(self.seat, start, ack))
        self.log_sent = table.version


class Hub:
    """Everything the application shares: database, live tables, computer players, Redis."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(settings.database_url)
        self.store = Store(self.engine)
        # SQLite: one writer thread (its writes serialise anyway); PostgreSQL: a few.
        self.db_pool = ThreadPoolExecutor(1 if settings.is_sqlite else 8, thread_name_prefix="db")
        self.agent_pool = ThreadPoolExecutor(settings.agent_threads, thread_name_prefix="agent")
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.redis: Any = None
        self._pending: list[tuple[Any, asyncio.Future[bool]]] = []
        self._committer: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self.started = False

    # ----- life cycle ----------------------------------------------------------------------
    async def start(self) -> None:
        """Upgrade the schema, connect Redis, and resume every game in progress (computer
        players whose turn it is start thinking again)."""
        await self.db(upgrade, self.engine)
        if self.settings.redis_url:
            aioredis = require("redis.asyncio", "web", "--redis-url")
            self.redis = aioredis.from_url(self.settings.redis_url)
            await self.redis.ping()
            ready = asyncio.Event()
            self._tasks.append(asyncio.create_task(self._subscribe(ready)))
            await ready.wait()
        ids = await self.db(self.store.table_ids, ["playing"], 100000)
        for table_id in ids:
            t = await self.get(table_id)
            if t is not None:
                self.schedule_computer(t)
        self.started = True
        log.info("server process %s ready: %d game(s) resumed", self.settings.process_id, len(ids))

    async def stop(self) -> None:
        """Stop background tasks, computer players, pools and connections."""
        for t in list(self.tables.values()):
            if t.computer_task is not None:
                t.computer_task.cancel()
            for agent in t.agents.values():
                try:
                    agent.close()
                except Exception as exc:  # noqa: BLE001 - shutting down: a failing agent must not stop the rest  # pragma: no cover
                    log.debug("closing a computer player failed: %s", exc)
        for task in self._tasks:
            task.cancel()
        if self.redis is not None:
            try:
                await self.redis.aclose()
            except Exception as exc:  # noqa: BLE001 - shutting down: the connection may be gone already  # pragma: no cover
                log.debug("closing redis failed: %s", exc)
        self.agent_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)
        self.engine.dispose()

    async def commit(self, table_id: str, version: int, seat: int, code: int, results: Any) -> bool:
        """Commit one action through the group committer: actions arriving while a
        transaction is being written are committed together in the next one. Returns
        whether the action was accepted (see ``Store.append_actions``)."""
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append(((table_id, version, seat, code, results), fut))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_loop())
        return await fut

    async def _commit_loop(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:500], self._pending[500:]
            started = time.perf_counter()
            try:
                ok = await self.db(self.store.append_actions, [item for item, _ in batch])
                took = time.perf_counter() - started
                if took > 0.2:
                    log.warning("slow commit: %d action(s) took %.0f ms", len(batch), took * 1000)
            except Exception as exc:  # noqa: BLE001 - handed to every waiting action (each re-raises it)
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            for (_, fut), accepted in zip(batch, ok):
                if not fut.done():
                    fut.set_result(accepted)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking storage function on the database thread(s)."""
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    # ----- tables --------------------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable | None:
        """The live table (loaded from the database on first use), or None."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 16:
            return None
        fut = self._loading.get(table_id)
        if fut is not None:
            return await asyncio.shield(fut)
        fut = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            data = await self.db(self.store.load_table, table_id)
            t = LiveTable(data) if data is not None else None
            if t is not None:
                self.tables[table_id] = t
            fut.set_result(t)
            return t
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # mark retrieved
            raise
        finally:
            del self._loading[table_id]

    async def create_table(
        self,
        *,
        name: str | None,
        seats: list[dict[str, Any]],
        seat: int | None,
        rules: dict[str, Any],
        preset: str | None,
        hints: bool,
        rated: bool,
        title: str,
    ) -> tuple[LiveTable, int | None, str | None]:
        """Create and store a table; the creator takes ``seat``. Returns the table, the
        creator's seat and token (None, None when the creator took no seat).

        Raises:
            Problem: bad seats, rules, preset, agent or name.
        """
        n = len(seats)
        if not 2 <= n <= 5:
            raise Problem("bad_request", f"a table has 2 to 5 seats, not {n}")
        rules = dict(rules)
        if "players" in rules and (type(rules["players"]) is not int or rules["players"] != n):
            raise Problem("bad_rules", f"rules.players must be the number of seats, the integer {n}, not {rules['players']!r}")
        rules["players"] = n
        try:
            if preset is not None:
                players = rules.pop("players")
                r = make_preset(preset, players, **rules)
            else:
                r = Rules.from_dict(rules)
        except (ColorettoError, TypeError, ValueError) as exc:
            raise Problem("bad_rules", str(exc)) from None
        seat_rows: list[SeatData] = []
        for i, s in enumerate(seats):
            kind = s.get("kind")
            if kind == "human":
                seat_rows.append(SeatData(i, "open", None, None, None, False))
            elif kind == "computer":
                agent = s.get("agent") or DEFAULT_AGENT
                check_agent(agent)
                seat_rows.append(SeatData(i, "computer", None, agent, None, False))
            else:
                raise Problem("bad_request", f"seats[{i}].kind must be 'human' or 'computer', not {kind!r}")
        humans = [s.seat for s in seat_rows if s.kind == "open"]
        token = None
        if humans:
            if name is None:
                raise Problem("bad_name", "name is required to sit at the table")
            name = check_name(name)
            if seat is None:
                seat = humans[0]
            if seat not in humans:
                raise Problem("bad_request", f"seat: {seat!r} is not a human seat of this table")
            token = secrets.token_urlsafe(24)
            sd = seat_rows[seat]
            sd.kind, sd.name, sd.token_hash = "human", name, token_hash(token)
        else:
            seat = None
        seed = secrets.randbits(63)
        try:
            state = new_game(r, seed, preset_name=preset)
        except ColorettoError as exc:
            raise Problem("bad_rules", str(exc)) from None
        status = "open" if any(s.kind == "open" for s in seat_rows) else "playing"
        data = TableData(
            id=secrets.token_urlsafe(6), title=title, status=status, rules=r.to_dict(), preset=preset,
            hints=hints, rated=rated, seed=seed, setup=[setup_to_json(s) for s in state.setups if s is not None],
            version=0, created_at=now(), finished_at=None, rematch_id=None, seats=seat_rows, codes=[],
        )
        await self.db(self.store.create_table, data)
        t = LiveTable(data)
        self.tables[data.id] = t
        self.schedule_computer(t)
        return t, seat, token

    async def join(self, table_id: str, name: str, seat: int | None) -> tuple[LiveTable, int, str]:
        """Sit ``name`` at an open seat. Returns the table, the seat and its token.

        Raises:
            Problem: 404 unknown table, 409 ``not_open``/``seat_taken``/``table_full``, 400 bad name.
        """
        name = check_name(name)
        t = await self.get(table_id)
        if t is None:
            raise Problem("not_found", f"no table {table_id!r}", 404)
        async with t.lock:
            await self._reload_seats(t)
            if t.status != "open":
                raise Problem("not_open", f"table {table_id} is {t.status}; it takes no more players", 409)
            open_seats = [s.seat for s in t.data.seats if s.kind == "open"]
            if seat is None:
                if not open_seats:
                    raise Problem("table_full", "no open seat", 409)
                seat = open_seats[0]
            if not isinstance(seat, int) or not 0 <= seat < len(t.data.seats):
                raise Problem("bad_request", f"seat: must be 0 to {len(t.data.seats) - 1}, not {seat!r}")
            if seat not in open_seats:
                raise Problem("seat_taken", f"{seat_text(seat)} is not open", 409)
            token = secrets.token_urlsafe(24)
            status = await self.db(self.store.take_seat, t.id, seat, name, token_hash(token))
            if status is None:
                await self._reload_seats(t)
                raise Problem("seat_taken", f"{seat_text(seat)} was just taken", 409)
            await self._reload_seats(t)
            t.away_since[seat] = time.monotonic()
            self._seats_changed(t, started=status == "playing")
        await self.publish(t.id, "seats")
        self.schedule_computer(t)
        return t, seat, token

    async def _reload_seats(self, t: LiveTable) -> None:
        status, rematch, seats = await self.db(self.store.load_seats, t.id)
        if status == "playing" and t.data.status == "finished":
            status = "finished"
        t.data.status = status if t.data.status != "finished" else "finished"
        t.data.rematch_id = rematch
        t.data.seats = seats
        t.game.seats = [seat_name(s) for s in seats]

    def _seats_changed(self, t: LiveTable, started: bool = False) -> None:
        """Tell this process's connections at ``t`` (a full ``state`` when the game started)."""
        if started:
            for c in t.conns:
                c.send_state(t)
            return
        msg = {"type": "seats", "table_id": t.id, "status": t.status, "seats": t.seats_json()}
        for c in t.conns:
            c.send(msg)

    # ----- actions -------------------------------------------------------------------------
    async def submit(
        self, t: LiveTable, seat: int, action: Action, *, version: int | None = None,
        by_computer: bool = False, ack: Any = None, sender: Conn | None = None,
    ) -> None:
        """Accept ``action`` for ``seat`` or raise ``Problem`` (and change nothing).

        Raises:
            Problem: ``not_started``, ``game_over``, ``not_your_turn``, ``stale``,
                ``illegal_action``, ``conflict``.
        """
        async with t.lock:
            for attempt in range(3):
                self._check(t, seat, action, version, by_computer)
                v = t.version
                code = action.code
                after = t.state.child(code)
                results = self._results(t, after) if after.is_over() else None
                if await self.commit(t.id, v, seat, code, results):
                    break
                await self._refresh_locked(t)
            else:
                raise Problem("conflict", "another server process changed this table; try again", 409)
            t.log.append(self._apply(t, code))
            if results is not None:
                t.data.status = "finished"
            for c in t.conns:
                c.send_state(t, ack=ack if c is sender else None)
        await self.publish(t.id, "action", t.version)
        self.schedule_computer(t)

    def _apply(self, t: LiveTable, code: int) -> dict[str, Any]:
        from .live import log_entry

        return log_entry(t.game, t.version, code)

    def _check(self, t: LiveTable, seat: int, action: Action, version: int | None, by_computer: bool) -> None:
        if t.status == "open":
            raise Problem("not_started", "the game has not started: seats are still open", 409)
        if t.status == "finished":
            raise Problem("game_over", "the game is over", 409)
        if version is not None and version != t.version:
            raise Problem("stale", f"the table is at version {t.version}, not {version}", 409)
        st = t.state
        if st.to_move != seat:
            raise Problem("not_your_turn", f"{seat_text(st.to_move)} is to move, not {seat_text(seat)}", 409)
        kind = t.data.seats[seat].kind
        if by_computer != (kind == "computer"):
            who = "a computer player" if kind == "computer" else "a person"
            raise Problem("not_your_turn", f"{seat_text(seat)} is played by {who}", 409)
        if action not in st.legal_actions():
            try:
                st.copy().apply(action)
                rule = None
                text = f"{action_text(action)} is not legal now"
            except ColorettoError as exc:
                rule = getattr(exc, "rule", None)
                text = str(exc)
            raise Problem("illegal_action", text, 409, rule=rule)

    def _results(self, t: LiveTable, state: Any) -> list[dict[str, Any]]:
        totals, ranks = state.totals(), state.ranks()
        out = []
        for s in t.data.seats:
            person = s.kind == "human" or s.handed_over
            out.append({"seat": s.seat, "name": seat_name(s), "kind": "human" if person else "computer",
                        "score": totals[s.seat], "rank": ranks[s.seat]})
        return out

    async def _refresh_locked(self, t: LiveTable) -> bool:
        """Load actions other processes committed (lock held); True if any arrived."""
        codes = await self.db(self.store.actions_since, t.id, t.version)
        if not codes:
            return False
        for code in codes:
            t.log.append(self._apply(t, code))
        if t.state.is_over():
            t.data.status = "finished"
        elif t.data.status == "open":
            await self._reload_seats(t)
        for c in t.conns:
            c.send_state(t)
        return True

    async def refresh(self, t: LiveTable) -> None:
        """Bring ``t`` up to date with the database (after a Redis notice)."""
        async with t.lock:
            await self._refresh_locked(t)
        self.schedule_computer(t)

    # ----- computer players ----------------------------------------------------------------
    def schedule_computer(self, t: LiveTable) -> None:
        """Start the computer-player task of ``t`` if a computer seat is to move."""
        if t.computer_task is not None and not t.computer_task.done():
            return
        if t.status != "playing" or t.state.is_over():
            return
        if t.data.seats[t.state.to_move].kind != "computer":
            return
        t.computer_task = asyncio.create_task(self._computer_loop(t))

    def _agent(self, t: LiveTable, seat: int) -> Agent:
        sd = t.data.seats[seat]
        agent = t.agents.get(seat)
        if agent is None or getattr(agent, "_spec", None) != sd.agent:
            agent = make_agent(sd.agent or DEFAULT_AGENT, hash_seed(t.data.seed, 1000 + seat))
            agent._spec = sd.agent  # type: ignore[attr-defined]
            agent.reset(seat, t.state.rules)
            t.agents[seat] = agent
        return agent

    async def _computer_loop(self, t: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        try:
            while t.status == "playing" and not t.state.is_over():
                st = t.state
                seat = st.to_move
                if t.data.seats[seat].kind != "computer":
                    return
                v = t.version
                if self.settings.computer_delay > 0:
                    await asyncio.sleep(self.settings.computer_delay)
                    if t.version != v:
                        continue
                legal = st.legal_actions()
                if len(legal) == 1:
                    action = legal[0]
                else:
                    agent = self._agent(t, seat)
                    obs = observe(st, seat)
                    try:
                        action = await loop.run_in_executor(self.agent_pool, agent.act, obs, legal)
                    except Exception as exc:  # noqa: BLE001 - a broken computer player must not stop the game
                        log.warning("table %s seat %d: computer player failed (%s); playing the first legal action", t.id, seat, exc)
                        action = legal[0]
                    if action not in legal:
                        action = legal[0]
                try:
                    await self.submit(t, seat, action, version=v, by_computer=True)
                except Problem as exc:
                    if exc.code not in ("stale", "not_your_turn", "conflict"):
                        log.warning("table %s: computer action refused: %s", t.id, exc.message)
                        return
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - logged, the game can be resumed
            log.exception("table %s: computer player loop failed", t.id)
        finally:
            t.computer_task = None
        self.schedule_computer(t)

    # ----- seats: presence, hand-over, rematch --------------------------------------------------
    async def presence(self, t: LiveTable, seat: int, delta: int) -> None:
        """A connection holding ``seat``'s token opened (+1) or closed (-1)."""
        before = t.connected(seat)
        t.local_presence[seat] = max(0, t.local_presence.get(seat, 0) + delta)
        if not t.connected(seat):
            t.away_since[seat] = time.monotonic()
        if before != t.connected(seat):
            self._seats_changed(t)
        await self.publish(t.id, "presence", counts=t.local_presence)

    async def hand_over(self, t: LiveTable, by: Conn, seat: Any, agent: Any) -> None:
        """Hand a person's seat to a computer player (docs/web-api.md ``hand_over``).

        Raises:
            Problem: ``not_seated``, ``bad_message``, ``bad_agent``, ``not_allowed``.
        """
        if by.seat is None:
            raise Problem("not_seated", "spectators cannot hand seats over")
        if type(seat) is not int or not 0 <= seat < len(t.data.seats):
            raise Problem("bad_message", f"seat: must be 0 to {len(t.data.seats) - 1}, not {seat!r}")
        agent = DEFAULT_AGENT if agent is None else agent
        if not isinstance(agent, str):
            raise Problem("bad_message", "agent must be a string")
        check_agent(agent)
        async with t.lock:
            sd = t.data.seats[seat]
            if t.status == "finished":
                raise Problem("not_allowed", "the game is over")
            if sd.kind != "human":
                raise Problem("not_allowed", f"{seat_text(seat)} is not played by a person")
            away = t.away_seconds(seat)
            own = seat == by.seat
            if not own and (away is None or away < self.settings.handover_after):
                raise Problem(
                    "not_allowed",
                    f"the player of {seat_text(seat)} must be disconnected for {self.settings.handover_after:g} s first",
                )
            await self.db(self.store.set_seat_control, t.id, seat, "computer", agent, True)
            sd.kind, sd.agent, sd.handed_over = "computer", agent, True
            for c in t.conns:
                c.send_state(t)
        await self.publish(t.id, "seats")
        self.schedule_computer(t)

    async def reclaim(self, t: LiveTable, by: Conn) -> None:
        """The token holder takes a handed-over seat back.

        Raises:
            Problem: ``not_seated``, ``not_allowed``.
        """
        if by.seat is None:
            raise Problem("not_seated", "spectators have no seat to reclaim")
        async with t.lock:
            sd = t.data.seats[by.seat]
            if not sd.handed_over or sd.kind != "computer":
                raise Problem("not_allowed", "your seat is not played by a computer player")
            if t.status == "finished":
                raise Problem("game_over", "the game is over")
            await self.db(self.store.set_seat_control, t.id, by.seat, "human", None, False)
            sd.kind, sd.agent, sd.handed_over = "human", None, False
            if t.computer_task is not None and t.state.to_move == by.seat:
                t.computer_task.cancel()
                t.computer_task = None
            for c in t.conns:
                c.send_state(t)
        await self.publish(t.id, "seats")
        self.schedule_computer(t)

    async def rematch(self, t: LiveTable, by: Conn) -> tuple[str, int, str]:
        """Create (or find) the rematch table and seat the requester at their old seat.

        Raises:
            Problem: ``not_seated``, ``not_allowed`` (game not over), or a join problem.
        """
        if by.seat is None:
            raise Problem("not_seated", "spectators cannot ask for a rematch")
        if t.status != "finished":
            raise Problem("not_allowed", "a rematch can be asked for once the game is over")
        name = seat_name(t.data.seats[by.seat])
        if t.data.rematch_id is None:
            seats = [
                {"kind": "computer", "agent": s.agent} if s.kind == "computer" and not s.handed_over else {"kind": "human"}
                for s in t.data.seats
            ]
            new, seat, token = await self.create_table(
                name=name, seats=seats, seat=by.seat, rules=dict(t.data.rules), preset=t.data.preset, hints=t.data.hints,
                rated=t.data.rated, title=t.data.title,
            )
            recorded = await self.db(self.store.set_rematch, t.id, new.id)
            t.data.rematch_id = recorded
            if recorded == new.id and seat is not None and token is not None:
                for c in t.conns:
                    if c is not by:
                        c.send({"type": "rematch_offered", "table_id": new.id})
                await self.publish(t.id, "seats")
                return new.id, seat, token
        new_id = t.data.rematch_id
        assert new_id is not None
        _, seat, token = await self.join(new_id, name, by.seat)
        return new_id, seat, token

    # ----- Redis --------------------------------------------------------------------------------
    async def publish(self, table_id: str, kind: str, version: int | None = None, counts: dict[int, int] | None = None) -> None:
        """Tell the other server processes that ``table_id`` changed (no-op without Redis)."""
        if self.redis is None:
            return
        msg: dict[str, Any] = {"t": table_id, "k": kind, "p": self.settings.process_id}
        if version is not None:
            msg["v"] = version
        if counts is not None:
            msg["c"] = {str(k): v for k, v in counts.items()}
        try:
            await self.redis.publish(CHANNEL, json.dumps(msg))
        except Exception as exc:  # noqa: BLE001 - the database stays the truth; others catch up on next notice
            log.warning("redis publish failed: %s", exc)

    async def _subscribe(self, ready: asyncio.Event) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub()
                await pubsub.subscribe(CHANNEL)
                ready.set()
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        await self._on_notice(json.loads(message["data"]))
                    except Exception:
                        log.exception("bad notice from redis")
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - any redis failure: reconnect and go on
                log.warning("redis subscription lost (%s); retrying", exc)
                ready.set()
                await asyncio.sleep(1.0)

    async def _on_notice(self, msg: dict[str, Any]) -> None:
        if msg.get("p") == self.settings.process_id:
            return
        t = self.tables.get(msg.get("t", ""))
        if t is None:
            return
        kind = msg.get("k")
        if kind == "action":
            if msg.get("v", 0) > t.version:
                await self.refresh(t)
        elif kind == "seats":
            async with t.lock:
                old_status, old_rematch = t.status, t.data.rematch_id
                await self._reload_seats(t)
                for s in t.data.seats:
                    if s.kind == "human" and s.seat not in t.away_since:
                        t.away_since[s.seat] = time.monotonic()
                started = old_status == "open" and t.status == "playing"
                if started or old_status == t.status:
                    for c in t.conns:
                        c.send_state(t)
                if t.data.rematch_id and t.data.rematch_id != old_rematch:
                    for c in t.conns:
                        c.send({"type": "rematch_offered", "table_id": t.data.rematch_id})
            await self.refresh(t)
        elif kind == "presence":
            p = str(msg.get("p"))
            before = [t.connected(i) for i in range(len(t.data.seats))]
            t.remote_presence[p] = {int(k): int(v) for k, v in (msg.get("c") or {}).items()}
            for i in range(len(t.data.seats)):
                if before[i] and not t.connected(i):
                    t.away_since[i] = time.monotonic()
            if before != [t.connected(i) for i in range(len(t.data.seats))]:
                self._seats_changed(t)


def check_name(name: Any) -> str:
    """A player name: 1 to 24 printable characters, not starting with ``computer:``.

    Raises:
        Problem: ``bad_name``.
    """
    if not isinstance(name, str):
        raise Problem("bad_name", "name must be a string")
    text: str = name.strip()
    if not 1 <= len(text) <= 24:
        raise Problem("bad_name", "a name has 1 to 24 characters")
    if not text.isprintable():
        raise Problem("bad_name", "a name cannot hold control characters")
    if text.lower().startswith("computer:"):
        raise Problem("bad_name", "names starting with 'computer:' are reserved for computer players")
    return text


def check_agent(agent: Any) -> str:
    """A computer player offered to people (``registry.PEOPLE_OPPONENTS``).

    Raises:
        Problem: ``bad_agent``.
    """
    if agent not in PEOPLE_OPPONENTS:
        raise Problem("bad_agent", f"unknown computer player {agent!r}; choose one of {', '.join(PEOPLE_OPPONENTS)}")
    return str(agent)
