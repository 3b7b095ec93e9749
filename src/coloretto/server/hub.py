"""The hub: the tables this server process serves, the path of an action, computer seats,
presence, hand-over and rematch. It is given its parts (``Hub(settings, store=..., bus=...,
runner=..., clock=...)``; ``wiring.build_hub`` makes the real ones) and owns their life
cycle from ``start`` to ``stop``.

The path of an action (docs/web-api.md "Guarantees"):
1. under the table's lock, check it against the engine's legal actions for the seat;
2. play it on a fork of the table's game (``Game.fork``): its ``Step`` gives the log entry,
   and whether it ended the game (then the results are stored with it);
3. commit it in the store, guarded by the table's ``version`` (``TableStore.append_action``);
   if another process moved the table first, drop the fork, reload and check again;
4. only then the fork becomes the table's game: queue the new ``state`` to every
   connection, tell the computer players the result if the game ended, and publish an
   ``action`` notice on the bus so other processes load it from the store.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from ..arena.driver import deliver_results
from ..engine.actions import Action
from ..engine.errors import IllegalActionError
from ..engine.fold import fold
from ..engine.observation import observe
from ..engine.seeds import AGENT, derive_seed
from .accounts import Account, Accounts, name_keys
from .bus import Bus, Notice, NoticeKind
from .clock import Clock
from .computer import ComputerSeat, computer_action
from .config import Settings
from .conn import Conn
from .errors import ErrorCode, Problem
from .expiry import sweep_forever
from .finished import FinishedCache
from .live import LiveTable, action_text, log_entry, seat_name, seat_text
from .newtable import DEFAULT_AGENT, check_agent, check_name, new_table
from .quotas import check_create, has_person
from .ratings import Leaderboards
from .runner import AgentRunner, JobOwner
from .store import ResultRows, TableStore, address_key, new_seat_token, token_hash
from .timecontrol import Timers, mark_timeout

log = logging.getLogger("coloretto.server")

RETRIED: frozenset[ErrorCode] = frozenset({ErrorCode.STALE, ErrorCode.NOT_YOUR_TURN, ErrorCode.CONFLICT})
"""Refusals of a computer seat's action that only mean the table moved on meanwhile."""


class Hub:
    """Everything the application shares: the live tables and the parts it was given.

    Attributes:
        settings: the server's settings (``computer_delay``, ``handover_after``,
            ``process_id`` are read here).
        store: where tables live (``store.TableStore``).
        bus: notices to and from the other server processes (``bus.Bus``).
        runner: where computer decisions and hints are computed (``runner.AgentRunner``).
        clock: time for presence, hand-over and computer delays (``clock.Clock``).
        tables: the tables loaded in this process, by id.
        leaderboards: the cached leaderboards.
        creators: the address that created each table (tables created by this process).
        finished: finished games' records and replays, built once (``finished.FinishedCache``).
        quiet_since: when this process first saw an open table without any person's seat.
        creating: per address, the lock of the table creations under way (``creation_lock``).
        accounts: sign-up, log-in and sessions (``accounts.Accounts``), on ``store.accounts``.
        timers: the clocks of tables with a time control (``timecontrol.Timers``).
    """

    def __init__(self, settings: Settings, *, store: TableStore, bus: Bus, runner: AgentRunner, clock: Clock) -> None:
        self.settings = settings
        self.store = store
        self.bus = bus
        self.runner = runner
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}
        self.leaderboards = Leaderboards()
        self.accounts = Accounts(store.accounts, settings.session_secret)
        self.timers = Timers(self)
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.creators: dict[str, str] = {}
        self.finished = FinishedCache()
        self.quiet_since: dict[str, float] = {}
        self.creating: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._sweeper: asyncio.Task[None] | None = None

    # ----- life cycle ----------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store (schema upgrade), subscribe to the bus, resume every game in
        progress (computer players whose turn it is start thinking again), and start the
        sweeper of idle tables (``expiry``)."""
        await self.store.open()
        await self.bus.start(self._on_notice)
        ids = await self.store.table_ids(["playing"], 100000)
        for table_id in ids:
            t = await self.get(table_id)
            if t is not None:
                self.schedule_computer(t)
        self._sweeper = asyncio.create_task(sweep_forever(self))
        log.info("server process %s ready: %d game(s) resumed", self.settings.process_id, len(ids))

    async def stop(self) -> None:
        """Stop the sweeper, the clocks and the computer players, then close the bus, the
        runner and the store."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.timers.stop()
        for t in list(self.tables.values()):
            if t.computer_task is not None:
                t.computer_task.cancel()
            for computer in t.computers.values():
                _close(computer)
        await self.bus.close()
        await self.runner.close()
        await self.store.close()

    # ----- tables --------------------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable | None:
        """The live table (loaded from the store on first use), or None."""
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
            data = await self.store.load_table(table_id)
            t = LiveTable(data, self.clock) if data is not None else None
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

    async def table(self, table_id: str) -> LiveTable:
        """The live table.

        Raises:
            Problem: ``not_found``.
        """
        t = await self.get(table_id)
        if t is None:
            raise Problem(ErrorCode.NOT_FOUND, f"no table {table_id!r}")
        return t

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
        address: str | None = None,
        account: Account | None = None,
        private: bool = False,
        time_control: Any = None,
    ) -> tuple[LiveTable, int | None, str | None]:
        """Create and store a table (``newtable.new_table``); the creator takes ``seat``
        (``account``: the signed-in creator, required for a rated table).
        Returns the table, the creator's seat and token (None, None when the creator took no
        seat). A table without a human seat is never rated.

        Args:
            address: the creator's address: its computer players' work is scheduled as
                that address's (``runner.JobOwner``), and it is held to the quotas of
                ``quotas.check_create``.

        Raises:
            Problem: bad seats, rules, preset, agent, name, privacy or time control;
                ``account_required``; ``rate_limited`` (a quota).
        """
        rated = rated and has_person(seats)
        async with self.creation_lock(address):
            await check_create(self, address, seats)
            return await self._create_table(name=name, seats=seats, seat=seat, rules=rules, preset=preset,
                                            hints=hints, rated=rated, title=title, address=address, account=account,
                                            private=private, time_control=time_control)

    def creation_lock(self, address: str | None) -> asyncio.Lock:
        """The lock under which this process checks the quotas of ``address`` and stores its
        new table (a fresh one for an unknown address); kept only while in use."""
        if address is None:
            return asyncio.Lock()
        lock = self.creating.get(address)
        if lock is None:
            lock = self.creating[address] = asyncio.Lock()
        return lock

    async def _create_table(
        self, *, name: str | None, seats: list[dict[str, Any]], seat: int | None, rules: dict[str, Any],
        preset: str | None, hints: bool, rated: bool, title: str, address: str | None,
        account: Account | None, private: bool, time_control: Any,
    ) -> tuple[LiveTable, int | None, str | None]:
        made = new_table(name=name, seats=seats, seat=seat, rules=rules, preset=preset, hints=hints,
                         rated=rated, title=title, private=private, time_control=time_control,
                         move_clocks=self.settings.move_clocks, account=account)
        if address is not None:
            made.data.creator = address_key(address)
        await self.store.create_table(made.data)
        t = LiveTable(made.data, self.clock)
        self.tables[t.id] = t
        if address is not None:
            self.creators[t.id] = address
        self.schedule_computer(t)
        return t, made.seat, made.token

    async def join(
        self, table_id: str, name: str | None, seat: int | None, account: Account | None = None
    ) -> tuple[LiveTable, int, str]:
        """Sit ``name`` at an open seat (default: the first). At a rated table the seat is
        ``account``'s, under its name, and an account holds one seat of a table. Returns the
        table, the seat and its token.

        Raises:
            Problem: ``not_found``, ``not_open``, ``seat_taken``, ``table_full``,
                ``bad_name``, ``bad_request``, ``account_required``, ``already_seated``,
                ``name_taken`` (a person sits at the table under a name that reads the
                same, ``_check_name_free``).
        """
        t = await self.table(table_id)
        account_id = None
        if t.data.rated:
            if account is None:
                raise Problem(ErrorCode.ACCOUNT_REQUIRED, "this game is rated: log in to take a seat, or watch it")
            name, account_id = account.name, account.id
        name = check_name(name)
        async with t.lock:
            await self.reload_seats(t)
            _check_one_seat(t, account_id)
            seat = self._open_seat(t, seat)
            _check_name_free(t, name)
            token = new_seat_token()
            status = await self.store.take_seat(t.id, seat, name, token_hash(token), account_id)
            if status is None:
                await self.reload_seats(t)
                _check_one_seat(t, account_id)
                raise Problem(ErrorCode.SEAT_TAKEN, f"{seat_text(seat)} was just taken")
            await self.reload_seats(t)
            t.away_since[seat] = self.clock.now()
            self._seats_changed(t, started=status == "playing")
        await self.publish(t.id, "seats")
        self.schedule_computer(t)
        return t, seat, token

    @staticmethod
    def _open_seat(t: LiveTable, seat: int | None) -> int:
        if t.status != "open":
            raise Problem(ErrorCode.NOT_OPEN, f"table {t.id} is {t.status}; it takes no more players")
        open_seats = [s.seat for s in t.data.seats if s.kind == "open"]
        if seat is None:
            if not open_seats:
                raise Problem(ErrorCode.TABLE_FULL, "no open seat")
            return open_seats[0]
        if not isinstance(seat, int) or not 0 <= seat < len(t.data.seats):
            raise Problem(ErrorCode.BAD_REQUEST, f"seat: must be 0 to {len(t.data.seats) - 1}, not {seat!r}")
        if seat not in open_seats:
            raise Problem(ErrorCode.SEAT_TAKEN, f"{seat_text(seat)} is not open")
        return seat

    async def seat_of_token(self, t: LiveTable, token: str) -> int:
        """The seat whose token is ``token`` (seats taken at another server process a moment
        ago included).

        Raises:
            Problem: ``bad_token``.
        """
        thash = token_hash(token)
        seat = t.seat_of(thash)
        if seat is None:  # joined at another server process a moment ago?
            async with t.lock:
                await self.reload_seats(t)
            seat = t.seat_of(thash)
        if seat is None:
            raise Problem(ErrorCode.BAD_TOKEN, "this token belongs to no seat of this table")
        return seat

    async def reload_seats(self, t: LiveTable) -> None:
        """Read ``t``'s status, rematch and seats from the store (a finished table stays
        finished)."""
        status, rematch, seats = await self.store.load_seats(t.id)
        if t.data.status != "finished":
            t.data.status = status
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
            for _attempt in range(3):
                self._check(t, seat, action, version, by_computer)
                v = t.version
                ahead = t.game.fork()
                entry = log_entry(ahead, v, action.code)
                results = self._results(t, ahead.state) if ahead.state.is_over() else None
                if await self.store.append_action(t.id, v, seat, action.code, results):
                    break
                await self._refresh_locked(t)
            else:
                raise Problem(ErrorCode.CONFLICT, "another server process changed this table; try again")
            t.game = ahead
            t.log.append(mark_timeout(t, entry))
            if results is not None:
                t.data.status = "finished"
                self._game_over(t)
            for c in t.conns:
                c.send_state(t, ack=ack if c is sender else None)
        await self.publish(t.id, "action", version=t.version)
        self.schedule_computer(t)

    def _check(self, t: LiveTable, seat: int, action: Action, version: int | None, by_computer: bool) -> None:
        if t.status == "open":
            raise Problem(ErrorCode.NOT_STARTED, "the game has not started: seats are still open")
        if t.status == "finished":
            raise Problem(ErrorCode.GAME_OVER, "the game is over")
        if version is not None and version != t.version:
            raise Problem(ErrorCode.STALE, f"the table is at version {t.version}, not {version}")
        st = t.state
        if st.to_move != seat:
            raise Problem(ErrorCode.NOT_YOUR_TURN, f"{seat_text(st.to_move)} is to move, not {seat_text(seat)}")
        kind = t.data.seats[seat].kind
        if by_computer != (kind == "computer"):
            who = "a computer player" if kind == "computer" else "a person"
            raise Problem(ErrorCode.NOT_YOUR_TURN, f"{seat_text(seat)} is played by {who}")
        if action.kind in ("place", "take") and not 0 <= action.arg < st.nrows:
            # a row that the table does not have: said in people's numbers (the engine's
            # message would show the JSON's row, counted from 0)
            raise Problem(
                ErrorCode.ILLEGAL_ACTION,
                f"there is no row {action.arg + 1}: this table has rows 1 to {st.nrows} "
                f"(0 to {st.nrows - 1} in JSON)",
                rule="docs/engine-protocol.md actions",
            )
        if action not in st.legal_actions():
            # ``apply`` refuses an action that is not legal before changing anything, with
            # the text and the rule that forbid it: the state stays as it is.
            try:
                st.apply(action)
            except IllegalActionError as exc:
                raise Problem(ErrorCode.ILLEGAL_ACTION, str(exc), rule=exc.rule) from None
            raise AssertionError(f"the engine applied {action_text(action)}, which it did not list as legal")

    @staticmethod
    def _results(t: LiveTable, state: Any) -> ResultRows:
        totals, ranks = state.totals(), state.ranks()
        out = []
        for s in t.data.seats:
            person = s.kind == "human" or s.handed_over
            out.append({"seat": s.seat, "name": seat_name(s), "kind": "human" if person else "computer",
                        "score": totals[s.seat], "rank": ranks[s.seat], "account_id": s.account_id})
        return out

    async def _refresh_locked(self, t: LiveTable) -> bool:
        """Load actions other processes committed (lock held); True if any arrived."""
        codes = await self.store.actions_since(t.id, t.version)
        if not codes:
            return False
        was_over = t.state.is_over()
        for code in codes:
            t.log.append(log_entry(t.game, t.version, code))
        if t.state.is_over():
            t.data.status = "finished"
            if not was_over:
                self._game_over(t)
        elif t.data.status == "open":
            await self.reload_seats(t)
        for c in t.conns:
            c.send_state(t)
        return True

    @staticmethod
    def _game_over(t: LiveTable) -> None:
        """Tell the computer players of ``t`` held in this process the result of the game
        that just ended (``Agent.game_over``: match totals and winners, as every host does;
        ``arena.driver.deliver_results``). Worker processes keep their own copies of the
        players (``pool.decide``); those are not told."""
        st = t.state
        deliver_results([c.agent for c in t.computers.values()], st.totals(), st.winners())

    async def refresh(self, t: LiveTable) -> None:
        """Bring ``t`` up to date with the store (after a notice)."""
        async with t.lock:
            await self._refresh_locked(t)
        self.schedule_computer(t)

    # ----- computer seats ------------------------------------------------------------------
    def schedule_computer(self, t: LiveTable) -> None:
        """Start the computer-player task of ``t`` if a computer seat is to move (and the
        clock of a person's decision, when the table has a time control)."""
        self.timers.schedule(t)
        if t.computer_task is not None and not t.computer_task.done():
            return
        if t.status != "playing" or t.state.is_over():
            return
        if t.data.seats[t.state.to_move].kind != "computer":
            return
        t.computer_task = asyncio.create_task(self._computer_loop(t))

    def _computer(self, t: LiveTable, seat: int) -> ComputerSeat:
        """The seat's computer player, rebuilt when the seat's spec changed (a hand-over)."""
        spec = t.data.seats[seat].agent or DEFAULT_AGENT
        computer = t.computers.get(seat)
        if computer is None or computer.spec != spec:
            if computer is not None:
                _close(computer)
            seed = derive_seed(t.data.seed, AGENT, seat)
            computer = t.computers[seat] = ComputerSeat.build(seat, spec, seed, t.state.rules)
        return computer

    async def _computer_loop(self, t: LiveTable) -> None:
        """Play the computer seats of ``t`` while one of them is to move."""
        try:
            while t.status == "playing" and not t.state.is_over():
                seat = t.state.to_move
                if t.data.seats[seat].kind != "computer":
                    return
                v = t.version
                if self.settings.computer_delay > 0:
                    await self.clock.sleep(self.settings.computer_delay)
                    if t.version != v:
                        continue
                st = t.state
                action = await computer_action(self.runner, JobOwner(t.id, self.creators.get(t.id)), self._computer(t, seat),
                                               observe(st, seat), st.legal_actions())
                try:
                    await self.submit(t, seat, action, version=v, by_computer=True)
                except Problem as exc:
                    if exc.code not in RETRIED:
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
            t.away_since[seat] = self.clock.now()
        if before != t.connected(seat):
            self._seats_changed(t)
        await self.publish(t.id, "presence", counts=t.local_presence)

    async def hand_over(self, t: LiveTable, by: Conn, seat: Any, agent: Any) -> None:
        """Hand a person's seat to a computer player (docs/web-api.md ``hand_over``).

        Raises:
            Problem: ``not_seated``, ``bad_message``, ``bad_agent``, ``not_allowed``.
        """
        if by.seat is None:
            raise Problem(ErrorCode.NOT_SEATED, "spectators cannot hand seats over")
        if type(seat) is not int or not 0 <= seat < len(t.data.seats):
            raise Problem(ErrorCode.BAD_MESSAGE, f"seat: must be 0 to {len(t.data.seats) - 1}, not {seat!r}")
        agent = DEFAULT_AGENT if agent is None else agent
        if not isinstance(agent, str):
            raise Problem(ErrorCode.BAD_MESSAGE, "agent must be a string")
        check_agent(agent)
        async with t.lock:
            self._check_hand_over(t, seat, own=seat == by.seat)
            await self.seat_to_computer(t, seat, agent)
        await self.publish(t.id, "seats")
        self.schedule_computer(t)

    async def seat_to_computer(self, t: LiveTable, seat: int, agent: str) -> None:
        """Hand the person's ``seat`` to the computer player ``agent`` (its token holder may
        take it back, ``reclaim``) and tell this process's connections. The caller holds
        ``t.lock``, checked that the hand-over is allowed, and then publishes ``seats`` and
        calls ``schedule_computer``."""
        await self.store.set_seat_control(t.id, seat, "computer", agent, True)
        sd = t.data.seats[seat]
        sd.kind, sd.agent, sd.handed_over = "computer", agent, True
        t.turn = None  # a person's decision (and its clock) starts again when the seat is taken back
        for c in t.conns:
            c.send_state(t)

    def _check_hand_over(self, t: LiveTable, seat: int, own: bool) -> None:
        if t.status == "finished":
            raise Problem(ErrorCode.NOT_ALLOWED, "the game is over")
        if t.data.seats[seat].kind != "human":
            raise Problem(ErrorCode.NOT_ALLOWED, f"{seat_text(seat)} is not played by a person")
        away = t.away_seconds(seat)
        if not own and (away is None or away < self.settings.handover_after):
            raise Problem(
                ErrorCode.NOT_ALLOWED,
                f"the player of {seat_text(seat)} must be disconnected for {self.settings.handover_after:g} s first",
            )

    async def reclaim(self, t: LiveTable, by: Conn) -> None:
        """The token holder takes a handed-over seat back.

        Raises:
            Problem: ``not_seated``, ``not_allowed``, ``game_over``.
        """
        if by.seat is None:
            raise Problem(ErrorCode.NOT_SEATED, "spectators have no seat to reclaim")
        async with t.lock:
            sd = t.data.seats[by.seat]
            if not sd.handed_over or sd.kind != "computer":
                raise Problem(ErrorCode.NOT_ALLOWED, "your seat is not played by a computer player")
            if t.status == "finished":
                raise Problem(ErrorCode.GAME_OVER, "the game is over")
            await self.store.set_seat_control(t.id, by.seat, "human", None, False)
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
        Returns the new table's id, the seat and its token.

        Raises:
            Problem: ``not_seated``, ``not_allowed`` (game not over), or a join problem.
        """
        if by.seat is None:
            raise Problem(ErrorCode.NOT_SEATED, "spectators cannot ask for a rematch")
        if t.status != "finished":
            raise Problem(ErrorCode.NOT_ALLOWED, "a rematch can be asked for once the game is over")
        mine = t.data.seats[by.seat]
        name = seat_name(mine)
        account = Account(mine.account_id, name) if mine.account_id is not None else None
        created = None
        # Under the finished table's lock: two players pressing Rematch at once make one table.
        async with t.lock:
            if t.data.rematch_id is None:
                seats = [
                    {"kind": "computer", "agent": s.agent} if s.kind == "computer" and not s.handed_over else {"kind": "human"}
                    for s in t.data.seats
                ]
                new, seat, token = await self.create_table(
                    name=name, seats=seats, seat=by.seat, rules=dict(t.data.rules), preset=t.data.preset, hints=t.data.hints,
                    rated=t.data.rated, title=t.data.title, private=True,
                    time_control=t.data.options.get("time_control"), account=account,
                )
                recorded = await self.store.set_rematch(t.id, new.id)
                t.data.rematch_id = recorded
                if recorded == new.id and seat is not None and token is not None:
                    created = new.id, seat, token
        if created is not None:
            for c in t.conns:
                if c is not by:
                    c.send({"type": "rematch_offered", "table_id": created[0]})
            await self.publish(t.id, "seats")
            return created
        new_id = t.data.rematch_id
        assert new_id is not None
        again = await self._seat_again(new_id, by.seat, name)
        if again is not None:
            return new_id, by.seat, again
        _, seat, token = await self.join(new_id, name, by.seat, account)
        return new_id, seat, token

    async def _seat_again(self, table_id: str, seat: int, name: str) -> str | None:
        """A new token for ``seat`` of the rematch table ``table_id`` when it is already held
        under ``name`` (the same player asking again: a lost reply, a second tab), else None.
        The seat's earlier token stops opening it."""
        new = await self.table(table_id)
        token = new_seat_token()
        async with new.lock:
            # the store changes the token only of a person's seat held under that name
            if not await self.store.reissue_token(table_id, seat, name, token_hash(token)):
                return None
            await self.reload_seats(new)
        return token

    # ----- notices between server processes ----------------------------------------------------
    async def publish(
        self, table_id: str, kind: NoticeKind, version: int | None = None, counts: dict[int, int] | None = None
    ) -> None:
        """Tell the other server processes that ``table_id`` changed."""
        await self.bus.publish(Notice(table_id, kind, self.settings.process_id, version, None if counts is None else dict(counts)))

    async def _on_notice(self, notice: Notice) -> None:
        if notice.process == self.settings.process_id:
            return
        t = self.tables.get(notice.table_id)
        if t is None:
            return
        if notice.kind == "action":
            if (notice.version or 0) > t.version:
                await self.refresh(t)
        elif notice.kind == "seats":
            await self._seats_notice(t)
        else:
            self._presence_notice(t, notice)

    async def _seats_notice(self, t: LiveTable) -> None:
        async with t.lock:
            old_status, old_rematch = t.status, t.data.rematch_id
            await self.reload_seats(t)
            for s in t.data.seats:
                if s.kind == "human" and s.seat not in t.away_since:
                    t.away_since[s.seat] = self.clock.now()
            started = old_status == "open" and t.status == "playing"
            if started or old_status == t.status:
                for c in t.conns:
                    c.send_state(t)
            if t.data.rematch_id and t.data.rematch_id != old_rematch:
                for c in t.conns:
                    c.send({"type": "rematch_offered", "table_id": t.data.rematch_id})
        await self.refresh(t)

    def _presence_notice(self, t: LiveTable, notice: Notice) -> None:
        seats = range(len(t.data.seats))
        before = [t.connected(i) for i in seats]
        t.remote_presence[notice.process] = dict(notice.counts or {})
        for i in seats:
            if before[i] and not t.connected(i):
                t.away_since[i] = self.clock.now()
        if before != [t.connected(i) for i in seats]:
            self._seats_changed(t)


def _check_one_seat(t: LiveTable, account_id: int | None) -> None:
    """Refuse a second seat of ``t`` for the account ``account_id``.

    Raises:
        Problem: ``already_seated``.
    """
    if account_id is not None and any(s.account_id == account_id for s in t.data.seats):
        raise Problem(ErrorCode.ALREADY_SEATED, "your account already holds a seat of this rated game")


def _check_name_free(t: LiveTable, name: str) -> None:
    """Refuse ``name`` at ``t`` when a person's seat there has a name that reads the same:
    in any case or width, or with look-alike letters (``Ann``, ``ANN``, full-width ``Ａｎｎ``,
    Cyrillic ``Аnn``; ``_name_keys``): the scores, the log and the rematch tell the seats
    apart by name.

    Raises:
        Problem: ``name_taken``.
    """
    keys = _name_keys(name)
    for s in t.data.seats:
        if s.name and not keys.isdisjoint(_name_keys(s.name)):
            raise Problem(
                ErrorCode.NAME_TAKEN,
                f"{s.name!r} already sits at this table ({seat_text(s.seat)}); choose another name",
            )


def _name_keys(name: str) -> set[str]:
    """The readings of ``name`` that accounts compare (``accounts.name_keys``); for a name
    with too many look-alike characters to list them, its fold alone (``engine.fold``)."""
    try:
        return set(name_keys(name))
    except Problem:
        return {fold(name)}


def _close(computer: ComputerSeat) -> None:
    try:
        computer.agent.close()
    except Exception as exc:  # noqa: BLE001 - a failing agent must not stop the others from closing
        log.warning("closing the computer player %s of seat %d failed: %s", computer.spec, computer.seat + 1, exc)
