"""Game records, format ``coloretto-record/1`` (docs/record-format.md).

A record is JSON: the rules (docs/rules.md §7 keys), seat names, the setup (one object, or a
list of one per game for a match), the actions in order, and optionally the result.
``Game`` plays a state while keeping its record; ``replay`` checks a record action by
action against the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from .actions import Action
from .cards import CARD_NAMES, COLORS, LAST_ROUND, card_code, color_code
from .errors import ColorettoError, ConfigurationError, IllegalActionError, InvalidRecordError
from .rules import Rules
from .setup import Setup
from .state import PLACE, GameState

RECORD_FORMAT = "coloretto-record/1"


# ----- setup <-> JSON ----------------------------------------------------------------------
def setup_to_json(setup: Setup) -> dict[str, Any]:
    """JSON form of a setup (draw pile top first, cards by name)."""
    out: dict[str, Any] = {
        "removed_colors": [COLORS[c] for c in setup.removed_colors],
        "starting_cards": None
        if setup.starting_cards is None
        else [[COLORS[c] for c in cards] for cards in setup.starting_cards],
        "first_player": setup.first_player,
        "draw_pile": None if setup.draw_pile is None else [CARD_NAMES[c] for c in setup.draw_pile],
    }
    if setup.shuffle_seed is not None:
        out["shuffle_seed"] = setup.shuffle_seed
    return out


def setup_from_json(data: Any, rules: Rules) -> Setup:
    """Parse a setup object.

    Raises:
        InvalidRecordError: a missing or mistyped field, an unknown card or colour name, or
            both ``draw_pile`` and ``shuffle_seed`` (docs/record-format.md: the shuffle seed
            stands in for a pile that cannot be known in advance).
    """
    if not isinstance(data, dict):
        raise InvalidRecordError(f"setup must be an object, not {type(data).__name__}")
    try:
        removed = tuple(color_code(c) for c in _list(data.get("removed_colors", []), "removed_colors"))
        sc = data.get("starting_cards")
        starting = None
        if sc is not None:
            starting = tuple(
                tuple(color_code(c) for c in _list(cards, "starting_cards[]"))
                for cards in _list(sc, "starting_cards")
            )
        first = data.get("first_player", 0)
        if type(first) is not int:
            raise InvalidRecordError(f"setup.first_player must be an integer, got {first!r}")
        pile_json = data.get("draw_pile")
        pile = None if pile_json is None else tuple(card_code(c) for c in _list(pile_json, "draw_pile"))
        seed = data.get("shuffle_seed")
        if seed is not None and type(seed) is not int:
            raise InvalidRecordError(f"setup.shuffle_seed must be an integer, got {seed!r}")
    except ValueError as exc:
        if isinstance(exc, InvalidRecordError):
            raise
        raise InvalidRecordError(f"setup: {exc}") from None
    if pile is None and seed is None:
        raise InvalidRecordError("setup.draw_pile is missing")
    if pile is not None and seed is not None:
        raise InvalidRecordError(
            "setup has both draw_pile and shuffle_seed: give draw_pile, or shuffle_seed with "
            "draw_pile null (starting_cards: choose)"
        )
    if rules.starting_cards == "random" and starting is None:
        raise InvalidRecordError("setup.starting_cards is missing (rules say starting_cards: random)")
    return Setup(removed, starting, first, pile, seed)


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidRecordError(f"setup.{name} must be a list, got {value!r}")
    return value


# ----- a game with its record -----------------------------------------------------------------
@dataclass
class Game:
    """A state plus the record of how it was reached.

    Attributes:
        state: the current ``GameState``.
        seats: seat names (one per seat).
        entries: the record's action entries so far (JSON objects).
        initial: the state at the start (for replays and rewinds).
    """

    state: GameState
    seats: list[str]
    entries: list[dict[str, Any]] = field(default_factory=list)
    initial: GameState | None = None

    def __post_init__(self) -> None:
        if self.initial is None:
            self.initial = self.state.copy()
        if len(self.seats) != self.state.n:
            raise ConfigurationError(f"{len(self.seats)} seat names for {self.state.n} seats")

    def play(self, action: Action | int) -> None:
        """Apply ``action`` for the seat to move and record it.

        Raises:
            IllegalActionError: as ``GameState.apply`` (nothing is recorded).
        """
        st = self.state
        seat = st.to_move
        action = A.decode(action) if isinstance(action, int) else action
        phase = st.phase
        st.apply(action)
        if action.kind == "draw":
            return  # recorded with its placement
        if action.kind == "place":
            assert phase == PLACE
            card = st.rows[action.arg][-1]
            self.entries.append({"seat": seat, "action": "draw", "card": CARD_NAMES[card], "row": action.arg})
        elif action.kind == "take":
            self.entries.append({"seat": seat, "action": "take", "row": action.arg})
        else:
            self.entries.append({"seat": seat, "action": "choose_start", "color": COLORS[action.arg]})

    def to_record(self, *, include_result: bool = True) -> dict[str, Any]:
        """The ``coloretto-record/1`` JSON object (with ``result`` once the game is over)."""
        assert self.initial is not None
        setups = [setup_to_json(s) for s in self.initial.setups if s is not None]
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "rules": self.state.rules.to_dict(),
            "seats": list(self.seats),
            "setup": setups[0] if len(setups) == 1 else setups,
            "actions": [dict(e) for e in self.entries],
        }
        if include_result and self.state.is_over():
            rec["result"] = {"scores": self.state.totals()}
        return rec


@dataclass
class ReplayResult:
    """Outcome of ``replay``.

    Attributes:
        valid: every action was legal and consistent, and ``result`` (if any) agrees.
        game: the ``Game`` as far as it replayed (``None`` if the header was invalid).
        error: the first problem, or ``None``.
        action_index: index of the offending action; ``len(actions)`` for a ``result``
            mismatch; ``None`` for a header or setup problem.
    """

    valid: bool
    game: Game | None
    error: str | None = None
    action_index: int | None = None

    @property
    def finished(self) -> bool:
        """The replayed game is over."""
        return self.game is not None and self.game.state.is_over()

    def to_json(self) -> dict[str, Any]:
        """``{"valid": true, "finished", "scores", "winners"}`` or ``{"valid": false,
        "action_index", "error"}`` (the ``coloretto replay --json`` contract)."""
        if self.valid and self.game is not None:
            st = self.game.state
            return {"valid": True, "finished": st.is_over(), "scores": st.totals(), "winners": st.winners()}
        return {"valid": False, "action_index": self.action_index, "error": self.error}


def load_header(record: Any) -> Game:
    """Check a record's header and setup and return the ``Game`` at its start.

    Raises:
        InvalidRecordError: wrong format, rules, seats or setup (``action_index`` is None).
    """
    if not isinstance(record, dict):
        raise InvalidRecordError(f"a record must be a JSON object, not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise InvalidRecordError(f"format must be {RECORD_FORMAT!r}, got {record.get('format')!r}")
    try:
        rules = Rules.from_dict(record.get("rules", {}))
    except ConfigurationError as exc:
        raise InvalidRecordError(f"rules: {exc}") from None
    if "seats" not in record:
        seats: Any = [f"seat {s + 1}" for s in range(rules.players)]
    else:
        seats = record["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise InvalidRecordError("seats must be a list of names")
    if len(seats) != rules.players:
        raise InvalidRecordError(f"{len(seats)} seat names for {rules.players} players")
    raw = record.get("setup")
    raw_list = raw if isinstance(raw, list) else [raw]
    if len(raw_list) != rules.match_games:
        raise InvalidRecordError(f"a match of {rules.match_games} game(s) needs {rules.match_games} setup(s), got {len(raw_list)}")
    setups = [setup_from_json(s, rules) for s in raw_list]
    try:
        state = GameState(rules, setups)
    except ConfigurationError as exc:
        raise InvalidRecordError(f"setup: {exc}") from None
    if not isinstance(record.get("actions", []), list):
        raise InvalidRecordError("actions must be a list")
    return Game(state, list(seats))


def apply_entry(game: Game, entry: Any) -> None:
    """Apply one record entry to ``game``.

    Raises:
        InvalidRecordError: malformed entry, wrong seat, or a drawn card that is not the one
            the draw pile reveals (``action_index`` unset; ``replay`` fills it).
        IllegalActionError: the action breaks a rule.
    """
    if not isinstance(entry, dict):
        raise InvalidRecordError(f"an action must be an object, not {entry!r}")
    st = game.state
    seat = entry.get("seat")
    if type(seat) is not int:
        raise InvalidRecordError(f"an action needs an integer 'seat', got {seat!r}")
    if seat != st.to_move:
        if st.is_over():
            raise InvalidRecordError("an action after the end of the game")
        raise InvalidRecordError(_wrong_seat(seat, st.to_move, st.n))
    kind = entry.get("action")
    if kind in ("draw", "take") and type(entry.get("row")) is int:
        _check_row(kind, entry["row"], st.nrows)
    if kind == "draw":
        card: Any = entry.get("card")
        row = entry.get("row")
        if type(row) is not int:
            raise InvalidRecordError(f"a draw needs an integer row, got {A.short_repr(row)}")
        try:
            code = card_code(card)
        except ValueError as exc:
            raise InvalidRecordError(str(exc)) from None
        if code == LAST_ROUND:
            raise InvalidRecordError("the Last Round card is never placed in a row (docs/rules.md §5.1)")
        before = st.copy()
        game.play(A.DRAW_ACTION)
        if st.drawn != code:
            game.state = before
            raise InvalidRecordError(
                f"the record says {card!r} was drawn, but the draw pile reveals {CARD_NAMES[st.drawn]!r}"
            )
        try:
            game.play(Action.from_json({"action": "place", "row": row}))
        except (ValueError, IllegalActionError):
            game.state = before
            raise
        return
    try:
        action = Action.from_json(entry)
    except ValueError as exc:
        raise InvalidRecordError(str(exc)) from None
    if action.kind == "place":
        raise InvalidRecordError("record a placement as a 'draw' entry with its card and row")
    game.play(action)


def _wrong_seat(seat: int, to_move: int, players: int) -> str:
    """The message for an entry by a seat that is not to move. People count seats from 1,
    records from 0: both are named, e.g. 'seat 3 ("seat": 2) acted, but seat 1 ("seat": 0)
    is to move'."""
    mover = f'seat {to_move + 1} ("seat": {to_move}) is to move'
    if not 0 <= seat < players:
        return (
            f'"seat": {A.short_repr(seat)} is no seat: records count seats from 0, so "seat" '
            f"is 0 to {players - 1} here; {mover}"
        )
    return f'seat {seat + 1} ("seat": {seat}) acted, but {mover}'


def _check_row(kind: str, row: int, nrows: int) -> None:
    """Refuse a row the table does not have (``"row"`` 0 to ``nrows - 1`` in records).

    Raises:
        InvalidRecordError: e.g. 'draw entry: "row": 7 does not exist; records count rows
            from 0, so "row" is 0 to 3 here'.
    """
    if not 0 <= row < nrows:
        raise InvalidRecordError(
            f'{kind} entry: "row": {A.short_repr(row)} does not exist; records count rows '
            f'from 0, so "row" is 0 to {nrows - 1} here'
        )


TOO_DEEP = "a value in the record is nested too deeply"
"""The error of a record whose JSON nests so deeply that checking it exhausts the stack."""


def replay(record: Any) -> ReplayResult:
    """Check every action of ``record`` against the rules (the ``coloretto replay`` check).

    Never raises for a bad record: the problem is in the result (also for a value nested so
    deeply that checking it exhausts the stack: ``TOO_DEEP``).
    """
    try:
        game = load_header(record)
    except ColorettoError as exc:
        return ReplayResult(False, None, str(exc), None)
    except RecursionError:
        return ReplayResult(False, None, TOO_DEEP, None)
    actions = record.get("actions", [])
    for i, entry in enumerate(actions):
        try:
            apply_entry(game, entry)
        except (ColorettoError, ValueError) as exc:
            return ReplayResult(False, game, str(exc), i)
        except RecursionError:
            return ReplayResult(False, game, TOO_DEEP, i)
    result = record.get("result")
    if result is not None:
        scores = result.get("scores") if isinstance(result, dict) else None
        if not isinstance(scores, list):
            return ReplayResult(False, game, "result must be an object with a list 'scores'", len(actions))
        if not game.state.is_over():
            return ReplayResult(False, game, "the record has a result but the game is not over", len(actions))
        if scores != game.state.totals():
            return ReplayResult(
                False, game, f"result scores {A.short_repr(scores, 200)} disagree with the replay's {game.state.totals()}", len(actions)
            )
    return ReplayResult(True, game)


def load_game(record: Any) -> Game:
    """Replay ``record`` and return its ``Game``, to continue it (``--resume``).

    Raises:
        InvalidRecordError: the record is invalid (with ``action_index``).
    """
    res = replay(record)
    if not res.valid or res.game is None:
        raise InvalidRecordError(res.error or "invalid record", res.action_index)
    return res.game


def new_record_game(state: GameState, seats: Sequence[str]) -> Game:
    """A ``Game`` recording from ``state`` (normally a fresh ``new_game``)."""
    return Game(state, list(seats))
