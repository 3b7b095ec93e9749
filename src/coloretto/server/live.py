"""Live tables in memory: the engine state rebuilt from stored actions, the public game log,
and the JSON views sent to clients.

Nothing here reads the network; time comes from the hub's ``Clock``. The only secret of a table (the draw pile
order, in ``game.state.pile`` and in the stored setup) is never put into a view: views are
built from ``observe`` (the engine's one observer) and from public facts (who acted, the card
that was drawn, the cards of a taken row).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from ..engine.actions import Action
from ..engine.cards import CARD_NAMES, COLORS, GOLDEN_JOKER, NUM_COLORS
from ..engine.observation import observe
from ..engine.record import Game, setup_from_json
from ..engine.rules import Rules
from ..engine.scoring import ScoreBreakdown
from ..engine.state import GameState
from ..engine.step import GameResult, Step
from .chat import ChatRoom
from .clock import Clock
from .computer import ComputerSeat
from .conn import Conn
from .store import SeatData, TableData
from .timecontrol import Turn, clock_json, mark_timeout


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def log_entry(game: Game, index: int, code: int) -> dict[str, Any]:
    """Play action ``code`` on ``game`` (recording it) and return its public log entry
    (``step_entry`` of the ``Step`` that ``Game.play`` returns).

    Raises:
        IllegalActionError: the action is not legal (nothing changes).
    """
    step = game.play(code)
    return step_entry(index, step, game.state)


def step_entry(index: int, step: Step, state: GameState) -> dict[str, Any]:
    """The public log entry number ``index`` (docs/web-api.md, ``state.log``) of ``step``,
    the action just applied to ``state``; built from the ``Step`` alone, plus that game's
    scores from ``state.results`` when the action ended a game.

    Every entry has ``i``, ``seat``, ``action`` and ``round`` (the round the action was played
    in, from 1); in a match (``match_games`` > 1) also ``game`` (1-based). Cards named are
    only cards the action revealed or moved in view of everyone: the drawn card (``card``),
    the cards of a taken row (``cards``) and the bonus cards a take revealed (``bonus_cards``,
    docs/rules.md §5.2 and ``first_out_draws``; ``bonus`` is the first of them). An action that
    revealed the Last Round card (a draw, or a take whose bonus reveal met it; docs/rules.md §5.1)
    has ``"last_round": true``; the action that ended a game has ``game_scores`` (that
    game's score per seat, docs/rules.md §6).
    """
    action = step.action
    entry: dict[str, Any] = {"i": index, "seat": step.seat, "action": action.to_json(), "round": step.round}
    if state.rules.match_games > 1:
        entry["game"] = step.game + 1
    if action.kind == "draw":
        entry["card"] = None if step.drawn is None else CARD_NAMES[step.drawn]
    elif action.kind == "place":
        entry["card"] = None if step.placed is None else CARD_NAMES[step.placed]
    elif action.kind == "take":
        entry["cards"] = [CARD_NAMES[c] for c in step.taken]
        if step.bonus:
            entry["bonus"] = CARD_NAMES[step.bonus[0]]
            entry["bonus_cards"] = [CARD_NAMES[c] for c in step.bonus]
    if step.last_round_revealed:
        entry["last_round"] = True
    if step.game_over:
        entry["game_scores"] = list(state.results[step.game].scores)
    return entry


def _golden_share(jokers: dict[int, int], golden: int) -> dict[int, int]:
    """Which of the assigned jokers are golden: ``golden`` of them, put on the colours of
    ``jokers`` in its order. Any split is as good (a golden joker scores as a regular one,
    docs/rules.md §6.1), so this one is the optimal assignment too."""
    out: dict[int, int] = {}
    for c, n in jokers.items():
        k = min(n, golden)
        if k:
            out[c] = k
            golden -= k
    return out


def breakdown_json(state: GameState, seat: int) -> dict[str, Any]:
    """A seat's optimal score breakdown of the current (or last) game of ``state``, with
    colour names (docs/rules.md §6; the JSON form of ``_breakdown_fields``)."""
    return _breakdown_fields(state.breakdown(seat), state.coll[seat][GOLDEN_JOKER])


def game_breakdown_json(result: GameResult, seat: int, rules: Rules) -> dict[str, Any]:
    """A seat's optimal score breakdown of the finished game ``result`` (``GameResult``,
    from ``GameState.results``), with colour names (docs/rules.md §6).

    Raises:
        IndexError: ``seat`` is not a seat of the game.
    """
    return _breakdown_fields(result.breakdown(seat, rules), result.collections[seat][GOLDEN_JOKER])


def _breakdown_fields(b: ScoreBreakdown, golden: int) -> dict[str, Any]:
    """The breakdown ``b`` of a collection holding ``golden`` golden jokers as JSON
    (docs/web-api.md ``breakdowns``): ``jokers`` maps a colour to the number of jokers
    (regular and golden) assigned to it; ``golden_jokers`` the golden ones among them (same
    keys, fewer or equal counts)."""
    shared = _golden_share(b.jokers, golden)
    return {
        "total": b.total,
        "positive": {COLORS[c]: v for c, v in b.positive.items()},
        "negative": {COLORS[c]: v for c, v in b.negative.items()},
        "jokers": {COLORS[c]: v for c, v in b.jokers.items()},
        "golden_jokers": {COLORS[c]: v for c, v in shared.items()},
        "plus2": b.plus2,
        "counts": {COLORS[c]: b.counts[c] for c in range(NUM_COLORS) if b.counts[c]},
    }


def result_json(state: GameState, table_id: str, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The ``result`` object of a finished game (docs/web-api.md). ``scores`` and ``ranks``
    are by match totals; ``game_scores`` (from the ``log``'s entries that ended a game) lists
    every game's scores, one list per game; ``breakdowns`` are the last game's and
    ``game_breakdowns`` every game's (one list of seats per game, from ``state.results``)."""
    rules = state.rules
    return {
        "scores": state.totals(),
        "ranks": state.ranks(),
        "winners": state.winners(),
        "match_games": rules.match_games,
        "game_scores": [e["game_scores"] for e in log or [] if "game_scores" in e],
        "breakdowns": [breakdown_json(state, s) for s in range(state.n)],
        "game_breakdowns": [[game_breakdown_json(r, s, rules) for s in range(state.n)] for r in state.results],
        "record_url": f"/api/tables/{table_id}/record",
        "replay_url": f"/replay/{table_id}",
    }


def seat_name(seat: SeatData) -> str:
    """The name a seat plays under in records and results."""
    if seat.name:
        return seat.name
    if seat.kind == "computer":
        return f"computer:{seat.agent}"
    return f"seat {seat.seat}"


def seat_text(seat: int) -> str:
    """A seat as people read it in messages: ``seat_text(0) == "seat 1"`` (JSON counts seats
    from 0, people from 1)."""
    return f"seat {seat + 1}"


def action_text(action: Action) -> str:
    """An action as people read it, rows counted from 1 (the JSON and the engine count them
    from 0): "draw a card", "place the card in row 3", "take row 3", "start with green".
    Used in hint explanations and error messages (docs/web-api.md)."""
    if action.kind == "draw":
        return "draw a card"
    if action.kind == "place":
        return f"place the card in row {action.arg + 1}"
    if action.kind == "take":
        return f"take row {action.arg + 1}"
    return f"start with {COLORS[action.arg]}"


def build_game(data: TableData) -> tuple[Game, list[dict[str, Any]]]:
    """Rebuild a table's game from its stored setup and actions; returns it with the log.

    Raises:
        ColorettoError: stored data inconsistent with the rules (a corrupt database).
    """
    rules = Rules.from_dict(data.rules)
    setups = [setup_from_json(s, rules) for s in data.setup]
    game = Game(GameState(rules, setups), [seat_name(s) for s in data.seats])
    log = [log_entry(game, i, code) for i, code in enumerate(data.codes)]
    return game, log


class LiveTable:
    """A table loaded in this process.

    Attributes:
        data: the stored table (meta data and seats are kept current; ``codes`` is not).
        game: the engine game at ``version`` actions.
        log: public log entries, one per accepted action.
        lock: serialises changes to this table within the process.
        conns: open WebSocket connections watching or playing here.
        local_presence: per seat, connections of this process holding the seat's token.
        remote_presence: per other server process, its per-seat connection counts.
        away_since: per human seat, the ``clock`` time its last connection closed.
        computers: computer players by seat (built when first needed).
        computer_task: the running task that plays computer seats, if any.
        clock: the hub's clock.
        turn: the decision a person is making now (``timecontrol.current_turn``).
        chat: the table's chat (``chat.ChatRoom``).
    """

    def __init__(self, data: TableData, clock: Clock) -> None:
        self.data = data
        self.id = data.id
        self.clock = clock
        self.game, self.log = build_game(data)
        for entry in self.log:
            mark_timeout(self, entry)
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.local_presence: dict[int, int] = {}
        self.remote_presence: dict[str, dict[int, int]] = {}
        started = clock.now()
        self.away_since: dict[int, float] = {s.seat: started for s in data.seats if s.kind == "human" or s.handed_over}
        self.computers: dict[int, ComputerSeat] = {}
        self.computer_task: asyncio.Task[None] | None = None
        self.turn: Turn | None = None
        self.chat = ChatRoom()
        self._obs_cache: tuple[int, dict[str, Any], list[dict[str, Any]]] | None = None
        self._result: dict[str, Any] | None = None
        self._parts_cache: tuple[Any, dict[str, str]] | None = None

    # ----- facts -----------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """Number of accepted actions."""
        return len(self.log)

    @property
    def status(self) -> str:
        """``open``, ``playing`` or ``finished``."""
        return self.data.status

    @property
    def state(self) -> GameState:
        """The current engine state (secret inside: never send it)."""
        return self.game.state

    def connected(self, seat: int) -> bool:
        """A client holds the seat's token with a connection open (computers: always)."""
        s = self.data.seats[seat]
        if s.kind == "computer":
            return True
        if self.local_presence.get(seat, 0) > 0:
            return True
        return any(p.get(seat, 0) > 0 for p in self.remote_presence.values())

    def seat_of(self, thash: str) -> int | None:
        """The seat whose token has the hash ``thash``, or None."""
        for s in self.data.seats:
            if s.token_hash is not None and s.token_hash == thash:
                return s.seat
        return None

    def away_seconds(self, seat: int) -> float | None:
        """Seconds since the seat's person was last connected (None while connected)."""
        s = self.data.seats[seat]
        if s.kind == "open" or (s.kind == "computer" and not s.handed_over) or self.connected(seat) and s.kind == "human":
            return None
        since = self.away_since.get(seat)
        if since is None:
            return None
        return round(self.clock.now() - since, 1)

    # ----- views -----------------------------------------------------------------------------
    def seats_json(self) -> list[dict[str, Any]]:
        """``TABLE.seats`` (docs/web-api.md)."""
        out = []
        for s in self.data.seats:
            out.append(
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": seat_name(s) if s.kind != "open" else None,
                    "agent": s.agent if s.kind == "computer" else None,
                    "connected": self.connected(s.seat) if s.kind != "open" else False,
                    "away_seconds": self.away_seconds(s.seat),
                    "handed_over": s.handed_over,
                }
            )
        return out

    def table_json(self) -> dict[str, Any]:
        """``TABLE`` (docs/web-api.md): public facts only."""
        d = self.data
        finished = d.status == "finished"
        return {
            "id": d.id,
            "title": d.title,
            "status": d.status,
            "created_at": d.created_at.isoformat().replace("+00:00", "Z"),
            "rules": dict(d.rules),
            "preset": d.preset,
            "hints": d.hints,
            "rated": d.rated,
            "version": self.version,
            "seats": self.seats_json(),
            "to_move": self.state.to_move if d.status == "playing" else None,
            "invite_url": f"/table/{d.id}",
            "replay_url": f"/replay/{d.id}" if finished else None,
            "record_url": f"/api/tables/{d.id}/record" if finished else None,
            "rematch": d.rematch_id,
            "private": bool(d.options.get("private", False)),
            "host": d.options.get("host"),
            "time_control": d.options.get("time_control") or {"kind": "none"},
        }

    def public_observation(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The spectator observation (``seat: null``) and the legal actions of the seat to
        move, cached per version. Every seat's observation equals this one but for ``seat``
        (the draw pile order is the only secret and no seat knows it)."""
        cache = self._obs_cache
        if cache is None or cache[0] != self.version:
            st = self.state
            obs = dict(observe(st, max(st.to_move, 0)).to_json())
            obs["seat"] = None
            legal = [a.to_json() for a in st.legal_actions()] if not st.is_over() else []
            cache = self._obs_cache = (self.version, obs, legal)
        return cache[1], cache[2]

    def result(self) -> dict[str, Any] | None:
        """The ``result`` object once finished, else None."""
        if self.data.status != "finished":
            return None
        if self._result is None:
            self._result = result_json(self.state, self.id, self.log)
        return self._result

    def state_text(self, seat: int | None, log_from: int, ack: Any = None) -> str:
        """The ``state`` message (docs/web-api.md) for a connection at ``seat`` (None: a
        spectator) with the log from entry ``log_from`` on, serialised; ``ack`` becomes its
        ``id``. The parts shared by every connection are serialised once per version (and
        presence change) and cached."""
        parts = self._parts()
        mine = (
            self.data.status == "playing"
            and seat is not None
            and seat == self.state.to_move
            and self.data.seats[seat].kind == "human"
        )
        obs = parts["obs"] if seat is None else parts["obs"].replace('"seat":null', f'"seat":{int(seat)}', 1)
        log = self.log[log_from:]
        if log_from == self.version - 1 and log:
            log_text = parts["last_log"]
        elif log_from == 0:
            log_text = parts["full_log"]
        else:
            log_text = _dumps(log)
        tail = "" if ack is None else ',"id":' + _dumps(ack)
        return (
            f'{{"type":"state","table_id":{parts["id"]},"status":"{self.data.status}","version":{self.version},'
            f'"observation":{obs},"legal":{parts["legal"] if mine else "[]"},"seats":{parts["seats"]},'
            f'"log_from":{int(log_from)},"log":{log_text},"result":{parts["result"]},'
            f'"clock":{_dumps(clock_json(self))}{tail}}}'
        )

    def _parts(self) -> dict[str, str]:
        key = (self.version, self.data.status, self._presence_key())
        if self._parts_cache is None or self._parts_cache[0] != key:
            obs, legal = self.public_observation()
            self._parts_cache = (key, {
                "id": _dumps(self.id),
                "obs": _dumps(obs),
                "legal": _dumps(legal),
                "seats": _dumps(self.seats_json()),
                "last_log": _dumps(self.log[-1:]),
                "full_log": _dumps(self.log),
                "result": _dumps(self.result()),
            })
        return self._parts_cache[1]

    def _presence_key(self) -> tuple[Any, ...]:
        return tuple(
            (s.kind, s.agent, s.name, s.handed_over, self.connected(s.seat), self.away_seconds(s.seat) is not None)
            for s in self.data.seats
        )

    def replay_json(self) -> dict[str, Any]:
        """The ``GET /api/tables/{id}/replay`` answer (docs/web-api.md): the table, the
        record, a spectator's observation before the first action and after each (with
        that action's log entry), and the result. Only for a finished game: the record
        holds the deal."""
        initial = self.game.initial
        assert initial is not None and self.data.status == "finished"
        replay = Game(initial.copy(), list(self.game.seats))

        def spectator() -> dict[str, Any]:
            obs = dict(observe(replay.state, max(replay.state.to_move, 0)).to_json())
            obs["seat"] = None
            return obs

        steps = [{"i": 0, "seat": None, "action": None, "card": None, "observation": spectator()}]
        for entry in self.log:
            replay.play(Action.from_json(entry["action"]))
            steps.append({**entry, "i": entry["i"] + 1, "card": entry.get("card"), "observation": spectator()})
        return {"table": self.table_json(), "record": self.game.to_record(), "steps": steps, "result": self.result()}
